//! Repetitions and move-count rules as the search sees them: a repetition
//! is a draw in the 8×8 games (welcome to the side that is behind), while
//! in Xiangqi the side that checks through the whole cycle loses.

use chessplayx_engine::{
    EngineGame, EnginePosition, EngineSearcher, Score, SearchLimits, SearchOptions,
};
use chessplayx_rules::Variant;

fn game(variant: Variant, fen: &str, moves: &[&str]) -> EngineGame {
    let pos = EnginePosition::from_fen(variant, fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
    let mut g = EngineGame::new(pos);
    for m in moves {
        g.play_uci(m).unwrap_or_else(|e| panic!("{m}: {e}"));
    }
    g
}

fn best(g: &EngineGame, depth: u32) -> (String, Score) {
    let mut s = EngineSearcher::new(8);
    let r = s.search(
        g,
        &SearchLimits::depth(depth),
        SearchOptions::default(),
        &mut |_| {},
    );
    (r.best_move.unwrap_or_default(), r.score)
}

#[test]
fn the_side_behind_repeats_in_chess() {
    // White has a bare king against king and rook: lost, unless a
    // repetition saves it. The game went Kd1 Kd8 Ke1 Ke8, so Kd1 now
    // repeats the position after the first Kd1.
    let fen = "r3k3/8/8/8/8/8/8/4K3 w - - 0 1";
    let fresh = game(Variant::Chess, fen, &[]);
    let (_, s) = best(&fresh, 6);
    assert!(s.ordering_value() < -300, "no history: lost ({s})");
    let repeated = game(Variant::Chess, fen, &["e1d1", "e8d8", "d1e1", "d8e8"]);
    let (mv, s) = best(&repeated, 6);
    assert_eq!((mv.as_str(), s), ("e1d1", Score::Cp(0)));
}

#[test]
fn the_fifty_move_rule_is_a_draw() {
    // The same lost position, 99 plies after the last capture or pawn
    // move: any king move ends the game drawn.
    let (_, s) = best(
        &game(Variant::Chess, "r3k3/8/8/8/8/8/8/4K3 w - - 99 80", &[]),
        4,
    );
    assert_eq!(s, Score::Cp(0));
}

#[test]
fn perpetual_check_loses_in_xiangqi() {
    // The rules page's example: the chariot checks from h10 and h9 while
    // the general steps between f10 and f9. After one cycle, checking
    // again on h10 repeats it: the checker would lose, so Red, a chariot
    // up, plays something else and keeps a winning score.
    let fen = "5k3/7R1/5a3/9/9/9/9/9/9/4K4 w - - 0 1";
    let cycle = ["h9h10", "f10f9", "h10h9", "f9f10"];
    let g = game(Variant::Xiangqi, fen, &cycle);
    let mut s = EngineSearcher::new(8);
    let r = s.search(
        &g,
        &SearchLimits::depth(5),
        SearchOptions {
            multipv: 64,
            ..SearchOptions::default()
        },
        &mut |_| {},
    );
    let check_again = r
        .lines
        .iter()
        .find(|l| l.mv == "h9h10")
        .unwrap_or_else(|| panic!("h9h10 is legal"));
    assert!(
        check_again.score.ordering_value() < -20_000,
        "repeating the checks scores {}",
        check_again.score
    );
    assert_ne!(r.best_move.as_deref(), Some("h9h10"));
    assert!(r.score.ordering_value() > 300, "{}", r.score);

    // The same cycle in chess terms is only a draw: without the history
    // the check is just another move.
    let fresh = game(Variant::Xiangqi, fen, &[]);
    let mut s = EngineSearcher::new(8);
    let r = s.search(
        &fresh,
        &SearchLimits::depth(5),
        SearchOptions {
            multipv: 64,
            ..SearchOptions::default()
        },
        &mut |_| {},
    );
    let check = r
        .lines
        .iter()
        .find(|l| l.mv == "h9h10")
        .unwrap_or_else(|| panic!("h9h10 is legal"));
    assert!(check.score.ordering_value() > -20_000, "{}", check.score);
}

#[test]
fn being_checked_perpetually_is_a_win_in_xiangqi() {
    // Black's view of the same cycle: after Red's fourth check the
    // general may step back to f10, completing a cycle of Red checks.
    let fen = "5k3/7R1/5a3/9/9/9/9/9/9/4K4 w - - 0 1";
    let g = game(
        Variant::Xiangqi,
        fen,
        &["h9h10", "f10f9", "h10h9", "f9f10", "h9h10"],
    );
    let (mv, s) = best(&g, 3);
    // f10f9 leads back into the cycle Red started: Red, checking every
    // move, has lost.
    assert_eq!(mv, "f10f9");
    assert!(s.ordering_value() > 20_000, "{s}");
}
