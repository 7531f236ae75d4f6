//! A real server on 127.0.0.1:0 with a temporary database, and small
//! HTTP and WebSocket clients to drive it.
//!
//! The database is a SQLite file by default. With
//! `CHESSPLAYX_TEST_DB=postgres` every server runs on PostgreSQL instead:
//! one server per test binary (started by `pg.rs`), one database per
//! SQLite path a test asks for — the same path (a test restarting its
//! server) gives the same database.

#![allow(dead_code, unreachable_pub, missing_docs)]

pub mod pg;

use std::{
    collections::HashMap,
    net::SocketAddr,
    path::PathBuf,
    sync::{Arc, Mutex, OnceLock, atomic::AtomicBool},
    time::Duration,
};

use chessplayx_server::{AiRequest, AppState, Config, Picker};
use futures_util::{SinkExt as _, StreamExt as _};
use serde_json::{Value, json};
use tokio::{
    io::{AsyncReadExt as _, AsyncWriteExt as _},
    net::{TcpListener, TcpStream},
};
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream, tungstenite::Message};

pub const TIMEOUT: Duration = Duration::from_secs(20);

/// A picker for tests that need an AI seat without the engine's
/// strength: the first legal move in the rules' order (deterministic).
pub fn first_move_picker() -> Picker {
    Arc::new(
        |req: &AiRequest, _deadline, _stop: &Arc<AtomicBool>, _so_far: &_| {
            req.game
                .legal_moves()
                .into_iter()
                .next()
                .map(|m| m.uci.to_string())
        },
    )
}

pub struct TestServer {
    pub addr: SocketAddr,
    pub state: AppState,
    pub dir: tempfile::TempDir,
}

/// Whether `CHESSPLAYX_TEST_DB` asks for PostgreSQL (`postgres`) rather
/// than SQLite (`sqlite`, or unset).
pub fn on_postgres() -> bool {
    match std::env::var("CHESSPLAYX_TEST_DB").as_deref() {
        Err(_) | Ok("" | "sqlite") => false,
        Ok("postgres") => true,
        Ok(other) => panic!("CHESSPLAYX_TEST_DB={other:?}: expected sqlite or postgres"),
    }
}

/// The `--db` value for a test that asked for the SQLite file `sqlite`:
/// that path, or on PostgreSQL the URL of the database standing for it.
/// A value that already is a database URL is kept.
pub fn test_db(sqlite: PathBuf) -> PathBuf {
    if !on_postgres() || sqlite.to_str().is_some_and(|s| s.starts_with("postgres")) {
        return sqlite;
    }
    static DATABASES: OnceLock<Mutex<HashMap<PathBuf, String>>> = OnceLock::new();
    let mut map = DATABASES
        .get_or_init(Mutex::default)
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    PathBuf::from(map.entry(sqlite).or_insert_with(pg::new_database).as_str())
}

pub fn test_config(db: PathBuf) -> Config {
    Config {
        addr: SocketAddr::from(([127, 0, 0, 1], 0)),
        db_path: test_db(db),
        web_dir: PathBuf::from("/nonexistent/web/dist"),
        room_rate_per_minute: 1000,
        disconnect_grace: Duration::from_millis(500),
        ai_threads: 2,
        ..Config::default()
    }
}

impl TestServer {
    pub async fn start() -> Self {
        Self::start_with(|c| c, first_move_picker()).await
    }

    pub async fn start_with(tweak: impl FnOnce(Config) -> Config, picker: Picker) -> Self {
        let dir = tempfile::tempdir().unwrap();
        let config = tweak(test_config(dir.path().join("test.sqlite")));
        Self::start_in(dir, config, picker).await
    }

    pub async fn start_in(dir: tempfile::TempDir, mut config: Config, picker: Picker) -> Self {
        config.db_path = test_db(config.db_path);
        let listener = TcpListener::bind(config.addr).await.unwrap();
        Self::start_on(listener, dir, config, picker).await
    }

    /// Serves on a listener the test made (e.g. with small socket
    /// buffers, which accepted sockets inherit).
    pub async fn start_on(
        listener: TcpListener,
        dir: tempfile::TempDir,
        config: Config,
        picker: Picker,
    ) -> Self {
        let addr = listener.local_addr().unwrap();
        let state = AppState::new(config, picker).await.unwrap();
        let serving = state.clone();
        tokio::spawn(async move {
            chessplayx_server::run(listener, serving, std::future::pending())
                .await
                .unwrap();
        });
        Self { addr, state, dir }
    }

    pub async fn get(&self, path: &str) -> (u16, String) {
        http(self.addr, "GET", path, None, &[]).await
    }

    pub async fn post(&self, path: &str, body: &Value) -> (u16, Value) {
        let (status, text) = http(self.addr, "POST", path, Some(&body.to_string()), &[]).await;
        (
            status,
            serde_json::from_str(&text).unwrap_or(Value::String(text)),
        )
    }

    /// Creates a room; panics unless 201.
    pub async fn create_room(&self, body: Value) -> Value {
        let (status, v) = self.post("/api/rooms", &body).await;
        assert_eq!(status, 201, "{v}");
        v
    }

    pub async fn ws(&self, path: &str) -> Ws {
        Ws::connect(self.addr, path).await
    }
}

/// A one-shot HTTP/1.1 request (enough for our JSON and text bodies).
pub async fn http(
    addr: SocketAddr,
    method: &str,
    path: &str,
    body: Option<&str>,
    headers: &[(&str, &str)],
) -> (u16, String) {
    let body = body.unwrap_or("");
    let mut req = format!(
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\nContent-Type: application/json\r\nContent-Length: {}\r\n",
        body.len()
    );
    for (k, v) in headers {
        req.push_str(&format!("{k}: {v}\r\n"));
    }
    req.push_str("\r\n");
    req.push_str(body);
    let (status, _head, body) = http_raw(addr, &req).await;
    (status, body)
}

/// Sends `request` as it is (the test writes every header) and returns the
/// status, the head in lower case and the body.
pub async fn http_raw(addr: SocketAddr, request: &str) -> (u16, String, String) {
    let mut stream = TcpStream::connect(addr).await.unwrap();
    stream.write_all(request.as_bytes()).await.unwrap();
    let mut raw = Vec::new();
    tokio::time::timeout(TIMEOUT, stream.read_to_end(&mut raw))
        .await
        .unwrap()
        .unwrap();
    let text = String::from_utf8(raw).unwrap();
    let (head, rest) = text.split_once("\r\n\r\n").unwrap();
    let status: u16 = head.split(' ').nth(1).unwrap().parse().unwrap();
    let head = head.to_ascii_lowercase();
    let body = if head.contains("transfer-encoding: chunked") {
        dechunk(rest)
    } else {
        rest.to_owned()
    };
    (status, head, body)
}

fn dechunk(mut s: &str) -> String {
    let mut out = String::new();
    while let Some((size, rest)) = s.split_once("\r\n") {
        let n = usize::from_str_radix(size.trim(), 16).unwrap_or(0);
        if n == 0 {
            break;
        }
        out.push_str(&rest[..n]);
        s = &rest[n + 2..];
    }
    out
}

pub struct Ws {
    pub stream: WebSocketStream<MaybeTlsStream<TcpStream>>,
    /// Every message received, in order.
    pub seen: Vec<Value>,
}

impl Ws {
    pub async fn connect(addr: SocketAddr, path: &str) -> Self {
        let (stream, _) = tokio_tungstenite::connect_async(format!("ws://{addr}{path}"))
            .await
            .unwrap();
        Self {
            stream,
            seen: Vec::new(),
        }
    }

    pub async fn send(&mut self, msg: Value) {
        self.stream
            .send(Message::Text(msg.to_string().into()))
            .await
            .unwrap();
    }

    pub async fn send_move(&mut self, uci: &str, ply: u32) {
        self.send(json!({"t": "move", "d": {"uci": uci, "ply": ply}}))
            .await;
    }

    pub async fn send_bare(&mut self, t: &str) {
        self.send(json!({ "t": t })).await;
    }

    /// The next text message, or `None` when the server closed.
    pub async fn try_recv(&mut self) -> Option<Value> {
        loop {
            let frame = tokio::time::timeout(TIMEOUT, self.stream.next())
                .await
                .expect("no message within the timeout");
            match frame {
                Some(Ok(Message::Text(t))) => {
                    let v: Value = serde_json::from_str(&t).unwrap();
                    self.seen.push(v.clone());
                    return Some(v);
                }
                Some(Ok(Message::Ping(_) | Message::Pong(_))) => {}
                Some(Ok(Message::Close(_)) | Err(_)) | None => return None,
                Some(Ok(other)) => panic!("unexpected frame {other:?}"),
            }
        }
    }

    pub async fn recv(&mut self) -> Value {
        self.try_recv().await.expect("connection closed")
    }

    /// The next message of type `t`, skipping `presence` (and nothing
    /// else: any other type first is a failure).
    pub async fn expect(&mut self, t: &str) -> Value {
        loop {
            let m = self.recv().await;
            if m["t"] == t {
                return m;
            }
            assert_eq!(m["t"], "presence", "expected {t}, got {m}");
        }
    }

    /// Events (messages with `v`) seen so far.
    pub fn events(&self) -> Vec<&Value> {
        self.seen.iter().filter(|m| m.get("v").is_some()).collect()
    }

    pub async fn close(mut self) {
        let _ = self.stream.close(None).await;
    }
}

/// Room page path → WebSocket path: `/r/ID?invite=X` → `/ws/room/ID?invite=X`.
pub fn ws_path_of(url: &str) -> String {
    url.replacen("/r/", "/ws/room/", 1)
}

/// A two-player room with both seats taken: (room id, white, black).
pub async fn two_players(
    server: &TestServer,
    variant: &str,
    fen: Option<&str>,
) -> (String, Ws, Ws) {
    let room = server
        .create_room(json!({"variant": variant, "color": "white", "fen": fen}))
        .await;
    let id = room["id"].as_str().unwrap().to_owned();
    let mut white = server
        .ws(&format!(
            "/ws/room/{id}?token={}",
            room["seat_token"].as_str().unwrap()
        ))
        .await;
    let state = white.expect("state").await;
    assert_eq!(state["d"]["you"], "white");
    assert_eq!(state["d"]["state"], "waiting");
    let mut black = server
        .ws(&ws_path_of(room["invite_url"].as_str().unwrap()))
        .await;
    let seat = black.expect("seat").await;
    assert_eq!(seat["d"]["color"], "black");
    let state = black.expect("state").await;
    assert_eq!(state["d"]["you"], "black");
    assert_eq!(state["d"]["state"], "playing");
    let joined = white.expect("joined").await;
    assert_eq!(joined["d"]["color"], "black");
    (id, white, black)
}

/// Plays `moves` alternately starting with `first`, checking each ack and
/// that both sides see each move event. Returns the last event number.
pub async fn play_line(first: &mut Ws, second: &mut Ws, start_ply: u32, moves: &[&str]) -> u64 {
    let mut last_v = 0;
    for (i, uci) in moves.iter().enumerate() {
        let ply = start_ply + u32::try_from(i).unwrap();
        let (mover, other) = if i % 2 == 0 {
            (&mut *first, &mut *second)
        } else {
            (&mut *second, &mut *first)
        };
        mover.send_move(uci, ply).await;
        let ack = mover.expect("ack").await;
        assert_eq!(ack["d"]["ply"], ply, "{ack}");
        let ev = mover.expect("move").await;
        assert_eq!(ev["d"]["uci"], *uci);
        assert_eq!(ev["v"], ack["d"]["v"]);
        let seen = other.expect("move").await;
        assert_eq!(seen, ev);
        last_v = ev["v"].as_u64().unwrap();
    }
    last_v
}

/// A playing room written straight into the store (for settings the API
/// does not allow, such as a 1.5 s clock): (id, white token, black token).
pub async fn insert_room(
    server: &TestServer,
    variant: &str,
    clock_ms: Option<u64>,
) -> (String, String, String) {
    insert_room_from(server, variant, None, clock_ms).await
}

/// As [`insert_room`], from `start_fen`.
pub async fn insert_room_from(
    server: &TestServer,
    variant: &str,
    start_fen: Option<&str>,
    clock_ms: Option<u64>,
) -> (String, String, String) {
    use chessplayx_rules::ByColor;
    use chessplayx_server::{ClockConfig, RoomRecord, RoomState, SeatRecord, WriteOp};
    use sha2::{Digest as _, Sha256};
    let hash = |t: &str| {
        Sha256::digest(t.as_bytes())
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect::<String>()
    };
    let id = format!("t{:07}", rand::random::<u32>() % 10_000_000);
    let (white, black) = (format!("white-{id}"), format!("black-{id}"));
    let record = RoomRecord {
        id: id.clone(),
        variant: variant.parse().unwrap(),
        start_fen: start_fen.map(str::to_owned),
        clock: clock_ms.map(|initial| ClockConfig {
            initial,
            increment: 0,
        }),
        public: false,
        invite_hash: None,
        lobby_invite: None,
        seats: ByColor::new(
            SeatRecord {
                token_hash: Some(hash(&white)),
                ai_level: None,
            },
            SeatRecord {
                token_hash: Some(hash(&black)),
                ai_level: None,
            },
        ),
        state: RoomState::Playing,
        result: None,
        v: 0,
        offers: String::new(),
        rematch_id: None,
        created_at: 0,
        moves: vec![],
    };
    server
        .state
        .store()
        .write(vec![WriteOp::CreateRoom(Box::new(record))])
        .await
        .unwrap();
    (id, white, black)
}
