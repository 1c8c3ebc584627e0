// Home (/embed/): the company's plans (the host's category first), the person's workouts in progress and saved,
// "Get a workout" (muscles or categories, level, minutes), the fitness test, and Close.
import { h, show } from './dom.js';
import { t, formatMinutes } from './i18n.js';
import { WorkoutGroups } from './workouts.js';

export class HomeView {
  // `planCategory` and `workoutCategory` are the host's `planC` and `category` at launch.
  constructor(context, { planCategory = null, workoutCategory = null } = {}) {
    this.context = context;
    this.planCategory = planCategory;
    this.workoutCategory = workoutCategory;
  }

  async open() {
    const { context, planCategory, workoutCategory } = this;
    show(h('p', { class: 'status' }, t('common.loading')));
    let plans;
    const workouts = new WorkoutGroups(context, { category: workoutCategory });
    try {
      [plans] = await Promise.all([context.api.get('/v1/plans'), workouts.load()]);
    } catch (error) {
      return context.fail('api', error.message);
    }
    const first = (value) => (a, b) => (b === value) - (a === value);
    const planItems = plans.items.slice().sort((a, b) => first(planCategory)(a.category, b.category));
    show(
      h('section', { class: 'home' },
        h('h1', {}, t('home.plans')),
        h('ul', { class: 'cards', id: 'plans' }, planItems.map((item) =>
          h('li', {},
            h('button', { class: 'card', onClick: () => context.navigate(`/embed/plan/${encodeURIComponent(item.id)}`) },
              h('strong', {}, item.title), h('span', {}, t('home.planLine', { category: item.category, count: item.weeks })))))),
        workouts.element,
        this.generator(),
        h('div', { class: 'actions' },
          h('button', { id: 'open-fitness-test', onClick: () => context.navigate('/embed/fitness-test') }, t('home.fitnessTest'))),
        h('button', { id: 'exit', class: 'quiet', onClick: () => context.bridge.post('exit_kinestex', {}) }, t('common.close'))));
  }

  // "Get a workout": muscles or categories from the catalogue's facets, level and minutes.
  generator() {
    const { context, workoutCategory } = this;
    const muscles = h('select', { id: 'muscle', 'aria-label': t('home.muscleGroup') });
    context.api.get('/v1/catalog/facets').then((facets) => {
      muscles.replaceChildren(...facets.muscles.map((facet) => h('option', { value: facet.value }, facet.value)));
    }).catch(() => {});
    const level = h('select', { id: 'level', 'aria-label': t('home.level') },
      ['beginner', 'intermediate', 'expert'].map((name) => h('option', { value: name }, t(`level.${name}`))));
    const minutes = h('select', { id: 'minutes', 'aria-label': t('home.minutes') },
      [10, 15, 20, 30, 45, 60].map((value) => h('option', { value }, formatMinutes(value))));
    const go = async () => {
      const body = { level: level.value, minutes: Number(minutes.value), equipment: [] };
      if (workoutCategory === 'Rehabilitation') body.categories = ['stretching'];
      else body.muscles = [muscles.value];
      try {
        const workout = await context.api.post('/v1/workouts/generate', body);
        context.navigate(`/embed/workout/${encodeURIComponent(workout.id)}`);
      } catch (error) {
        context.report('api', error.message);
      }
    };
    return h('section', { class: 'generate' },
      h('h2', {}, t('home.getWorkout')),
      workoutCategory === 'Rehabilitation' ? null : muscles, level, minutes,
      h('button', { id: 'generate', class: 'primary', onClick: go }, t('home.getWorkout')));
  }
}
