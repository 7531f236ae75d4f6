/** Client helpers over the server's data (no rules): typed-move matching and Atomic explosions. */
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

/** The side to move after `plies` moves from `startFen` (the standard start when null): the FEN's turn field, flipped once per ply. */
export function turnAfter(startFen: string | null, plies: number): 'white' | 'black' {
  const first = startFen?.trim().split(/\s+/)[1] === 'b' ? 'black' : 'white';
  return plies % 2 === 0 ? first : first === 'white' ? 'black' : 'white';
}

/**
 * How many plies a takeback against the computer removes: back to the
 * human's turn, so their last move and the engine's reply after it. Counted
 * from the move list, not from the last status the server sent, which can
 * lag one ply behind while the reply to the engine's move is in flight.
 */
export function aiTakebackPlies(startFen: string | null, plies: number, human: 'white' | 'black'): number {
  const n = turnAfter(startFen, plies) === human ? 2 : 1;
  // the engine's first move alone is not the human's to take back
  return n > plies ? 0 : n;
}
