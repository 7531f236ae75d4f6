//! One position through the engine at full strength: its evaluation,
//! best move and line, for the analysis of a game and for the analysis
//! board's live line (`/api/eval`). Runs on one of the AI pool's threads.

use std::time::{Duration, Instant};

use chessplayx_engine::{EngineGame, Level, SearchLimits, SearchOptions};
use chessplayx_rules::AnyGame;
use serde::Serialize;

use super::judge::Eval;
use crate::bot::with_tables;

/// The longest line given back, in plies (what a client shows).
const MAX_PV: usize = 12;

/// What the engine says about a position.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub(crate) struct PositionEval {
    /// From White's (Red's) point of view.
    pub(crate) eval: Eval,
    /// The engine's move (UCI); `None` when the game is over.
    pub(crate) best: Option<String>,
    /// The same in SAN (WXF in Xiangqi).
    pub(crate) best_san: Option<String>,
    /// The principal variation, UCI.
    pub(crate) pv: Vec<String>,
    /// The principal variation, SAN (WXF).
    pub(crate) pv_san: Vec<String>,
    /// The depth of the last completed iteration (0 for a finished game).
    pub(crate) depth: u32,
}

/// Evaluates the current position of `game` for about `think` (the search
/// stops at its deadline). Blocking and CPU-bound: call it inside a job
/// of the AI pool. A finished game is not searched.
pub(crate) fn evaluate(game: &AnyGame, think: Duration) -> PositionEval {
    if let Some(outcome) = game.outcome() {
        return PositionEval {
            eval: Eval::Over(outcome.winner),
            best: None,
            best_san: None,
            pv: Vec::new(),
            pv_san: Vec::new(),
            depth: 0,
        };
    }
    let variant = game.variant();
    let level = Level::Eight;
    let options = SearchOptions {
        level,
        seed: 0,
        multipv: 1,
        row: None,
        stop: None,
        deadline: Some(Instant::now() + think),
    };
    let engine_game = EngineGame::from_game(game);
    let result = with_tables(variant, level.params_in(variant).hash_mb, |searcher| {
        searcher.search(&engine_game, &SearchLimits::default(), options, &mut |_| {})
    });
    // The line in notation, played on a copy; it stops at the first move
    // the rules refuse (none should be).
    let mut line = game.clone();
    let mut pv = Vec::new();
    let mut pv_san = Vec::new();
    for uci in result.pv.iter().take(MAX_PV) {
        match line.play_uci(uci) {
            Ok(played) => {
                pv.push(played.uci);
                pv_san.push(played.san);
            }
            Err(_) => break,
        }
    }
    let best_san = match (&result.best_move, pv.first()) {
        (Some(best), Some(first)) if best == first => pv_san.first().cloned(),
        (Some(best), _) => {
            let mut after = game.clone();
            after.play_uci(best).ok().map(|p| p.san)
        }
        (None, _) => None,
    };
    PositionEval {
        eval: Eval::from_engine(result.score, game.turn()),
        best: result.best_move,
        best_san,
        pv,
        pv_san,
        depth: result.depth,
    }
}

#[cfg(test)]
mod tests {
    use chessplayx_rules::{Color, Variant};

    use super::*;

    #[test]
    fn a_mate_in_one_is_found_from_whites_side_and_a_mated_game_is_over() {
        let game = AnyGame::new(
            Variant::Chess,
            Some("6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1"),
        )
        .unwrap_or_else(|e| panic!("{e}"));
        let e = evaluate(&game, Duration::from_millis(200));
        assert_eq!(e.eval, Eval::Mate(1));
        assert_eq!(e.best.as_deref(), Some("d1d8"));
        assert_eq!(e.best_san.as_deref(), Some("Rd8#"));
        let mated = AnyGame::replay(Variant::Chess, None, &["f2f3", "e7e5", "g2g4", "d8h4"])
            .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(
            evaluate(&mated, Duration::from_millis(50)).eval,
            Eval::Over(Some(Color::Black))
        );
    }
}
