// The end of a played workout: what the page sends to be saved, the `workout_completed` summary the host receives
// (docs/embed-protocol.md), and the screen shown when the save did not reach the server.
import { h, formatSeconds } from './dom.js';
import { shareText, totalsOf } from './results.js';
import { t, formatPercent } from './i18n.js';

// The exercises the page counted itself (ticked off, timed): the server fills in the live-counted ones from the
// sets it analysed.
export function pageCountedResults(results) {
  return results
    .filter((result) => !result.counted)
    .map((result) => {
      const entry = { exerciseId: result.exerciseId, seconds: result.timeSpent };
      if (result.targetRepeats !== null) entry.reps = result.repeats;
      return entry;
    });
}

// The `workout_completed` data: from the stored run when the save reached the server (`run`), else from what the
// page counted (`results`, with the live counter's tracked and clean repetitions and the seconds the run took).
export function completionSummary(workout, run, results, { trackedReps, cleanReps, totalSeconds }) {
  const totalRepeats = results.reduce((sum, result) => sum + result.repeats, 0);
  const mistakes = results.reduce(
    (sum, result) => sum + Object.values(result.mistakes).reduce((count, entry) => count + entry.count, 0), 0);
  const accuracy = trackedReps > 0 ? Math.round((100 * cleanReps) / trackedReps) : null;
  const names = new Map(workout.items.map((item) => [item.exerciseId, item.name]));
  // In the workout's order, as the results screen lists them.
  const order = new Map(workout.items.map((item, index) => [item.exerciseId, index]));
  const exerciseResults = run && run.results
    ? [...run.results].sort((a, b) => (order.get(a.exerciseId) ?? 0) - (order.get(b.exerciseId) ?? 0)).map((result) => ({
      exerciseId: result.exerciseId,
      exercise: names.get(result.exerciseId) ?? result.exerciseId,
      repeats: result.reps ?? null,
      seconds: result.seconds ?? null,
      formScore: result.formScore ?? null,
      rangeOfMotion: result.rangeOfMotion ?? null,
      rangeOfMotionUnit: result.rangeOfMotionUnit ?? null,
    }))
    : results.map((result) => ({
      exerciseId: result.exerciseId,
      exercise: result.exercise,
      repeats: result.repeats,
      seconds: result.timeSpent,
      formScore: null,
      rangeOfMotion: null,
      rangeOfMotionUnit: null,
    }));
  const previous = run && run.comparison && run.comparison.previousRun ? run.comparison.previousRun : null;
  const totals = run ? totalsOf(run) : { reps: totalRepeats, seconds: totalSeconds, formScore: null };
  const previousTotals = previous ? totalsOf(previous) : null;
  return {
    workoutId: workout.id,
    title: workout.name,
    totalRepeats,
    totalSeconds,
    exercises: results.length,
    mistakes,
    accuracy,
    saved: run !== null,
    runId: run ? run.id : null,
    results: exerciseResults,
    previousRun: previous
      ? { runId: previous.id, endedAt: previous.endedAt, totalRepeats: previousTotals.reps,
        totalSeconds: previousTotals.seconds }
      : null,
    shareText: shareText(workout.name, totals, previousTotals),
  };
}

// The results when the save failed: the page's own totals, and that they were not saved.
export function notSavedView(summary, onClose) {
  const { totalRepeats, totalSeconds, accuracy } = summary;
  return h('section', { class: 'finished' },
    h('h1', { id: 'results-title', tabindex: '-1' }, t('results.title')),
    h('p', { class: 'status', role: 'alert' }, t('results.notSaved')),
    h('dl', { class: 'totals' },
      h('dt', {}, t('results.repetitions')), h('dd', { id: 'total-repeats' }, String(totalRepeats)),
      h('dt', {}, t('results.time')), h('dd', {}, formatSeconds(totalSeconds)),
      h('dt', {}, t('results.form')), h('dd', {}, accuracy === null ? '—' : t('results.clean', { percent: formatPercent(accuracy) }))),
    h('button', { id: 'close', class: 'primary', onClick: onClose }, t('common.close')));
}
