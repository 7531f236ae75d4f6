//! The connection loops, generic over any WebSocket-shaped `Sink` +
//! `Stream` so they can be driven without a network.

use std::{
    sync::{
        Arc,
        atomic::{AtomicUsize, Ordering},
    },
    time::{Duration, Instant},
};

use axum::extract::ws::{CloseFrame, Message, Utf8Bytes};
use futures_util::{Sink, SinkExt as _, Stream, StreamExt as _};
use tokio::sync::mpsc;

use super::RoomQuery;
use crate::{
    AppState,
    protocol::{ClientFrame, ClientMsg, ErrorCode, error_msg, pong},
    ratelimit::Bucket,
    room::{Auth, JoinReply, Outgoing, Registry, RoomCmd, RoomHandle, SUBSCRIBER_QUEUE},
};

/// Close code for a client dropped because it read too slowly.
const CLOSE_TOO_SLOW: u16 = 4008;
/// The most queued frames written with one flush (bounds how long one
/// write holds the connection's task).
const WRITE_BATCH: usize = 32;
/// Close code for policy violations (message budget).
const CLOSE_POLICY: u16 = 1008;
/// Close code when the room cannot take the connection.
const CLOSE_UNAVAILABLE: u16 = 1011;

/// Message budget: a burst of 20, then 10 a second.
const BUDGET_BURST: u32 = 20;
const BUDGET_PER_SEC: f64 = 10.0;
/// Messages over budget before the connection is closed.
const BUDGET_STRIKES: u32 = 200;

/// Counts the connection in the server's total while it lives.
struct Counted<'a>(&'a AtomicUsize);

impl<'a> Counted<'a> {
    fn new(counter: &'a AtomicUsize) -> Self {
        counter.fetch_add(1, Ordering::Relaxed);
        Self(counter)
    }
}

impl Drop for Counted<'_> {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::Relaxed);
    }
}

/// What the budget says about one incoming message.
enum Spend {
    Ok,
    Over,
    Close,
}

struct Budget {
    bucket: Bucket,
    strikes: u32,
}

impl Budget {
    fn new() -> Self {
        Self {
            bucket: Bucket::new(BUDGET_BURST, BUDGET_PER_SEC, Instant::now()),
            strikes: 0,
        }
    }

    fn spend(&mut self) -> Spend {
        if self.bucket.take(Instant::now()).is_ok() {
            return Spend::Ok;
        }
        self.strikes += 1;
        if self.strikes >= BUDGET_STRIKES {
            Spend::Close
        } else {
            Spend::Over
        }
    }
}

/// The peer cannot be written to any more: it closed, failed, or did not
/// take a message within the write deadline.
struct Gone;

/// One connection's socket with its write deadline.
struct Conn<S> {
    socket: S,
    /// How long one write may wait for the peer to take it
    /// ([`Config::write_timeout`](crate::Config::write_timeout)). A client
    /// that stops reading fills the kernel's buffers and then blocks every
    /// write: without a deadline its task, its slot in the room and the
    /// buffers stayed until the process ended.
    deadline: Duration,
}

impl<S, E> Conn<S>
where
    S: Stream<Item = Result<Message, E>> + Sink<Message> + Unpin,
{
    async fn send(&mut self, msg: Message) -> Result<(), Gone> {
        match tokio::time::timeout(self.deadline, self.socket.send(msg)).await {
            Ok(Ok(())) => Ok(()),
            Ok(Err(_)) | Err(_) => Err(Gone),
        }
    }

    async fn text(&mut self, text: Utf8Bytes) -> Result<(), Gone> {
        self.send(Message::Text(text)).await
    }

    /// Writes `first` and whatever else the room has already queued for
    /// this connection (up to [`WRITE_BATCH`] frames) with one flush: a
    /// move's `ack` and its `move` event reach the mover in one write
    /// instead of two system calls, which is most of the server's cost
    /// per move on loopback. The write deadline covers the whole batch.
    async fn texts(
        &mut self,
        first: Utf8Bytes,
        rx: &mut mpsc::Receiver<Outgoing>,
    ) -> Result<(), Gone> {
        let socket = &mut self.socket;
        let batch = async {
            socket.feed(Message::Text(first)).await?;
            for _ in 1..WRITE_BATCH {
                let Ok(next) = rx.try_recv() else { break };
                socket
                    .feed(Message::Text(Arc::unwrap_or_clone(next)))
                    .await?;
            }
            socket.flush().await
        };
        match tokio::time::timeout(self.deadline, batch).await {
            Ok(Ok(())) => Ok(()),
            Ok(Err(_)) | Err(_) => Err(Gone),
        }
    }

    /// Ends the connection with a close frame, then reads (and drops)
    /// what the client still sends until its own close frame, its end, or
    /// the write deadline. Dropping a socket with unread input makes the
    /// kernel answer with a TCP reset, which can destroy the close frame
    /// before the client reads it: a client that sent a burst got a reset
    /// instead of the documented 1008.
    async fn close(mut self, code: u16, reason: &'static str) {
        let frame = Message::Close(Some(CloseFrame {
            code,
            reason: reason.into(),
        }));
        if self.send(frame).await.is_err() {
            return;
        }
        let drain = async {
            while let Some(Ok(msg)) = self.socket.next().await {
                if matches!(msg, Message::Close(_)) {
                    break;
                }
            }
        };
        let _late = tokio::time::timeout(self.deadline, drain).await;
    }
}

/// Serves one room connection until either side closes.
pub(crate) async fn room_connection<S, E>(
    socket: S,
    app: AppState,
    id: String,
    mut handle: RoomHandle,
    query: RoomQuery,
) where
    S: Stream<Item = Result<Message, E>> + Sink<Message> + Unpin,
{
    let shared = &app.0;
    let _counted = Counted::new(&shared.connections);
    let mut conn = Conn {
        socket,
        deadline: shared.config.write_timeout,
    };
    let auth = Auth {
        token: query.token,
        invite: query.invite,
    };
    let (tx, mut rx) = mpsc::channel(SUBSCRIBER_QUEUE);
    let mut sub = None;
    for _ in 0..3 {
        if let Ok(JoinReply::Joined { sub: s }) =
            handle.join(auth.clone(), query.v, tx.clone()).await
        {
            sub = Some(s);
            break;
        }
        // The room retired meanwhile: load it again.
        match Registry::get(shared, &id).await {
            Ok(Some(h)) => handle = h,
            _ => break,
        }
    }
    // Only the room may hold the sender now, so `rx` ends when it drops us.
    drop(tx);
    let Some(sub) = sub else {
        conn.close(CLOSE_UNAVAILABLE, "room unavailable").await;
        return;
    };
    let mut budget = Budget::new();
    let close = loop {
        tokio::select! {
            out = rx.recv() => {
                let Some(msg) = out else {
                    break Some((CLOSE_TOO_SLOW, "too slow: reconnect with your last v"));
                };
                // The event's bytes are shared, not copied.
                if conn.texts(Arc::unwrap_or_clone(msg), &mut rx).await.is_err() {
                    break None;
                }
            }
            incoming = conn.socket.next() => {
                let text = match incoming {
                    Some(Ok(Message::Text(text))) => text,
                    Some(Ok(Message::Binary(_))) => {
                        if conn.text(error_msg(ErrorCode::BadMessage, "text frames only")).await.is_err() {
                            break None;
                        }
                        continue;
                    }
                    Some(Ok(Message::Ping(_) | Message::Pong(_))) => continue,
                    Some(Ok(Message::Close(_)) | Err(_)) | None => break None,
                };
                match budget.spend() {
                    Spend::Ok => {}
                    Spend::Over => {
                        if conn.text(error_msg(ErrorCode::RateLimited, "too many messages; slow down")).await.is_err() {
                            break None;
                        }
                        continue;
                    }
                    Spend::Close => break Some((CLOSE_POLICY, "message budget exceeded")),
                }
                let reply = match ClientFrame::decode(&text) {
                    Ok(ClientFrame { msg: ClientMsg::Ping, .. }) => pong(),
                    Ok(msg) => {
                        if handle.send(RoomCmd::Client { sub, msg }).await.is_err() {
                            break None;
                        }
                        continue;
                    }
                    Err(e) => error_msg(e.code(), &e.to_string()),
                };
                if conn.text(reply).await.is_err() {
                    break None;
                }
            }
        }
    };
    // The room first: the seat is free (and counted so) while the close
    // handshake runs.
    let _gone = handle.send(RoomCmd::Leave { sub }).await;
    if let Some((code, reason)) = close {
        conn.close(code, reason).await;
    }
}

/// Serves one lobby connection: the current snapshot, then each new one.
pub(crate) async fn lobby_connection<S, E>(socket: S, app: AppState)
where
    S: Stream<Item = Result<Message, E>> + Sink<Message> + Unpin,
{
    let _counted = Counted::new(&app.0.connections);
    let mut conn = Conn {
        socket,
        deadline: app.0.config.write_timeout,
    };
    let mut snapshots = app.0.lobby.subscribe();
    // The first snapshot counts this connection: ask for one published
    // after it was counted.
    app.0.lobby.refresh().await;
    let first = snapshots.borrow_and_update().message.clone();
    if conn.text(first).await.is_err() {
        return;
    }
    let mut budget = Budget::new();
    loop {
        tokio::select! {
            changed = snapshots.changed() => {
                if changed.is_err() {
                    break;
                }
                let snapshot = snapshots.borrow_and_update().message.clone();
                if conn.text(snapshot).await.is_err() {
                    break;
                }
            }
            incoming = conn.socket.next() => {
                let text = match incoming {
                    Some(Ok(Message::Text(text))) => text,
                    Some(Ok(Message::Binary(_) | Message::Ping(_) | Message::Pong(_))) => continue,
                    Some(Ok(Message::Close(_)) | Err(_)) | None => break,
                };
                let reply = match budget.spend() {
                    Spend::Close => {
                        conn.close(CLOSE_POLICY, "message budget exceeded").await;
                        break;
                    }
                    Spend::Over => error_msg(ErrorCode::RateLimited, "too many messages; slow down"),
                    Spend::Ok => match ClientMsg::decode(&text) {
                        Ok(ClientMsg::Ping) => pong(),
                        Ok(_) => error_msg(ErrorCode::UnknownType, "the lobby only answers ping"),
                        Err(e) => error_msg(e.code(), &e.to_string()),
                    },
                };
                if conn.text(reply).await.is_err() {
                    break;
                }
            }
        }
    }
}
