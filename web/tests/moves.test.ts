import { describe, expect, it } from 'vitest';
import { explosion, fenTurn, matchTyped, moveNumbering } from '../src/moves';
import type { MoveInfo } from '../src/protocol';
import { VARIANT_INFO } from '../src/variants';

const mi = (uci: string, san: string, promotion: string | null = null): MoveInfo => ({
  uci,
  san,
  from: uci.slice(0, 2),
  to: uci.slice(2, 4),
  promotion,
});

describe('matchTyped', () => {
  const moves = [
    mi('e2e4', 'e4'),
    mi('g1f3', 'Nf3'),
    mi('b2b4', 'b4'),
    mi('c1b2', 'Bb2'),
    mi('e1g1', 'O-O'),
    mi('e7e8q', 'e8=Q+', 'q'),
    mi('e7e8n', 'e8=N', 'n'),
    mi('e4d5', 'exd5'),
  ];
  it('takes UCI, SAN and loose SAN', () => {
    expect(matchTyped('e2e4', moves)?.uci).toBe('e2e4');
    expect(matchTyped(' Nf3 ', moves)?.uci).toBe('g1f3');
    expect(matchTyped('e8=Q', moves)?.uci).toBe('e7e8q');
    expect(matchTyped('e8Q', moves)?.uci).toBe('e7e8q');
    expect(matchTyped('e7e8n', moves)?.uci).toBe('e7e8n');
    expect(matchTyped('0-0', moves)?.uci).toBe('e1g1');
    expect(matchTyped('ed5', moves)?.uci).toBe('e4d5');
  });
  it('keeps SAN case: b4 is the pawn, Bb2 the bishop', () => {
    expect(matchTyped('b4', moves)?.uci).toBe('b2b4');
    expect(matchTyped('Bb2', moves)?.uci).toBe('c1b2');
  });
  it('refuses unknown and ambiguous text', () => {
    expect(matchTyped('Qh5', moves)).toBeUndefined();
    expect(matchTyped('', moves)).toBeUndefined();
    expect(matchTyped('e7e8', moves)).toBeUndefined();
  });
  it('takes WXF in any case', () => {
    const xq = [mi('h3e3', 'C2=5'), mi('h1g3', 'H2+3')];
    expect(matchTyped('c2=5', xq)?.uci).toBe('h3e3');
    expect(matchTyped('H2+3', xq)?.uci).toBe('h1g3');
    expect(matchTyped('a10a9', [mi('a10a9', 'R9+1')])?.uci).toBe('a10a9');
  });
});

describe('explosion', () => {
  const atomic = VARIANT_INFO.atomic;
  it('finds the blown-up squares and pieces of an Atomic capture', () => {
    // 1. e4 d5 2. exd5: the capturing pawn and the d5 pawn go; neighbouring pawns survive
    const before = 'rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 2';
    const after = 'rnbqkbnr/ppp1pppp/8/8/8/8/PPPP1PPP/RNBQKBNR b KQkq - 0 2';
    const e = explosion(atomic, before, after, 'e4', 'd5');
    expect(e?.squares).toEqual(['d5']);
    expect(e?.removed.sort()).toEqual(['P', 'p']);
  });
  it('lists neighbours that exploded', () => {
    const before = '4k3/8/8/3np3/4N3/8/8/4K3 w - - 0 1';
    const after = '4k3/8/8/4p3/8/8/8/4K3 b - - 0 1'; // the e5 pawn survives
    const e = explosion(atomic, before, after, 'e4', 'd5');
    expect(e?.squares).toEqual(['d5']);
    expect(e?.removed.sort()).toEqual(['N', 'n']);
    const before2 = '4k3/8/2b5/3nr3/4N3/8/8/4K3 w - - 0 1';
    const after2 = '4k3/8/8/8/8/8/8/4K3 b - - 0 1';
    expect(explosion(atomic, before2, after2, 'e4', 'd5')?.squares.sort()).toEqual(['c6', 'd5', 'e5']);
  });
  it('is null for quiet moves and other games', () => {
    const s = VARIANT_INFO.chess.startFen;
    const a = 'rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1';
    expect(explosion(atomic, s, a, 'e2', 'e4')).toBeNull();
    expect(explosion(VARIANT_INFO.chess, s, '8/8/8/8/8/8/8/8 w - - 0 1', 'e2', 'e4')).toBeNull();
  });
});

describe('moveNumbering and fenTurn', () => {
  it('numbers from the start position: 1. White, 1… Black, 2. White', () => {
    const n = moveNumbering(null);
    expect([0, 1, 2, 3].map(n)).toEqual([
      { move: 1, side: 'white' },
      { move: 1, side: 'black' },
      { move: 2, side: 'white' },
      { move: 2, side: 'black' },
    ]);
  });
  it('a FEN start keeps its move number and side to move', () => {
    const n = moveNumbering('8/P5k1/8/8/8/8/6K1/8 b - - 0 23');
    expect(n(0)).toEqual({ move: 23, side: 'black' });
    expect(n(1)).toEqual({ move: 24, side: 'white' });
    expect(n(2)).toEqual({ move: 24, side: 'black' });
    expect(moveNumbering('4k3/8/8/8/8/8/8/R3K3 w - - 3 40')(0)).toEqual({ move: 40, side: 'white' });
  });
  it('a FEN without a move number starts at 1', () => {
    expect(moveNumbering('4k3/8/8/8/8/8/8/R3K3 w')(0)).toEqual({ move: 1, side: 'white' });
    expect(moveNumbering('4k3/8/8/8/8/8/8/R3K3 w - - 0 0')(0)).toEqual({ move: 1, side: 'white' });
  });
  it('reads the side to move of a FEN', () => {
    expect(fenTurn('rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1')).toBe('black');
    expect(fenTurn('rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1')).toBe('white');
  });
});
