// What the list pages (themes, goals) share: adding an item through a form whose bad fields the server names, and
// removing one. A view passes itself: it has `context`, a `status` live region, `refresh()` to redraw its list, and
// `fieldError(field, message)` to show a message beside a field.
import { h, show } from './dom.js';
import { t } from './i18n.js';

// Posts `body` to `path` and answers the stored item, or null when the server refused it: each field it names gets
// its message (the first one named ends with the focus), anything else goes to the status line. On success the list
// is redrawn first and "Added …" said after, so the message describes the list on screen.
export async function addItem(view, path, body) {
  let item;
  try {
    item = await view.context.api.post(path, body);
  } catch (error) {
    const fields = (error.problem && error.problem.errors) || [];
    if (fields.length === 0) view.status.textContent = t('list.notAdded', { message: error.message });
    for (const field of fields.slice().reverse()) view.fieldError(field.field, field.detail);
    return null;
  }
  await view.refresh();
  view.status.textContent = t('list.added', { name: item.name });
  return item;
}

// Deletes `path` (an item already gone counts as removed), redraws the list, then says "Removed …".
export async function removeItem(view, path, name) {
  try {
    await view.context.api.request('DELETE', path);
  } catch (error) {
    if (error.status !== 404) {
      view.status.textContent = t('list.notRemoved', { message: error.message });
      return;
    }
  }
  await view.refresh();
  view.status.textContent = t('list.removed', { name });
}

// Marks `input` invalid and shows `message` in `error` (its described-by element), or in the status line when the
// field has no place of its own; the input gets the focus.
export function showFieldError(view, input, error, name, message) {
  if (input) input.setAttribute('aria-invalid', 'true');
  if (error) error.textContent = message;
  else view.status.textContent = `${name}: ${message}`;
  if (input) input.focus();
}

// The add form: its heading, the field rows, and a submit button; submitting calls `view.add()` (the page stays).
export function addForm(view, { id, heading, button }, ...rows) {
  const form = h('form', { id, 'aria-labelledby': 'add-heading', novalidate: true },
    h('h2', { id: 'add-heading' }, heading), rows,
    h('div', { class: 'actions' }, h('button', { id: 'add', class: 'primary', type: 'submit' }, button)));
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    view.add();
  });
  return form;
}

// Shows the page: heading, a line about it, the list, the status line, the add form, and a Close button that asks
// the host to close the page.
export function showListPage(view, { page, headingId, heading, intro, form }) {
  show(h('section', { class: page },
    h('h1', { id: headingId }, heading),
    h('p', { class: 'meta' }, intro),
    view.list, view.status, form,
    h('div', { class: 'actions' },
      h('button', { id: 'exit', class: 'quiet', onClick: () => view.context.bridge.post('exit_kinestex', {}) },
        t('common.close')))));
}

// Fetches one page of items from `path` and redraws `view.list` with `view.item(each)` (or `empty` when there are
// none); answers the items, or null when the fetch failed (the page is failed as `what`).
export async function redrawList(view, path, what, empty) {
  let page;
  try {
    page = await view.context.api.get(path);
  } catch (error) {
    view.context.fail('api', t('error.prefixed', { field: what, message: error.message }));
    return null;
  }
  view.list.replaceChildren(...(page.items.length === 0
    ? [h('li', { class: 'empty' }, empty)]
    : page.items.map((each) => view.item(each))));
  return page.items;
}
