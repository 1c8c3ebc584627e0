// The pain map (/embed/pain-map, docs/rehab.md): the body map from GET /v1/body-map drawn as two SVG figures, a tap
// or a key press choosing a region, and a form that saves a pain report and tells the host (`pain_reported`).
import { h, show, svg } from './dom.js';
import { t } from './i18n.js';

const HEIGHT = 1000; // a figure's height in SVG units; its width is HEIGHT × aspectRatio

// The core's hit test (FormaCore BodyMap.hitTest): areas in hit order, the first whose shape holds the point wins;
// a box includes its edges, a polygon uses the even-odd crossing rule.
export function hitTest(figure, x, y) {
  if (!(x >= 0 && x <= 1 && y >= 0 && y <= 1)) return null;
  const contains = (shape) => {
    if (shape.box) {
      const b = shape.box;
      return x >= b.x && x <= b.x + b.width && y >= b.y && y <= b.y + b.height;
    }
    const points = (shape.polygon && shape.polygon.points) || [];
    if (points.length < 3) return false;
    let inside = false;
    let previous = points[points.length - 1];
    for (const vertex of points) {
      if ((vertex[1] > y) !== (previous[1] > y)) {
        const crossing = ((previous[0] - vertex[0]) * (y - vertex[1])) / (previous[1] - vertex[1]) + vertex[0];
        if (x < crossing) inside = !inside;
      }
      previous = vertex;
    }
    return inside;
  };
  return figure.areas.find((area) => area.shapes.some(contains)) || null;
}

// An outline of a standing figure behind the regions, for orientation only (hidden from screen readers).
export function silhouette(width) {
  const x = (value) => value * width;
  const y = (value) => value * HEIGHT;
  const limb = (x1, y1, x2, y2, thickness) => svg('line', {
    x1: x(x1), y1: y(y1), x2: x(x2), y2: y(y2), 'stroke-width': x(thickness), class: 'limb',
  });
  return svg('g', { class: 'silhouette', 'aria-hidden': 'true' },
    svg('ellipse', { cx: x(0.5), cy: y(0.06), rx: x(0.075), ry: y(0.05) }),
    svg('rect', { x: x(0.37), y: y(0.14), width: x(0.26), height: y(0.32), rx: x(0.05) }),
    limb(0.33, 0.18, 0.16, 0.47, 0.08), limb(0.67, 0.18, 0.84, 0.47, 0.08),
    limb(0.42, 0.46, 0.41, 0.95, 0.12), limb(0.58, 0.46, 0.59, 0.95, 0.12));
}

export class PainMapView {
  constructor(context) {
    this.context = context;
    this.map = null;
    this.selected = null; // {region, side, view}
  }

  async open() {
    const { api } = this.context;
    show(h('p', { class: 'status' }, t('common.loading')));
    try {
      this.map = await api.get('/v1/body-map');
    } catch (error) {
      return this.context.fail('api', t('error.prefixed', { field: 'body-map', message: error.message }));
    }
    this.labels = Object.fromEntries(this.map.regions.map((region) => [region.id, region]));
    this.render();
    await this.refresh();
  }

  label(region, side) {
    const label = this.labels[region] ? this.labels[region].label : region;
    if (side === 'left' || side === 'right') {
      return t(side === 'left' ? 'pain.left' : 'pain.right', { label, lower: `${label.charAt(0).toLowerCase()}${label.slice(1)}` });
    }
    return label;
  }

  // One figure: regions in head-to-foot order (the keyboard's order); taps go through the hit test, so where two
  // areas overlap the map's hit order decides, whatever is painted on top.
  figure(figure) {
    const width = HEIGHT * this.map.aspectRatio;
    const order = this.map.regions.map((region) => region.id);
    const sideRank = { right: 0, both: 1, left: 2 };
    const areas = figure.areas.slice().sort((a, b) =>
      order.indexOf(a.region) - order.indexOf(b.region) || sideRank[a.side] - sideRank[b.side]);
    const view = figure.view;
    const root = svg('svg', {
      viewBox: `0 0 ${width} ${HEIGHT}`, preserveAspectRatio: 'xMidYMid meet', class: 'figure', role: 'group',
      'aria-label': view === 'front' ? t('pain.front') : t('pain.behind'), 'data-view': view,
    }, silhouette(width), areas.map((area) => {
      const name = t('pain.regionView', { region: this.label(area.region, area.side), view: view === 'front' ? t('pain.viewFront') : t('pain.viewBack') });
      const group = svg('g', {
        class: 'region', role: 'button', tabindex: 0, 'aria-label': name, 'aria-pressed': 'false',
        'data-region': area.region, 'data-side': area.side, 'data-view': view,
      }, area.shapes.map((shape) => shape.box
        ? svg('rect', {
          x: shape.box.x * width, y: shape.box.y * HEIGHT, width: shape.box.width * width,
          height: shape.box.height * HEIGHT, rx: 6,
        })
        : svg('polygon', { points: shape.polygon.points.map(([px, py]) => `${px * width},${py * HEIGHT}`).join(' ') })));
      group.addEventListener('keydown', (event) => {
        if (event.key === 'Enter' || event.key === ' ') {
          event.preventDefault();
          this.choose(area.region, area.side, view);
        }
      });
      return group;
    }));
    root.addEventListener('click', (event) => {
      const matrix = root.getScreenCTM();
      if (!matrix) return;
      const point = new DOMPoint(event.clientX, event.clientY).matrixTransform(matrix.inverse());
      const hit = hitTest(figure, point.x / width, point.y / HEIGHT);
      if (hit) this.choose(hit.region, hit.side, view);
    });
    return h('figure', {}, root, h('figcaption', {}, view === 'front' ? t('body.front') : t('body.back')));
  }

  render() {
    const intensity = h('input', {
      type: 'range', id: 'intensity', min: 0, max: 10, step: 1, value: 0, 'aria-valuetext': t('pain.none0'),
    });
    const value = h('output', { id: 'intensity-value', for: 'intensity' }, '0');
    intensity.addEventListener('input', () => {
      value.textContent = intensity.value;
      intensity.setAttribute('aria-valuetext', t('pain.outOf10', { value: Number(intensity.value) }));
    });
    const select = (id, options) => h('select', { id }, options.map(([v, text]) => h('option', { value: v }, text)));
    this.form = {
      intensity,
      both: h('input', { type: 'checkbox', id: 'both-sides' }),
      kind: select('kind', ['aching', 'dull', 'sharp', 'burning'].map((v) => [v, t(`pain.kind.${v}`)])),
      when: select('when', ['movement', 'rest', 'night'].map((v) => [v, t(`pain.when.${v}`)])),
      note: h('textarea', { id: 'note', maxlength: 500, rows: 2 }),
      save: h('button', { id: 'save', class: 'primary', disabled: true, onClick: () => this.save() }, t('pain.save')),
      chosen: h('p', { id: 'selected', 'aria-live': 'polite' }, t('pain.tap')),
      status: h('p', { id: 'saved', role: 'status' }),
      current: h('ul', { id: 'current', class: 'items' }),
    };
    const f = this.form;
    show(h('section', { class: 'pain-map' },
      h('h1', {}, t('pain.title')),
      h('div', { class: 'figures' }, this.map.figures.map((figure) => this.figure(figure))),
      f.chosen,
      h('div', { class: 'fields' },
        h('label', { for: 'intensity' }, t('pain.intensity')), intensity, value,
        h('label', { for: 'both-sides', class: 'inline' }, f.both, ` ${t('pain.both')}`),
        h('label', { for: 'kind' }, t('pain.kind')), f.kind,
        h('label', { for: 'when' }, t('pain.when')), f.when,
        h('label', { for: 'note' }, t('pain.note')), f.note),
      h('div', { class: 'actions' }, f.save),
      f.status,
      h('h2', {}, t('pain.now')),
      f.current));
  }

  choose(region, side, view) {
    this.selected = { region, side, view };
    for (const element of document.querySelectorAll('.region')) {
      const on = element.dataset.region === region && element.dataset.side === side;
      element.setAttribute('aria-pressed', on ? 'true' : 'false');
      element.classList.toggle('selected', on);
    }
    const paired = this.labels[region] && this.labels[region].paired;
    this.form.both.disabled = !paired;
    if (!paired) this.form.both.checked = false;
    this.form.chosen.textContent = t('pain.selected', { region: this.label(region, side) });
    this.form.save.disabled = false;
  }

  async save() {
    if (!this.selected) return;
    const f = this.form;
    const body = {
      region: this.selected.region,
      side: f.both.checked ? 'both' : this.selected.side,
      intensity: Number(f.intensity.value),
      kind: f.kind.value,
      when: f.when.value,
    };
    if (f.note.value.trim()) body.note = f.note.value;
    f.save.disabled = true;
    try {
      const report = await this.context.api.post('/v1/me/pain-reports', body);
      f.status.textContent = t('pain.saved', { region: this.label(report.region, report.side), intensity: report.intensity });
      this.context.bridge.post('pain_reported', {
        id: report.id, region: report.region, side: report.side, intensity: report.intensity, kind: report.kind,
        when: report.when, reportedAt: report.reportedAt,
      });
      f.note.value = '';
      await this.refresh();
    } catch (error) {
      this.context.report('api', error.message);
    } finally {
      f.save.disabled = false;
    }
  }

  // The current pain per region, and its marks on the figures.
  async refresh() {
    let state;
    try {
      state = await this.context.api.get('/v1/me/pain');
    } catch (error) {
      return this.context.report('api', error.message);
    }
    const hurting = new Map(state.regions.map((pain) => [pain.region, pain]));
    for (const element of document.querySelectorAll('.region')) {
      const pain = hurting.get(element.dataset.region);
      const sideHurts = pain && (pain.side === 'both' || pain.side === element.dataset.side || element.dataset.side === 'both');
      element.classList.toggle('hurting', Boolean(sideHurts));
      element.classList.toggle('severe', Boolean(sideHurts && pain.restriction === 'avoid'));
    }
    this.form.current.replaceChildren(...(state.regions.length === 0
      ? [h('li', {}, t('pain.noneLastWeek'))]
      : state.regions.map((pain) => h('li', { 'data-region': pain.region },
        h('span', {}, this.label(pain.region, pain.side)),
        h('span', {}, t('progress.painValue', { intensity: pain.intensity })),
        h('span', { class: 'meta' }, pain.restriction === 'avoid' ? t('pain.avoid') : t('pain.light'))))));
  }
}
