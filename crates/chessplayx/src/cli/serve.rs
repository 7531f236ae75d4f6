//! `chessplayx serve` (the default command): the web server, and
//! `chessplayx loadtest`, its load tool.

use std::{net::SocketAddr, path::PathBuf, time::Duration};

use chessplayx_rules::Variant;
use chessplayx_server::{Config, LoadConfig, NodeId, PublicUrl, engine_picker};

/// Arguments of `serve`.
#[derive(Debug, Clone, clap::Args)]
pub(crate) struct ServeArgs {
    /// Address to listen on.
    #[arg(long, default_value = "127.0.0.1:8080")]
    addr: SocketAddr,
    /// SQLite database file (created with its directory), or a
    /// postgres://USER@HOST:PORT/DBNAME URL.
    #[arg(long, default_value = "data/chessplayx.sqlite")]
    db: PathBuf,
    /// Directory of the built web app.
    #[arg(long, default_value = "web/dist")]
    web_dir: PathBuf,
    /// Rooms one IP address may create per minute (0: no limit).
    #[arg(long, default_value_t = 30)]
    room_rate: u32,
    /// Seconds a disconnected player on turn has before the opponent may
    /// claim the win.
    #[arg(long, default_value_t = 30)]
    disconnect_secs: u64,
    /// Extra origin allowed on WebSocket handshakes (repeatable), e.g. a
    /// development server of the web app.
    #[arg(long)]
    allow_origin: Vec<String>,
    /// AI searches run at once (default: the number of cores less one).
    #[arg(long)]
    ai_threads: Option<usize>,
    /// Nice steps the AI threads run below the server (0-19, capped at
    /// nice 19; higher yields more CPU to the games' traffic).
    #[arg(long, default_value_t = 19, value_parser = clap::value_parser!(i32).range(0..=19))]
    ai_nice: i32,
    /// Run the AI threads under the normal scheduling policy instead of
    /// Linux's SCHED_IDLE (for comparisons).
    #[arg(long)]
    ai_normal_sched: bool,
    /// The server's address as players reach it, such as
    /// `https://chess.example.org`, for absolute links like an export's
    /// Site; without it, the request's Host is used over plain HTTP.
    #[arg(long)]
    public_url: Option<PublicUrl>,
    /// Seconds a WebSocket write may wait for a client that does not read
    /// before the connection is closed.
    #[arg(long, default_value_t = 10, value_parser = clap::value_parser!(u64).range(1..=600))]
    write_timeout_secs: u64,
    /// The NATS server that joins several nodes (nats://HOST:PORT); needs
    /// a postgres:// --db shared by the nodes. Without it the server is a
    /// single node.
    #[arg(long)]
    bus: Option<String>,
    /// This node's name among the nodes (A-Z a-z 0-9 _ -; default: a
    /// random one with --bus).
    #[arg(long)]
    node_id: Option<NodeId>,
}

impl Default for ServeArgs {
    fn default() -> Self {
        Self {
            addr: SocketAddr::from(([127, 0, 0, 1], 8080)),
            db: PathBuf::from("data/chessplayx.sqlite"),
            web_dir: PathBuf::from("web/dist"),
            room_rate: 30,
            disconnect_secs: 30,
            allow_origin: Vec::new(),
            ai_threads: None,
            ai_nice: 19,
            ai_normal_sched: false,
            public_url: None,
            write_timeout_secs: 10,
            bus: None,
            node_id: None,
        }
    }
}

/// Why `serve` or `loadtest` failed.
#[derive(Debug, thiserror::Error)]
pub(crate) enum ServeError {
    /// The server could not start or failed.
    #[error(transparent)]
    Server(#[from] chessplayx_server::ServeError),
    /// The load test could not run.
    #[error("loadtest: {0}")]
    Load(#[from] chessplayx_server::LoadError),
}

/// Serves until Ctrl-C / SIGTERM.
///
/// # Errors
///
/// The database, the address or the runtime failed.
pub(crate) fn run(args: &ServeArgs, version: String) -> Result<(), ServeError> {
    let defaults = Config::default();
    let config = Config {
        addr: args.addr,
        db_path: args.db.clone(),
        web_dir: args.web_dir.clone(),
        room_rate_per_minute: args.room_rate,
        disconnect_grace: Duration::from_secs(args.disconnect_secs),
        allow_origins: args.allow_origin.clone(),
        ai_threads: args.ai_threads.unwrap_or(defaults.ai_threads),
        ai_nice: args.ai_nice,
        ai_sched_idle: !args.ai_normal_sched,
        public_url: args.public_url.clone(),
        write_timeout: Duration::from_secs(args.write_timeout_secs),
        version,
        bus: args.bus.clone(),
        node_id: args.node_id.clone(),
        ..defaults
    };
    Ok(chessplayx_server::serve(config, engine_picker())?)
}

/// Arguments of `loadtest`.
#[derive(Debug, clap::Args)]
pub(crate) struct LoadArgs {
    /// The server to load (start it with `--room-rate 0`). Repeat it, or
    /// give a comma-separated list, for the nodes of a cluster: games are
    /// spread over them, each game's two players on two different nodes.
    #[arg(long, default_value = "127.0.0.1:8080", value_delimiter = ',')]
    addr: Vec<SocketAddr>,
    /// Games played at once (two connections each).
    #[arg(long, default_value_t = 100)]
    games: usize,
    /// Extra idle lobby connections.
    #[arg(long, default_value_t = 0)]
    idle: usize,
    /// Seconds of measured play.
    #[arg(long, default_value_t = 10)]
    seconds: u64,
    /// Milliseconds each player waits before a move (0: flat out).
    #[arg(long, default_value_t = 0)]
    think_ms: u64,
    /// Variants to play, in turn (repeatable).
    #[arg(long, default_value = "chess")]
    variant: Vec<Variant>,
    /// A game is left for a new one after this many plies.
    #[arg(long, default_value_t = 200)]
    max_plies: u32,
    /// Seed of the random moves.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// The server's process id, to report its memory.
    #[arg(long)]
    server_pid: Option<u32>,
    /// Rooms against the level-8 AI played alongside for the whole run, so
    /// AI searches compete with the measured games (their moves are not
    /// measured). Use more than the server's `--ai-threads` to keep every
    /// AI thread busy.
    #[arg(long, alias = "ai-games", default_value_t = 0)]
    ai_rooms: usize,
}

/// Runs the load tool and prints its report.
///
/// # Errors
///
/// The games could not be set up.
pub(crate) fn loadtest(args: &LoadArgs) -> Result<String, ServeError> {
    let config = LoadConfig {
        addr: args
            .addr
            .first()
            .copied()
            .unwrap_or(SocketAddr::from(([127, 0, 0, 1], 8080))),
        also: args.addr.iter().skip(1).copied().collect(),
        games: args.games,
        idle: args.idle,
        duration: Duration::from_secs(args.seconds),
        think: Duration::from_millis(args.think_ms),
        variants: args.variant.clone(),
        max_plies: args.max_plies,
        seed: args.seed,
        server_pid: args.server_pid,
        ai_rooms: args.ai_rooms,
    };
    Ok(chessplayx_server::loadtest_blocking(config)?.render())
}
