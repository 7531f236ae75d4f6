//! The orphan sweep: every node looks in the database, about once per
//! renewal period, for rooms whose owner died (their lease expired without
//! being given back) and in which something must happen with nobody
//! connected — a clock running, an AI to move — and runs them itself.
//! Without it such a room waited for the next request: its clock did not
//! fall and its AI did not move while nobody asked (docs/scaling.md,
//! "Failover").
//!
//! **Spreading the work.** Each sweep is one statement taking at most
//! [`SWEEP_BATCH`] orphans with `FOR UPDATE SKIP LOCKED`
//! ([`crate::store::Store::sweep_orphans`]): the database decides who gets
//! which room, so no node needs the others' view of who is alive (hashing
//! rooms over the live nodes of the lobby would leave a room to a node
//! that another node already thinks dead, or to nobody while views
//! differ). Sweeps are jittered, so the nodes rarely sweep at the same
//! moment; a node that got a full batch sweeps again soon, and the others
//! take their share in between. Where a room lands matters little: any
//! node relays to it.

use std::{sync::Arc, time::Duration};

use rand::Rng as _;

use super::{LEASE_TTL, RENEW_EVERY};
use crate::{room::Registry, state::Shared, store::StoreError};

/// The most orphans one sweep takes (and then loads, one after the other).
pub(crate) const SWEEP_BATCH: u32 = 64;

/// The pause before the next sweep after a full batch: more orphans may
/// wait, and the other nodes sweep in between.
const AGAIN_AFTER_FULL: Duration = Duration::from_millis(250);

/// Sweeps for orphans, about every [`RENEW_EVERY`] (±25 %, so the nodes
/// drift apart), for as long as the server runs.
pub(crate) async fn sweep_loop(shared: std::sync::Weak<Shared>) {
    let mut pause = jittered();
    loop {
        tokio::time::sleep(pause).await;
        let Some(shared) = shared.upgrade() else {
            return;
        };
        pause = match sweep_once(&shared).await {
            Ok(taken) if taken >= SWEEP_BATCH as usize => AGAIN_AFTER_FULL,
            Ok(_) => jittered(),
            Err(e) => {
                tracing::warn!(error = %e, "sweeping for orphaned rooms");
                jittered()
            }
        };
    }
}

fn jittered() -> Duration {
    RENEW_EVERY.mul_f64(rand::rng().random_range(0.75..1.25))
}

/// One sweep: takes a batch of orphans and starts each. Returns how many
/// leases it took.
async fn sweep_once(shared: &Arc<Shared>) -> Result<usize, StoreError> {
    let Some(cluster) = &shared.cluster else {
        return Ok(0);
    };
    let held: Vec<String> = shared
        .registry
        .leased()
        .into_iter()
        .map(|(id, _, _)| id)
        .collect();
    let taken = shared
        .store
        .sweep_orphans(cluster.node.as_str(), &held, LEASE_TTL, SWEEP_BATCH)
        .await?;
    for (id, epoch) in &taken {
        match Registry::adopt_orphan(shared, id, *epoch).await {
            Ok(true) => tracing::info!(room = %id, epoch, "orphaned room adopted"),
            Ok(false) => {}
            // A store error leaves the lease to expire: a later sweep
            // tries again.
            Err(e) => tracing::warn!(room = %id, error = %e, "adopting an orphaned room"),
        }
    }
    Ok(taken.len())
}
