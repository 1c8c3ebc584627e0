// The page's look (docs/embed.md, "Style and branding"): the host's style, dark or light, and the company's accent
// colour and logo from the page's settings. Colours are custom properties (forma.css); a company's accent is put in
// only in forms that keep every text readable: the text on the accent is black or white, whichever contrasts more,
// and the accent used as text is lightened (dark style) or darkened (light style) until it reaches 4.5:1 against the
// page, as WCAG 2.1 AA asks of normal text.

import { t } from './i18n.js';

export const STYLES = ['dark', 'light'];

const MINIMUM_TEXT_CONTRAST = 4.5;

function channels(hex) {
  const match = /^#([0-9a-f]{6})$/i.exec(String(hex).trim());
  if (!match) return null;
  const value = parseInt(match[1], 16);
  return [(value >> 16) & 255, (value >> 8) & 255, value & 255];
}

function toHex(rgb) {
  return '#' + rgb.map((c) => Math.round(c).toString(16).padStart(2, '0')).join('');
}

// Relative luminance (WCAG 2.1).
export function luminance(rgb) {
  const [r, g, b] = rgb.map((c) => {
    const s = c / 255;
    return s <= 0.03928 ? s / 12.92 : Math.pow((s + 0.055) / 1.055, 2.4);
  });
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

export function contrast(a, b) {
  const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (light + 0.05) / (dark + 0.05);
}

// The three forms of an accent against a page background: fill, text on the fill, and text on the page.
export function accentForms(accentHex, backgroundHex) {
  const accent = channels(accentHex);
  const background = channels(backgroundHex);
  if (!accent || !background) return null;
  const black = [0, 0, 0];
  const white = [255, 255, 255];
  const onAccent = contrast(accent, black) >= contrast(accent, white) ? black : white;
  // Towards white on a dark page, towards black on a light one; 5 % steps reach the end within 20 steps, and
  // white or black itself contrasts with any page background of its style.
  const target = luminance(background) < 0.5 ? white : black;
  let text = accent;
  for (let step = 1; step <= 20 && contrast(text, background) < MINIMUM_TEXT_CONTRAST; step += 1) {
    const t = step / 20;
    text = accent.map((c, i) => c + (target[i] - c) * t);
  }
  return { accent: toHex(accent), onAccent: toHex(onAccent), accentText: toHex(text) };
}

// The look now shown: the style and the company's branding, re-applied whenever either changes.
export class PageLook {
  constructor(branding, companyName) {
    this.branding = branding || {};
    this.companyName = companyName || '';
    this.style = 'dark';
  }

  // `name` is the host's style; anything but the known ones is refused with a message naming `style`.
  setStyle(name) {
    if (name === undefined || name === null || name === '') return null;
    const style = String(name).toLowerCase();
    if (!STYLES.includes(style)) return t('style.unknown', { value: String(name), styles: STYLES.join(t('style.or')) });
    this.style = style;
    this.apply();
    return null;
  }

  apply() {
    const root = document.documentElement;
    root.dataset.style = this.style;
    for (const name of ['--accent', '--on-accent', '--accent-text']) root.style.removeProperty(name);
    if (this.branding.accentColor) {
      const background = getComputedStyle(root).getPropertyValue('--background').trim();
      const forms = accentForms(this.branding.accentColor, background);
      if (forms) {
        root.style.setProperty('--accent', forms.accent);
        root.style.setProperty('--on-accent', forms.onAccent);
        root.style.setProperty('--accent-text', forms.accentText);
      }
    }
    this.showLogo();
  }

  showLogo() {
    let header = document.querySelector('header.brand');
    if (!this.branding.logo) {
      if (header) header.remove();
      return;
    }
    if (!header) {
      header = document.createElement('header');
      header.className = 'brand';
      const image = document.createElement('img');
      header.appendChild(image);
      document.body.insertBefore(header, document.body.firstChild);
    }
    const image = header.querySelector('img');
    image.src = this.branding.logo;
    image.alt = this.companyName ? t('style.logoOf', { company: this.companyName }) : t('style.logo');
  }
}
