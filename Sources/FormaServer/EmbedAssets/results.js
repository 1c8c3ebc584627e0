// The results screen at the end of a workout (docs/embed.md, "Results"): per exercise the repetitions, time, range
// of motion and form score the server stored with the run, the totals, and each one compared in words with the last
// time: the person's previous run of this workout for the totals, their latest earlier result of the exercise
// (whatever the workout) for each exercise. Every number comes from the save's answer; nothing is estimated here.
import { h } from './dom.js';
import { t, formatNumber, formatPercent, formatDate, formatDuration } from './i18n.js';

export { formatDuration };

function number(value, digits = 0) {
  return formatNumber(value, { maximumFractionDigits: digits });
}

export function formatRange(value, unit) {
  if (unit === 'degrees') {
    return formatNumber(value, { style: 'unit', unit: 'degree', unitDisplay: 'narrow', maximumFractionDigits: 1 });
  }
  return t('results.rangeUnit', { value: number(value, 2), unit });
}

function formatScore(score) {
  // Whole percents, halves rounded up (86.5 → 87 %), so the screen and a reader of the stored value agree.
  return formatPercent(Math.round(score));
}

// How each kind of value says its change: catalogue keys `results.change.<kind>.more|fewer|same`.
const COUNT = { kind: 'count', show: number };
const DURATION = { kind: 'duration', show: formatDuration };
const SCORE = { kind: 'score', show: (value) => number(value, 1), was: formatScore, tolerance: 0.05 };
const rangeWords = (unit) => ({ kind: 'range', show: (value) => formatRange(value, unit), tolerance: 0.05 });

// "2 more than last time (10 on 25 Nov)", in words, never by colour alone; `null` without both values.
function change(now, before, when, { kind, show, was: shown = show, tolerance = 0 }) {
  if (now === null || now === undefined || before === null || before === undefined) return null;
  const difference = now - before;
  const trend = Math.abs(difference) <= tolerance ? 'same' : difference > 0 ? 'up' : 'down';
  const key = `results.change.${kind}.${trend === 'same' ? 'same' : trend === 'up' ? 'more' : 'fewer'}`;
  const words = t(key, {
    amount: trend === 'same' ? '' : show(Math.abs(difference)), before: shown(before), date: when,
    count: Math.abs(difference),
  });
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
  const parts = [t('share.repetitions', { count: totals.reps }), formatDuration(totals.seconds)];
  if (totals.formScore !== null) parts.push(t('share.form', { score: formatScore(totals.formScore) }));
  let text = t('share.finished', { title, totals: parts.join(', ') });
  if (previousTotals && totals.reps > previousTotals.reps) {
    text += ` ${t('share.more', { count: totals.reps - previousTotals.reps })}`;
  }
  return text;
}

function row(label, value, comparison, field) {
  return [
    h('dt', {}, label),
    h('dd', { dataset: { field } }, h('span', { class: 'value' }, value), comparison ? ' ' : null, comparison)];
}

const notMeasured = () => t('results.notMeasured');

// One exercise: its stored values, each followed by the comparison with its previous result.
function exerciseSection(name, result, previous) {
  const before = previous ? previous.result : null;
  const when = previous ? formatDate(previous.endedAt) : '';
  const hasRange = typeof result.rangeOfMotion === 'number';
  const sameUnit = before && before.rangeOfMotionUnit === result.rangeOfMotionUnit;
  return h('section', { class: 'exercise-result', dataset: { exerciseId: result.exerciseId } },
    h('h3', {}, name),
    h('dl', {},
      row(t('results.repetitions'), result.reps == null ? t('results.notRecorded') : number(result.reps),
        before && change(result.reps, before.reps, when, COUNT), 'reps'),
      row(t('results.time'), result.seconds == null ? t('results.notRecorded') : formatDuration(result.seconds),
        before && change(result.seconds, before.seconds, when, DURATION), 'seconds'),
      row(t('results.range'), hasRange ? formatRange(result.rangeOfMotion, result.rangeOfMotionUnit) : notMeasured(),
        hasRange && sameUnit
          && change(result.rangeOfMotion, before.rangeOfMotion, when, rangeWords(result.rangeOfMotionUnit)),
        'range'),
      row(t('results.formScore'), typeof result.formScore === 'number' ? formatScore(result.formScore) : notMeasured(),
        before && change(result.formScore, before.formScore, when, SCORE), 'form')),
    previous ? null : h('p', { class: 'first-time' }, t('results.firstTimeExercise')));
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
  const heading = h('h1', { id: 'results-title', tabindex: '-1' }, t('results.title'));
  const status = h('p', { id: 'share-status', role: 'status', class: 'caption' });
  const view = h('section', { class: 'finished results', 'aria-labelledby': 'results-title' },
    heading,
    h('p', { class: 'meta' }, workout.name),
    h('h2', {}, t('results.totals')),
    h('dl', { class: 'totals', id: 'totals' },
      row(t('results.repetitions'), h('span', { id: 'total-repeats' }, number(totals.reps)),
        previousTotals && change(totals.reps, previousTotals.reps, when, COUNT), 'reps'),
      row(t('results.activeTime'), formatDuration(totals.seconds),
        previousTotals && change(totals.seconds, previousTotals.seconds, when, DURATION), 'seconds'),
      row(t('results.formScore'), totals.formScore === null ? notMeasured() : formatScore(totals.formScore),
        previousTotals && change(totals.formScore, previousTotals.formScore, when, SCORE), 'form')),
    previousRun
      ? null
      : h('p', { class: 'first-time', id: 'totals-first-time' },
        t('results.firstTimeWorkout')),
    h('h2', {}, t('results.exercises')),
    workout.items
      .filter((item) => byExercise.has(item.exerciseId))
      .map((item) => exerciseSection(
        item.name, byExercise.get(item.exerciseId), previousByExercise.get(item.exerciseId))),
    h('div', { class: 'actions' },
      h('button', { id: 'share', onClick: () => onShare(status) }, t('results.share')),
      h('button', { id: 'close', class: 'primary', onClick: onClose }, t('common.close'))),
    status);
  return { view, heading, totals, previousTotals };
}

// The system share sheet where the browser has one, else the clipboard; the status line says what happened.
export async function share(text, status) {
  try {
    if (navigator.share) {
      await navigator.share({ text });
      status.textContent = t('results.shared');
    } else if (navigator.clipboard && navigator.clipboard.writeText) {
      await navigator.clipboard.writeText(text);
      status.textContent = t('results.copied', { text });
    } else {
      status.textContent = text;
    }
  } catch (error) {
    // Refused or cancelled: show the text, so it can be copied by hand.
    status.textContent = text;
  }
}
