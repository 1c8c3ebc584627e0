// What a workout looks like before it starts (the player's first screen): its name, level and length, each
// exercise with its dose and time, the run's theme, and a small moving picture beside each exercise the camera
// counts.
import { h, formatSeconds } from './dom.js';
import { Demonstration } from './exercises.js';
import { t, formatMinutes } from './i18n.js';

// The summary screen; `onStart` starts (or resumes) the run, `onExit` leaves before it starts.
export function summaryView(workout, { onStart, onExit }) {
  return h('section', { class: 'summary' },
    h('h1', {}, workout.name),
    h('p', { class: 'meta' }, t('player.summaryLine', { level: workout.level, minutes: formatMinutes(Math.round(workout.estimatedSeconds / 60)) })),
    workout.theme ? themeLine(workout.theme) : null,
    h('ol', { class: 'items' }, workout.items.map((item) =>
      h('li', { dataset: { exerciseId: item.exerciseId } },
        h('span', { class: 'name' }, item.name),
        h('span', { class: 'dose' }, dose(item)),
        h('span', { class: 'time' }, formatSeconds(item.estimatedSeconds))))),
    h('div', { class: 'actions' },
      h('button', { id: 'start', class: 'primary', onClick: onStart },
        workout.activeRun && workout.activeRun.workoutId === workout.id ? t('player.resumeWorkout') : t('player.startWorkout')),
      h('button', { id: 'exit', onClick: onExit }, t('player.exit'))));
}

// A small picture of the movement beside each exercise the camera counts: the same demonstration as
// /embed/exercise/{id} (the counter's own model), playing unless the person's system asks for reduced motion,
// with one Pause / Play pictures button for all. Pictures that cannot be fetched are left out: the list is there.
export async function showPictures(summary, items, api) {
  const ids = [...new Set(items.filter((item) => item.poseExercise).map((item) => item.exerciseId))];
  if (ids.length === 0) return;
  const guides = await Promise.all(ids.map((id) =>
    api.get(`/v1/exercises/${encodeURIComponent(id)}/guide`).catch(() => null)));
  if (!summary.isConnected) return;
  const byId = new Map(ids.map((id, index) => [id, guides[index]]));
  const pictures = [];
  for (const row of summary.querySelectorAll('.items li')) {
    const item = items.find((entry) => entry.exerciseId === row.dataset.exerciseId && entry.poseExercise);
    const guide = item && byId.get(item.exerciseId);
    if (!guide || !guide.demonstration) continue;
    const picture = new Demonstration(guide.demonstration, item.name, { small: true });
    row.prepend(h('span', { class: 'item-picture' }, picture.element));
    row.classList.add('with-picture');
    pictures.push(picture);
  }
  if (pictures.length === 0) return;
  const reduced = window.matchMedia && window.matchMedia('(prefers-reduced-motion: reduce)').matches;
  const button = h('button', { id: 'pictures-play', type: 'button', 'aria-pressed': 'false' }, t('player.picturesPlay'));
  const set = (playing) => {
    pictures.forEach((picture) => (playing ? picture.play() : picture.pause()));
    button.setAttribute('aria-pressed', String(playing));
    button.textContent = playing ? t('player.picturesPause') : t('player.picturesPlay');
  };
  button.addEventListener('click', () => set(button.getAttribute('aria-pressed') !== 'true'));
  summary.querySelector('.actions').append(button);
  set(!reduced);
}

// "Theme: Running · Daft Punk".
export function themeLine(theme) {
  return h('p', { class: 'theme', id: 'theme' }, t('player.theme', { name: theme.name, theme: theme.theme }));
}

// "3 × 12" or "3 × 30 s".
export function dose(item) {
  if (item.holdSeconds) return t('player.doseHold', { sets: item.sets, seconds: item.holdSeconds });
  return t('player.doseReps', { sets: item.sets, reps: item.reps });
}
