/**
 * Same-device and computer games kept in the browser: one record per game,
 * written after every move, so a reload resumes where the game was.
 */
import type { ClockState } from './localclock';
import type { Color, Outcome } from './protocol';
import { isVariant, type VariantName } from './variants';

/** A saved local game. */
export interface LocalGame {
  id: string;
  variant: VariantName;
  mode: 'local' | 'ai';
  /** AI games: the engine level (1–8) and the human's colour. */
  aiLevel: number | null;
  human: Color | null;
  startFen: string | null;
  /** UCI moves from the start. */
  moves: string[];
  /** The same moves in SAN/WXF, for the list of saved games and the move list. */
  sans: string[];
  /** An ending decided outside the rules (resignation, agreement, timeout). */
  outcome: Outcome | null;
  clock: ClockState | null;
  createdAt: number;
  updatedAt: number;
}

/** The part of `Storage` the store uses (so tests can pass a Map). */
export interface KeyValue {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
}

const PREFIX = 'cpx.game.';
const INDEX = 'cpx.games';

function valid(x: unknown): x is LocalGame {
  if (typeof x !== 'object' || x === null) return false;
  const g = x as Record<string, unknown>;
  return (
    typeof g.id === 'string' &&
    typeof g.variant === 'string' &&
    isVariant(g.variant) &&
    (g.mode === 'local' || g.mode === 'ai') &&
    Array.isArray(g.moves) &&
    g.moves.every((m) => typeof m === 'string') &&
    Array.isArray(g.sans) &&
    (g.human === null || g.human === "white" || g.human === "black") &&
    typeof g.updatedAt === 'number'
  );
}

/** The saved games. */
export class LocalStore {
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
  get(id: string): LocalGame | undefined {
    try {
      const raw: unknown = JSON.parse(this.kv.getItem(PREFIX + id) ?? 'null');
      return valid(raw) ? raw : undefined;
    } catch {
      return undefined;
    }
  }

  /** Every readable game, most recently played first. */
  list(): LocalGame[] {
    return this.ids()
      .map((id) => this.get(id))
      .filter((g): g is LocalGame => g !== undefined)
      .sort((a, b) => b.updatedAt - a.updatedAt);
  }

  /** Writes a game (and indexes it). */
  save(game: LocalGame): void {
    this.kv.setItem(PREFIX + game.id, JSON.stringify(game));
    const ids = this.ids();
    if (!ids.includes(game.id)) this.kv.setItem(INDEX, JSON.stringify([...ids, game.id]));
  }

  /** Deletes a game. */
  remove(id: string): void {
    this.kv.removeItem(PREFIX + id);
    this.kv.setItem(INDEX, JSON.stringify(this.ids().filter((x) => x !== id)));
  }
}

/** A new id for a local game. */
export function newGameId(): string {
  const a = new Uint8Array(6);
  crypto.getRandomValues(a);
  return Array.from(a, (b) => b.toString(36).padStart(2, '0')).join('');
}

/** The seat token of an online room, remembered per room id. */
export const seats = {
  get: (kv: KeyValue, room: string): string | null => kv.getItem('cpx.seat.' + room),
  set: (kv: KeyValue, room: string, token: string): void => kv.setItem('cpx.seat.' + room, token),
};
