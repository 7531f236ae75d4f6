//! Rows as both backends read them, and the one place that checks their
//! values and builds a [`RoomRecord`]: the backends only fetch columns.

use chessplayx_rules::{ByColor, Variant};

use super::{
    ClockConfig, MoveRecord, ResultRecord, RoomRecord, RoomState, SeatRecord, StoreError,
    parse_color, to_u64,
};

/// The columns of a `rooms` row, in the order of [`ROOM_COLUMNS`].
pub(super) struct RoomRow {
    pub(super) variant: String,
    pub(super) start_fen: Option<String>,
    pub(super) clock_initial: Option<i64>,
    pub(super) clock_increment: Option<i64>,
    pub(super) public: bool,
    pub(super) invite_hash: Option<String>,
    pub(super) state: String,
    pub(super) winner: Option<String>,
    pub(super) reason: Option<String>,
    pub(super) v: i64,
    pub(super) offers: String,
    pub(super) rematch_id: Option<String>,
    pub(super) created_at: i64,
    pub(super) lobby_invite: Option<String>,
}

/// The columns [`RoomRow`] is read from (the same in both dialects).
pub(super) const ROOM_COLUMNS: &str = "variant, start_fen, clock_initial_ms, clock_increment_ms, \
     public, invite_hash, state, winner, reason, v, offers, rematch_id, created_at, lobby_invite";

/// A `seats` row: `color, token_hash, ai_level`.
pub(super) struct SeatRow {
    pub(super) color: String,
    pub(super) token_hash: Option<String>,
    pub(super) ai_level: Option<i64>,
}

/// A `moves` row: `ply, uci, white_ms, black_ms, played_at, v`, read in
/// the order of `ply`.
pub(super) struct MoveRow {
    pub(super) ply: i64,
    pub(super) uci: String,
    pub(super) white_ms: Option<i64>,
    pub(super) black_ms: Option<i64>,
    pub(super) played_at: i64,
    pub(super) v: i64,
}

/// Checks the rows of room `id` and builds its record.
///
/// # Errors
///
/// [`StoreError::Corrupt`] when a value is not one this version writes
/// (an unknown variant, state or colour, an AI level out of range, a gap
/// in the plies).
pub(super) fn build_record(
    id: &str,
    room: RoomRow,
    seat_rows: Vec<SeatRow>,
    move_rows: Vec<MoveRow>,
) -> Result<RoomRecord, StoreError> {
    let corrupt = |what: String| StoreError::Corrupt {
        room: id.to_owned(),
        what,
    };
    let variant: Variant = room
        .variant
        .parse()
        .map_err(|e| corrupt(format!("variant: {e}")))?;
    let state =
        RoomState::parse(&room.state).ok_or_else(|| corrupt(format!("state {:?}", room.state)))?;
    let winner = match room.winner {
        None => None,
        Some(w) => Some(parse_color(&w).ok_or_else(|| corrupt(format!("winner {w:?}")))?),
    };
    let clock = match (to_u64(room.clock_initial), to_u64(room.clock_increment)) {
        (Some(initial), Some(increment)) => Some(ClockConfig { initial, increment }),
        _ => None,
    };
    let mut seats = ByColor::<SeatRecord>::default();
    for row in seat_rows {
        let color = parse_color(&row.color)
            .ok_or_else(|| corrupt(format!("seat color {:?}", row.color)))?;
        let ai_level = match row.ai_level {
            None => None,
            Some(l) => Some(u8::try_from(l).map_err(|_| corrupt(format!("seat ai level {l}")))?),
        };
        *seats.get_mut(color) = SeatRecord {
            token_hash: row.token_hash,
            ai_level,
        };
    }
    let mut moves = Vec::with_capacity(move_rows.len());
    for row in move_rows {
        let ply = u32::try_from(row.ply)
            .ok()
            .filter(|&p| usize::try_from(p).ok() == Some(moves.len()))
            .ok_or_else(|| corrupt(format!("move ply {} out of sequence", row.ply)))?;
        moves.push(MoveRecord {
            ply,
            uci: row.uci,
            clock: match (to_u64(row.white_ms), to_u64(row.black_ms)) {
                (Some(w), Some(b)) => Some(ByColor::new(w, b)),
                _ => None,
            },
            played_at: u64::try_from(row.played_at).unwrap_or(0),
            v: u64::try_from(row.v).unwrap_or(0),
        });
    }
    // A move writes only its own row (the backends' `apply`), so the room
    // row's `v` and `offers` are those of the last event that was not a
    // move. A move newer than that event cleared the offers then, and its
    // number is the room's.
    let room_v = u64::try_from(room.v).unwrap_or(0);
    let (v, offers) = match moves.last() {
        Some(last) if last.v > room_v => (last.v, String::new()),
        _ => (room_v, room.offers),
    };
    Ok(RoomRecord {
        id: id.to_owned(),
        variant,
        start_fen: room.start_fen,
        clock,
        public: room.public,
        invite_hash: room.invite_hash,
        lobby_invite: room.lobby_invite,
        seats,
        state,
        result: room.reason.map(|reason| ResultRecord { winner, reason }),
        v,
        offers,
        rematch_id: room.rematch_id,
        created_at: u64::try_from(room.created_at).unwrap_or(0),
        moves,
    })
}
