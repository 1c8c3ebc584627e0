// A plan (/embed/plan/{id}): its summary, Enrol, its levels as a path, and each level's sessions with their doses,
// those done ticked and those of an unlocked level startable (docs/embed.md, "Plans").
import { h, show, svg } from './dom.js';
import { t } from './i18n.js';
import { dose } from './workout-summary.js';

export class PlanView {
  constructor(context, id) {
    this.context = context;
    this.id = id;
  }

  open() {
    return showPlan(this.context, this.id);
  }
}

async function showPlan(context, id) {
  let details;
  let progress = null;
  try {
    details = await context.api.get(`/v1/plans/${encodeURIComponent(id)}`);
    if (details.summary.enrolled) progress = await context.api.get(`/v1/plans/${encodeURIComponent(id)}/progress`);
  } catch (error) {
    return context.fail(error.status === 404 ? 'not_found' : 'api', t('error.prefixed', { field: 'plan', message: error.message }));
  }
  const summary = details.summary;
  const done = new Set(progress ? progress.completedSessions : []);
  const enrol = async () => {
    try {
      await context.api.post(`/v1/plans/${encodeURIComponent(id)}/enrolment`);
      showPlan(context, id);
    } catch (error) {
      context.report('api', error.message);
    }
  };
  const startSession = async (session) => {
    try {
      const workout = await context.api.post(`/v1/plans/${encodeURIComponent(id)}/workouts`, { sessionId: session.id });
      context.navigate(`/embed/workout/${encodeURIComponent(workout.id)}`);
    } catch (error) {
      context.report('api', error.message);
    }
  };
  show(
    h('section', { class: 'plan' },
      h('button', { class: 'quiet', onClick: () => context.navigate('/embed/') }, t('common.back')),
      h('h1', {}, summary.title),
      h('p', { class: 'meta' }, summary.summary),
      progress ? null : h('button', { id: 'enrol', class: 'primary', onClick: enrol }, t('plan.enrol')),
      planPath(details.levels, progress),
      details.levels.map((level) => {
        const open = progress && level.number <= progress.unlockedLevel;
        return h('section', { class: 'level', id: `level-${level.number}` },
          h('h2', { tabindex: '-1' }, t('plan.level', { number: level.number, title: levelName(level) })),
          h('ol', {}, level.sessions.map((session) =>
            h('li', {},
              h('span', {}, t('plan.session', { week: session.week, day: session.day, title: session.title })),
              h('span', { class: 'meta' }, session.items.map(dose).join(', ')),
              done.has(session.id) ? h('span', { class: 'tick' }, t('plan.done')) : null,
              open ? h('button', { onClick: () => startSession(session) }, t('plan.start')) : null))));
      })));
}

// A plan's levels as a path (docs/embed.md, "Plans"): a node per level joined by a line, each saying in words whether
// it is locked, open or done (the icon only repeats it), the level of the next session marked as the current one
// (`aria-current="step"`). Each node is a button that takes the focus to that level's sessions.
export function levelState(level, progress) {
  if (!progress || level.number > progress.unlockedLevel) return 'locked';
  const counts = (progress.levels || []).find((entry) => entry.number === level.number);
  if (counts && counts.total > 0 && counts.completed >= counts.total) return 'done';
  return 'open';
}

function planPath(levels, progress) {
  const next = progress && progress.nextSessionId;
  const current = next ? levels.find((level) => level.sessions.some((session) => session.id === next)) : null;
  const icon = (state) => {
    const attributes = { viewBox: '0 0 24 24', width: 24, height: 24, 'aria-hidden': 'true', focusable: 'false' };
    if (state === 'locked') {
      return svg('svg', attributes,
        svg('rect', { x: 5, y: 11, width: 14, height: 10, rx: 2, fill: 'currentColor' }),
        svg('path', { d: 'M8 11V8a4 4 0 0 1 8 0v3', fill: 'none', stroke: 'currentColor', 'stroke-width': 2.2 }));
    }
    if (state === 'done') {
      return svg('svg', attributes,
        svg('path', { d: 'M5 12.5l4.5 4.5L19 7.5', fill: 'none', stroke: 'currentColor', 'stroke-width': 3,
          'stroke-linecap': 'round', 'stroke-linejoin': 'round' }));
    }
    return svg('svg', attributes, svg('circle', { cx: 12, cy: 12, r: 5, fill: 'currentColor' }));
  };
  const weeks = (level) => {
    const numbers = level.sessions.map((session) => session.week);
    if (numbers.length === 0) return '';
    const first = Math.min(...numbers);
    const last = Math.max(...numbers);
    return first === last ? t('plan.path.week', { week: first }) : t('plan.path.weeks', { first, last });
  };
  const goTo = (level) => {
    const heading = document.querySelector(`#level-${level.number} h2`);
    if (!heading) return;
    heading.scrollIntoView({ block: 'start' });
    heading.focus({ preventScroll: true });
  };
  return h('nav', { class: 'plan-path', 'aria-labelledby': 'plan-path-title' },
    h('h2', { id: 'plan-path-title' }, t('plan.path.title')),
    h('ol', {}, levels.map((level) => {
      const state = levelState(level, progress);
      const isCurrent = current === level;
      const counts = progress && (progress.levels || []).find((entry) => entry.number === level.number);
      return h('li', { class: `path-level ${state}${isCurrent ? ' current' : ''}`, dataset: { level: level.number, state } },
        h('button', { class: 'path-node', 'aria-current': isCurrent ? 'step' : null, onClick: () => goTo(level) },
          h('span', { class: 'path-icon' }, icon(state)),
          h('span', { class: 'path-text' },
            h('strong', {}, t('plan.level', { number: level.number, title: levelName(level) })),
            h('span', { class: 'path-weeks' }, weeks(level)),
            h('span', { class: 'path-state' },
              isCurrent ? t('plan.path.current', { state: t(`plan.path.${state}`) }) : t(`plan.path.${state}`),
              counts ? ` · ${t('plan.path.sessions', { completed: counts.completed, count: counts.total })}` : ''))));
    })));
}

// The API's level titles read "Level 2: Build" (English, as the server writes them); the catalogue adds the
// number in the page's language, so only the name after it is kept.
function levelName(level) {
  const prefix = `Level ${level.number}: `;
  return level.title.startsWith(prefix) ? level.title.slice(prefix.length) : level.title;
}
