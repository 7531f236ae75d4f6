//! The server's settings, filled from the command line by the binary.

use std::{net::SocketAddr, path::PathBuf, time::Duration};

/// Everything `chessplayx serve` can be told. [`Config::default`] is the
/// product's default (`127.0.0.1:8080`, `./data/chessplayx.sqlite`,
/// `web/dist`).
#[derive(Clone, Debug)]
pub struct Config {
    /// Where to listen.
    pub addr: SocketAddr,
    /// The SQLite database file (created with its directory), or a
    /// `postgres://` URL (see [`crate::Store::open`]).
    pub db_path: PathBuf,
    /// The built web app (`index.html` and its assets).
    pub web_dir: PathBuf,
    /// Rooms one IP address may create per minute (also the burst).
    pub room_rate_per_minute: u32,
    /// How long a player on turn may stay disconnected before the
    /// opponent may claim the win.
    pub disconnect_grace: Duration,
    /// Origins accepted on the WebSocket handshake besides the server's
    /// own host (e.g. a development server of the web app).
    pub allow_origins: Vec<String>,
    /// Searches that may run at once (the bounded AI pool). Defaults to
    /// the number of cores less one (at least one), so searches never take
    /// every core from the games' traffic.
    pub ai_threads: usize,
    /// How many nice steps the AI threads run below the server (Linux;
    /// the result is capped at 19, the lowest priority). The default, 19,
    /// makes a search yield the CPU to the async workers whenever they
    /// have work, so moves between people keep their latency while the AI
    /// thinks; 0 runs searches at the server's own priority.
    pub ai_nice: i32,
    /// The AI threads also run under Linux's `SCHED_IDLE` policy: they get
    /// a CPU only when nothing else wants it, so a search cannot delay a
    /// move. On by default.
    pub ai_sched_idle: bool,
    /// How long a finished room with nobody connected stays in memory.
    pub idle_room: Duration,
    /// The version line answered by `/api/version` (`v0.1.0 · <commit>`).
    pub version: String,
}

impl Default for Config {
    fn default() -> Self {
        Self {
            addr: SocketAddr::from(([127, 0, 0, 1], 8080)),
            db_path: PathBuf::from("data/chessplayx.sqlite"),
            web_dir: PathBuf::from("web/dist"),
            room_rate_per_minute: 30,
            disconnect_grace: Duration::from_secs(30),
            allow_origins: Vec::new(),
            ai_threads: std::thread::available_parallelism()
                .map_or(1, |n| n.get().saturating_sub(1).max(1)),
            ai_nice: 19,
            ai_sched_idle: true,
            idle_room: Duration::from_secs(300),
            version: format!("v{} · unknown", env!("CARGO_PKG_VERSION")),
        }
    }
}
