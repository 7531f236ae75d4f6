//! Room leases and the shared room-creation limit: the two things nodes
//! sharing one PostgreSQL database must agree on (docs/scaling.md).
//!
//! Every time is taken from the database's clock (`clock_timestamp()`),
//! never a node's: the nodes' clocks may disagree, the database's is one.
//! A lease row is never deleted, only expired, so a room's epoch only
//! grows and a write fenced with an old epoch stays refused forever.

use std::time::Duration;

use super::{Store, StoreError};

/// The database's clock in Unix milliseconds, as SQL.
const DB_NOW_MS: &str = "(extract(epoch FROM clock_timestamp()) * 1000)::bigint";

/// What [`Store::acquire_lease`] found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Acquired {
    /// This node holds the room now, under this epoch (its writes must
    /// carry it, see [`crate::WriteOp::Fence`]).
    Taken {
        /// The lease's epoch.
        epoch: i64,
    },
    /// Another node holds an unexpired lease.
    HeldBy {
        /// Its name.
        node: String,
    },
    /// There is no such room.
    NoRoom,
}

fn millis(d: Duration) -> i64 {
    i64::try_from(d.as_millis()).unwrap_or(i64::MAX)
}

impl Store {
    /// Takes room `id` for `node` for `ttl` when nobody holds it (no lease,
    /// or an expired one), bumping the epoch. A node taking a room its own
    /// name still holds (it restarted) bumps the epoch too: the process
    /// that held it before cannot write again.
    ///
    /// # Errors
    ///
    /// A failed query, or [`StoreError::NotShared`] on SQLite.
    pub async fn acquire_lease(
        &self,
        id: &str,
        node: &str,
        ttl: Duration,
    ) -> Result<Acquired, StoreError> {
        let client = self.shared_pool()?.get().await?;
        let take = format!(
            "INSERT INTO room_leases (room_id, node, epoch, expires_at)
             SELECT $1, $2, 1, {DB_NOW_MS} + $3 WHERE EXISTS (SELECT 1 FROM rooms WHERE id = $1)
             ON CONFLICT (room_id) DO UPDATE
                SET node = EXCLUDED.node, epoch = room_leases.epoch + 1,
                    expires_at = EXCLUDED.expires_at, released = FALSE
                WHERE room_leases.expires_at < {DB_NOW_MS} OR room_leases.node = EXCLUDED.node
             RETURNING epoch"
        );
        let stmt = client.prepare_cached(&take).await?;
        let who = client
            .prepare_cached(&format!(
                "SELECT l.node, l.expires_at >= {DB_NOW_MS}
                 FROM rooms r LEFT JOIN room_leases l ON l.room_id = r.id WHERE r.id = $1"
            ))
            .await?;
        // The lease may expire between the two statements: then try again.
        loop {
            if let Some(row) = client.query_opt(&stmt, &[&id, &node, &millis(ttl)]).await? {
                return Ok(Acquired::Taken {
                    epoch: row.try_get(0)?,
                });
            }
            let Some(row) = client.query_opt(&who, &[&id]).await? else {
                return Ok(Acquired::NoRoom);
            };
            if let (Some(node), Some(true)) = (
                row.try_get::<_, Option<String>>(0)?,
                row.try_get::<_, Option<bool>>(1)?,
            ) {
                return Ok(Acquired::HeldBy { node });
            }
        }
    }

    /// The node holding an unexpired lease on room `id`, if any.
    ///
    /// # Errors
    ///
    /// A failed query, or [`StoreError::NotShared`] on SQLite.
    pub async fn lease_holder(&self, id: &str) -> Result<Option<String>, StoreError> {
        let client = self.shared_pool()?.get().await?;
        let stmt = client
            .prepare_cached(&format!(
                "SELECT node FROM room_leases WHERE room_id = $1 AND expires_at >= {DB_NOW_MS}"
            ))
            .await?;
        Ok(match client.query_opt(&stmt, &[&id]).await? {
            Some(row) => Some(row.try_get(0)?),
            None => None,
        })
    }

    /// Extends, in one statement, the leases `node` holds on the rooms
    /// `ids` to `ttl` from now, and returns those rooms with their epochs.
    /// A room missing from the answer, or with another epoch, was lost:
    /// another node (or this node's name in a newer process) took it while
    /// this one was paused. An expired lease nobody took is extended (even
    /// one the sweep gave back meanwhile, see [`Store::sweep_orphans`]):
    /// its epoch proves nobody else wrote the room meanwhile.
    ///
    /// # Errors
    ///
    /// A failed query, or [`StoreError::NotShared`] on SQLite.
    pub async fn renew_leases(
        &self,
        node: &str,
        ids: &[String],
        ttl: Duration,
    ) -> Result<Vec<(String, i64)>, StoreError> {
        let client = self.shared_pool()?.get().await?;
        let stmt = client
            .prepare_cached(&format!(
                // Rows locked in room order, as a write batch locks its
                // fences (`postgres::lock_fences`): locked in any other
                // order, a renewal and a batch deadlocked and PostgreSQL
                // broke the tie only after its 1 s deadlock timeout, so
                // one move in a hundred took a second.
                "WITH mine AS (
                    SELECT room_id FROM room_leases
                    WHERE node = $1 AND room_id = ANY($3)
                    ORDER BY room_id
                    FOR UPDATE
                 )
                 UPDATE room_leases l SET expires_at = {DB_NOW_MS} + $2, released = FALSE
                 FROM mine WHERE l.room_id = mine.room_id
                 RETURNING l.room_id, l.epoch"
            ))
            .await?;
        client
            .query(&stmt, &[&node, &millis(ttl), &ids])
            .await?
            .iter()
            .map(|r| Ok((r.try_get(0)?, r.try_get(1)?)))
            .collect()
    }

    /// Gives up room `id` (its actor retired): the lease expires now and
    /// is marked given back (the sweep leaves it alone), if it is still
    /// `node`'s at `epoch`. The row stays, so the next epoch is higher.
    ///
    /// # Errors
    ///
    /// A failed query, or [`StoreError::NotShared`] on SQLite.
    pub async fn release_lease(&self, id: &str, node: &str, epoch: i64) -> Result<(), StoreError> {
        let client = self.shared_pool()?.get().await?;
        let stmt = client
            .prepare_cached(&format!(
                "UPDATE room_leases SET expires_at = {DB_NOW_MS} - 1, released = TRUE
                 WHERE room_id = $1 AND node = $2 AND epoch = $3"
            ))
            .await?;
        client.execute(&stmt, &[&id, &node, &epoch]).await?;
        Ok(())
    }

    /// The orphan sweep's one statement: looks at up to `limit` leases
    /// that expired without being given back (their node died or
    /// stalled), oldest first, skipping rows another node's sweep or
    /// take-over has locked (`FOR UPDATE SKIP LOCKED`, so concurrent sweeps
    /// split the orphans instead of queueing on them), and leaving out the
    /// rooms `held` that `node` runs itself. Of those rooms:
    ///
    /// - the ones in which something must happen with nobody connected —
    ///   a game whose clock runs (playing, with a clock, both sides have
    ///   moved) or a game with an AI seat — are taken for `node` for
    ///   `ttl` with a bumped epoch, and returned with their epochs: the
    ///   caller loads them;
    /// - the others (finished, waiting for a player, or a game without a
    ///   clock or AI) are marked given back, as if they had retired: the
    ///   next request for one takes it, and no sweep looks at it again.
    ///
    /// # Errors
    ///
    /// A failed query, or [`StoreError::NotShared`] on SQLite.
    pub async fn sweep_orphans(
        &self,
        node: &str,
        held: &[String],
        ttl: Duration,
        limit: u32,
    ) -> Result<Vec<(String, i64)>, StoreError> {
        let client = self.shared_pool()?.get().await?;
        // `needed` covers every room the actor would not retire with
        // nobody connected (a running clock, an AI on move), and a little
        // more (an AI room whose human is on move): such a room is loaded
        // once and retires after the idle time, as on a single node.
        let stmt = client
            .prepare_cached(&format!(
                "WITH orphans AS (
                    SELECT l.room_id,
                        r.state = 'playing' AND (
                            (r.clock_initial_ms IS NOT NULL AND EXISTS (
                                SELECT 1 FROM moves m WHERE m.room_id = r.id AND m.ply = 1))
                            OR EXISTS (
                                SELECT 1 FROM seats s
                                WHERE s.room_id = r.id AND s.ai_level IS NOT NULL)
                        ) AS needed
                    FROM room_leases l JOIN rooms r ON r.id = l.room_id
                    WHERE NOT l.released AND l.expires_at < {DB_NOW_MS}
                        AND NOT (l.node = $1 AND l.room_id = ANY($3))
                    ORDER BY l.expires_at
                    LIMIT $4
                    FOR UPDATE OF l SKIP LOCKED
                 ),
                 given_back AS (
                    UPDATE room_leases SET released = TRUE
                    FROM orphans o WHERE room_leases.room_id = o.room_id AND NOT o.needed
                 )
                 UPDATE room_leases
                 SET node = $1, epoch = room_leases.epoch + 1,
                     expires_at = {DB_NOW_MS} + $2, released = FALSE
                 FROM orphans o WHERE room_leases.room_id = o.room_id AND o.needed
                 RETURNING room_leases.room_id, room_leases.epoch"
            ))
            .await?;
        client
            .query(&stmt, &[&node, &millis(ttl), &held, &i64::from(limit)])
            .await?
            .iter()
            .map(|r| Ok((r.try_get(0)?, r.try_get(1)?)))
            .collect()
    }

    /// Takes one room-creation token of address `ip` from its bucket in
    /// the database (`per_minute` tokens a minute, burst as large), in one
    /// atomic statement: the nodes share the bucket. `Ok(Err(wait))` when
    /// the bucket is empty, with the time until the next token.
    ///
    /// # Errors
    ///
    /// A failed query, or [`StoreError::NotShared`] on SQLite.
    pub async fn take_room_token(
        &self,
        ip: &str,
        per_minute: u32,
    ) -> Result<Result<(), Duration>, StoreError> {
        let client = self.shared_pool()?.get().await?;
        let capacity = f64::from(per_minute);
        let per_ms = capacity / 60_000.0;
        // The refilled level; the row changes only when a token is there
        // to take, and the row lock orders concurrent takers.
        let level = format!(
            "LEAST($2::float8, room_rate.tokens
                + ({DB_NOW_MS} - room_rate.updated_at)::float8 * $3::float8)"
        );
        let stmt = client
            .prepare_cached(&format!(
                "INSERT INTO room_rate (ip, tokens, updated_at)
                 VALUES ($1, $2::float8 - 1, {DB_NOW_MS})
                 ON CONFLICT (ip) DO UPDATE
                    SET tokens = {level} - 1, updated_at = {DB_NOW_MS}
                    WHERE {level} >= 1
                 RETURNING tokens"
            ))
            .await?;
        if client
            .query_opt(&stmt, &[&ip, &capacity, &per_ms])
            .await?
            .is_some()
        {
            return Ok(Ok(()));
        }
        let stmt = client
            .prepare_cached(&format!(
                "SELECT tokens + ({DB_NOW_MS} - updated_at)::float8 * $2::float8
                 FROM room_rate WHERE ip = $1"
            ))
            .await?;
        let tokens: f64 = match client.query_opt(&stmt, &[&ip, &per_ms]).await? {
            Some(row) => row.try_get(0)?,
            None => 0.0,
        };
        let wait_ms = if per_ms > 0.0 {
            ((1.0 - tokens).max(0.0) / per_ms).min(3_600_000.0)
        } else {
            3_600_000.0
        };
        Ok(Err(Duration::from_secs_f64(wait_ms / 1000.0)))
    }
}
