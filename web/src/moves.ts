/** Client helpers over the server's data (no rules): typed-move matching, Atomic explosions, move numbers. */
import type { MoveInfo } from './protocol';
import { fenPieces, type VariantInfo } from './variants';

const strip = (s: string): string => s.trim().replace(/[+#!?]+$/g, '').replace(/\s+/g, '');

/**
 * The legal move a typed text names: UCI (`e2e4`, `e7e8q`, `h3e3`), SAN
 * (`Nf3`, `exd5`, `e8=Q`, `O-O`, checks optional) or WXF (`C2=5`, case free).
 * `undefined` when nothing or more than one move matches.
 */
export function matchTyped(text: string, moves: readonly MoveInfo[]): MoveInfo | undefined {
  const s = strip(text);
  if (!s) return undefined;
  const one = (list: MoveInfo[]): MoveInfo | undefined => (list.length === 1 ? list[0] : undefined);
  const byUci = moves.filter((m) => m.uci === s.toLowerCase());
  if (byUci.length) return one(byUci);
  const norm = s.replace(/0/g, 'O');
  const bySan = moves.filter((m) => strip(m.san) === s || strip(m.san) === norm);
  if (bySan.length) return one(bySan);
  // SAN without the capture mark or the promotion "=" (e.g. "ed5", "e8Q")
  const loose = (x: string): string => x.replace(/[x=:]/g, '');
  const byLoose = moves.filter((m) => loose(strip(m.san)) === loose(norm));
  if (byLoose.length) return one(byLoose);
  const byUpper = moves.filter((m) => strip(m.san).toUpperCase() === s.toUpperCase());
  return one(byUpper);
}

/** What an Atomic capture removed: the exploded squares and the pieces that were on them. */
export interface Explosion {
  squares: string[];
  removed: string[];
}

/**
 * Compares the boards before and after a move (from the server's FENs):
 * when the destination is empty afterwards the move was an exploding
 * capture, and every square emptied (other than the origin) blew up.
 */
export function explosion(v: VariantInfo, beforeFen: string, afterFen: string, from: string, to: string): Explosion | null {
  if (!v.explodes) return null;
  const before = fenPieces(beforeFen, v.dims);
  const after = fenPieces(afterFen, v.dims);
  if (before.size === 0 || after.size === 0 || after.has(to)) return null;
  const squares: string[] = [to];
  const removed: string[] = [];
  for (const [sq, piece] of before) {
    if (sq === from) continue;
    if (!after.has(sq)) {
      if (sq !== to) squares.push(sq);
      removed.push(piece);
    }
  }
  const mover = before.get(from);
  if (mover) removed.push(mover);
  return { squares, removed };
}

/** The side to move in a FEN (its second field; Xiangqi's Red is `w`). */
export const fenTurn = (fen: string): 'white' | 'black' => (fen.split(' ')[1] === 'b' ? 'black' : 'white');

/**
 * The move number and side of each ply of a game from `startFen`: a game set
 * up at move 23 with Black to move numbers its first ply 23 (Black's).
 */
export function moveNumbering(startFen: string | null): (ply: number) => { move: number; side: 'white' | 'black' } {
  const f = (startFen ?? '').trim().split(/\s+/);
  const first = Number(f[5]);
  const base = Number.isInteger(first) && first > 0 ? first : 1;
  const blackFirst = f[1] === 'b' ? 1 : 0;
  return (ply) => ({ move: base + Math.floor((ply + blackFirst) / 2), side: (ply + blackFirst) % 2 === 0 ? 'white' : 'black' });
}

