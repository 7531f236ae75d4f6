/**
 * The descriptor table: everything the UI needs to know about a game that
 * is not a rule (the server is the only judge of the rules).
 */
import type { Dims } from './board/keys';

/** The games, by their protocol names. */
export const VARIANTS = ['horde', 'atomic', 'xiangqi', 'chess'] as const;
/** A game's protocol name. */
export type VariantName = (typeof VARIANTS)[number];

/** What the board and the move list need for one game. */
export interface VariantInfo {
  readonly name: VariantName;
  readonly dims: Dims;
  /** Move notation used in the move list and accepted when typing. */
  readonly notation: 'san' | 'wxf';
  /** Piece family: picks the board drawing and the piece images. */
  readonly family: 'western' | 'xiangqi';
  /** Display names of the two sides (i18n keys). */
  readonly sideKeys: { readonly white: 'side.white' | 'side.red'; readonly black: 'side.black' };
  /** Piece letters a pawn may promote to, in picker order. */
  readonly promotions: readonly string[];
  /** Captures explode (Atomic): the board shows an explosion and the removed pieces. */
  readonly explodes: boolean;
  /** Letters of the royal piece (for the check highlight). */
  readonly king: string;
  readonly startFen: string;
}

const EIGHT: Dims = { width: 8, height: 8 };
const WESTERN = {
  dims: EIGHT,
  notation: 'san',
  family: 'western',
  sideKeys: { white: 'side.white', black: 'side.black' },
  promotions: ['q', 'r', 'b', 'n'],
  king: 'k',
} as const;

/** The table, keyed by name. */
export const VARIANT_INFO: Readonly<Record<VariantName, VariantInfo>> = {
  chess: {
    ...WESTERN,
    name: 'chess',
    explodes: false,
    startFen: 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1',
  },
  horde: {
    ...WESTERN,
    name: 'horde',
    explodes: false,
    startFen: 'rnbqkbnr/pppppppp/8/1PP2PP1/PPPPPPPP/PPPPPPPP/PPPPPPPP/PPPPPPPP w kq - 0 1',
  },
  atomic: {
    ...WESTERN,
    name: 'atomic',
    explodes: true,
    startFen: 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1',
  },
  xiangqi: {
    name: 'xiangqi',
    dims: { width: 9, height: 10 },
    notation: 'wxf',
    family: 'xiangqi',
    sideKeys: { white: 'side.red', black: 'side.black' },
    promotions: [],
    explodes: false,
    king: 'k',
    startFen: 'rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1',
  },
};

/** Narrows any string to a game name. */
export function isVariant(s: string | null | undefined): s is VariantName {
  return s !== null && s !== undefined && (VARIANTS as readonly string[]).includes(s);
}

/** One cell of a FEN board: a piece letter (upper case: white/red) or empty. */
export type Cell = string | null;

/**
 * The placement part of a FEN as a map from square name to piece letter,
 * for comparing two positions (Atomic explosions) and the typed-move helper.
 * Returns an empty map for a malformed placement rather than throwing.
 */
export function fenPieces(fen: string, dims: Dims): Map<string, string> {
  const out = new Map<string, string>();
  const rows = (fen.split(' ')[0] ?? '').split('/');
  if (rows.length !== dims.height) return out;
  rows.forEach((row, i) => {
    const rank = dims.height - i;
    let file = 0;
    let num = '';
    for (const c of row) {
      if (c >= '0' && c <= '9') {
        num += c;
        continue;
      }
      if (num) {
        file += Number(num);
        num = '';
      }
      if (file < dims.width) out.set(String.fromCharCode(97 + file) + String(rank), c);
      file++;
    }
  });
  return out;
}
