//! The real `chessplayx serve` as a child process: it answers on a port
//! it picks, and a SIGKILL in the middle of games loses no acknowledged
//! move (the restarted server has them all and the games go on).

use std::{
    io::{BufRead, BufReader, Read, Write},
    net::{SocketAddr, TcpStream},
    path::Path,
    process::{Child, Command, Stdio},
    time::Duration,
};

use serde_json::{Value, json};
use tungstenite::{Message, WebSocket, stream::MaybeTlsStream};

const TIMEOUT: Duration = Duration::from_secs(20);

struct Server {
    child: Child,
    addr: SocketAddr,
}

impl Server {
    fn start(db: &Path) -> Self {
        let mut child = Command::new(env!("CARGO_BIN_EXE_chessplayx"))
            .args(["serve", "--addr", "127.0.0.1:0", "--room-rate", "0", "--db"])
            .arg(db)
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("the server starts");
        let stdout = child.stdout.take().expect("stdout is piped");
        let mut line = String::new();
        BufReader::new(stdout)
            .read_line(&mut line)
            .expect("the server prints its address");
        let addr = line
            .trim()
            .strip_prefix("listening on http://")
            .unwrap_or_else(|| panic!("unexpected first line {line:?}"))
            .parse()
            .unwrap();
        Self { child, addr }
    }

    /// SIGKILL: no shutdown code runs.
    fn kill(mut self) {
        self.child.kill().unwrap();
        self.child.wait().unwrap();
    }

    fn http(&self, method: &str, path: &str, body: Option<&Value>) -> (u16, String) {
        let mut s = TcpStream::connect(self.addr).unwrap();
        s.set_read_timeout(Some(TIMEOUT)).unwrap();
        let body = body.map(Value::to_string).unwrap_or_default();
        write!(
            s,
            "{method} {path} HTTP/1.1\r\nHost: {}\r\nConnection: close\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
            self.addr,
            body.len()
        )
        .unwrap();
        let mut raw = String::new();
        s.read_to_string(&mut raw).unwrap();
        let (head, rest) = raw.split_once("\r\n\r\n").unwrap();
        (
            head.split(' ').nth(1).unwrap().parse().unwrap(),
            rest.to_owned(),
        )
    }

    fn ws(&self, path: &str) -> Ws {
        let (mut ws, _) = tungstenite::connect(format!("ws://{}{path}", self.addr)).unwrap();
        if let MaybeTlsStream::Plain(s) = ws.get_mut() {
            s.set_read_timeout(Some(TIMEOUT)).unwrap();
        }
        Ws(ws)
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

struct Ws(WebSocket<MaybeTlsStream<TcpStream>>);

impl Ws {
    fn send(&mut self, v: &Value) {
        self.0.send(Message::Text(v.to_string().into())).unwrap();
    }

    fn expect(&mut self, t: &str) -> Value {
        loop {
            match self.0.read().unwrap() {
                Message::Text(text) => {
                    let m: Value = serde_json::from_str(&text).unwrap();
                    if m["t"] == t {
                        return m;
                    }
                    assert!(m["t"] != "error", "expected {t}, got the error {m}");
                }
                Message::Close(_) => panic!("closed while waiting for {t}"),
                _ => {}
            }
        }
    }
}

fn moves_of(v: &Value) -> Vec<String> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|m| m["uci"].as_str().unwrap().to_owned())
        .collect()
}

struct Game {
    id: String,
    tokens: [String; 2],
    sockets: [Ws; 2],
    legal: Vec<String>,
    acked: Vec<String>,
    /// The clocks of the last acknowledged move.
    clock: Value,
}

fn open_game(server: &Server, variant: &str) -> Game {
    open_game_with(server, &json!({"variant": variant, "color": "white"}))
}

fn open_game_with(server: &Server, body: &Value) -> Game {
    let (status, body) = server.http("POST", "/api/rooms", Some(body));
    assert_eq!(status, 201, "{body}");
    let room: Value = serde_json::from_str(&body).unwrap();
    let id = room["id"].as_str().unwrap().to_owned();
    let white_token = room["seat_token"].as_str().unwrap().to_owned();
    let mut white = server.ws(&format!("/ws/room/{id}?token={white_token}"));
    white.expect("state");
    let invite = room["invite_url"]
        .as_str()
        .unwrap()
        .replacen("/r/", "/ws/room/", 1);
    let mut black = server.ws(&invite);
    let black_token = black.expect("seat")["d"]["token"]
        .as_str()
        .unwrap()
        .to_owned();
    let state = black.expect("state");
    white.expect("joined");
    Game {
        id,
        tokens: [white_token, black_token],
        sockets: [white, black],
        legal: moves_of(&state["d"]["moves"]),
        acked: Vec::new(),
        clock: Value::Null,
    }
}

/// Plays the `k`-th legal move (mod their number), waiting for its ack.
fn play_acked(game: &mut Game, k: usize) {
    let ply = game.acked.len();
    let uci = game.legal[k % game.legal.len()].clone();
    let mover = &mut game.sockets[ply % 2];
    mover.send(&json!({"t": "move", "d": {"uci": uci, "ply": ply}}));
    let ack = mover.expect("ack");
    assert_eq!(ack["d"]["ply"], ply);
    let ev = mover.expect("move");
    game.legal = moves_of(&ev["d"]["moves"]);
    game.acked.push(uci);
    game.clock = ev["d"]["clock"].clone();
}

#[test]
fn a_killed_server_keeps_every_acknowledged_move() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("crash.sqlite");
    let server = Server::start(&db);
    let (status, version) = server.http("GET", "/api/version", None);
    assert_eq!(status, 200);
    assert!(version.contains("\"version\":\"0.1.0 · "), "{version}");

    let variants = ["chess", "horde", "atomic", "xiangqi"];
    let mut games: Vec<Game> = variants.iter().map(|v| open_game(&server, v)).collect();
    // A game with a clock: its times must come back as they were at the
    // last move, the downtime charged to nobody.
    let mut clocked = open_game_with(
        &server,
        &json!({"variant": "chess", "color": "white", "clock": {"minutes": 5, "increment": 0}}),
    );
    for k in 0..4 {
        play_acked(&mut clocked, k);
    }
    let stored_clock = clocked.clock.clone();
    assert_eq!(stored_clock["running"], "white");
    // Knight-ish shuffles keep the games going: the 3rd legal move each
    // time, a different index per game.
    for round in 0..6 {
        for (i, g) in games.iter_mut().enumerate() {
            play_acked(g, 3 + i + round);
        }
    }
    // One more move per game is sent and the server is killed at once:
    // these may or may not have been committed, but nothing acknowledged
    // may be missing.
    for g in &mut games {
        let ply = g.acked.len();
        let uci = g.legal[0].clone();
        g.sockets[ply % 2].send(&json!({"t": "move", "d": {"uci": uci, "ply": ply}}));
    }
    server.kill();
    // Two seconds of downtime, which nobody's clock may lose.
    std::thread::sleep(Duration::from_secs(2));

    let server = Server::start(&db);
    let mut white = server.ws(&format!(
        "/ws/room/{}?token={}",
        clocked.id, clocked.tokens[0]
    ));
    let state = white.expect("state");
    let clock = &state["d"]["clock"];
    assert_eq!(clock["running"], "white");
    assert_eq!(clock["black"], stored_clock["black"]);
    let before = stored_clock["white"].as_u64().unwrap();
    let now = clock["white"].as_u64().unwrap();
    assert!(
        now <= before && before - now < 1_000,
        "white had {before} ms at the last move and {now} ms after the restart"
    );
    for g in &mut games {
        let mut white = server.ws(&format!("/ws/room/{}?token={}", g.id, g.tokens[0]));
        let state = white.expect("state");
        assert_eq!(state["d"]["you"], "white");
        assert_eq!(state["d"]["state"], "playing");
        let history: Vec<String> = state["d"]["history"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| m["uci"].as_str().unwrap().to_owned())
            .collect();
        assert!(
            history.len() == g.acked.len() || history.len() == g.acked.len() + 1,
            "{}: acked {:?}, stored {history:?}",
            g.id,
            g.acked
        );
        assert_eq!(history[..g.acked.len()], g.acked[..], "{}", g.id);
        // The game goes on from where the server says it is.
        let mut black = server.ws(&format!("/ws/room/{}?token={}", g.id, g.tokens[1]));
        black.expect("state");
        g.acked = history;
        g.legal = moves_of(&state["d"]["moves"]);
        g.sockets = [white, black];
        play_acked(g, 1);
        play_acked(g, 2);
    }
}
