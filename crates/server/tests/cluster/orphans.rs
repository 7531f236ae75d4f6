//! The orphan sweep with real processes: the owner of three unattended
//! rooms is killed and nobody asks for them. Another node must adopt the
//! game whose clock runs (and its flag fall by the server's verdict, the
//! time without an owner charged) and the room whose AI is thinking (and
//! the AI move), within 15 s; the open room, with nothing to run, must not
//! be adopted; the summary must say `"node": null` for a room nobody
//! holds, and the adopter's name once adopted.

use std::{
    net::SocketAddr,
    sync::{Arc, atomic::AtomicBool},
    time::{Duration, Instant},
};

use chessplayx_server::{AiRequest, Picker};
use serde_json::{Value, json};

use crate::{
    clients::Client,
    common::{Ws, first_move_picker},
    processes::{Node, get, http_from},
};

/// The AI level whose picker thinks [`SLOW_THINK`] first, so a node can
/// die while its AI thinks.
const SLOW_AI_LEVEL: u8 = 8;
const SLOW_THINK: Duration = Duration::from_secs(3);

/// The nodes' picker: the first legal move, after [`SLOW_THINK`] at
/// [`SLOW_AI_LEVEL`] (unless the search is stopped).
pub(crate) fn picker() -> Picker {
    let first = first_move_picker();
    Arc::new(
        move |req: &AiRequest, deadline, stop: &Arc<AtomicBool>, so_far: &_| {
            if req.level.number() == SLOW_AI_LEVEL {
                let until = Instant::now() + SLOW_THINK;
                while Instant::now() < until && !stop.load(std::sync::atomic::Ordering::Relaxed) {
                    std::thread::sleep(Duration::from_millis(20));
                }
            }
            first(req, deadline, stop, so_far)
        },
    )
}

/// The database as the test reads it, beside the nodes.
struct Db(tokio_postgres::Client);

impl Db {
    async fn connect(url: &str) -> Self {
        let (client, connection) = tokio_postgres::connect(url, tokio_postgres::NoTls)
            .await
            .expect("the database");
        tokio::spawn(connection);
        Self(client)
    }

    /// The lease of `id`: node, epoch, given back.
    async fn lease(&self, id: &str) -> (String, i64, bool) {
        let row = self
            .0
            .query_one(
                "SELECT node, epoch, released FROM room_leases WHERE room_id = $1",
                &[&id],
            )
            .await
            .expect("a lease");
        (row.get(0), row.get(1), row.get(2))
    }

    async fn moves(&self, id: &str) -> i64 {
        self.0
            .query_one("SELECT count(*) FROM moves WHERE room_id = $1", &[&id])
            .await
            .expect("moves")
            .get(0)
    }

    /// The stored result of `id` once finished: winner, reason, and the
    /// milliseconds from its last move to the result's commit.
    async fn result(&self, id: &str) -> Option<(Option<String>, String, i64)> {
        let row = self
            .0
            .query_one(
                "SELECT r.state, r.winner, r.reason,
                    r.updated_at - (SELECT max(played_at) FROM moves m WHERE m.room_id = r.id)
                 FROM rooms r WHERE r.id = $1",
                &[&id],
            )
            .await
            .expect("a room");
        (row.get::<_, String>(0) == "finished").then(|| (row.get(1), row.get(2), row.get(3)))
    }
}

async fn create(addr: SocketAddr, body: &Value) -> Value {
    let (status, room) = http_from([127, 0, 0, 1], addr, "POST", "/api/rooms", Some(body)).await;
    assert_eq!(status, 201, "{room}");
    room
}

/// A 15-second game on `addr`: both sides move once, so White's clock
/// runs, and both leave. Its id.
async fn clock_game(addr: SocketAddr) -> String {
    let room = create(
        addr,
        &json!({"variant": "chess", "color": "white", "clock": {"minutes": 0.25, "increment": 0}}),
    )
    .await;
    let id = room["id"].as_str().expect("id").to_owned();
    let invite = room["invite_url"].as_str().expect("invite");
    let invite = invite.split("invite=").nth(1).expect("invite token");
    let mut white = Client::new(
        format!("{id} white"),
        room["seat_token"].as_str().map(str::to_owned),
    );
    white.connect(addr, &id).await;
    let mut ws = Ws::connect(addr, &format!("/ws/room/{id}?invite={invite}")).await;
    let seat = ws.expect("seat").await;
    let mut black = Client::new(
        format!("{id} black"),
        seat["d"]["token"].as_str().map(str::to_owned),
    );
    black.ws = Some(ws);
    while black.recv().await["t"] != "presence" {}
    let v = play_first_move(&mut white, 0).await;
    black.until_v(v).await;
    play_first_move(&mut black, 1).await;
    for c in [white, black] {
        if let Some(ws) = c.ws {
            ws.close().await;
        }
    }
    id
}

/// `mover` plays its first legal move as ply `ply`; the `v` of its move
/// event, from the `ack`.
async fn play_first_move(mover: &mut Client, ply: u32) -> u64 {
    let uci = mover.legal[0].clone();
    let ws = mover.ws.as_mut().expect("connected");
    ws.send_move(&uci, ply).await;
    loop {
        let msg = mover.recv().await;
        assert_ne!(msg["t"], "error", "{}: {msg}", mover.who);
        if msg["t"] == "ack" {
            return msg["d"]["v"].as_u64().expect("ack v");
        }
    }
}

/// What the summaries said of one room over time.
#[derive(Default)]
struct Seen {
    /// Since the kill: when the summary first said `null`, and when it
    /// first named a live node (and which).
    null_at: Option<Duration>,
    adopted: Option<(Duration, String)>,
}

impl Seen {
    fn note(&mut self, at: Duration, node: &Value, live: &[String], id: &str) {
        match node.as_str() {
            None => {
                assert!(self.adopted.is_none(), "{id}: null after its adoption");
                self.null_at.get_or_insert(at);
            }
            Some(n) if live.iter().any(|l| l == n) => {
                self.adopted.get_or_insert((at, n.to_owned()));
            }
            Some(_) => assert!(
                self.adopted.is_none() && self.null_at.is_none(),
                "{id}: the dead node named again: {node}"
            ),
        }
    }
}

/// Kills `nodes[k]`, the owner of a running 15-second game, of an AI room
/// whose AI is thinking and of an open room, with nobody connected to any
/// of them, and checks what the other nodes do by themselves.
pub(crate) async fn orphans_are_adopted(nodes: &mut [Node], k: usize, db_url: &str) {
    let db = Db::connect(db_url).await;
    let owner = nodes[k].addr;
    let clock = clock_game(owner).await;
    let open = create(owner, &json!({"variant": "chess"})).await["id"]
        .as_str()
        .expect("id")
        .to_owned();
    let ai = create(
        owner,
        &json!({"variant": "chess", "color": "black", "ai_level": SLOW_AI_LEVEL}),
    )
    .await["id"]
        .as_str()
        .expect("id")
        .to_owned();
    let (_, summary) = get(owner, &format!("/api/rooms/{ai}")).await;
    assert_eq!(summary["ply"], 0, "the AI is still thinking: {summary}");
    for id in [&clock, &open, &ai] {
        assert_eq!(db.lease(id).await.0, nodes[k].name, "{id} is the owner's");
    }
    nodes[k].kill9();
    let killed = Instant::now();
    let live: Vec<(String, SocketAddr)> = nodes
        .iter()
        .filter(|n| n.child.is_some())
        .map(|n| (n.name.clone(), n.addr))
        .collect();
    let names: Vec<String> = live.iter().map(|(n, _)| n.clone()).collect();

    let mut seen = [Seen::default(), Seen::default(), Seen::default()];
    let mut asked = 0usize;
    let result = loop {
        let at = killed.elapsed();
        assert!(
            at < Duration::from_secs(25),
            "after 25 s: clock room adopted {:?}, AI room {:?}, open room null {:?}",
            seen[0].adopted,
            seen[1].adopted,
            seen[2].null_at
        );
        for (i, id) in [&clock, &ai, &open].into_iter().enumerate() {
            // Each request to another node, so no one node answers all.
            let addr = live[asked % live.len()].1;
            asked += 1;
            let (status, summary) = get(addr, &format!("/api/rooms/{id}")).await;
            assert_eq!(status, 200, "{summary}");
            seen[i].note(at, &summary["node"], &names, id);
        }
        if let Some(result) = db.result(&clock).await {
            break result;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    };
    println!(
        "orphans after a kill: clock room null at {:?}, adopted {:?}; AI room adopted {:?}; \
         flag fell {} ms after the last move",
        seen[0].null_at, seen[0].adopted, seen[1].adopted, result.2
    );
    // The flag fell by the server's verdict, after White's 15 s counted
    // from the last move (not from the adoption, 4-8 s later): the time
    // without an owner was charged.
    assert_eq!(
        (result.0.as_deref(), result.1.as_str()),
        (Some("black"), "timeout")
    );
    assert!(
        (14_900..18_000).contains(&result.2),
        "the flag fell {} ms after the last move, not 15 s",
        result.2
    );
    let bound = Duration::from_secs(15);
    for (what, s) in [("clock room", &seen[0]), ("AI room", &seen[1])] {
        let (at, _) = s
            .adopted
            .as_ref()
            .unwrap_or_else(|| panic!("{what} never adopted"));
        assert!(*at < bound, "{what} adopted {at:?} after the kill");
    }
    // The AI room's new owner moved for the AI, nobody connected.
    let deadline = killed + bound + SLOW_THINK + Duration::from_secs(2);
    while db.moves(&ai).await < 1 {
        assert!(Instant::now() < deadline, "the adopted AI did not move");
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    let (node, epoch, _) = db.lease(&ai).await;
    assert!(names.contains(&node) && epoch > 1, "{node} {epoch}");
    // The open room has nothing to run: nobody took it, its summary
    // says so, and its lease was given back (no sweep looks at it again).
    assert!(seen[2].null_at.is_some(), "the open room's node never null");
    assert!(seen[2].adopted.is_none(), "the open room was adopted");
    let (_, epoch, released) = db.lease(&open).await;
    assert_eq!((epoch, released), (1, true), "the open room's lease");
    nodes[k].start();
}
