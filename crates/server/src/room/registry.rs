//! Room id → handle, loading rooms from the store on first use.

use std::{
    collections::HashMap,
    sync::{Arc, Mutex, MutexGuard},
};

use tokio::sync::mpsc;

use super::{COMMAND_QUEUE, RoomHandle, actor::RoomActor};
use crate::{
    state::Shared,
    store::{RoomRecord, StoreError},
};

/// Why a room could not be brought into memory.
#[derive(Debug, thiserror::Error)]
pub(crate) enum RoomLoadError {
    /// The store failed.
    #[error(transparent)]
    Store(#[from] StoreError),
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
#[derive(Debug, Default)]
pub(crate) struct Registry {
    rooms: Mutex<HashMap<String, RoomHandle>>,
}

impl Registry {
    fn lock(&self) -> MutexGuard<'_, HashMap<String, RoomHandle>> {
        self.rooms
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// Rooms in memory.
    pub(crate) fn len(&self) -> usize {
        self.lock().len()
    }

    /// The room `id`, loading it from the store when it is not in memory;
    /// `None` when there is no such room.
    pub(crate) async fn get(
        shared: &Arc<Shared>,
        id: &str,
    ) -> Result<Option<RoomHandle>, RoomLoadError> {
        if let Some(handle) = shared.registry.lock().get(id) {
            return Ok(Some(handle.clone()));
        }
        let Some(record) = shared.store.load_room(id).await? else {
            return Ok(None);
        };
        Self::spawn(shared, record).map(Some)
    }

    /// Starts the actor of a stored room and registers it (or returns the
    /// one a concurrent caller registered first).
    pub(crate) fn spawn(
        shared: &Arc<Shared>,
        record: RoomRecord,
    ) -> Result<RoomHandle, RoomLoadError> {
        let id = record.id.clone();
        let mut rooms = shared.registry.lock();
        if let Some(handle) = rooms.get(&id) {
            return Ok(handle.clone());
        }
        let (tx, rx) = mpsc::channel(COMMAND_QUEUE);
        let actor = RoomActor::new(Arc::clone(shared), record, rx, tx.downgrade())?;
        let handle = RoomHandle { tx };
        rooms.insert(id, handle.clone());
        drop(rooms);
        tokio::spawn(actor.run());
        Ok(handle)
    }

    /// Forgets `handle`'s room if it is still the registered one (a
    /// retiring actor calls this before it stops taking commands).
    pub(crate) fn remove(&self, id: &str, handle: &RoomHandle) {
        let mut rooms = self.lock();
        if rooms.get(id).is_some_and(|h| h.same_room(handle)) {
            rooms.remove(id);
        }
    }
}
