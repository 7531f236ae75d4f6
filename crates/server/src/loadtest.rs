//! `chessplayx loadtest`: opens games on a running server over loopback,
//! two WebSocket clients each, and plays random legal moves, measuring
//! each move's round trip: from sending it to having both the mover's
//! `ack` and the opponent's copy of the `move` event.
//!
//! It only talks to the address it is given (loopback in practice) and
//! stops by itself after the set duration.

use std::{
    fmt::Write as _,
    net::SocketAddr,
    sync::{
        Arc,
        atomic::{AtomicBool, AtomicU64, Ordering},
    },
    time::{Duration, Instant},
};

use chessplayx_rules::Variant;
use futures_util::{SinkExt as _, StreamExt as _};
use rand::{Rng as _, SeedableRng as _, rngs::StdRng};
use serde_json::{Value, json};
use tokio::{
    io::{AsyncReadExt as _, AsyncWriteExt as _},
    net::TcpStream,
    sync::{Mutex, Semaphore},
};
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream, tungstenite::Message};

/// What to run.
#[derive(Clone, Debug)]
pub struct LoadConfig {
    /// The server (the first node of a cluster).
    pub addr: SocketAddr,
    /// The other nodes of a cluster (empty: one server). Games are spread
    /// over `addr` and these: game `i`'s White connects to node `i` and
    /// its Black to node `i + 1` (modulo the count), so with several nodes
    /// every move crosses two of them.
    pub also: Vec<SocketAddr>,
    /// Games played at once (each holds two connections).
    pub games: usize,
    /// Extra idle connections (lobby watchers), to reach a connection
    /// count without adding moves.
    pub idle: usize,
    /// How long to play.
    pub duration: Duration,
    /// Pause of a player before each move (0: as fast as possible).
    pub think: Duration,
    /// The variants, used in turn.
    pub variants: Vec<Variant>,
    /// A game is abandoned (and a new one started) after this many plies.
    pub max_plies: u32,
    /// Seed of the move choices.
    pub seed: u64,
    /// The server's process id, to report its memory (Linux `/proc`).
    pub server_pid: Option<u32>,
    /// Rooms against the AI (level 8) played alongside, so that AI
    /// searches run during the whole measurement: the client answers each
    /// AI move at once, and a finished game is followed by a new one. With
    /// more rooms than the server has AI threads, the pool never idles.
    /// Their moves are counted apart.
    pub ai_rooms: usize,
}

/// Why the load test failed to run.
#[derive(Debug, thiserror::Error)]
pub enum LoadError {
    /// A connection or request failed.
    #[error("{0}")]
    Io(#[from] std::io::Error),
    /// The server answered something unexpected.
    #[error("unexpected answer: {0}")]
    Protocol(String),
    /// A WebSocket failed.
    #[error("websocket: {0}")]
    Ws(#[from] tokio_tungstenite::tungstenite::Error),
}

/// The measurements.
#[derive(Clone, Debug, Default)]
pub struct LoadReport {
    /// Moves acknowledged and seen by the opponent.
    pub moves: u64,
    /// Games that reached their end (or the ply cap).
    pub games_finished: u64,
    /// Errors received or connections lost.
    pub errors: u64,
    /// Wall time of the measured phase.
    pub elapsed: Duration,
    /// Round trips in microseconds, sorted.
    pub latencies_us: Vec<u64>,
    /// Peak open connections held by this tool.
    pub connections: usize,
    /// Server RSS (KiB) after setup and at the end of play (every
    /// connection still open), when its pid was given.
    pub server_rss_kib: Option<(u64, u64)>,
    /// The highest server RSS (KiB) sampled every 250 ms during play.
    pub server_rss_peak_kib: Option<u64>,
    /// The 1-minute load average at the start and at the end of play.
    pub load_avg: Option<(f64, f64)>,
    /// How busy the server's AI pool was during play, from its
    /// `/api/health` before and after.
    pub ai_pool: Option<AiPoolUse>,
    /// Time to open every game and connection.
    pub setup: Duration,
    /// AI replies received in the AI games.
    pub ai_moves: u64,
}

/// The server's AI pool during the measured phase.
#[derive(Copy, Clone, Debug, Default, PartialEq)]
pub struct AiPoolUse {
    /// Its search threads.
    pub threads: u64,
    /// Searches finished during play.
    pub searches: u64,
    /// Search time during play over threads × wall time (1.0: every thread
    /// searched all the time).
    pub busy: f64,
    /// The threads' nice value, if the server could set it.
    pub nice: Option<i64>,
}

impl LoadReport {
    /// The `q`-quantile of the round trips (0.5, 0.99, …) in ms.
    #[must_use]
    pub fn percentile_ms(&self, q: f64) -> f64 {
        if self.latencies_us.is_empty() {
            return 0.0;
        }
        // Index in range: q is clamped to [0, 1].
        #[allow(
            clippy::cast_possible_truncation,
            clippy::cast_sign_loss,
            clippy::cast_precision_loss
        )]
        let i = ((self.latencies_us.len() - 1) as f64 * q.clamp(0.0, 1.0)).round() as usize;
        #[allow(clippy::cast_precision_loss)]
        let ms = self.latencies_us[i] as f64 / 1000.0;
        ms
    }

    /// Moves per second.
    #[must_use]
    pub fn moves_per_sec(&self) -> f64 {
        #[allow(clippy::cast_precision_loss)]
        let moves = self.moves as f64;
        moves / self.elapsed.as_secs_f64().max(1e-9)
    }

    /// The report as printed.
    #[must_use]
    pub fn render(&self) -> String {
        let mut s = String::new();
        let _ = writeln!(
            s,
            "connections {}  setup {:.1} s  measured {:.1} s",
            self.connections,
            self.setup.as_secs_f64(),
            self.elapsed.as_secs_f64()
        );
        let _ = writeln!(
            s,
            "moves {}  ({:.0} moves/s)  games finished {}  errors {}",
            self.moves,
            self.moves_per_sec(),
            self.games_finished,
            self.errors
        );
        let _ = writeln!(
            s,
            "round trip ms: p50 {:.2}  p90 {:.2}  p99 {:.2}  p99.9 {:.2}  max {:.2}",
            self.percentile_ms(0.5),
            self.percentile_ms(0.9),
            self.percentile_ms(0.99),
            self.percentile_ms(0.999),
            self.percentile_ms(1.0)
        );
        if self.ai_moves > 0 {
            let _ = writeln!(s, "AI replies in the AI rooms: {}", self.ai_moves);
        }
        if let Some(ai) = self.ai_pool {
            let nice = ai
                .nice
                .map_or_else(|| "unset".to_owned(), |n| n.to_string());
            let _ = writeln!(
                s,
                "AI pool: {} thread(s) at nice {nice}, busy {:.0}% of the time, {} searches",
                ai.threads,
                ai.busy * 100.0,
                ai.searches
            );
        }
        if let Some((setup, end)) = self.server_rss_kib {
            let peak = self.server_rss_peak_kib.unwrap_or(end).max(end);
            let _ = writeln!(
                s,
                "server RSS: {:.1} MiB after setup, peak {:.1} MiB during play, {:.1} MiB at the end of play",
                kib_to_mib(setup),
                kib_to_mib(peak),
                kib_to_mib(end)
            );
        }
        if let Some((start, end)) = self.load_avg {
            let _ = writeln!(
                s,
                "load average (1 min): {start:.2} at the start, {end:.2} at the end"
            );
        }
        s
    }
}

#[allow(clippy::cast_precision_loss)]
fn kib_to_mib(kib: u64) -> f64 {
    kib as f64 / 1024.0
}

/// The resident memory of a process, from `/proc/<pid>/status`.
#[must_use]
pub fn rss_kib(pid: u32) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.split_whitespace().next())
        .and_then(|n| n.parse().ok())
}

/// The 1-minute load average, from `/proc/loadavg`.
fn load_avg() -> Option<f64> {
    std::fs::read_to_string("/proc/loadavg")
        .ok()?
        .split_whitespace()
        .next()?
        .parse()
        .ok()
}

type Socket = WebSocketStream<MaybeTlsStream<TcpStream>>;

/// One HTTP/1.1 request with `Connection: close`; returns status and body.
async fn http_post(addr: SocketAddr, path: &str, body: &Value) -> Result<(u16, Value), LoadError> {
    let body = body.to_string();
    let req = format!(
        "POST {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    );
    http(addr, &req).await
}

/// One GET with `Connection: close`; returns status and body.
async fn http_get(addr: SocketAddr, path: &str) -> Result<(u16, Value), LoadError> {
    http(
        addr,
        &format!("GET {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n"),
    )
    .await
}

async fn http(addr: SocketAddr, req: &str) -> Result<(u16, Value), LoadError> {
    let mut stream = TcpStream::connect(addr).await?;
    stream.write_all(req.as_bytes()).await?;
    let mut raw = Vec::new();
    stream.read_to_end(&mut raw).await?;
    let text = String::from_utf8_lossy(&raw);
    let (head, rest) = text
        .split_once("\r\n\r\n")
        .ok_or_else(|| LoadError::Protocol("no HTTP header".into()))?;
    let status = head
        .split(' ')
        .nth(1)
        .and_then(|s| s.parse().ok())
        .ok_or_else(|| LoadError::Protocol(head.to_owned()))?;
    let value = serde_json::from_str(rest).unwrap_or(Value::Null);
    Ok((status, value))
}

/// tungstenite's default read buffer is 128 KiB and it zeroes the free
/// part before each socket read: with hundreds of connections that memset
/// was a tenth of the machine's CPU during a run, taken from the server it
/// measures. A move event is 1–3 KiB; 8 KiB reads it whole.
const READ_BUFFER: usize = 8 * 1024;

async fn connect(addr: SocketAddr, path: &str) -> Result<Socket, LoadError> {
    let config = tokio_tungstenite::tungstenite::protocol::WebSocketConfig::default()
        .read_buffer_size(READ_BUFFER);
    let (ws, _) = tokio_tungstenite::connect_async_with_config(
        format!("ws://{addr}{path}"),
        Some(config),
        false,
    )
    .await?;
    Ok(ws)
}

/// What the load tool reads of a server frame. Typed and partial on
/// purpose: the tool shares the cores with the server it measures, and
/// building a whole `serde_json::Value` tree of every event (a move event
/// carries the legal moves with their notation) cost more CPU per move
/// than the server's own work.
#[derive(Debug, Default, serde::Deserialize)]
struct Frame {
    /// The message type.
    t: String,
    /// Its data, as far as the tool needs it.
    #[serde(default)]
    d: Option<FrameData>,
}

#[derive(Debug, Default, serde::Deserialize)]
struct FrameData {
    /// The legal moves (`state`, `move`).
    #[serde(default)]
    moves: Vec<FrameMove>,
    /// The position (`state`, `move`).
    #[serde(default)]
    status: Option<FrameStatus>,
}

#[derive(Debug, serde::Deserialize)]
struct FrameMove {
    uci: String,
}

#[derive(Debug, serde::Deserialize)]
struct FrameStatus {
    /// Present (not null) once the game is over.
    #[serde(default)]
    outcome: Option<serde::de::IgnoredAny>,
}

impl Frame {
    /// The legal moves in UCI.
    fn ucis(&self) -> Vec<String> {
        self.d
            .as_ref()
            .map(|d| d.moves.iter().map(|m| m.uci.clone()).collect())
            .unwrap_or_default()
    }

    /// The position has an outcome.
    fn over(&self) -> bool {
        self.d
            .as_ref()
            .and_then(|d| d.status.as_ref())
            .is_some_and(|s| s.outcome.is_some())
    }
}

/// Reads until a message of type `t` (skipping presence and the others).
async fn recv_type(ws: &mut Socket, t: &str) -> Result<Frame, LoadError> {
    loop {
        let text = match ws.next().await {
            Some(Ok(Message::Text(text))) => text,
            Some(Ok(Message::Ping(_) | Message::Pong(_) | Message::Frame(_))) => continue,
            Some(Ok(Message::Binary(_))) => {
                return Err(LoadError::Protocol("binary frame".into()));
            }
            Some(Ok(Message::Close(_))) | None => {
                return Err(LoadError::Protocol("closed".into()));
            }
            Some(Err(e)) => return Err(e.into()),
        };
        let frame: Frame =
            serde_json::from_str(&text).map_err(|e| LoadError::Protocol(e.to_string()))?;
        if frame.t == t {
            return Ok(frame);
        }
        if frame.t == "error" {
            return Err(LoadError::Protocol(text.to_string()));
        }
    }
}

/// Two connected players of one new room.
struct Game {
    sockets: [Socket; 2],
    /// The legal moves of the side to move.
    moves: Vec<String>,
    ply: u32,
}

/// The nodes of game `i`: White's and Black's.
fn game_nodes(config: &LoadConfig, i: usize) -> (SocketAddr, SocketAddr) {
    let n = config.also.len() + 1;
    let node = |k: usize| match k % n {
        0 => config.addr,
        k => config.also[k - 1],
    };
    (node(i), node(i + 1))
}

async fn open_game(
    (addr, black_addr): (SocketAddr, SocketAddr),
    variant: Variant,
) -> Result<Game, LoadError> {
    let (status, room) = http_post(
        addr,
        "/api/rooms",
        &json!({"variant": variant.name(), "color": "white"}),
    )
    .await?;
    if status != 201 {
        return Err(LoadError::Protocol(format!("create room: {status} {room}")));
    }
    let id = room["id"].as_str().unwrap_or_default();
    let token = room["seat_token"].as_str().unwrap_or_default();
    let invite = room["invite_url"].as_str().unwrap_or_default();
    let mut white = connect(addr, &format!("/ws/room/{id}?token={token}")).await?;
    recv_type(&mut white, "state").await?;
    let mut black = connect(black_addr, &invite.replacen("/r/", "/ws/room/", 1)).await?;
    recv_type(&mut black, "seat").await?;
    let state = recv_type(&mut black, "state").await?;
    recv_type(&mut white, "joined").await?;
    let moves = state.ucis();
    Ok(Game {
        sockets: [white, black],
        moves,
        ply: 0,
    })
}

#[derive(Default)]
struct Totals {
    moves: AtomicU64,
    finished: AtomicU64,
    errors: AtomicU64,
    ai_moves: AtomicU64,
}

/// The AI pool's counters from `/api/health`: threads, searches, busy ms,
/// nice.
async fn ai_counters(addr: SocketAddr) -> Option<(u64, u64, u64, Option<i64>)> {
    let (status, health) = http_get(addr, "/api/health").await.ok()?;
    if status != 200 {
        return None;
    }
    let ai = &health["ai"];
    Some((
        ai["threads"].as_u64()?,
        ai["searches"].as_u64()?,
        ai["busy_ms"].as_u64()?,
        ai["nice"].as_i64(),
    ))
}

/// Plays random moves against a level-8 AI until `end`, starting a new
/// game when one ends.
async fn ai_game(addr: SocketAddr, seed: u64, end: Instant, totals: Arc<Totals>) {
    let mut rng = StdRng::seed_from_u64(seed);
    while Instant::now() < end {
        let Ok((status, room)) = http_post(
            addr,
            "/api/rooms",
            &json!({"variant": "chess", "color": "white", "ai_level": 8}),
        )
        .await
        else {
            break;
        };
        if status != 201 {
            break;
        }
        let id = room["id"].as_str().unwrap_or_default();
        let token = room["seat_token"].as_str().unwrap_or_default();
        let Ok(mut ws) = connect(addr, &format!("/ws/room/{id}?token={token}")).await else {
            break;
        };
        let Ok(state) = recv_type(&mut ws, "state").await else {
            break;
        };
        let mut moves = state.ucis();
        let mut ply = 0u32;
        while Instant::now() < end && !moves.is_empty() {
            let uci = moves[rng.random_range(0..moves.len())].clone();
            let msg = json!({"t": "move", "d": {"uci": uci, "ply": ply}}).to_string();
            if ws.send(Message::Text(msg.into())).await.is_err() {
                break;
            }
            // Our move, then (unless it ended the game) the AI's.
            let Ok(ours) = recv_type(&mut ws, "move").await else {
                break;
            };
            if ours.over() {
                break;
            }
            let Ok(reply) = recv_type(&mut ws, "move").await else {
                break;
            };
            totals.ai_moves.fetch_add(1, Ordering::Relaxed);
            ply += 2;
            moves = reply.ucis();
            if reply.over() {
                break;
            }
        }
    }
}

/// Plays one move of `game`; returns the round trip and whether the game
/// is over.
async fn play_one(game: &mut Game, rng: &mut StdRng) -> Result<(Duration, bool), LoadError> {
    let Some(uci) = game.moves.get(rng.random_range(0..game.moves.len().max(1))) else {
        return Ok((Duration::ZERO, true));
    };
    let uci = uci.clone();
    let side = usize::try_from(game.ply % 2).unwrap_or(0);
    let [white, black] = &mut game.sockets;
    let (mover, other) = if side == 0 {
        (white, black)
    } else {
        (black, white)
    };
    let msg = json!({"t": "move", "d": {"uci": uci, "ply": game.ply}}).to_string();
    let sent = Instant::now();
    mover.send(Message::Text(msg.into())).await?;
    let (ack, seen) = tokio::join!(
        async {
            let ack = recv_type(mover, "ack").await;
            let at = Instant::now();
            // The mover gets the move event too; read it so the stream
            // stays in step.
            let ack = match ack {
                Ok(a) => recv_type(mover, "move").await.map(|_| a),
                Err(e) => Err(e),
            };
            (ack, at)
        },
        async {
            let ev = recv_type(other, "move").await;
            (ev, Instant::now())
        }
    );
    let (ack, t_ack) = ack;
    let (ev, t_seen) = seen;
    ack?;
    let ev = ev?;
    let rtt = t_ack.max(t_seen) - sent;
    game.ply += 1;
    game.moves = ev.ucis();
    let over = ev.over() || game.moves.is_empty();
    Ok((rtt, over))
}

/// Plays one load game after another on one pair of sockets until `end`
/// (or `stop`), counting moves and errors into `totals` and the round
/// trips into `latencies`. Returns the last game, kept open until the
/// server's memory has been read. A spawned task: it owns its inputs,
/// hence the many by-value arguments.
#[allow(clippy::too_many_arguments, clippy::needless_pass_by_value)]
async fn drive_game(
    i: usize,
    game: Game,
    variant: Variant,
    config: LoadConfig,
    totals: Arc<Totals>,
    latencies: Arc<Mutex<Vec<u64>>>,
    stop: Arc<AtomicBool>,
    end: Instant,
) -> Game {
    let mut rng = StdRng::seed_from_u64(config.seed ^ (i as u64).wrapping_mul(0x9E37_79B9));
    let mut game = game;
    let mut local = Vec::new();
    // Spread the first moves over the think time.
    if !config.think.is_zero() {
        let jitter = rng.random_range(0..config.think.as_millis().max(1));
        tokio::time::sleep(Duration::from_millis(u64::try_from(jitter).unwrap_or(0))).await;
    }
    while Instant::now() < end && !stop.load(Ordering::Relaxed) {
        if !config.think.is_zero() {
            tokio::time::sleep(config.think).await;
        }
        let played = tokio::time::timeout(Duration::from_secs(10), play_one(&mut game, &mut rng))
            .await
            .unwrap_or_else(|_| Err(LoadError::Protocol("no answer in 10 s".into())));
        match played {
            Ok((rtt, over)) => {
                if rtt > Duration::ZERO {
                    totals.moves.fetch_add(1, Ordering::Relaxed);
                    local.push(u64::try_from(rtt.as_micros()).unwrap_or(u64::MAX));
                }
                if over || game.ply >= config.max_plies {
                    totals.finished.fetch_add(1, Ordering::Relaxed);
                    if !over {
                        // Finish it so the server can retire the room.
                        let resign = json!({"t": "resign"}).to_string();
                        let _ = game.sockets[0].send(Message::Text(resign.into())).await;
                        let _ = recv_type(&mut game.sockets[0], "end").await;
                    }
                    match open_game(game_nodes(&config, i), variant).await {
                        Ok(g) => game = g,
                        Err(_) => {
                            totals.errors.fetch_add(1, Ordering::Relaxed);
                            break;
                        }
                    }
                }
            }
            Err(_) => {
                totals.errors.fetch_add(1, Ordering::Relaxed);
                match open_game(game_nodes(&config, i), variant).await {
                    Ok(g) => game = g,
                    Err(_) => break,
                }
            }
        }
    }
    latencies.lock().await.extend(local);
    game
}

/// Opens `config.games` games, at most 32 at a time.
async fn open_games(config: &LoadConfig, variants: &[Variant]) -> Result<Vec<Game>, LoadError> {
    let opening = Arc::new(Semaphore::new(32));
    let mut handles = Vec::new();
    for i in 0..config.games {
        let permit = Arc::clone(&opening);
        let variant = variants[i % variants.len()];
        let nodes = game_nodes(config, i);
        handles.push(tokio::spawn(async move {
            let _p = permit.acquire_owned().await;
            open_game(nodes, variant).await
        }));
    }
    let mut games = Vec::new();
    for h in handles {
        games.push(h.await.map_err(|e| LoadError::Protocol(e.to_string()))??);
    }
    Ok(games)
}

/// Starts the rooms against the AI, each stopped at the latest 10 s
/// after `end`.
fn spawn_ai_rooms(
    config: &LoadConfig,
    end: Instant,
    totals: &Arc<Totals>,
) -> Vec<tokio::task::JoinHandle<()>> {
    (0..config.ai_rooms)
        .map(|i| {
            let game = ai_game(
                config.addr,
                config.seed.wrapping_add(i as u64),
                end,
                Arc::clone(totals),
            );
            let limit = tokio::time::Instant::from_std(end + Duration::from_secs(10));
            tokio::spawn(async move {
                let _ = tokio::time::timeout_at(limit, game).await;
            })
        })
        .collect()
}

/// The AI pool's use over the run, from its counters before and after.
fn pool_use(
    before: Option<(u64, u64, u64, Option<i64>)>,
    after: Option<(u64, u64, u64, Option<i64>)>,
    elapsed: Duration,
) -> Option<AiPoolUse> {
    before
        .zip(after)
        .map(|((threads, s0, b0, _), (_, s1, b1, nice))| {
            #[allow(clippy::cast_precision_loss)]
            let busy = b1.saturating_sub(b0) as f64
                / (threads.max(1) as f64 * elapsed.as_secs_f64().max(1e-9) * 1000.0);
            AiPoolUse {
                threads,
                searches: s1.saturating_sub(s0),
                busy,
                nice,
            }
        })
}

/// Runs the load test.
///
/// # Errors
///
/// Setting up the games failed (the server is not there, or refuses rooms:
/// start it with `--room-rate 0`).
pub async fn run(config: LoadConfig) -> Result<LoadReport, LoadError> {
    let setup_start = Instant::now();
    let variants = if config.variants.is_empty() {
        vec![Variant::Chess]
    } else {
        config.variants.clone()
    };
    let games = open_games(&config, &variants).await?;
    let mut idle = Vec::new();
    for _ in 0..config.idle {
        let mut ws = connect(config.addr, "/ws/lobby").await?;
        recv_type(&mut ws, "lobby").await?;
        idle.push(ws);
    }
    let setup = setup_start.elapsed();
    let rss_setup = config.server_pid.and_then(rss_kib);
    let ai_before = if config.ai_rooms > 0 {
        ai_counters(config.addr).await
    } else {
        None
    };
    let load_start = load_avg();

    let totals = Arc::new(Totals::default());
    let latencies = Arc::new(Mutex::new(Vec::<u64>::new()));
    let stop = Arc::new(AtomicBool::new(false));
    let start = Instant::now();
    let end = start + config.duration;
    let sampler = config.server_pid.map(|pid| {
        let stop = Arc::clone(&stop);
        tokio::spawn(async move {
            let mut peak = 0;
            while !stop.load(Ordering::Relaxed) {
                peak = peak.max(rss_kib(pid).unwrap_or(0));
                tokio::time::sleep(Duration::from_millis(250)).await;
            }
            peak
        })
    });
    let ai_tasks = spawn_ai_rooms(&config, end, &totals);
    let mut tasks = Vec::new();
    for (i, game) in games.into_iter().enumerate() {
        let totals = Arc::clone(&totals);
        let latencies = Arc::clone(&latencies);
        let stop = Arc::clone(&stop);
        let config = config.clone();
        let variant = variants[i % variants.len()];
        tasks.push(tokio::spawn(drive_game(
            i, game, variant, config, totals, latencies, stop, end,
        )));
    }
    let mut open = Vec::new();
    for t in tasks {
        if let Ok(game) = t.await {
            open.push(game);
        }
    }
    let elapsed = start.elapsed();
    let ai_after = if config.ai_rooms > 0 {
        ai_counters(config.addr).await
    } else {
        None
    };
    let load_end = load_avg();
    let rss_end = config.server_pid.and_then(rss_kib);
    stop.store(true, Ordering::Relaxed);
    let rss_peak = match sampler {
        Some(s) => s.await.ok(),
        None => None,
    };
    for t in ai_tasks {
        let _ = t.await;
    }
    drop(open);
    drop(idle);
    let ai_pool = pool_use(ai_before, ai_after, elapsed);
    let mut latencies_us = std::mem::take(&mut *latencies.lock().await);
    latencies_us.sort_unstable();
    Ok(LoadReport {
        moves: totals.moves.load(Ordering::Relaxed),
        games_finished: totals.finished.load(Ordering::Relaxed),
        errors: totals.errors.load(Ordering::Relaxed),
        elapsed,
        latencies_us,
        connections: config.games * 2 + config.idle,
        server_rss_kib: rss_setup.zip(rss_end),
        server_rss_peak_kib: rss_peak,
        load_avg: load_start.zip(load_end),
        ai_pool,
        setup,
        ai_moves: totals.ai_moves.load(Ordering::Relaxed),
    })
}
