//! What every handler and room shares.

use std::sync::{Arc, atomic::AtomicUsize};

use crate::{
    analysis::Analyses, bot::AiPool, cluster::Cluster, config::Config, lobby::Lobby,
    ratelimit::PerIp, room::Registry, store::Store,
};

/// The server's shared state: configuration, store, rooms, lobby, AI
/// pool and counters. Handlers get it as axum state; room actors keep a
/// clone.
#[derive(Debug)]
pub(crate) struct Shared {
    pub(crate) config: Config,
    pub(crate) store: Store,
    pub(crate) registry: Registry,
    pub(crate) lobby: Lobby,
    pub(crate) ai: AiPool,
    /// Game analyses in memory (running and finished).
    pub(crate) analyses: Analyses,
    /// Open WebSocket connections (lobby and rooms).
    pub(crate) connections: Arc<AtomicUsize>,
    pub(crate) room_limit: PerIp,
    /// This node among the others (`None`: a single node, no `--bus`).
    pub(crate) cluster: Option<Cluster>,
}

/// The server's state, cheap to clone. Build it with
/// [`AppState::new`](crate::AppState::new) inside a tokio runtime.
#[derive(Clone, Debug)]
pub struct AppState(pub(crate) Arc<Shared>);
