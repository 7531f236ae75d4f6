//! How the tuners' in-process games end: the rules' endings seen from
//! White, and adjudication once both sides' scores call the game won.
//! Shared by `tune gen`'s self-play and `tune spsa`'s games so that the
//! two judge alike.

use std::collections::HashMap;

use chessplayx_rules::Color;

use crate::eval::Evaluate;

/// Score (centipawns) beyond which both sides' searches must agree for
/// a few plies before the game is adjudicated: the engine converts such
/// positions reliably, and playing them out only adds near-copies.
pub(super) const ADJUDICATE_CP: i32 = 1000;
/// Consecutive plies of agreement needed to adjudicate.
pub(super) const ADJUDICATE_PLIES: u32 = 6;

/// The judge of the tuners' in-process games (`tune gen`'s self-play and
/// `tune spsa`'s games): the rules' endings, seen from White, and
/// adjudication of a game both sides' scores call won.
#[derive(Debug, Default)]
pub(super) struct Adjudicator {
    /// Occurrences of each position, for threefold repetition.
    seen: HashMap<u64, u32>,
    /// The sign of the last scores beyond [`ADJUDICATE_CP`] (1 White,
    /// −1 Black, 0 neither) and for how many plies in a row.
    streak: (i32, u32),
}

impl Adjudicator {
    /// White's result (2 win, 1 draw, 0 loss) when the game at `pos` is
    /// over: by the rules, a threefold repetition, a dead position or
    /// fifty moves. Call once for each position of the game.
    pub(super) fn ended<G: Evaluate>(&mut self, pos: &G) -> Option<u8> {
        if let Some(o) = pos.outcome() {
            return Some(white_score(o.winner));
        }
        if pos.lost() {
            return Some(white_score(Some(!pos.turn())));
        }
        let count = self.seen.entry(pos.zobrist()).or_insert(0);
        *count += 1;
        (*count >= 3 || pos.dead_draw() || pos.halfmoves() >= 100).then_some(1)
    }

    /// Records the mover's score for White (`None`: the side gave none,
    /// which breaks the streak); White's result once
    /// [`ADJUDICATE_PLIES`] scores in a row lie beyond ±[`ADJUDICATE_CP`]
    /// on the same side.
    pub(super) fn won(&mut self, white_cp: Option<i32>) -> Option<u8> {
        let sign = match white_cp {
            Some(c) if c >= ADJUDICATE_CP => 1,
            Some(c) if c <= -ADJUDICATE_CP => -1,
            _ => 0,
        };
        self.streak = if sign != 0 && sign == self.streak.0 {
            (sign, self.streak.1 + 1)
        } else {
            (sign, 1)
        };
        (sign != 0 && self.streak.1 >= ADJUDICATE_PLIES).then_some(if sign > 0 { 2 } else { 0 })
    }
}

/// A winner as White's result: 2 win, 1 draw, 0 loss.
fn white_score(winner: Option<Color>) -> u8 {
    match winner {
        Some(Color::White) => 2,
        None => 1,
        Some(Color::Black) => 0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_win_needs_six_agreeing_scores_in_a_row() {
        let mut judge = Adjudicator::default();
        for _ in 1..ADJUDICATE_PLIES {
            assert_eq!(judge.won(Some(ADJUDICATE_CP)), None);
        }
        // A missing score breaks the streak; so does one for the other side.
        assert_eq!(judge.won(None), None);
        for _ in 1..ADJUDICATE_PLIES {
            assert_eq!(judge.won(Some(-ADJUDICATE_CP - 5)), None);
        }
        assert_eq!(judge.won(Some(ADJUDICATE_CP)), None);
        let mut judge = Adjudicator::default();
        for _ in 1..ADJUDICATE_PLIES {
            assert_eq!(judge.won(Some(-ADJUDICATE_CP)), None);
        }
        assert_eq!(judge.won(Some(-2 * ADJUDICATE_CP)), Some(0), "Black won");
        let mut judge = Adjudicator::default();
        for _ in 1..ADJUDICATE_PLIES {
            assert_eq!(judge.won(Some(ADJUDICATE_CP + 1)), None);
        }
        assert_eq!(judge.won(Some(ADJUDICATE_CP)), Some(2), "White won");
        assert_eq!(judge.won(Some(ADJUDICATE_CP - 1)), None, "below the bar");
    }

    #[test]
    fn the_third_occurrence_of_a_position_ends_the_game_drawn() {
        let mut judge = Adjudicator::default();
        use chessplayx_rules::Game as _;
        let mut pos = chessplayx_rules::chess::Chess::start();
        // Knights out and back twice: the start position comes back twice.
        for mv in ["g1f3", "g8f6", "f3g1", "f6g8"].iter().cycle().take(8) {
            assert_eq!(judge.ended(&pos), None, "ended before the third time");
            let m = pos.parse_uci(mv).unwrap_or_else(|e| unreachable!("{e}"));
            pos.play(m);
        }
        assert_eq!(judge.ended(&pos), Some(1), "threefold: drawn");
    }
}
