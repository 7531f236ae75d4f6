//! Three nodes on one PostgreSQL and one NATS, as real processes: games
//! whose two players and spectator sit on different nodes, owners killed
//! (SIGKILL) repeatedly in all four games, one owner paused (SIGSTOP) past
//! its lease, and the checks of issue 12: nothing acknowledged lost or
//! applied twice, event numbers without gaps, a paused node's write
//! refused, lobby totals over all nodes, unattended rooms of a killed
//! owner adopted by the others (`orphans.rs`), one room-creation limit
//! across nodes, start-up errors naming the database or the bus.
//!
//! The nodes are this test binary run again with `--node` (no harness:
//! `main` is ours), so the test needs no other binary and kills real
//! processes. PostgreSQL comes from `common/pg.rs`, `nats-server` from the
//! PATH. When either is not installed the test says so and passes (CI
//! installs both, `.ci/run`).

mod clients;
#[path = "../common/mod.rs"]
mod common;
mod orphans;
mod processes;

use std::{
    path::PathBuf,
    process::ExitCode,
    time::{Duration, Instant},
};

use chessplayx_server::{Config, NodeId, Store};
use clients::{Client, Game, new_game, owner};
use common::pg;
use processes::{Nats, Node, free_port, get, http_from, missing_parts, node_command};
use rand::{Rng as _, SeedableRng as _, rngs::StdRng};
use serde_json::json;

/// How long a test step may wait for a message.
pub(crate) const WAIT: Duration = Duration::from_secs(30);

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
    // It always runs on PostgreSQL: the pass of the server tests on
    // PostgreSQL (scripts/test) need not run it a second time.
    if std::env::var("CHESSPLAYX_TEST_DB").as_deref() == Ok("postgres") {
        println!(
            "test three_nodes ... skipped in the PostgreSQL pass (it runs on PostgreSQL always)"
        );
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
    match chessplayx_server::serve(config, orphans::picker()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("chessplayx: {e}");
            ExitCode::from(2)
        }
    }
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

/// Over 100 lines: one scenario, the steps of which (games, kills,
/// SIGSTOP, lobby, rate limit) run in order against the same cluster and
/// read best as the story they tell.
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
    ai_room_resumes_on_the_new_owner(&mut nodes, &store).await;
    // Connections relayed to the paused node were closed by their relays
    // (it went silent), those on the nodes killed for the AI room too: the
    // clients come back, anywhere.
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
    // The AI room's human left; it is not counted.
    lobby_totals(&nodes, total, games.iter().filter(|g| !g.over()).count()).await;
    orphans::orphans_are_adopted(&mut nodes, 2, &db).await;
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

/// A room against the AI whose owner is killed right after the human's
/// move: the node taking it over finds the AI on move and plays.
async fn ai_room_resumes_on_the_new_owner(nodes: &mut [Node], store: &Store) {
    let (status, room) = http_from(
        [127, 0, 0, 1],
        nodes[0].addr,
        "POST",
        "/api/rooms",
        Some(&json!({"variant": "chess", "color": "white", "ai_level": 1})),
    )
    .await;
    assert_eq!(status, 201, "{room}");
    let id = room["id"].as_str().expect("id").to_owned();
    let mut human = Client::new(
        format!("{id} human"),
        room["seat_token"].as_str().map(str::to_owned),
    );
    human.connect(nodes[1].addr, &id).await;
    for round in 0..2 {
        let k = {
            let name = owner(nodes, &id).await;
            nodes.iter().position(|n| n.name == name).expect("a node")
        };
        let ply = human.history.len();
        let uci = human.legal[0].clone();
        human
            .ws
            .as_mut()
            .expect("connected")
            .send_move(&uci, u32::try_from(ply).expect("ply"))
            .await;
        nodes[k].kill9();
        let live = nodes
            .iter()
            .find(|n| n.child.is_some())
            .expect("a live node");
        human.connect(live.addr, &id).await;
        if human.history.len() == ply {
            let ws = human.ws.as_mut().expect("connected");
            ws.send_move(&uci, u32::try_from(ply).expect("ply")).await;
        }
        while human.history.len() < ply + 2 {
            human.recv().await;
        }
        nodes[k].start();
        let (moves, _) = stored(store, &id).await;
        assert_eq!(moves, human.history, "round {round}");
    }
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
