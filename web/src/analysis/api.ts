/**
 * The analysis endpoints of docs/protocol-http.md (`/api/analysis`), once an analysis
 * is started (../api.ts): poll it, and ask for the analysis board's live
 * engine line.
 * Replies are checked field by field: a malformed reply is an error, never
 * a half-drawn page.
 */
import { ApiError, call } from '../api';
import type { Color, Warning } from '../protocol';
import { isVariant, type VariantName } from '../variants';

/** An evaluation from White's (Red's) side; `winner` is set in a finished position. */
export type Eval = { cp: number; winner?: Color | null } | { mate: number; winner?: Color | null };

/** What the engine says about one position. */
export interface PositionEval {
  eval: Eval | null;
  best: string | null;
  best_san: string | null;
  pv: string[];
  pv_san: string[];
  depth: number;
}

/** How bad a move was. */
export type Judgement = 'inaccuracy' | 'mistake' | 'blunder';

/** The Xiangqi perpetual rule a move loses by. */
export type Violation = 'perpetual_check' | 'perpetual_chase';

/**
 * The perpetual rule a Xiangqi move would break, from the server's warnings
 * for the position before it (only moves that lose: a mutual perpetual is a
 * draw, and a forbidden move cannot be played at all).
 */
export function violationOf(warnings: readonly Warning[], uci: string): Violation | null {
  const w = warnings.find((x) => x.uci === uci && x.loses);
  if (!w) return null;
  return w.outcome?.reason === 'perpetual_chase' ? 'perpetual_chase' : 'perpetual_check';
}

/** One analysed move (move `ply`, leading to position `ply`). */
export interface AnalysedMove {
  ply: number;
  uci: string;
  san: string;
  loss: number | null;
  judgement: Judgement | null;
  better: string | null;
  better_san: string | null;
  violation: Violation | null;
}

/** `GET /api/analysis/{id}`. */
export interface Analysis {
  id: string;
  variant: VariantName;
  fen: string;
  ucis: string[];
  sans: string[];
  total: number;
  done: number;
  complete: boolean;
  positions: PositionEval[];
  moves: AnalysedMove[];
}


type Obj = Record<string, unknown>;
const bad = (what: string): never => {
  throw new ApiError('internal', `bad ${what} in the analysis reply`);
};
const obj = (x: unknown, what: string): Obj => (typeof x === 'object' && x !== null && !Array.isArray(x) ? (x as Obj) : bad(what));
const num = (x: unknown, what: string): number => (typeof x === 'number' && Number.isFinite(x) ? x : bad(what));
const str = (x: unknown, what: string): string => (typeof x === 'string' ? x : bad(what));
const optStr = (x: unknown, what: string): string | null => (x === null || x === undefined ? null : str(x, what));
const strs = (x: unknown, what: string): string[] => (Array.isArray(x) ? x.map((y) => str(y, what)) : bad(what));
const arr = (x: unknown, what: string): unknown[] => (Array.isArray(x) ? x : bad(what));

function parseEval(x: unknown): Eval | null {
  if (x === null || x === undefined) return null;
  const o = obj(x, 'eval');
  const winner = o.winner === 'white' || o.winner === 'black' ? o.winner : o.winner === null ? null : undefined;
  if (typeof o.mate === 'number') return { mate: o.mate, winner };
  return { cp: num(o.cp, 'eval'), winner };
}

/** Parses a position's evaluation (an analysis position or `/api/eval`). */
export function parsePositionEval(x: unknown): PositionEval {
  const o = obj(x, 'position');
  return {
    eval: parseEval(o.eval),
    best: optStr(o.best, 'best'),
    best_san: optStr(o.best_san, 'best_san'),
    pv: strs(o.pv ?? [], 'pv'),
    pv_san: strs(o.pv_san ?? [], 'pv_san'),
    depth: num(o.depth ?? 0, 'depth'),
  };
}

const JUDGEMENTS: readonly Judgement[] = ['inaccuracy', 'mistake', 'blunder'];

function parseMove(x: unknown): AnalysedMove {
  const o = obj(x, 'move');
  const j = o.judgement;
  const v = o.violation;
  return {
    ply: num(o.ply, 'ply'),
    uci: str(o.uci, 'uci'),
    san: str(o.san, 'san'),
    loss: o.loss === null || o.loss === undefined ? null : num(o.loss, 'loss'),
    judgement: JUDGEMENTS.includes(j as Judgement) ? (j as Judgement) : null,
    better: optStr(o.better, 'better'),
    better_san: optStr(o.better_san, 'better_san'),
    violation: v === 'perpetual_check' || v === 'perpetual_chase' ? v : null,
  };
}

/** Parses `GET /api/analysis/{id}`. */
export function parseAnalysis(x: unknown): Analysis {
  const o = obj(x, 'analysis');
  const variant = str(o.variant, 'variant');
  if (!isVariant(variant)) return bad('variant');
  const positions = arr(o.positions, 'positions').map(parsePositionEval);
  const moves = arr(o.moves, 'moves').map(parseMove);
  if (positions.length !== moves.length + 1) return bad('positions');
  return {
    id: str(o.id, 'id'),
    variant,
    fen: str(o.fen, 'fen'),
    ucis: strs(o.ucis, 'ucis'),
    sans: strs(o.sans, 'sans'),
    total: num(o.total, 'total'),
    done: num(o.done, 'done'),
    complete: o.complete === true,
    positions,
    moves,
  };
}


/** The analysis as it stands. */
export async function getAnalysis(id: string): Promise<Analysis> {
  return parseAnalysis(await call(`/api/analysis/${encodeURIComponent(id)}`));
}

/** The engine's line for a position (the analysis board). */
export async function evaluate(variant: VariantName, fen: string | null, moves: readonly string[], ms = 300): Promise<PositionEval> {
  return parsePositionEval(await call('/api/eval', { variant, fen, moves, ms }));
}
