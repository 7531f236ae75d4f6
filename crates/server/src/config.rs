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
    /// How long a write to a WebSocket may wait for the client to take
    /// it. A client that stops reading is closed (and stops being counted)
    /// at most this long after the write that found its buffers full, and
    /// a closing handshake waits at most this long for the client's
    /// answer. 10 s by default.
    pub write_timeout: Duration,
    /// The server's address as the world sees it (`https://example.org`),
    /// for absolute links such as the `Site` of an export. Without it the
    /// request's `Host` is used, over `http://`.
    pub public_url: Option<PublicUrl>,
    /// The version line answered by `/api/version` (`0.1.0 · <commit>`).
    pub version: String,
    /// The NATS server joining this node to others (`nats://HOST:PORT`).
    /// `None`: a single node, which owns every room of its database.
    /// With a bus, `db_path` must be a PostgreSQL URL (the nodes share it).
    pub bus: Option<String>,
    /// This node's name among the others (in `GET /api/rooms/{id}`'s
    /// `node`, in the lease table and in bus subjects).
    pub node_id: Option<NodeId>,
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
            write_timeout: Duration::from_secs(10),
            public_url: None,
            version: format!("{} · unknown", env!("CARGO_PKG_VERSION")),
            bus: None,
            node_id: None,
        }
    }
}

/// The server's public base URL: `http://` or `https://`, a host (and
/// maybe a port and a path prefix), no trailing `/`, nothing a PGN tag or
/// a header could not carry. Built only by [`str::parse`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PublicUrl(String);

/// Why a `--public-url` was refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PublicUrlError {
    /// It does not start with `http://` or `https://`.
    #[error("the public URL must start with http:// or https://, got {0:?}")]
    Scheme(String),
    /// Nothing after the scheme.
    #[error("the public URL has no host: {0:?}")]
    NoHost(String),
    /// Spaces, quotes, backslashes or control characters.
    #[error("the public URL has a space, quote, backslash or control character: {0:?}")]
    Character(String),
}

impl PublicUrl {
    /// The URL, without a trailing `/`.
    #[must_use]
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl std::str::FromStr for PublicUrl {
    type Err = PublicUrlError;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        let rest = text
            .strip_prefix("http://")
            .or_else(|| text.strip_prefix("https://"))
            .ok_or_else(|| PublicUrlError::Scheme(text.to_owned()))?;
        if rest.is_empty() || rest.starts_with('/') {
            return Err(PublicUrlError::NoHost(text.to_owned()));
        }
        let trimmed = text.trim_end_matches('/');
        if trimmed
            .chars()
            .any(|c| c.is_whitespace() || c.is_control() || matches!(c, '"' | '\\'))
        {
            return Err(PublicUrlError::Character(text.to_owned()));
        }
        Ok(Self(trimmed.to_owned()))
    }
}

/// A node's name: 1 to 64 characters of `[A-Za-z0-9_-]`, so it can sit in
/// a NATS subject and a log line unquoted. Built only by [`str::parse`].
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct NodeId(String);

/// Why a `--node-id` was refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("a node id is 1 to 64 characters of A-Z, a-z, 0-9, _ and -, got {0:?}")]
pub struct NodeIdError(String);

impl NodeId {
    /// The name.
    #[must_use]
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl std::fmt::Display for NodeId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::str::FromStr for NodeId {
    type Err = NodeIdError;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        let ok = (1..=64).contains(&text.len())
            && text
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-');
        if ok {
            Ok(Self(text.to_owned()))
        } else {
            Err(NodeIdError(text.to_owned()))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn node_ids_fit_a_subject() {
        assert_eq!("node-1".parse::<NodeId>().unwrap().as_str(), "node-1");
        assert!("A_b9".parse::<NodeId>().is_ok());
        assert!("".parse::<NodeId>().is_err());
        assert!("a.b".parse::<NodeId>().is_err());
        assert!("a b".parse::<NodeId>().is_err());
        assert!("x".repeat(65).parse::<NodeId>().is_err());
    }

    #[test]
    fn public_urls_are_checked_and_lose_their_trailing_slash() {
        let ok: PublicUrl = "https://chess.example.org/".parse().unwrap();
        assert_eq!(ok.as_str(), "https://chess.example.org");
        let port: PublicUrl = "http://10.0.0.2:8080/play".parse().unwrap();
        assert_eq!(port.as_str(), "http://10.0.0.2:8080/play");
        assert!(matches!(
            "chess.example.org".parse::<PublicUrl>(),
            Err(PublicUrlError::Scheme(_))
        ));
        assert!(matches!(
            "https://".parse::<PublicUrl>(),
            Err(PublicUrlError::NoHost(_))
        ));
        assert!(matches!(
            "https:///x".parse::<PublicUrl>(),
            Err(PublicUrlError::NoHost(_))
        ));
        assert!(matches!(
            "https://a b".parse::<PublicUrl>(),
            Err(PublicUrlError::Character(_))
        ));
        assert!(matches!(
            "https://a\"b".parse::<PublicUrl>(),
            Err(PublicUrlError::Character(_))
        ));
    }
}
