// The exercise catalogue for people (docs/embed.md, "Exercises"): /embed/exercises searches and filters it with the
// facets; /embed/exercise/{id} shows one exercise: the counter's own demonstration when the camera counts it (the
// figure the counter's model is built on, GET /v1/exercises/{id}/guide), its muscles on the body map's figures, its
// equipment and its instructions as steps.
import { h, show, svg } from './dom.js';
import { silhouette } from './pain-map.js';
import { SkeletonDrawing } from './skeleton.js';
import { t, formatNumber } from './i18n.js';

const PER_PAGE = 20;
const FIGURE_HEIGHT = 1000;

function capitalised(text) {
  const value = String(text || '');
  return value.charAt(0).toUpperCase() + value.slice(1);
}

function degrees(value) {
  return formatNumber(Math.round(value), { style: 'unit', unit: 'degree', unitDisplay: 'narrow' });
}

function equipmentLabel(value) {
  if (!value || value === 'none') return t('exercises.noEquipment');
  if (value === 'body only') return t('exercises.bodyOnly');
  return capitalised(value);
}

export class ExercisesView {
  constructor(context) {
    this.context = context;
    this.page = 1;
    this.items = [];
  }

  async open() {
    show(h('p', { class: 'status' }, t('common.loading')));
    let facets;
    try {
      facets = await this.context.api.get('/v1/catalog/facets');
    } catch (error) {
      return this.context.fail('api', t('error.prefixed', { field: 'catalogue', message: error.message }));
    }
    const select = (id, label, values) => [
      h('label', { for: id }, label),
      h('select', { id, onChange: () => this.search() },
        h('option', { value: '' }, t('exercises.any')),
        values.filter((v) => v.count > 0 && v.value !== 'none')
          .map((v) => h('option', { value: v.value }, t('exercises.facet', { value: capitalised(v.value), count: v.count })))),
    ];
    this.query = h('input', { id: 'exercise-query', type: 'search', maxlength: 100 });
    this.status = h('p', { id: 'exercise-count', role: 'status' });
    this.list = h('ul', { id: 'exercise-results', class: 'exercise-results', 'aria-labelledby': 'exercises-heading' });
    this.more = h('button', { id: 'more-exercises', type: 'button', hidden: true, onClick: () => this.load(this.page + 1) },
      t('common.showMore'));
    const form = h('form', { id: 'exercise-search', class: 'exercise-search', role: 'search' },
      h('label', { for: 'exercise-query' }, t('exercises.name')), this.query,
      select('muscle', t('exercises.muscle'), facets.muscles),
      select('equipment', t('exercises.equipment'), facets.equipment),
      select('level', t('exercises.level'), facets.levels),
      h('div', { class: 'actions' }, h('button', { type: 'submit', class: 'primary', id: 'search' }, t('exercises.search'))));
    form.addEventListener('submit', (event) => {
      event.preventDefault();
      this.search();
    });
    show(h('section', { class: 'exercises' },
      h('h1', { id: 'exercises-heading' }, t('exercises.heading')),
      form, this.status, this.list, this.more));
    await this.search();
  }

  filters() {
    const query = new URLSearchParams();
    const text = this.query.value.trim();
    if (text) query.set('q', text);
    for (const name of ['muscle', 'equipment', 'level']) {
      const value = document.getElementById(name).value;
      if (value) query.set(name, value);
    }
    return query;
  }

  async search() {
    this.items = [];
    this.list.replaceChildren();
    await this.load(1);
  }

  async load(page) {
    const query = this.filters();
    query.set('page', page);
    query.set('perPage', PER_PAGE);
    const asked = query.toString();
    this.asked = asked;
    this.status.textContent = t('exercises.searching');
    let result;
    try {
      result = await this.context.api.get(`/v1/exercises?${asked}`);
    } catch (error) {
      this.status.textContent = t('exercises.failed', { message: error.message });
      return;
    }
    if (this.asked !== asked) return; // a newer search is on its way
    this.page = page;
    const first = this.list.children.length;
    for (const exercise of result.items) {
      const meta = [capitalised(exercise.level), equipmentLabel(exercise.equipment),
        exercise.primaryMuscles.map(capitalised).join(', ')].filter(Boolean).join(' · ');
      this.list.append(h('li', { 'data-exercise-id': exercise.id },
        h('a', {
          href: `/embed/exercise/${encodeURIComponent(exercise.id)}`,
          onClick: (event) => {
            event.preventDefault();
            this.context.navigate(`/embed/exercise/${encodeURIComponent(exercise.id)}`);
          },
        }, exercise.name),
        h('span', { class: 'meta' }, meta)));
    }
    const shown = this.list.children.length;
    this.status.textContent = result.total === 0
      ? t('exercises.none')
      : t('exercises.count', { count: result.total, shown });
    this.more.hidden = shown >= result.total;
    // After "Show more", focus the first new result, so a keyboard user carries on where the list grew.
    if (page > 1 && this.list.children[first]) this.list.children[first].querySelector('a').focus();
  }
}

// The counter's value at a frame for the measured landmarks: the 3-D angle at the middle one for angles (as the
// counter reads a joint angle), else nothing to show.
function measuredAngle(frame, landmarks) {
  if (landmarks.length !== 3) return null;
  const point = (index) => [frame[index * 3], frame[index * 3 + 1], frame[index * 3 + 2]];
  const [a, b, c] = landmarks.map(point);
  const u = a.map((value, i) => value - b[i]);
  const v = c.map((value, i) => value - b[i]);
  const dot = u.reduce((sum, value, i) => sum + value * v[i], 0);
  const length = (w) => Math.hypot(...w);
  const cosine = dot / (length(u) * length(v));
  if (!Number.isFinite(cosine)) return null;
  return Math.acos(Math.max(-1, Math.min(1, cosine))) * 180 / Math.PI;
}

// The animated figure: bones and the 33 landmarks of each frame, the measured joint highlighted with its angle.
// `small`: a picture for a list (the workout summary): the figure alone, no id, caption or button of its own.
export class Demonstration {
  constructor(demo, name, { small = false } = {}) {
    this.demo = demo;
    this.frameIndex = 0;
    this.playing = false;
    this.started = null;
    const size = FIGURE_HEIGHT;
    this.body = new SkeletonDrawing();
    this.body.highlight(demo.measuredLandmarks);
    this.angle = svg('text', { class: 'angle', 'text-anchor': 'start' });
    this.svg = svg('svg', {
      viewBox: `0 0 ${size} ${size}`, class: small ? 'demonstration small' : 'demonstration', role: 'img',
      id: small ? null : 'demonstration',
      'aria-label': t('exercise.figure', { name }),
    }, this.body.element, this.angle);
    const angleWords = demo.unit === 'degrees' && demo.measuredLandmarks.length === 3
      ? t('exercise.followsAngle', { from: degrees(demo.startValue), to: degrees(demo.targetValue) })
      : t('exercise.followsJoints');
    this.button = small ? null : h('button', {
      type: 'button', id: 'demonstration-play', 'aria-pressed': 'false', onClick: () => (this.playing ? this.pause() : this.play()),
    }, t('exercise.play'));
    this.element = small ? this.svg : h('figure', { class: 'demonstration-figure' }, this.svg,
      h('figcaption', {}, angleWords), h('div', { class: 'actions' }, this.button));
    // Shown still at the turning point until played: the position a person aims for, the frame furthest from the
    // start position.
    const first = demo.frames[0];
    const distance = (frame) => frame.reduce((sum, value, i) => sum + (value - first[i]) ** 2, 0);
    this.turningPoint = demo.frames.reduce((best, frame, index) =>
      (distance(frame) > distance(demo.frames[best]) ? index : best), 0);
    this.draw(this.turningPoint);
  }

  draw(index) {
    const frame = this.demo.frames[index];
    const at = (landmark) => [frame[landmark * 3] * FIGURE_HEIGHT, frame[landmark * 3 + 1] * FIGURE_HEIGHT];
    this.body.draw(at);
    const angle = measuredAngle(frame, this.demo.measuredLandmarks);
    if (angle !== null) {
      const [x, y] = at(this.demo.measuredLandmarks[1]);
      this.angle.setAttribute('x', (x + 30).toFixed(1));
      this.angle.setAttribute('y', (y - 24).toFixed(1));
      this.angle.textContent = degrees(angle);
    }
    this.frameIndex = index;
    this.svg.dataset.frame = String(index);
  }

  play() {
    this.playing = true;
    if (this.button) {
      this.button.textContent = t('exercise.pause');
      this.button.setAttribute('aria-pressed', 'true');
    }
    this.svg.dataset.playing = 'true';
    this.started = null;
    const offset = this.frameIndex / this.demo.framesPerSecond;
    const step = (time) => {
      // Stopped, or its view was replaced (the summary when the workout starts): no drawing off screen.
      if (!this.playing || !this.svg.isConnected) {
        this.playing = false;
        this.svg.dataset.playing = 'false';
        return;
      }
      if (this.started === null) this.started = time - offset * 1000;
      const seconds = (time - this.started) / 1000;
      const index = Math.floor(seconds * this.demo.framesPerSecond) % this.demo.frames.length;
      if (index !== this.frameIndex) this.draw(index);
      this.request = requestAnimationFrame(step);
    };
    this.request = requestAnimationFrame(step);
  }

  pause() {
    this.playing = false;
    if (this.request) cancelAnimationFrame(this.request);
    if (this.button) {
      this.button.textContent = t('exercise.play');
      this.button.setAttribute('aria-pressed', 'false');
    }
    this.svg.dataset.playing = 'false';
  }
}

export class ExerciseView {
  constructor(context, id) {
    this.context = context;
    this.id = id;
    this.demonstration = null;
  }

  async open() {
    const { api } = this.context;
    show(h('p', { class: 'status' }, t('common.loading')));
    const path = `/v1/exercises/${encodeURIComponent(this.id)}`;
    let exercise;
    let guide;
    let map;
    try {
      [exercise, guide, map] = await Promise.all([api.get(path), api.get(`${path}/guide`), api.get('/v1/body-map')]);
    } catch (error) {
      return this.context.fail(error.status === 404 ? 'not_found' : 'api', t('error.prefixed', { field: 'exercise', message: error.message }));
    }
    const labels = Object.fromEntries(map.regions.map((region) => [region.id, region.label]));
    const sections = [
      h('p', { class: 'meta' }, [capitalised(exercise.level), capitalised(exercise.category), capitalised(exercise.mechanic)]
        .filter(Boolean).join(' · ')),
    ];
    if (guide.demonstration) {
      this.demonstration = new Demonstration(guide.demonstration, exercise.name);
      sections.push(h('section', { 'aria-labelledby': 'demonstration-heading' },
        h('h2', { id: 'demonstration-heading' }, t('exercise.howItIsDone')), this.demonstration.element));
    }
    sections.push(
      h('section', { 'aria-labelledby': 'muscles-heading' },
        h('h2', { id: 'muscles-heading' }, t('exercise.muscles')),
        h('div', { class: 'figures muscle-figures' }, map.figures.map((figure) => muscleFigure(map, figure, guide.regions))),
        h('ul', { class: 'legend', id: 'muscle-list' },
          guide.regions.primary.length
            ? h('li', { class: 'primary' }, t('exercise.mainly', { muscles: exercise.primaryMuscles.map(capitalised).join(', '), regions: guide.regions.primary.map((r) => labels[r] || r).join(', ') }))
            : null,
          exercise.secondaryMuscles.length
            ? h('li', { class: 'secondary' }, t('exercise.also', { muscles: exercise.secondaryMuscles.map(capitalised).join(', ') }))
            : null)),
      h('section', { 'aria-labelledby': 'equipment-heading' },
        h('h2', { id: 'equipment-heading' }, t('exercises.equipment')),
        h('p', { id: 'equipment' }, equipmentLabel(exercise.equipment))),
      h('section', { 'aria-labelledby': 'steps-heading' },
        h('h2', { id: 'steps-heading' }, t('exercise.steps')),
        exercise.instructions.length
          ? h('ol', { class: 'steps', id: 'steps' }, exercise.instructions.map((step) => h('li', {}, step)))
          : h('p', {}, t('exercise.noSteps'))),
      h('div', { class: 'actions' }, h('button', {
        type: 'button', id: 'back-to-exercises', onClick: () => this.context.navigate('/embed/exercises'),
      }, t('exercise.all'))));
    show(h('article', { class: 'exercise' }, h('h1', {}, exercise.name), sections));
    // Moving pictures only for people who have not asked their system for less motion (WCAG 2.3.3).
    const reduced = window.matchMedia && window.matchMedia('(prefers-reduced-motion: reduce)').matches;
    if (this.demonstration && !reduced) this.demonstration.play();
  }

  leave() {
    if (this.demonstration) this.demonstration.pause();
  }
}

// One body-map figure with the exercise's regions marked: primary strong, secondary light (both sides of paired
// regions). Decorative for screen readers: the list beside it says the same.
function muscleFigure(map, figure, regions) {
  const width = FIGURE_HEIGHT * map.aspectRatio;
  const kind = (region) => (regions.primary.includes(region) ? 'primary' : regions.secondary.includes(region) ? 'secondary' : null);
  return h('figure', {},
    svg('svg', { viewBox: `0 0 ${width} ${FIGURE_HEIGHT}`, class: 'figure', 'aria-hidden': 'true', 'data-view': figure.view },
      silhouette(width),
      figure.areas.filter((area) => kind(area.region)).map((area) => svg('g', {
        class: `region ${kind(area.region)}`, 'data-region': area.region, 'data-side': area.side,
      }, area.shapes.map((shape) => (shape.box
        ? svg('rect', {
          x: shape.box.x * width, y: shape.box.y * FIGURE_HEIGHT, width: shape.box.width * width,
          height: shape.box.height * FIGURE_HEIGHT, rx: 6,
        })
        : svg('polygon', { points: shape.polygon.points.map(([px, py]) => `${px * width},${py * FIGURE_HEIGHT}`).join(' ') })))))),
    h('figcaption', {}, figure.view === 'front' ? t('body.front') : t('body.back')));
}
