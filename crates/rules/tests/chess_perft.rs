//! Perft against the public reference suites (`tests/data/perft/*.public.epd`),
//! counts produced by engines this project did not write.
//!
//! The default run stops each line at a node limit to stay fast; the full
//! suites run with `cargo test -p chessplayx-rules --release -- --ignored`.

mod common;

use std::path::PathBuf;

use chessplayx_rules::chess::{Atomic, Horde, Position, Rules, Standard};

/// The perft suites kept beside the tests.
fn perft_dir() -> PathBuf {
    common::data_dir().join("perft")
}

struct Line {
    fen: String,
    counts: Vec<(u32, u64)>,
}

fn suite(name: &str) -> Vec<Line> {
    let path = perft_dir().join(format!("{name}.public.epd"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let lines: Vec<Line> = text
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            let mut parts = l.split(';');
            let fen = parts.next().unwrap_or_default().trim().to_owned();
            let counts = parts
                .map(|p| {
                    let p = p.trim();
                    let (d, n) = p
                        .split_once(' ')
                        .unwrap_or_else(|| panic!("bad entry {p:?}"));
                    let d: u32 = d.trim_start_matches('D').parse().expect("depth");
                    (d, n.trim().parse().expect("count"))
                })
                .collect();
            Line { fen, counts }
        })
        .collect();
    assert!(lines.len() >= 20, "{name}: only {} lines", lines.len());
    lines
}

fn run<R: Rules>(name: &str, node_limit: u64) {
    let mut checked = 0;
    for line in suite(name) {
        let pos = Position::<R>::from_fen(&line.fen)
            .unwrap_or_else(|e| panic!("{name}: {}: {e}", line.fen));
        for &(depth, expected) in &line.counts {
            if expected > node_limit {
                break;
            }
            assert_eq!(
                pos.perft(depth),
                expected,
                "{name}: {} depth {depth}",
                line.fen
            );
            checked += 1;
        }
    }
    assert!(checked > 50, "{name}: only {checked} counts checked");
}

const QUICK_LIMIT: u64 = 5_000_000;

#[test]
fn chess_suite_quick() {
    run::<Standard>("chess", QUICK_LIMIT);
}

#[test]
fn horde_suite_quick() {
    run::<Horde>("horde", QUICK_LIMIT);
}

#[test]
fn atomic_suite_quick() {
    run::<Atomic>("atomic", QUICK_LIMIT);
}

#[test]
#[ignore = "full suites take minutes; run with --release -- --ignored"]
fn chess_suite_full() {
    run::<Standard>("chess", u64::MAX);
}

#[test]
#[ignore = "full suites take minutes; run with --release -- --ignored"]
fn horde_suite_full() {
    run::<Horde>("horde", u64::MAX);
}

#[test]
#[ignore = "full suites take minutes; run with --release -- --ignored"]
fn atomic_suite_full() {
    run::<Atomic>("atomic", u64::MAX);
}

#[test]
fn divide_sums_to_perft() {
    for fen in [
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    ] {
        let pos = Position::<Standard>::from_fen(fen).unwrap();
        let divided = pos.divide(3);
        assert_eq!(divided.len() as u64, pos.perft(1));
        assert_eq!(divided.iter().map(|(_, n)| n).sum::<u64>(), pos.perft(3));
    }
}
