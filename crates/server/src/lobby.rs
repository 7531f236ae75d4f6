//! The lobby: counters and open public rooms, published to every lobby
//! connection through a `watch` channel (a slow reader simply skips to the
//! newest snapshot; nothing queues up).

use std::{
    collections::{HashMap, HashSet},
    sync::{
        Arc,
        atomic::{AtomicUsize, Ordering},
    },
    time::Duration,
};

use axum::extract::ws::Utf8Bytes;
use chessplayx_rules::{Color, Variant};
use serde::Serialize;
use tokio::sync::{mpsc, oneshot, watch};

use crate::{
    protocol::{LobbyCounters, LobbySnapshot, ServerMsg, encode},
    store::ClockConfig,
};

/// How often at most the lobby is pushed.
const PUSH_EVERY: Duration = Duration::from_millis(250);

/// The most rooms listed.
const MAX_LISTED: usize = 100;

/// An open public room as the lobby lists it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, ts_rs::TS)]
pub(crate) struct Listing {
    pub(crate) id: String,
    pub(crate) variant: Variant,
    pub(crate) clock: Option<ClockConfig>,
    pub(crate) open_color: Color,
    pub(crate) created_at: u64,
    pub(crate) invite_url: String,
}

/// What a room tells the lobby about itself after a change.
#[derive(Clone, Debug)]
pub(crate) struct LobbyUpdate {
    pub(crate) id: String,
    /// `Some` while the room is public and waiting.
    pub(crate) listing: Option<Listing>,
    /// The game is in progress.
    pub(crate) playing: bool,
}

/// One published state: the `lobby` message and its `d` alone (the body
/// of `GET /api/lobby`).
#[derive(Clone, Debug)]
pub(crate) struct Published {
    pub(crate) message: Utf8Bytes,
    pub(crate) data: String,
}

/// What the lobby task is told.
#[derive(Debug)]
enum Input {
    /// A room changed.
    Update(LobbyUpdate),
    /// A connection is about to send its first snapshot: publish one now
    /// if anything changed since the last (the connection itself at
    /// least), then answer.
    Refresh(oneshot::Sender<()>),
}

/// The handle rooms and connections use.
#[derive(Clone, Debug)]
pub(crate) struct Lobby {
    updates: mpsc::UnboundedSender<Input>,
    snapshot: watch::Receiver<Published>,
}

impl Lobby {
    /// Starts the lobby task. `connections` is the server's count of open
    /// WebSockets.
    pub(crate) fn start(connections: Arc<AtomicUsize>) -> Self {
        let (updates, rx) = mpsc::unbounded_channel();
        let (tx, snapshot) = watch::channel(render(&HashMap::new(), 0, 0));
        tokio::spawn(run(rx, tx, connections));
        Self { updates, snapshot }
    }

    /// Records a room's change (it is pushed within [`PUSH_EVERY`]).
    pub(crate) fn update(&self, update: LobbyUpdate) {
        // The lobby task lives as long as the server; if it is gone the
        // server is stopping and nobody reads the lobby.
        let _closed = self.updates.send(Input::Update(update));
    }

    /// Brings the published snapshot up to date now instead of at the next
    /// tick, so that a new connection's first message counts it (and
    /// every other connection open at this moment). Returns at once if
    /// the lobby task is gone.
    pub(crate) async fn refresh(&self) {
        let (done, wait) = oneshot::channel();
        if self.updates.send(Input::Refresh(done)).is_ok() {
            let _gone = wait.await;
        }
    }

    /// The latest published state.
    pub(crate) fn current(&self) -> Published {
        self.snapshot.borrow().clone()
    }

    /// A receiver that wakes on each new snapshot.
    pub(crate) fn subscribe(&self) -> watch::Receiver<Published> {
        self.snapshot.clone()
    }
}

fn render(open: &HashMap<String, Listing>, playing: usize, online: usize) -> Published {
    let mut rooms: Vec<&Listing> = open.values().collect();
    rooms.sort_by(|a, b| b.created_at.cmp(&a.created_at).then(a.id.cmp(&b.id)));
    rooms.truncate(MAX_LISTED);
    let snapshot = LobbySnapshot {
        counters: LobbyCounters {
            players_online: online,
            games_playing: playing,
            rooms_waiting: open.len(),
        },
        rooms: &rooms,
    };
    Published {
        data: serde_json::to_string(&snapshot).unwrap_or_else(|_| "{}".to_owned()),
        message: encode(&ServerMsg::Lobby(snapshot)),
    }
}

/// What the lobby task knows, and what it last published.
#[derive(Default)]
struct Board {
    open: HashMap<String, Listing>,
    playing: HashSet<String>,
    dirty: bool,
    online: usize,
}

impl Board {
    fn apply(&mut self, update: LobbyUpdate) {
        if let Some(listing) = update.listing {
            self.open.insert(update.id.clone(), listing);
        } else {
            self.open.remove(&update.id);
        }
        if update.playing {
            self.playing.insert(update.id);
        } else {
            self.playing.remove(&update.id);
        }
        self.dirty = true;
    }

    /// Publishes a new snapshot if a room or the connection count changed
    /// since the last one.
    fn publish(&mut self, tx: &watch::Sender<Published>, connections: &AtomicUsize) {
        let online = connections.load(Ordering::Relaxed);
        if self.dirty || online != self.online {
            self.online = online;
            self.dirty = false;
            tx.send_replace(render(&self.open, self.playing.len(), online));
        }
    }
}

async fn run(
    mut rx: mpsc::UnboundedReceiver<Input>,
    tx: watch::Sender<Published>,
    connections: Arc<AtomicUsize>,
) {
    let mut board = Board::default();
    let mut tick = tokio::time::interval(PUSH_EVERY);
    tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        tokio::select! {
            input = rx.recv() => match input {
                None => break,
                Some(Input::Update(update)) => board.apply(update),
                Some(Input::Refresh(done)) => {
                    board.publish(&tx, &connections);
                    let _gone = done.send(());
                }
            },
            _ = tick.tick() => board.publish(&tx, &connections),
        }
    }
}
