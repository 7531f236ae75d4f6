//! Durable storage of rooms, seats, moves, clocks and results.
//!
//! Rooms never touch SQL: they hand [`WriteOp`]s to [`Store::write`] and
//! read back [`RoomRecord`]s. Two backends sit behind the same methods:
//! SQLite (`sqlite.rs`, the single-machine default, an embedded file) and
//! PostgreSQL (`postgres.rs`, a database server several nodes can share).
//! [`Store::open`] picks one from the `--db` value: a `postgres://` or
//! `postgresql://` URL selects PostgreSQL, anything else is a SQLite path.
//! Both apply the same list of migrations ([`MIGRATIONS`], one file per
//! dialect and step) and both do group commit: one writer takes every
//! write that arrived while the previous COMMIT was in flight into one
//! transaction, each write in its own savepoint.
//!
//! Durability contract: when [`Store::write`] returns `Ok`, the operations
//! are committed durably — SQLite with `synchronous=FULL` in WAL mode,
//! PostgreSQL with `synchronous_commit=on` (the WAL flushed to disk before
//! the COMMIT returns) — so they survive a crash of the process or of the
//! machine. Rooms acknowledge and broadcast a move only after that.

mod leases;

pub use leases::Acquired;
mod postgres;
mod rows;
mod sqlite;

use std::{
    path::Path,
    sync::{
        Arc,
        atomic::{AtomicU64, Ordering},
    },
};

use chessplayx_rules::{ByColor, Color, Variant};
use tokio::sync::oneshot;

/// One step of the schema, in both dialects. One list, so a step cannot
/// exist for one backend and not the other; SQLite counts the steps done
/// in `PRAGMA user_version`, PostgreSQL in its `schema_version` table.
struct Migration {
    /// SQLite's text of the step.
    sqlite: &'static str,
    /// PostgreSQL's text of the same step.
    postgres: &'static str,
}

/// The embedded migrations, applied in order.
const MIGRATIONS: &[Migration] = &[
    Migration {
        sqlite: include_str!("migrations/0001_init.sql"),
        postgres: include_str!("migrations/0001_init.pg.sql"),
    },
    Migration {
        sqlite: include_str!("migrations/0002_cluster.sql"),
        postgres: include_str!("migrations/0002_cluster.pg.sql"),
    },
    Migration {
        sqlite: include_str!("migrations/0003_sweep.sql"),
        postgres: include_str!("migrations/0003_sweep.pg.sql"),
    },
];

/// The most jobs one transaction takes: bounds the latency of the first
/// job of a batch when the queue is very long.
const MAX_BATCH: usize = 4096;

/// What the writer has done since start.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct StoreStats {
    /// Transactions committed.
    pub batches: u64,
    /// Write requests committed (each is one [`Store::write`] call).
    pub jobs: u64,
}

/// The writer's counters, shared between it and [`Store::stats`].
#[derive(Debug, Default)]
struct Counters {
    batches: AtomicU64,
    jobs: AtomicU64,
}

impl Counters {
    /// Counts a batch whose results are `results` (a batch where every job
    /// failed committed nothing).
    fn record(&self, results: &[Result<(), StoreError>]) {
        let ok = results.iter().filter(|r| r.is_ok()).count();
        if ok > 0 {
            self.batches.fetch_add(1, Ordering::Relaxed);
            self.jobs.fetch_add(ok as u64, Ordering::Relaxed);
        }
    }

    fn snapshot(&self) -> StoreStats {
        StoreStats {
            batches: self.batches.load(Ordering::Relaxed),
            jobs: self.jobs.load(Ordering::Relaxed),
        }
    }
}

/// One [`Store::write`] call waiting for the writer.
struct Job {
    ops: Vec<WriteOp>,
    reply: oneshot::Sender<Result<(), StoreError>>,
}

/// Why a storage operation failed.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// The database could not be opened, created, reached or migrated.
    #[error("opening database {path}: {source}")]
    Open {
        /// The SQLite file, or the PostgreSQL URL with its password hidden.
        path: String,
        /// What the database, the network or the file system said.
        source: Box<dyn std::error::Error + Send + Sync>,
    },
    /// A SQLite statement failed.
    #[error("database: {0}")]
    Sqlite(#[from] rusqlite::Error),
    /// A PostgreSQL statement failed (or the connection broke under it).
    #[error("database: {}", error_chain(.0))]
    Postgres(#[from] tokio_postgres::Error),
    /// No PostgreSQL connection could be had (the server is down or every
    /// connection is busy past the pool's timeout).
    #[error("database connection: {}", error_chain(.0))]
    Pool(#[from] deadpool_postgres::PoolError),
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
    /// The write carried a lease epoch the database no longer holds for
    /// its room: another node has taken the room (fencing). Nothing of it
    /// was applied; the room must stop on this node.
    #[error("room {room}: lease epoch {epoch} is stale; another node owns the room")]
    Fenced {
        /// The room.
        room: String,
        /// The epoch the write carried.
        epoch: i64,
    },
    /// Leases and shared rate limits need a database shared by the nodes
    /// (PostgreSQL); a SQLite store serves one node.
    #[error("a SQLite database serves a single node; several nodes need PostgreSQL")]
    NotShared,
}

/// Where a room is in its life. Stored as `waiting`, `playing`,
/// `finished`.
#[derive(Copy, Clone, Debug, PartialEq, Eq, serde::Serialize, ts_rs::TS)]
#[ts(rename = "RoomStage")]
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
#[derive(Copy, Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize, ts_rs::TS)]
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
    /// Fencing: the rest of the batch applies only while `node` holds
    /// `room`'s lease at `epoch`; otherwise the write fails with
    /// [`StoreError::Fenced`]. PostgreSQL checks it in the same
    /// transaction, holding the lease row (`FOR SHARE`) until the COMMIT,
    /// so a take-over waits for the write or the write sees the new
    /// epoch. A SQLite node owns all its rooms: nothing to check.
    Fence {
        /// The room.
        room: String,
        /// The lease holder.
        node: String,
        /// The lease's epoch when the room was taken.
        epoch: i64,
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
    inner: Backend,
}

/// The database behind a [`Store`].
#[derive(Clone, Debug)]
enum Backend {
    Sqlite(Arc<sqlite::SqliteStore>),
    Postgres(postgres::PgStore),
}

/// Whether `db` names a PostgreSQL database rather than a SQLite file.
pub(crate) fn is_postgres_url(db: &str) -> bool {
    db.starts_with("postgres://") || db.starts_with("postgresql://")
}

impl Store {
    /// Opens the database `db` names: a `postgres://USER@HOST:PORT/DBNAME`
    /// (or `postgresql://`) URL opens PostgreSQL
    /// ([`Store::open_postgres`]), anything else is a SQLite file
    /// ([`Store::open_sqlite`]). Must run inside a tokio runtime.
    ///
    /// # Errors
    ///
    /// [`StoreError::Open`] naming the database when it cannot be opened,
    /// reached or migrated.
    pub async fn open(db: &Path) -> Result<Self, StoreError> {
        match db.to_str().filter(|s| is_postgres_url(s)) {
            Some(url) => Self::open_postgres(url).await,
            None => Self::open_sqlite(db),
        }
    }

    /// Connects to the PostgreSQL database at `url`, runs the embedded
    /// migrations (under a lock, so nodes starting together do not race)
    /// and starts the writer task. Must run inside a tokio runtime.
    ///
    /// # Errors
    ///
    /// [`StoreError::Open`] naming the database (its password hidden) when
    /// the URL is malformed, the server cannot be reached, the database
    /// does not exist or cannot be migrated.
    pub async fn open_postgres(url: &str) -> Result<Self, StoreError> {
        Ok(Self {
            inner: Backend::Postgres(postgres::PgStore::open(url).await?),
        })
    }

    /// Opens (creating if needed, with its parent directory) the SQLite
    /// database at `path`, switches it to WAL with `synchronous=FULL`, runs
    /// the embedded migrations and starts the writer thread.
    ///
    /// # Errors
    ///
    /// [`StoreError::Open`] when the file cannot be opened or migrated.
    pub fn open_sqlite(path: &Path) -> Result<Self, StoreError> {
        Ok(Self {
            inner: Backend::Sqlite(Arc::new(sqlite::SqliteStore::open(path)?)),
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
        match &self.inner {
            Backend::Sqlite(s) => s.write(ops).await,
            Backend::Postgres(p) => p.write(ops).await,
        }
    }

    /// The room `id` with its moves, or `None` when there is no such room.
    ///
    /// # Errors
    ///
    /// A failed query or an unreadable row.
    pub async fn load_room(&self, id: &str) -> Result<Option<RoomRecord>, StoreError> {
        match &self.inner {
            Backend::Sqlite(s) => {
                let store = Arc::clone(s);
                let id = id.to_owned();
                tokio::task::spawn_blocking(move || store.load_room(&id))
                    .await
                    .map_err(|_| StoreError::Closed)?
            }
            Backend::Postgres(p) => p.load_room(id).await,
        }
    }

    /// The ids of the rooms not finished (waiting or playing), to reload on
    /// start.
    ///
    /// # Errors
    ///
    /// A failed query.
    pub async fn unfinished_rooms(&self) -> Result<Vec<String>, StoreError> {
        match &self.inner {
            Backend::Sqlite(s) => {
                let store = Arc::clone(s);
                tokio::task::spawn_blocking(move || store.unfinished_rooms())
                    .await
                    .map_err(|_| StoreError::Closed)?
            }
            Backend::Postgres(p) => p.unfinished_rooms().await,
        }
    }

    /// The PostgreSQL pool behind the lease and rate-limit queries.
    fn shared_pool(&self) -> Result<&deadpool_postgres::Pool, StoreError> {
        match &self.inner {
            Backend::Sqlite(_) => Err(StoreError::NotShared),
            Backend::Postgres(p) => Ok(p.pool()),
        }
    }

    /// Counters of the writer (batches, operations), for benchmarks.
    #[must_use]
    pub fn stats(&self) -> StoreStats {
        match &self.inner {
            Backend::Sqlite(s) => s.stats(),
            Backend::Postgres(p) => p.stats(),
        }
    }
}

impl StoreError {
    /// Whether a write failed only because a row with the same key exists
    /// (a room id drawn twice): the caller may retry with another key.
    /// Every other failure is final for that write.
    pub fn is_duplicate_key(&self) -> bool {
        match self {
            Self::Sqlite(rusqlite::Error::SqliteFailure(e, _)) => {
                e.code == rusqlite::ErrorCode::ConstraintViolation
            }
            Self::Postgres(e) => {
                e.code() == Some(&tokio_postgres::error::SqlState::UNIQUE_VIOLATION)
            }
            _ => false,
        }
    }
}

/// `e` and its sources, joined with `: ` (the drivers put the useful part,
/// such as "database \"x\" does not exist", in a source).
fn error_chain(e: &dyn std::error::Error) -> String {
    let mut text = e.to_string();
    let mut source = e.source();
    while let Some(s) = source {
        let part = s.to_string();
        if !text.contains(&part) {
            text.push_str(": ");
            text.push_str(&part);
        }
        source = s.source();
    }
    text
}

fn now_ms() -> i64 {
    i64::try_from(crate::util::unix_ms()).unwrap_or(i64::MAX)
}

fn to_i64(x: u64) -> i64 {
    i64::try_from(x).unwrap_or(i64::MAX)
}

fn to_u64(x: Option<i64>) -> Option<u64> {
    x.map(|x| u64::try_from(x).unwrap_or(0))
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
