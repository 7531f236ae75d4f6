//! Property test: the move generator and `play` agree with a slow,
//! independent reference (`chessplayx-reference`, the oracle the fuzz
//! targets use too), on random playouts from every perft-suite position.
//!
//! The reference keeps its own mailbox board, castling rights and
//! en-passant square (tracked from the moves, not read back from the
//! position), generates pseudo-legal moves naively and keeps those after
//! which the mover's king cannot be captured (Atomic: the mover's king did
//! not explode, and the enemy king exploded or the mover's king cannot be
//! captured while the kings do not touch).

mod common;

use std::{collections::BTreeSet, path::PathBuf};

use chessplayx_reference::chess::{Family, RefMove, RefPos};
use chessplayx_rules::chess::{Atomic, Horde, Move, Position, Rules, Standard};

/// The perft suites kept beside the tests.
fn perft_dir() -> PathBuf {
    common::data_dir().join("perft")
}

fn suite_fens(name: &str) -> Vec<String> {
    let path = perft_dir().join(format!("{name}.public.epd"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| l.split(';').next().unwrap_or_default().trim().to_owned())
        .collect()
}

struct XorShift(u64);
impl XorShift {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// The reference's legal moves in UCI, as a set.
fn reference_moves(reference: &RefPos) -> BTreeSet<String> {
    reference
        .legal_moves()
        .into_iter()
        .map(RefMove::uci)
        .collect()
}

/// The reference's pseudo-legal move written `uci`, if any.
fn find(reference: &RefPos, uci: &str) -> Option<RefMove> {
    reference
        .pseudo_moves()
        .into_iter()
        .find(|m| m.uci() == uci)
}

fn check_playouts<R: Rules>(suite: &str, family: Family, playouts: usize, plies: usize) -> usize {
    let mut rng = XorShift(0x9e37_79b9_7f4a_7c15 ^ suite.len() as u64);
    let mut nodes = 0;
    for fen in suite_fens(suite) {
        let root = Position::<R>::from_fen(&fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
        for _ in 0..playouts {
            let mut pos = root;
            let mut reference = RefPos::from_position(&pos, family);
            for _ in 0..plies {
                nodes += 1;
                let ours: Vec<Move> = pos.legal_moves();
                let our_set: BTreeSet<String> = ours.iter().map(ToString::to_string).collect();
                assert_eq!(
                    our_set.len(),
                    ours.len(),
                    "duplicate moves in {}",
                    pos.fen()
                );
                assert_eq!(
                    our_set,
                    reference_moves(&reference),
                    "legal moves of {}",
                    pos.fen()
                );
                assert_eq!(
                    pos.count_legal_moves(),
                    ours.len() as u64,
                    "count of {}",
                    pos.fen()
                );
                assert_eq!(
                    pos.is_check(),
                    reference.in_check(pos.turn()),
                    "check in {}",
                    pos.fen()
                );
                for &m in &ours {
                    let after = pos.played(m);
                    let rm = find(&reference, &m.to_string())
                        .unwrap_or_else(|| panic!("{m} in {}", pos.fen()));
                    let expected = reference.make(rm);
                    let got = RefPos::from_position(&after, family);
                    assert_eq!(got, expected, "{m} played in {}", pos.fen());
                    assert_eq!(
                        after.zobrist(),
                        after.compute_key(),
                        "key after {m} in {}",
                        pos.fen()
                    );
                    let mover = pos.turn();
                    match family {
                        Family::Atomic => assert!(
                            got.king(mover).is_some()
                                && (got.king(!mover).is_none() || !got.in_check(mover)),
                            "{m} leaves the king en prise in {}",
                            pos.fen()
                        ),
                        _ => assert!(
                            !got.in_check(mover),
                            "{m} leaves the king en prise in {}",
                            pos.fen()
                        ),
                    }
                }
                let reparsed = Position::<R>::from_fen(&pos.fen())
                    .unwrap_or_else(|e| panic!("{}: {e}", pos.fen()));
                assert_eq!(reparsed, pos, "fen round trip of {}", pos.fen());
                if ours.is_empty() {
                    assert!(
                        pos.outcome().is_some(),
                        "no move but no outcome in {}",
                        pos.fen()
                    );
                    break;
                }
                let m = ours[rng.below(ours.len())];
                let rm = find(&reference, &m.to_string()).unwrap_or_else(|| panic!("{m}"));
                reference = reference.make(rm);
                pos.play(m);
            }
        }
    }
    nodes
}

#[test]
fn chess_matches_reference() {
    assert!(check_playouts::<Standard>("chess", Family::Standard, 6, 80) > 2000);
}

#[test]
fn horde_matches_reference() {
    assert!(check_playouts::<Horde>("horde", Family::Horde, 6, 80) > 2000);
}

#[test]
fn atomic_matches_reference() {
    assert!(check_playouts::<Atomic>("atomic", Family::Atomic, 6, 80) > 2000);
}
