//! Random legal games of the 8×8 games, checked ply by ply against the
//! slow reference of `chessplayx_reference::chess`.
//!
//! The first byte picks the game and a start position, each further byte
//! one move (`byte % number of legal moves`). At every position: the
//! generated moves are exactly the reference's legal moves (each one
//! legal, none missing, no duplicate); the move counter, `perft(1)` and
//! `Game::legal_moves_into` agree with the list; check, checkers and the
//! outcome match the reference; the FEN reads back as the position; and
//! for every legal move, the position `play` produces equals the
//! reference's (placement, side to move, castling rights, en-passant
//! square) and its incremental Zobrist key equals the key computed from
//! scratch.

#![no_main]

use chessplayx_fuzz::{Bytes, positions};
use chessplayx_reference::chess::{Family, RefMove, RefPos};
use chessplayx_rules::{
    Game,
    chess::{Atomic, Horde, Move, Position, Rules, Standard},
};
use libfuzzer_sys::fuzz_target;

/// Longest walk; games rarely last this long with random moves anyway.
const MAX_PLIES: usize = 400;

fn ref_move(mv: Move) -> RefMove {
    RefMove {
        from: mv.from().index() as u8,
        to: mv.to().index() as u8,
        promotion: mv.promotion(),
    }
}

fn check_position<R: Rules>(pos: &Position<R>, reference: &RefPos, family: Family) -> Vec<Move> {
    let fen = pos.fen();
    assert_eq!(
        &RefPos::from_position(pos, family),
        reference,
        "the position drifted from the reference at {fen}"
    );
    let moves = pos.legal_moves();
    let mut ours: Vec<RefMove> = moves.iter().map(|&m| ref_move(m)).collect();
    ours.sort_unstable();
    let n = ours.len();
    ours.dedup();
    assert_eq!(ours.len(), n, "duplicate moves in {fen}");
    let expected = reference.legal_moves();
    if ours != expected {
        let extra: Vec<String> = ours
            .iter()
            .filter(|m| !expected.contains(m))
            .map(|m| m.uci())
            .collect();
        let missing: Vec<String> = expected
            .iter()
            .filter(|m| !ours.contains(m))
            .map(|m| m.uci())
            .collect();
        panic!("legal moves of {fen}: illegal {extra:?} generated, legal {missing:?} missing");
    }
    assert_eq!(pos.count_legal_moves(), n as u64, "count in {fen}");
    assert_eq!(pos.perft(1), n as u64, "perft(1) in {fen}");
    // A dirty buffer: `legal_moves_into` must clear it first.
    let mut buffer: Vec<Move> = moves.iter().rev().chain(&moves).copied().collect();
    Game::legal_moves_into(pos, &mut buffer);
    assert_eq!(buffer, moves, "legal_moves_into in {fen}");
    assert_eq!(
        pos.is_check(),
        reference.in_check(pos.turn()),
        "check in {fen}"
    );
    let mut checkers: Vec<u8> = pos
        .checkers()
        .into_iter()
        .map(|s| s.index() as u8)
        .collect();
    checkers.sort_unstable();
    assert_eq!(
        checkers,
        reference.checkers(pos.turn()),
        "checkers in {fen}"
    );
    assert_eq!(
        pos.outcome(),
        reference.outcome(expected.is_empty()),
        "outcome of {fen}"
    );
    assert_eq!(pos.zobrist(), pos.compute_key(), "key of {fen}");
    assert_eq!(
        Position::<R>::from_fen(&fen).as_ref(),
        Ok(pos),
        "fen round trip of {fen}"
    );
    moves
}

fn walk<R: Rules>(fens: &[&str], family: Family, input: &mut Bytes<'_>) {
    let fen = fens[input.below(fens.len())];
    let mut pos = Position::<R>::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
    let mut reference = RefPos::from_position(&pos, family);
    for _ in 0..MAX_PLIES {
        let moves = check_position(&pos, &reference, family);
        for &mv in &moves {
            let after = pos.played(mv);
            let expected = reference.make(ref_move(mv));
            assert_eq!(
                RefPos::from_position(&after, family),
                expected,
                "{mv:?} played in {}",
                pos.fen()
            );
            assert_eq!(
                after.zobrist(),
                after.compute_key(),
                "key after {mv:?} in {}",
                pos.fen()
            );
        }
        let (Some(b), false) = (input.next_byte(), moves.is_empty()) else {
            return;
        };
        let mv = moves[usize::from(b) % moves.len()];
        reference = reference.make(ref_move(mv));
        pos.play(mv);
    }
}

fuzz_target!(|data: &[u8]| {
    let mut input = Bytes::new(data);
    match input.byte() % 3 {
        0 => walk::<Standard>(positions::CHESS, Family::Standard, &mut input),
        1 => walk::<Horde>(positions::HORDE, Family::Horde, &mut input),
        _ => walk::<Atomic>(positions::ATOMIC, Family::Atomic, &mut input),
    }
});
