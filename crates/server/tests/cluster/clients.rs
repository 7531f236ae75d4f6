//! The clients of the cluster test: connections that check every message
//! they get (event numbers without gaps, moves at the right ply), and games
//! of three of them on three nodes.

use std::net::SocketAddr;

use rand::{Rng as _, rngs::StdRng};
use serde_json::{Value, json};

use crate::{
    WAIT,
    common::Ws,
    processes::{Node, get, http_from},
};

/// A connection of a game, with what it has seen: the event number and
/// the moves, checked message by message.
pub(crate) struct Client {
    pub(crate) who: String,
    pub(crate) token: Option<String>,
    pub(crate) ws: Option<Ws>,
    pub(crate) v: u64,
    pub(crate) history: Vec<String>,
    pub(crate) legal: Vec<String>,
    pub(crate) over: bool,
}

impl Client {
    pub(crate) fn new(who: String, token: Option<String>) -> Self {
        Self {
            who,
            token,
            ws: None,
            v: 0,
            history: Vec::new(),
            legal: Vec::new(),
            over: false,
        }
    }

    /// (Re)connects to `addr`, with its token and last `v` after the
    /// first time, and reads until it is in step (a `state`, or the
    /// replay of what it missed, then `presence`).
    ///
    /// A connection closed before `presence` is tried again, as the web
    /// client does: while a paused owner's lease has not yet run out, a
    /// live node relays to it and closes the socket with 1012 ("the
    /// room's server stopped answering; reconnect") when it stays silent.
    pub(crate) async fn connect(&mut self, addr: SocketAddr, room: &str) {
        let deadline = tokio::time::Instant::now() + WAIT;
        loop {
            if self.try_connect(addr, room).await {
                return;
            }
            assert!(
                tokio::time::Instant::now() < deadline,
                "{} could not get in step with {room} on {addr}",
                self.who
            );
            eprintln!(
                "{}: {addr} closed before presence; connecting again",
                self.who
            );
            tokio::time::sleep(std::time::Duration::from_millis(250)).await;
        }
    }

    /// One attempt of [`Self::connect`]: `false` when the server closed
    /// the connection before `presence`.
    async fn try_connect(&mut self, addr: SocketAddr, room: &str) -> bool {
        if let Some(ws) = self.ws.take() {
            ws.close().await;
        }
        let mut path = format!("/ws/room/{room}?");
        if let Some(t) = &self.token {
            path.push_str(&format!("token={t}&"));
        }
        if self.v > 0 {
            path.push_str(&format!("v={}", self.v));
        }
        let ws = tokio::time::timeout(WAIT, Ws::connect(addr, &path))
            .await
            .unwrap_or_else(|_| panic!("{} could not connect to {addr}", self.who));
        self.ws = Some(ws);
        // The newcomer always gets `presence` last.
        loop {
            let Some(m) = self.try_recv().await else {
                self.ws = None;
                return false;
            };
            if m["t"] == "presence" {
                return true;
            }
        }
    }

    /// The next message, applied to what the client knows.
    pub(crate) async fn recv(&mut self) -> Value {
        self.try_recv().await.expect("connection closed")
    }

    /// The next message, applied to what the client knows, or `None`
    /// when the server closed the connection.
    async fn try_recv(&mut self) -> Option<Value> {
        let ws = self.ws.as_mut().expect("connected");
        let m = tokio::time::timeout(WAIT, ws.try_recv())
            .await
            .unwrap_or_else(|_| panic!("{}: no message in time", self.who))?;
        self.apply(&m);
        Some(m)
    }

    fn apply(&mut self, m: &Value) {
        let d = &m["d"];
        let ucis = |list: &Value| -> Vec<String> {
            list.as_array()
                .map(|a| {
                    a.iter()
                        .filter_map(|x| x["uci"].as_str().map(str::to_owned))
                        .collect()
                })
                .unwrap_or_default()
        };
        if m["t"] == "state" {
            let v = d["v"].as_u64().expect("state v");
            assert!(
                v >= self.v,
                "{}: state went back from {} to {v}",
                self.who,
                self.v
            );
            let history = ucis(&d["history"]);
            assert!(
                history.starts_with(&self.history),
                "{}: the history changed: had {:?}, got {:?}",
                self.who,
                self.history,
                history
            );
            self.v = v;
            self.history = history;
            self.legal = ucis(&d["moves"]);
            self.over = !d["outcome"].is_null();
            return;
        }
        if let Some(v) = m.get("v").and_then(Value::as_u64) {
            assert_eq!(v, self.v + 1, "{}: event numbers jump: {m}", self.who);
            self.v = v;
            if m["t"] == "move" {
                assert_eq!(
                    d["ply"].as_u64(),
                    Some(self.history.len() as u64),
                    "{}: move of the wrong ply: {m}",
                    self.who
                );
                self.history
                    .push(d["uci"].as_str().expect("uci").to_owned());
                self.legal = ucis(&d["moves"]);
            }
            if m["t"] == "end" {
                self.over = true;
            }
        }
    }

    /// Reads until the client has seen event `v`.
    pub(crate) async fn until_v(&mut self, v: u64) {
        while self.v < v {
            self.recv().await;
        }
    }
}

/// A game: white, black and a spectator.
pub(crate) struct Game {
    pub(crate) id: String,
    pub(crate) variant: &'static str,
    pub(crate) clients: [Client; 3],
}

impl Game {
    pub(crate) fn ply(&self) -> usize {
        self.clients[0].history.len()
    }

    /// The index of the player on turn (white moves at even plies; a
    /// Horde/Xiangqi start is White/Red too).
    pub(crate) fn mover(&self) -> usize {
        self.ply() % 2
    }

    pub(crate) fn over(&self) -> bool {
        self.clients.iter().any(|c| c.over)
    }

    /// Plays one random legal move and checks everyone sees it; `false`
    /// when the game is over.
    pub(crate) async fn play(&mut self, rng: &mut StdRng) -> bool {
        if self.over() {
            return false;
        }
        let m = self.mover();
        let legal = &self.clients[m].legal;
        if legal.is_empty() {
            return false;
        }
        let uci = legal[rng.random_range(0..legal.len())].clone();
        let ply = self.ply();
        self.send_move(m, &uci, ply).await;
        let v = self.await_ack(m, ply).await;
        for c in &mut self.clients {
            c.until_v(v).await;
            assert_eq!(c.history.get(ply), Some(&uci), "{}: {}", c.who, self.id);
        }
        true
    }

    pub(crate) async fn send_move(&mut self, m: usize, uci: &str, ply: usize) {
        let ws = self.clients[m].ws.as_mut().expect("connected");
        ws.send_move(uci, u32::try_from(ply).expect("a ply")).await;
    }

    /// Reads the mover's messages until the `ack` of `ply`; its `v`.
    pub(crate) async fn await_ack(&mut self, m: usize, ply: usize) -> u64 {
        loop {
            let msg = self.clients[m].recv().await;
            if msg["t"] == "ack" {
                assert_eq!(msg["d"]["ply"].as_u64(), Some(ply as u64), "{msg}");
                return msg["d"]["v"].as_u64().expect("ack v");
            }
            assert_ne!(msg["t"], "error", "{}: {msg}", self.clients[m].who);
        }
    }

    /// Every client reconnects, each to the next live node in turn.
    pub(crate) async fn reconnect(&mut self, nodes: &[&Node], shift: usize) {
        let id = self.id.clone();
        for (i, c) in self.clients.iter_mut().enumerate() {
            let node = nodes[(i + shift) % nodes.len()];
            c.connect(node.addr, &id).await;
        }
        let v = self.clients.iter().map(|c| c.v).max().unwrap_or(0);
        for c in &mut self.clients {
            assert_eq!(c.v, v, "{} out of step after reconnecting", c.who);
        }
    }
}

pub(crate) async fn owner(nodes: &[Node], id: &str) -> String {
    let live = nodes
        .iter()
        .find(|n| n.child.is_some())
        .expect("a live node");
    let (status, summary) = get(live.addr, &format!("/api/rooms/{id}")).await;
    assert_eq!(status, 200, "{summary}");
    summary["node"].as_str().expect("an owner").to_owned()
}

pub(crate) async fn new_game(nodes: &[Node], g: usize, variant: &'static str) -> Game {
    let (status, room) = http_from(
        [127, 0, 0, 1],
        nodes[g % 3].addr,
        "POST",
        "/api/rooms",
        Some(&json!({"variant": variant, "color": "white"})),
    )
    .await;
    assert_eq!(status, 201, "{room}");
    let id = room["id"].as_str().expect("id").to_owned();
    let invite = room["invite_url"]
        .as_str()
        .expect("invite")
        .split("invite=")
        .nth(1)
        .expect("invite token")
        .to_owned();
    let mut white = Client::new(
        format!("{id} white"),
        room["seat_token"].as_str().map(str::to_owned),
    );
    white.connect(nodes[g % 3].addr, &id).await;
    // Black takes the seat with the invite on another node; its seat
    // token comes in `seat`.
    let mut black = Client::new(format!("{id} black"), None);
    let path = format!("/ws/room/{id}?invite={invite}");
    let mut ws = Ws::connect(nodes[(g + 1) % 3].addr, &path).await;
    let seat = ws.expect("seat").await;
    black.token = seat["d"]["token"].as_str().map(str::to_owned);
    black.ws = Some(ws);
    loop {
        if black.recv().await["t"] == "presence" {
            break;
        }
    }
    let mut spectator = Client::new(format!("{id} spectator"), None);
    spectator.connect(nodes[(g + 2) % 3].addr, &id).await;
    let mut game = Game {
        id,
        variant,
        clients: [white, black, spectator],
    };
    let v = game.clients[1].v;
    for c in &mut game.clients {
        c.until_v(v).await;
    }
    game
}
