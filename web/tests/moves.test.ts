import { describe, expect, it } from 'vitest';
import { aiTakebackPlies, explosion, matchTyped, turnAfter } from '../src/moves';
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

describe('turnAfter and aiTakebackPlies', () => {
  it('flips the FEN turn once per ply', () => {
    expect(turnAfter(null, 0)).toBe('white');
    expect(turnAfter(null, 3)).toBe('black');
    expect(turnAfter('rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1', 0)).toBe('black');
    expect(turnAfter('rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1', 1)).toBe('white');
  });
  it('removes the reply and the human move on the human turn, only the human move while the engine thinks', () => {
    expect(aiTakebackPlies(null, 4, 'white')).toBe(2);
    expect(aiTakebackPlies(null, 3, 'white')).toBe(1);
    expect(aiTakebackPlies(null, 1, 'black')).toBe(0);
    expect(aiTakebackPlies(null, 2, 'black')).toBe(1);
    expect(aiTakebackPlies(null, 3, 'black')).toBe(2);
    expect(aiTakebackPlies(null, 0, 'white')).toBe(0);
  });
});
