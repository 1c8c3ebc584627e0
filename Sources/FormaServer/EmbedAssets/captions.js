// Captions for spoken cues (docs/embed.md, "Captions"): every form cue the page speaks is also shown as a caption,
// the same words, in the live region screen readers announce (`#cue`, a polite status). A "Show captions" switch
// beside it hides the visible caption for the rest of the page's life (the live region stays for screen readers);
// `?captions=off` in the URL starts with it off.

import { h } from './dom.js';
import { t } from './i18n.js';

const state = { on: new URLSearchParams(location.search).get('captions') !== 'off' };

// Whether captions are shown now.
export function captionsShown() {
  return state.on;
}

// The cue line and its switch, for a view's render: `cue` is the text last spoken ('' for none).
export function cueCaption(cue) {
  const line = h('p', {
    class: `cue cue-caption${state.on ? '' : ' visually-hidden'}`, id: 'cue', role: 'status',
  }, cue || '');
  const box = h('input', { type: 'checkbox', id: 'captions-toggle', checked: state.on });
  box.addEventListener('change', () => {
    state.on = box.checked;
    line.classList.toggle('visually-hidden', !state.on);
  });
  return [line, h('label', { class: 'captions-toggle', for: 'captions-toggle' }, box, t('captions.show'))];
}
