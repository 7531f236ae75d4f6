//! Room id → handle, loading rooms from the store on first use. With
//! several nodes, loading a room first takes its lease (`cluster/`).

use std::{
    collections::HashMap,
    hash::{BuildHasher as _, RandomState},
    sync::{Arc, Mutex, MutexGuard},
};

use tokio::sync::mpsc;

use chessplayx_rules::AnyGame;

use super::{COMMAND_QUEUE, RoomHandle, RoomSummary, actor::RoomActor};
use crate::{
    cluster::LEASE_TTL,
    protocol::{EndReason, PlayerJson, RoomOutcome},
    state::Shared,
    store::{Acquired, RoomRecord, StoreError},
};

/// Loads of rooms in a cluster are serialised per shard of room ids, so
/// two requests for the same room on one node take its lease once (a
/// second take-over would bump the epoch under the first actor's feet).
const LOAD_SHARDS: usize = 64;

/// Why a room could not be brought into memory.
#[derive(Debug, thiserror::Error)]
pub(crate) enum RoomLoadError {
    /// The store failed.
    #[error(transparent)]
    Store(#[from] StoreError),
    /// Another node holds the room's lease (relay to it, or wait for the
    /// lease to expire).
    #[error("room {id} is held by node {node}")]
    Elsewhere {
        /// The room.
        id: String,
        /// The node holding it.
        node: String,
    },
    /// The stored game does not replay (a FEN or a move the rules now
    /// reject).
    #[error("room {id}: stored game does not replay: {reason}")]
    Replay {
        /// The room.
        id: String,
        /// What failed.
        reason: String,
    },
}

/// The rooms in memory. The lock is held only to look up or insert, never
/// across an await.
#[derive(Debug)]
pub(crate) struct Registry {
    rooms: Mutex<HashMap<String, Entry>>,
    loading: Vec<tokio::sync::Mutex<()>>,
    hasher: RandomState,
}

/// A room in memory, with the epoch of its lease in a cluster.
#[derive(Clone, Debug)]
struct Entry {
    handle: RoomHandle,
    epoch: Option<i64>,
}

impl Default for Registry {
    fn default() -> Self {
        Self {
            rooms: Mutex::default(),
            loading: (0..LOAD_SHARDS)
                .map(|_| tokio::sync::Mutex::new(()))
                .collect(),
            hasher: RandomState::new(),
        }
    }
}

impl Registry {
    fn lock(&self) -> MutexGuard<'_, HashMap<String, Entry>> {
        self.rooms
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// Rooms in memory.
    pub(crate) fn len(&self) -> usize {
        self.lock().len()
    }

    /// The room `id` if this node runs it now (never loads it).
    pub(crate) fn running(&self, id: &str) -> Option<RoomHandle> {
        self.lock().get(id).map(|e| e.handle.clone())
    }

    /// The shard lock serialising loads of room `id` on this node.
    fn loading(&self, id: &str) -> &tokio::sync::Mutex<()> {
        let shard = usize::try_from(self.hasher.hash_one(id) % LOAD_SHARDS as u64).unwrap_or(0);
        &self.loading[shard]
    }

    /// The room `id`, loading it from the store when it is not in memory;
    /// `None` when there is no such room.
    pub(crate) async fn get(
        shared: &Arc<Shared>,
        id: &str,
    ) -> Result<Option<RoomHandle>, RoomLoadError> {
        if let Some(entry) = shared.registry.lock().get(id) {
            return Ok(Some(entry.handle.clone()));
        }
        let Some(cluster) = &shared.cluster else {
            let Some(record) = shared.store.load_room(id).await? else {
                return Ok(None);
            };
            return Self::spawn_with(shared, record, None).map(Some);
        };
        let registry = &shared.registry;
        let _loading = registry.loading(id).lock().await;
        if let Some(entry) = registry.lock().get(id) {
            return Ok(Some(entry.handle.clone()));
        }
        let node = cluster.node.as_str();
        let epoch = match shared.store.acquire_lease(id, node, LEASE_TTL).await? {
            Acquired::Taken { epoch } => epoch,
            Acquired::HeldBy { node } => {
                return Err(RoomLoadError::Elsewhere {
                    id: id.to_owned(),
                    node,
                });
            }
            Acquired::NoRoom => return Ok(None),
        };
        let record = match shared.store.load_room(id).await {
            Ok(Some(record)) => record,
            other => {
                let _ignored = shared.store.release_lease(id, node, epoch).await;
                return other.map(|_| None).map_err(RoomLoadError::from);
            }
        };
        tracing::debug!(room = %id, epoch, "room taken");
        Self::spawn_with(shared, record, Some(epoch)).map(Some)
    }

    /// Loads room `id`, whose lease the orphan sweep just took for this
    /// node at `epoch` (`cluster/sweep.rs`), and starts its actor. `false`
    /// when it was not started here: a request on this node loaded it
    /// meanwhile (under a newer epoch of ours), or it does not replay (its
    /// lease is then given back, so no sweep tries it again).
    pub(crate) async fn adopt_orphan(
        shared: &Arc<Shared>,
        id: &str,
        epoch: i64,
    ) -> Result<bool, RoomLoadError> {
        let Some(cluster) = &shared.cluster else {
            return Ok(false);
        };
        let _loading = shared.registry.loading(id).lock().await;
        if shared.registry.running(id).is_some() {
            return Ok(false);
        }
        let node = cluster.node.as_str();
        let Some(record) = shared.store.load_room(id).await? else {
            shared.store.release_lease(id, node, epoch).await?;
            return Ok(false);
        };
        match Self::spawn_with(shared, record, Some(epoch)) {
            Ok(_) => Ok(true),
            Err(e) => {
                shared.store.release_lease(id, node, epoch).await?;
                Err(e)
            }
        }
    }

    /// Starts the actor of a room just created (by a request or a
    /// rematch). A single node starts it at once; a cluster node takes
    /// its lease first, in the background.
    pub(crate) fn adopt(shared: &Arc<Shared>, record: RoomRecord) -> Result<(), RoomLoadError> {
        if shared.cluster.is_none() {
            return Self::spawn_with(shared, record, None).map(|_| ());
        }
        let shared = Arc::clone(shared);
        tokio::spawn(async move {
            if let Err(e) = Self::get(&shared, &record.id).await {
                tracing::error!(room = %record.id, error = %e, "starting a new room");
            }
        });
        Ok(())
    }

    /// Starts the actor of a stored room and registers it (or returns the
    /// one a concurrent caller registered first). `epoch`: the lease the
    /// room's writes carry, in a cluster.
    fn spawn_with(
        shared: &Arc<Shared>,
        record: RoomRecord,
        epoch: Option<i64>,
    ) -> Result<RoomHandle, RoomLoadError> {
        let id = record.id.clone();
        let last_move_at = record.moves.last().map(|m| m.played_at);
        let mut rooms = shared.registry.lock();
        if let Some(entry) = rooms.get(&id) {
            return Ok(entry.handle.clone());
        }
        let (tx, rx) = mpsc::channel(COMMAND_QUEUE);
        let mut actor =
            RoomActor::new(Arc::clone(shared), record, rx, tx.downgrade())?.leased(epoch);
        if epoch.is_some() {
            // A running clock loaded in a cluster is a take-over from a
            // node that died: the time since the last move is charged.
            actor = actor.charged_since(last_move_at);
        }
        let handle = RoomHandle { tx };
        rooms.insert(
            id,
            Entry {
                handle: handle.clone(),
                epoch,
            },
        );
        drop(rooms);
        tokio::spawn(actor.run());
        Ok(handle)
    }

    /// The rooms in memory held under a lease: id, epoch, handle.
    pub(crate) fn leased(&self) -> Vec<(String, i64, RoomHandle)> {
        self.lock()
            .iter()
            .filter_map(|(id, e)| Some((id.clone(), e.epoch?, e.handle.clone())))
            .collect()
    }

    /// Forgets `handle`'s room if it is still the registered one.
    pub(crate) fn forget(shared: &Shared, id: &str, handle: &RoomHandle) {
        shared.registry.remove(id, handle);
    }

    /// Forgets `handle`'s room if it is still the registered one (a
    /// retiring actor calls this before it stops taking commands).
    pub(crate) fn remove(&self, id: &str, handle: &RoomHandle) {
        let mut rooms = self.lock();
        if rooms.get(id).is_some_and(|e| e.handle.same_room(handle)) {
            rooms.remove(id);
        }
    }
}

/// The game and the end of a stored room, rebuilt by replaying its moves:
/// how an actor starts, and how a node that does not run the room answers
/// for it.
pub(super) fn replay(record: &RoomRecord) -> Result<(AnyGame, Option<RoomOutcome>), RoomLoadError> {
    let replay_err = |reason: String| RoomLoadError::Replay {
        id: record.id.clone(),
        reason,
    };
    let mut game = AnyGame::new(record.variant, record.start_fen.as_deref())
        .map_err(|e| replay_err(e.to_string()))?;
    for m in &record.moves {
        game.play_uci(&m.uci)
            .map_err(|e| replay_err(format!("ply {}: {e}", m.ply)))?;
    }
    let outcome = match &record.result {
        None => None,
        Some(r) => Some(RoomOutcome {
            winner: r.winner,
            reason: EndReason::parse(&r.reason)
                .ok_or_else(|| replay_err(format!("end reason {:?}", r.reason)))?,
        }),
    };
    Ok((game, outcome))
}

/// The summary of a room this node does not run, from what is stored:
/// nobody is connected through this node, so only the AI counts as
/// connected. `node`: who holds its lease (`None`: nobody does).
pub(crate) fn stored_summary(
    record: &RoomRecord,
    node: Option<String>,
) -> Result<RoomSummary, RoomLoadError> {
    let (game, outcome) = replay(record)?;
    let seats = &record.seats;
    Ok(RoomSummary {
        id: record.id.clone(),
        variant: record.variant,
        clock: record.clock,
        public: record.public,
        ai_level: seats.white.ai_level.or(seats.black.ai_level),
        state: record.state,
        players: seats.clone().map(|seat| PlayerJson {
            seated: seat.token_hash.is_some() || seat.ai_level.is_some(),
            connected: seat.ai_level.is_some(),
            ai: seat.ai_level,
        }),
        ply: game.ply(),
        fen: game.fen(),
        outcome,
        rematch: record.rematch_id.clone(),
        created_at: record.created_at,
        node,
    })
}
