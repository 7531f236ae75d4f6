/** The HTTP API of docs/protocol-http.md. */
import { parsePosition, parseStatus, type Color, type GameStatus, type PositionReply } from './protocol';
import { isVariant, type VariantName } from './variants';

/** An HTTP error with the server's error code (`bad_move`, `rate_limited`, …) or `network`. */
export class ApiError extends Error {
  override name = 'ApiError';
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/** One request to the API: GET without a body, POST with a JSON one; an error reply becomes an {@link ApiError}. */
export async function call(path: string, body?: unknown): Promise<unknown> {
  let res: Response;
  try {
    res = await fetch(path, {
      method: body === undefined ? 'GET' : 'POST',
      headers: body === undefined ? {} : { 'content-type': 'application/json' },
      body: body === undefined ? null : JSON.stringify(body),
    });
  } catch (e) {
    throw new ApiError('network', String(e));
  }
  let json: unknown = null;
  try {
    json = await res.json();
  } catch {
    json = null;
  }
  if (!res.ok) {
    const err = (json as { error?: { code?: unknown; message?: unknown } } | null)?.error;
    throw new ApiError(
      typeof err?.code === 'string' ? err.code : 'internal',
      typeof err?.message === 'string' ? err.message : res.statusText,
    );
  }
  return json;
}

/**
 * The position after `moves` from `fen`, from the server: used only to draw
 * an earlier position of a game when its FEN was not seen live (an online
 * game opened mid-way). The game itself is judged by its room.
 */
export async function position(variant: VariantName, fen: string | null, moves: readonly string[]): Promise<PositionReply> {
  return parsePosition(await call('/api/position', { variant, fen, moves }));
}

/** What `POST /api/rooms` answers. */
export interface CreatedRoom {
  id: string;
  color: Color;
  seat_token: string;
  /** Same-device rooms: both seats' tokens (`null` for other rooms). */
  seat_tokens: Record<Color, string> | null;
  invite_url: string | null;
  spectate_url: string;
}

/** What `POST /api/rooms` takes: an online room, an AI room (`ai_level`) or a same-device room (`local`). */
export interface NewRoom {
  variant: VariantName;
  clock: { minutes: number; increment: number } | null;
  color: Color | 'random';
  public: boolean;
  ai_level: number | null;
  local?: boolean;
  fen?: string | null;
}

/** Creates a room and takes a seat in it (both seats for a same-device room). */
export async function createRoom(req: NewRoom): Promise<CreatedRoom> {
  const r = (await call('/api/rooms', req)) as Partial<CreatedRoom> | null;
  if (typeof r?.id !== 'string' || typeof r.seat_token !== 'string' || (r.color !== 'white' && r.color !== 'black'))
    throw new ApiError('internal', 'bad room reply');
  const st = r.seat_tokens;
  const tokens = st && typeof st.white === 'string' && typeof st.black === 'string' ? { white: st.white, black: st.black } : null;
  if (req.local && !tokens) throw new ApiError('internal', 'a same-device room came without both seat tokens');
  return {
    id: r.id,
    color: r.color,
    seat_token: r.seat_token,
    seat_tokens: tokens,
    invite_url: typeof r.invite_url === 'string' ? r.invite_url : null,
    spectate_url: typeof r.spectate_url === 'string' ? r.spectate_url : `/r/${r.id}`,
  };
}

/** Whether a room exists (`GET /api/rooms/{id}`): false on `not_found`, an error otherwise. */
export async function roomExists(id: string): Promise<boolean> {
  try {
    await call(`/api/rooms/${encodeURIComponent(id)}`);
    return true;
  } catch (e) {
    if (e instanceof ApiError && e.code === 'not_found') return false;
    throw e;
  }
}

/** The server's version line, e.g. `0.1.0 · 7fd5f90`. */
export async function version(): Promise<string> {
  const r = (await call('/api/version')) as { version?: unknown };
  return typeof r?.version === 'string' ? r.version : '?';
}

/** Starts (or finds, cached) the engine's analysis of a room's game so far (`POST /api/analysis`); its id. */
export async function analyse(room: string): Promise<string> {
  const r = (await call('/api/analysis', { room })) as { id?: unknown } | null;
  if (typeof r?.id !== 'string') throw new ApiError('internal', 'bad analysis reply');
  return r.id;
}

/** Starts (or finds) the analysis of a game given by its moves (`POST /api/analysis`); its id. */
export async function analyseGame(variant: VariantName, fen: string | null, moves: readonly string[]): Promise<string> {
  const r = (await call('/api/analysis', { variant, fen, moves })) as { id?: unknown } | null;
  if (typeof r?.id !== 'string') throw new ApiError('internal', 'bad analysis reply');
  return r.id;
}

/** A game read by the server from a PGN or FEN (`POST /api/import`). */
export interface Imported {
  variant: VariantName;
  /** The start position; null: the variant's own. */
  fen: string | null;
  moves: string[];
  sans: string[];
  headers: Record<string, string>;
  /** The position after the moves. */
  status: GameStatus;
}

/** Sends a pasted PGN or FEN to the server, which reads it (or says what is wrong and where). */
export async function importGame(text: string, variant: VariantName | null): Promise<Imported> {
  const r = obj(await call('/api/import', variant ? { text, variant } : { text }));
  const v = r.variant;
  if (typeof v !== 'string' || !isVariant(v)) throw new ApiError('internal', 'bad import reply');
  const strings = (x: unknown): string[] => (Array.isArray(x) ? x.filter((s): s is string => typeof s === 'string') : []);
  const headers: Record<string, string> = {};
  if (r.headers && typeof r.headers === 'object') for (const [k, val] of Object.entries(r.headers)) if (typeof val === 'string') headers[k] = val;
  return { variant: v, fen: typeof r.fen === 'string' ? r.fen : null, moves: strings(r.moves), sans: strings(r.sans), headers, status: parseStatus(r.status) };
}

function obj(x: unknown): Record<string, unknown> {
  if (typeof x !== 'object' || x === null) throw new ApiError('internal', 'bad reply');
  return x as Record<string, unknown>;
}
