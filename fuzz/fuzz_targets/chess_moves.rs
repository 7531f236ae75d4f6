//! Any text as a UCI move and as a SAN move, in a legal position the
//! fuzzer picks (a start or suite position of one of the 8×8 games, then
//! a few legal moves chosen by input bytes).
//!
//! Properties: parsing never panics; what the syntax step accepts writes
//! back to text that parses to the same value; what the legality step
//! accepts is a legal move of the position; the game record's one-step
//! `play_uci`/`play_san` agree with the two steps. And for every legal
//! move: its UCI and its SAN parse back to that same move, no two legal
//! moves share a SAN, and the SAN's sign is `#` exactly when the move
//! wins and `+` exactly when it otherwise checks.

#![no_main]

use chessplayx_fuzz::{Bytes, positions};
use chessplayx_rules::{
    Game, MoveError,
    chess::{
        Atomic, ChessGame, Horde, PlaySanError, PlayUciError, Position, Rules, San, SanPlus,
        Standard, Suffix, UciMove,
    },
};
use libfuzzer_sys::fuzz_target;

/// Most plies walked before the text is tried.
const MAX_PLIES: usize = 24;

fn walk<R: Rules>(fens: &[&str], input: &mut Bytes<'_>) -> Option<Position<R>> {
    let fen = fens[input.below(fens.len())];
    let mut pos = Position::<R>::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
    let plies = input.below(MAX_PLIES + 1);
    for _ in 0..plies {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            return None;
        }
        pos.play(moves[input.below(moves.len())]);
    }
    Some(pos)
}

/// Just over 100 lines: one pass over every notation the parser
/// accepts, each checked the same way.
fn text_as_moves<R: Rules>(pos: &Position<R>, bytes: &[u8]) {
    let legal = pos.legal_moves();
    let text = String::from_utf8_lossy(bytes);

    let uci = UciMove::from_ascii(bytes);
    let uci_move = uci.as_ref().ok().and_then(|u| u.to_move(pos).ok());
    if let Ok(u) = &uci {
        assert_eq!(
            u.to_string().parse::<UciMove>().as_ref(),
            Ok(u),
            "uci text of {u:?}"
        );
    }
    if let (Ok(u), Some(mv)) = (&uci, uci_move) {
        assert!(
            legal.contains(&mv),
            "uci {u} gave {mv:?}, not legal in {pos:?}"
        );
        assert_eq!(mv.to_uci(), *u, "uci {u} gave another move {mv:?}");
    }
    // `Game::parse_uci` is the same two steps behind the trait.
    let two_steps = text
        .parse::<UciMove>()
        .map_err(|_| "syntax")
        .and_then(|u| u.to_move(pos).map_err(|_| "illegal"));
    let one_step = Game::parse_uci(pos, &text).map_err(|e| match e {
        MoveError::Syntax { .. } => "syntax",
        MoveError::Illegal { .. } => "illegal",
    });
    assert_eq!(one_step, two_steps, "parse_uci of {text:?} in {pos:?}");

    let san = SanPlus::from_ascii(bytes);
    let san_move = san.as_ref().ok().and_then(|s| s.san.to_move(pos).ok());
    if let Ok(s) = &san {
        let written = s.to_string();
        assert_eq!(
            SanPlus::from_ascii(written.as_bytes()).as_ref(),
            Ok(s),
            "san {text:?} writes back as {written:?}"
        );
    }
    if let (Ok(s), Some(mv)) = (&san, san_move) {
        assert!(
            legal.contains(&mv),
            "san {text:?} gave {mv:?}, not legal in {pos:?}"
        );
        // The move found fits what the text says.
        if let Some(to) = s.san.to() {
            assert_eq!(mv.to(), to, "san {text:?} gave {mv:?}");
            assert_eq!(Some(mv.role()), s.san.role(), "san {text:?} gave {mv:?}");
        }
        let (file, rank) = s.san.disambiguation();
        assert!(
            file.is_none_or(|f| mv.from().file() == f),
            "{text:?} gave {mv:?}"
        );
        assert!(
            rank.is_none_or(|r| mv.from().rank() == r),
            "{text:?} gave {mv:?}"
        );
        assert_eq!(
            mv.castling_side(),
            s.san.castling_side(),
            "{text:?} gave {mv:?}"
        );
        assert_eq!(mv.promotion(), s.san.promotion(), "{text:?} gave {mv:?}");
    }

    // The game record's one-step parsing agrees with the two steps.
    let start = ChessGame::<R>::from_position(*pos);
    let over = start.outcome().is_some();
    let mut game = start.clone();
    match game.play_uci(&text) {
        Ok(mv) => {
            assert!(
                !over && uci_move == Some(mv),
                "play_uci {text:?} gave {mv:?}"
            );
            assert_eq!(game.position(), &pos.played(mv), "play_uci {text:?}");
            assert_eq!(game.sans().last(), Some(&pos.san(mv)), "play_uci {text:?}");
        }
        Err(PlayUciError::GameOver { .. }) => assert!(over, "play_uci {text:?} in {pos:?}"),
        Err(PlayUciError::Syntax(_)) => assert!(!over && uci.is_err(), "{text:?}"),
        Err(PlayUciError::Illegal(_)) => {
            assert!(!over && uci.is_ok() && uci_move.is_none(), "{text:?}");
        }
    }
    let mut game = start;
    match game.play_san(&text) {
        Ok(mv) => {
            assert!(
                !over && san_move == Some(mv),
                "play_san {text:?} gave {mv:?}"
            );
            assert_eq!(game.position(), &pos.played(mv), "play_san {text:?}");
        }
        Err(PlaySanError::GameOver { .. }) => assert!(over, "play_san {text:?} in {pos:?}"),
        Err(PlaySanError::Syntax(_)) => assert!(!over && san.is_err(), "{text:?}"),
        Err(PlaySanError::Illegal(_)) => {
            assert!(!over && san.is_ok() && san_move.is_none(), "{text:?}");
        }
    }
}

fn legal_moves_round_trip<R: Rules>(pos: &Position<R>) {
    let legal = pos.legal_moves();
    let mut sans: Vec<String> = Vec::with_capacity(legal.len());
    for &mv in &legal {
        let uci = mv.to_uci().to_string();
        let back = UciMove::from_ascii(uci.as_bytes())
            .unwrap_or_else(|e| panic!("{mv:?} writes unparsable uci {uci:?}: {e}"));
        assert_eq!(back.to_move(pos), Ok(mv), "uci {uci} in {pos:?}");

        let san = pos.san(mv);
        let parsed = SanPlus::from_ascii(san.as_bytes())
            .unwrap_or_else(|e| panic!("{mv:?} writes unparsable san {san:?}: {e}"));
        assert_eq!(parsed, SanPlus::from_move(pos, mv), "{san}");
        assert_eq!(parsed.san.to_move(pos), Ok(mv), "san {san} in {pos:?}");
        assert_eq!(
            San::from_move(pos, mv).to_move(pos),
            Ok(mv),
            "san {san} in {pos:?}"
        );
        let after = pos.played(mv);
        let wins = after
            .outcome()
            .is_some_and(|o| o.winner == Some(pos.turn()));
        let expected = if wins {
            Some(Suffix::Mate)
        } else if after.is_check() {
            Some(Suffix::Check)
        } else {
            None
        };
        assert_eq!(parsed.suffix, expected, "sign of {san} in {pos:?}");
        sans.push(parsed.san.to_string());
    }
    sans.sort_unstable();
    let before = sans.len();
    sans.dedup();
    assert_eq!(before, sans.len(), "two legal moves share a san in {pos:?}");
}

fn run<R: Rules>(fens: &[&str], input: &mut Bytes<'_>) {
    let Some(pos) = walk::<R>(fens, input) else {
        return;
    };
    legal_moves_round_trip(&pos);
    text_as_moves(&pos, input.rest());
}

fuzz_target!(|data: &[u8]| {
    let mut input = Bytes::new(data);
    match input.byte() % 3 {
        0 => run::<Standard>(positions::CHESS, &mut input),
        1 => run::<Horde>(positions::HORDE, &mut input),
        _ => run::<Atomic>(positions::ATOMIC, &mut input),
    }
});
