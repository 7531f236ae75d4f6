//! Rooms: one actor task per room owns the game, the clocks, the seats,
//! the event log and the subscribers; everyone else holds a
//! [`RoomHandle`] and talks to it with [`RoomCmd`]s.
//!
//! Ordering guarantee: the actor handles one command at a time and awaits
//! the store before it acknowledges or broadcasts, so every client sees the
//! room's events in the same order, numbered without gaps, and nothing
//! that was announced can be lost by a crash.

mod actor;
mod clock;
mod judge;
mod offers;
mod registry;

use std::sync::Arc;

use axum::extract::ws::Utf8Bytes;
use chessplayx_rules::{ByColor, Color, Variant};
use serde::Serialize;
use tokio::sync::{mpsc, oneshot};

pub(crate) use registry::{Registry, RoomLoadError, stored_summary};

use crate::{
    bot::AiOutcome,
    protocol::{ClientFrame, PlayerJson, RoomOutcome},
    store::{ClockConfig, RoomState},
};

/// How deep a room's command queue is. Connections wait (back-pressure)
/// when it is full rather than the room buffering without bound.
const COMMAND_QUEUE: usize = 256;

/// How many messages may wait for one subscriber before it is dropped as
/// too slow (it must reconnect and resync).
pub(crate) const SUBSCRIBER_QUEUE: usize = 256;

/// A message queued for one subscriber. A queue keeps two blocks of 32
/// slots for its whole life once 32 messages have passed (tokio reuses
/// the block it read last), so the slot size counts once per connection:
/// an `Arc` is 8 bytes where the message itself (`Utf8Bytes`) is 32, i.e.
/// ~0.5 KiB instead of ~2 KiB per connection. An event is wrapped once
/// and the `Arc` shared by all its subscribers.
pub(crate) type Outgoing = Arc<Utf8Bytes>;

/// What a connection presents to act in a room.
#[derive(Clone, Debug, Default)]
pub(crate) struct Auth {
    /// Seat tokens, separated by commas (a same-device connection holds
    /// both seats).
    pub(crate) token: Option<String>,
    /// An invite token (takes the free seat once).
    pub(crate) invite: Option<String>,
}

/// The answer to a join.
#[derive(Debug)]
pub(crate) enum JoinReply {
    /// Subscribed under this id.
    Joined {
        /// The subscriber id for later commands.
        sub: u64,
    },
    /// The room was closing; look it up again.
    Retry,
}

/// The commands a room actor handles.
#[derive(Debug)]
pub(crate) enum RoomCmd {
    /// Subscribe a connection.
    Join {
        /// Its credentials (boxed: see the size check below).
        auth: Box<Auth>,
        /// The last event it saw, if reconnecting.
        v: Option<u64>,
        /// Where the room sends it messages.
        tx: mpsc::Sender<Outgoing>,
        /// The answer.
        reply: oneshot::Sender<JoinReply>,
    },
    /// A connection closed.
    Leave {
        /// Its subscriber id.
        sub: u64,
    },
    /// A decoded client message.
    Client {
        /// The sender's subscriber id.
        sub: u64,
        /// The message and the seat it acts for.
        msg: ClientFrame,
    },
    /// An AI search finished.
    AiMove {
        /// The ply it searched.
        ply: usize,
        /// Its result.
        result: AiOutcome,
    },
    /// The room's summary for `GET /api/rooms/{id}`.
    Summary {
        /// The answer.
        reply: oneshot::Sender<RoomSummary>,
    },
    /// The room's lease was lost (another node took it): stop at once,
    /// closing every connection so its clients reconnect there.
    LeaseLost,
    /// The game as PGN / WXF text.
    Export {
        /// The server's base URL for the `Site` tag.
        site: String,
        /// The answer.
        reply: oneshot::Sender<String>,
    },
}

// A room's command queue holds its commands in blocks of 32 slots, and
// keeps two blocks once 32 commands have passed (tokio reuses the one it
// read last): 64 slots per room for its whole life. With the two tokens
// of a join inline (48 bytes) every slot was 88 bytes, ~2.8 KiB a block;
// boxed, a slot is the size of a move command.
const _: () = assert!(size_of::<RoomCmd>() <= 48);

/// The JSON of `GET /api/rooms/{id}`.
#[derive(Clone, Debug, Serialize)]
pub(crate) struct RoomSummary {
    pub(crate) id: String,
    pub(crate) variant: Variant,
    pub(crate) clock: Option<ClockConfig>,
    pub(crate) public: bool,
    pub(crate) ai_level: Option<u8>,
    pub(crate) state: RoomState,
    pub(crate) players: ByColor<PlayerJson>,
    pub(crate) ply: usize,
    pub(crate) fen: String,
    pub(crate) outcome: Option<RoomOutcome>,
    pub(crate) rematch: Option<String>,
    pub(crate) created_at: u64,
    /// The node running the room: on a single node its `--node-id`
    /// (`None` without one); in a cluster the holder of the room's
    /// unexpired lease, `None` while nobody holds it (docs/protocol.md).
    pub(crate) node: Option<String>,
}

/// A room as seen from outside: a sender of commands. Cheap to clone.
#[derive(Clone, Debug)]
pub(crate) struct RoomHandle {
    tx: mpsc::Sender<RoomCmd>,
}

/// The room's actor has ended (it retired or the server is stopping).
#[derive(Copy, Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("the room has closed")]
pub(crate) struct RoomClosed;

impl RoomHandle {
    /// Sends a command, waiting while the room's queue is full.
    pub(crate) async fn send(&self, cmd: RoomCmd) -> Result<(), RoomClosed> {
        self.tx.send(cmd).await.map_err(|_| RoomClosed)
    }

    /// Subscribes a connection.
    pub(crate) async fn join(
        &self,
        auth: Auth,
        v: Option<u64>,
        tx: mpsc::Sender<Outgoing>,
    ) -> Result<JoinReply, RoomClosed> {
        let (reply, answer) = oneshot::channel();
        self.send(RoomCmd::Join {
            auth: Box::new(auth),
            v,
            tx,
            reply,
        })
        .await?;
        answer.await.map_err(|_| RoomClosed)
    }

    /// The room's summary.
    pub(crate) async fn summary(&self) -> Result<RoomSummary, RoomClosed> {
        let (reply, answer) = oneshot::channel();
        self.send(RoomCmd::Summary { reply }).await?;
        answer.await.map_err(|_| RoomClosed)
    }

    /// The game as text, its `Site` under `site` (the server's base URL).
    pub(crate) async fn export(&self, site: String) -> Result<String, RoomClosed> {
        let (reply, answer) = oneshot::channel();
        self.send(RoomCmd::Export { site, reply }).await?;
        answer.await.map_err(|_| RoomClosed)
    }

    fn same_room(&self, other: &Self) -> bool {
        self.tx.same_channel(&other.tx)
    }
}

/// The colour a visitor would get in a room: the seat without a holder.
fn free_seat(seats: &ByColor<crate::store::SeatRecord>) -> Option<Color> {
    Color::ALL
        .into_iter()
        .find(|&c| seats.get(c).token_hash.is_none() && seats.get(c).ai_level.is_none())
}
