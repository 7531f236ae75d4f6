//! The connection loops, generic over any WebSocket-shaped `Sink` +
//! `Stream` so they can be driven without a network.

use std::{
    sync::{
        Arc,
        atomic::{AtomicUsize, Ordering},
    },
    time::Instant,
};

use axum::extract::ws::{CloseFrame, Message};
use futures_util::{Sink, SinkExt as _, Stream, StreamExt as _};
use tokio::sync::mpsc;

use super::RoomQuery;
use crate::{
    AppState,
    protocol::{ClientFrame, ClientMsg, encode_bare, error_msg},
    ratelimit::Bucket,
    room::{Auth, JoinReply, Registry, RoomCmd, RoomHandle, SUBSCRIBER_QUEUE},
};

/// Close code for a client dropped because it read too slowly.
const CLOSE_TOO_SLOW: u16 = 4008;
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

fn close(code: u16, reason: &'static str) -> Message {
    Message::Close(Some(CloseFrame {
        code,
        reason: reason.into(),
    }))
}

/// Serves one room connection until either side closes.
pub(crate) async fn room_connection<S, E>(
    mut socket: S,
    app: AppState,
    id: String,
    mut handle: RoomHandle,
    query: RoomQuery,
) where
    S: Stream<Item = Result<Message, E>> + Sink<Message> + Unpin,
{
    let shared = &app.0;
    let _counted = Counted::new(&shared.connections);
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
        let _gone = socket
            .send(close(CLOSE_UNAVAILABLE, "room unavailable"))
            .await;
        return;
    };
    let mut budget = Budget::new();
    loop {
        tokio::select! {
            out = rx.recv() => {
                let Some(msg) = out else {
                    let _gone = socket
                        .send(close(CLOSE_TOO_SLOW, "too slow: reconnect with your last v"))
                        .await;
                    break;
                };
                // The event's bytes are shared, not copied.
                let msg = Arc::unwrap_or_clone(msg);
                if socket.send(Message::Text(msg)).await.is_err() {
                    break;
                }
            }
            incoming = socket.next() => {
                let text = match incoming {
                    Some(Ok(Message::Text(text))) => text,
                    Some(Ok(Message::Binary(_))) => {
                        if socket.send(Message::Text(error_msg("bad_message", "text frames only"))).await.is_err() {
                            break;
                        }
                        continue;
                    }
                    Some(Ok(Message::Ping(_) | Message::Pong(_))) => continue,
                    Some(Ok(Message::Close(_)) | Err(_)) | None => break,
                };
                match budget.spend() {
                    Spend::Ok => {}
                    Spend::Over => {
                        if socket.send(Message::Text(error_msg("rate_limited", "too many messages; slow down"))).await.is_err() {
                            break;
                        }
                        continue;
                    }
                    Spend::Close => {
                        let _gone = socket.send(close(CLOSE_POLICY, "message budget exceeded")).await;
                        break;
                    }
                }
                let reply = match ClientFrame::decode(&text) {
                    Ok(ClientFrame { msg: ClientMsg::Ping, .. }) => encode_bare("pong"),
                    Ok(msg) => {
                        if handle.send(RoomCmd::Client { sub, msg }).await.is_err() {
                            break;
                        }
                        continue;
                    }
                    Err(e) => error_msg(e.code(), &e.to_string()),
                };
                if socket.send(Message::Text(reply)).await.is_err() {
                    break;
                }
            }
        }
    }
    let _gone = handle.send(RoomCmd::Leave { sub }).await;
}

/// Serves one lobby connection: the current snapshot, then each new one.
pub(crate) async fn lobby_connection<S, E>(mut socket: S, app: AppState)
where
    S: Stream<Item = Result<Message, E>> + Sink<Message> + Unpin,
{
    let _counted = Counted::new(&app.0.connections);
    let mut snapshots = app.0.lobby.subscribe();
    let first = snapshots.borrow_and_update().message.clone();
    if socket.send(Message::Text(first)).await.is_err() {
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
                if socket.send(Message::Text(snapshot)).await.is_err() {
                    break;
                }
            }
            incoming = socket.next() => {
                let text = match incoming {
                    Some(Ok(Message::Text(text))) => text,
                    Some(Ok(Message::Binary(_) | Message::Ping(_) | Message::Pong(_))) => continue,
                    Some(Ok(Message::Close(_)) | Err(_)) | None => break,
                };
                let reply = match budget.spend() {
                    Spend::Close => {
                        let _gone = socket.send(close(CLOSE_POLICY, "message budget exceeded")).await;
                        break;
                    }
                    Spend::Over => error_msg("rate_limited", "too many messages; slow down"),
                    Spend::Ok => match ClientMsg::decode(&text) {
                        Ok(ClientMsg::Ping) => encode_bare("pong"),
                        Ok(_) => error_msg("unknown_type", "the lobby only answers ping"),
                        Err(e) => error_msg(e.code(), &e.to_string()),
                    },
                };
                if socket.send(Message::Text(reply)).await.is_err() {
                    break;
                }
            }
        }
    }
}
