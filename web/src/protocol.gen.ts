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
