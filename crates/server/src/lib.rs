//! The chessplayx game server: the web app's HTTP API, live rooms and the
//! lobby over WebSockets, AI seats, and a SQLite store that commits every
//! move before anyone hears of it.
//!
//! The wire protocol is documented in `docs/protocol.md`; the design in
//! short:
//!
//! - one actor task per room owns its game, clocks, seats, event log and
//!   subscribers (`room/`); connections hold a handle (`ws/`);
//! - every state change is committed by the store's single writer thread,
//!   which groups the writes of all rooms into one transaction
//!   (`store/`), before it is acknowledged or broadcast;
//! - AI searches run on a bounded pool of low-priority threads (`bot.rs`).

mod analysis;
mod bot;
mod cluster;
mod config;
mod error;
mod export;
mod http;
mod loadtest;
mod lobby;
mod protocol;
mod ratelimit;
mod room;
mod state;
mod store;
mod util;
mod ws;

use std::{
    future::Future,
    io::IsTerminal as _,
    net::SocketAddr,
    sync::{Arc, atomic::AtomicUsize},
};

use axum::Router;
use tokio::net::TcpListener;

pub use bot::{AiError, AiOutcome, AiPool, AiRequest, AiStats, BestSoFar, Picker, engine_picker};
pub use cluster::BusError;
pub use config::{Config, NodeId, NodeIdError, PublicUrl, PublicUrlError};
pub use error::ApiError;
pub use loadtest::{AiPoolUse, LoadConfig, LoadError, LoadReport, rss_kib, run as loadtest};
pub use protocol::{
    AckMsg, ClientMsg, ClockJson, DecodeError, EndEvent, EndReason, ErrorCode, ErrorMsg,
    HistoryMove, JoinedEvent, MoveEvent, OfferEvent, OfferKind, Offers, PlayerJson, PresenceSide,
    RematchEvent, RoomOutcome, SeatMsg, StateMsg, TakebackEvent, typescript as protocol_typescript,
};
pub use state::AppState;
pub use store::{
    Acquired, ClockConfig, MoveRecord, ResultRecord, RoomRecord, RoomState, SeatRecord, Store,
    StoreError, StoreStats, WriteOp,
};

use crate::{lobby::Lobby, ratelimit::PerIp, room::Registry, state::Shared};

/// Why the server could not start or stopped with an error.
#[derive(Debug, thiserror::Error)]
pub enum ServeError {
    /// The database could not be opened.
    #[error(transparent)]
    Store(#[from] StoreError),
    /// The bus could not be joined.
    #[error(transparent)]
    Bus(#[from] BusError),
    /// The address could not be bound.
    #[error("listening on {addr}: {source}")]
    Bind {
        /// The address.
        addr: SocketAddr,
        /// Why.
        source: std::io::Error,
    },
    /// The async runtime could not start, or serving failed.
    #[error("server: {0}")]
    Io(#[from] std::io::Error),
}

impl AppState {
    /// Opens the store, starts the lobby and reloads every unfinished room
    /// (their clocks restart from the values stored with their last move).
    /// AI seats and `/api/ai-move` use `picker` on a pool of
    /// `config.ai_threads` slots. Must run inside a tokio runtime.
    ///
    /// # Errors
    ///
    /// The database cannot be opened or read.
    pub async fn new(mut config: Config, picker: Picker) -> Result<Self, ServeError> {
        let db = config.db_path.to_string_lossy().into_owned();
        if config.bus.is_some() && !store::is_postgres_url(&db) {
            return Err(BusError::NeedsPostgres(db).into());
        }
        if config.bus.is_some() && config.node_id.is_none() {
            let random: NodeId = format!("node-{}", util::new_room_id())
                .parse()
                .map_err(|e: NodeIdError| ServeError::Io(std::io::Error::other(e)))?;
            config.node_id = Some(random);
        }
        let store = Store::open(&config.db_path).await?;
        let (cluster, requests) = match (&config.bus, &config.node_id) {
            (Some(url), Some(node)) => {
                let nats = cluster::connect(url, node).await?;
                let requests = nats
                    .subscribe(cluster::node_subject(node.as_str(), "ask"))
                    .await
                    .map_err(|source| BusError::Subscribe {
                        url: url.clone(),
                        source,
                    })?;
                let cluster = cluster::Cluster {
                    node: node.clone(),
                    nats,
                };
                (Some(cluster), Some(requests))
            }
            _ => (None, None),
        };
        let connections = Arc::new(AtomicUsize::new(0));
        let lobby = Lobby::start(
            Arc::clone(&connections),
            cluster.as_ref().map(lobby::Bus::of),
        )
        .await?;
        let shared = Arc::new(Shared {
            ai: AiPool::new(
                config.ai_threads,
                config.ai_nice,
                config.ai_sched_idle,
                picker,
            ),
            analyses: analysis::Analyses::default(),
            room_limit: PerIp::new(config.room_rate_per_minute),
            lobby,
            registry: Registry::default(),
            connections,
            store,
            config,
            cluster,
        });
        let state = Self(Arc::clone(&shared));
        if let Some(requests) = requests {
            // Rooms are taken on demand, or by the orphan sweep when their
            // node died: the other nodes may hold the unfinished ones.
            tokio::spawn(cluster::renew_loop(Arc::downgrade(&shared)));
            tokio::spawn(cluster::sweep::sweep_loop(Arc::downgrade(&shared)));
            tokio::spawn(cluster::relay::serve(state.clone(), requests));
            tracing::info!(node = %shared.cluster.as_ref().map_or("", |c| c.node.as_str()), "joined the cluster");
            return Ok(state);
        }
        let ids = shared.store.unfinished_rooms().await?;
        let mut reloaded = 0usize;
        for id in &ids {
            match Registry::get(&shared, id).await {
                Ok(Some(_)) => reloaded += 1,
                Ok(None) => {}
                Err(e) => tracing::error!(room = %id, error = %e, "room not reloaded"),
            }
        }
        tracing::info!(reloaded, "rooms reloaded");
        Ok(state)
    }

    /// The store, for tools and tests that look at what was committed.
    #[must_use]
    pub fn store(&self) -> &Store {
        &self.0.store
    }

    /// Rooms currently in memory.
    #[must_use]
    pub fn rooms_in_memory(&self) -> usize {
        self.0.registry.len()
    }
}

/// The whole HTTP + WebSocket application. A known path asked with
/// another method gets the JSON 405 of [`ApiError::MethodNotAllowed`]
/// (set last: it applies to the routes registered before it).
pub fn app(state: AppState) -> Router {
    Router::new()
        .merge(ws::router())
        .merge(http::router(&state))
        .method_not_allowed_fallback(error::method_not_allowed)
        .with_state(state)
}

/// Serves `state` on `listener` until `shutdown` completes.
///
/// # Errors
///
/// Accepting connections failed.
pub async fn run(
    listener: TcpListener,
    state: AppState,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> Result<(), ServeError> {
    axum::serve(
        listener,
        app(state).into_make_service_with_connect_info::<SocketAddr>(),
    )
    .with_graceful_shutdown(shutdown)
    .await?;
    Ok(())
}

/// `chessplayx serve`: builds the runtime, opens the store, listens on
/// `config.addr` and serves until Ctrl-C or SIGTERM.
///
/// # Errors
///
/// The database, the address or the runtime failed.
pub fn serve(config: Config, picker: Picker) -> Result<(), ServeError> {
    let filter = tracing_subscriber::EnvFilter::try_from_default_env()
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("info"));
    // A second call (tests, embedding) keeps the first subscriber.
    let _already = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr)
        .with_ansi(log_colours(
            std::io::stderr().is_terminal(),
            std::env::var_os("NO_COLOR").as_deref(),
        ))
        .try_init();
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?;
    runtime.block_on(async move {
        let addr = config.addr;
        let listener = TcpListener::bind(addr)
            .await
            .map_err(|source| ServeError::Bind { addr, source })?;
        let state = AppState::new(config, picker).await?;
        let local = listener.local_addr()?;
        // Said once, on stdout: the line scripts and tests wait for (the
        // address with port 0 resolved). The log on stderr does not repeat
        // it, so a terminal that shows both does not read it twice.
        println!("listening on http://{local}");
        run(listener, state, shutdown_signal()).await
    })
}

/// Whether the log on stderr may use ANSI colours: only on a terminal,
/// and not when `NO_COLOR` is set to anything non-empty (no-color.org). A
/// log piped to a file or a service manager gets plain text.
fn log_colours(stderr_is_terminal: bool, no_color: Option<&std::ffi::OsStr>) -> bool {
    stderr_is_terminal && no_color.is_none_or(std::ffi::OsStr::is_empty)
}

/// Runs [`loadtest`] on its own runtime (for the command line).
///
/// # Errors
///
/// The runtime could not start, or the games could not be set up.
pub fn loadtest_blocking(config: LoadConfig) -> Result<LoadReport, LoadError> {
    tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?
        .block_on(loadtest(config))
}

async fn shutdown_signal() {
    let ctrl_c = async {
        if tokio::signal::ctrl_c().await.is_err() {
            std::future::pending::<()>().await;
        }
    };
    #[cfg(unix)]
    let term = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut s) => {
                s.recv().await;
            }
            Err(_) => std::future::pending::<()>().await,
        }
    };
    #[cfg(not(unix))]
    let term = std::future::pending::<()>();
    tokio::select! {
        () = ctrl_c => {}
        () = term => {}
    }
}

#[cfg(test)]
mod tests {
    use std::ffi::OsStr;

    use super::log_colours;

    #[test]
    fn colours_only_on_a_terminal_without_no_color() {
        assert!(log_colours(true, None));
        assert!(log_colours(true, Some(OsStr::new(""))));
        assert!(!log_colours(true, Some(OsStr::new("1"))));
        assert!(!log_colours(false, None));
    }
}
