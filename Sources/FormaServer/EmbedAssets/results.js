// The results screen at the end of a workout (docs/embed.md, "Results"): per exercise the repetitions, time, range
// of motion and form score the server stored with the run, the totals, and each one compared in words with the last
// time: the person's previous run of this workout for the totals, their latest earlier result of the exercise
// (whatever the workout) for each exercise. Every number comes from the save's answer; nothing is estimated here.
import { h } from './dom.js';

const language = () => document.documentElement.lang || navigator.language || 'en';

function number(value, digits = 0) {
  return new Intl.NumberFormat(language(), { maximumFractionDigits: digits }).format(value);
}

export function formatDuration(seconds) {
  const total = Math.max(0, Math.round(seconds));
  const minutes = Math.floor(total / 60);
  const rest = total % 60;
  const format = (value, unit) =>
    new Intl.NumberFormat(language(), { style: 'unit', unit, unitDisplay: 'short' }).format(value);
  if (minutes === 0) return format(rest, 'second');
  return rest === 0 ? format(minutes, 'minute') : `${format(minutes, 'minute')} ${format(rest, 'second')}`;
}

export function formatRange(value, unit) {
  if (unit === 'degrees') {
    return new Intl.NumberFormat(language(), { style: 'unit', unit: 'degree', unitDisplay: 'narrow', maximumFractionDigits: 1 })
      .format(value);
  }
  return `${number(value, 2)} ${unit}`;
}

function formatScore(score) {
  // Whole percents, halves rounded up (86.5 → 87 %), so the screen and a reader of the stored value agree.
  return new Intl.NumberFormat(language(), { style: 'percent', maximumFractionDigits: 0 })
    .format(Math.round(score) / 100);
}

function formatDate(iso) {
  return new Intl.DateTimeFormat(language(), { day: 'numeric', month: 'short' }).format(new Date(iso));
}

// How each kind of value says its change.
const COUNT = { more: 'more than last time', fewer: 'fewer than last time', same: 'same as last time', show: number };
const DURATION = {
  more: 'longer than last time', fewer: 'shorter than last time', same: 'same time as last time', show: formatDuration,
};
const SCORE = {
  more: 'points higher than last time', fewer: 'points lower than last time', same: 'same as last time',
  show: (value) => number(value, 1), was: formatScore, tolerance: 0.05,
};
const rangeWords = (unit) => ({
  more: 'more than last time', fewer: 'less than last time', same: 'same as last time',
  show: (value) => formatRange(value, unit), tolerance: 0.05,
});

// "2 more than last time (10 on 25 Nov)", in words, never by colour alone; `null` without both values.
function change(now, before, when, { more, fewer, same, show, was: shown = show, tolerance = 0 }) {
  if (now === null || now === undefined || before === null || before === undefined) return null;
  const difference = now - before;
  const was = `(${shown(before)} on ${when})`;
  const trend = Math.abs(difference) <= tolerance ? 'same' : difference > 0 ? 'up' : 'down';
  let words;
  if (trend === 'same') words = `${same} ${was}`;
  else if (trend === 'up') words = `${show(difference)} ${more} ${was}`;
  else words = `${show(-difference)} ${fewer} ${was}`;
  return h('span', { class: 'change', dataset: { trend } }, words);
}

// The totals of a saved run: repetitions and form score from its per-exercise results, time from the server's clock.
export function totalsOf(run) {
  const results = run.results || [];
  const reps = results.reduce((sum, result) => sum + (result.reps ?? 0), 0);
  const scored = results.filter((result) => typeof result.formScore === 'number' && (result.reps ?? 0) > 0);
  const weight = scored.reduce((sum, result) => sum + result.reps, 0);
  const formScore = weight > 0
    ? Math.round((10 * scored.reduce((sum, result) => sum + result.formScore * result.reps, 0)) / weight) / 10
    : null;
  return { reps, seconds: Math.round(run.elapsedSeconds ?? 0), formScore };
}

// The text a person would share: the workout, its totals, and the best change since last time.
export function shareText(title, totals, previousTotals) {
  const parts = [`${number(totals.reps)} repetitions`, formatDuration(totals.seconds)];
  if (totals.formScore !== null) parts.push(`form ${formatScore(totals.formScore)}`);
  let text = `I finished “${title}” with Forma: ${parts.join(', ')}.`;
  if (previousTotals && totals.reps > previousTotals.reps) {
    text += ` ${number(totals.reps - previousTotals.reps)} more repetitions than last time.`;
  }
  return text;
}

function row(label, value, comparison, field) {
  return [
    h('dt', {}, label),
    h('dd', { dataset: { field } }, h('span', { class: 'value' }, value), comparison ? ' ' : null, comparison)];
}

const NOT_MEASURED = 'not measured (no camera count)';

// One exercise: its stored values, each followed by the comparison with its previous result.
function exerciseSection(name, result, previous) {
  const before = previous ? previous.result : null;
  const when = previous ? formatDate(previous.endedAt) : '';
  const hasRange = typeof result.rangeOfMotion === 'number';
  const sameUnit = before && before.rangeOfMotionUnit === result.rangeOfMotionUnit;
  return h('section', { class: 'exercise-result', dataset: { exerciseId: result.exerciseId } },
    h('h3', {}, name),
    h('dl', {},
      row('Repetitions', result.reps == null ? 'not recorded' : number(result.reps),
        before && change(result.reps, before.reps, when, COUNT), 'reps'),
      row('Time', result.seconds == null ? 'not recorded' : formatDuration(result.seconds),
        before && change(result.seconds, before.seconds, when, DURATION), 'seconds'),
      row('Range of motion', hasRange ? formatRange(result.rangeOfMotion, result.rangeOfMotionUnit) : NOT_MEASURED,
        hasRange && sameUnit
          && change(result.rangeOfMotion, before.rangeOfMotion, when, rangeWords(result.rangeOfMotionUnit)),
        'range'),
      row('Form score', typeof result.formScore === 'number' ? formatScore(result.formScore) : NOT_MEASURED,
        before && change(result.formScore, before.formScore, when, SCORE), 'form')),
    previous ? null : h('p', { class: 'first-time' }, 'First time: nothing to compare with yet.'));
}

// The results screen for the run a save answered with, its exercises in the workout's order.
export function resultsView(workout, run, { onShare, onClose }) {
  const totals = totalsOf(run);
  const comparison = run.comparison || { exercises: [] };
  const previousRun = comparison.previousRun || null;
  const previousTotals = previousRun ? totalsOf(previousRun) : null;
  const when = previousRun ? formatDate(previousRun.endedAt) : '';
  const byExercise = new Map((run.results || []).map((result) => [result.exerciseId, result]));
  const previousByExercise = new Map(comparison.exercises.map((entry) => [entry.exerciseId, entry]));
  const heading = h('h1', { id: 'results-title', tabindex: '-1' }, 'Workout complete');
  const status = h('p', { id: 'share-status', role: 'status', class: 'caption' });
  const view = h('section', { class: 'finished results', 'aria-labelledby': 'results-title' },
    heading,
    h('p', { class: 'meta' }, workout.name),
    h('h2', {}, 'Totals'),
    h('dl', { class: 'totals', id: 'totals' },
      row('Repetitions', h('span', { id: 'total-repeats' }, number(totals.reps)),
        previousTotals && change(totals.reps, previousTotals.reps, when, COUNT), 'reps'),
      row('Active time', formatDuration(totals.seconds),
        previousTotals && change(totals.seconds, previousTotals.seconds, when, DURATION), 'seconds'),
      row('Form score', totals.formScore === null ? NOT_MEASURED : formatScore(totals.formScore),
        previousTotals && change(totals.formScore, previousTotals.formScore, when, SCORE), 'form')),
    previousRun
      ? null
      : h('p', { class: 'first-time', id: 'totals-first-time' },
        'Your first time with this workout: nothing to compare with yet.'),
    h('h2', {}, 'Exercises'),
    workout.items
      .filter((item) => byExercise.has(item.exerciseId))
      .map((item) => exerciseSection(
        item.name, byExercise.get(item.exerciseId), previousByExercise.get(item.exerciseId))),
    h('div', { class: 'actions' },
      h('button', { id: 'share', onClick: () => onShare(status) }, 'Share summary'),
      h('button', { id: 'close', class: 'primary', onClick: onClose }, 'Close')),
    status);
  return { view, heading, totals, previousTotals };
}
