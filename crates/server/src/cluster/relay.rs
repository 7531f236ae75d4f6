//! Relaying: a client connected to a node that does not own its room is
//! served by the owner over a NATS tunnel.
//!
//! The relay node subscribes to `cpx.tun.{id}.out`, then asks the owner
//! (`cpx.node.{owner}.open`, request/reply) to open tunnel `id`. The owner
//! subscribes to `cpx.tun.{id}.in` and runs the ordinary room connection
//! ([`crate::ws::room_connection`]) over a [`Tunnel`], a WebSocket-shaped
//! stream and sink whose frames travel on those two subjects. Core NATS
//! keeps one publisher's messages in order on a subject, which is all a
//! WebSocket promises too. Each side sends a beat every [`BEAT`]; a side
//! that hears nothing for [`SILENCE`] ends the connection (the relay
//! closes its client's socket, which reconnects and finds the room's new
//! node), so a killed or paused node is noticed within seconds.
//!
//! The room's summary and export are asked the same way
//! (`cpx.node.{owner}.ask`), answered from the owner's room.

use std::{
    pin::Pin,
    task::{Context, Poll},
    time::Duration,
};

use async_nats::{Client, Subscriber};
use axum::extract::ws::{CloseFrame, Message, Utf8Bytes, WebSocket};
use bytes::Bytes;
use futures_util::{Sink, Stream, StreamExt as _};
use serde::{Deserialize, Serialize};

use super::{Cluster, node_subject};
use crate::{AppState, room::Registry, room::RoomLoadError, util::new_token, ws::RoomQuery};

/// How often each end of a tunnel says it is alive.
const BEAT: Duration = Duration::from_secs(1);

/// How long an end waits without hearing anything before it gives up.
pub(crate) const SILENCE: Duration = Duration::from_secs(4);

/// How long a request to another node may wait for its answer.
const ASK_TIMEOUT: Duration = Duration::from_secs(3);

/// Close code sent to a relayed client when the room's node went silent.
const CLOSE_GONE: u16 = 1012;

/// One frame of a tunnel on the bus.
#[derive(Debug, PartialEq, Eq)]
enum Frame {
    Text(Utf8Bytes),
    Close(u16, String),
    Beat,
}

impl Frame {
    fn encode(&self) -> Bytes {
        match self {
            Self::Text(t) => {
                let mut b = Vec::with_capacity(t.len() + 1);
                b.push(b'T');
                b.extend_from_slice(t.as_bytes());
                b.into()
            }
            Self::Close(code, reason) => {
                let mut b = vec![b'C'];
                b.extend_from_slice(&code.to_be_bytes());
                b.extend_from_slice(reason.as_bytes());
                b.into()
            }
            Self::Beat => Bytes::from_static(b"B"),
        }
    }

    fn decode(bytes: &[u8]) -> Option<Self> {
        match bytes.split_first()? {
            (b'T', text) => Some(Self::Text(String::from_utf8(text.to_vec()).ok()?.into())),
            (b'C', rest) if rest.len() >= 2 => Some(Self::Close(
                u16::from_be_bytes([rest[0], rest[1]]),
                String::from_utf8_lossy(&rest[2..]).into_owned(),
            )),
            (b'B', []) => Some(Self::Beat),
            _ => None,
        }
    }

    fn of_message(msg: Message) -> Option<Self> {
        match msg {
            Message::Text(t) => Some(Self::Text(t)),
            Message::Close(frame) => Some(match frame {
                Some(f) => Self::Close(f.code, f.reason.to_string()),
                None => Self::Close(1000, String::new()),
            }),
            Message::Binary(_) | Message::Ping(_) | Message::Pong(_) => None,
        }
    }

    fn into_message(self) -> Option<Message> {
        match self {
            Self::Text(t) => Some(Message::Text(t)),
            Self::Close(code, reason) => Some(Message::Close(Some(CloseFrame {
                code,
                reason: reason.into(),
            }))),
            Self::Beat => None,
        }
    }
}

fn tunnel_subject(id: &str, dir: &str) -> String {
    format!("cpx.tun.{id}.{dir}")
}

/// Publishes a beat on `subject` every [`BEAT`] until dropped.
struct Beats(tokio::task::JoinHandle<()>);

impl Beats {
    fn start(client: Client, subject: String) -> Self {
        Self(tokio::spawn(async move {
            let mut tick = tokio::time::interval(BEAT);
            loop {
                tick.tick().await;
                if client
                    .publish(subject.clone(), Frame::Beat.encode())
                    .await
                    .is_err()
                {
                    return;
                }
            }
        }))
    }
}

impl Drop for Beats {
    fn drop(&mut self) {
        self.0.abort();
    }
}

/// The next frame other than a beat, `None` after [`SILENCE`] or when the
/// subscription ends.
async fn next_frame(sub: &mut Subscriber) -> Option<Frame> {
    loop {
        let msg = tokio::time::timeout(SILENCE, sub.next()).await.ok()??;
        match Frame::decode(&msg.payload) {
            Some(Frame::Beat) | None => {}
            Some(frame) => return Some(frame),
        }
    }
}

type Incoming = Pin<Box<dyn Stream<Item = Result<Message, std::convert::Infallible>> + Send>>;
type Outgoing = Pin<Box<dyn Sink<Message, Error = async_nats::PublishError> + Send>>;

/// The owner's end of a tunnel: looks like a WebSocket to the room
/// connection. Its stream ends when the relay goes silent; dropping it
/// tells the relay the connection is over.
pub(crate) struct Tunnel {
    incoming: Incoming,
    outgoing: Outgoing,
    client: Client,
    out_subject: String,
    _beats: Beats,
}

impl Tunnel {
    fn new(client: Client, id: &str, sub: Subscriber) -> Self {
        let out_subject = tunnel_subject(id, "out");
        let incoming = futures_util::stream::unfold(sub, |mut sub| async move {
            let frame = next_frame(&mut sub).await?;
            Some((Ok(frame.into_message()?), sub))
        });
        let outgoing = futures_util::sink::unfold(
            (client.clone(), out_subject.clone()),
            |(client, subject), msg: Message| async move {
                if let Some(frame) = Frame::of_message(msg) {
                    client.publish(subject.clone(), frame.encode()).await?;
                }
                Ok((client, subject))
            },
        );
        Self {
            incoming: Box::pin(incoming),
            outgoing: Box::pin(outgoing),
            _beats: Beats::start(client.clone(), out_subject.clone()),
            client,
            out_subject,
        }
    }
}

impl Drop for Tunnel {
    fn drop(&mut self) {
        // The relay hears the end at once instead of after the silence
        // (harmless if a close frame went first).
        let client = self.client.clone();
        let subject = std::mem::take(&mut self.out_subject);
        tokio::spawn(async move {
            let close = Frame::Close(1011, "room connection ended".to_owned());
            let _gone = client.publish(subject, close.encode()).await;
        });
    }
}

impl Stream for Tunnel {
    type Item = Result<Message, std::convert::Infallible>;

    fn poll_next(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        self.incoming.as_mut().poll_next(cx)
    }
}

impl Sink<Message> for Tunnel {
    type Error = async_nats::PublishError;

    fn poll_ready(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Result<(), Self::Error>> {
        self.outgoing.as_mut().poll_ready(cx)
    }

    fn start_send(mut self: Pin<&mut Self>, item: Message) -> Result<(), Self::Error> {
        self.outgoing.as_mut().start_send(item)
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Result<(), Self::Error>> {
        self.outgoing.as_mut().poll_flush(cx)
    }

    fn poll_close(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Result<(), Self::Error>> {
        self.outgoing.as_mut().poll_close(cx)
    }
}

/// A request to the node holding a room.
#[derive(Debug, Serialize, Deserialize)]
#[serde(tag = "t", rename_all = "snake_case")]
enum Request {
    /// Open tunnel `tunnel` to a connection of `room`.
    Open {
        room: String,
        tunnel: String,
        token: Option<String>,
        invite: Option<String>,
        v: Option<u64>,
    },
    /// The room's summary.
    Summary { room: String },
    /// The room's export, its `Site` under `site`.
    Export { room: String, site: String },
}

/// The owner's answer.
#[derive(Debug, Serialize, Deserialize)]
#[serde(tag = "r", content = "d", rename_all = "snake_case")]
enum Reply {
    /// The tunnel is open.
    Opened,
    /// The summary's JSON.
    Summary(serde_json::Value),
    /// The export's text.
    Export(String),
    /// The room is not (or no longer) here.
    NotHere,
    /// There is no such room.
    NoRoom,
    /// The owner failed.
    Failed(String),
}

/// Why a room's owner could not answer.
#[derive(Debug, thiserror::Error)]
pub(crate) enum AskError {
    /// Nobody answered (the node is gone or paused) or the answer was
    /// not understood.
    #[error("node {0} did not answer")]
    Unreachable(String),
    /// The node no longer holds the room.
    #[error("the room left node {0}")]
    NotHere(String),
    /// There is no such room.
    #[error("no such room")]
    NoRoom,
    /// The node failed.
    #[error("node {node}: {message}")]
    Failed {
        /// The node.
        node: String,
        /// What it said.
        message: String,
    },
}

async fn ask(cluster: &Cluster, owner: &str, request: &Request) -> Result<Reply, AskError> {
    let body = serde_json::to_vec(request).map_err(|_| AskError::Unreachable(owner.to_owned()))?;
    let asked = cluster
        .nats
        .request(node_subject(owner, "ask"), body.into());
    let answer = tokio::time::timeout(ASK_TIMEOUT, asked)
        .await
        .map_err(|_| AskError::Unreachable(owner.to_owned()))?
        .map_err(|_| AskError::Unreachable(owner.to_owned()))?;
    match serde_json::from_slice(&answer.payload) {
        Ok(Reply::NotHere) => Err(AskError::NotHere(owner.to_owned())),
        Ok(Reply::NoRoom) => Err(AskError::NoRoom),
        Ok(Reply::Failed(message)) => Err(AskError::Failed {
            node: owner.to_owned(),
            message,
        }),
        Ok(reply) => Ok(reply),
        Err(_) => Err(AskError::Unreachable(owner.to_owned())),
    }
}

/// The summary of `room` from its owner, as JSON.
pub(crate) async fn summary(
    cluster: &Cluster,
    owner: &str,
    room: &str,
) -> Result<serde_json::Value, AskError> {
    let request = Request::Summary {
        room: room.to_owned(),
    };
    match ask(cluster, owner, &request).await? {
        Reply::Summary(v) => Ok(v),
        _ => Err(AskError::Unreachable(owner.to_owned())),
    }
}

/// The export of `room` from its owner.
pub(crate) async fn export(
    cluster: &Cluster,
    owner: &str,
    room: &str,
    site: String,
) -> Result<String, AskError> {
    let request = Request::Export {
        room: room.to_owned(),
        site,
    };
    match ask(cluster, owner, &request).await? {
        Reply::Export(text) => Ok(text),
        _ => Err(AskError::Unreachable(owner.to_owned())),
    }
}

/// A tunnel the owner has opened; [`pump`] it with the client's socket.
#[derive(Debug)]
pub(crate) struct Opened {
    client: Client,
    id: String,
    out: Subscriber,
}

/// Asks `owner` to open a tunnel to a connection of `room`.
pub(crate) async fn open(
    cluster: &Cluster,
    owner: &str,
    room: &str,
    query: &RoomQuery,
) -> Result<Opened, AskError> {
    let id = new_token();
    let out = cluster
        .nats
        .subscribe(tunnel_subject(&id, "out"))
        .await
        .map_err(|_| AskError::Unreachable(owner.to_owned()))?;
    let request = Request::Open {
        room: room.to_owned(),
        tunnel: id.clone(),
        token: query.token.clone(),
        invite: query.invite.clone(),
        v: query.v,
    };
    match ask(cluster, owner, &request).await? {
        Reply::Opened => Ok(Opened {
            client: cluster.nats.clone(),
            id,
            out,
        }),
        _ => Err(AskError::Unreachable(owner.to_owned())),
    }
}

/// Carries frames between the client's `socket` and the owner until
/// either ends. A silent owner closes the client with 1012 ("service
/// restart"): the client reconnects with its last `v` and finds the room
/// on its new node.
pub(crate) async fn pump(mut socket: WebSocket, mut opened: Opened, write_timeout: Duration) {
    let in_subject = tunnel_subject(&opened.id, "in");
    let _beats = Beats::start(opened.client.clone(), in_subject.clone());
    let client = opened.client.clone();
    let send = |frame: Frame| {
        let client = client.clone();
        let subject = in_subject.clone();
        async move { client.publish(subject, frame.encode()).await.is_ok() }
    };
    loop {
        tokio::select! {
            incoming = socket.next() => {
                let frame = match incoming {
                    Some(Ok(msg)) => match Frame::of_message(msg) {
                        Some(frame) => frame,
                        None => continue,
                    },
                    Some(Err(_)) | None => Frame::Close(1001, String::new()),
                };
                let closing = matches!(frame, Frame::Close(..));
                if !send(frame).await || closing {
                    break;
                }
            }
            out = next_frame(&mut opened.out) => {
                let Some(frame) = out else {
                    let close = Message::Close(Some(CloseFrame {
                        code: CLOSE_GONE,
                        reason: "the room's server stopped answering; reconnect".into(),
                    }));
                    let _late = tokio::time::timeout(write_timeout, socket.send(close)).await;
                    break;
                };
                let closing = matches!(frame, Frame::Close(..));
                let Some(msg) = frame.into_message() else { continue };
                let sent = tokio::time::timeout(write_timeout, socket.send(msg)).await;
                if closing {
                    // The owner waits for the client's close; answer for it.
                    let _done = send(Frame::Close(1000, String::new())).await;
                    break;
                }
                if !matches!(sent, Ok(Ok(()))) {
                    let _done = send(Frame::Close(1001, String::new())).await;
                    break;
                }
            }
        }
    }
}

/// Answers the requests other nodes send this node, for as long as the
/// server runs.
pub(crate) async fn serve(app: AppState, mut requests: Subscriber) {
    while let Some(msg) = requests.next().await {
        let app = app.clone();
        tokio::spawn(async move {
            let Some(reply_to) = msg.reply.clone() else {
                return;
            };
            let reply = match serde_json::from_slice::<Request>(&msg.payload) {
                Ok(request) => answer(&app, request).await,
                Err(e) => Reply::Failed(e.to_string()),
            };
            let Some(cluster) = &app.0.cluster else {
                return;
            };
            let body = serde_json::to_vec(&reply).unwrap_or_default();
            let _gone = cluster.nats.publish(reply_to, body.into()).await;
        });
    }
}

async fn answer(app: &AppState, request: Request) -> Reply {
    let room = match &request {
        Request::Open { room, .. } | Request::Summary { room } | Request::Export { room, .. } => {
            room.clone()
        }
    };
    // A summary is answered only by a node running the room: asking must
    // not take it over (the asker reads the database instead).
    if matches!(request, Request::Summary { .. }) && app.0.registry.running(&room).is_none() {
        return Reply::NotHere;
    }
    let handle = match Registry::get(&app.0, &room).await {
        Ok(Some(handle)) => handle,
        Ok(None) => return Reply::NoRoom,
        Err(RoomLoadError::Elsewhere { .. }) => return Reply::NotHere,
        Err(e) => return Reply::Failed(e.to_string()),
    };
    match request {
        Request::Summary { .. } => match handle.summary().await {
            Ok(s) => serde_json::to_value(&s)
                .map_or_else(|e| Reply::Failed(e.to_string()), Reply::Summary),
            Err(_) => Reply::NotHere,
        },
        Request::Export { site, .. } => match handle.export(site).await {
            Ok(text) => Reply::Export(text),
            Err(_) => Reply::NotHere,
        },
        Request::Open {
            tunnel,
            token,
            invite,
            v,
            ..
        } => {
            let Some(cluster) = &app.0.cluster else {
                return Reply::Failed("not in a cluster".to_owned());
            };
            let sub = match cluster.nats.subscribe(tunnel_subject(&tunnel, "in")).await {
                Ok(sub) => sub,
                Err(e) => return Reply::Failed(e.to_string()),
            };
            let socket = Tunnel::new(cluster.nats.clone(), &tunnel, sub);
            let query = RoomQuery { token, invite, v };
            tokio::spawn(crate::ws::room_connection(
                socket,
                app.clone(),
                room,
                handle,
                query,
            ));
            Reply::Opened
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Frame;

    #[test]
    fn frames_survive_the_bus() {
        for frame in [
            Frame::Text("{\"t\":\"ping\"}".into()),
            Frame::Close(4008, "too slow".to_owned()),
            Frame::Close(1000, String::new()),
            Frame::Beat,
        ] {
            assert_eq!(Frame::decode(&frame.encode()), Some(frame));
        }
        assert_eq!(Frame::decode(b""), None);
        assert_eq!(Frame::decode(b"C\x01"), None);
        assert_eq!(Frame::decode(b"X"), None);
    }
}
