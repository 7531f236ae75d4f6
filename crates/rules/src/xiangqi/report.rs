//! What the Asian rules' judge reports about a game: the draw counters,
//! the classification of each ply, the running streaks, the warning for a
//! candidate move, and why a move was refused. Kept apart from the judge
//! itself ([`super::XiangqiGame`]) so that the record's logic reads alone.

use super::{Bitboard, Move, Square};
use crate::{Color, Outcome};

/// The three draw counters of §6, as they stand after the last ply.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct Counters {
    /// Plies since the game's start: the FEN's plies plus those played
    /// (Moves rule).
    pub total_plies: u32,
    /// Plies since the last capture or forward step of a crossed soldier,
    /// starting at the FEN halfmove field (Progress rule).
    pub progress_plies: u32,
    /// Plies that neither check nor chase nor answer a check or chase,
    /// counted since the record started (Effective rule).
    pub effective_plies: u32,
}

/// One chased piece of a ply: the new target and the pieces threatening it,
/// on their squares after the move.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Chase {
    /// The chased piece.
    pub target: Square,
    /// The pieces threatening it (§7.3).
    pub attackers: Bitboard,
}

/// How one played ply was classified (§7.4, §6), as the cases file's
/// `plies` entries report it. Squares are those after the move.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct PlyReport {
    /// 1-based ply number within this record (0 is the start position).
    pub ply: u32,
    /// The move.
    pub mv: Move,
    /// The move leaves the opponent in check.
    pub check: bool,
    /// The mover's pieces giving that check.
    pub checkers: Bitboard,
    /// Pieces newly threatened by this move, in square order.
    pub chased: Vec<Chase>,
    /// A capture or a forward step of a crossed soldier (§6.2).
    pub progress: bool,
    /// Counted by the Effective rule (§6.3).
    pub effective: bool,
    /// The end of the game this ply brought, if any.
    pub outcome: Option<Outcome>,
}

impl PlyReport {
    /// A check or a chase: the reply to it is not effective either.
    #[must_use]
    pub fn is_forcing(&self) -> bool {
        self.check || !self.chased.is_empty()
    }
}

/// A run of consecutive checks, or of chases of one piece, by one side.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct StreakInfo {
    /// Consecutive own moves in the run.
    pub len: u32,
    /// The distinct pieces that took part, on their current squares.
    pub pieces: Bitboard,
    /// The longest run allowed to that many pieces; one more move is a
    /// violation.
    pub limit: u32,
}

/// A run of chases of one target.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct ChaseStreak {
    /// The chased piece, on its current square.
    pub target: Square,
    /// The run itself.
    pub streak: StreakInfo,
}

/// One side's running streaks (§7.5).
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Streaks {
    /// The check streak (`len` 0 when the side's last move was no check).
    pub check: StreakInfo,
    /// One entry per piece the side chased with every move of the run, in
    /// target square order.
    pub chases: Vec<ChaseStreak>,
}

/// What a candidate move would do under the advanced rules, computed
/// without playing it, so a player can be warned before a losing move.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct MoveWarning {
    /// The move.
    pub mv: Move,
    /// The end of the game the move would bring (by any rule, in the order
    /// of §8; look at the reason for the advanced rules).
    pub outcome: Option<Outcome>,
    /// `true` in [`ViolationMode::Forbid`](super::ViolationMode::Forbid) when the move would lose by the
    /// advanced rules and is therefore refused.
    pub forbidden: bool,
    /// The mover's check streak after the move, if the move checks and is
    /// not progress.
    pub check: Option<StreakInfo>,
    /// The mover's chase streaks after the move (each chased target).
    pub chases: Vec<ChaseStreak>,
}

impl MoveWarning {
    /// `true` when the move would lose the game for the side playing it.
    #[must_use]
    pub fn loses(&self, mover: Color) -> bool {
        self.forbidden || self.outcome.is_some_and(|o| o.winner == Some(!mover))
    }
}

/// Why [`XiangqiGame::play`](super::XiangqiGame::play) refused a move.
#[derive(Copy, Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum XiangqiPlayError {
    /// The game has already ended.
    #[error("the game is over ({})", .outcome.reason)]
    GameOver {
        /// How it ended.
        outcome: Outcome,
    },
    /// The move is not legal in the current position.
    #[error("illegal move {mv}")]
    Illegal {
        /// The move.
        mv: Move,
    },
    /// [`ViolationMode::Forbid`](super::ViolationMode::Forbid): the move would exceed a perpetual limit
    /// and lose, so it is refused.
    #[error("move {mv} is forbidden by the perpetual rules ({})", .outcome.reason)]
    Forbidden {
        /// The move.
        mv: Move,
        /// The loss it would have been under [`ViolationMode::Lose`](super::ViolationMode::Lose).
        outcome: Outcome,
    },
}
