import { describe, expect, it } from 'vitest';
import { parseDiagram, parseFrontMatter, renderMarkdown } from '../src/rules';

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
