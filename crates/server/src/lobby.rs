//! The lobby: counters and open public rooms, published to every lobby
//! connection through a `watch` channel (a slow reader simply skips to the
//! newest snapshot; nothing queues up).
//!
//! In a cluster each node also publishes its own rooms and counters on the
//! bus every [`ANNOUNCE_EVERY`] and folds the other nodes' into what it
//! shows; a node not heard from for [`NODE_SILENCE`] is left out.

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
use futures_util::StreamExt as _;
use serde::{Deserialize, Serialize};
use tokio::{
    sync::{mpsc, oneshot, watch},
    time::Instant,
};

use crate::{
    cluster::{BusError, Cluster},
    protocol::{LobbyCounters, LobbySnapshot, ServerMsg, encode},
    store::ClockConfig,
};

/// How often a node publishes its part of the lobby on the bus.
const ANNOUNCE_EVERY: Duration = Duration::from_secs(1);

/// A node not heard from for this long drops out of the lobby.
const NODE_SILENCE: Duration = Duration::from_secs(3);

/// The bus subject of the nodes' lobby parts.
const SUBJECT: &str = "cpx.lobby";

/// Where a cluster node exchanges lobby parts.
#[derive(Clone, Debug)]
pub(crate) struct Bus {
    client: async_nats::Client,
    node: String,
}

impl Bus {
    pub(crate) fn of(cluster: &Cluster) -> Self {
        Self {
            client: cluster.nats.clone(),
            node: cluster.node.as_str().to_owned(),
        }
    }
}

/// One node's part of the lobby, as published on the bus.
#[derive(Clone, Debug, Serialize, Deserialize)]
struct NodePart {
    node: String,
    open: Vec<Listing>,
    playing: usize,
    online: usize,
}

/// How often at most the lobby is pushed.
const PUSH_EVERY: Duration = Duration::from_millis(250);

/// The most rooms listed.
const MAX_LISTED: usize = 100;

/// An open public room as the lobby lists it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ts_rs::TS)]
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
    /// With `bus`, it also exchanges parts with the other nodes.
    pub(crate) async fn start(
        connections: Arc<AtomicUsize>,
        bus: Option<Bus>,
    ) -> Result<Self, BusError> {
        let (updates, rx) = mpsc::unbounded_channel();
        let (tx, snapshot) = watch::channel(render(&HashMap::new(), 0, 0));
        let parts =
            match &bus {
                Some(b) => Some(b.client.subscribe(SUBJECT).await.map_err(|source| {
                    BusError::Subscribe {
                        url: SUBJECT.to_owned(),
                        source,
                    }
                })?),
                None => None,
            };
        tokio::spawn(run(rx, tx, connections, bus.zip(parts)));
        Ok(Self { updates, snapshot })
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

fn render(open: &HashMap<&str, &Listing>, playing: usize, online: usize) -> Published {
    let mut rooms: Vec<&Listing> = open.values().copied().collect();
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
    /// The other nodes' parts, with when each was heard.
    remote: HashMap<String, (NodePart, Instant)>,
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
        let now = Instant::now();
        let before = self.remote.len();
        self.remote
            .retain(|_, (_, heard)| now.duration_since(*heard) < NODE_SILENCE);
        self.dirty |= self.remote.len() != before;
        let online = connections.load(Ordering::Relaxed)
            + self.remote.values().map(|(p, _)| p.online).sum::<usize>();
        if self.dirty || online != self.online {
            self.online = online;
            self.dirty = false;
            // A room moving between nodes may be listed by both for a
            // moment: one listing per id.
            let mut open: HashMap<&str, &Listing> =
                self.open.iter().map(|(k, v)| (k.as_str(), v)).collect();
            for (part, _) in self.remote.values() {
                for l in &part.open {
                    open.entry(l.id.as_str()).or_insert(l);
                }
            }
            let playing =
                self.playing.len() + self.remote.values().map(|(p, _)| p.playing).sum::<usize>();
            tx.send_replace(render(&open, playing, online));
        }
    }

    /// This node's own part, for the bus.
    fn part(&self, node: &str, connections: &AtomicUsize) -> NodePart {
        NodePart {
            node: node.to_owned(),
            open: self.open.values().cloned().collect(),
            playing: self.playing.len(),
            online: connections.load(Ordering::Relaxed),
        }
    }

    fn heard(&mut self, me: &str, payload: &[u8]) {
        match serde_json::from_slice::<NodePart>(payload) {
            Ok(part) if part.node != me => {
                self.remote
                    .insert(part.node.clone(), (part, Instant::now()));
                self.dirty = true;
            }
            Ok(_) => {}
            Err(e) => tracing::warn!(error = %e, "unreadable lobby part on the bus"),
        }
    }
}

async fn run(
    mut rx: mpsc::UnboundedReceiver<Input>,
    tx: watch::Sender<Published>,
    connections: Arc<AtomicUsize>,
    mut bus: Option<(Bus, async_nats::Subscriber)>,
) {
    let mut board = Board::default();
    let mut tick = tokio::time::interval(PUSH_EVERY);
    tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    let mut announce = tokio::time::interval(ANNOUNCE_EVERY);
    announce.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        tokio::select! {
            _ = announce.tick(), if bus.is_some() => {
                if let Some((b, _)) = &bus
                    && let Ok(body) = serde_json::to_vec(&board.part(&b.node, &connections))
                    && let Err(e) = b.client.publish(SUBJECT, body.into()).await
                {
                    tracing::warn!(error = %e, "publishing the lobby part");
                }
            }
            heard = async {
                match bus.as_mut() {
                    Some((_, sub)) => sub.next().await,
                    None => std::future::pending().await,
                }
            } => match (heard, &bus) {
                (Some(msg), Some((b, _))) => {
                    let me = b.node.clone();
                    board.heard(&me, &msg.payload);
                }
                _ => bus = None,
            },
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
