// Goals (/embed/goals, docs/goals.md): the person's goals — name, the day each was set, its description and its
// progress — a form to add one, and a button to remove each. Field errors from the server are shown next to the
// field they name. A goal the page finds done is told to the host with `goal_completed`, once per goal per page load.
import { h, show } from './dom.js';
import { addForm, addItem, redrawList, removeItem, showFieldError, showListPage } from './list-page.js';
import { t, formatDate, formatMinutes } from './i18n.js';

const MINUTES = [10, 15, 20, 25, 30, 35, 40, 45, 50, 55, 60];
const DAYS = [1, 2, 3, 4, 5, 6, 7];

export class GoalsView {
  constructor(context) {
    this.context = context;
    // ids of the goals already told to the host as completed since this page loaded
    this.told = new Set();
  }

  async open() {
    show(h('p', { class: 'status' }, t('common.loading')));
    let facets;
    try {
      facets = await this.context.api.get('/v1/catalog/facets');
    } catch (error) {
      this.context.fail('api', t('error.prefixed', { field: 'catalog', message: error.message }));
      return;
    }
    this.status = h('p', { class: 'status', id: 'goals-status', role: 'status' });
    this.list = h('ul', { class: 'goals', id: 'goals', 'aria-labelledby': 'goals-heading' });
    this.inputs = {};
    this.errors = {};
    this.boxes = { categories: [], muscles: [] };

    const error = (name) => {
      this.errors[name] = h('p', { class: 'field-error', id: `${name}-error` });
      return this.errors[name];
    };
    const field = (name, label, hint, control) => {
      this.inputs[name] = control;
      return h('div', { class: 'field' }, h('label', { for: `goal-${name}` }, label), control,
        hint ? h('p', { class: 'meta', id: `${name}-hint` }, hint) : null, error(name));
    };
    const described = (name, hint) => (hint ? `${name}-hint ${name}-error` : `${name}-error`);
    const choices = (name, legend, values) => {
      const boxes = values.map((value) => {
        const id = `goal-${name}-${value.replace(/[^a-z0-9]+/gi, '-')}`;
        const box = h('input', { type: 'checkbox', id, name, value, 'aria-describedby': `focus-hint ${name}-error` });
        this.boxes[name].push(box);
        return h('label', { class: 'choice', for: id }, box, ` ${value}`);
      });
      return h('fieldset', { class: 'choices', id: `goal-${name}` }, h('legend', {}, legend), boxes, error(name));
    };
    const select = (name, values, show) => h('select', { id: `goal-${name}`, name, 'aria-describedby': described(name) },
      values.map((value) => h('option', { value }, show(value))));

    const form = addForm(this, { id: 'add-goal', heading: t('goals.addHeading'), button: t('goals.add') },
      field('name', t('goals.name'), t('goals.nameHint'), h('input', {
        id: 'goal-name', name: 'name', type: 'text', required: true, maxlength: 100,
        'aria-describedby': described('name', true) })),
      field('description', t('goals.description'), null, h('textarea', {
        id: 'goal-description', name: 'description', maxlength: 1000, rows: 2, 'aria-describedby': described('description') })),
      field('times', t('goals.times'), t('goals.timesHint'), h('input', {
        id: 'goal-times', name: 'times', type: 'number', required: true, min: 1, max: 365,
        'aria-describedby': described('times', true) })),
      h('p', { class: 'meta', id: 'focus-hint' }, t('goals.focusHint')),
      choices('categories', t('goals.categories'), facets.categories.map((facet) => facet.value)),
      choices('muscles', t('goals.muscles'), facets.muscles.map((facet) => facet.value)),
      field('minutes', t('goals.minutes'), null, select('minutes', MINUTES, formatMinutes)),
      field('daysPerWeek', t('goals.daysPerWeek'), null, select('daysPerWeek', DAYS, (value) => t('goals.days', { count: value }))),
      h('div', { class: 'field check' },
        h('label', { for: 'goal-notify' },
          (this.inputs.notify = h('input', { id: 'goal-notify', name: 'notify', type: 'checkbox', 'aria-describedby': 'notify-error' })),
          ` ${t('goals.notify')}`),
        error('notify')));
    showListPage(this, {
      page: 'goals-page', headingId: 'goals-heading', heading: t('goals.heading'),
      intro: t('goals.intro'), form,
    });
    await this.refresh();
  }

  // Lists the goals (a person holds at most 50: one page) and tells the host about each goal newly seen done.
  async refresh() {
    const goals = await redrawList(this, '/v1/me/goals?perPage=50', 'goals', t('goals.none'));
    if (!goals) return;
    for (const goal of goals) {
      if (!goal.progress.done || this.told.has(goal.id)) continue;
      this.told.add(goal.id);
      this.context.bridge.post('goal_completed', {
        id: goal.id, name: goal.name, sessions: goal.progress.sessions, times: goal.progress.times,
        completedAt: goal.progress.completedAt,
      });
    }
  }

  item(goal) {
    const created = formatDate(goal.createdAt, { year: 'numeric', month: 'short', day: 'numeric' });
    const focus = (goal.categories.length > 0 ? goal.categories : goal.muscles).join(', ');
    const progress = goal.progress;
    const line = progress.done
      ? t('goals.done', { sessions: progress.sessions, count: progress.times })
      : t('goals.progress', { sessions: progress.sessions, count: progress.times });
    const week = t(progress.week.reached ? 'goals.weekReached' : 'goals.week',
      { days: progress.week.days, count: progress.week.daysPerWeek });
    return h('li', { dataset: { goalId: goal.id }, class: progress.done ? 'done' : null },
      h('span', { class: 'name' }, goal.name),
      h('span', { class: 'meta' }, t('goals.line', { date: created, focus, minutes: formatMinutes(goal.minutes), count: goal.daysPerWeek })),
      goal.description ? h('span', { class: 'description' }, goal.description) : null,
      h('span', { class: 'meta progress-line' }, t('goals.progressLine', { line, week })),
      h('button', { class: 'remove', 'aria-label': t('goals.removeNamed', { name: goal.name }), onClick: () => this.remove(goal) }, t('list.remove')));
  }

  clearErrors() {
    for (const error of Object.values(this.errors)) error.textContent = '';
    for (const input of Object.values(this.inputs)) input.removeAttribute('aria-invalid');
    for (const box of [...this.boxes.categories, ...this.boxes.muscles]) box.removeAttribute('aria-invalid');
  }

  async add() {
    this.clearErrors();
    const ticked = (name) => this.boxes[name].filter((box) => box.checked).map((box) => box.value);
    const body = {
      name: this.inputs.name.value,
      description: this.inputs.description.value,
      times: Number.parseInt(this.inputs.times.value, 10),
      minutes: Number(this.inputs.minutes.value),
      daysPerWeek: Number(this.inputs.daysPerWeek.value),
      notify: this.inputs.notify.checked,
    };
    const categories = ticked('categories');
    const muscles = ticked('muscles');
    // Send what was ticked: neither list, or both, is the server's to refuse, beside the categories.
    if (categories.length > 0 || muscles.length === 0) body.categories = categories;
    if (muscles.length > 0) body.muscles = muscles;
    if (!Number.isFinite(body.times)) {
      this.fieldError('times', t('goals.timesInvalid'));
      return;
    }
    if (await addItem(this, '/v1/me/goals', body)) {
      for (const name of ['name', 'description', 'times']) this.inputs[name].value = '';
      for (const box of [...this.boxes.categories, ...this.boxes.muscles]) box.checked = false;
    }
  }

  // `muscles[1]` is shown beside the muscle groups.
  fieldError(field, message) {
    const name = String(field).replace(/\[\d+\]$/, '');
    const boxes = this.boxes[name];
    if (boxes) {
      for (const box of boxes) box.setAttribute('aria-invalid', 'true');
      const error = this.errors[name];
      error.textContent = error.textContent ? `${error.textContent} ${message}` : message;
      (boxes.find((box) => box.checked) || boxes[0])?.focus();
      return;
    }
    showFieldError(this, this.inputs[name], this.errors[name], name, message);
  }

  remove(goal) {
    return removeItem(this, `/v1/me/goals/${encodeURIComponent(goal.id)}`, goal.name);
  }
}
