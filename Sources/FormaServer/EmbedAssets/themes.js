// Workout themes (/embed/themes, docs/themes.md): the person's list of themes — music to train to — with the
// workouts left of each, a form to add one, and a button to remove each. Field errors from the server are shown next
// to the field they name.
import { h, show } from './dom.js';
import { addForm, addItem, redrawList, removeItem, showFieldError, showListPage } from './list-page.js';

const FIELDS = [
  { name: 'name', label: 'Name', hint: 'For example "Running"', type: 'text', maxlength: 100 },
  { name: 'theme', label: 'Artist, genre or song', hint: 'What the app plays while you train', type: 'text', maxlength: 200 },
  { name: 'workouts', label: 'Number of workouts', hint: '1 to 1000', type: 'number', min: 1, max: 1000 },
];

export class ThemesView {
  constructor(context) {
    this.context = context;
  }

  async open() {
    show(h('p', { class: 'status' }, 'Loading…'));
    this.status = h('p', { class: 'status', id: 'themes-status', role: 'status' });
    this.list = h('ul', { class: 'themes', id: 'themes', 'aria-labelledby': 'themes-heading' });
    this.inputs = {};
    this.errors = {};
    const rows = FIELDS.map((field) => {
      const error = h('p', { class: 'field-error', id: `${field.name}-error` });
      const hint = h('p', { class: 'meta', id: `${field.name}-hint` }, field.hint);
      const input = h('input', {
        id: `theme-${field.name}`, name: field.name, type: field.type, required: true, maxlength: field.maxlength,
        min: field.min, max: field.max, 'aria-describedby': `${field.name}-hint ${field.name}-error`,
      });
      this.inputs[field.name] = input;
      this.errors[field.name] = error;
      return h('div', { class: 'field' }, h('label', { for: `theme-${field.name}` }, field.label), input, hint, error);
    });
    const form = addForm(this, { id: 'add-theme', heading: 'Add a theme', button: 'Add theme' }, ...rows);
    showListPage(this, {
      page: 'themes-page', headingId: 'themes-heading', heading: 'Themes',
      intro: 'Music to train to: each workout you finish with a theme counts down its workouts.', form,
    });
    await this.refresh();
  }

  async refresh() {
    await redrawList(this, '/v1/me/themes?perPage=100', 'themes', 'No themes yet.');
  }

  item(theme) {
    const progress = theme.done
      ? `Done: ${theme.completed} of ${theme.workouts} workouts`
      : `${theme.completed} of ${theme.workouts} workouts done, ${theme.remaining} to go`;
    return h('li', { dataset: { themeId: theme.id } },
      h('span', { class: 'name' }, theme.name),
      h('span', { class: 'theme-of' }, theme.theme),
      h('span', { class: 'meta' }, progress),
      h('button', {
        class: 'remove', 'aria-label': `Remove theme ${theme.name}`, onClick: () => this.remove(theme),
      }, 'Remove'));
  }

  async add() {
    for (const error of Object.values(this.errors)) error.textContent = '';
    for (const input of Object.values(this.inputs)) input.removeAttribute('aria-invalid');
    const body = {
      name: this.inputs.name.value,
      theme: this.inputs.theme.value,
      workouts: Number.parseInt(this.inputs.workouts.value, 10),
    };
    if (!Number.isFinite(body.workouts)) {
      this.fieldError('workouts', 'must be a whole number from 1 to 1000');
      return;
    }
    if (await addItem(this, '/v1/me/themes', body)) {
      for (const input of Object.values(this.inputs)) input.value = '';
    }
  }

  fieldError(name, message) {
    showFieldError(this, this.inputs[name], this.errors[name], name, message);
  }

  remove(theme) {
    return removeItem(this, `/v1/me/themes/${encodeURIComponent(theme.id)}`, theme.name);
  }
}
