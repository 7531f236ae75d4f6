// Generated from the server's protocol types (crates/server/src/protocol);
// do not edit. Regenerate: CHESSPLAYX_WRITE_TS=1 cargo test -p chessplayx-server --test protocol_ts

/** The `code` of a WebSocket `error` message. */
export type ErrorCode =
  | "bad_message"
  | "unknown_type"
  | "bad_move"
  | "illegal_move"
  | "not_your_turn"
  | "not_a_player"
  | "game_over"
  | "not_started"
  | "not_finished"
  | "stale"
  | "cannot_abort"
  | "cannot_takeback"
  | "no_offer"
  | "cannot_claim"
  | "invite_used"
  | "rate_limited"
  | "internal";
/** Every ErrorCode, in the server's order. */
export const ERROR_CODES: readonly ErrorCode[] = [
  "bad_message",
  "unknown_type",
  "bad_move",
  "illegal_move",
  "not_your_turn",
  "not_a_player",
  "game_over",
  "not_started",
  "not_finished",
  "stale",
  "cannot_abort",
  "cannot_takeback",
  "no_offer",
  "cannot_claim",
  "invite_used",
  "rate_limited",
  "internal",
];

/** Why a game ended: the rules' reasons and the room's. */
export type EndReason =
  | "checkmate"
  | "stalemate"
  | "king_exploded"
  | "horde_destroyed"
  | "insufficient_material"
  | "fivefold_repetition"
  | "seventy_five_moves"
  | "threefold_repetition"
  | "fifty_moves"
  | "perpetual_check"
  | "perpetual_chase"
  | "mutual_perpetual_check"
  | "mutual_perpetual_chase"
  | "perpetual_check_vs_chase"
  | "moves_rule"
  | "progress_rule"
  | "effective_rule"
  | "resignation"
  | "timeout"
  | "timeout_vs_insufficient_material"
  | "draw_agreement"
  | "aborted"
  | "abandoned";
/** Every EndReason, in the server's order. */
export const END_REASONS: readonly EndReason[] = [
  "checkmate",
  "stalemate",
  "king_exploded",
  "horde_destroyed",
  "insufficient_material",
  "fivefold_repetition",
  "seventy_five_moves",
  "threefold_repetition",
  "fifty_moves",
  "perpetual_check",
  "perpetual_chase",
  "mutual_perpetual_check",
  "mutual_perpetual_chase",
  "perpetual_check_vs_chase",
  "moves_rule",
  "progress_rule",
  "effective_rule",
  "resignation",
  "timeout",
  "timeout_vs_insufficient_material",
  "draw_agreement",
  "aborted",
  "abandoned",
];

/** The end reasons the room decides (not the rules). */
export type RoomEndReason =
  | "resignation"
  | "timeout"
  | "timeout_vs_insufficient_material"
  | "draw_agreement"
  | "aborted"
  | "abandoned";
/** Every RoomEndReason, in the server's order. */
export const ROOM_END_REASONS: readonly RoomEndReason[] = [
  "resignation",
  "timeout",
  "timeout_vs_insufficient_material",
  "draw_agreement",
  "aborted",
  "abandoned",
];

/** Every RulesEndReason (the rules' own), in the server's order. */
export const RULES_END_REASONS: readonly RulesEndReason[] = [
  "checkmate",
  "stalemate",
  "king_exploded",
  "horde_destroyed",
  "insufficient_material",
  "fivefold_repetition",
  "seventy_five_moves",
  "threefold_repetition",
  "fifty_moves",
  "perpetual_check",
  "perpetual_chase",
  "mutual_perpetual_check",
  "mutual_perpetual_chase",
  "perpetual_check_vs_chase",
  "moves_rule",
  "progress_rule",
  "effective_rule",
];

export type Color = "white" | "black";

export type ByColor<T> = { 
/**
 * White's value.
 */
white: T, 
/**
 * Black's value.
 */
black: T, };

export type Variant = "chess" | "horde" | "atomic" | "xiangqi";

export type RulesEndReason = "checkmate" | "stalemate" | "king_exploded" | "horde_destroyed" | "insufficient_material" | "fivefold_repetition" | "seventy_five_moves" | "threefold_repetition" | "fifty_moves" | "perpetual_check" | "perpetual_chase" | "mutual_perpetual_check" | "mutual_perpetual_chase" | "perpetual_check_vs_chase" | "moves_rule" | "progress_rule" | "effective_rule";

export type RulesOutcome = { 
/**
 * The winner, or `None` for a draw.
 */
winner: Color | null, 
/**
 * Why the game ended.
 */
reason: RulesEndReason, };

export type Claim = "threefold_repetition" | "fifty_moves";

export type MoveInfo = { 
/**
 * UCI coordinates.
 */
uci: string, 
/**
 * SAN for the 8×8 games, WXF for Xiangqi.
 */
san: string, 
/**
 * Origin square (`e2`, `b10`).
 */
from: string, 
/**
 * Destination square (castling: the king's destination).
 */
to: string, 
/**
 * Promotion piece letter (`q`, `r`, `b`, `n`), if any.
 */
promotion: string | null, };

export type MoveWarningInfo = { 
/**
 * The move, in UCI coordinates.
 */
uci: string, 
/**
 * `true` when playing it loses the game for the mover.
 */
loses: boolean, 
/**
 * `true` when the configuration refuses the move instead (the
 * "forbid" violation mode).
 */
forbidden: boolean, 
/**
 * The end of the game the move would bring, if any.
 */
outcome: RulesOutcome | null, 
/**
 * The check streak the move would extend.
 */
check: StreakJson | null, 
/**
 * The chase streaks the move would extend.
 */
chases: Array<ChaseJson>, };

export type StreakJson = { 
/**
 * Consecutive own moves in the run.
 */
len: number, 
/**
 * The longest run allowed with this many pieces.
 */
limit: number, 
/**
 * The squares of the pieces that took part.
 */
pieces: Array<string>, };

export type ChaseJson = { 
/**
 * The square of the chased piece.
 */
target: string, 
/**
 * Consecutive own moves in the run.
 */
len: number, 
/**
 * The longest run allowed with this many pieces.
 */
limit: number, 
/**
 * The squares of the pieces that took part.
 */
pieces: Array<string>, };

export type SideStreaks = { 
/**
 * The current run of consecutive checks (`len` 0 when none).
 */
check: StreakJson, 
/**
 * The current runs of chases, one per chased piece.
 */
chases: Array<ChaseJson>, };

export type Counters = { 
/**
 * Plies since the game's start: the FEN's plies plus those played
 * (Moves rule).
 */
total_plies: number, 
/**
 * Plies since the last capture or forward step of a crossed soldier,
 * starting at the FEN halfmove field (Progress rule).
 */
progress_plies: number, 
/**
 * Plies that neither check nor chase nor answer a check or chase,
 * counted since the record started (Effective rule).
 */
effective_plies: number, };

export type XiangqiStatus = { 
/**
 * The last move in WXF notation; `null` before the first move.
 */
wxf: string | null, 
/**
 * The three draw counters of the Asian rules, in plies.
 */
counters: Counters, 
/**
 * Each side's running check and chase streaks, so a client can show
 * how close a side is to losing by the perpetual rules.
 */
streaks: ByColor<SideStreaks>, };

export type GameStatusCore = { 
/**
 * `chess`, `horde`, `atomic` or `xiangqi`.
 */
variant: Variant, 
/**
 * The current position in Fairy-Stockfish's FEN.
 */
fen: string, 
/**
 * The side to move (Red is `white`).
 */
turn: Color, 
/**
 * Whether the side to move is in check.
 */
check: boolean, 
/**
 * Every legal move in UCI notation (empty once the game is over).
 */
legal_moves: Array<string>, 
/**
 * The last move in SAN (WXF in Xiangqi); `null` before the first move.
 */
san: string | null, 
/**
 * `null` while the game goes on.
 */
outcome: RulesOutcome | null, 
/**
 * The draws the side to move may claim now.
 */
claimable: Array<Claim>, };

export type RoomStage = "waiting" | "playing" | "finished";

export type ClockConfig = { 
/**
 * Each side's starting time.
 */
initial: number, 
/**
 * Fischer increment added after each move.
 */
increment: number, };

export type RoomOutcome = { 
/**
 * `None`: a draw or an abort.
 */
winner: Color | null, 
/**
 * Why.
 */
reason: EndReason, };

export type ClockJson = { 
/**
 * White's remaining time.
 */
white: number, 
/**
 * Black's remaining time.
 */
black: number, 
/**
 * The running clock, if any.
 */
running: Color | null, 
/**
 * Starting time.
 */
initial: number, 
/**
 * Fischer increment.
 */
increment: number, };

export type PlayerJson = { 
/**
 * Someone holds the seat.
 */
seated: boolean, 
/**
 * The holder has at least one open connection (the AI always has).
 */
connected: boolean, 
/**
 * The engine's level when the AI holds the seat.
 */
ai: number | null, };

export type PresenceSide = { 
/**
 * At least one open connection (or the AI).
 */
connected: boolean, 
/**
 * Ms left before the opponent may claim the win; `None` when no
 * countdown runs.
 */
claim_in: number | null, };

export type Offers = { 
/**
 * A draw offer.
 */
draw: Color | null, 
/**
 * A takeback request.
 */
takeback: Color | null, 
/**
 * A rematch offer.
 */
rematch: Color | null, };

export type OfferKind = "draw" | "takeback" | "rematch";

export type HistoryMove = { 
/**
 * UCI.
 */
uci: string, 
/**
 * SAN (WXF in Xiangqi).
 */
san: string, };

export type PositionReply = { 
/**
 * The position.
 */
status: GameStatus, 
/**
 * Legal moves with notation.
 */
moves: Array<MoveInfo>, 
/**
 * Xiangqi warnings.
 */
warnings: Array<MoveWarningInfo>, };

export type StateMsg = { 
/**
 * The last event included.
 */
v: number, 
/**
 * The room id.
 */
id: string, 
/**
 * The game.
 */
variant: Variant, 
/**
 * This connection's seat when it holds exactly one.
 */
you: Color | null, 
/**
 * Every seat this connection holds: none (a spectator), one (a
 * player), or both (a same-device game).
 */
seats: Array<Color>, 
/**
 * Listed in the lobby.
 */
public: boolean, 
/**
 * The AI's level in an AI room.
 */
ai_level: number | null, 
/**
 * Where the room is in its life.
 */
state: RoomStage, 
/**
 * The start position.
 */
start_fen: string, 
/**
 * Moves played.
 */
history: Array<HistoryMove>, 
/**
 * The current position.
 */
status: GameStatus, 
/**
 * Legal moves with notation.
 */
moves: Array<MoveInfo>, 
/**
 * Xiangqi warnings.
 */
warnings: Array<MoveWarningInfo>, 
/**
 * Clocks, `None` without time control.
 */
clock: ClockJson | null, 
/**
 * The seats.
 */
players: ByColor<PlayerJson>, 
/**
 * Standing offers.
 */
offers: Offers, 
/**
 * The end, once over.
 */
outcome: RoomOutcome | null, 
/**
 * The rematch room.
 */
rematch: string | null, 
/**
 * Connection status.
 */
presence: ByColor<PresenceSide>, };

export type MoveEvent = { 
/**
 * The move's index.
 */
ply: number, 
/**
 * UCI.
 */
uci: string, 
/**
 * SAN / WXF.
 */
san: string, 
/**
 * The mover.
 */
by: Color, 
/**
 * The position after it.
 */
status: GameStatus, 
/**
 * Legal moves after it.
 */
moves: Array<MoveInfo>, 
/**
 * Xiangqi warnings after it.
 */
warnings: Array<MoveWarningInfo>, 
/**
 * Clocks after it.
 */
clock: ClockJson | null, };

export type EndEvent = { 
/**
 * How it ended.
 */
outcome: RoomOutcome, 
/**
 * The clocks, stopped.
 */
clock: ClockJson | null, };

export type TakebackEvent = { 
/**
 * Plies removed.
 */
undone: number, 
/**
 * Plies left.
 */
ply: number, 
/**
 * The position now.
 */
status: GameStatus, 
/**
 * Legal moves now.
 */
moves: Array<MoveInfo>, 
/**
 * Xiangqi warnings now.
 */
warnings: Array<MoveWarningInfo>, 
/**
 * Clocks now.
 */
clock: ClockJson | null, };

export type OfferEvent = { 
/**
 * What about.
 */
kind: OfferKind, 
/**
 * Who.
 */
by: Color, };

export type JoinedEvent = { 
/**
 * The seat taken.
 */
color: Color, 
/**
 * All seats now.
 */
players: ByColor<PlayerJson>, };

export type RematchEvent = { 
/**
 * The new room.
 */
id: string, };

export type SeatMsg = { 
/**
 * The seat taken.
 */
color: Color, 
/**
 * Its token, to keep.
 */
token: string, };

export type AckMsg = { 
/**
 * The acknowledged move's `ply`.
 */
ply: number, 
/**
 * Its event number.
 */
v: number, };

export type ErrorMsg = { 
/**
 * Machine-readable code.
 */
code: ErrorCode, 
/**
 * Human-readable text.
 */
message: string, };

export type Listing = { id: string, variant: Variant, clock: ClockConfig | null, open_color: Color, created_at: number, invite_url: string, };

export type LobbyCounters = { 
/**
 * Open WebSocket connections.
 */
players_online: number, 
/**
 * Rooms in play that someone is connected to.
 */
games_playing: number, 
/**
 * Public rooms waiting for an opponent.
 */
rooms_waiting: number, };

export type LobbySnapshot = { 
/**
 * The counters.
 */
counters: LobbyCounters, 
/**
 * The open public rooms, newest first.
 */
rooms: Array<Listing>, };

export type ServerMsg = { "t": "state", "d": StateMsg } | { "t": "seat", "d": SeatMsg } | { "t": "ack", "d": AckMsg } | { "t": "presence", "d": ByColor<PresenceSide> } | { "t": "error", "d": ErrorMsg } | { "t": "pong" } | { "t": "lobby", "d": LobbySnapshot };

export type Event = { "t": "move", "d": MoveEvent } | { "t": "end", "d": EndEvent } | { "t": "takeback", "d": TakebackEvent } | { "t": "offer", "d": OfferEvent } | { "t": "decline", "d": OfferEvent } | { "t": "joined", "d": JoinedEvent } | { "t": "rematch", "d": RematchEvent };

export type ClientMsg = { "t": "move", "d": { 
/**
 * The move in UCI.
 */
uci: string, 
/**
 * How many plies the client has seen (the move's index).
 */
ply: number, } } | { "t": "resign" } | { "t": "abort" } | { "t": "draw_offer" } | { "t": "draw_accept" } | { "t": "draw_decline" } | { "t": "takeback_offer" } | { "t": "takeback_accept" } | { "t": "takeback_decline" } | { "t": "claim", "d": { 
/**
 * Which draw.
 */
claim: Claim, } } | { "t": "claim_victory" } | { "t": "rematch_offer" } | { "t": "rematch_accept" } | { "t": "rematch_decline" } | { "t": "sync", "d": { 
/**
 * The last event number the client applied.
 */
v: number, } } | { "t": "ping" };

export type ClientSeat = { as?: Color, };

/** A game's state: the common fields, and Xiangqi's (present only in Xiangqi). */
export type GameStatus = GameStatusCore & Partial<XiangqiStatus>;

/** A room event as sent: its message and its number (`v`). */
export type NumberedEvent = Event & { v: number };

/** A client frame: the message and, for a two-seat connection, which seat acts. */
export type ClientFrame = ClientMsg & ClientSeat;
