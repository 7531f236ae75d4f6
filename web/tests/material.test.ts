import { describe, expect, it } from 'vitest';
import { materialDiff } from '../src/material';
import { VARIANT_INFO } from '../src/variants';

describe('material lead from a FEN', () => {
  it('is even at the start of every game', () => {
    for (const v of [VARIANT_INFO.chess, VARIANT_INFO.atomic, VARIANT_INFO.xiangqi]) {
      const m = materialDiff(v, v.startFen);
      expect(m.white).toEqual({ pieces: [], points: 0 });
      expect(m.black).toEqual({ pieces: [], points: 0 });
    }
  });

  it('gives White the pawn it won, and Black nothing', () => {
    const m = materialDiff(VARIANT_INFO.chess, 'rnb1kbnr/ppp1pppp/8/3q4/8/8/PPPP1PPP/RNBQKBNR w KQkq - 0 3');
    // both sides lost a pawn: even
    expect(m.white.points).toBe(0);
    const up = materialDiff(VARIANT_INFO.chess, 'rnbqkbnr/ppp1pppp/8/3P4/8/8/PPPP1PPP/RNBQKBNR b KQkq - 0 2');
    expect(up.white).toEqual({ pieces: [['p', 1]], points: 1 });
    expect(up.black).toEqual({ pieces: [], points: 0 });
  });

  it('nets pieces kind by kind, in value order, and counts the points', () => {
    // White is missing a knight, Black a rook and two pawns: White +5+2-3 = +4
    const m = materialDiff(VARIANT_INFO.chess, '1nbqkbnr/pppppp2/8/8/8/8/PPPPPPPP/R1BQKBNR w Kk - 0 1');
    expect(m.white.pieces).toEqual([
      ['r', 1],
      ['p', 2],
    ]);
    expect(m.black.pieces).toEqual([['n', 1]]);
    expect(m.white.points).toBe(4);
    expect(m.black.points).toBe(0);
  });

  it("uses Xiangqi values: Red's cannon for Black's horse leaves Black half a point ahead", () => {
    const m = materialDiff(VARIANT_INFO.xiangqi, 'r1bakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/7C1/9/RNBAKABNR w - - 0 1');
    expect(m.white.pieces).toEqual([['n', 1]]);
    expect(m.black.pieces).toEqual([['c', 1]]);
    expect(m.black.points).toBe(0.5);
  });
});
