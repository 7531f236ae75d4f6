/** The HTTP API of docs/protocol.md. */
import { parsePosition, type Color, type PositionReply } from './protocol';
import type { VariantName } from './variants';

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

async function call(path: string, body?: unknown): Promise<unknown> {
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

/** Plays `moves` from `fen` on the server and describes the position. */
export async function position(variant: VariantName, fen: string | null, moves: readonly string[]): Promise<PositionReply> {
  return parsePosition(await call('/api/position', { variant, fen, moves }));
}

/** The computer's move. */
export async function aiMove(
  variant: VariantName,
  fen: string | null,
  moves: readonly string[],
  level: number,
): Promise<{ uci: string; san: string }> {
  const r = (await call('/api/ai-move', { variant, fen, moves, level })) as { uci?: unknown; san?: unknown };
  if (typeof r?.uci !== 'string') throw new ApiError('internal', 'no move in the reply');
  return { uci: r.uci, san: typeof r.san === 'string' ? r.san : r.uci };
}

/** What `POST /api/rooms` answers. */
export interface CreatedRoom {
  id: string;
  color: Color;
  seat_token: string;
  invite_url: string | null;
  spectate_url: string;
}

/** Creates a room and takes a seat in it. */
export async function createRoom(req: {
  variant: VariantName;
  clock: { minutes: number; increment: number } | null;
  color: Color | 'random';
  public: boolean;
  ai_level: number | null;
}): Promise<CreatedRoom> {
  const r = (await call('/api/rooms', req)) as CreatedRoom;
  if (typeof r?.id !== 'string' || typeof r.seat_token !== 'string') throw new ApiError('internal', 'bad room reply');
  return r;
}

/** `v0.1.0 · 7fd5f90`. */
export async function version(): Promise<string> {
  const r = (await call('/api/version')) as { version?: unknown };
  return typeof r?.version === 'string' ? r.version : '?';
}
