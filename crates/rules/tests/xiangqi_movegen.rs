//! Move generation against a slow, obviously correct reference written
//! from the rules text (§3-4) (`chessplayx-reference`, the oracle the fuzz
//! targets use too), over seeded random playouts; plus the move-generation
//! cases of the rules page, Zobrist and outcome checks.

mod common;

use std::collections::BTreeSet;

use chessplayx_reference::xiangqi::{RefMove, RefPos};
use chessplayx_rules::{
    Color, EndReason, Game, Outcome,
    xiangqi::{Move, Square, Wxf, Xiangqi},
};

/// xorshift64*: small, seeded, reproducible.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// A point of the reference (`rank * 9 + file`) as a square.
fn square(index: u8) -> Square {
    Square::new(index).unwrap_or_else(|| panic!("the reference's point {index}"))
}

/// A reference move as its two squares.
fn squares(m: RefMove) -> (Square, Square) {
    (square(m.from), square(m.to))
}

fn check_position(pos: &Xiangqi) {
    let ours: Vec<Move> = pos.legal_moves();
    let ours_set: BTreeSet<(Square, Square)> = ours.iter().map(|m| (m.from(), m.to())).collect();
    assert_eq!(
        ours.len(),
        ours_set.len(),
        "duplicate moves in {}",
        pos.fen()
    );
    let naive = RefPos::from_position(pos);
    let reference: BTreeSet<(Square, Square)> =
        naive.legal_moves().into_iter().map(squares).collect();
    assert_eq!(ours_set, reference, "legal moves differ in {}", pos.fen());
    assert_eq!(pos.count_legal_moves(), ours.len() as u64);
    assert_eq!(
        pos.is_check(),
        naive.in_check(pos.turn()),
        "check in {}",
        pos.fen()
    );
    // Checkers: exactly the enemy pieces that could take the general.
    let naive_checkers: BTreeSet<Square> = naive.checkers().into_iter().map(square).collect();
    assert_eq!(
        pos.checkers().collect::<BTreeSet<_>>(),
        naive_checkers,
        "{}",
        pos.fen()
    );
    assert_eq!(
        pos.board().king_attackers(pos.turn()),
        pos.checkers(),
        "{}",
        pos.fen()
    );
    // The fast pin set equals the §7.2 definition on the side to move.
    let pinned: BTreeSet<Square> = pos
        .board()
        .by_color(pos.turn())
        .filter(|&s| pos.board().is_pinned(s))
        .collect();
    assert_eq!(
        pos.pinned().collect::<BTreeSet<_>>(),
        pinned,
        "pins in {}",
        pos.fen()
    );
    // Per-move queries agree with the list.
    for sq in pos.board().by_color(pos.turn()) {
        let from: BTreeSet<Move> = pos.legal_moves_from(sq).into_iter().collect();
        let expect: BTreeSet<Move> = ours.iter().copied().filter(|m| m.from() == sq).collect();
        assert_eq!(from, expect, "legal_moves_from {sq} in {}", pos.fen());
    }
    for (f, t) in naive.pseudo_moves().into_iter().map(squares) {
        let m = Move::new(f, t);
        assert_eq!(
            pos.is_legal(m),
            ours_set.contains(&(f, t)),
            "is_legal {m} in {}",
            pos.fen()
        );
        assert_eq!(pos.board().is_legal_move_for_owner(f, t), pos.is_legal(m));
    }
    // Every move: incremental Zobrist equals a recomputation, WXF round-trips.
    for &m in &ours {
        let w = pos.wxf(m);
        let parsed: Wxf = w
            .parse()
            .unwrap_or_else(|e| panic!("{w} of {m} in {}: {e}", pos.fen()));
        assert_eq!(parsed.to_move(pos), Ok(m), "wxf {w} in {}", pos.fen());
        let mut child = pos.clone();
        child.play_unchecked(m);
        assert_eq!(child.zobrist(), child.zobrist_from_scratch());
    }
    // Outcome: no legal move loses.
    match pos.outcome() {
        None => assert!(!ours.is_empty()),
        Some(o) => {
            assert!(ours.is_empty());
            let reason = if pos.is_check() {
                EndReason::Checkmate
            } else {
                EndReason::Stalemate
            };
            assert_eq!(o, Outcome::win(!pos.turn(), reason));
        }
    }
    // FEN round trip.
    let again = Xiangqi::from_fen(&pos.fen()).unwrap_or_else(|e| panic!("{}: {e}", pos.fen()));
    assert_eq!(&again, pos);
}

const STARTS: &[&str] = &[
    "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
    "1rbaka2R/5r3/6n2/2p1p1p2/4P1bP1/PpC3Bc1/1nPR2P2/2N2AN2/1c2K1p2/2BAC4 w - - 0 1",
    "4kcP1N/8n/3rb4/9/9/9/9/3p1A3/4K4/5CB2 w - - 0 1",
    "5k3/9/9/9/9/1N2P1C2/9/4BC3/9/cr1RK4 w - - 0 1",
    "r2akabn1/8r/bcn6/4p1pcp/p1p6/9/P1P1P1P1P/B6CR/4C4/RN1AKABN1 w - - 16 9",
    "1C2ka3/9/C1Nab1n2/p3p3p/6p2/9/P3P3P/3AB4/3p2c2/c1BAK4 w - - 0 1",
    "4k4/9/4n4/9/9/4C4/9/9/9/3K5 b - - 0 1",
];

#[test]
fn random_playouts_match_the_reference() {
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let mut positions = 0;
    let mut checks = 0;
    let mut ends = 0;
    for game in 0..400 {
        let start = STARTS[game % STARTS.len()];
        let mut pos = Xiangqi::from_fen(start).unwrap_or_else(|e| panic!("{e}"));
        for _ in 0..200 {
            check_position(&pos);
            positions += 1;
            checks += usize::from(pos.is_check());
            let moves = pos.legal_moves();
            if moves.is_empty() {
                ends += 1;
                break;
            }
            // Prefer captures and checks now and then, to reach sparse
            // endgames with many checks, pins and stalemates.
            let captures: Vec<Move> = moves
                .iter()
                .copied()
                .filter(|&m| pos.is_capture(m))
                .collect();
            let m = if !captures.is_empty() && rng.below(3) == 0 {
                captures[rng.below(captures.len())]
            } else {
                moves[rng.below(moves.len())]
            };
            pos.play_unchecked(m);
        }
    }
    assert!(positions > 10_000, "{positions}");
    assert!(checks > 200, "too few checks: {checks}");
    assert!(ends > 5, "too few finished games: {ends}");
}

#[test]
fn stalemate_is_a_loss() {
    // Black general e10 cannot move: e9 (soldier), d10 and f10 (chariots)
    // are covered, and it is not in check.
    let pos = Xiangqi::from_fen("4k4/9/3RPR3/9/9/9/9/9/9/3K5 b - - 0 1")
        .unwrap_or_else(|e| panic!("{e}"));
    assert!(!pos.is_check());
    assert_eq!(pos.legal_moves(), vec![]);
    assert_eq!(
        pos.outcome(),
        Some(Outcome::win(Color::White, EndReason::Stalemate))
    );
    let mated =
        Xiangqi::from_fen("3k5/9/9/9/9/9/9/9/9/3RK4 b - - 0 1").unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(
        mated.outcome(),
        Some(Outcome::win(Color::White, EndReason::Checkmate))
    );
    assert_eq!(Game::outcome(&Xiangqi::start()), None);
}

/// The `movegen` and `flying_general` cases of the rules page.
#[test]
fn rules_page_movegen_cases() {
    let path = common::data_dir().join("rules/xiangqi-cases.json");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut cases = 0;
    for chunk in text.split("\"name\":").skip(1) {
        if !(chunk.contains("\"category\": \"movegen\"")
            || chunk.contains("\"category\": \"flying_general\""))
        {
            continue;
        }
        let fen = string_after(chunk, "\"fen\": \"").unwrap_or_else(|| panic!("no fen"));
        let pos = Xiangqi::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
        let ours: BTreeSet<String> = pos.legal_moves().iter().map(|m| m.to_uci()).collect();
        let count: usize =
            number_after(chunk, "\"legal_move_count\": ").unwrap_or_else(|| panic!("no count"));
        assert_eq!(ours.len(), count, "{fen}");
        if let Some(list) = list_after(chunk, "\"legal_moves\": [") {
            assert_eq!(ours, list, "{fen}");
        }
        for m in list_after(chunk, "\"legal_includes\": [").unwrap_or_default() {
            assert!(ours.contains(&m), "{fen} should allow {m}");
        }
        for m in list_after(chunk, "\"legal_excludes\": [").unwrap_or_default() {
            assert!(!ours.contains(&m), "{fen} should forbid {m}");
        }
        cases += 1;
    }
    assert_eq!(cases, 9);
}

fn string_after<'a>(s: &'a str, key: &str) -> Option<&'a str> {
    let start = s.find(key)? + key.len();
    Some(&s[start..start + s[start..].find('"')?])
}

fn number_after(s: &str, key: &str) -> Option<usize> {
    let start = s.find(key)? + key.len();
    let end = start + s[start..].find(|c: char| !c.is_ascii_digit())?;
    s[start..end].parse().ok()
}

fn list_after(s: &str, key: &str) -> Option<BTreeSet<String>> {
    let start = s.find(key)? + key.len();
    let body = &s[start..start + s[start..].find(']')?];
    Some(
        body.split(',')
            .map(|x| x.trim().trim_matches('"').to_owned())
            .filter(|x| !x.is_empty())
            .collect(),
    )
}
