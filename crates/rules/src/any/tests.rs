//! Unit tests of the parent module (kept apart so that the module
//! itself stays short).

use super::*;

/// The hand-written `Serialize` writes what the derived `Deserialize`
/// reads back, with Xiangqi's fields at the top level and only there.
#[cfg(feature = "serde")]
#[test]
fn status_json_round_trips_in_every_game() {
    let games = [
        (Variant::Chess, vec!["e2e4", "e7e5", "d1h5"]),
        (Variant::Horde, vec!["e4e5"]),
        (Variant::Atomic, vec!["e2e4"]),
        (Variant::Xiangqi, vec!["h3e3", "h8e8"]),
    ];
    for (variant, moves) in games {
        let status = AnyGame::replay(variant, None, &moves).unwrap().status();
        let json = serde_json::to_value(&status).unwrap();
        let back: GameStatus = serde_json::from_value(json.clone()).unwrap();
        assert_eq!(back, status, "{variant}");
        let keys: Vec<&str> = json
            .as_object()
            .unwrap()
            .keys()
            .map(String::as_str)
            .collect();
        let xiangqi = ["wxf", "counters", "streaks"];
        for k in xiangqi {
            assert_eq!(
                keys.contains(&k),
                variant == Variant::Xiangqi,
                "{variant} {k}"
            );
        }
        assert_eq!(keys.len(), if variant == Variant::Xiangqi { 11 } else { 8 });
    }
}

/// `(white can still win, black can still win)` in `fen`.
fn winners(variant: Variant, fen: &str) -> (bool, bool) {
    let game = AnyGame::new(variant, Some(fen)).unwrap();
    (
        game.can_still_win(Color::White),
        game.can_still_win(Color::Black),
    )
}

#[test]
fn chess_material_that_cannot_mate_follows_lichess() {
    let cases = [
        // Start, a rook, a pawn: enough.
        (Variant::Chess.start_fen(), (true, true)),
        ("8/8/8/4k3/8/8/8/4K2R w - - 0 1", (true, false)),
        ("8/8/8/4k3/8/8/4P3/4K3 w - - 0 1", (true, false)),
        // A lone knight or bishop against a bare king or a queen.
        ("8/8/8/4k3/8/8/8/4KN2 w - - 0 1", (false, false)),
        ("8/8/8/4k3/8/8/8/4KB2 w - - 0 1", (false, false)),
        ("8/8/3q4/4k3/8/8/8/4KN2 w - - 0 1", (false, true)),
        // ...but a knight mates a king hemmed in by its own pawn, and
        // two knights can mate with help.
        ("8/8/4p3/4k3/8/8/8/4KN2 w - - 0 1", (true, true)),
        ("8/8/8/4k3/8/8/8/3NKN2 w - - 0 1", (true, false)),
        // Bishops: all on one colour (c1 and f8 are dark) cannot mate;
        // on both colours, or with a knight about, they can.
        ("5b2/8/8/4k3/8/8/8/2B1K3 w - - 0 1", (false, false)),
        ("2b5/8/8/4k3/8/8/8/2B1K3 w - - 0 1", (true, true)),
        ("8/8/8/4k3/8/8/8/2BBK3 w - - 0 1", (true, false)),
        ("5n2/8/8/4k3/8/8/8/2B1K3 w - - 0 1", (true, true)),
    ];
    for (fen, expected) in cases {
        assert_eq!(winners(Variant::Chess, fen), expected, "{fen}");
    }
}

#[test]
fn atomic_needs_an_explosion_or_a_mate_without_the_king() {
    let cases = [
        (Variant::Atomic.start_fen(), (true, true)),
        // A bare king explodes nothing.
        ("8/8/8/4k3/8/8/4P3/4K3 w - - 0 1", (true, false)),
        // Against a bare king (which may touch the other king) a queen
        // mates alone, a single rook or two knights never do.
        ("8/8/8/4k3/8/8/8/3QK3 w - - 0 1", (true, false)),
        ("8/8/8/4k3/8/8/8/4K2R w - - 0 1", (false, false)),
        ("8/8/8/4k3/8/8/8/3NKN2 w - - 0 1", (false, false)),
        ("8/8/8/4k3/8/8/8/2NNKN2 w - - 0 1", (true, false)),
        // Any piece beside the enemy king can be exploded...
        ("8/8/4p3/4k3/8/8/8/4KN2 w - - 0 1", (true, true)),
        // ...unless only bishops that never meet are left.
        ("2b5/8/8/4k3/8/8/8/2B1K3 w - - 0 1", (false, false)),
        ("5b2/8/8/4k3/8/8/8/2B1K3 w - - 0 1", (true, true)),
    ];
    for (fen, expected) in cases {
        assert_eq!(winners(Variant::Atomic, fen), expected, "{fen}");
    }
}

#[test]
fn horde_flags_always_lose() {
    assert_eq!(
        winners(Variant::Horde, Variant::Horde.start_fen()),
        (true, true)
    );
    // Black down to a bare king can still take the last pawns.
    assert_eq!(
        winners(Variant::Horde, "4k3/8/8/8/8/8/PP6/8 w - - 0 1"),
        (true, true)
    );
}

#[test]
fn xiangqi_needs_a_piece_that_crosses_the_river() {
    let cases = [
        (Variant::Xiangqi.start_fen(), (true, true)),
        // Generals with advisors and elephants only.
        ("2bak4/4a4/9/9/9/9/9/9/4A4/3K1AB2 w - - 0 1", (false, false)),
        // A soldier, a horse, a cannon or a chariot is enough.
        ("2bak4/4a4/9/9/9/9/4P4/9/4A4/3K1A3 w - - 0 1", (true, false)),
        ("3ak4/4a4/2n6/9/9/9/9/9/4A4/3K1A3 w - - 0 1", (false, true)),
        ("3ak4/4a4/9/9/9/9/9/1C7/4A4/3K1A3 w - - 0 1", (true, false)),
        ("3ak4/4a4/9/9/9/9/9/9/4A4/R2K1A3 w - - 0 1", (true, false)),
    ];
    for (fen, expected) in cases {
        assert_eq!(winners(Variant::Xiangqi, fen), expected, "{fen}");
    }
}

#[test]
fn fools_mate_ends_with_mate_sign_and_pgn() {
    let game = AnyGame::replay(Variant::Chess, None, &["f2f3", "e7e5", "g2g4", "d8h4"]).unwrap();
    let st = game.status();
    assert_eq!(st.san.as_deref(), Some("Qh4#"));
    assert_eq!(
        st.outcome,
        Some(Outcome::win(Color::Black, EndReason::Checkmate))
    );
    assert!(game.export().contains("2. g4 Qh4#"), "{}", game.export());
}

/// `history`, `last_played` and `uci_at` give back what `play_uci`
/// returned for every move, in every variant: a few chosen moves
/// (captures, castling, a promotion, checks, a game from a FEN), then
/// random legal moves up to 80 plies or the end.
#[test]
fn history_is_what_play_returned() {
    let games: [(Variant, Option<&str>, &[&str]); 5] = [
        (
            Variant::Chess,
            None,
            &[
                "e2e4", "d7d5", "e4d5", "g8f6", "f1b5", "c7c6", "d5c6", "d8a5", "c6b7", "a5b5",
                "b7a8q", "e8d7", "g1f3", "b5b2", "e1g1",
            ],
        ),
        (
            Variant::Atomic,
            None,
            &["g1f3", "d7d5", "f3e5", "c8g4", "e5f7"],
        ),
        (Variant::Horde, None, &["e4e5", "d7d6", "e5d6", "c7d6"]),
        (
            Variant::Chess,
            Some("4k3/8/8/8/8/8/8/R3K3 w Q - 98 60"),
            &["a1a8", "e8e7"],
        ),
        (Variant::Xiangqi, None, &["h3e3", "h8e8", "e3e7"]),
    ];
    let mut state = 0x2545_f491_4f6c_dd1d_u64;
    for (variant, fen, moves) in games {
        let mut game = AnyGame::new(variant, fen).unwrap();
        assert_eq!(game.last_played(), None);
        assert_eq!(game.uci_at(0), None);
        // The given moves, then random legal ones.
        let mut ucis: Vec<String> = moves.iter().map(|m| (*m).to_owned()).collect();
        let mut played = Vec::new();
        let mut i = 0;
        while i < ucis.len() || (i < 80 && game.outcome().is_none()) {
            if i == ucis.len() {
                let legal = game.legal_moves();
                let pick = (state ^ (state >> 29)) as usize % legal.len();
                state = state
                    .wrapping_mul(6_364_136_223_846_793_005)
                    .wrapping_add(1);
                ucis.push(legal[pick].uci.to_string());
            }
            let uci = &ucis[i];
            let p = game
                .play_uci(uci)
                .unwrap_or_else(|e| panic!("{variant} {uci}: {e}"));
            assert_eq!(game.last_played().as_ref(), Some(&p), "{variant} {uci}");
            assert_eq!(game.uci_at(i).as_ref(), Some(uci));
            played.push(p);
            i += 1;
        }
        assert_eq!(game.history(), played, "{variant}");
        assert_eq!(game.uci_at(ucis.len()), None);
    }
}

#[test]
fn a_move_after_the_end_is_refused_with_its_ply() {
    let err = AnyGame::replay(
        Variant::Chess,
        None,
        &["f2f3", "e7e5", "g2g4", "d8h4", "a2a3"],
    )
    .unwrap_err();
    assert_eq!(err.after_end(), Some(EndReason::Checkmate));
    assert!(matches!(err, ReplayError::Move { ply: 5, .. }));
}

#[test]
fn legal_moves_carry_squares_and_notation() {
    let game = AnyGame::new(Variant::Xiangqi, None).unwrap();
    let moves = game.legal_moves();
    assert_eq!(moves.len(), 44);
    let cannon = moves.iter().find(|m| m.uci == "h3e3").unwrap();
    assert_eq!(
        (
            cannon.from.as_str(),
            cannon.to.as_str(),
            cannon.san.as_str()
        ),
        ("h3", "e3", "C2=5")
    );
    let promo = AnyGame::new(Variant::Chess, Some("8/P6k/8/8/8/8/8/K7 w - - 0 1")).unwrap();
    let queen = promo
        .legal_moves()
        .into_iter()
        .find(|m| m.uci == "a7a8q")
        .unwrap();
    assert_eq!((queen.to.as_str(), queen.promotion), ("a8", Some('q')));
}

#[test]
fn undo_takes_back_one_ply_in_every_variant() {
    for v in Variant::ALL {
        let mut game = AnyGame::new(v, None).unwrap();
        let first = game.legal_moves()[0].uci;
        let start = game.fen();
        game.play_uci(&first).unwrap();
        assert_ne!(game.fen(), start);
        assert!(game.undo());
        assert_eq!(game.fen(), start);
        assert!(!game.undo());
    }
}

#[test]
fn xiangqi_export_numbers_moves_and_warnings_flag_the_losing_check() {
    let fen = "5k3/7R1/5a3/9/9/9/9/9/9/4K4 w - - 0 1";
    let cycle = ["h9h10", "f10f9", "h10h9", "f9f10"];
    let moves: Vec<&str> = cycle.iter().cycle().take(12).copied().collect();
    let game = AnyGame::replay(Variant::Xiangqi, Some(fen), &moves).unwrap();
    let warn = game.move_warnings();
    let losing = warn.iter().find(|w| w.uci == "h9h10").unwrap();
    assert!(losing.loses);
    assert_eq!(
        losing.outcome.map(|o| o.reason),
        Some(EndReason::PerpetualCheck)
    );
    let text = game.export();
    assert!(text.contains("1. R2+1 "), "{text}");
    assert!(text.trim_end().ends_with('*'), "{text}");
}
