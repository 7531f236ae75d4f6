//! Several nodes sharing one PostgreSQL database and one NATS bus
//! (docs/scaling.md).
//!
//! - **Ownership** is a lease per room in the database (`store/leases.rs`):
//!   a node takes a room when nobody holds it, renews all its leases in
//!   one statement every [`RENEW_EVERY`], and every write of the room
//!   carries the lease's epoch ([`crate::store::WriteOp::Fence`]), so a
//!   node that lost a room (paused past its lease) cannot write it.
//! - **Any node serves any room**: a node asked for a room another live
//!   node holds relays the connection to it over NATS (`relay.rs`); a
//!   room nobody holds is taken by the node asked.
//! - **Orphans**: every node sweeps for rooms whose owner died and in
//!   which a clock runs or an AI must move, and runs them (`sweep.rs`).
//! - **The lobby** of each node merges what the others publish on the bus
//!   (`lobby.rs` at the crate root).
//!
//! Nothing here is used by a single node (no `--bus`).

pub(crate) mod relay;
pub(crate) mod sweep;

use std::{sync::Arc, time::Duration};

use crate::{
    config::NodeId,
    room::{Registry, RoomCmd},
    state::Shared,
    store::StoreError,
};

/// How long a lease lasts without renewal. A killed node's rooms can be
/// taken this long after its last renewal, so failover takes at most
/// about this long plus [`RENEW_EVERY`].
pub(crate) const LEASE_TTL: Duration = Duration::from_secs(6);

/// How often a node renews its leases: three times per lease, so one
/// slow or failed renewal does not lose the rooms.
pub(crate) const RENEW_EVERY: Duration = Duration::from_secs(2);

/// Why the bus could not be joined at start-up.
#[derive(Debug, thiserror::Error)]
pub enum BusError {
    /// Connecting to the NATS server failed.
    #[error("connecting to the bus {url}: {source}")]
    Connect {
        /// The bus URL.
        url: String,
        /// What the client said.
        source: async_nats::ConnectError,
    },
    /// Subscribing to this node's subjects failed.
    #[error("subscribing on the bus {url}: {source}")]
    Subscribe {
        /// The bus URL.
        url: String,
        /// What the client said.
        source: async_nats::SubscribeError,
    },
    /// The bus needs a database shared by the nodes.
    #[error("--bus needs a postgres:// --db shared by the nodes, got {0}")]
    NeedsPostgres(String),
}

/// This node's place among the others.
#[derive(Debug)]
pub(crate) struct Cluster {
    /// This node's name.
    pub(crate) node: NodeId,
    /// The bus.
    pub(crate) nats: async_nats::Client,
}

/// Connects to the NATS server at `url` (at most five seconds), failing
/// with the URL named.
pub(crate) async fn connect(url: &str, node: &NodeId) -> Result<async_nats::Client, BusError> {
    async_nats::ConnectOptions::new()
        .name(format!("chessplayx {node}"))
        .connection_timeout(Duration::from_secs(5))
        .connect(url)
        .await
        .map_err(|source| BusError::Connect {
            url: url.to_owned(),
            source,
        })
}

/// The subject prefix of requests to `node`.
pub(crate) fn node_subject(node: &str, what: &str) -> String {
    format!("cpx.node.{node}.{what}")
}

/// Renews this node's leases every [`RENEW_EVERY`] and stops the rooms
/// whose lease it lost, for as long as the server runs.
pub(crate) async fn renew_loop(shared: std::sync::Weak<Shared>) {
    let mut tick = tokio::time::interval(RENEW_EVERY);
    tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        tick.tick().await;
        let Some(shared) = shared.upgrade() else {
            return;
        };
        if let Err(e) = renew_once(&shared).await {
            tracing::warn!(error = %e, "renewing room leases");
        }
    }
}

/// One renewal: extends the leases of the rooms in memory and tells each
/// room whose lease is gone (or has another epoch) to stop.
async fn renew_once(shared: &Arc<Shared>) -> Result<(), StoreError> {
    let Some(cluster) = &shared.cluster else {
        return Ok(());
    };
    let held = shared.registry.leased();
    if held.is_empty() {
        return Ok(());
    }
    let ids: Vec<String> = held.iter().map(|(id, _, _)| id.clone()).collect();
    let kept = shared
        .store
        .renew_leases(cluster.node.as_str(), &ids, LEASE_TTL)
        .await?;
    for (id, epoch, handle) in held {
        if !kept.iter().any(|(k, e)| *k == id && *e == epoch) {
            tracing::warn!(room = %id, epoch, "lease lost: stopping the room here");
            Registry::forget(shared, &id, &handle);
            let _gone = handle.send(RoomCmd::LeaseLost).await;
        }
    }
    Ok(())
}

/// How long a request waits for a room whose owner does not answer: its
/// lease must expire (at most [`LEASE_TTL`] after its last renewal) before
/// this node can take it.
pub(crate) const FAILOVER_WAIT: Duration = Duration::from_secs(12);

/// Finds room `id`: its handle when this node runs it (taking it if
/// nobody holds it), else what `remote` gets from the node holding it.
/// While that node does not answer (it died or is paused and its lease
/// has not expired yet), or the room is moving, tries again for up to
/// [`FAILOVER_WAIT`]. `Ok(None)`: no such room.
pub(crate) async fn find<T, F, Fut>(
    shared: &Arc<Shared>,
    id: &str,
    mut remote: F,
) -> Result<Option<Found<T>>, crate::error::ApiError>
where
    F: FnMut(String) -> Fut,
    Fut: std::future::Future<Output = Result<T, relay::AskError>>,
{
    use crate::{error::ApiError, room::RoomLoadError};
    let deadline = tokio::time::Instant::now() + FAILOVER_WAIT;
    loop {
        match Registry::get(shared, id).await {
            Ok(Some(handle)) => return Ok(Some(Found::Here(handle))),
            Ok(None) => return Ok(None),
            Err(RoomLoadError::Elsewhere { node, .. }) => match remote(node).await {
                Ok(t) => return Ok(Some(Found::There(t))),
                Err(relay::AskError::NoRoom) => return Ok(None),
                Err(e) => tracing::debug!(room = %id, error = %e, "room's node not answering"),
            },
            Err(RoomLoadError::Store(e)) => return Err(e.into()),
            Err(e) => return Err(ApiError::Internal(e.to_string())),
        }
        if tokio::time::Instant::now() >= deadline {
            return Err(ApiError::Internal(format!(
                "the node holding room {id} does not answer; try again"
            )));
        }
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
}

/// The summary of room `id` (`GET /api/rooms/{id}`) on a cluster node,
/// without taking the room over: from this node's actor when it runs the
/// room, else from the lease holder over the bus, else (nobody holds it,
/// or the holder does not answer) from the database, its `node` the
/// holder of the unexpired lease or `null`. So a summary never moves a
/// room, and `null` shows while a dead node's room waits for the sweep.
/// `Ok(None)`: no such room.
pub(crate) async fn summary(
    shared: &Arc<Shared>,
    id: &str,
) -> Result<Option<serde_json::Value>, crate::error::ApiError> {
    use crate::error::ApiError;
    let Some(cluster) = &shared.cluster else {
        return Err(ApiError::Internal("not in a cluster".to_owned()));
    };
    let json = |s| serde_json::to_value(s).map_err(|e| ApiError::Internal(e.to_string()));
    // A room retiring at this instant answers no more: the store does.
    if let Some(handle) = shared.registry.running(id)
        && let Ok(s) = handle.summary().await
    {
        return json(s).map(Some);
    }
    let mut holder = shared.store.lease_holder(id).await?;
    if let Some(node) = holder.as_deref().filter(|n| *n != cluster.node.as_str()) {
        match relay::summary(cluster, node, id).await {
            Ok(answer) => return Ok(Some(answer)),
            Err(relay::AskError::NoRoom) => return Ok(None),
            Err(e) => {
                tracing::debug!(room = %id, error = %e, "summary from the database instead");
                holder = shared.store.lease_holder(id).await?;
            }
        }
    }
    let Some(record) = shared.store.load_room(id).await? else {
        return Ok(None);
    };
    let summary = crate::room::stored_summary(&record, holder)
        .map_err(|e| ApiError::Internal(e.to_string()))?;
    json(summary).map(Some)
}

/// Where [`find`] found a room.
#[derive(Debug)]
pub(crate) enum Found<T> {
    /// On this node.
    Here(crate::room::RoomHandle),
    /// On another node, which answered this.
    There(T),
}
