//! Perft speed of the 8×8 games, ours against shakmaty 0.30 (with bulk
//! counting on both sides), single-threaded, best of three runs.
//!
//! Run with `cargo bench -p chessplayx-rules --bench perft`. Pass `quick`
//! after `--` to time the three start positions only, `ours` to skip
//! shakmaty, `shallow` to search the start positions one ply less and run
//! once (for instruction counts under `valgrind --tool=cachegrind`).

use std::{
    path::PathBuf,
    time::{Duration, Instant},
};

use chessplayx_rules::chess::{Atomic, Horde, Position, Rules, Standard};
use shakmaty::{CastlingMode, FromSetup, fen::Fen};

const RUNS: usize = 3;
/// Suite positions are timed at the deepest listed depth within this many
/// nodes.
const SUITE_NODE_CAP: u64 = 25_000_000;

/// The perft suites the tests read (`tests/data/perft`, copies of
/// `../shared/perft`), so the benchmark runs on a fresh clone.
fn perft_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/perft")
}

fn best_of<F: FnMut() -> u64>(mut f: F) -> (u64, Duration) {
    let mut best = Duration::MAX;
    let mut nodes = 0;
    let runs = if std::env::args().any(|a| a == "shallow") {
        1
    } else {
        RUNS
    };
    for _ in 0..runs {
        let start = Instant::now();
        nodes = std::hint::black_box(f());
        best = best.min(start.elapsed());
    }
    (nodes, best)
}

fn mnps(nodes: u64, time: Duration) -> f64 {
    nodes as f64 / time.as_secs_f64() / 1e6
}

fn shakmaty_perft<P: FromSetup + shakmaty::Position + Clone>(
    fen: &str,
    depth: u32,
) -> Option<(u64, Duration)> {
    let setup = fen.parse::<Fen>().ok()?.into_setup();
    let pos = P::from_setup(setup, CastlingMode::Standard)
        .or_else(shakmaty::PositionError::ignore_invalid_ep_square)
        .ok()?;
    Some(best_of(|| shakmaty::perft(&pos, depth)))
}

struct Totals {
    nodes: u64,
    ours: Duration,
    /// Only positions shakmaty accepted count on its side.
    their_nodes: u64,
    theirs: Duration,
}

impl Totals {
    const ZERO: Self = Self {
        nodes: 0,
        ours: Duration::ZERO,
        their_nodes: 0,
        theirs: Duration::ZERO,
    };
}

fn row<R: Rules, P: FromSetup + shakmaty::Position + Clone>(
    name: &str,
    label: &str,
    fen: &str,
    depth: u32,
    expected: Option<u64>,
    totals: &mut Totals,
) {
    let pos = Position::<R>::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
    let (nodes, ours) = best_of(|| pos.perft(depth));
    if let Some(expected) = expected {
        assert_eq!(nodes, expected, "{name} {fen} depth {depth}");
    }
    let theirs = if std::env::args().any(|a| a == "ours") {
        None
    } else {
        shakmaty_perft::<P>(fen, depth)
    };
    let theirs_text = match theirs {
        Some((n, t)) if n == nodes => {
            totals.theirs += t;
            totals.their_nodes += n;
            format!("{:>8.1}", mnps(n, t))
        }
        Some((n, _)) => format!("{:>8}", format!("≠{n}")),
        None => format!("{:>8}", "-"),
    };
    totals.nodes += nodes;
    totals.ours += ours;
    println!(
        "| {name:<6} | {label:<10} | {depth:>2} | {nodes:>11} | {:>8.1} | {theirs_text} |",
        mnps(nodes, ours)
    );
}

fn suite<R: Rules, P: FromSetup + shakmaty::Position + Clone>(
    name: &str,
    start_depth: u32,
    quick: bool,
) {
    let mut totals = Totals::ZERO;
    let path = perft_dir().join(format!("{name}.public.epd"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let start_fen = R::VARIANT.start_fen();
    let start_depth = if std::env::args().any(|a| a == "shallow") {
        start_depth - 1
    } else {
        start_depth
    };
    row::<R, P>(name, "start", start_fen, start_depth, None, &mut totals);
    if quick {
        return;
    }
    let mut suite_totals = Totals::ZERO;
    for (i, line) in text.lines().filter(|l| !l.trim().is_empty()).enumerate() {
        let mut parts = line.split(';');
        let fen = parts.next().unwrap_or_default().trim();
        let counts: Vec<(u32, u64)> = parts
            .filter_map(|p| {
                let (d, n) = p.trim().split_once(' ')?;
                Some((d.trim_start_matches('D').parse().ok()?, n.parse().ok()?))
            })
            .collect();
        let Some(&(depth, expected)) = counts.iter().rfind(|&&(_, n)| n <= SUITE_NODE_CAP) else {
            continue;
        };
        row::<R, P>(
            name,
            &format!("suite #{}", i + 1),
            fen,
            depth,
            Some(expected),
            &mut suite_totals,
        );
    }
    println!(
        "| {name:<6} | suite all  |    | {:>11} | {:>8.1} | {:>8.1} |",
        suite_totals.nodes,
        mnps(suite_totals.nodes, suite_totals.ours),
        mnps(suite_totals.their_nodes, suite_totals.theirs),
    );
}

fn main() {
    let quick = std::env::args().any(|a| a == "quick");
    println!("| variant | position | depth | nodes | ours Mnps | shakmaty Mnps |");
    println!("|---|---|---:|---:|---:|---:|");
    suite::<Standard, shakmaty::Chess>("chess", 6, quick);
    suite::<Horde, shakmaty::variant::Horde>("horde", 7, quick);
    suite::<Atomic, shakmaty::variant::Atomic>("atomic", 6, quick);
}
