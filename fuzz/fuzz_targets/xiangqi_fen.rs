//! Any text as a Xiangqi FEN: parsing never panics, and whatever is
//! accepted survives the FEN round trip: writing the position and reading
//! it back gives an equal position with the same legal moves and key, and
//! so does every position one legal move away (so a legal move never
//! produces a position the FEN reader would refuse, such as one whose
//! mover is left in check or whose generals face).

#![no_main]

use chessplayx_rules::xiangqi::{Setup, Xiangqi};
use libfuzzer_sys::fuzz_target;

fn sorted_uci(pos: &Xiangqi) -> Vec<String> {
    let mut v: Vec<String> = pos.legal_moves().iter().map(ToString::to_string).collect();
    v.sort_unstable();
    v
}

fn round_trip(pos: &Xiangqi) {
    let fen = pos.fen();
    let back = Xiangqi::from_fen(&fen)
        .unwrap_or_else(|e| panic!("xiangqi refuses its own fen {fen:?}: {e}"));
    assert_eq!(&back, pos, "fen round trip of {fen}");
    assert_eq!(back.fen(), fen, "fen is not a fixed point");
    assert_eq!(back.zobrist(), pos.zobrist(), "key changed by {fen}");
    assert_eq!(
        pos.zobrist(),
        pos.zobrist_from_scratch(),
        "stale key in {fen}"
    );
    assert_eq!(sorted_uci(&back), sorted_uci(pos), "legal moves of {fen}");
}

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    if let Ok(setup) = Setup::from_fen(&text) {
        let fen = setup.to_fen();
        let again = Setup::from_fen(&fen)
            .unwrap_or_else(|e| panic!("setup refuses its own fen {fen:?}: {e}"));
        assert_eq!(again, setup, "setup round trip of {text:?}");
    }
    let Ok(pos) = Xiangqi::from_fen(&text) else {
        return;
    };
    round_trip(&pos);
    let moves = pos.legal_moves();
    assert_eq!(pos.count_legal_moves(), moves.len() as u64, "{pos:?}");
    assert_eq!(pos.perft(1), moves.len() as u64, "{pos:?}");
    assert_eq!(pos.outcome().is_some(), moves.is_empty(), "{pos:?}");
    for &mv in &moves {
        let mut after = pos.clone();
        after.play_unchecked(mv);
        round_trip(&after);
    }
});
