/**
 * Translations: one file per language, the same keys in each. A value is a
 * string, or an object of plural forms chosen by `Intl.PluralRules` for the
 * language (Polish needs one/few/many/other). `{name}` is replaced by params.
 */
import { en } from './en';
import { pl } from './pl';
import { pt } from './pt';
import { vi } from './vi';

/** One message: text, or plural forms. */
export type Message = string | Partial<Record<Intl.LDMLPluralRule, string>>;
/** Every key of the UI. */
export type Key = keyof typeof en;
/** A full translation. */
export type Messages = Record<Key, Message>;

/** The languages, in the switcher's order. */
export const LANGS = ['en', 'vi', 'pl', 'pt'] as const;
export type Lang = (typeof LANGS)[number];
/** Every translation. */
export const CATALOG: Record<Lang, Messages> = { en, vi, pl, pt };
/** Each language's own name. */
export const LANG_NAMES: Record<Lang, string> = { en: 'English', vi: 'Tiếng Việt', pl: 'Polski', pt: 'Português' };

/**
 * The locale whose plural rules a language's counts follow. CLDR's `pt`
 * puts 0 with the singular ("0 sala"), while Portuguese writes zero with the
 * plural ("0 salas"); for whole numbers `pt-PT`'s rules say exactly that.
 */
export const pluralLocale = (l: Lang): string => (l === 'pt' ? 'pt-PT' : l);

const STORE_KEY = 'cpx.lang';
let current: Lang = 'en';
const listeners = new Set<() => void>();

/** The language from a list of browser preferences (`pt-BR` → `pt`), English when none fits. */
export function pickLang(prefs: readonly string[]): Lang {
  for (const p of prefs) {
    const base = p.toLowerCase().split('-')[0];
    if ((LANGS as readonly string[]).includes(base ?? '')) return base as Lang;
  }
  return 'en';
}

/** Chooses the language at start: remembered choice, else the browser's. */
export function initLang(): Lang {
  let saved: string | null = null;
  try {
    saved = localStorage.getItem(STORE_KEY);
  } catch {
    saved = null;
  }
  current = saved && (LANGS as readonly string[]).includes(saved) ? (saved as Lang) : pickLang(navigator.languages ?? [navigator.language]);
  document.documentElement.lang = current;
  return current;
}

/** The current language. */
export const lang = (): Lang => current;

/** Switches and remembers the language. */
export function setLang(l: Lang): void {
  current = l;
  try {
    localStorage.setItem(STORE_KEY, l);
  } catch {
    /* private mode: not remembered */
  }
  document.documentElement.lang = l;
  for (const f of listeners) f();
}

/** Calls `f` after each language switch. */
export function onLangChange(f: () => void): () => void {
  listeners.add(f);
  return () => listeners.delete(f);
}

const fill = (s: string, params: Record<string, string | number>): string =>
  s.replace(/\{(\w+)\}/g, (m, k: string) => (k in params ? String(params[k]) : m));

/** A message in a given language. */
export function translate(l: Lang, key: Key, params: Record<string, string | number> = {}): string {
  const msg = CATALOG[l][key] ?? (en as Partial<Messages>)[key];
  if (msg === undefined) return '';
  if (typeof msg === 'string') return fill(msg, params);
  const n = typeof params.count === 'number' ? params.count : 0;
  const form = new Intl.PluralRules(pluralLocale(l)).select(n);
  const s = msg[form] ?? msg.other ?? '';
  return fill(s, { ...params, count: new Intl.NumberFormat(l).format(n) });
}

/** A message in the current language. */
export const t = (key: Key, params: Record<string, string | number> = {}): string => translate(current, key, params);

/**
 * The `{next}` of the Xiangqi streak lines: English says "a 7th" / "an 8th"
 * (the catalogue's sentence is "…: a 7th check loses"); the other languages
 * put the plain number after their word for "number" ("szach numer 7").
 */
export function losingOrdinal(l: Lang, n: number): string {
  if (l !== 'en') return String(n);
  const suffix = { one: 'st', two: 'nd', few: 'rd', other: 'th' }[new Intl.PluralRules('en', { type: 'ordinal' }).select(n) as 'one' | 'two' | 'few' | 'other'] ?? 'th';
  // "an eighth", "an eleventh", "an eighteenth", "an eightieth"
  const an = String(n).startsWith('8') || n === 11 || n === 18;
  return `${an ? 'an' : 'a'} ${n}${suffix}`;
}
