//! Three nodes on one PostgreSQL and one NATS, as real processes: games
//! whose two players and spectator sit on different nodes, owners killed
//! (SIGKILL) repeatedly in all four games, one owner paused (SIGSTOP) past
//! its lease, and the checks of issue 12: nothing acknowledged lost or
//! applied twice, event numbers without gaps, a paused node's write
//! refused, lobby totals over all nodes, one room-creation limit across
//! nodes, start-up errors naming the database or the bus.
//!
//! The nodes are this test binary run again with `--node` (no harness:
//! `main` is ours), so the test needs no other binary and kills real
//! processes. PostgreSQL comes from `common/pg.rs`, `nats-server` from the
//! PATH. When either is not installed the test says so and passes (CI
//! installs both, `.ci/run`).

mod common;

use std::{
    net::SocketAddr,
    path::PathBuf,
    process::{Child, Command, ExitCode, Stdio},
    time::{Duration, Instant},
};

use chessplayx_server::{Config, NodeId, Store};
use common::{Ws, pg};
use rand::{Rng as _, SeedableRng as _, rngs::StdRng};
use serde_json::{Value, json};

/// How long a test step may wait for a message.
const WAIT: Duration = Duration::from_secs(30);

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().collect();
    if args.get(1).map(String::as_str) == Some("--node") {
        return node_main(&args[2..]);
    }
    if args.iter().any(|a| a == "--list") {
        // What cargo-nextest asks a test binary.
        if !args.iter().any(|a| a == "--ignored") {
            println!("three_nodes: test");
        }
        return ExitCode::SUCCESS;
    }
    // A name filter (`cargo test NAME`) that is not ours skips the test.
    let filters: Vec<&String> = args[1..].iter().filter(|a| !a.starts_with('-')).collect();
    if !filters.is_empty() && !filters.iter().any(|f| "three_nodes".contains(f.as_str())) {
        return ExitCode::SUCCESS;
    }
    if let Some(missing) = missing_parts() {
        println!("test three_nodes ... SKIPPED: {missing} (install it to run the cluster test)");
        return ExitCode::SUCCESS;
    }
    let started = Instant::now();
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("a runtime");
    runtime.block_on(three_nodes());
    println!("test three_nodes ... ok ({:.0?})", started.elapsed());
    ExitCode::SUCCESS
}

/// A node process: `--node ADDR DB BUS NAME`.
fn node_main(args: &[String]) -> ExitCode {
    let [addr, db, bus, name] = args else {
        eprintln!("usage: --node ADDR DB BUS NAME");
        return ExitCode::FAILURE;
    };
    let config = Config {
        addr: addr.parse().expect("an address"),
        db_path: PathBuf::from(db),
        web_dir: PathBuf::from("/nonexistent/web/dist"),
        room_rate_per_minute: 30,
        disconnect_grace: Duration::from_secs(60),
        ai_threads: 1,
        bus: Some(bus.clone()),
        node_id: Some(name.parse::<NodeId>().expect("a node id")),
        ..Config::default()
    };
    match chessplayx_server::serve(config, common::first_move_picker()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("chessplayx: {e}");
            ExitCode::from(2)
        }
    }
}

/// What is not installed, if anything.
fn missing_parts() -> Option<&'static str> {
    let on_path = |name: &str| {
        std::env::var_os("PATH")
            .iter()
            .flat_map(std::env::split_paths)
            .any(|d| d.join(name).exists())
    };
    if !on_path("nats-server") {
        return Some("nats-server is not installed");
    }
    let debian = std::fs::read_dir("/usr/lib/postgresql")
        .into_iter()
        .flatten()
        .filter_map(Result::ok)
        .any(|e| e.path().join("bin/initdb").exists());
    if std::env::var_os("CHESSPLAYX_PG_BIN").is_none() && !debian && !on_path("initdb") {
        return Some("PostgreSQL (initdb) is not installed");
    }
    None
}

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .expect("a free port")
        .port()
}

/// `nats-server` with JetStream in a temporary folder; killed on drop.
struct Nats {
    child: Child,
    url: String,
    _dir: tempfile::TempDir,
}

impl Nats {
    fn start() -> Self {
        let dir = tempfile::tempdir().expect("a folder");
        let port = free_port();
        let child = Command::new("nats-server")
            .args(["-a", "127.0.0.1", "-p", &port.to_string(), "-js", "-sd"])
            .arg(dir.path())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("starting nats-server");
        let deadline = Instant::now() + Duration::from_secs(20);
        while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
            assert!(Instant::now() < deadline, "nats-server did not start");
            std::thread::sleep(Duration::from_millis(50));
        }
        Self {
            child,
            url: format!("nats://127.0.0.1:{port}"),
            _dir: dir,
        }
    }
}

impl Drop for Nats {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// One `serve` process of the cluster.
struct Node {
    name: String,
    addr: SocketAddr,
    db: String,
    bus: String,
    child: Option<Child>,
    log: PathBuf,
}

fn node_command(addr: &str, db: &str, bus: &str, name: &str) -> Command {
    let mut cmd = Command::new(std::env::current_exe().expect("this binary"));
    cmd.args(["--node", addr, db, bus, name]);
    cmd
}

impl Node {
    fn new(name: &str, db: &str, bus: &str, logs: &std::path::Path) -> Self {
        let mut node = Self {
            name: name.to_owned(),
            addr: SocketAddr::from(([127, 0, 0, 1], free_port())),
            db: db.to_owned(),
            bus: bus.to_owned(),
            child: None,
            log: logs.join(format!("{name}.log")),
        };
        node.start();
        node
    }

    /// Starts the process and waits for its "listening on" line.
    fn start(&mut self) {
        use std::io::BufRead as _;
        let log = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(&self.log)
            .expect("a log file");
        let mut child = node_command(&self.addr.to_string(), &self.db, &self.bus, &self.name)
            .env("RUST_LOG", "chessplayx_server=info")
            .stdout(Stdio::piped())
            .stderr(log)
            .spawn()
            .expect("starting a node");
        let stdout = child.stdout.take().expect("its stdout");
        let mut line = String::new();
        std::io::BufReader::new(stdout)
            .read_line(&mut line)
            .expect("reading its stdout");
        assert!(
            line.contains("listening on"),
            "node {} did not start: {line:?}\n{}",
            self.name,
            std::fs::read_to_string(&self.log).unwrap_or_default()
        );
        self.child = Some(child);
    }

    fn pid(&self) -> rustix::process::Pid {
        let id = self.child.as_ref().expect("running").id();
        rustix::process::Pid::from_raw(i32::try_from(id).expect("a pid")).expect("a pid")
    }

    fn kill9(&mut self) {
        if let Some(mut child) = self.child.take() {
            child.kill().expect("SIGKILL");
            child.wait().expect("reaping");
        }
    }

    fn signal(&self, signal: rustix::process::Signal) {
        rustix::process::kill_process(self.pid(), signal).expect("signalling a node");
    }

    fn log_text(&self) -> String {
        std::fs::read_to_string(&self.log).unwrap_or_default()
    }
}

impl Drop for Node {
    fn drop(&mut self) {
        if self.child.is_some() {
            let _ = rustix::process::kill_process(self.pid(), rustix::process::Signal::CONT);
        }
        self.kill9();
    }
}

/// An HTTP request from the local address `from` (a loopback address of
/// our choice, so the rate-limit burst has its own bucket).
async fn http_from(
    from: [u8; 4],
    addr: SocketAddr,
    method: &str,
    path: &str,
    body: Option<&Value>,
) -> (u16, Value) {
    use tokio::io::{AsyncReadExt as _, AsyncWriteExt as _};
    let socket = tokio::net::TcpSocket::new_v4().expect("a socket");
    socket
        .bind(SocketAddr::from((from, 0)))
        .expect("binding the source address");
    let mut stream = socket.connect(addr).await.expect("connecting");
    let body = body.map(Value::to_string).unwrap_or_default();
    let request = format!(
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\n\
         Content-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    );
    stream.write_all(request.as_bytes()).await.expect("writing");
    let mut response = Vec::new();
    tokio::time::timeout(WAIT, stream.read_to_end(&mut response))
        .await
        .expect("an answer in time")
        .expect("reading");
    let text = String::from_utf8_lossy(&response);
    let status = text
        .split(' ')
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(0);
    let body = text.split("\r\n\r\n").nth(1).unwrap_or("");
    // The body may be chunked: take the JSON object in it.
    let json = body
        .find('{')
        .and_then(|start| body.rfind('}').map(|end| &body[start..=end]))
        .and_then(|j| serde_json::from_str(j).ok())
        .unwrap_or(Value::Null);
    (status, json)
}

async fn get(addr: SocketAddr, path: &str) -> (u16, Value) {
    http_from([127, 0, 0, 1], addr, "GET", path, None).await
}

/// A connection of a game, with what it has seen: the event number and
/// the moves, checked message by message.
struct Client {
    who: String,
    token: Option<String>,
    ws: Option<Ws>,
    v: u64,
    history: Vec<String>,
    legal: Vec<String>,
    over: bool,
}

impl Client {
    fn new(who: String, token: Option<String>) -> Self {
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
    async fn connect(&mut self, addr: SocketAddr, room: &str) {
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
            let m = self.recv().await;
            if m["t"] == "presence" {
                break;
            }
        }
    }

    /// The next message, applied to what the client knows.
    async fn recv(&mut self) -> Value {
        let ws = self.ws.as_mut().expect("connected");
        let m = tokio::time::timeout(WAIT, ws.recv())
            .await
            .unwrap_or_else(|_| panic!("{}: no message in time", self.who));
        self.apply(&m);
        m
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
    async fn until_v(&mut self, v: u64) {
        while self.v < v {
            self.recv().await;
        }
    }
}

/// A game: white, black and a spectator.
struct Game {
    id: String,
    variant: &'static str,
    clients: [Client; 3],
}

impl Game {
    fn ply(&self) -> usize {
        self.clients[0].history.len()
    }

    /// The index of the player on turn (white moves at even plies; a
    /// Horde/Xiangqi start is White/Red too).
    fn mover(&self) -> usize {
        self.ply() % 2
    }

    fn over(&self) -> bool {
        self.clients.iter().any(|c| c.over)
    }

    /// Plays one random legal move and checks everyone sees it; `false`
    /// when the game is over.
    async fn play(&mut self, rng: &mut StdRng) -> bool {
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

    async fn send_move(&mut self, m: usize, uci: &str, ply: usize) {
        let ws = self.clients[m].ws.as_mut().expect("connected");
        ws.send_move(uci, u32::try_from(ply).expect("a ply")).await;
    }

    /// Reads the mover's messages until the `ack` of `ply`; its `v`.
    async fn await_ack(&mut self, m: usize, ply: usize) -> u64 {
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
    async fn reconnect(&mut self, nodes: &[&Node], shift: usize) {
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

async fn owner(nodes: &[Node], id: &str) -> String {
    let live = nodes
        .iter()
        .find(|n| n.child.is_some())
        .expect("a live node");
    let (status, summary) = get(live.addr, &format!("/api/rooms/{id}")).await;
    assert_eq!(status, 200, "{summary}");
    summary["node"].as_str().expect("an owner").to_owned()
}

async fn new_game(nodes: &[Node], g: usize, variant: &'static str) -> Game {
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

/// What the database holds of a room: its moves and `v`.
async fn stored(store: &Store, id: &str) -> (Vec<String>, u64) {
    let record = store.load_room(id).await.expect("load").expect("a room");
    let plies: Vec<u32> = record.moves.iter().map(|m| m.ply).collect();
    let expected: Vec<u32> = (0..u32::try_from(plies.len()).expect("plies")).collect();
    assert_eq!(plies, expected, "{id}: plies stored with gaps or twice");
    let vs: Vec<u64> = record.moves.iter().map(|m| m.v).collect();
    assert!(
        vs.windows(2).all(|w| w[0] < w[1]),
        "{id}: move events out of order"
    );
    (record.moves.into_iter().map(|m| m.uci).collect(), record.v)
}

async fn three_nodes() {
    let db = pg::server().create_database("cluster");
    let nats = Nats::start();
    // Kept after a failure, to read what the nodes said.
    let logs = tempfile::Builder::new()
        .prefix("chessplayx-cluster-logs")
        .tempdir()
        .expect("a folder");
    println!("node logs in {}", logs.path().display());
    let logs = logs.keep();
    start_up_errors(&db, &nats.url);
    let mut nodes: Vec<Node> = ["n1", "n2", "n3"]
        .iter()
        .map(|n| Node::new(n, &db, &nats.url, &logs))
        .collect();
    let store = Store::open(std::path::Path::new(&db))
        .await
        .expect("the database");
    let mut rng = StdRng::seed_from_u64(12);

    let variants = ["chess", "horde", "atomic", "xiangqi"];
    let mut games = Vec::new();
    for (g, variant) in variants.into_iter().enumerate() {
        games.push(new_game(&nodes, g, variant).await);
    }
    for game in &mut games {
        for _ in 0..4 {
            game.play(&mut rng).await;
        }
    }
    lobby_totals(&nodes, 12, 4).await;

    // Kill the owner of each game in turn, with a move in flight; the
    // clients reconnect to the two other nodes, which take the room over
    // once the lease expires; the killed node comes back.
    let mut failovers = Vec::new();
    for round in 0..2 {
        for g in 0..games.len() {
            if games[g].over() {
                continue;
            }
            let owner_name = owner(&nodes, &games[g].id).await;
            let k = nodes
                .iter()
                .position(|n| n.name == owner_name)
                .expect("a node");
            let game = &mut games[g];
            let m = game.mover();
            let ply = game.ply();
            let uci =
                game.clients[m].legal[rng.random_range(0..game.clients[m].legal.len())].clone();
            game.send_move(m, &uci, ply).await;
            nodes[k].kill9();
            let killed = Instant::now();
            let live: Vec<&Node> = nodes.iter().filter(|n| n.child.is_some()).collect();
            game.reconnect(&live, round + g).await;
            // The move was committed or not: sent again, it is applied
            // once (a duplicate is acknowledged again).
            let game = &mut games[g];
            if game.ply() == ply {
                game.send_move(m, &uci, ply).await;
                let v = game.await_ack(m, ply).await;
                for c in &mut game.clients {
                    c.until_v(v).await;
                }
            }
            failovers.push(killed.elapsed());
            assert_eq!(game.clients[2].history.get(ply), Some(&uci));
            game.play(&mut rng).await;
            nodes[k].start();
            // The other games' clients on the killed node reconnect too.
            let live: Vec<&Node> = nodes.iter().collect();
            for (h, other) in games.iter_mut().enumerate() {
                if h != g && !other.over() {
                    other.reconnect(&live, h).await;
                    other.play(&mut rng).await;
                }
            }
        }
    }
    println!("failover (kill to the move played again): {failovers:?}");

    paused_owner_is_fenced(&mut nodes, &mut games[0], &store).await;
    // Connections relayed to the paused node were closed by their relays
    // (it went silent): the clients come back, anywhere.
    let live: Vec<&Node> = nodes.iter().collect();
    for (g, game) in games.iter_mut().enumerate() {
        game.reconnect(&live, g).await;
    }

    for game in &games {
        let (moves, v) = stored(&store, &game.id).await;
        for c in &game.clients {
            assert_eq!(
                c.history, moves,
                "{}: acknowledged moves lost or doubled",
                c.who
            );
            assert!(c.v <= v);
        }
        println!(
            "{} ({}): {} plies, v {v}",
            game.id,
            game.variant,
            moves.len()
        );
    }
    let total: usize = games.iter().map(|g| g.clients.len()).sum();
    lobby_totals(&nodes, total, games.iter().filter(|g| !g.over()).count()).await;
    rate_limit_across_nodes(&nodes).await;
    drop(nodes);
    let _ = std::fs::remove_dir_all(&logs);
}

/// The owner of `game` is paused past its lease; the clients move to the
/// other nodes, which take the room; the mover had sent a move to the
/// paused node. Resumed, that node must not write it: the database
/// refuses its epoch, and the room goes on from the new owner.
async fn paused_owner_is_fenced(nodes: &mut [Node], game: &mut Game, store: &Store) {
    let owner_name = owner(nodes, &game.id).await;
    let k = nodes
        .iter()
        .position(|n| n.name == owner_name)
        .expect("a node");
    let m = game.mover();
    // The mover talks to the owner directly.
    game.clients[m]
        .connect(nodes[k].addr, &game.id.clone())
        .await;
    let ply = game.ply();
    let (stale_move, good_move) = {
        let legal = &game.clients[m].legal;
        (legal[0].clone(), legal[legal.len() - 1].clone())
    };
    assert_ne!(stale_move, good_move, "two different moves to tell apart");
    nodes[k].signal(rustix::process::Signal::STOP);
    game.send_move(m, &stale_move, ply).await;
    let mut stale_ws = game.clients[m].ws.take();
    let live: Vec<&Node> = nodes.iter().filter(|n| n.name != owner_name).collect();
    game.reconnect(&live, 0).await;
    assert_eq!(game.ply(), ply, "the paused node's move was not committed");
    nodes[k].signal(rustix::process::Signal::CONT);
    // Its renewal or its write finds the lease gone; give it time to try.
    tokio::time::sleep(Duration::from_secs(3)).await;
    let (moves, _) = stored(store, &game.id).await;
    assert_eq!(
        moves.len(),
        ply,
        "the paused node wrote after losing the room"
    );
    if let Some(ws) = stale_ws.as_mut() {
        // Its connection was closed, or the move refused.
        let answer = tokio::time::timeout(Duration::from_secs(5), ws.try_recv()).await;
        if let Ok(Some(msg)) = answer {
            assert_ne!(
                msg["t"], "ack",
                "the paused node acknowledged a move: {msg}"
            );
        }
    }
    game.send_move(m, &good_move, ply).await;
    let v = game.await_ack(m, ply).await;
    for c in &mut game.clients {
        c.until_v(v).await;
    }
    let (moves, _) = stored(store, &game.id).await;
    assert_eq!(moves.get(ply), Some(&good_move));
    drop(stale_ws);
    let log = nodes[k].log_text();
    assert!(
        log.contains("lease lost") || log.contains("write fenced"),
        "the paused node did not notice it lost the room:\n{log}"
    );
}

/// Every node's lobby counts every node's connections and games.
async fn lobby_totals(nodes: &[Node], online: usize, playing: usize) {
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        let mut all = true;
        let mut seen = Vec::new();
        for n in nodes {
            let (status, lobby) = get(n.addr, "/api/lobby").await;
            assert_eq!(status, 200);
            let c = &lobby["counters"];
            seen.push(c.clone());
            all &= c["players_online"].as_u64() == Some(online as u64)
                && c["games_playing"].as_u64() == Some(playing as u64);
        }
        if all {
            return;
        }
        if Instant::now() >= deadline {
            let mut health = Vec::new();
            for n in nodes {
                health.push(get(n.addr, "/api/health").await.1);
            }
            panic!(
                "lobby totals: expected {online} online and {playing} playing, got {seen:?}; \
                 nodes: {health:?}"
            );
        }
        tokio::time::sleep(Duration::from_millis(250)).await;
    }
}

/// A burst of room creations from one address through all three nodes
/// meets one limit of 30.
async fn rate_limit_across_nodes(nodes: &[Node]) {
    let mut created = 0;
    let mut refused = 0;
    for i in 0..45 {
        let (status, body) = http_from(
            [127, 0, 0, 2],
            nodes[i % 3].addr,
            "POST",
            "/api/rooms",
            Some(&json!({"variant": "chess"})),
        )
        .await;
        match status {
            201 => {
                assert_eq!(refused, 0, "a room created after a refusal: {body}");
                created += 1;
            }
            429 => refused += 1,
            other => panic!("creating a room: {other} {body}"),
        }
    }
    // A token comes back every 2 s: a slow burst may earn one more.
    assert!(
        (30..=31).contains(&created),
        "{created} rooms created in the burst"
    );
    assert_eq!(created + refused, 45);
}

/// A node whose database or bus is unreachable stops with an error naming
/// it; a bus without PostgreSQL is refused.
fn start_up_errors(db: &str, bus: &str) {
    let addr = format!("127.0.0.1:{}", free_port());
    let closed = format!("nats://127.0.0.1:{}", free_port());
    let run = |db: &str, bus: &str| {
        let out = node_command(&addr, db, bus, "x")
            .output()
            .expect("running a node");
        assert!(!out.status.success(), "a node started with {db} {bus}");
        String::from_utf8_lossy(&out.stderr).into_owned()
    };
    let err = run(db, &closed);
    assert!(err.contains(&closed), "the bus is not named: {err}");
    let no_db = pg::server().url("nosuchdb");
    let err = run(&no_db, bus);
    assert!(err.contains(&no_db), "the database is not named: {err}");
    let err = run("/tmp/x.sqlite", bus);
    assert!(err.contains("postgres"), "{err}");
}
