//! Xiangqi perft speed: nodes and million nodes per second, best of three,
//! single thread, bulk counting at the last ply.
//!
//! `cargo bench -p chessplayx-rules --bench xiangqi_perft`
//! (`-- quick` runs only the start position.)

use std::{hint::black_box, path::PathBuf, time::Instant};

use chessplayx_rules::xiangqi::Xiangqi;

/// The perft suite the tests read (`tests/data/perft`, a copy of
/// `../shared/perft`), so the benchmark runs on a fresh clone.
fn suite_path() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/perft/xiangqi.public.epd")
}

fn measure(name: &str, pos: &Xiangqi, depth: u32, expected: Option<u64>) -> (u64, f64) {
    let mut best = f64::INFINITY;
    let mut nodes = 0;
    for _ in 0..3 {
        let t = Instant::now();
        nodes = black_box(pos).perft(black_box(depth));
        best = best.min(t.elapsed().as_secs_f64());
    }
    if let Some(e) = expected {
        assert_eq!(nodes, e, "{name} depth {depth}: wrong node count");
    }
    let mnps = nodes as f64 / best / 1e6;
    println!("{name:<40} d{depth} {nodes:>12} nodes {best:>8.3} s {mnps:>7.1} Mnps");
    (nodes, best)
}

fn main() {
    let quick = std::env::args().any(|a| a == "quick");
    measure("startpos", &Xiangqi::start(), 5, Some(133_312_995));
    if quick {
        return;
    }
    let path = suite_path();
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    let (mut total_nodes, mut total_time) = (0u64, 0f64);
    for (i, line) in text
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .enumerate()
    {
        let mut parts = line.split(';');
        let fen = parts.next().unwrap_or_default().trim();
        let Ok(pos) = Xiangqi::from_fen(fen) else {
            println!("bad fen {fen}");
            continue;
        };
        // The first depth with at least 5M nodes (beyond the listed depths
        // if needed, then unchecked), so each timing lasts long enough.
        let depths: Vec<(u32, u64)> = parts
            .filter_map(|p| {
                let (d, n) = p.trim().split_once(' ')?;
                Some((d.trim_start_matches('D').parse().ok()?, n.parse().ok()?))
            })
            .collect();
        let mut depth = 1;
        while pos.perft(depth) < 5_000_000 && depth < 20 {
            depth += 1;
        }
        let listed = depths.iter().find(|&&(d, _)| d == depth).map(|&(_, n)| n);
        let (n, t) = measure(&format!("suite #{:02}", i + 1), &pos, depth, listed);
        total_nodes += n;
        total_time += t;
    }
    println!(
        "suite total: {total_nodes} nodes in {total_time:.3} s = {:.1} Mnps",
        total_nodes as f64 / total_time / 1e6
    );
}
