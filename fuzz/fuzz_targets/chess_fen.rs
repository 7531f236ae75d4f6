//! Any text as a FEN of each 8×8 game: parsing never panics, and whatever
//! is accepted survives the FEN round trip: writing the position and
//! reading it back gives an equal position with the same legal moves, and
//! so does every position one legal move away (so `play` never produces a
//! position the FEN reader would refuse, such as one whose mover is left
//! in check).

#![no_main]

use chessplayx_rules::chess::{Atomic, Horde, Position, Rules, Setup, Standard};
use libfuzzer_sys::fuzz_target;

fn sorted_uci<R: Rules>(pos: &Position<R>) -> Vec<String> {
    let mut v: Vec<String> = pos.legal_moves().iter().map(ToString::to_string).collect();
    v.sort_unstable();
    v
}

/// The position written as FEN reads back as itself, with the same legal
/// moves and key, and its move counters agree.
fn round_trip<R: Rules>(pos: &Position<R>) {
    let fen = pos.fen();
    let back = Position::<R>::from_fen(&fen)
        .unwrap_or_else(|e| panic!("{} refuses its own fen {fen:?}: {e}", R::VARIANT.name()));
    assert_eq!(&back, pos, "fen round trip of {fen}");
    assert_eq!(back.fen(), fen, "fen is not a fixed point");
    assert_eq!(back.zobrist(), pos.zobrist(), "key changed by {fen}");
    assert_eq!(pos.zobrist(), pos.compute_key(), "stale key in {fen}");
    assert_eq!(sorted_uci(&back), sorted_uci(pos), "legal moves of {fen}");
}

fn check<R: Rules>(text: &str) {
    let Ok(pos) = Position::<R>::from_fen(text) else {
        return;
    };
    round_trip(&pos);
    let moves = pos.legal_moves();
    assert_eq!(pos.count_legal_moves(), moves.len() as u64, "{pos:?}");
    assert_eq!(pos.perft(1), moves.len() as u64, "{pos:?}");
    let _ = pos.outcome();
    for &mv in &moves {
        let after = pos.played(mv);
        round_trip(&after);
        let _ = after.outcome();
    }
}

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    // The syntax step alone: what it accepts it writes back faithfully.
    if let Ok(setup) = Setup::from_fen(&text) {
        let again = Setup::from_fen(&setup.fen())
            .unwrap_or_else(|e| panic!("setup refuses its own fen {:?}: {e}", setup.fen()));
        assert_eq!(again, setup, "setup round trip of {text:?}");
    }
    check::<Standard>(&text);
    check::<Horde>(&text);
    check::<Atomic>(&text);
});
