import { describe, expect, it } from 'vitest';
import { VARIANT_INFO, guessFenVariant } from '../src/variants';

describe('the game of a pasted FEN when none is chosen', () => {
  it('reads Xiangqi from ten ranks and Horde from a board without a White king', () => {
    expect(guessFenVariant(VARIANT_INFO.xiangqi.startFen)).toBe('xiangqi');
    expect(guessFenVariant(`  ${VARIANT_INFO.xiangqi.startFen.split(' ')[0]}  `)).toBe('xiangqi');
    expect(guessFenVariant(VARIANT_INFO.horde.startFen)).toBe('horde');
    expect(guessFenVariant('8/P5k1/8/8/8/8/8/8 w - - 0 1')).toBe('horde');
  });
  it('leaves chess FENs, PGNs and anything else to the server', () => {
    expect(guessFenVariant(VARIANT_INFO.chess.startFen)).toBeNull();
    expect(guessFenVariant('8/P5k1/8/8/8/8/6K1/8 w - - 0 1')).toBeNull();
    expect(guessFenVariant('1. e4 e5 2. Nf3')).toBeNull();
    expect(guessFenVariant('[FEN "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1"]\n*')).toBeNull();
    expect(guessFenVariant('')).toBeNull();
  });
});
