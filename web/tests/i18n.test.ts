import { describe, expect, it } from 'vitest';
import { CATALOG, LANGS, losingOrdinal, pickLang, pluralLocale, translate, type Key } from '../src/i18n';
import { en } from '../src/i18n/en';
import { END_REASONS, ERROR_CODES } from '../src/protocol';

const keys = Object.keys(en) as Key[];
const placeholders = (s: string): string[] => (s.match(/\{\w+\}/g) ?? []).sort();

describe('translations', () => {
  it('every language has every key and nothing else', () => {
    for (const l of LANGS) {
      const have = Object.keys(CATALOG[l]).sort();
      expect(have, `keys of ${l}`).toEqual([...keys].sort());
    }
  });
  it('plural messages have every form Intl.PluralRules uses for the language', () => {
    for (const l of LANGS) {
      const needed = new Intl.PluralRules(pluralLocale(l)).resolvedOptions().pluralCategories;
      for (const k of keys) {
        const m = CATALOG[l][k];
        const isPlural = typeof en[k] !== 'string';
        expect(typeof m !== 'string', `${l}:${k} plural-ness`).toBe(isPlural);
        if (typeof m === 'string') continue;
        for (const form of needed) expect(m[form], `${l}:${k}:${form}`).toBeTruthy();
      }
    }
  });
  it('translations keep the placeholders of English', () => {
    for (const l of LANGS)
      for (const k of keys) {
        const ref = en[k];
        const m = CATALOG[l][k];
        const refText = typeof ref === 'string' ? ref : (ref.other ?? '');
        const forms = typeof m === 'string' ? [m] : Object.values(m);
        for (const f of forms) expect(placeholders(f ?? ''), `${l}:${k}`).toEqual(placeholders(refText));
        expect(forms.every((f) => (f ?? '').trim().length > 0), `${l}:${k} empty`).toBe(true);
      }
  });
  it('every protocol end reason and ws error has words', () => {
    for (const l of LANGS) for (const r of END_REASONS) expect(translate(l, `reason.${r}` as Key), `${l}: reason.${r}`).not.toBe('');
    for (const l of LANGS) for (const c of ERROR_CODES) expect(translate(l, `wsError.${c}` as Key), `${l}: wsError.${c}`).not.toBe('');
  });
  it('Polish picks one/few/many', () => {
    expect(translate('pl', 'lobby.playing', { count: 1 })).toBe('1 partia w toku');
    expect(translate('pl', 'lobby.playing', { count: 3 })).toBe('3 partie w toku');
    expect(translate('pl', 'lobby.playing', { count: 5 })).toBe('5 partii w toku');
    expect(translate('pl', 'lobby.playing', { count: 22 })).toBe('22 partie w toku');
    expect(translate('pl', 'lobby.waiting', { count: 12 })).toBe('12 pokojów czeka');
    expect(translate('en', 'lobby.waiting', { count: 1 })).toBe('1 room waiting');
    expect(translate('en', 'lobby.waiting', { count: 0 })).toBe('0 rooms waiting');
    expect(translate('vi', 'saved.moves', { count: 1 })).toBe('1 nước');
  });
  it('Polish 12–14 take the "many" form, 0 too; 2–4 and 22–24 "few"', () => {
    for (const n of [0, 5, 11, 12, 13, 14, 15, 21, 25, 112]) expect(translate('pl', 'saved.moves', { count: n })).toBe(`${n} ruchów`);
    for (const n of [2, 3, 4, 22, 23, 24, 102]) expect(translate('pl', 'saved.moves', { count: n })).toBe(`${n} ruchy`);
    expect(translate('pl', 'saved.moves', { count: 1 })).toBe('1 ruch');
    expect(translate('pl', 'lobby.waiting', { count: 2 })).toBe('2 pokoje czekają');
  });
  it('Portuguese: 0 is plural, 1 singular', () => {
    expect(translate('pt', 'lobby.waiting', { count: 0 })).toBe('0 salas aguardando');
    expect(translate('pt', 'lobby.waiting', { count: 1 })).toBe('1 sala aguardando');
    expect(translate('pt', 'saved.moves', { count: 2 })).toBe('2 lances');
  });
  it('the draw by timeout against insufficient material has words in every language', () => {
    const seen = new Set(LANGS.map((l) => translate(l, 'reason.timeout_vs_insufficient_material')));
    expect(seen.size).toBe(LANGS.length);
  });
  it('fills parameters and follows browser preferences', () => {
    expect(translate('pt', 'home.level', { level: 3 })).toBe('Nível 3');
    expect(pickLang(['pt-BR', 'en'])).toBe('pt');
    expect(pickLang(['de-DE', 'pl'])).toBe('pl');
    expect(pickLang(['fr'])).toBe('en');
  });
});

describe('the Xiangqi streak line', () => {
  it('says which check loses as the issue words it, with the right ordinal and article', () => {
    expect(translate('en', 'xq.checkedInRow', { side: 'Red', count: 4, next: losingOrdinal('en', 6) })).toBe('Red has checked 4 times in a row: a 6th check loses.');
    expect(['a 1st', 'a 2nd', 'a 3rd', 'an 8th', 'an 11th', 'a 12th', 'an 18th', 'a 21st', 'a 22nd'].join()).toBe([1, 2, 3, 8, 11, 12, 18, 21, 22].map((n) => losingOrdinal('en', n)).join());
    expect(translate('pl', 'xq.checkedInRow', { side: 'Czerwone', count: 2, next: losingOrdinal('pl', 7) })).toBe('Czerwone szachuje 2 razy z rzędu: szach numer 7 przegra.');
  });
});
