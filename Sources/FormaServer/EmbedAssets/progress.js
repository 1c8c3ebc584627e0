// Progress charts (/embed/progress, docs/rehab.md#progress-charts): pain over time per region, training minutes and
// repetitions per week, and fitness-test results against the previous ones, from the /v1/me/progress series.
import { h, show } from './dom.js';
import { lineChart, barChart, dataTable, legend, formatDay, formatNumber } from './charts.js';
import { t, currentLocale } from './i18n.js';

function query(params) {
  const search = new URLSearchParams();
  for (const name of ['from', 'to', 'timeZone']) {
    if (params.has(name)) search.set(name, params.get(name));
  }
  const text = search.toString();
  return text ? `?${text}` : '';
}

function period(series) {
  return t('progress.period', { from: formatDay(series.from, { year: true }), to: formatDay(series.to, { year: true }) });
}

export class ProgressView {
  constructor(context) {
    this.context = context;
  }

  async open() {
    const { api, params, bridge } = this.context;
    show(h('p', { class: 'status' }, t('common.loading')));
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
      return this.context.fail(error.status === 400 ? 'configuration' : 'api', t('error.prefixed', { field: 'progress', message: error.message }));
    }
    show(h('section', { class: 'progress-charts' },
      h('h1', {}, t('progress.title')),
      h('p', { class: 'meta' }, t('progress.zone', { zone: training.timeZone })),
      this.painSection(pain),
      this.trainingSection(training),
      this.fitnessSection(fitness),
      h('div', { class: 'actions' },
        h('button', { id: 'to-pain-map', onClick: () => this.context.navigate('/embed/pain-map') }, t('progress.reportPain')),
        h('button', { id: 'exit', class: 'quiet', onClick: () => bridge.post('exit_kinestex', {}) }, t('common.close')))));
    bridge.post('progress_opened', {
      from: pain.from, to: pain.to, timeZone: pain.timeZone, painRegions: pain.regions.length,
      weeks: training.weeks.length, fitnessExercises: fitness.exercises.length,
    });
  }

  painSection(pain) {
    const section = h('section', { id: 'pain-chart', class: 'chart-block', 'aria-labelledby': 'pain-heading' },
      h('h2', { id: 'pain-heading' }, t('progress.pain')),
      h('p', { class: 'meta' }, t('progress.painIntro', { period: period(pain) })));
    if (pain.regions.length === 0) {
      section.append(h('p', { class: 'empty' }, t('progress.noPain')));
      return section;
    }
    const series = pain.regions.map((region) => ({
      name: region.label,
      points: region.points.map((point) => ({
        day: point.date, value: point.intensity,
        text: point.reports > 1 ? t('progress.painOfReports', { intensity: point.intensity, count: point.reports }) : t('progress.painValue', { intensity: point.intensity }),
      })),
    }));
    const count = series.reduce((sum, entry) => sum + entry.points.length, 0);
    section.append(
      lineChart({
        title: t('progress.painChart'),
        summary: t('progress.painSummary', { days: t('progress.days', { count }), regions: t('progress.regions', { count: series.length }), period: period(pain) }),
        yLabel: t('progress.painAxis'), unit: 'pain 0-10', from: pain.from, to: pain.to, series, max: 10,
      }),
      legend(series),
      dataTable(t('progress.painTable'), [t('charts.day'), t('progress.region'), t('progress.highest'), t('progress.reports')],
        pain.regions.flatMap((region) => region.points.map((point) =>
          [formatDay(point.date, { year: true }), region.label, String(point.intensity), String(point.reports)]))));
    return section;
  }

  trainingSection(training) {
    const section = h('section', { id: 'training-chart', class: 'chart-block', 'aria-labelledby': 'training-heading' },
      h('h2', { id: 'training-heading' }, t('progress.training')),
      h('p', { class: 'meta' },
        t('progress.trainingIntro', {
          period: period(training), minutes: formatNumber(training.totals.minutes),
          repetitions: training.totals.repetitions, count: training.totals.workouts,
        })));
    if (training.totals.workouts === 0) {
      section.append(h('p', { class: 'empty' }, t('progress.noTraining')));
      return section;
    }
    const labelEvery = Math.ceil(training.weeks.length / 8);
    const groups = (value, series) => training.weeks.map((week) => ({
      key: week.weekStart, label: formatDay(week.weekStart),
      bars: [{ key: series, series: t(`progress.${series}`), value: value(week), text: t(`progress.${series}Value`, { value: formatNumber(value(week)) }) }],
    }));
    section.append(
      h('h3', {}, t('progress.minutes')),
      barChart({
        title: t('progress.minutesChart'),
        summary: t('progress.minutesSummary', { count: training.weeks.length, period: period(training) }),
        yLabel: t('progress.minutes'), xLabel: t('progress.weekStarting'), unit: 'minutes', labelEvery,
        groups: groups((week) => week.minutes, 'minutes'),
      }),
      h('h3', {}, t('progress.repetitions')),
      barChart({
        title: t('progress.repetitionsChart'),
        summary: t('progress.repetitionsSummary', { count: training.weeks.length, period: period(training) }),
        yLabel: t('progress.repetitions'), xLabel: t('progress.weekStarting'), unit: 'repetitions', labelEvery,
        groups: groups((week) => week.repetitions, 'repetitions'),
      }),
      dataTable(t('progress.trainingTable'), [t('progress.weekStarting'), t('progress.workouts'), t('progress.minutes'), t('progress.repetitions')],
        training.weeks.map((week) => [
          formatDay(week.weekStart, { year: true }), String(week.workouts), formatNumber(week.minutes),
          String(week.repetitions),
        ])));
    return section;
  }

  fitnessSection(fitness) {
    const section = h('section', { id: 'fitness-chart', class: 'chart-block', 'aria-labelledby': 'fitness-heading' },
      h('h2', { id: 'fitness-heading' }, t('progress.fitness')),
      h('p', { class: 'meta' }, t('progress.fitnessIntro', { period: period(fitness) })));
    if (fitness.exercises.length === 0) {
      section.append(h('p', { class: 'empty' }, t('progress.noFitness')));
      return section;
    }
    const rate = (value) => (value === undefined || value === null ? null : Math.round(value * 10) / 10);
    const rateText = (value) => (rate(value) === null ? t('progress.noPace') : t('progress.perMinuteValue', { value: formatNumber(rate(value)) }));
    const change = (value) => (value === undefined || value === null ? '—'
      : new Intl.NumberFormat(currentLocale(), { style: 'percent', signDisplay: 'exceptZero', maximumFractionDigits: 0 }).format(value));
    for (const exercise of fitness.exercises) {
      section.append(
        h('h3', {}, exercise.name),
        barChart({
          title: t('progress.fitnessChart', { name: exercise.name }),
          summary: t('progress.fitnessSummary', { count: exercise.points.length, period: period(fitness) }),
          yLabel: t('progress.perMinuteAxis'), xLabel: t('progress.test'), unit: 'repetitions per minute',
          labelEvery: Math.ceil(exercise.points.length / 8),
          groups: exercise.points.map((point) => ({
            key: point.date, label: formatDay(point.date),
            bars: [
              { key: 'Previous test', series: t('progress.previousTest'), value: point.previous ? rate(point.previous.ratePerMinute) : null, muted: true,
                text: point.previous ? rateText(point.previous.ratePerMinute) : t('progress.none') },
              { key: 'This test', series: t('progress.thisTest'), value: rate(point.ratePerMinute), text: rateText(point.ratePerMinute) },
            ],
          })),
        }),
        h('ul', { class: 'legend' },
          h('li', {}, h('span', { class: 'swatch muted', 'aria-hidden': 'true' }), t('progress.previousTest')),
          h('li', {}, h('span', { class: 'swatch series-1', 'aria-hidden': 'true' }), t('progress.thisTest'))),
        dataTable(t('progress.fitnessTable', { name: exercise.name }),
          [t('progress.testDate'), t('progress.repetitions'), t('progress.perMinute'), t('progress.previousTest'),
            t('progress.previousPerMinute'), t('progress.change')],
          exercise.points.map((point) => [
            formatDay(point.date, { year: true }), String(point.reps),
            rate(point.ratePerMinute) === null ? '—' : formatNumber(rate(point.ratePerMinute)),
            point.previous ? t('progress.previousCell', { date: formatDay(point.previous.date, { year: true }), count: point.previous.reps }) : t('progress.none'),
            point.previous && rate(point.previous.ratePerMinute) !== null ? formatNumber(rate(point.previous.ratePerMinute)) : '—',
            change(point.change),
          ])));
    }
    return section;
  }
}
