import { describe, expect, it } from 'vitest';
import { keyToSquare, squareToKey } from '../src/board/keys';
import { VARIANT_INFO, fenPieces } from '../src/variants';

const eight = VARIANT_INFO.chess.dims;
const xq = VARIANT_INFO.xiangqi.dims;

describe('square ↔ chessgroundx key', () => {
  it('8×8 keys are the square names', () => {
    expect(squareToKey('e2', eight)).toBe('e2');
    expect(squareToKey('h8', eight)).toBe('h8');
    expect(keyToSquare('a1', eight)).toBe('a1');
  });
  it('rank 10 is ":" on the Xiangqi board, both ways', () => {
    expect(squareToKey('a10', xq)).toBe('a:');
    expect(squareToKey('i10', xq)).toBe('i:');
    expect(squareToKey('e1', xq)).toBe('e1');
    expect(keyToSquare('e:', xq)).toBe('e10');
    expect(keyToSquare('a9', xq)).toBe('a9');
  });
  it('round-trips every square of both boards', () => {
    for (const dims of [eight, xq]) {
      let n = 0;
      for (let f = 0; f < dims.width; f++)
        for (let r = 1; r <= dims.height; r++) {
          const sq = String.fromCharCode(97 + f) + String(r);
          const key = squareToKey(sq, dims);
          expect(key).toBeDefined();
          expect(key).toHaveLength(2);
          expect(keyToSquare(key as string, dims)).toBe(sq);
          n++;
        }
      expect(n).toBe(dims.width * dims.height);
    }
  });
  it('rejects squares off the board', () => {
    expect(squareToKey('i1', eight)).toBeUndefined();
    expect(squareToKey('a9', eight)).toBeUndefined();
    expect(squareToKey('a10', eight)).toBeUndefined();
    expect(squareToKey('j1', xq)).toBeUndefined();
    expect(squareToKey('a11', xq)).toBeUndefined();
    expect(squareToKey('a0', xq)).toBeUndefined();
    expect(squareToKey('a01', xq)).toBeUndefined();
    expect(squareToKey('', xq)).toBeUndefined();
    expect(squareToKey('E2', eight)).toBeUndefined();
    expect(keyToSquare('a:', eight)).toBeUndefined();
    expect(keyToSquare('a0', xq)).toBeUndefined();
    expect(keyToSquare('a;', xq)).toBeUndefined();
    expect(keyToSquare('a10', xq)).toBeUndefined();
  });
});

describe('fenPieces', () => {
  it('reads the Xiangqi start with rank 10 at the top', () => {
    const p = fenPieces(VARIANT_INFO.xiangqi.startFen, xq);
    expect(p.get('e1')).toBe('K');
    expect(p.get('e10')).toBe('k');
    expect(p.get('b3')).toBe('C');
    expect(p.get('h8')).toBe('c');
    expect(p.size).toBe(32);
  });
  it('reads Horde and rejects a wrong row count', () => {
    expect(fenPieces(VARIANT_INFO.horde.startFen, eight).size).toBe(36 + 16);
    expect(fenPieces('8/8 w - - 0 1', eight).size).toBe(0);
  });
});
