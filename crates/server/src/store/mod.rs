//! Durable storage of rooms, seats, moves, clocks and results.
//!
//! Rooms never touch SQL: they hand [`WriteOp`]s to [`Store::write`] and
//! read back [`RoomRecord`]s. Everything SQLite-specific (the writer
//! thread, group commit, migrations) is in `sqlite.rs`, so a PostgreSQL
//! backend is a second file behind the same methods (then [`Store`] holds
//! an enum of backends) and no room code changes.
//!
//! Durability contract: when [`Store::write`] returns `Ok`, the operations
//! are committed with `synchronous=FULL` in WAL mode, so they survive a
//! crash of the process or of the machine. Rooms acknowledge and broadcast
//! a move only after that.

mod sqlite;

use std::{path::Path, sync::Arc};

use chessplayx_rules::{ByColor, Color, Variant};

pub use sqlite::StoreStats;

/// Why a storage operation failed.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// The database file could not be opened or created.
    #[error("opening database {path}: {source}")]
    Open {
        /// The file.
        path: String,
        /// What SQLite or the file system said.
        source: Box<dyn std::error::Error + Send + Sync>,
    },
    /// A statement failed.
    #[error("database: {0}")]
    Sqlite(#[from] rusqlite::Error),
    /// A stored row holds a value this version cannot read (a hand-edited
    /// or newer database).
    #[error("database row of room {room}: {what}")]
    Corrupt {
        /// The room whose row is bad.
        room: String,
        /// What is wrong with it.
        what: String,
    },
    /// The transaction holding this write could not be committed (disk
    /// full, I/O error); nothing of it was applied.
    #[error("commit failed: {0}")]
    Commit(String),
    /// The writer thread has stopped (the server is shutting down).
    #[error("the database writer has stopped")]
    Closed,
}

/// Where a room is in its life. Stored as `waiting`, `playing`,
/// `finished`.
#[derive(Copy, Clone, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum RoomState {
    /// A seat is still free.
    Waiting,
    /// Both seats are taken and the game is not over.
    Playing,
    /// The game has ended (or was aborted).
    Finished,
}

impl RoomState {
    /// The stored spelling.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Self::Waiting => "waiting",
            Self::Playing => "playing",
            Self::Finished => "finished",
        }
    }

    fn parse(s: &str) -> Option<Self> {
        match s {
            "waiting" => Some(Self::Waiting),
            "playing" => Some(Self::Playing),
            "finished" => Some(Self::Finished),
            _ => None,
        }
    }
}

/// A time control in milliseconds.
#[derive(Copy, Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct ClockConfig {
    /// Each side's starting time.
    pub initial: u64,
    /// Fischer increment added after each move.
    pub increment: u64,
}

/// A seat as stored: who may act for a colour.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SeatRecord {
    /// SHA-256 (hex) of the seat token; `None` while the seat is free or
    /// when the engine holds it.
    pub token_hash: Option<String>,
    /// The engine's level (1–8) when the engine holds the seat.
    pub ai_level: Option<u8>,
}

/// One played move with the clocks after it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveRecord {
    /// 0 for the first move.
    pub ply: u32,
    /// The move in UCI.
    pub uci: String,
    /// Remaining milliseconds after the move, when the room has a clock.
    pub clock: Option<ByColor<u64>>,
    /// Unix milliseconds.
    pub played_at: u64,
    /// The number of the move's event (re-sent in the `ack` of a
    /// duplicate after a restart).
    pub v: u64,
}

/// How a finished game ended, as stored: the winner and the snake_case
/// reason (rules reasons and the room's own, see docs/protocol.md).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ResultRecord {
    /// `None` for a draw or an abort.
    pub winner: Option<Color>,
    /// The end reason's name.
    pub reason: String,
}

/// Everything stored about a room.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RoomRecord {
    /// The room id (8 characters of `[0-9A-Za-z]`).
    pub id: String,
    /// The game.
    pub variant: Variant,
    /// The start FEN, `None` for the variant's start position.
    pub start_fen: Option<String>,
    /// The time control.
    pub clock: Option<ClockConfig>,
    /// Listed in the lobby.
    pub public: bool,
    /// SHA-256 (hex) of the unspent invite token.
    pub invite_hash: Option<String>,
    /// For a public room, the raw invite token: the lobby publishes it
    /// (any visitor may take the seat), so it is no secret to hide.
    pub lobby_invite: Option<String>,
    /// The seats.
    pub seats: ByColor<SeatRecord>,
    /// Where the room is in its life.
    pub state: RoomState,
    /// The result once finished.
    pub result: Option<ResultRecord>,
    /// The number of the room's last event (see docs/protocol.md).
    pub v: u64,
    /// The standing offers, in the room's own compact text form.
    pub offers: String,
    /// The id of the rematch room, once agreed.
    pub rematch_id: Option<String>,
    /// Unix milliseconds.
    pub created_at: u64,
    /// The moves in order (empty when the record is written).
    pub moves: Vec<MoveRecord>,
}

/// One change to the stored state. A batch of these passed to
/// [`Store::write`] is applied atomically.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum WriteOp {
    /// A new room with its seats.
    CreateRoom(Box<RoomRecord>),
    /// A free seat was taken with an invite (which is now spent).
    ClaimSeat {
        /// The room.
        room: String,
        /// The seat.
        color: Color,
        /// SHA-256 (hex) of the new seat token.
        token_hash: String,
        /// The room's new last event number.
        v: u64,
    },
    /// A move was played (its record holds the room's new last event
    /// number).
    Move {
        /// The room.
        room: String,
        /// The move.
        record: MoveRecord,
    },
    /// Moves from ply `keep` on were taken back.
    Takeback {
        /// The room.
        room: String,
        /// How many moves remain.
        keep: u32,
        /// The room's new last event number.
        v: u64,
    },
    /// The game ended.
    Finish {
        /// The room.
        room: String,
        /// The result.
        result: ResultRecord,
        /// The room's new last event number.
        v: u64,
    },
    /// An event that only changes the standing offers (or nothing stored
    /// but the number): keeps `v` durable so reconnect numbering survives
    /// a restart.
    Event {
        /// The room.
        room: String,
        /// The standing offers after the event.
        offers: String,
        /// The room's new last event number.
        v: u64,
    },
    /// A rematch room was agreed (create it with [`WriteOp::CreateRoom`]
    /// in the same batch).
    Rematch {
        /// The finished room.
        room: String,
        /// The new room.
        rematch_id: String,
        /// The finished room's new last event number.
        v: u64,
    },
}

/// The durable store: cheap to clone, shared by every room.
#[derive(Clone, Debug)]
pub struct Store {
    inner: Arc<sqlite::SqliteStore>,
}

impl Store {
    /// Opens (creating if needed, with its parent directory) the SQLite
    /// database at `path`, switches it to WAL with `synchronous=FULL`, runs
    /// the embedded migrations and starts the writer thread.
    ///
    /// # Errors
    ///
    /// [`StoreError::Open`] when the file cannot be opened or migrated.
    pub fn open_sqlite(path: &Path) -> Result<Self, StoreError> {
        Ok(Self {
            inner: Arc::new(sqlite::SqliteStore::open(path)?),
        })
    }

    /// Commits `ops` atomically and durably; returns once they are on
    /// disk. Concurrent calls from many rooms share one transaction (group
    /// commit), so the cost of a sync is paid once per batch.
    ///
    /// # Errors
    ///
    /// The statement that failed (then none of `ops` is applied), or
    /// [`StoreError::Closed`].
    pub async fn write(&self, ops: Vec<WriteOp>) -> Result<(), StoreError> {
        self.inner.write(ops).await
    }

    /// The room `id` with its moves, or `None` when there is no such room.
    ///
    /// # Errors
    ///
    /// A failed query or an unreadable row.
    pub async fn load_room(&self, id: &str) -> Result<Option<RoomRecord>, StoreError> {
        let store = Arc::clone(&self.inner);
        let id = id.to_owned();
        tokio::task::spawn_blocking(move || store.load_room(&id))
            .await
            .map_err(|_| StoreError::Closed)?
    }

    /// The ids of the rooms not finished (waiting or playing), to reload on
    /// start.
    ///
    /// # Errors
    ///
    /// A failed query.
    pub async fn unfinished_rooms(&self) -> Result<Vec<String>, StoreError> {
        let store = Arc::clone(&self.inner);
        tokio::task::spawn_blocking(move || store.unfinished_rooms())
            .await
            .map_err(|_| StoreError::Closed)?
    }

    /// Counters of the writer (batches, operations), for benchmarks.
    #[must_use]
    pub fn stats(&self) -> StoreStats {
        self.inner.stats()
    }
}

fn color_name(c: Color) -> &'static str {
    c.fold_wb("white", "black")
}

fn parse_color(s: &str) -> Option<Color> {
    match s {
        "white" => Some(Color::White),
        "black" => Some(Color::Black),
        _ => None,
    }
}

#[cfg(test)]
mod tests;
