// Progress charts (/embed/progress, docs/rehab.md#progress-charts): pain over time per region, training minutes and
// repetitions per week, and fitness-test results against the previous ones, from the /v1/me/progress series.
import { h, show } from './dom.js';
import { lineChart, barChart, dataTable, legend, formatDay, formatNumber } from './charts.js';

function query(params) {
  const search = new URLSearchParams();
  for (const name of ['from', 'to', 'timeZone']) {
    if (params.has(name)) search.set(name, params.get(name));
  }
  const text = search.toString();
  return text ? `?${text}` : '';
}

function period(series) {
  return `${formatDay(series.from, { year: true })} to ${formatDay(series.to, { year: true })}`;
}

export class ProgressView {
  constructor(context) {
    this.context = context;
  }

  async open() {
    const { api, params, bridge } = this.context;
    show(h('p', { class: 'status' }, 'Loading…'));
    const suffix = query(params);
    let pain;
    let training;
    let fitness;
    try {
      [pain, training, fitness] = await Promise.all([
        api.get(`/v1/me/progress/pain${suffix}`),
        api.get(`/v1/me/progress/training${suffix}`),
        api.get(`/v1/me/progress/fitness-tests${suffix}`),
      ]);
    } catch (error) {
      return this.context.fail(error.status === 400 ? 'configuration' : 'api', `progress: ${error.message}`);
    }
    show(h('section', { class: 'progress-charts' },
      h('h1', {}, 'Your progress'),
      h('p', { class: 'meta' }, `Days and weeks in ${training.timeZone}.`),
      this.painSection(pain),
      this.trainingSection(training),
      this.fitnessSection(fitness),
      h('div', { class: 'actions' },
        h('button', { id: 'to-pain-map', onClick: () => this.context.navigate('/embed/pain-map') }, 'Report pain'),
        h('button', { id: 'exit', class: 'quiet', onClick: () => bridge.post('exit_kinestex', {}) }, 'Close'))));
    bridge.post('progress_opened', {
      from: pain.from, to: pain.to, timeZone: pain.timeZone, painRegions: pain.regions.length,
      weeks: training.weeks.length, fitnessExercises: fitness.exercises.length,
    });
  }

  painSection(pain) {
    const section = h('section', { id: 'pain-chart', class: 'chart-block', 'aria-labelledby': 'pain-heading' },
      h('h2', { id: 'pain-heading' }, 'Pain over time'),
      h('p', { class: 'meta' }, `${period(pain)}. Each point is the highest pain reported that day, 0 (none) to 10.`));
    if (pain.regions.length === 0) {
      section.append(h('p', { class: 'empty' }, 'No pain reported in this period.'));
      return section;
    }
    const series = pain.regions.map((region) => ({
      name: region.label,
      points: region.points.map((point) => ({
        day: point.date, value: point.intensity,
        text: `${point.intensity}/10${point.reports > 1 ? ` (highest of ${point.reports} reports)` : ''}`,
      })),
    }));
    const count = series.reduce((sum, entry) => sum + entry.points.length, 0);
    section.append(
      lineChart({
        title: 'Pain over time, by body region',
        summary: `${count} day${count === 1 ? '' : 's'} with pain reports in ${series.length} region`
          + `${series.length === 1 ? '' : 's'}, ${period(pain)}; the table below lists every value.`,
        yLabel: 'Pain (0–10)', unit: 'pain 0-10', from: pain.from, to: pain.to, series, max: 10,
      }),
      legend(series),
      dataTable('Pain by day', ['Day', 'Region', 'Highest pain (0–10)', 'Reports'],
        pain.regions.flatMap((region) => region.points.map((point) =>
          [formatDay(point.date, { year: true }), region.label, String(point.intensity), String(point.reports)]))));
    return section;
  }

  trainingSection(training) {
    const section = h('section', { id: 'training-chart', class: 'chart-block', 'aria-labelledby': 'training-heading' },
      h('h2', { id: 'training-heading' }, 'Training per week'),
      h('p', { class: 'meta' },
        `Weeks from Monday, ${period(training)}: ${formatNumber(training.totals.minutes)} minutes, `
        + `${training.totals.repetitions} repetitions in ${training.totals.workouts} saved workouts.`));
    if (training.totals.workouts === 0) {
      section.append(h('p', { class: 'empty' }, 'No saved workouts in this period.'));
      return section;
    }
    const labelEvery = Math.ceil(training.weeks.length / 8);
    const groups = (value, text) => training.weeks.map((week) => ({
      key: week.weekStart, label: formatDay(week.weekStart), bars: [{ series: text, value: value(week), text: `${formatNumber(value(week))} ${text}` }],
    }));
    section.append(
      h('h3', {}, 'Minutes'),
      barChart({
        title: 'Training minutes per week',
        summary: `Active minutes of saved workouts in each of ${training.weeks.length} weeks, ${period(training)}.`,
        yLabel: 'Minutes', xLabel: 'Week starting', unit: 'minutes', labelEvery,
        groups: groups((week) => week.minutes, 'minutes'),
      }),
      h('h3', {}, 'Repetitions'),
      barChart({
        title: 'Repetitions per week',
        summary: `Repetitions of saved workouts in each of ${training.weeks.length} weeks, ${period(training)}.`,
        yLabel: 'Repetitions', xLabel: 'Week starting', unit: 'repetitions', labelEvery,
        groups: groups((week) => week.repetitions, 'repetitions'),
      }),
      dataTable('Training by week', ['Week starting', 'Workouts', 'Minutes', 'Repetitions'],
        training.weeks.map((week) => [
          formatDay(week.weekStart, { year: true }), String(week.workouts), formatNumber(week.minutes),
          String(week.repetitions),
        ])));
    return section;
  }

  fitnessSection(fitness) {
    const section = h('section', { id: 'fitness-chart', class: 'chart-block', 'aria-labelledby': 'fitness-heading' },
      h('h2', { id: 'fitness-heading' }, 'Fitness tests'),
      h('p', { class: 'meta' }, `${period(fitness)}. Each test's pace beside the previous test of the same exercise.`));
    if (fitness.exercises.length === 0) {
      section.append(h('p', { class: 'empty' }, 'No fitness tests completed in this period.'));
      return section;
    }
    const rate = (value) => (value === undefined || value === null ? null : Math.round(value * 10) / 10);
    const rateText = (value) => (rate(value) === null ? 'no pace (fewer than 2 repetitions)' : `${formatNumber(rate(value))} per minute`);
    const change = (value) => (value === undefined || value === null ? '—' : `${value >= 0 ? '+' : ''}${Math.round(value * 100)} %`);
    for (const exercise of fitness.exercises) {
      section.append(
        h('h3', {}, exercise.name),
        barChart({
          title: `${exercise.name}: repetitions per minute, each test beside the previous one`,
          summary: `${exercise.points.length} test${exercise.points.length === 1 ? '' : 's'}, ${period(fitness)}.`,
          yLabel: 'Reps per minute', xLabel: 'Test', unit: 'repetitions per minute',
          labelEvery: Math.ceil(exercise.points.length / 8),
          groups: exercise.points.map((point) => ({
            key: point.date, label: formatDay(point.date),
            bars: [
              { series: 'Previous test', value: point.previous ? rate(point.previous.ratePerMinute) : null, muted: true,
                text: point.previous ? rateText(point.previous.ratePerMinute) : 'none' },
              { series: 'This test', value: rate(point.ratePerMinute), text: rateText(point.ratePerMinute) },
            ],
          })),
        }),
        h('ul', { class: 'legend' },
          h('li', {}, h('span', { class: 'swatch muted', 'aria-hidden': 'true' }), 'Previous test'),
          h('li', {}, h('span', { class: 'swatch series-1', 'aria-hidden': 'true' }), 'This test')),
        dataTable(`${exercise.name} tests`,
          ['Test date', 'Repetitions', 'Per minute', 'Previous test', 'Previous per minute', 'Change'],
          exercise.points.map((point) => [
            formatDay(point.date, { year: true }), String(point.reps),
            rate(point.ratePerMinute) === null ? '—' : formatNumber(rate(point.ratePerMinute)),
            point.previous ? `${formatDay(point.previous.date, { year: true })}, ${point.previous.reps} reps` : 'none',
            point.previous && rate(point.previous.ratePerMinute) !== null ? formatNumber(rate(point.previous.ratePerMinute)) : '—',
            change(point.change),
          ])));
    }
    return section;
  }
}
