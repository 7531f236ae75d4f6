/**
 * The material line of the player bars, as lichess draws it: for each kind
 * of piece, the pieces one side has more of than the other (what it has
 * captured, net), and the difference in points. Counted from the FEN the
 * server sent: a picture of the position, not a rule of the game.
 */
import type { Color } from './protocol';
import { fenPieces, type VariantInfo } from './variants';

/** Points per piece letter (lower case); kings count nothing. */
const VALUES: Record<VariantInfo['family'], Record<string, number>> = {
  western: { p: 1, n: 3, b: 3, r: 5, q: 9 },
  // the usual Xiangqi values: chariot 9, cannon 4.5, horse 4, elephant and advisor 2, soldier 1
  xiangqi: { p: 1, a: 2, b: 2, n: 4, c: 4.5, r: 9 },
};

/** What one side is ahead by: extra pieces (letter → how many) in value order, and points. */
export interface SideMaterial {
  pieces: [string, number][];
  points: number;
}

/** Both sides' material lead in the position of `fen`. */
export function materialDiff(v: VariantInfo, fen: string): Record<Color, SideMaterial> {
  const values = VALUES[v.family];
  const count: Record<string, number> = {};
  for (const p of fenPieces(fen, v.dims).values()) count[p] = (count[p] ?? 0) + 1;
  const out: Record<Color, SideMaterial> = { white: { pieces: [], points: 0 }, black: { pieces: [], points: 0 } };
  let score = 0;
  const order = Object.keys(values).sort((a, b) => (values[b] ?? 0) - (values[a] ?? 0));
  for (const role of order) {
    const d = (count[role.toUpperCase()] ?? 0) - (count[role] ?? 0);
    score += d * (values[role] ?? 0);
    if (d > 0) out.white.pieces.push([role, d]);
    if (d < 0) out.black.pieces.push([role, -d]);
  }
  if (score > 0) out.white.points = score;
  if (score < 0) out.black.points = -score;
  return out;
}
