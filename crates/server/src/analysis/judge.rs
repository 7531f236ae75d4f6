//! Evaluations from one side's point of view, winning chances, and the
//! judgement of a move by how much winning chance it gave away.
//!
//! The thresholds are lichess's (lila `Advice.scala`, the client's
//! `winningChances.ts`): the engine's centipawns become winning chances
//! on a scale from -1 (lost) to +1 (won) with a logistic curve, and a move
//! that drops the mover's chances by at least 0.1 is an inaccuracy, 0.2 a
//! mistake, 0.3 a blunder (on the 0–100 % "win probability" scale that is
//! 5, 10 and 15 points). A logistic curve rather than raw centipawns
//! because losing 300 cp when 1,500 up changes nothing, and when level it
//! loses the game.

use chessplayx_engine::Score;
use chessplayx_rules::Color;
use serde::{Serialize, Serializer, ser::SerializeMap as _};

/// An evaluation from White's (Red's in Xiangqi) point of view.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum Eval {
    /// Centipawns; positive is good for White.
    Cp(i32),
    /// Mate in this many moves; positive: White mates.
    Mate(i32),
    /// The game is over in this position: the winner, `None` a draw.
    Over(Option<Color>),
}

/// Centipawns beyond which more advantage changes nothing (lichess).
const CP_CAP: i32 = 1_000;

/// lichess's slope of the logistic curve (fitted to game results).
const SLOPE: f64 = 0.003_682_08;

/// The drops of winning chances (on the -1..1 scale) that make a move an
/// inaccuracy, a mistake and a blunder.
const THRESHOLDS: [(f64, Judgement); 3] = [
    (0.3, Judgement::Blunder),
    (0.2, Judgement::Mistake),
    (0.1, Judgement::Inaccuracy),
];

impl Eval {
    /// The engine's score, which is for the side to move, turned to
    /// White's point of view.
    pub(crate) const fn from_engine(score: Score, turn: Color) -> Self {
        let sign = match turn {
            Color::White => 1,
            Color::Black => -1,
        };
        match score {
            Score::Cp(cp) => Self::Cp(cp * sign),
            Score::Mate(n) => Self::Mate(n * sign),
        }
    }

    /// Winning chances for `side`, from -1 (lost) to 1 (won).
    pub(crate) fn chances(self, side: Color) -> f64 {
        let white = match self {
            Self::Cp(cp) => logistic(cp.clamp(-CP_CAP, CP_CAP)),
            // lichess: a mate counts as 1,100 to 2,000 cp (nearer: more).
            Self::Mate(n) => logistic((21 - n.abs().min(10)) * 100 * n.signum()),
            Self::Over(Some(Color::White)) => 1.0,
            Self::Over(Some(Color::Black)) => -1.0,
            Self::Over(None) => 0.0,
        };
        match side {
            Color::White => white,
            Color::Black => -white,
        }
    }

    /// Centipawns for `side`, mates and ends counted as the cap (so a
    /// loss in centipawns stays readable).
    pub(crate) fn cp(self, side: Color) -> i32 {
        let white = match self {
            Self::Cp(cp) => cp.clamp(-CP_CAP, CP_CAP),
            Self::Mate(n) => CP_CAP * n.signum(),
            Self::Over(Some(Color::White)) => CP_CAP,
            Self::Over(Some(Color::Black)) => -CP_CAP,
            Self::Over(None) => 0,
        };
        match side {
            Color::White => white,
            Color::Black => -white,
        }
    }
}

fn logistic(cp: i32) -> f64 {
    2.0 / (1.0 + (-SLOPE * f64::from(cp)).exp()) - 1.0
}

/// `{"cp": n}`, `{"mate": n}`; a finished position is `{"mate": 0,
/// "winner": "white"}` or, drawn, `{"cp": 0, "winner": null}`.
impl Serialize for Eval {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut map = s.serialize_map(None)?;
        match *self {
            Self::Cp(cp) => map.serialize_entry("cp", &cp)?,
            Self::Mate(n) => map.serialize_entry("mate", &n)?,
            Self::Over(winner) => {
                if winner.is_some() {
                    map.serialize_entry("mate", &0)?;
                } else {
                    map.serialize_entry("cp", &0)?;
                }
                map.serialize_entry("winner", &winner)?;
            }
        }
        map.end()
    }
}

/// How bad a move was.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub(crate) enum Judgement {
    /// Gave away at least 0.1 of winning chances.
    Inaccuracy,
    /// At least 0.2.
    Mistake,
    /// At least 0.3.
    Blunder,
}

/// The verdict on one move: what it cost and how bad that is.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) struct Verdict {
    /// Centipawns the mover lost (0 when the move kept or gained).
    pub(crate) loss: i32,
    /// `None` for a good enough move.
    pub(crate) judgement: Option<Judgement>,
}

/// Judges the move `mover` played from a position evaluated `before` to
/// one evaluated `after`. `was_best`: it is the engine's own choice, which
/// is never marked (a drop then is only the search seeing deeper).
pub(crate) fn judge(mover: Color, before: Eval, after: Eval, was_best: bool) -> Verdict {
    let loss = (before.cp(mover) - after.cp(mover)).max(0);
    let drop = before.chances(mover) - after.chances(mover);
    let judgement = if was_best {
        None
    } else {
        THRESHOLDS.iter().find(|(t, _)| drop >= *t).map(|&(_, j)| j)
    };
    Verdict { loss, judgement }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn drops_of_winning_chances_decide() {
        let w = Color::White;
        // Level to a piece down: a blunder.
        assert_eq!(
            judge(w, Eval::Cp(20), Eval::Cp(-300), false).judgement,
            Some(Judgement::Blunder)
        );
        // 300 cp thrown away while 1,500 up: still winning, not judged.
        assert_eq!(
            judge(w, Eval::Cp(1500), Eval::Cp(1200), false).judgement,
            None
        );
        // About 100 cp from level: a mistake; about 55 cp: an inaccuracy.
        assert_eq!(
            judge(w, Eval::Cp(0), Eval::Cp(-120), false).judgement,
            Some(Judgement::Mistake)
        );
        assert_eq!(
            judge(w, Eval::Cp(0), Eval::Cp(-60), false).judgement,
            Some(Judgement::Inaccuracy)
        );
        assert_eq!(judge(w, Eval::Cp(0), Eval::Cp(-20), false).judgement, None);
        // The engine's own move is never marked.
        assert_eq!(judge(w, Eval::Cp(20), Eval::Cp(-300), true).judgement, None);
    }

    #[test]
    fn mates_and_ends_count_for_the_right_side() {
        let b = Color::Black;
        // Black lets a won mate slip to a level game: a blunder.
        let v = judge(b, Eval::Mate(-3), Eval::Cp(0), false);
        assert_eq!(v.judgement, Some(Judgement::Blunder));
        assert_eq!(v.loss, 1000);
        // Black walks into a mate: a blunder; Black mates: nothing lost.
        assert_eq!(
            judge(b, Eval::Cp(0), Eval::Mate(2), false).judgement,
            Some(Judgement::Blunder)
        );
        let won = judge(b, Eval::Mate(-1), Eval::Over(Some(Color::Black)), false);
        assert_eq!((won.loss, won.judgement), (0, None));
        assert_eq!(Eval::from_engine(Score::Mate(2), b), Eval::Mate(-2));
        assert_eq!(Eval::from_engine(Score::Cp(-40), b), Eval::Cp(40));
    }

    #[test]
    fn evals_serialize_as_the_protocol_says() {
        let json = |e: Eval| serde_json::to_string(&e).unwrap();
        assert_eq!(json(Eval::Cp(-35)), r#"{"cp":-35}"#);
        assert_eq!(json(Eval::Mate(2)), r#"{"mate":2}"#);
        assert_eq!(
            json(Eval::Over(Some(Color::Black))),
            r#"{"mate":0,"winner":"black"}"#
        );
        assert_eq!(json(Eval::Over(None)), r#"{"cp":0,"winner":null}"#);
    }
}
