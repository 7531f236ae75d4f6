//! The WebSocket wire types of docs/protocol.md, defined once: what
//! clients send ([`ClientMsg`], decoded in two steps: JSON shape here,
//! meaning in the room) and what the server sends (data structs encoded
//! once per event by [`encode`] and shared by every subscriber).

use axum::extract::ws::Utf8Bytes;
use chessplayx_rules::{ByColor, Claim, Color, GameStatus, MoveInfo, MoveWarningInfo};
use serde::{Deserialize, Serialize};

use crate::store::RoomState;

mod codes;
mod fast;
mod ts;

pub use codes::{EndReason, ErrorCode};
pub use ts::typescript;

/// A message from a client. Unit variants accept `{"t": "resign"}` with
/// or without `d`.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize, ts_rs::TS)]
#[serde(tag = "t", content = "d", rename_all = "snake_case")]
pub enum ClientMsg {
    /// Play `uci`, expecting `ply` plies to have been played before it.
    Move {
        /// The move in UCI.
        uci: String,
        /// How many plies the client has seen (the move's index).
        ply: u32,
    },
    /// Give up.
    Resign,
    /// End the game without result (before both sides moved).
    Abort,
    /// Offer a draw.
    DrawOffer,
    /// Accept the opponent's draw offer.
    DrawAccept,
    /// Decline the opponent's draw offer.
    DrawDecline,
    /// Ask to take back the last own move.
    TakebackOffer,
    /// Accept the opponent's takeback request.
    TakebackAccept,
    /// Decline the opponent's takeback request.
    TakebackDecline,
    /// Claim a draw the rules allow now.
    Claim {
        /// Which draw.
        claim: Claim,
    },
    /// Claim the win after the opponent's disconnect countdown ran out.
    ClaimVictory,
    /// Offer a rematch after the end.
    RematchOffer,
    /// Accept the opponent's rematch offer.
    RematchAccept,
    /// Decline the opponent's rematch offer.
    RematchDecline,
    /// Ask for the events after `v` (or a full state).
    Sync {
        /// The last event number the client applied.
        v: u64,
    },
    /// Keep-alive; answered with `pong`.
    Ping,
}

/// Why a client frame could not be decoded.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum DecodeError {
    /// Not JSON, or no string `t`.
    #[error("not a message: {0}")]
    Malformed(String),
    /// `t` names no message.
    #[error("unknown message type {0:?}")]
    UnknownType(String),
    /// A known type with missing or mistyped fields.
    #[error("bad {t} message: {reason}")]
    BadFields {
        /// The type.
        t: String,
        /// What serde said.
        reason: String,
    },
}

impl DecodeError {
    /// The `code` of the `error` message.
    #[must_use]
    pub const fn code(&self) -> ErrorCode {
        match self {
            Self::Malformed(_) | Self::BadFields { .. } => ErrorCode::BadMessage,
            Self::UnknownType(_) => ErrorCode::UnknownType,
        }
    }
}

#[derive(Deserialize)]
struct Raw {
    t: String,
}

impl ClientMsg {
    /// Decodes one text frame.
    ///
    /// # Errors
    ///
    /// Not JSON / no `t`, an unknown `t`, or bad fields for a known `t`.
    pub fn decode(text: &str) -> Result<Self, DecodeError> {
        match serde_json::from_str::<Self>(text) {
            Ok(msg) => Ok(msg),
            Err(e) => {
                let raw: Raw = serde_json::from_str(text)
                    .map_err(|e| DecodeError::Malformed(e.to_string()))?;
                // Is `t` itself unknown? Decode `t` alone: serde calls an
                // unknown tag an "unknown variant" (its
                // `de::Error::unknown_variant`), where a known one fails
                // on its missing data or not at all. The message types are
                // thus listed only by `ClientMsg` itself.
                let alone = serde_json::json!({ "t": raw.t });
                let unknown = serde_json::from_value::<Self>(alone)
                    .is_err_and(|e| e.to_string().starts_with("unknown variant"));
                if unknown {
                    let mut t = raw.t;
                    t.truncate(64);
                    Err(DecodeError::UnknownType(t))
                } else {
                    Err(DecodeError::BadFields {
                        t: raw.t,
                        reason: e.to_string(),
                    })
                }
            }
        }
    }
}

/// A client frame for a room: the message and, from its optional
/// top-level `as`, which of the connection's seats acts (a same-device
/// connection holds both).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct ClientFrame {
    /// The seat named by `as`; `None` lets the room choose (the only seat
    /// held, or the side to move for a connection holding both).
    pub(crate) seat: Option<Color>,
    /// The message.
    pub(crate) msg: ClientMsg,
}

#[derive(Deserialize, ts_rs::TS)]
#[ts(rename = "ClientSeat")]
struct RawAs {
    #[serde(default, rename = "as")]
    #[ts(optional)]
    seat: Option<Color>,
}

impl ClientFrame {
    /// Decodes one text frame of a room connection.
    ///
    /// # Errors
    ///
    /// As [`ClientMsg::decode`], and a `bad_message` when `as` is not a
    /// colour.
    pub(crate) fn decode(text: &str) -> Result<Self, DecodeError> {
        let msg = ClientMsg::decode(text)?;
        // Most frames carry no `as`: read the frame a second time only
        // when it may.
        let seat = if text.contains("\"as\"") {
            serde_json::from_str::<RawAs>(text)
                .map_err(|e| DecodeError::BadFields {
                    t: "as".to_owned(),
                    reason: e.to_string(),
                })?
                .seat
        } else {
            None
        };
        Ok(Self { seat, msg })
    }
}

/// The end of a room's game.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, ts_rs::TS)]
pub struct RoomOutcome {
    /// `None`: a draw or an abort.
    pub winner: Option<Color>,
    /// Why.
    #[ts(type = "EndReason")]
    pub reason: EndReason,
}

/// The clocks as sent: remaining ms at the moment of sending.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, ts_rs::TS)]
pub struct ClockJson {
    /// White's remaining time.
    pub white: u64,
    /// Black's remaining time.
    pub black: u64,
    /// The running clock, if any.
    pub running: Option<Color>,
    /// Starting time.
    pub initial: u64,
    /// Fischer increment.
    pub increment: u64,
}

/// A player's seat as others see it.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, ts_rs::TS)]
pub struct PlayerJson {
    /// Someone holds the seat.
    pub seated: bool,
    /// The holder has at least one open connection (the AI always has).
    pub connected: bool,
    /// The engine's level when the AI holds the seat.
    pub ai: Option<u8>,
}

/// One side's connection status and disconnect countdown.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, ts_rs::TS)]
pub struct PresenceSide {
    /// At least one open connection (or the AI).
    pub connected: bool,
    /// Ms left before the opponent may claim the win; `None` when no
    /// countdown runs.
    pub claim_in: Option<u64>,
}

/// Standing offers: the colour that made each.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Serialize, ts_rs::TS)]
pub struct Offers {
    /// A draw offer.
    pub draw: Option<Color>,
    /// A takeback request.
    pub takeback: Option<Color>,
    /// A rematch offer.
    pub rematch: Option<Color>,
}

/// What an offer is about.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, ts_rs::TS)]
#[serde(rename_all = "snake_case")]
pub enum OfferKind {
    /// A draw.
    Draw,
    /// A takeback.
    Takeback,
    /// A rematch.
    Rematch,
}

/// A move in the history.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, ts_rs::TS)]
pub struct HistoryMove {
    /// UCI.
    pub uci: String,
    /// SAN (WXF in Xiangqi).
    pub san: String,
}

/// The body of `POST /api/position`: a position and what may be played
/// from it.
#[derive(Clone, Debug, Serialize, ts_rs::TS)]
pub(crate) struct PositionReply {
    /// The position.
    #[ts(type = "GameStatus")]
    pub(crate) status: GameStatus,
    /// Legal moves with notation.
    pub(crate) moves: Vec<MoveInfo>,
    /// Xiangqi warnings.
    pub(crate) warnings: Vec<MoveWarningInfo>,
}

/// `state`: the whole room.
#[derive(Clone, Debug, Serialize, ts_rs::TS)]
pub struct StateMsg<'a> {
    /// The last event included.
    pub v: u64,
    /// The room id.
    pub id: &'a str,
    /// The game.
    pub variant: chessplayx_rules::Variant,
    /// This connection's seat when it holds exactly one.
    pub you: Option<Color>,
    /// Every seat this connection holds: none (a spectator), one (a
    /// player), or both (a same-device game).
    pub seats: &'a [Color],
    /// Listed in the lobby.
    pub public: bool,
    /// The AI's level in an AI room.
    pub ai_level: Option<u8>,
    /// Where the room is in its life.
    pub state: RoomState,
    /// The start position.
    pub start_fen: String,
    /// Moves played.
    pub history: &'a [HistoryMove],
    /// The current position.
    #[ts(type = "GameStatus")]
    pub status: &'a GameStatus,
    /// Legal moves with notation.
    pub moves: &'a [MoveInfo],
    /// Xiangqi warnings.
    pub warnings: &'a [MoveWarningInfo],
    /// Clocks, `None` without time control.
    pub clock: Option<ClockJson>,
    /// The seats.
    pub players: ByColor<PlayerJson>,
    /// Standing offers.
    pub offers: Offers,
    /// The end, once over.
    pub outcome: Option<RoomOutcome>,
    /// The rematch room.
    pub rematch: Option<&'a str>,
    /// Connection status.
    pub presence: ByColor<PresenceSide>,
}

/// `move` event.
#[derive(Clone, Debug, Serialize, ts_rs::TS)]
pub struct MoveEvent<'a> {
    /// The move's index.
    pub ply: u32,
    /// UCI.
    pub uci: &'a str,
    /// SAN / WXF.
    pub san: &'a str,
    /// The mover.
    pub by: Color,
    /// The position after it.
    #[ts(type = "GameStatus")]
    pub status: &'a GameStatus,
    /// Legal moves after it.
    pub moves: &'a [MoveInfo],
    /// Xiangqi warnings after it.
    pub warnings: &'a [MoveWarningInfo],
    /// Clocks after it.
    pub clock: Option<ClockJson>,
}

/// `end` event.
#[derive(Clone, Debug, Serialize, ts_rs::TS)]
pub struct EndEvent {
    /// How it ended.
    pub outcome: RoomOutcome,
    /// The clocks, stopped.
    pub clock: Option<ClockJson>,
}

/// `takeback` event.
#[derive(Clone, Debug, Serialize, ts_rs::TS)]
pub struct TakebackEvent<'a> {
    /// Plies removed.
    pub undone: u32,
    /// Plies left.
    pub ply: u32,
    /// The position now.
    #[ts(type = "GameStatus")]
    pub status: &'a GameStatus,
    /// Legal moves now.
    pub moves: &'a [MoveInfo],
    /// Xiangqi warnings now.
    pub warnings: &'a [MoveWarningInfo],
    /// Clocks now.
    pub clock: Option<ClockJson>,
}

/// `offer` and `decline` events.
#[derive(Copy, Clone, Debug, Serialize, ts_rs::TS)]
pub struct OfferEvent {
    /// What about.
    pub kind: OfferKind,
    /// Who.
    pub by: Color,
}

/// `joined` event.
#[derive(Copy, Clone, Debug, Serialize, ts_rs::TS)]
pub struct JoinedEvent {
    /// The seat taken.
    pub color: Color,
    /// All seats now.
    pub players: ByColor<PlayerJson>,
}

/// `rematch` event.
#[derive(Clone, Debug, Serialize, ts_rs::TS)]
pub struct RematchEvent<'a> {
    /// The new room.
    pub id: &'a str,
}

/// `seat` message.
#[derive(Clone, Debug, Serialize, ts_rs::TS)]
pub struct SeatMsg<'a> {
    /// The seat taken.
    pub color: Color,
    /// Its token, to keep.
    pub token: &'a str,
}

/// `ack` message.
#[derive(Copy, Clone, Debug, Serialize, ts_rs::TS)]
pub struct AckMsg {
    /// The acknowledged move's `ply`.
    pub ply: u32,
    /// Its event number.
    pub v: u64,
}

/// `error` message.
#[derive(Clone, Debug, Serialize, ts_rs::TS)]
pub struct ErrorMsg<'a> {
    /// Machine-readable code.
    #[ts(type = "ErrorCode")]
    pub code: ErrorCode,
    /// Human-readable text.
    pub message: &'a str,
}

/// A message the server sends that is not a room event (no `v`): its
/// type is the variant's snake_case name (`t`), its data `d`.
#[derive(Clone, Debug, Serialize, ts_rs::TS)]
#[serde(tag = "t", content = "d", rename_all = "snake_case")]
pub(crate) enum ServerMsg<'a> {
    /// The whole room.
    State(StateMsg<'a>),
    /// The seat an invite took.
    Seat(SeatMsg<'a>),
    /// A move committed.
    Ack(AckMsg),
    /// Connection status of both seats.
    Presence(ByColor<PresenceSide>),
    /// A refusal.
    Error(ErrorMsg<'a>),
    /// The answer to `ping`.
    Pong,
    /// The lobby's snapshot.
    Lobby(LobbySnapshot<'a>),
}

/// A room event: what changes the game, numbered by the room (`v`).
#[derive(Clone, Debug, Serialize, ts_rs::TS)]
#[serde(tag = "t", content = "d", rename_all = "snake_case")]
pub(crate) enum Event<'a> {
    /// A move.
    Move(MoveEvent<'a>),
    /// The end.
    End(EndEvent),
    /// Moves taken back.
    Takeback(TakebackEvent<'a>),
    /// An offer made.
    Offer(OfferEvent),
    /// An offer declined.
    Decline(OfferEvent),
    /// A seat taken.
    Joined(JoinedEvent),
    /// The rematch room.
    Rematch(RematchEvent<'a>),
}

/// The lobby's counters.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, ts_rs::TS)]
pub(crate) struct LobbyCounters {
    /// Open WebSocket connections.
    pub(crate) players_online: usize,
    /// Rooms in play that someone is connected to.
    pub(crate) games_playing: usize,
    /// Public rooms waiting for an opponent.
    pub(crate) rooms_waiting: usize,
}

/// The lobby message's data (also the body of `GET /api/lobby`).
#[derive(Clone, Debug, Serialize, ts_rs::TS)]
pub(crate) struct LobbySnapshot<'a> {
    /// The counters.
    pub(crate) counters: LobbyCounters,
    /// The open public rooms, newest first.
    pub(crate) rooms: &'a [&'a crate::lobby::Listing],
}

/// Our own types serialize without error (string keys, no floats that
/// could be NaN); should that ever change, an `internal` error keeps the
/// client's parser on its feet.
fn to_text<T: Serialize>(value: &T) -> Utf8Bytes {
    let mut buf = Vec::with_capacity(ENCODE_CAPACITY);
    match serde_json::to_writer(&mut buf, value) {
        Ok(()) => text_of(buf),
        Err(_) => Utf8Bytes::from_static(ENCODING_FAILED),
    }
}

/// What a client gets if a message could not be encoded.
const ENCODING_FAILED: &str =
    r#"{"t":"error","d":{"code":"internal","message":"encoding failed"}}"#;

/// The first buffer of an encoding: a move event with the legal moves
/// and their notation is 1–3 KiB, and growing an empty buffer to that
/// size copied it several times.
const ENCODE_CAPACITY: usize = 4096;

fn text_of(buf: Vec<u8>) -> Utf8Bytes {
    String::from_utf8(buf).map_or_else(|_| Utf8Bytes::from_static(ENCODING_FAILED), Utf8Bytes::from)
}

/// Encodes a message once, to be shared by every subscriber (cloning the
/// result is a reference-count increment).
#[must_use]
pub(crate) fn encode(msg: &ServerMsg<'_>) -> Utf8Bytes {
    to_text(msg)
}

/// Encodes event number `v`: the event's object with `"v"` added as its
/// last field. Written by hand rather than with `#[serde(flatten)]`, which
/// sends the whole event through serde's slower map path.
#[must_use]
pub(crate) fn encode_event(v: u64, event: &Event<'_>) -> Utf8Bytes {
    let mut buf = Vec::with_capacity(ENCODE_CAPACITY);
    let written = match event {
        Event::Move(m) => fast::write_move_event(&mut buf, m).is_ok(),
        _ => serde_json::to_writer(&mut buf, event).is_ok() && buf.pop() == Some(b'}'),
    };
    if !written {
        return Utf8Bytes::from_static(ENCODING_FAILED);
    }
    buf.extend_from_slice(b",\"v\":");
    buf.extend_from_slice(v.to_string().as_bytes());
    buf.push(b'}');
    text_of(buf)
}

/// An `error` message.
#[must_use]
pub(crate) fn error_msg(code: ErrorCode, message: &str) -> Utf8Bytes {
    encode(&ServerMsg::Error(ErrorMsg { code, message }))
}

/// A `pong`.
#[must_use]
pub(crate) fn pong() -> Utf8Bytes {
    encode(&ServerMsg::Pong)
}

#[cfg(test)]
mod tests {
    use serde_json::{Value, json};

    use super::*;

    #[test]
    fn client_messages_decode_as_documented() {
        assert_eq!(
            ClientMsg::decode(r#"{"t":"move","d":{"uci":"e2e4","ply":0}}"#),
            Ok(ClientMsg::Move {
                uci: "e2e4".into(),
                ply: 0
            })
        );
        assert_eq!(
            ClientMsg::decode(r#"{"t":"resign"}"#),
            Ok(ClientMsg::Resign)
        );
        assert_eq!(
            ClientMsg::decode(r#"{"t":"claim","d":{"claim":"fifty_moves"}}"#),
            Ok(ClientMsg::Claim {
                claim: Claim::FiftyMoves
            })
        );
        assert_eq!(
            ClientMsg::decode(r#"{"t":"sync","d":{"v":17}}"#),
            Ok(ClientMsg::Sync { v: 17 })
        );
        assert_eq!(ClientMsg::decode(r#"{"t":"ping"}"#), Ok(ClientMsg::Ping));
        assert_eq!(
            ClientMsg::decode(r#"{"t":"abort","d":null}"#),
            Ok(ClientMsg::Abort)
        );
        assert_eq!(
            ClientMsg::decode(r#"{"d":{"uci":"a2a3","ply":4},"t":"move"}"#),
            Ok(ClientMsg::Move {
                uci: "a2a3".into(),
                ply: 4
            }),
            "field order does not matter"
        );
    }

    #[test]
    fn a_frame_names_its_seat_with_as() {
        assert_eq!(
            ClientFrame::decode(r#"{"t":"draw_accept","as":"black"}"#),
            Ok(ClientFrame {
                seat: Some(Color::Black),
                msg: ClientMsg::DrawAccept
            })
        );
        assert_eq!(
            ClientFrame::decode(r#"{"t":"move","d":{"uci":"e2e4","ply":0}}"#),
            Ok(ClientFrame {
                seat: None,
                msg: ClientMsg::Move {
                    uci: "e2e4".into(),
                    ply: 0
                }
            })
        );
        // `"as"` inside `d` is not the frame's seat.
        assert_eq!(
            ClientFrame::decode(r#"{"t":"sync","d":{"v":3,"as":"white"}}"#).map(|f| f.seat),
            Ok(None)
        );
        let e = ClientFrame::decode(r#"{"t":"resign","as":"red"}"#).unwrap_err();
        assert_eq!(e.code(), ErrorCode::BadMessage);
    }

    #[test]
    fn bad_frames_are_told_apart() {
        assert_eq!(
            ClientMsg::decode("nope").unwrap_err().code(),
            ErrorCode::BadMessage
        );
        assert_eq!(
            ClientMsg::decode(r#"{"d":{}}"#).unwrap_err().code(),
            ErrorCode::BadMessage
        );
        assert_eq!(
            ClientMsg::decode(r#"{"t":"fly"}"#),
            Err(DecodeError::UnknownType("fly".into()))
        );
        let e = ClientMsg::decode(r#"{"t":"move","d":{"uci":"e2e4"}}"#).unwrap_err();
        assert!(
            matches!(e, DecodeError::BadFields { ref t, .. } if t == "move"),
            "{e:?}"
        );
        let e = ClientMsg::decode(r#"{"t":"move","d":{"uci":"e2e4","ply":-1}}"#).unwrap_err();
        assert_eq!(e.code(), ErrorCode::BadMessage);
        let e = ClientMsg::decode(r#"{"t":"claim","d":{"claim":"because"}}"#).unwrap_err();
        assert_eq!(e.code(), ErrorCode::BadMessage);
        // An unknown name inside `d` is a bad field, even one that is
        // the message's own type.
        let e = ClientMsg::decode(r#"{"t":"claim","d":{"claim":"claim"}}"#).unwrap_err();
        assert_eq!(e.code(), ErrorCode::BadMessage);
        let e = ClientMsg::decode(r#"{"t":"sync","d":{"v":"x"}}"#).unwrap_err();
        assert_eq!(e.code(), ErrorCode::BadMessage);
    }

    #[test]
    fn envelopes_carry_v_only_for_events() {
        let ack: Value =
            serde_json::from_str(&encode(&ServerMsg::Ack(AckMsg { ply: 3, v: 9 }))).unwrap();
        assert_eq!(ack, json!({"t": "ack", "d": {"ply": 3, "v": 9}}));
        let offer: Value = serde_json::from_str(&encode_event(
            4,
            &Event::Offer(OfferEvent {
                kind: OfferKind::Draw,
                by: Color::Black,
            }),
        ))
        .unwrap();
        assert_eq!(
            offer,
            json!({"t": "offer", "v": 4, "d": {"kind": "draw", "by": "black"}})
        );
        let pong: Value = serde_json::from_str(&pong()).unwrap();
        assert_eq!(pong, json!({"t": "pong"}));
    }

    #[test]
    fn outcomes_serialize_their_reason_by_name() {
        let o = RoomOutcome {
            winner: Some(Color::White),
            reason: EndReason::Timeout,
        };
        assert_eq!(
            serde_json::to_value(o).unwrap(),
            json!({"winner": "white", "reason": "timeout"})
        );
    }
}
