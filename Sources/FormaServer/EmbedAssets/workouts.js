// "Your workouts" on the home page (seed 004's View workouts): one group In progress — the run being done now, with
// Resume (the player carries on with it) and Quit (the run is kept but never counted) — and one group Saved, each
// workout with its level and length; a saved workout opens in the player to be done again.
import { h, formatSeconds } from './dom.js';
import { t, formatMinutes } from './i18n.js';

export class WorkoutGroups {
  constructor(context, { category = null } = {}) {
    this.context = context;
    this.category = category; // listed first among the saved ones
    this.status = h('p', { class: 'status', id: 'workouts-status', role: 'status' });
    this.inProgress = h('div', { id: 'in-progress-group' });
    this.saved = h('div', { id: 'saved-group' });
    this.element = h('section', { class: 'workout-groups', 'aria-labelledby': 'workouts-heading' },
      h('h1', { id: 'workouts-heading', tabindex: '-1' }, t('workouts.heading')),
      h('h2', { id: 'in-progress-heading' }, t('workouts.inProgress')), this.inProgress,
      h('h2', { id: 'saved-heading' }, t('workouts.saved')), this.saved,
      this.status);
  }

  get api() {
    return this.context.api;
  }

  // Both lists, drawn; throws what the API threw, so the home page can fail as a whole.
  async load() {
    const [active, saved] = await Promise.all([
      this.api.get('/v1/workouts?status=in_progress'), this.api.get('/v1/workouts?status=saved')]);
    this.draw(active.items, saved.items);
  }

  draw(active, saved) {
    const first = (a, b) => (b.category === this.category) - (a.category === this.category);
    const open = (item) => this.context.navigate(`/embed/workout/${encodeURIComponent(item.id)}`);
    this.inProgress.replaceChildren(active.length === 0
      ? h('p', { class: 'meta empty' }, t('workouts.noneInProgress'))
      : h('ul', { class: 'cards', id: 'in-progress', 'aria-labelledby': 'in-progress-heading' }, active.map((item) =>
        h('li', { class: 'workout-row', dataset: { workoutId: item.id } },
          h('div', { class: 'workout-info' },
            h('strong', {}, item.name),
            h('span', { class: 'meta' }, `${item.level} · ${formatMinutes(item.minutes)} · ${runLine(item.run)}`)),
          h('div', { class: 'actions' },
            h('button', { class: 'primary resume', 'aria-label': t('workouts.resumeNamed', { name: item.name }), onClick: () => open(item) }, t('workouts.resume')),
            h('button', { class: 'quit', 'aria-label': t('workouts.quitNamed', { name: item.name }), onClick: () => this.quit(item) }, t('workouts.quit')))))));
    this.saved.replaceChildren(saved.length === 0
      ? h('p', { class: 'meta empty' }, t('workouts.noneSaved'))
      : h('ul', { class: 'cards', id: 'workouts', 'aria-labelledby': 'saved-heading' }, saved.slice().sort(first).map((item) =>
        h('li', { dataset: { workoutId: item.id } },
          h('button', { class: 'card', onClick: () => open(item) },
            h('strong', {}, item.name), h('span', {}, `${item.category} · ${item.level} · ${formatMinutes(item.minutes)}`))))));
  }

  async quit(item) {
    try {
      await this.api.post(`/v1/workouts/${encodeURIComponent(item.id)}/quit`);
    } catch (error) {
      // Already ended elsewhere (409): the lists below show what is true now.
      if (error.status !== 409 && error.status !== 404) {
        this.status.textContent = t('workouts.notQuit', { message: error.message });
        return;
      }
    }
    try {
      await this.load();
    } catch (error) {
      this.status.textContent = t('workouts.quitUnread', { name: item.name, message: error.message });
      return;
    }
    this.status.textContent = t('workouts.quitDone', { name: item.name });
    document.getElementById('in-progress-heading').setAttribute('tabindex', '-1');
    document.getElementById('in-progress-heading').focus();
  }
}

function runLine(run) {
  if (!run) return t('workouts.stateInProgress');
  return t(run.status === 'paused' ? 'workouts.runPaused' : 'workouts.runInProgress',
    { time: formatSeconds(run.elapsedSeconds || 0) });
}
