/**
 * Square names (as the server writes them: `e2`, `a10`) and chessgroundx
 * keys. chessgroundx encodes a rank as one character, `'0' + rank`, so rank
 * 10 is `:`; this is the one place that knows it (never `replace(/10/, ':')`).
 */

/** Board size in files × ranks. */
export interface Dims {
  readonly width: number;
  readonly height: number;
}

/** A chessgroundx key (`e2`, `a:`); only built by {@link squareToKey}. */
export type CgKey = string & { readonly __cgKey: unique symbol };

const SQUARE_RE = /^([a-p])([1-9][0-9]?)$/;

/** The chessgroundx key of a square name, or `undefined` when the name is not a square of this board. */
export function squareToKey(square: string, dims: Dims): CgKey | undefined {
  const m = SQUARE_RE.exec(square);
  if (!m || m[1] === undefined || m[2] === undefined) return undefined;
  const file = m[1].charCodeAt(0) - 97;
  const rank = Number(m[2]);
  if (file >= dims.width || rank < 1 || rank > dims.height) return undefined;
  return (m[1] + String.fromCharCode(48 + rank)) as CgKey;
}

/** The square name of a chessgroundx key, or `undefined` when the key is not on this board. */
export function keyToSquare(key: string, dims: Dims): string | undefined {
  if (key.length !== 2) return undefined;
  const file = key.charCodeAt(0) - 97;
  const rank = key.charCodeAt(1) - 48;
  if (file < 0 || file >= dims.width || rank < 1 || rank > dims.height) return undefined;
  return key[0] + String(rank);
}
