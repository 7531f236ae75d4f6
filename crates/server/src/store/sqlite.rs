//! The SQLite backend: one writer thread doing group commit, one reader
//! connection for the rare reads (reloads, exports of unloaded rooms).
//!
//! Why rusqlite on a dedicated thread rather than sqlx: durability costs
//! one `fsync` per COMMIT, and SQLite allows one writer at a time. With a
//! connection pool every room would commit alone and queue on the write
//! lock, so throughput would be one sync per move. A single writer that
//! takes *every* pending write of every room into one transaction pays one
//! sync per batch, and the batch grows by itself under load (while a sync
//! runs, the next batch queues up). rusqlite is synchronous, so the thread
//! is plain code with no async runtime inside, and `bundled` compiles a
//! known SQLite into the binary (no system library to match).

use std::{
    path::Path,
    sync::{Arc, Mutex, MutexGuard, mpsc},
    thread,
};

use chessplayx_rules::Color;
use rusqlite::{Connection, OpenFlags, OptionalExtension, TransactionBehavior, params};
use tokio::sync::oneshot;

use super::{
    Counters, Job, MAX_BATCH, MIGRATIONS, MoveRecord, RoomRecord, StoreError, StoreStats, WriteOp,
    color_name, now_ms,
    rows::{MoveRow, ROOM_COLUMNS, RoomRow, SeatRow, build_record},
    to_i64,
};

/// How often the writer copies the WAL back into the database.
const CHECKPOINT_EVERY: std::time::Duration = std::time::Duration::from_millis(500);

pub(super) struct SqliteStore {
    jobs_tx: Mutex<mpsc::Sender<Job>>,
    reader: Mutex<Connection>,
    counters: Arc<Counters>,
}

impl std::fmt::Debug for SqliteStore {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SqliteStore").finish_non_exhaustive()
    }
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    // A panic while holding the lock cannot leave a connection or a
    // sender half-updated in a way that matters to the next user.
    m.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

fn open_connection(path: &Path) -> Result<Connection, rusqlite::Error> {
    let conn = Connection::open_with_flags(
        path,
        OpenFlags::SQLITE_OPEN_READ_WRITE
            | OpenFlags::SQLITE_OPEN_CREATE
            | OpenFlags::SQLITE_OPEN_NO_MUTEX,
    )?;
    conn.busy_timeout(std::time::Duration::from_secs(10))?;
    conn.pragma_update(None, "journal_mode", "WAL")?;
    // FULL: the WAL is synced at every COMMIT, so a committed move survives
    // a power cut, not only a crash of the process.
    conn.pragma_update(None, "synchronous", "FULL")?;
    conn.pragma_update(None, "foreign_keys", "ON")?;
    Ok(conn)
}

fn migrate(conn: &mut Connection) -> Result<(), rusqlite::Error> {
    let done: usize = conn.pragma_query_value(None, "user_version", |r| r.get(0))?;
    for (i, step) in MIGRATIONS.iter().enumerate().skip(done) {
        let tx = conn.transaction_with_behavior(TransactionBehavior::Exclusive)?;
        tx.execute_batch(step.sqlite)?;
        tx.pragma_update(None, "user_version", i + 1)?;
        tx.commit()?;
    }
    Ok(())
}

impl SqliteStore {
    pub(super) fn open(path: &Path) -> Result<Self, StoreError> {
        let open_err = |source: Box<dyn std::error::Error + Send + Sync>| StoreError::Open {
            path: path.display().to_string(),
            source,
        };
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir).map_err(|e| open_err(e.into()))?;
        }
        let mut writer = open_connection(path).map_err(|e| open_err(e.into()))?;
        migrate(&mut writer).map_err(|e| open_err(e.into()))?;
        // The writer checkpoints itself, after answering a batch (see
        // `writer_loop`), not inside a COMMIT where it would delay that
        // batch's acknowledgements.
        writer
            .pragma_update(None, "wal_autocheckpoint", 0)
            .map_err(|e| open_err(e.into()))?;
        let reader = open_connection(path).map_err(|e| open_err(e.into()))?;
        let (jobs_tx, jobs_rx) = mpsc::channel::<Job>();
        let counters = Arc::new(Counters::default());
        let store = Self {
            jobs_tx: Mutex::new(jobs_tx),
            reader: Mutex::new(reader),
            counters: Arc::clone(&counters),
        };
        thread::Builder::new()
            .name("store-writer".into())
            .spawn(move || writer_loop(&mut writer, &jobs_rx, &counters))
            .map_err(|e| open_err(e.into()))?;
        Ok(store)
    }

    pub(super) async fn write(&self, ops: Vec<WriteOp>) -> Result<(), StoreError> {
        let (reply, done) = oneshot::channel();
        lock(&self.jobs_tx)
            .send(Job { ops, reply })
            .map_err(|_| StoreError::Closed)?;
        done.await.map_err(|_| StoreError::Closed)?
    }

    pub(super) fn stats(&self) -> StoreStats {
        self.counters.snapshot()
    }

    pub(super) fn load_room(&self, id: &str) -> Result<Option<RoomRecord>, StoreError> {
        let conn = lock(&self.reader);
        load_room(&conn, id)
    }

    pub(super) fn unfinished_rooms(&self) -> Result<Vec<String>, StoreError> {
        let conn = lock(&self.reader);
        let mut stmt =
            conn.prepare("SELECT id FROM rooms WHERE state != 'finished' ORDER BY created_at")?;
        let ids = stmt
            .query_map([], |r| r.get::<_, String>(0))?
            .collect::<Result<Vec<_>, _>>()?;
        Ok(ids)
    }
}

/// Takes every pending job into one transaction, commits once, then
/// answers each job. A job that fails is rolled back to its savepoint
/// alone; the others still commit.
fn writer_loop(conn: &mut Connection, rx: &mpsc::Receiver<Job>, counters: &Counters) {
    let mut last_checkpoint = std::time::Instant::now();
    while let Ok(first) = rx.recv() {
        let mut batch = vec![first];
        while batch.len() < MAX_BATCH {
            match rx.try_recv() {
                Ok(job) => batch.push(job),
                Err(_) => break,
            }
        }
        let results = run_batch(conn, &batch);
        counters.record(&results);
        for (job, result) in batch.into_iter().zip(results) {
            // The room may have gone away meanwhile; nothing to tell then.
            let _ignored = job.reply.send(result);
        }
        // Copy the WAL back into the database now and then. Done here,
        // between batches, by the only writer: the checkpoint can always
        // complete, so SQLite restarts the WAL from its start and the file
        // stays small under sustained load; and the rooms of the batch just
        // committed already have their answers.
        if last_checkpoint.elapsed() >= CHECKPOINT_EVERY {
            if let Err(e) = conn.query_row("PRAGMA wal_checkpoint(PASSIVE)", [], |_| Ok(())) {
                tracing::warn!(error = %e, "wal checkpoint");
            }
            last_checkpoint = std::time::Instant::now();
        }
    }
}

fn run_batch(conn: &mut Connection, batch: &[Job]) -> Vec<Result<(), StoreError>> {
    let fail_all = |e: &rusqlite::Error| {
        tracing::error!(error = %e, jobs = batch.len(), "store batch failed");
        batch
            .iter()
            .map(|_| Err(StoreError::Commit(e.to_string())))
            .collect()
    };
    let tx = match conn.transaction_with_behavior(TransactionBehavior::Immediate) {
        Ok(tx) => tx,
        Err(e) => return fail_all(&e),
    };
    let mut results = Vec::with_capacity(batch.len());
    for job in batch {
        results.push(run_job(&tx, job).map_err(StoreError::from));
    }
    if let Err(e) = tx.commit() {
        return fail_all(&e);
    }
    results
}

/// One job inside the batch's transaction, in a savepoint of its own so
/// that a failing job is undone alone. The savepoint statements are
/// prepared once and cached: rusqlite's `Savepoint` parses its SQL text
/// anew for every job, which was a tenth of a move's instructions.
fn run_job(tx: &Connection, job: &Job) -> Result<(), rusqlite::Error> {
    tx.prepare_cached("SAVEPOINT job")?.execute([])?;
    let applied = job.ops.iter().try_for_each(|op| apply(tx, op));
    if applied.is_err() {
        tx.prepare_cached("ROLLBACK TO job")?.execute([])?;
    }
    tx.prepare_cached("RELEASE job")?.execute([])?;
    applied
}

fn apply(conn: &Connection, op: &WriteOp) -> Result<(), rusqlite::Error> {
    let now = now_ms();
    match op {
        WriteOp::CreateRoom(room) => create_room(conn, room)?,
        WriteOp::ClaimSeat {
            room,
            color,
            token_hash,
            v,
        } => {
            conn.prepare_cached(
                "UPDATE seats SET token_hash = ?3 WHERE room_id = ?1 AND color = ?2",
            )?
            .execute(params![room, color_name(*color), token_hash])?;
            conn.prepare_cached(
                "UPDATE rooms SET invite_hash = NULL, lobby_invite = NULL, state = 'playing', v = ?2, updated_at = ?3
                 WHERE id = ?1",
            )?
            .execute(params![room, to_i64(*v), now])?;
        }
        // Only the move's row: its `v` is newer than the room row's, which
        // tells `build_record` that the offers there are cleared (see
        // `rows::build_record`). Not touching the room row halves the pages
        // a batch of moves from many rooms dirties, and so the bytes the
        // WAL and the checkpoint write per move.
        WriteOp::Move { room, record } => insert_move(conn, room, record)?,
        WriteOp::Takeback { room, keep, v } => {
            conn.prepare_cached("DELETE FROM moves WHERE room_id = ?1 AND ply >= ?2")?
                .execute(params![room, keep])?;
            conn.prepare_cached(
                "UPDATE rooms SET v = ?2, offers = '', updated_at = ?3 WHERE id = ?1",
            )?
            .execute(params![room, to_i64(*v), now])?;
        }
        WriteOp::Finish { room, result, v } => {
            conn.prepare_cached(
                "UPDATE rooms SET state = 'finished', winner = ?2, reason = ?3, v = ?4,
                    offers = '', invite_hash = NULL, lobby_invite = NULL, updated_at = ?5 WHERE id = ?1",
            )?
            .execute(params![
                room,
                result.winner.map(color_name),
                result.reason,
                to_i64(*v),
                now
            ])?;
        }
        WriteOp::Event { room, offers, v } => {
            conn.prepare_cached(
                "UPDATE rooms SET v = ?2, offers = ?3, updated_at = ?4 WHERE id = ?1",
            )?
            .execute(params![room, to_i64(*v), offers, now])?;
        }
        // One SQLite node owns every room of its file.
        WriteOp::Fence { .. } => {}
        WriteOp::Rematch {
            room,
            rematch_id,
            v,
        } => {
            conn.prepare_cached(
                "UPDATE rooms SET rematch_id = ?2, v = ?3, offers = '', updated_at = ?4 WHERE id = ?1",
            )?
            .execute(params![room, rematch_id, to_i64(*v), now])?;
        }
    }
    Ok(())
}

/// Inserts a new room, its two seats and the moves it is created with.
/// Apart from `apply` so that no function passes 100 lines.
fn create_room(conn: &Connection, room: &RoomRecord) -> Result<(), rusqlite::Error> {
    conn.prepare_cached(
        "INSERT INTO rooms (id, variant, start_fen, clock_initial_ms, clock_increment_ms,
            public, invite_hash, lobby_invite, state, winner, reason, v, offers,
            rematch_id, created_at, updated_at)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?15)",
    )?
    .execute(params![
        room.id,
        room.variant.name(),
        room.start_fen,
        room.clock.map(|c| to_i64(c.initial)),
        room.clock.map(|c| to_i64(c.increment)),
        room.public,
        room.invite_hash,
        room.lobby_invite,
        room.state.name(),
        room.result.as_ref().and_then(|r| r.winner).map(color_name),
        room.result.as_ref().map(|r| r.reason.as_str()),
        to_i64(room.v),
        room.offers,
        room.rematch_id,
        to_i64(room.created_at),
    ])?;
    for color in [Color::White, Color::Black] {
        let seat = room.seats.get(color);
        conn.prepare_cached(
            "INSERT INTO seats (room_id, color, token_hash, ai_level) VALUES (?1, ?2, ?3, ?4)",
        )?
        .execute(params![
            room.id,
            color_name(color),
            seat.token_hash,
            seat.ai_level
        ])?;
    }
    for m in &room.moves {
        insert_move(conn, &room.id, m)?;
    }

    Ok(())
}

fn insert_move(conn: &Connection, room: &str, m: &MoveRecord) -> Result<(), rusqlite::Error> {
    conn.prepare_cached(
        "INSERT INTO moves (room_id, ply, uci, white_ms, black_ms, played_at, v)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
    )?
    .execute(params![
        room,
        m.ply,
        m.uci,
        m.clock.map(|c| to_i64(c.white)),
        m.clock.map(|c| to_i64(c.black)),
        to_i64(m.played_at),
        to_i64(m.v),
    ])?;
    Ok(())
}

fn load_room(conn: &Connection, id: &str) -> Result<Option<RoomRecord>, StoreError> {
    let room = conn
        .prepare_cached(&format!("SELECT {ROOM_COLUMNS} FROM rooms WHERE id = ?1"))?
        .query_row([id], |r| {
            Ok(RoomRow {
                variant: r.get(0)?,
                start_fen: r.get(1)?,
                clock_initial: r.get(2)?,
                clock_increment: r.get(3)?,
                public: r.get(4)?,
                invite_hash: r.get(5)?,
                state: r.get(6)?,
                winner: r.get(7)?,
                reason: r.get(8)?,
                v: r.get(9)?,
                offers: r.get(10)?,
                rematch_id: r.get(11)?,
                created_at: r.get(12)?,
                lobby_invite: r.get(13)?,
            })
        })
        .optional()?;
    let Some(room) = room else {
        return Ok(None);
    };
    let seats = conn
        .prepare_cached("SELECT color, token_hash, ai_level FROM seats WHERE room_id = ?1")?
        .query_map([id], |r| {
            Ok(SeatRow {
                color: r.get(0)?,
                token_hash: r.get(1)?,
                ai_level: r.get(2)?,
            })
        })?
        .collect::<Result<Vec<_>, _>>()?;
    let moves = conn
        .prepare_cached(
            "SELECT ply, uci, white_ms, black_ms, played_at, v FROM moves
             WHERE room_id = ?1 ORDER BY ply",
        )?
        .query_map([id], |r| {
            Ok(MoveRow {
                ply: r.get(0)?,
                uci: r.get(1)?,
                white_ms: r.get(2)?,
                black_ms: r.get(3)?,
                played_at: r.get(4)?,
                v: r.get(5)?,
            })
        })?
        .collect::<Result<Vec<_>, _>>()?;
    build_record(id, room, seats, moves).map(Some)
}
