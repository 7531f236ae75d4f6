//! Search speed: the `bench` positions at a fixed depth, per position and
//! in total (nodes, time, nodes per second). Run with
//! `cargo bench -p chessplayx-engine --bench search [-- DEPTH]`.

use chessplayx_engine::{BENCH_DEPTH, bench_depth};

fn main() {
    let depth = std::env::args()
        .skip(1)
        .find_map(|a| a.parse().ok())
        .unwrap_or(BENCH_DEPTH);
    let report = bench_depth(depth);
    for e in &report.entries {
        let nps = u128::from(e.nodes) * 1_000_000 / e.time.as_micros().max(1);
        println!(
            "{:<8} {:>10} nodes {:>8.1} ms {:>9} nps  {:<6} {}",
            e.variant.name(),
            e.nodes,
            e.time.as_secs_f64() * 1000.0,
            nps,
            e.best_move.as_deref().unwrap_or("-"),
            e.fen
        );
    }
    println!(
        "depth {}: {} nodes in {:.3} s, {} nps",
        report.depth,
        report.nodes,
        report.time.as_secs_f64(),
        report.nps()
    );
}
