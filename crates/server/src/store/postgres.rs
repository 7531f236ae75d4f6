//! The PostgreSQL backend: a connection pool (deadpool-postgres over
//! tokio-postgres) for the reads, and one writer task doing group commit.
//!
//! Why tokio-postgres with deadpool rather than sqlx: the store builds its
//! statements at run time and needs no query macros or offline schema
//! checks, and the writer wants plain control of one connection's
//! transaction and savepoints; tokio-postgres gives exactly that with a
//! much smaller build, and deadpool adds the pool (reconnecting after the
//! server restarts) without a framework around it.
//!
//! Group commit works as in `sqlite.rs`: the writer takes every write
//! queued while the previous COMMIT was in flight into one transaction
//! (a failing write is rolled back alone, see [`run_batch`]), and answers
//! them all after the one COMMIT. A PostgreSQL COMMIT costs a
//! WAL flush, so batching divides that cost as SQLite's divides its sync.
//! The transaction sets `synchronous_commit = on`, whatever the server's
//! or role's default: the COMMIT returns only once its WAL is on disk,
//! which is what lets a room acknowledge the move.

use std::time::Duration;

use deadpool_postgres::{
    GenericClient, Manager, ManagerConfig, Object, Pool, RecyclingMethod, Runtime,
};
use tokio::sync::{mpsc, oneshot};
use tokio_postgres::{IsolationLevel, NoTls, types::ToSql};

use super::{
    Counters, Job, MAX_BATCH, MIGRATIONS, MoveRecord, RoomRecord, StoreError, StoreStats, WriteOp,
    color_name, error_chain, now_ms,
    rows::{MoveRow, ROOM_COLUMNS, RoomRow, SeatRow, build_record},
    to_i64,
};

/// Connections in the pool: the writer holds one at a time, the rest
/// serve reloads and the rare reads of rooms not in memory.
const POOL_SIZE: usize = 8;

/// How long opening a connection may take before it counts as
/// unreachable.
const CONNECT_TIMEOUT: Duration = Duration::from_secs(10);

/// How long a read waits for a free connection.
const WAIT_TIMEOUT: Duration = Duration::from_secs(30);

/// The key of the advisory lock held while migrating, so nodes that start
/// together apply each step once (any constant unique to this program).
const MIGRATION_LOCK: i64 = 0x6368_6573_7370_6c78; // "chessplx"

/// The PostgreSQL store: cheap to clone; the writer task stops when the
/// last clone is dropped.
#[derive(Clone)]
pub(super) struct PgStore {
    pool: Pool,
    jobs_tx: mpsc::UnboundedSender<Job>,
    counters: std::sync::Arc<Counters>,
}

impl std::fmt::Debug for PgStore {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PgStore").finish_non_exhaustive()
    }
}

/// `url` with its password (if any) replaced by `***`, to name the
/// database in errors and logs.
pub(super) fn redact(url: &str) -> String {
    let Some((scheme, rest)) = url.split_once("://") else {
        return url.to_owned();
    };
    let authority_end = rest.find(['/', '?']).unwrap_or(rest.len());
    let (authority, tail) = rest.split_at(authority_end);
    match authority.rsplit_once('@') {
        Some((userinfo, host)) => match userinfo.split_once(':') {
            Some((user, _password)) => format!("{scheme}://{user}:***@{host}{tail}"),
            None => url.to_owned(),
        },
        None => url.to_owned(),
    }
}

impl PgStore {
    pub(super) async fn open(url: &str) -> Result<Self, StoreError> {
        let open_err = |message: String| StoreError::Open {
            path: redact(url),
            source: message.into(),
        };
        let mut config: tokio_postgres::Config = url
            .parse()
            .map_err(|e: tokio_postgres::Error| open_err(error_chain(&e)))?;
        if config.get_connect_timeout().is_none() {
            config.connect_timeout(CONNECT_TIMEOUT);
        }
        let manager = Manager::from_config(
            config,
            NoTls,
            ManagerConfig {
                recycling_method: RecyclingMethod::Fast,
            },
        );
        let pool = Pool::builder(manager)
            .max_size(POOL_SIZE)
            .runtime(Runtime::Tokio1)
            .create_timeout(Some(CONNECT_TIMEOUT))
            .wait_timeout(Some(WAIT_TIMEOUT))
            .build()
            .map_err(|e| open_err(error_chain(&e)))?;
        let mut client = pool.get().await.map_err(|e| open_err(error_chain(&e)))?;
        migrate(&mut client)
            .await
            .map_err(|e| open_err(error_chain(&e)))?;
        drop(client);
        let (jobs_tx, jobs_rx) = mpsc::unbounded_channel();
        let counters = std::sync::Arc::new(Counters::default());
        tokio::spawn(writer_loop(
            pool.clone(),
            jobs_rx,
            std::sync::Arc::clone(&counters),
        ));
        Ok(Self {
            pool,
            jobs_tx,
            counters,
        })
    }

    pub(super) async fn write(&self, ops: Vec<WriteOp>) -> Result<(), StoreError> {
        let (reply, done) = oneshot::channel();
        self.jobs_tx
            .send(Job { ops, reply })
            .map_err(|_| StoreError::Closed)?;
        done.await.map_err(|_| StoreError::Closed)?
    }

    pub(super) fn pool(&self) -> &Pool {
        &self.pool
    }

    pub(super) fn stats(&self) -> StoreStats {
        self.counters.snapshot()
    }

    pub(super) async fn load_room(&self, id: &str) -> Result<Option<RoomRecord>, StoreError> {
        let mut client = self.pool.get().await?;
        // One snapshot for the three queries: a move committed between
        // them cannot show in `moves` without its `v` in `rooms`.
        let tx = client
            .build_transaction()
            .isolation_level(IsolationLevel::RepeatableRead)
            .read_only(true)
            .start()
            .await?;
        let query = format!("SELECT {ROOM_COLUMNS} FROM rooms WHERE id = $1");
        let Some(r) = tx
            .query_opt(&tx.prepare_cached(&query).await?, &[&id])
            .await?
        else {
            return Ok(None);
        };
        let room = RoomRow {
            variant: r.try_get(0)?,
            start_fen: r.try_get(1)?,
            clock_initial: r.try_get(2)?,
            clock_increment: r.try_get(3)?,
            public: r.try_get(4)?,
            invite_hash: r.try_get(5)?,
            state: r.try_get(6)?,
            winner: r.try_get(7)?,
            reason: r.try_get(8)?,
            v: r.try_get(9)?,
            offers: r.try_get(10)?,
            rematch_id: r.try_get(11)?,
            created_at: r.try_get(12)?,
            lobby_invite: r.try_get(13)?,
        };
        let seat_query = tx
            .prepare_cached("SELECT color, token_hash, ai_level FROM seats WHERE room_id = $1")
            .await?;
        let mut seats = Vec::new();
        for r in tx.query(&seat_query, &[&id]).await? {
            seats.push(SeatRow {
                color: r.try_get(0)?,
                token_hash: r.try_get(1)?,
                ai_level: r.try_get::<_, Option<i16>>(2)?.map(i64::from),
            });
        }
        let move_query = tx
            .prepare_cached(
                "SELECT ply, uci, white_ms, black_ms, played_at, v FROM moves
                 WHERE room_id = $1 ORDER BY ply",
            )
            .await?;
        let mut moves = Vec::new();
        for r in tx.query(&move_query, &[&id]).await? {
            moves.push(MoveRow {
                ply: r.try_get(0)?,
                uci: r.try_get(1)?,
                white_ms: r.try_get(2)?,
                black_ms: r.try_get(3)?,
                played_at: r.try_get(4)?,
                v: r.try_get(5)?,
            });
        }
        tx.commit().await?;
        build_record(id, room, seats, moves).map(Some)
    }

    pub(super) async fn unfinished_rooms(&self) -> Result<Vec<String>, StoreError> {
        let client = self.pool.get().await?;
        let stmt = client
            .prepare_cached("SELECT id FROM rooms WHERE state != 'finished' ORDER BY created_at")
            .await?;
        let rows = client.query(&stmt, &[]).await?;
        rows.iter()
            .map(|r| r.try_get::<_, String>(0).map_err(StoreError::from))
            .collect()
    }
}

/// Applies the steps of [`MIGRATIONS`] not yet applied, all in one
/// transaction under an advisory lock: a node that starts while another
/// migrates waits, then finds the steps done.
async fn migrate(client: &mut Object) -> Result<(), tokio_postgres::Error> {
    let tx = client.transaction().await?;
    tx.execute("SELECT pg_advisory_xact_lock($1)", &[&MIGRATION_LOCK])
        .await?;
    tx.batch_execute("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)")
        .await?;
    let done: i32 = match tx
        .query_opt("SELECT version FROM schema_version", &[])
        .await?
    {
        Some(row) => row.try_get(0)?,
        None => {
            tx.execute("INSERT INTO schema_version (version) VALUES (0)", &[])
                .await?;
            0
        }
    };
    let done = usize::try_from(done).unwrap_or(0);
    for (i, step) in MIGRATIONS.iter().enumerate().skip(done) {
        tx.batch_execute(step.postgres).await?;
        let version = i32::try_from(i + 1).unwrap_or(i32::MAX);
        tx.execute("UPDATE schema_version SET version = $1", &[&version])
            .await?;
    }
    tx.commit().await
}

/// Takes every pending job into one transaction, commits once, then
/// answers each job.
async fn writer_loop(
    pool: Pool,
    mut rx: mpsc::UnboundedReceiver<Job>,
    counters: std::sync::Arc<Counters>,
) {
    while let Some(first) = rx.recv().await {
        let mut batch = vec![first];
        while batch.len() < MAX_BATCH {
            match rx.try_recv() {
                Ok(job) => batch.push(job),
                Err(_) => break,
            }
        }
        let results = run_batch(&pool, &batch).await;
        counters.record(&results);
        for (job, result) in batch.into_iter().zip(results) {
            // The room may have gone away meanwhile; nothing to tell then.
            let _ignored = job.reply.send(result);
        }
    }
}

/// One transaction for `batch`. The usual case, every job succeeding, runs
/// the jobs straight in the transaction: savepoints are subtransactions in
/// PostgreSQL, and more than 64 in one transaction overflow the per-backend
/// cache and slow every snapshot in the cluster. Only when a statement
/// fails is the batch rolled back and run again with a savepoint per job,
/// so the failing job is dropped alone (as in `sqlite.rs`).
///
/// A connection is taken from the pool per batch: after a lost connection
/// the pool opens a new one, so the writer recovers when the server is
/// back.
async fn run_batch(pool: &Pool, batch: &[Job]) -> Vec<Result<(), StoreError>> {
    let fail_all = |e: &dyn std::error::Error| {
        let message = error_chain(e);
        tracing::error!(error = %message, jobs = batch.len(), "store batch failed");
        batch
            .iter()
            .map(|_| Err(StoreError::Commit(message.clone())))
            .collect()
    };
    let mut client = match pool.get().await {
        Ok(c) => c,
        Err(e) => return fail_all(&e),
    };
    match run_whole(&mut client, batch).await {
        Ok(Ok(())) => return batch.iter().map(|_| Ok(())).collect(),
        Ok(Err(_failed_statement)) => {}
        Err(e) => return fail_all(&e),
    }
    match run_with_savepoints(&mut client, batch).await {
        Ok(results) => results,
        Err(e) => fail_all(&e),
    }
}

/// Begins a write transaction that commits durably (see the module doc).
async fn begin(
    client: &mut Object,
) -> Result<deadpool_postgres::Transaction<'_>, tokio_postgres::Error> {
    let tx = client.transaction().await?;
    tx.batch_execute("SET LOCAL synchronous_commit = on")
        .await?;
    Ok(tx)
}

/// Every job of `batch` in one transaction without savepoints. The outer
/// error is a failed BEGIN or COMMIT (nothing applied, the batch fails);
/// the inner one a failed statement (rolled back, the batch is retried
/// job by job).
async fn run_whole(
    client: &mut Object,
    batch: &[Job],
) -> Result<Result<(), StoreError>, tokio_postgres::Error> {
    let tx = begin(client).await?;
    if let Err(e) = lock_fences(&tx, batch).await {
        tx.rollback().await?;
        return Ok(Err(e));
    }
    for job in batch {
        for op in &job.ops {
            if let Err(e) = apply(&tx, op).await {
                tx.rollback().await?;
                return Ok(Err(e));
            }
        }
    }
    tx.commit().await.map(Ok)
}

/// Every job of `batch` in its own savepoint of one transaction: a job
/// that fails is rolled back alone, the others commit. The error is a
/// failure of the transaction itself (nothing applied).
async fn run_with_savepoints(
    client: &mut Object,
    batch: &[Job],
) -> Result<Vec<Result<(), StoreError>>, tokio_postgres::Error> {
    let mut tx = begin(client).await?;
    // A failure here fails each job's own fence check below instead.
    let _first = lock_fences(&tx, batch).await;
    let mut results = Vec::with_capacity(batch.len());
    for job in batch {
        let sp = tx.savepoint("job").await?;
        let mut result = Ok(());
        for op in &job.ops {
            result = apply(&sp, op).await;
            if result.is_err() {
                break;
            }
        }
        match result {
            Ok(()) => sp.commit().await?,
            Err(_) => sp.rollback().await?,
        }
        results.push(result);
    }
    tx.commit().await?;
    Ok(results)
}

/// Runs one statement (prepared once per connection).
async fn exec(
    tx: &deadpool_postgres::Transaction<'_>,
    sql: &str,
    params: &[&(dyn ToSql + Sync)],
) -> Result<(), tokio_postgres::Error> {
    let stmt = tx.prepare_cached(sql).await?;
    tx.execute(&stmt, params).await?;
    Ok(())
}

/// The PostgreSQL text of each [`WriteOp`], as in `sqlite.rs`.
async fn apply(tx: &deadpool_postgres::Transaction<'_>, op: &WriteOp) -> Result<(), StoreError> {
    let now = now_ms();
    match op {
        WriteOp::Fence { room, node, epoch } => fence(tx, room, node, *epoch).await?,
        WriteOp::CreateRoom(room) => create_room(tx, room).await?,
        WriteOp::ClaimSeat {
            room,
            color,
            token_hash,
            v,
        } => {
            exec(
                tx,
                "UPDATE seats SET token_hash = $3 WHERE room_id = $1 AND color = $2",
                &[room, &color_name(*color), token_hash],
            )
            .await?;
            exec(
                tx,
                "UPDATE rooms SET invite_hash = NULL, lobby_invite = NULL, state = 'playing',
                    v = $2, updated_at = $3 WHERE id = $1",
                &[room, &to_i64(*v), &now],
            )
            .await?;
        }
        // Only the move's row, as in `sqlite.rs`: one row written and no
        // room row locked or rewritten per move.
        WriteOp::Move { room, record } => insert_move(tx, room, record).await?,
        WriteOp::Takeback { room, keep, v } => {
            exec(
                tx,
                "DELETE FROM moves WHERE room_id = $1 AND ply >= $2",
                &[room, &i64::from(*keep)],
            )
            .await?;
            exec(
                tx,
                "UPDATE rooms SET v = $2, offers = '', updated_at = $3 WHERE id = $1",
                &[room, &to_i64(*v), &now],
            )
            .await?;
        }
        WriteOp::Finish { room, result, v } => {
            exec(
                tx,
                "UPDATE rooms SET state = 'finished', winner = $2, reason = $3, v = $4,
                    offers = '', invite_hash = NULL, lobby_invite = NULL, updated_at = $5
                 WHERE id = $1",
                &[
                    room,
                    &result.winner.map(color_name),
                    &result.reason,
                    &to_i64(*v),
                    &now,
                ],
            )
            .await?;
        }
        WriteOp::Event { room, offers, v } => {
            exec(
                tx,
                "UPDATE rooms SET v = $2, offers = $3, updated_at = $4 WHERE id = $1",
                &[room, &to_i64(*v), offers, &now],
            )
            .await?;
        }
        WriteOp::Rematch {
            room,
            rematch_id,
            v,
        } => {
            exec(
                tx,
                "UPDATE rooms SET rematch_id = $2, v = $3, offers = '', updated_at = $4
                 WHERE id = $1",
                &[room, rematch_id, &to_i64(*v), &now],
            )
            .await?;
        }
    }
    Ok(())
}

/// Refuses the batch's writes of a room unless this node still holds its
/// lease at `epoch`: the check runs inside the write's own transaction and
/// takes a share lock on the lease row, so a node that lost the room (a
/// paused process whose lease another node took) cannot commit.
async fn fence(
    tx: &deadpool_postgres::Transaction<'_>,
    room: &str,
    node: &str,
    epoch: i64,
) -> Result<(), StoreError> {
    let stmt = tx
        .prepare_cached(
            "SELECT 1 FROM room_leases WHERE room_id = $1 AND node = $2 AND epoch = $3
             FOR SHARE",
        )
        .await?;
    if tx
        .query_opt(&stmt, &[&room, &node, &epoch])
        .await?
        .is_none()
    {
        return Err(StoreError::Fenced {
            room: room.to_owned(),
            epoch,
        });
    }

    Ok(())
}

/// Share-locks the lease rows of every room the batch fences, in room
/// order, before any job runs. The jobs come in arrival order, and the
/// lease renewal locks its node's rows in one statement: locking in two
/// orders, a batch and a renewal deadlocked, and PostgreSQL broke the tie
/// only after its deadlock timeout (1 s), one move in a hundred at 1,000
/// moves/s. The renewal locks in room order too, so neither waits for
/// more than the other's commit. Each job's [`fence`] still checks its
/// epoch (the row is then already locked).
async fn lock_fences(
    tx: &deadpool_postgres::Transaction<'_>,
    batch: &[Job],
) -> Result<(), StoreError> {
    let mut rooms: Vec<&str> = batch
        .iter()
        .flat_map(|job| &job.ops)
        .filter_map(|op| match op {
            WriteOp::Fence { room, .. } => Some(room.as_str()),
            _ => None,
        })
        .collect();
    if rooms.is_empty() {
        return Ok(());
    }
    rooms.sort_unstable();
    rooms.dedup();
    let stmt = tx
        .prepare_cached(
            "SELECT 1 FROM room_leases WHERE room_id = ANY($1) ORDER BY room_id FOR SHARE",
        )
        .await?;
    tx.execute(&stmt, &[&rooms]).await?;
    Ok(())
}

/// Inserts a new room, its two seats and the moves it is created with.
/// Apart from `apply` so that no function passes 100 lines.
async fn create_room(
    tx: &deadpool_postgres::Transaction<'_>,
    room: &RoomRecord,
) -> Result<(), StoreError> {
    let winner = room.result.as_ref().and_then(|r| r.winner).map(color_name);
    let reason = room.result.as_ref().map(|r| r.reason.as_str());
    exec(
        tx,
        "INSERT INTO rooms (id, variant, start_fen, clock_initial_ms, clock_increment_ms,
            public, invite_hash, lobby_invite, state, winner, reason, v, offers,
            rematch_id, created_at, updated_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $15)",
        &[
            &room.id,
            &room.variant.name(),
            &room.start_fen,
            &room.clock.map(|c| to_i64(c.initial)),
            &room.clock.map(|c| to_i64(c.increment)),
            &room.public,
            &room.invite_hash,
            &room.lobby_invite,
            &room.state.name(),
            &winner,
            &reason,
            &to_i64(room.v),
            &room.offers,
            &room.rematch_id,
            &to_i64(room.created_at),
        ],
    )
    .await?;
    for color in [
        chessplayx_rules::Color::White,
        chessplayx_rules::Color::Black,
    ] {
        let seat = room.seats.get(color);
        exec(
            tx,
            "INSERT INTO seats (room_id, color, token_hash, ai_level)
             VALUES ($1, $2, $3, $4)",
            &[
                &room.id,
                &color_name(color),
                &seat.token_hash,
                &seat.ai_level.map(i16::from),
            ],
        )
        .await?;
    }
    for m in &room.moves {
        insert_move(tx, &room.id, m).await?;
    }

    Ok(())
}

async fn insert_move(
    tx: &deadpool_postgres::Transaction<'_>,
    room: &str,
    m: &MoveRecord,
) -> Result<(), tokio_postgres::Error> {
    exec(
        tx,
        "INSERT INTO moves (room_id, ply, uci, white_ms, black_ms, played_at, v)
         VALUES ($1, $2, $3, $4, $5, $6, $7)",
        &[
            &room,
            &i64::from(m.ply),
            &m.uci,
            &m.clock.map(|c| to_i64(c.white)),
            &m.clock.map(|c| to_i64(c.black)),
            &to_i64(m.played_at),
            &to_i64(m.v),
        ],
    )
    .await
}

#[cfg(test)]
mod tests {
    use super::redact;

    #[test]
    fn a_password_is_hidden_and_the_rest_kept() {
        assert_eq!(
            redact("postgres://app:s3cret@db.example:5433/games?sslmode=disable"),
            "postgres://app:***@db.example:5433/games?sslmode=disable"
        );
        assert_eq!(
            redact("postgres://app@127.0.0.1:5432/games"),
            "postgres://app@127.0.0.1:5432/games"
        );
        assert_eq!(redact("postgresql://h/db"), "postgresql://h/db");
    }
}
