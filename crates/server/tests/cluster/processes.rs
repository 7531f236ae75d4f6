//! The processes of the cluster test: `nats-server`, the nodes (this
//! binary run with `--node`), and an HTTP client with a chosen source
//! address.

use std::{
    net::SocketAddr,
    path::PathBuf,
    process::{Child, Command, Stdio},
    time::{Duration, Instant},
};

use serde_json::Value;

use crate::WAIT;

/// What is not installed, if anything.
pub(crate) fn missing_parts() -> Option<&'static str> {
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

pub(crate) fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .expect("a free port")
        .port()
}

/// `nats-server` with JetStream in a temporary folder; killed on drop.
pub(crate) struct Nats {
    child: Child,
    pub(crate) url: String,
    _dir: tempfile::TempDir,
}

impl Nats {
    pub(crate) fn start() -> Self {
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
pub(crate) struct Node {
    pub(crate) name: String,
    pub(crate) addr: SocketAddr,
    db: String,
    bus: String,
    pub(crate) child: Option<Child>,
    log: PathBuf,
}

pub(crate) fn node_command(addr: &str, db: &str, bus: &str, name: &str) -> Command {
    let mut cmd = Command::new(std::env::current_exe().expect("this binary"));
    cmd.args(["--node", addr, db, bus, name]);
    cmd
}

impl Node {
    pub(crate) fn new(name: &str, db: &str, bus: &str, logs: &std::path::Path) -> Self {
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
    pub(crate) fn start(&mut self) {
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

    pub(crate) fn kill9(&mut self) {
        if let Some(mut child) = self.child.take() {
            child.kill().expect("SIGKILL");
            child.wait().expect("reaping");
        }
    }

    pub(crate) fn signal(&self, signal: rustix::process::Signal) {
        rustix::process::kill_process(self.pid(), signal).expect("signalling a node");
    }

    pub(crate) fn log_text(&self) -> String {
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
pub(crate) async fn http_from(
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

pub(crate) async fn get(addr: SocketAddr, path: &str) -> (u16, Value) {
    http_from([127, 0, 0, 1], addr, "GET", path, None).await
}
