import { describe, expect, it } from 'vitest';
import { LANGS } from '../src/i18n';
import { parseDiagram, parseFrontMatter, renderMarkdown, reviewedDate, rulesSource } from '../src/rules';
import { VARIANTS, VARIANT_INFO, fenPieces } from '../src/variants';

describe('rules pages', () => {
  it('reads front matter', () => {
    const d = parseFrontMatter('---\ntitle: Atomic chess rules: captures explode\nreviewed: 2026-11-29\n---\n\n# Atomic\n');
    expect(d.title).toBe('Atomic chess rules: captures explode');
    expect(d.reviewed).toBe('2026-11-29');
    expect(d.body.trim()).toBe('# Atomic');
  });
  it('reads board blocks with and without moves', () => {
    expect(parseDiagram('board atomic rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 moves g1f3 d7d5')).toEqual({
      variant: 'atomic',
      fen: 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1',
      moves: ['g1f3', 'd7d5'],
    });
    expect(parseDiagram('board xiangqi 4k4/9/9/9/9/9/9/9/9/4K4 w - - 0 1')?.moves).toEqual([]);
    expect(parseDiagram('board shogi x')).toBeNull();
    expect(parseDiagram('rust')).toBeNull();
  });
  it('renders diagrams as figures and play links as app links', () => {
    const html = renderMarkdown('[Play Atomic](/#/play/atomic)\n\n```board atomic 4k3/8/8/8/8/8/3n4/3QK3 w - - 0 1\n```\n\n| a | b |\n|---|---|\n| 1 | 2 |\n');
    expect(html).toContain('href="/?game=atomic"');
    expect(html).toContain('<figure class="diagram" data-variant="atomic" data-fen="4k3/8/8/8/8/8/3n4/3QK3 w - - 0 1"');
    expect(html).toContain('<table>');
  });
});

describe('the written rules pages', () => {
  it('exist for every language and game, with front matter and drawable diagrams', () => {
    for (const l of LANGS)
      for (const g of VARIANTS) {
        const src = rulesSource(l, g);
        expect(src, `${l}/${g}.md`).toBeDefined();
        const doc = parseFrontMatter(src ?? '');
        expect(doc.title, `${l}/${g} title`).not.toBe('');
        expect(doc.reviewed, `${l}/${g} reviewed`).toMatch(/^\d{4}-\d{2}-\d{2}$/);
        const html = renderMarkdown(doc.body);
        const figs = [...html.matchAll(/data-variant="(\w+)" data-fen="([^"]*)"/g)];
        expect(figs.length, `${l}/${g} has diagrams`).toBeGreaterThan(0);
        expect(html.includes('```board'), `${l}/${g} no raw board block left`).toBe(false);
        for (const [, v, fen] of figs) {
          const info = VARIANT_INFO[v as keyof typeof VARIANT_INFO];
          expect(info, `${l}/${g} diagram variant ${v}`).toBeDefined();
          expect(fenPieces(fen ?? '', info.dims).size, `${l}/${g} diagram ${fen}`).toBeGreaterThan(0);
        }
      }
  });
});

describe('rules page text', () => {
  it('has no header row of empty cells', () => {
    const html = renderMarkdown('| | |\n|---|---|\n| Players | 2 |\n');
    expect(html).not.toContain('<th');
    expect(html).toContain('<td>Players</td>');
    expect(renderMarkdown('| a | b |\n|---|---|\n| 1 | 2 |\n')).toContain('<th>a</th>');
  });
  it('links every source and states the review date once (the page adds it from the front matter)', () => {
    for (const l of LANGS)
      for (const g of VARIANTS) {
        const src = rulesSource(l, g);
        if (!src) continue;
        const body = parseFrontMatter(src).body;
        const sources = body.split(/^## /m).at(-1) ?? '';
        const items = sources.split('\n').filter((x) => x.startsWith('- '));
        expect(items.length, `${l}/${g} sources`).toBeGreaterThan(0);
        for (const item of items) expect(item, `${l}/${g}`).toMatch(/\]\(https:\/\//);
        expect(body, `${l}/${g}`).not.toMatch(/2026\.?\s*$|\d{1,2}\/\d{1,2}\/\d{4}\.\s*$/);
      }
  });
  it('writes the review date in the page language', () => {
    expect(reviewedDate('2026-11-29')).toMatch(/29/);
    expect(reviewedDate('garbage')).toBe('garbage');
  });
});
