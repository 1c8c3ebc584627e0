// Workout themes (/embed/themes, docs/themes.md): the person's list of themes — music to train to — with the
// workouts left of each, a form to add one, and a button to remove each. Field errors from the server are shown next
// to the field they name.
import { h, show } from './dom.js';
import { addForm, addItem, redrawList, removeItem, showFieldError, showListPage } from './list-page.js';
import { t } from './i18n.js';

const FIELDS = [
  { name: 'name', type: 'text', maxlength: 100 },
  { name: 'theme', type: 'text', maxlength: 200 },
  { name: 'workouts', type: 'number', min: 1, max: 1000 },
];

export class ThemesView {
  constructor(context) {
    this.context = context;
  }

  async open() {
    show(h('p', { class: 'status' }, t('common.loading')));
    this.status = h('p', { class: 'status', id: 'themes-status', role: 'status' });
    this.list = h('ul', { class: 'themes', id: 'themes', 'aria-labelledby': 'themes-heading' });
    this.inputs = {};
    this.errors = {};
    const rows = FIELDS.map((field) => {
      const error = h('p', { class: 'field-error', id: `${field.name}-error` });
      const hint = h('p', { class: 'meta', id: `${field.name}-hint` }, t(`themes.${field.name}.hint`));
      const input = h('input', {
        id: `theme-${field.name}`, name: field.name, type: field.type, required: true, maxlength: field.maxlength,
        min: field.min, max: field.max, 'aria-describedby': `${field.name}-hint ${field.name}-error`,
      });
      this.inputs[field.name] = input;
      this.errors[field.name] = error;
      return h('div', { class: 'field' }, h('label', { for: `theme-${field.name}` }, t(`themes.${field.name}.label`)), input, hint, error);
    });
    const form = addForm(this, { id: 'add-theme', heading: t('themes.addHeading'), button: t('themes.add') }, ...rows);
    showListPage(this, {
      page: 'themes-page', headingId: 'themes-heading', heading: t('themes.heading'),
      intro: t('themes.intro'), form,
    });
    await this.refresh();
  }

  async refresh() {
    await redrawList(this, '/v1/me/themes?perPage=100', 'themes', t('themes.none'));
  }

  item(theme) {
    const progress = theme.done
      ? t('themes.done', { completed: theme.completed, count: theme.workouts })
      : t('themes.progress', { completed: theme.completed, count: theme.workouts, remaining: theme.remaining });
    return h('li', { dataset: { themeId: theme.id } },
      h('span', { class: 'name' }, theme.name),
      h('span', { class: 'theme-of' }, theme.theme),
      h('span', { class: 'meta' }, progress),
      h('button', {
        class: 'remove', 'aria-label': t('themes.removeNamed', { name: theme.name }), onClick: () => this.remove(theme),
      }, t('list.remove')));
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
      this.fieldError('workouts', t('themes.workouts.invalid'));
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
