//! Any text as a UCI move and as a WXF move, in a legal Xiangqi position
//! the fuzzer picks (a start or suite position, then a few legal moves
//! chosen by input bytes).
//!
//! Properties: parsing never panics; what the syntax step accepts writes
//! back to text that parses to the same value; what the legality step
//! accepts is a legal move of the position; `Game::parse_uci` agrees with
//! the two steps. And for every legal move: its UCI and its WXF
//! (`pos.wxf(mv)`) parse back to that same move, and no two legal moves
//! share a WXF text.

#![no_main]

use chessplayx_fuzz::{Bytes, positions};
use chessplayx_rules::{
    Game, MoveError,
    xiangqi::{UciMove, Wxf, WxfDirection, WxfPosition, Xiangqi},
};
use libfuzzer_sys::fuzz_target;

/// Most plies walked before the text is tried.
const MAX_PLIES: usize = 24;

fn walk(input: &mut Bytes<'_>) -> Option<Xiangqi> {
    let fen = positions::XIANGQI[input.below(positions::XIANGQI.len())];
    let mut pos = Xiangqi::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
    for _ in 0..input.below(MAX_PLIES + 1) {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            return None;
        }
        pos.play_unchecked(moves[input.below(moves.len())]);
    }
    Some(pos)
}

fn text_as_moves(pos: &Xiangqi, bytes: &[u8]) {
    let legal = pos.legal_moves();
    let text = String::from_utf8_lossy(bytes);

    let uci = UciMove::from_ascii(bytes);
    if let Ok(u) = uci {
        assert_eq!(UciMove::parse(&u.to_string()), Ok(u), "uci text of {u:?}");
        if let Ok(mv) = u.to_move(pos) {
            assert!(
                legal.contains(&mv),
                "uci {u} gave {mv:?}, not legal in {pos:?}"
            );
            assert_eq!(UciMove::from(mv), u, "uci {u} gave another move {mv:?}");
        }
    }
    let two_steps = UciMove::parse(&text)
        .map_err(|_| "syntax")
        .and_then(|u| u.to_move(pos).map_err(|_| "illegal"));
    let one_step = Game::parse_uci(pos, &text).map_err(|e| match e {
        MoveError::Syntax { .. } => "syntax",
        MoveError::Illegal { .. } => "illegal",
    });
    assert_eq!(one_step, two_steps, "parse_uci of {text:?} in {pos:?}");

    if let Ok(w) = Wxf::from_ascii(bytes) {
        let written = w.to_string();
        assert_eq!(
            Wxf::parse(&written),
            Ok(w),
            "wxf {text:?} writes back as {written:?}"
        );
        if let Ok(mv) = w.to_move(pos) {
            assert!(
                legal.contains(&mv),
                "wxf {text:?} gave {mv:?}, not legal in {pos:?}"
            );
            let piece = pos.piece_at(mv.from());
            assert_eq!(
                piece.map(|p| p.role),
                Some(w.role),
                "wxf {text:?} gave {mv:?}"
            );
            if let WxfPosition::File(n) = w.position {
                assert_eq!(
                    mv.from().file().wxf_number(pos.turn()),
                    n,
                    "{text:?} gave {mv:?}"
                );
            }
            let dr = i32::from(mv.to().rank().index()) - i32::from(mv.from().rank().index());
            let forward = if pos.turn().is_white() { dr } else { -dr };
            let direction = match forward {
                0 => WxfDirection::Sideways,
                d if d > 0 => WxfDirection::Forward,
                _ => WxfDirection::Backward,
            };
            assert_eq!(direction, w.direction, "wxf {text:?} gave {mv:?}");
        }
    }
}

fn legal_moves_round_trip(pos: &Xiangqi) {
    let legal = pos.legal_moves();
    let mut wxfs: Vec<String> = Vec::with_capacity(legal.len());
    for &mv in &legal {
        let uci = mv.to_uci();
        assert_eq!(uci, UciMove::from(mv).to_string(), "{mv:?}");
        let back = UciMove::parse(&uci)
            .unwrap_or_else(|e| panic!("{mv:?} writes unparsable uci {uci:?}: {e}"));
        assert_eq!(back.to_move(pos), Ok(mv), "uci {uci} in {pos:?}");

        let wxf = pos.wxf(mv);
        assert_eq!(
            pos.wxf_move(mv).map(|w| w.to_string()),
            Some(wxf.clone()),
            "{mv:?}"
        );
        let parsed = Wxf::parse(&wxf)
            .unwrap_or_else(|e| panic!("{mv:?} writes unparsable wxf {wxf:?}: {e}"));
        assert_eq!(
            parsed.to_move(pos),
            Ok(mv),
            "wxf {wxf} of {mv:?} in {pos:?}"
        );
        wxfs.push(wxf);
    }
    wxfs.sort_unstable();
    let n = wxfs.len();
    wxfs.dedup();
    assert_eq!(n, wxfs.len(), "two legal moves share a wxf in {pos:?}");
}

fuzz_target!(|data: &[u8]| {
    let mut input = Bytes::new(data);
    let Some(pos) = walk(&mut input) else {
        return;
    };
    legal_moves_round_trip(&pos);
    text_as_moves(&pos, input.rest());
});
