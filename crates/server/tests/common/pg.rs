//! A throwaway PostgreSQL server for tests: `initdb` in a temporary
//! folder, `postgres` on a free loopback port with its socket in that
//! folder, one database per test.
//!
//! Shared by the store's unit tests (`src/store/tests.rs` includes this
//! file) and the integration tests (`tests/common/mod.rs`), so it uses
//! only std and rustix.
//!
//! PostgreSQL refuses to run as root. When the tests run as root, the
//! server runs as the `postgres` user if there is one, else as `nobody`;
//! otherwise as the tests' own user.
//!
//! Cleanup: the server is started by a small `sh` watchdog whose standard
//! input is a pipe from the test process. When that pipe closes — the
//! [`PgServer`] is dropped, or the test process ends in any way, even
//! killed — the watchdog stops `postgres` (fast shutdown) and removes the
//! folder. That covers the server kept for a whole test binary in a
//! `static` (statics are never dropped) as well as panics.

#![allow(dead_code, unreachable_pub, missing_docs)]

use std::{
    io::Read as _,
    net::TcpListener,
    os::unix::fs::MetadataExt as _,
    path::{Path, PathBuf},
    process::{Child, Command, Stdio},
    sync::{
        OnceLock,
        atomic::{AtomicU32, Ordering},
    },
    time::{Duration, Instant},
};

/// The database superuser `initdb` creates (trusted on loopback).
const USER: &str = "chessplayx";

/// How long the server may take to accept connections.
const START_TIMEOUT: Duration = Duration::from_secs(60);

/// The watchdog: initdb, start postgres in the background, wait for the
/// test process to close standard input, stop postgres, remove the
/// folder. Values come from the environment (no quoting to get wrong).
const WATCHDOG: &str = r#"
"$PG_BIN/initdb" -D "$PG_DIR/data" -U "$PG_USER" -A trust -E UTF8 --no-locale --no-sync \
    >"$PG_DIR/initdb.log" 2>&1 || { echo failed >"$PG_DIR/initdb.failed"; cat >/dev/null; rm -rf "$PG_DIR"; exit 1; }
"$PG_BIN/postgres" -D "$PG_DIR/data" -k "$PG_DIR" -h 127.0.0.1 -p "$PG_PORT" \
    -c max_connections=400 -c shared_buffers=16MB -c log_min_messages=warning \
    >"$PG_DIR/postgres.log" 2>&1 &
pid=$!
cat >/dev/null
kill -INT "$pid" 2>/dev/null
wait "$pid"
rm -rf "$PG_DIR"
"#;

/// A running PostgreSQL server; dropping it stops the server and removes
/// its folder.
#[derive(Debug)]
pub struct PgServer {
    port: u16,
    bin: PathBuf,
    dir: PathBuf,
    watchdog: Child,
}

/// The server of this test process, started on first use.
pub fn server() -> &'static PgServer {
    static SERVER: OnceLock<PgServer> = OnceLock::new();
    SERVER.get_or_init(PgServer::start)
}

/// A new, empty database on [`server`]: its `postgres://` URL.
pub fn new_database() -> String {
    static NEXT: AtomicU32 = AtomicU32::new(0);
    let name = format!("test{}", NEXT.fetch_add(1, Ordering::Relaxed));
    server().create_database(&name)
}

/// The folder of PostgreSQL's programs: `$CHESSPLAYX_PG_BIN`, else the
/// newest `/usr/lib/postgresql/N/bin` (Debian keeps `initdb` there, off
/// the PATH), else the folder of `initdb` on the PATH.
fn bin_dir() -> PathBuf {
    if let Some(dir) = std::env::var_os("CHESSPLAYX_PG_BIN") {
        return PathBuf::from(dir);
    }
    let debian = std::fs::read_dir("/usr/lib/postgresql")
        .into_iter()
        .flatten()
        .filter_map(Result::ok)
        .filter_map(|e| {
            let version: u32 = e.file_name().to_str()?.parse().ok()?;
            let bin = e.path().join("bin");
            bin.join("initdb").exists().then_some((version, bin))
        })
        .max();
    if let Some((_, bin)) = debian {
        return bin;
    }
    std::env::var_os("PATH")
        .iter()
        .flat_map(std::env::split_paths)
        .map(|dir| dir.join("initdb"))
        .find(|p| p.exists())
        .and_then(|p| {
            std::fs::canonicalize(p)
                .ok()?
                .parent()
                .map(Path::to_path_buf)
        })
        .expect(
            "PostgreSQL's initdb not found: install PostgreSQL (Debian: apt-get install \
             postgresql) or set CHESSPLAYX_PG_BIN to the folder of initdb and postgres",
        )
}

/// The uid and gid to run the server as when the tests run as root:
/// `postgres`, else `nobody`, from /etc/passwd.
fn unprivileged_user() -> (u32, u32) {
    let passwd = std::fs::read_to_string("/etc/passwd").expect("reading /etc/passwd");
    let find = |name: &str| {
        passwd.lines().find_map(|line| {
            let f: Vec<&str> = line.split(':').collect();
            (f.len() > 3 && f[0] == name).then(|| (f[2].parse().ok(), f[3].parse().ok()))
        })
    };
    match find("postgres").or_else(|| find("nobody")) {
        Some((Some(uid), Some(gid))) => (uid, gid),
        _ => panic!("running as root, and no postgres or nobody user to run PostgreSQL as"),
    }
}

/// A port nobody listens on now (the kernel's pick; a race with another
/// program taking it before postgres is unlikely and fails loudly).
fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .expect("binding a loopback port")
        .port()
}

impl PgServer {
    /// Creates the folder, starts the watchdog (which runs initdb and
    /// postgres) and waits until the server accepts connections.
    ///
    /// # Panics
    ///
    /// PostgreSQL is not installed, or does not start within a minute
    /// (the panic shows its log).
    pub fn start() -> Self {
        let bin = bin_dir();
        let root = rustix::process::geteuid().is_root();
        // /tmp rather than $TMPDIR: the unprivileged user must be able to
        // reach the folder.
        let base = if root {
            PathBuf::from("/tmp")
        } else {
            std::env::temp_dir()
        };
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.subsec_nanos());
        let dir = base.join(format!("chessplayx-pg-{}-{nanos}", std::process::id()));
        std::fs::create_dir(&dir).expect("creating the PostgreSQL folder");
        let port = free_port();
        let mut cmd = Command::new("/bin/sh");
        cmd.arg("-c")
            .arg(WATCHDOG)
            .env("PG_BIN", &bin)
            .env("PG_DIR", &dir)
            .env("PG_PORT", port.to_string())
            .env("PG_USER", USER)
            .env("HOME", &dir)
            .current_dir(&dir)
            .stdin(Stdio::piped())
            .stdout(Stdio::null())
            .stderr(Stdio::null());
        if root {
            let (uid, gid) = unprivileged_user();
            std::os::unix::fs::chown(&dir, Some(uid), Some(gid))
                .expect("giving the PostgreSQL folder to its user");
            std::os::unix::process::CommandExt::uid(&mut cmd, uid);
            std::os::unix::process::CommandExt::gid(&mut cmd, gid);
        }
        let watchdog = cmd.spawn().expect("starting the PostgreSQL watchdog (sh)");
        let server = Self {
            port,
            bin,
            dir,
            watchdog,
        };
        server.wait_ready();
        server
    }

    fn wait_ready(&self) {
        let deadline = Instant::now() + START_TIMEOUT;
        loop {
            let ready = Command::new(self.bin.join("pg_isready"))
                .args(["-q", "-h", "127.0.0.1", "-U", USER, "-p"])
                .arg(self.port.to_string())
                .status()
                .is_ok_and(|s| s.success());
            if ready {
                return;
            }
            if self.dir.join("initdb.failed").exists() || Instant::now() > deadline {
                panic!(
                    "PostgreSQL did not start on port {}.\ninitdb: {}\npostgres: {}",
                    self.port,
                    self.log("initdb.log"),
                    self.log("postgres.log")
                );
            }
            std::thread::sleep(Duration::from_millis(100));
        }
    }

    fn log(&self, name: &str) -> String {
        let mut text = String::new();
        let _ =
            std::fs::File::open(self.dir.join(name)).and_then(|mut f| f.read_to_string(&mut text));
        text
    }

    /// The loopback port the server listens on.
    pub fn port(&self) -> u16 {
        self.port
    }

    /// The URL of database `name` (which may not exist).
    pub fn url(&self, name: &str) -> String {
        format!("postgres://{USER}@127.0.0.1:{}/{name}", self.port)
    }

    /// Creates database `name`; returns its URL.
    ///
    /// # Panics
    ///
    /// `createdb` failed (the name is taken, the server stopped).
    pub fn create_database(&self, name: &str) -> String {
        let out = Command::new(self.bin.join("createdb"))
            .args(["-h", "127.0.0.1", "-U", USER, "-p"])
            .arg(self.port.to_string())
            .arg(name)
            .output()
            .expect("running createdb");
        assert!(
            out.status.success(),
            "createdb {name}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        self.url(name)
    }

    /// The owner of the folder (to check the server does not run as root).
    pub fn folder_owner(&self) -> Option<u32> {
        std::fs::metadata(&self.dir).ok().map(|m| m.uid())
    }
}

impl Drop for PgServer {
    fn drop(&mut self) {
        // Closing the pipe tells the watchdog to stop postgres and remove
        // the folder; wait for it so the folder is gone when we return.
        drop(self.watchdog.stdin.take());
        let _ = self.watchdog.wait();
    }
}
