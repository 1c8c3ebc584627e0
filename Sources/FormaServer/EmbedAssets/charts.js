// Charts drawn as SVG by hand (no chart library, nothing from a network): a line chart over calendar days, and bar
// charts over categories (weeks, fitness tests) with one or two bars each. Every chart is an image with a title and
// a summary for screen readers, and carries a table of the same values (visually hidden) next to it. Every data mark
// has data-series, data-label and data-value attributes, so tests and tools can read what was drawn.
import { h, svg } from './dom.js';
import { t, currentLocale } from './i18n.js';

const WIDTH = 640;
const HEIGHT = 260;
const MARGIN = { left: 56, right: 16, top: 16, bottom: 48 };
const PLOT_W = WIDTH - MARGIN.left - MARGIN.right;
const PLOT_H = HEIGHT - MARGIN.top - MARGIN.bottom;
let chartCount = 0;

// `YYYY-MM-DD` → milliseconds at UTC midnight, so day arithmetic never meets a daylight-saving change. The server
// already chose the person's time zone for its days.
export function dayValue(day) {
  const [year, month, date] = day.split('-').map(Number);
  return Date.UTC(year, month - 1, date);
}


export function formatDay(day, { year = false } = {}) {
  const options = { day: 'numeric', month: 'short', timeZone: 'UTC' };
  if (year) options.year = 'numeric';
  return new Intl.DateTimeFormat(currentLocale(), options).format(new Date(dayValue(day)));
}

// Numbers as people read them: integers plain, others with at most one decimal.
export function formatNumber(value) {
  return new Intl.NumberFormat(currentLocale(), { minimumFractionDigits: Number.isInteger(value) ? 0 : 1, maximumFractionDigits: 1 })
    .format(value);
}

// A round step for about `count` ticks up to `max` (1, 2 or 5 × a power of ten), and the axis top it gives.
export function niceScale(max, count = 4) {
  if (!(max > 0)) return { top: count, step: 1 };
  const rough = max / count;
  const power = 10 ** Math.floor(Math.log10(rough));
  const step = [1, 2, 5, 10].map((m) => m * power).find((candidate) => candidate >= rough);
  return { top: Math.ceil(max / step) * step, step };
}

function frame({ title, summary, yLabel, xLabel, top, step, unit }) {
  const id = `chart-${++chartCount}`;
  const y = (value) => MARGIN.top + PLOT_H - (value / top) * PLOT_H;
  const grid = [];
  for (let value = 0; value <= top + step / 2; value += step) {
    grid.push(
      svg('line', { x1: MARGIN.left, x2: WIDTH - MARGIN.right, y1: y(value), y2: y(value), class: 'grid' }),
      svg('text', { x: MARGIN.left - 8, y: y(value) + 4, class: 'tick', 'text-anchor': 'end' }, formatNumber(value)));
  }
  const root = svg('svg', {
    viewBox: `0 0 ${WIDTH} ${HEIGHT}`, class: 'chart', role: 'img', 'aria-labelledby': `${id}-title ${id}-desc`,
    'data-unit': unit,
  },
  svg('title', { id: `${id}-title` }, title),
  svg('desc', { id: `${id}-desc` }, summary),
  svg('g', { class: 'axes', 'aria-hidden': 'true' },
    grid,
    svg('line', { x1: MARGIN.left, x2: MARGIN.left, y1: MARGIN.top, y2: MARGIN.top + PLOT_H, class: 'axis' }),
    svg('line', {
      x1: MARGIN.left, x2: WIDTH - MARGIN.right, y1: MARGIN.top + PLOT_H, y2: MARGIN.top + PLOT_H, class: 'axis',
    }),
    svg('text', {
      class: 'axis-title', transform: `translate(14 ${MARGIN.top + PLOT_H / 2}) rotate(-90)`, 'text-anchor': 'middle',
    }, yLabel),
    svg('text', { class: 'axis-title', x: MARGIN.left + PLOT_W / 2, y: HEIGHT - 6, 'text-anchor': 'middle' }, xLabel)));
  return { root, y };
}

// The values as a table for screen readers (and anyone who prefers numbers): `columns` are header texts, `rows`
// arrays of cell texts.
export function dataTable(caption, columns, rows) {
  // The wrapper hides it: a table ignores the overflow that clips a visually hidden block.
  return h('div', { class: 'visually-hidden' }, h('table', { class: 'chart-table' },
    h('caption', {}, caption),
    h('thead', {}, h('tr', {}, columns.map((column) => h('th', { scope: 'col' }, column)))),
    h('tbody', {}, rows.map((row) => h('tr', {}, row.map((cell, index) =>
      index === 0 ? h('th', { scope: 'row' }, cell) : h('td', {}, cell)))))));
}

// A legend naming each series with its colour and marker (it is text, so it is read as well as seen).
export function legend(series) {
  return h('ul', { class: 'legend' }, series.map((entry, index) =>
    h('li', { 'data-series': entry.name },
      h('span', { class: `swatch series-${index % 8}`, 'aria-hidden': 'true' }), entry.name)));
}

// A line chart over the calendar days `from`…`to`. `series`: [{name, points: [{day, value, text}]}]; the y axis
// runs from 0 to `max` (or a round top over the data).
export function lineChart({ title, summary, yLabel, unit, from, to, series, max }) {
  const first = dayValue(from);
  const span = Math.max(1, (dayValue(to) - first) / 86400000);
  const x = (day) => MARGIN.left + (((dayValue(day) - first) / 86400000) / span) * PLOT_W;
  const highest = Math.max(0, ...series.flatMap((entry) => entry.points.map((point) => point.value)));
  const { top, step } = max ? { top: max, step: max / 5 } : niceScale(highest);
  const { root, y } = frame({ title, summary, yLabel, xLabel: t('charts.day'), top, step, unit });
  const ticks = [];
  const tickCount = Math.min(5, span);
  for (let index = 0; index <= tickCount; index += 1) {
    const day = new Date(first + Math.round((span * index) / tickCount) * 86400000).toISOString().slice(0, 10);
    // The end labels align with the plot's edges, so they are never cut off.
    const anchor = index === 0 ? 'start' : index === tickCount ? 'end' : 'middle';
    ticks.push(svg('text', { x: x(day), y: MARGIN.top + PLOT_H + 18, class: 'tick', 'text-anchor': anchor },
      formatDay(day)));
  }
  root.append(svg('g', { class: 'x-ticks', 'aria-hidden': 'true' }, ticks));
  series.forEach((entry, index) => {
    const points = entry.points.map((point) => [x(point.day), y(point.value)]);
    root.append(svg('g', { class: `series series-${index % 8}`, 'data-series': entry.name },
      points.length > 1 ? svg('polyline', { points: points.map((p) => p.join(',')).join(' '), class: 'line' }) : null,
      entry.points.map((point, at) => svg('circle', {
        cx: points[at][0], cy: points[at][1], r: 5, class: 'point',
        'data-series': entry.name, 'data-label': point.day, 'data-value': point.value,
      }, svg('title', {}, `${entry.name}, ${formatDay(point.day, { year: true })}: ${point.text}`)))));
  });
  return root;
}

// A bar chart over categories. `groups`: [{label, key, bars: [{series, value, text, muted}]}], bars of a group side
// by side; a bar with a null value is left out (a gap, never a zero that was not measured).
export function barChart({ title, summary, yLabel, xLabel, unit, groups, labelEvery = 1 }) {
  const highest = Math.max(0, ...groups.flatMap((group) => group.bars.map((bar) => bar.value ?? 0)));
  const { top, step } = niceScale(highest);
  const { root, y } = frame({ title, summary, yLabel, xLabel, top, step, unit });
  const slot = PLOT_W / Math.max(1, groups.length);
  groups.forEach((group, index) => {
    const left = MARGIN.left + slot * index;
    const count = Math.max(1, group.bars.length);
    const width = Math.min(40, (slot * 0.7) / count);
    const start = left + (slot - width * count) / 2;
    const marks = group.bars.map((bar, at) => {
      if (bar.value === null || bar.value === undefined) return null;
      const height = Math.max(bar.value > 0 ? 1 : 0, MARGIN.top + PLOT_H - y(bar.value));
      return svg('rect', {
        x: start + width * at, y: MARGIN.top + PLOT_H - height, width: width - 2, height,
        class: `bar ${bar.muted ? 'muted' : `series-${at % 8}`}`,
        'data-series': bar.key ?? bar.series, 'data-label': group.key, 'data-value': bar.value,
      }, svg('title', {}, `${group.label}, ${bar.series}: ${bar.text}`));
    });
    const label = index % labelEvery === 0
      ? svg('text', {
        x: left + slot / 2, y: MARGIN.top + PLOT_H + 18, class: 'tick', 'text-anchor': 'middle', 'aria-hidden': 'true',
      }, group.label)
      : null;
    root.append(svg('g', { class: 'group', 'data-label': group.key }, marks, label));
  });
  return root;
}
