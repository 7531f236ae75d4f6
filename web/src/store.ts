/**
 * Games this browser plays, kept in localStorage: same-device and computer
 * games are server rooms, so a record is what it takes to go back to one —
 * the room id and the seat tokens — plus what the list of saved games shows
 * (game, last position, moves so far) and the last room state seen, so a
 * reload draws the game at once and reconnects with `v` (the server replays
 * only what came after).
 */
import { parseRoomState, type Color, type Outcome, type RoomState } from './protocol';
import { isVariant, type VariantName } from './variants';

/** The last room state seen, with what it takes to count the clock down after a reload. */
export interface Snapshot {
  /** The room as the reducer last had it (protocol `state` shape). */
  room: RoomState;
  /** Wall time (ms since the epoch) at which `room.clock` held. */
  clockWall: number;
  /** FEN of each position seen, by ply, so stepping back needs no request. */
  fens: Record<number, string>;
}

/** A saved same-device or computer game. */
export interface SavedGame {
  /** The room id. */
  id: string;
  variant: VariantName;
  mode: 'local' | 'ai';
  /** Computer games: the engine level (1–8) and the human's colour. */
  aiLevel: number | null;
  human: Color | null;
  /** The seat tokens this browser holds (both for same-device games). */
  tokens: string[];
  /** Plies played so far and the FEN after them. */
  plies: number;
  fen: string;
  outcome: Outcome | null;
  snapshot: Snapshot | null;
  createdAt: number;
  updatedAt: number;
}

/** The part of `Storage` the store uses (so tests can pass a Map). */
export interface KeyValue {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
}

const PREFIX = 'cpx.room.';
const INDEX = 'cpx.rooms';

/** Checks a stored record field by field; the snapshot goes through the protocol's decoder. */
function parse(x: unknown): SavedGame | undefined {
  if (typeof x !== 'object' || x === null) return undefined;
  const g = x as Record<string, unknown>;
  const ok =
    typeof g.id === 'string' &&
    typeof g.variant === 'string' &&
    isVariant(g.variant) &&
    (g.mode === 'local' || g.mode === 'ai') &&
    Array.isArray(g.tokens) &&
    g.tokens.length > 0 &&
    g.tokens.every((s) => typeof s === 'string') &&
    typeof g.plies === 'number' &&
    typeof g.fen === 'string' &&
    (g.human === null || g.human === 'white' || g.human === 'black') &&
    typeof g.updatedAt === 'number';
  if (!ok) return undefined;
  let snapshot: Snapshot | null = null;
  const s = g.snapshot as Record<string, unknown> | null | undefined;
  if (s && typeof s === 'object' && typeof s.clockWall === 'number') {
    try {
      const fens: Record<number, string> = {};
      if (typeof s.fens === 'object' && s.fens !== null)
        for (const [k, v] of Object.entries(s.fens)) if (typeof v === 'string' && /^\d+$/.test(k)) fens[Number(k)] = v;
      snapshot = { room: parseRoomState(s.room), clockWall: s.clockWall, fens };
    } catch {
      snapshot = null; // an old or damaged snapshot: the server sends a full state instead
    }
  }
  return { ...(g as unknown as SavedGame), snapshot };
}

/** The saved games. */
export class GameStore {
  constructor(private readonly kv: KeyValue) {}

  private ids(): string[] {
    try {
      const raw: unknown = JSON.parse(this.kv.getItem(INDEX) ?? '[]');
      return Array.isArray(raw) ? raw.filter((s): s is string => typeof s === 'string') : [];
    } catch {
      return [];
    }
  }

  /** One game, or `undefined` when missing or unreadable. */
  get(id: string): SavedGame | undefined {
    try {
      return parse(JSON.parse(this.kv.getItem(PREFIX + id) ?? 'null'));
    } catch {
      return undefined;
    }
  }

  /** Every readable game, most recently played first. */
  list(): SavedGame[] {
    return this.ids()
      .map((id) => this.get(id))
      .filter((g): g is SavedGame => g !== undefined)
      .sort((a, b) => b.updatedAt - a.updatedAt);
  }

  /** Writes a game (and indexes it). A full storage keeps the previous record. */
  save(game: SavedGame): void {
    try {
      this.kv.setItem(PREFIX + game.id, JSON.stringify(game));
    } catch {
      // quota: keep the game without its snapshot (the server sends a full state on reconnect)
      this.kv.setItem(PREFIX + game.id, JSON.stringify({ ...game, snapshot: null }));
    }
    const ids = this.ids();
    if (!ids.includes(game.id)) this.kv.setItem(INDEX, JSON.stringify([...ids, game.id]));
  }

  /** Deletes a game. */
  remove(id: string): void {
    this.kv.removeItem(PREFIX + id);
    this.kv.setItem(INDEX, JSON.stringify(this.ids().filter((x) => x !== id)));
  }
}

/** The saved games over the browser's localStorage. */
export const gameStore = (): GameStore => new GameStore(localStorage);

/** The seat token of an online room (one seat), remembered per room id. */
export const seats = {
  get: (kv: KeyValue, room: string): string | null => kv.getItem('cpx.seat.' + room),
  set: (kv: KeyValue, room: string, token: string): void => kv.setItem('cpx.seat.' + room, token),
};

/** Full moves in a game of `plies` half-moves: two plies are one move. */
export const fullMoves = (plies: number): number => Math.ceil(plies / 2);

/**
 * The seat tokens of a "continue on another device" link: `#t=A,B` in the
 * URL fragment (a fragment never reaches the server or its logs).
 */
export function tokensFromHash(hash: string): string[] {
  const m = /(?:^#|&)t=([^&]*)/.exec(hash);
  if (!m || !m[1]) return [];
  return decodeURIComponent(m[1])
    .split(',')
    .filter((s) => /^[\w-]{8,64}$/.test(s));
}

/** The link that opens a game on another device with the same seats. */
export const continueUrl = (origin: string, id: string, tokens: readonly string[]): string => `${origin}/r/${id}#t=${tokens.map(encodeURIComponent).join(',')}`;
