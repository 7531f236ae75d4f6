/**
 * The wire types of docs/protocol.md (the closed vocabularies generated from
 * the server's types, in protocol.gen.ts; the message shapes here), with checked
 * decoding of everything the server sends (a malformed frame is reported,
 * never trusted) and the room reducer that applies numbered events.
 */
import {
  END_REASONS,
  ERROR_CODES,
  RULES_END_REASONS,
  type ChaseJson,
  type Claim,
  type ClientFrame,
  type ClockJson,
  type Color,
  type EndReason,
  type ErrorCode,
  type GameStatus,
  type LobbySnapshot,
  type Listing,
  type MoveInfo,
  type MoveWarningInfo,
  type NumberedEvent,
  type PlayerJson,
  type PositionReply,
  type PresenceSide,
  type OfferKind,
  type RoomOutcome,
  type RulesOutcome,
  type ServerMsg as WireServerMsg,
  type SideStreaks,
  type StateMsg,
  type StreakJson,
} from './protocol.gen';
import { isVariant } from './variants';

// Every message shape and closed vocabulary comes from the server's own
// types: protocol.gen.ts is generated from them and checked by the
// server's tests, so the decoders below stop type-checking when a field
// changes on the server. The names here are the app's short aliases.
export type { Color, GameStatus, MoveInfo, OfferKind, PositionReply, SideStreaks };
export { END_REASONS, ERROR_CODES, ROOM_END_REASONS, type EndReason, type ErrorCode, type RoomEndReason } from './protocol.gen';
export const COLORS: readonly Color[] = ['white', 'black'];
export const opposite = (c: Color): Color => (c === 'white' ? 'black' : 'white');

export type Outcome = RoomOutcome;
export type ClaimKind = Claim;
export type Streak = StreakJson;
export type ChaseStreak = ChaseJson;
export type Warning = MoveWarningInfo;
export type Clock = ClockJson;
export type Player = PlayerJson;
export type Presence = PresenceSide;
export type LobbyRoom = Listing;
export type Lobby = LobbySnapshot;

/** A room's whole state as the client keeps it. */
export type RoomState = StateMsg & {
  /** Local: when the clock values were received (performance.now()), for the countdown. */
  clockAt?: number;
};

/** Messages a server sends on a room or lobby socket. */
export type ServerMsg = Exclude<WireServerMsg, { t: 'state' }> | { t: 'state'; d: RoomState } | NumberedEvent;

/** Messages the client sends on a room socket (`as`: which held seat acts, for a two-seat connection). */
export type ClientMsg = ClientFrame;

/** Why a frame was refused. */
export class ProtocolError extends Error {
  override name = 'ProtocolError';
}

type Obj = Record<string, unknown>;
const isObj = (x: unknown): x is Obj => typeof x === 'object' && x !== null && !Array.isArray(x);
function obj(x: unknown, what: string): Obj {
  if (!isObj(x)) throw new ProtocolError(`${what}: expected an object`);
  return x;
}
function str(x: unknown, what: string): string {
  if (typeof x !== 'string') throw new ProtocolError(`${what}: expected a string`);
  return x;
}
function num(x: unknown, what: string): number {
  if (typeof x !== 'number' || !Number.isFinite(x)) throw new ProtocolError(`${what}: expected a number`);
  return x;
}
function arr(x: unknown, what: string): unknown[] {
  if (!Array.isArray(x)) throw new ProtocolError(`${what}: expected an array`);
  return x;
}
function color(x: unknown, what: string): Color {
  if (x !== 'white' && x !== 'black') throw new ProtocolError(`${what}: expected a colour`);
  return x;
}
const nullable = <T>(x: unknown, f: (y: unknown) => T): T | null => (x === null || x === undefined ? null : f(x));

/** Decodes an outcome; an unknown reason is an error (so every shown reason has a translation). */
export function parseOutcome(x: unknown): Outcome {
  const o = obj(x, 'outcome');
  const reason = str(o.reason, 'outcome.reason');
  if (!(END_REASONS as readonly string[]).includes(reason)) throw new ProtocolError(`unknown end reason ${reason}`);
  return { winner: nullable(o.winner, (w) => color(w, 'outcome.winner')), reason: reason as EndReason };
}

function parseStreak(x: unknown): Streak {
  const o = obj(x, 'streak');
  return {
    len: num(o.len, 'streak.len'),
    limit: num(o.limit, 'streak.limit'),
    pieces: arr(o.pieces, 'streak.pieces').map((p) => str(p, 'piece')),
  };
}
const parseChase = (x: unknown): ChaseStreak => ({ ...parseStreak(x), target: str(obj(x, 'chase').target, 'chase.target') });

/** Decodes the rules' outcome inside a position: only the rules' own reasons. */
function parseRulesOutcome(x: unknown): RulesOutcome {
  const o = parseOutcome(x);
  const reason = o.reason;
  if (!(RULES_END_REASONS as readonly string[]).includes(reason)) throw new ProtocolError(`not a rules end reason: ${reason}`);
  return { winner: o.winner, reason: reason as RulesOutcome['reason'] };
}

/** Decodes a GameStatus (the `chessplayx status` JSON). */
export function parseStatus(x: unknown): GameStatus {
  const o = obj(x, 'status');
  const variant = str(o.variant, 'status.variant');
  if (!isVariant(variant)) throw new ProtocolError(`unknown variant ${variant}`);
  const s: GameStatus = {
    variant,
    fen: str(o.fen, 'status.fen'),
    turn: color(o.turn, 'status.turn'),
    check: o.check === true,
    legal_moves: arr(o.legal_moves ?? [], 'legal_moves').map((m) => str(m, 'legal move')),
    san: nullable(o.san, (y) => str(y, 'san')),
    outcome: nullable(o.outcome, parseRulesOutcome),
    claimable: arr(o.claimable ?? [], 'claimable').map((c) => {
      const k = str(c, 'claim');
      if (k !== 'threefold_repetition' && k !== 'fifty_moves') throw new ProtocolError(`unknown claim ${k}`);
      return k;
    }),
  };
  if (o.wxf !== undefined) s.wxf = nullable(o.wxf, (y) => str(y, 'wxf'));
  if (isObj(o.counters)) {
    const c = o.counters;
    s.counters = {
      total_plies: num(c.total_plies, 'total_plies'),
      progress_plies: num(c.progress_plies, 'progress_plies'),
      effective_plies: num(c.effective_plies, 'effective_plies'),
    };
  }
  if (isObj(o.streaks)) {
    const st = o.streaks;
    const side = (y: unknown): SideStreaks => {
      const q = obj(y, 'streaks side');
      return { check: parseStreak(q.check), chases: arr(q.chases ?? [], 'chases').map(parseChase) };
    };
    s.streaks = { white: side(st.white), black: side(st.black) };
  }
  return s;
}

/** Decodes one MoveInfo. */
export function parseMoveInfo(x: unknown): MoveInfo {
  const o = obj(x, 'move');
  return {
    uci: str(o.uci, 'move.uci'),
    san: str(o.san, 'move.san'),
    from: str(o.from, 'move.from'),
    to: str(o.to, 'move.to'),
    promotion: nullable(o.promotion, (y) => str(y, 'promotion')),
  };
}

/** Decodes one Xiangqi warning. */
export function parseWarning(x: unknown): Warning {
  const o = obj(x, 'warning');
  return {
    uci: str(o.uci, 'warning.uci'),
    outcome: nullable(o.outcome, parseRulesOutcome),
    loses: o.loses === true,
    forbidden: o.forbidden === true,
    check: nullable(o.check, parseStreak),
    chases: arr(o.chases ?? [], 'warning.chases').map(parseChase),
  };
}

/** Decodes a clock (or `null` for rooms without a time control). */
export function parseClock(x: unknown): Clock | null {
  if (x === null || x === undefined) return null;
  const o = obj(x, 'clock');
  return {
    white: num(o.white, 'clock.white'),
    black: num(o.black, 'clock.black'),
    running: nullable(o.running, (y) => color(y, 'clock.running')),
    initial: num(o.initial, 'clock.initial'),
    increment: num(o.increment, 'clock.increment'),
  };
}

/** Decodes a `POST /api/position` reply (also the position part of events). */
export function parsePosition(x: unknown): PositionReply {
  const o = obj(x, 'position');
  return {
    status: parseStatus(o.status),
    moves: arr(o.moves ?? [], 'moves').map(parseMoveInfo),
    warnings: arr(o.warnings ?? [], 'warnings').map(parseWarning),
  };
}

const parsePlayer = (x: unknown): Player => {
  const o = obj(x, 'player');
  return { seated: o.seated === true, connected: o.connected === true, ai: nullable(o.ai, (y) => num(y, 'ai')) };
};
const parsePlayers = (x: unknown): Record<Color, Player> => {
  const o = obj(x, 'players');
  return { white: parsePlayer(o.white), black: parsePlayer(o.black) };
};
const parsePresenceOne = (x: unknown): Presence => {
  const o = isObj(x) ? x : {};
  return { connected: o.connected === true, claim_in: nullable(o.claim_in, (y) => num(y, 'claim_in')) };
};
const parsePresence = (x: unknown): Record<Color, Presence> => {
  const o = isObj(x) ? x : {};
  return { white: parsePresenceOne(o.white), black: parsePresenceOne(o.black) };
};
function offerKind(x: unknown): OfferKind {
  if (x !== 'draw' && x !== 'takeback' && x !== 'rematch') throw new ProtocolError('unknown offer kind');
  return x;
}

/** The seats a connection holds; a server without `seats` (older) implies them from `you`. */
function parseSeats(x: unknown, you: unknown): Color[] {
  if (x === undefined || x === null) return you === null || you === undefined ? [] : [color(you, 'you')];
  const out = arr(x, 'seats').map((c) => color(c, 'seat'));
  return COLORS.filter((c) => out.includes(c));
}

/** Decodes a full room `state`. */
export function parseRoomState(x: unknown): RoomState {
  const o = obj(x, 'state');
  const variant = str(o.variant, 'variant');
  if (!isVariant(variant)) throw new ProtocolError(`unknown variant ${variant}`);
  const st = str(o.state, 'state.state');
  if (st !== 'waiting' && st !== 'playing' && st !== 'finished') throw new ProtocolError('unknown room state');
  const offers = isObj(o.offers) ? o.offers : {};
  return {
    v: num(o.v, 'v'),
    id: str(o.id, 'id'),
    variant,
    you: nullable(o.you, (y) => color(y, 'you')),
    seats: parseSeats(o.seats, o.you),
    public: o.public === true,
    ai_level: nullable(o.ai_level, (y) => num(y, 'ai_level')),
    state: st,
    start_fen: str(o.start_fen, 'start_fen'),
    history: arr(o.history ?? [], 'history').map((h) => {
      const q = obj(h, 'history entry');
      return { uci: str(q.uci, 'uci'), san: str(q.san, 'san') };
    }),
    ...parsePosition(o),
    clock: parseClock(o.clock),
    players: parsePlayers(o.players),
    offers: {
      draw: nullable(offers.draw, (y) => color(y, 'offer')),
      takeback: nullable(offers.takeback, (y) => color(y, 'offer')),
      rematch: nullable(offers.rematch, (y) => color(y, 'offer')),
    },
    outcome: nullable(o.outcome, parseOutcome),
    rematch: nullable(o.rematch, (y) => str(y, 'rematch')),
    presence: parsePresence(o.presence),
  };
}

/** Decodes the lobby object. */
export function parseLobby(x: unknown): Lobby {
  const o = obj(x, 'lobby');
  const c = obj(o.counters, 'counters');
  return {
    counters: {
      players_online: num(c.players_online, 'players_online'),
      games_playing: num(c.games_playing, 'games_playing'),
      rooms_waiting: num(c.rooms_waiting, 'rooms_waiting'),
    },
    rooms: arr(o.rooms ?? [], 'rooms').flatMap((r) => {
      const q = obj(r, 'room');
      const variant = str(q.variant, 'variant');
      if (!isVariant(variant)) return []; // a game this client does not know is not offered
      const clk = isObj(q.clock) ? { initial: num(q.clock.initial, 'initial'), increment: num(q.clock.increment, 'increment') } : null;
      return [
        {
          id: str(q.id, 'id'),
          variant,
          clock: clk,
          open_color: color(q.open_color, 'open_color'),
          created_at: num(q.created_at, 'created_at'),
          invite_url: str(q.invite_url, 'invite_url'),
        },
      ];
    }),
  };
}

/** Decodes one text frame; throws {@link ProtocolError} on anything the contract does not allow. */
export function parseServerMsg(text: string): ServerMsg {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    throw new ProtocolError('not JSON');
  }
  const o = obj(raw, 'message');
  const t = str(o.t, 't');
  const d = o.d;
  const v = (): number => num(o.v, `${t}.v`);
  switch (t) {
    case 'state':
      return { t, d: parseRoomState(d) };
    case 'seat': {
      const q = obj(d, 'seat');
      return { t, d: { color: color(q.color, 'seat.color'), token: str(q.token, 'seat.token') } };
    }
    case 'ack': {
      const q = obj(d, 'ack');
      return { t, d: { ply: num(q.ply, 'ack.ply'), v: num(q.v, 'ack.v') } };
    }
    case 'move': {
      const q = obj(d, 'move');
      return {
        t,
        v: v(),
        d: {
          ply: num(q.ply, 'move.ply'),
          uci: str(q.uci, 'move.uci'),
          san: str(q.san, 'move.san'),
          by: color(q.by, 'move.by'),
          ...parsePosition(q),
          clock: parseClock(q.clock),
        },
      };
    }
    case 'end': {
      const q = obj(d, 'end');
      return { t, v: v(), d: { outcome: parseOutcome(q.outcome), clock: parseClock(q.clock) } };
    }
    case 'takeback': {
      const q = obj(d, 'takeback');
      return {
        t,
        v: v(),
        d: { undone: num(q.undone, 'undone'), ply: num(q.ply, 'ply'), ...parsePosition(q), clock: parseClock(q.clock) },
      };
    }
    case 'offer':
    case 'decline': {
      const q = obj(d, t);
      return { t, v: v(), d: { kind: offerKind(q.kind), by: color(q.by, `${t}.by`) } };
    }
    case 'joined': {
      const q = obj(d, 'joined');
      return { t, v: v(), d: { color: color(q.color, 'joined.color'), players: parsePlayers(q.players) } };
    }
    case 'rematch':
      return { t, v: v(), d: { id: str(obj(d, 'rematch').id, 'rematch.id') } };
    case 'presence':
      return { t, d: parsePresence(d) };
    case 'error': {
      const q = obj(d, 'error');
      const code = str(q.code, 'error.code');
      // a code outside the generated list is a contract break (every known code has words)
      if (!(ERROR_CODES as readonly string[]).includes(code)) throw new ProtocolError(`unknown error code ${code}`);
      return { t, d: { code: code as ErrorCode, message: typeof q.message === 'string' ? q.message : '' } };
    }
    case 'pong':
      return { t };
    case 'lobby':
      return { t, d: parseLobby(d) };
    default:
      throw new ProtocolError(`unknown message type ${t}`);
  }
}

/** What applying a numbered event did. */
export type ApplyResult =
  | { kind: 'applied'; room: RoomState }
  /** Already seen (a replay overlap): ignore. */
  | { kind: 'old' }
  /** A gap: the client must `sync` from its last `v`. */
  | { kind: 'gap' };

type EventMsg = Extract<ServerMsg, { v: number }>;

/** True for the messages that carry a room event number. */
export function isEvent(m: ServerMsg): m is EventMsg {
  return 'v' in m && typeof m.v === 'number';
}

/**
 * Applies one numbered event to a room, in order: an event must be exactly
 * last `v` + 1 (the protocol's rule); the reducer never mutates its input.
 */
export function applyEvent(room: RoomState, m: EventMsg, now: number): ApplyResult {
  if (m.v <= room.v) return { kind: 'old' };
  if (m.v !== room.v + 1) return { kind: 'gap' };
  const r: RoomState = { ...room, v: m.v };
  switch (m.t) {
    case 'move':
      r.history = [...room.history.slice(0, m.d.ply), { uci: m.d.uci, san: m.d.san }];
      r.status = m.d.status;
      r.moves = m.d.moves;
      r.warnings = m.d.warnings;
      r.clock = m.d.clock;
      r.clockAt = now;
      r.offers = { ...room.offers, draw: null, takeback: null };
      r.state = 'playing';
      break;
    case 'end':
      r.outcome = m.d.outcome;
      r.state = 'finished';
      r.clock = m.d.clock;
      r.clockAt = now;
      r.moves = [];
      r.warnings = [];
      r.offers = { ...room.offers, draw: null, takeback: null };
      break;
    case 'takeback':
      r.history = room.history.slice(0, m.d.ply);
      r.status = m.d.status;
      r.moves = m.d.moves;
      r.warnings = m.d.warnings;
      r.clock = m.d.clock;
      r.clockAt = now;
      r.offers = { ...room.offers, takeback: null };
      break;
    case 'offer':
      r.offers = { ...room.offers, [m.d.kind]: m.d.by };
      break;
    case 'decline':
      r.offers = { ...room.offers, [m.d.kind]: null };
      break;
    case 'joined':
      r.players = m.d.players;
      if (r.state === 'waiting') r.state = 'playing';
      break;
    case 'rematch':
      r.rematch = m.d.id;
      r.offers = { ...room.offers, rematch: null };
      break;
  }
  return { kind: 'applied', room: r };
}

/** `3:00`, `1:02:03`, and tenths under ten seconds (`9.5`). */
export function formatClock(ms: number): string {
  if (ms < 10000) return (Math.max(0, ms) / 1000).toFixed(1);
  const s = Math.floor(ms / 1000);
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const ss = String(s % 60).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${ss}` : `${m}:${ss}`;
}

/** The clock as it stands now, counting down the running side since it was received. */
export function liveClock(clock: Clock, receivedAt: number, now: number): Record<Color, number> {
  const elapsed = Math.max(0, now - receivedAt);
  return {
    white: clock.running === 'white' ? Math.max(0, clock.white - elapsed) : clock.white,
    black: clock.running === 'black' ? Math.max(0, clock.black - elapsed) : clock.black,
  };
}
