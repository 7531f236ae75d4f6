//! `bench`: a fixed set of positions of every game searched to a fixed
//! depth. The node total is a signature of the search (it changes only
//! when the search or evaluation does); nodes per second measure speed.

use std::time::{Duration, Instant};

use chessplayx_rules::Variant;

use crate::{EngineGame, EnginePosition, EngineSearcher, SearchLimits, SearchOptions};

/// Depth searched by [`bench()`].
pub const BENCH_DEPTH: u32 = 10;

/// The positions: openings, middle games and end games of each game.
const POSITIONS: &[(Variant, &str)] = &[
    (
        Variant::Chess,
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    ),
    (
        Variant::Chess,
        "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4",
    ),
    (
        Variant::Chess,
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    ),
    (
        Variant::Chess,
        "2r3k1/pp3ppp/2n1b3/3p4/3P4/2PB1N2/P4PPP/4R1K1 w - - 0 20",
    ),
    (Variant::Chess, "8/5pk1/6p1/8/3R4/6P1/5PK1/1r6 w - - 0 40"),
    (
        Variant::Horde,
        "rnbqkbnr/pppppppp/8/1PP2PP1/PPPPPPPP/PPPPPPPP/PPPPPPPP/PPPPPPPP w kq - 0 1",
    ),
    (
        Variant::Horde,
        "r1bqkb1r/pp1p1ppp/2n1pn2/1Pp1P1P1/P1PP1P1P/PP1PPP1P/1PPPPPPP/PPPPPPPP b kq - 0 6",
    ),
    (
        Variant::Horde,
        "4k3/2r5/8/1P1P1P2/PPPPPPP1/1PPPPP2/8/8 b - - 0 30",
    ),
    (
        Variant::Atomic,
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    ),
    (
        Variant::Atomic,
        "r1bqkb1r/pppppppp/2n2n2/8/4P3/2N5/PPPP1PPP/R1BQKBNR w KQkq - 3 3",
    ),
    (
        Variant::Atomic,
        "4k3/ppp2ppp/8/3q4/8/2N5/PPP2PPP/R3K2R w KQ - 0 15",
    ),
    (
        Variant::Xiangqi,
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
    ),
    (
        Variant::Xiangqi,
        "r1bakabr1/9/1cn3nc1/p1p1p1p1p/9/9/P1P1P1P1P/1CN1C1N2/9/R1BAKAB1R w - - 4 4",
    ),
    (
        Variant::Xiangqi,
        "3ak4/4a4/4b4/9/2p6/9/9/4B4/4A4/2RAK4 w - - 0 40",
    ),
];

/// One position's share of a [`BenchReport`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BenchEntry {
    /// Which game.
    pub variant: Variant,
    /// The position.
    pub fen: String,
    /// Nodes searched.
    pub nodes: u64,
    /// Time taken.
    pub time: Duration,
    /// The move found, in UCI notation.
    pub best_move: Option<String>,
}

/// What [`bench()`] measured.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BenchReport {
    /// Depth searched.
    pub depth: u32,
    /// Per position.
    pub entries: Vec<BenchEntry>,
    /// Sum of the nodes: the search's signature.
    pub nodes: u64,
    /// Total time.
    pub time: Duration,
}

impl BenchReport {
    /// Nodes per second over the whole run.
    #[must_use]
    pub fn nps(&self) -> u64 {
        (u128::from(self.nodes) * 1_000_000 / self.time.as_micros().max(1)) as u64
    }
}

/// Searches every bench position to [`BENCH_DEPTH`] with a fresh 16 MiB
/// table each (so the result does not depend on the order).
#[must_use]
pub fn bench() -> BenchReport {
    bench_depth(BENCH_DEPTH)
}

/// [`bench()`] at another depth.
#[must_use]
pub fn bench_depth(depth: u32) -> BenchReport {
    let mut entries = Vec::new();
    let start = Instant::now();
    for &(variant, fen) in POSITIONS {
        let Ok(pos) = EnginePosition::from_fen(variant, fen) else {
            continue;
        };
        let game = EngineGame::new(pos);
        let mut searcher = EngineSearcher::new(16);
        let t = Instant::now();
        let r = searcher.search(
            &game,
            &SearchLimits::depth(depth),
            SearchOptions::default(),
            &mut |_| {},
        );
        entries.push(BenchEntry {
            variant,
            fen: fen.to_owned(),
            nodes: r.nodes,
            time: t.elapsed(),
            best_move: r.best_move,
        });
    }
    BenchReport {
        depth,
        nodes: entries.iter().map(|e| e.nodes).sum(),
        entries,
        time: start.elapsed(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_bench_position_is_legal_and_the_signature_is_stable() {
        let a = bench_depth(3);
        assert_eq!(a.entries.len(), POSITIONS.len(), "a bench FEN was rejected");
        assert!(
            a.entries
                .iter()
                .all(|e| e.best_move.is_some() && e.nodes > 0)
        );
        let b = bench_depth(3);
        assert_eq!(a.nodes, b.nodes);
    }
}
