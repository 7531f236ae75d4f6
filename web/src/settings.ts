/**
 * The player's preferences (board theme, Xiangqi piece style, sound,
 * coordinates, light/dark theme, board size), remembered in localStorage,
 * and the settings menu in the page header that changes them. Every
 * preference is applied as an attribute on <html> (CSS does the rest) or read
 * where it is used (sound, glyphs, board size), so a change shows at once
 * without rebuilding the page.
 */
import { installPieceCss, type GlyphStyle } from './board/ground';
import { h } from './dom';
import { t, type Key } from './i18n';

/** 8×8 board colours (light, dark squares). */
export const BOARD_THEMES = {
  brown: ['#f0d9b5', '#b58863'],
  blue: ['#dee3e6', '#8ca2ad'],
  green: ['#ffffdd', '#86a666'],
  grey: ['#e8e8e8', '#a0a0a0'],
} as const;
export type BoardTheme = keyof typeof BOARD_THEMES;
/** Light or dark page colours; `system` follows `prefers-color-scheme`. */
export type ColorScheme = 'system' | 'light' | 'dark';

/** Every preference, with its type. */
export interface Prefs {
  board: BoardTheme;
  glyphs: GlyphStyle;
  sound: boolean;
  coords: boolean;
  scheme: ColorScheme;
  /** Board width in CSS pixels chosen by dragging its corner; null: fill the space. */
  boardSize: number | null;
}

const KEYS: { [K in keyof Prefs]: string } = {
  board: 'cpx.board',
  glyphs: 'cpx.glyphs',
  sound: 'cpx.sound',
  coords: 'cpx.coords',
  scheme: 'cpx.scheme',
  boardSize: 'cpx.boardSize',
};

function read(key: string): string | null {
  try {
    return localStorage.getItem(key);
  } catch {
    return null;
  }
}

/** The preferences as stored; anything unknown or missing falls back to the default. */
export function prefs(): Prefs {
  const board = read(KEYS.board);
  const scheme = read(KEYS.scheme);
  const size = Number(read(KEYS.boardSize));
  return {
    board: board && board in BOARD_THEMES ? (board as BoardTheme) : 'brown',
    glyphs: read(KEYS.glyphs) === 'western' ? 'western' : 'native',
    sound: read(KEYS.sound) !== 'off',
    coords: read(KEYS.coords) !== 'off',
    scheme: scheme === 'light' || scheme === 'dark' ? scheme : 'system',
    boardSize: Number.isFinite(size) && size >= 160 ? Math.round(size) : null,
  };
}

const listeners = new Set<(p: Prefs) => void>();
/** Calls `f` after every change of a preference. */
export function onPrefs(f: (p: Prefs) => void): () => void {
  listeners.add(f);
  return () => listeners.delete(f);
}

/** Changes and remembers one preference, then applies them all. */
export function setPref<K extends keyof Prefs>(key: K, value: Prefs[K]): void {
  try {
    if (value === null) localStorage.removeItem(KEYS[key]);
    else localStorage.setItem(KEYS[key], typeof value === 'boolean' ? (value ? 'on' : 'off') : String(value));
  } catch {
    /* private mode: applied, not remembered */
  }
  applyPrefs();
  const p = prefs();
  for (const f of listeners) f(p);
}

/** An 8×8 checkerboard as a CSS background (the board theme). */
function checkerUrl(light: string, dark: string): string {
  let rects = '';
  for (let y = 0; y < 8; y++) for (let x = 0; x < 8; x++) if ((x + y) % 2 === 1) rects += `<rect x="${x}" y="${y}" width="1" height="1"/>`;
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 8 8" shape-rendering="crispEdges"><rect width="8" height="8" fill="${light}"/><g fill="${dark}">${rects}</g></svg>`;
  return `url("data:image/svg+xml;utf8,${encodeURIComponent(svg)}")`;
}

let themeEl: HTMLStyleElement | null = null;
/** Puts the preferences on the page: attributes on <html>, the board colours, the piece style. */
export function applyPrefs(): void {
  const p = prefs();
  const root = document.documentElement;
  root.dataset.board = p.board;
  root.dataset.coords = p.coords ? 'on' : 'off';
  const dark = p.scheme === 'dark' || (p.scheme === 'system' && matchMedia('(prefers-color-scheme: dark)').matches);
  root.dataset.scheme = dark ? 'dark' : 'light';
  if (!themeEl) {
    themeEl = document.createElement('style');
    themeEl.id = 'board-theme';
    document.head.appendChild(themeEl);
  }
  const [light, darkSq] = BOARD_THEMES[p.board];
  themeEl.textContent = `.board-8x8 cg-board, .board-preview.board-8x8 cg-board { background-color: ${light}; background-image: ${checkerUrl(light, darkSq)}; }`;
  installPieceCss(p.glyphs);
}

/** Once at start: follows the system's light/dark switch while the scheme is `system`; a click elsewhere closes the settings menu. */
export function watchSystemScheme(): void {
  matchMedia('(prefers-color-scheme: dark)').addEventListener('change', () => applyPrefs());
  document.addEventListener('click', (e) => {
    const menu = document.querySelector<HTMLDetailsElement>('details.settings-menu');
    if (menu?.open && !menu.contains(e.target as Node)) menu.open = false;
  });
}

function select<K extends 'board' | 'glyphs' | 'scheme'>(key: K, id: string, label: Key, options: readonly [Prefs[K], Key][]): HTMLElement {
  const s = h('select', { id });
  for (const [value, text] of options) s.append(h('option', { value: String(value), selected: prefs()[key] === value }, t(text)));
  s.addEventListener('change', () => setPref(key, s.value as Prefs[K]));
  return h('div', { class: 'setting' }, h('label', { for: id }, t(label)), s);
}

function toggle(key: 'sound' | 'coords', id: string, label: Key): HTMLElement {
  const box = h('input', { type: 'checkbox', id, checked: prefs()[key] });
  box.addEventListener('change', () => setPref(key, box.checked));
  return h('div', { class: 'setting check' }, box, h('label', { for: id }, t(label)));
}

/** The header's settings menu: a disclosure button and its panel. */
export function settingsMenu(): HTMLElement {
  const panel = h(
    'div',
    { class: 'settings-panel', id: 'settings-panel' },
    select('board', 'set-board', 'set.board', [
      ['brown', 'set.board.brown'],
      ['blue', 'set.board.blue'],
      ['green', 'set.board.green'],
      ['grey', 'set.board.grey'],
    ]),
    select('glyphs', 'glyphs', 'nav.glyphs', [
      ['native', 'nav.glyphs.native'],
      ['western', 'nav.glyphs.western'],
    ]),
    select('scheme', 'set-scheme', 'set.scheme', [
      ['system', 'set.scheme.system'],
      ['light', 'set.scheme.light'],
      ['dark', 'set.scheme.dark'],
    ]),
    toggle('sound', 'set-sound', 'set.sound'),
    toggle('coords', 'set-coords', 'set.coords'),
  );
  const menu = h('details', { class: 'settings-menu' }, h('summary', { id: 'settings', title: t('set.title') }, h('span', { 'aria-hidden': 'true' }, '⚙ '), t('set.title')), panel);
  menu.addEventListener('keydown', (e) => {
    if (e.key === 'Escape' && menu.open) {
      menu.open = false;
      menu.querySelector('summary')?.focus();
    }
  });
  return menu;
}
