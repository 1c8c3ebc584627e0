// The pages' words (docs/embed.md, "Languages"): every text a page shows, every label and announcement, comes from
// a message catalogue, one module per language (i18n-en.js, i18n-de.js). `t(key, params)` answers the current
// language's message with `{name}` replaced by its parameter; a message with plural forms is an object keyed by
// Intl.PluralRules categories (`one`, `other`, …, and `_ordinal: true` for ordinal rules), chosen by `params.count`.
// Numbers among the parameters are formatted with Intl in the page's locale. What the server sends (exercise names,
// instructions, cues, problem details) is shown as the data has it.
import en from './i18n-en.js';
import de from './i18n-de.js';

export const CATALOGUES = { en, de };
export const LANGUAGES = Object.keys(CATALOGUES);
export const FALLBACK = 'en';

let current = FALLBACK;
let locale = FALLBACK;
// Keys a page asked for that the catalogue lacks: shown as the English message (or the key itself), and listed here
// so the browser tests can fail on them.
export const missing = new Set();

export function language() {
  return current;
}

// The Intl locale: the tag the host or the browser gave when it is of the chosen language ('de-AT', 'en-US'),
// else the language itself.
export function currentLocale() {
  return locale;
}

function canonical(tag) {
  try {
    const [value] = Intl.getCanonicalLocales(String(tag));
    return value || null;
  } catch (error) {
    return null;
  }
}

function baseOf(tag) {
  return tag.split('-')[0].toLowerCase();
}

// The language to show: the host's (`requested`, from ?language= or the configuration's `language`) when the pages
// have it, else the first of the browser's languages they have, else English. Answers the choice and, for a host
// value the pages cannot honour, a problem naming `language` (reported like a bad `style`).
export function chooseLanguage(requested, browser = (typeof navigator !== 'undefined' && navigator.languages) || []) {
  let problem = null;
  if (requested !== undefined && requested !== null && requested !== '') {
    const tag = canonical(requested);
    if (!tag) {
      problem = 'language.notATag';
    } else if (CATALOGUES[baseOf(tag)]) {
      return { language: baseOf(tag), locale: tag, problem: null };
    } else {
      problem = 'language.notOffered';
    }
  }
  for (const entry of browser) {
    const tag = canonical(entry);
    if (tag && CATALOGUES[baseOf(tag)]) {
      return { language: baseOf(tag), locale: tag, problem, requested };
    }
  }
  return { language: FALLBACK, locale: FALLBACK, problem, requested };
}

// Sets the language (and `<html lang>`); answers the problem message for a value it could not honour, or null.
export function setLanguage(requested, browser) {
  const choice = chooseLanguage(requested, browser);
  current = choice.language;
  locale = choice.locale;
  if (typeof document !== 'undefined') document.documentElement.lang = locale;
  if (!choice.problem) return null;
  return t(choice.problem, { value: String(requested), languages: LANGUAGES.join(', ') });
}

function select(message, params) {
  if (typeof message === 'string') return message;
  const count = params && typeof params.count === 'number' ? params.count : 0;
  const rules = new Intl.PluralRules(locale, { type: message._ordinal ? 'ordinal' : 'cardinal' });
  return message[rules.select(count)] ?? message.other;
}

function text(value) {
  if (typeof value === 'number') return formatNumber(value, { maximumFractionDigits: 2 });
  return String(value);
}

// The message for `key` in the page's language, its `{name}` placeholders filled from `params`.
export function t(key, params = {}) {
  let message = CATALOGUES[current][key];
  if (message === undefined) {
    missing.add(key);
    message = CATALOGUES[FALLBACK][key];
    if (message === undefined) return key;
  }
  return select(message, params).replace(/\{(\w+)\}/g, (whole, name) =>
    (Object.prototype.hasOwnProperty.call(params, name) && params[name] !== undefined && params[name] !== null
      ? text(params[name]) : whole));
}

export function formatNumber(value, options = {}) {
  return new Intl.NumberFormat(locale, options).format(value);
}

export function formatPercent(percent, digits = 0) {
  return new Intl.NumberFormat(locale, { style: 'percent', maximumFractionDigits: digits }).format(percent / 100);
}

export function formatDate(value, options = { day: 'numeric', month: 'short' }) {
  return new Intl.DateTimeFormat(locale, options).format(value instanceof Date ? value : new Date(value));
}

// "5 min 2 sec", "5 Min., 2 Sek.": whole minutes and seconds in the locale's short units.
export function formatDuration(seconds) {
  const total = Math.max(0, Math.round(seconds));
  const minutes = Math.floor(total / 60);
  const rest = total % 60;
  const format = (value, unit) =>
    new Intl.NumberFormat(locale, { style: 'unit', unit, unitDisplay: 'short' }).format(value);
  if (minutes === 0) return format(rest, 'second');
  if (rest === 0) return format(minutes, 'minute');
  return t('duration.minutesSeconds', { minutes: format(minutes, 'minute'), seconds: format(rest, 'second') });
}

// "10 min": a whole number of minutes in the locale's short unit.
export function formatMinutes(minutes) {
  return new Intl.NumberFormat(locale, { style: 'unit', unit: 'minute', unitDisplay: 'short' }).format(minutes);
}

// A list in the locale's words: "a, b and c", "a, b und c".
export function formatList(items) {
  return new Intl.ListFormat(locale, { style: 'long', type: 'conjunction' }).format(items.map(String));
}
