//! How a game ends.

use crate::Color;

/// Why a game ended, for every game. The snake_case names are part of the
/// public JSON and CLI output and must not change.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[cfg_attr(feature = "ts", ts(rename = "RulesEndReason"))]
pub enum EndReason {
    /// The side to move is in check with no legal move.
    Checkmate,
    /// The side to move has no legal move and is not in check (a draw in
    /// the 8×8 games, a loss in Xiangqi).
    Stalemate,
    /// Atomic: a king was caught in an explosion.
    KingExploded,
    /// Horde: White has no piece left.
    HordeDestroyed,
    /// Neither side can ever mate (automatic draw).
    InsufficientMaterial,
    /// The same position occurred five times (automatic draw).
    FivefoldRepetition,
    /// 75 moves by each side without capture or pawn move (automatic draw).
    SeventyFiveMoves,
    /// A draw claimed by the player to move because the position occurred
    /// three times (8×8 games; the claim itself is [`Claim::ThreefoldRepetition`]).
    ThreefoldRepetition,
    /// A draw claimed by the player to move after 50 moves by each side
    /// without capture or pawn move (the claim is [`Claim::FiftyMoves`]).
    FiftyMoves,
    /// Xiangqi: one side exceeded the perpetual-check limit.
    PerpetualCheck,
    /// Xiangqi: one side exceeded the perpetual-chase limit.
    PerpetualChase,
    /// Xiangqi: both sides check perpetually (draw).
    MutualPerpetualCheck,
    /// Xiangqi: both sides chase perpetually (draw).
    MutualPerpetualChase,
    /// Xiangqi: one side checks perpetually against a perpetual chase (the
    /// checker loses).
    PerpetualCheckVsChase,
    /// Xiangqi: the total-moves counter ran out (draw).
    MovesRule,
    /// Xiangqi: the no-progress counter ran out (draw).
    ProgressRule,
    /// Xiangqi: the effective-moves counter ran out (draw).
    EffectiveRule,
}

impl EndReason {
    /// The snake_case name used in JSON and on the command line.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Self::Checkmate => "checkmate",
            Self::Stalemate => "stalemate",
            Self::KingExploded => "king_exploded",
            Self::HordeDestroyed => "horde_destroyed",
            Self::InsufficientMaterial => "insufficient_material",
            Self::FivefoldRepetition => "fivefold_repetition",
            Self::SeventyFiveMoves => "seventy_five_moves",
            Self::ThreefoldRepetition => "threefold_repetition",
            Self::FiftyMoves => "fifty_moves",
            Self::PerpetualCheck => "perpetual_check",
            Self::PerpetualChase => "perpetual_chase",
            Self::MutualPerpetualCheck => "mutual_perpetual_check",
            Self::MutualPerpetualChase => "mutual_perpetual_chase",
            Self::PerpetualCheckVsChase => "perpetual_check_vs_chase",
            Self::MovesRule => "moves_rule",
            Self::ProgressRule => "progress_rule",
            Self::EffectiveRule => "effective_rule",
        }
    }
}

impl core::fmt::Display for EndReason {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(self.name())
    }
}

/// The end of a game: a winner (or none, for a draw) and the reason.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[cfg_attr(feature = "ts", ts(rename = "RulesOutcome"))]
pub struct Outcome {
    /// The winner, or `None` for a draw.
    pub winner: Option<Color>,
    /// Why the game ended.
    pub reason: EndReason,
}

impl Outcome {
    /// A win for `winner`.
    #[must_use]
    pub const fn win(winner: Color, reason: EndReason) -> Self {
        Self {
            winner: Some(winner),
            reason,
        }
    }

    /// A draw.
    #[must_use]
    pub const fn draw(reason: EndReason) -> Self {
        Self {
            winner: None,
            reason,
        }
    }

    /// `true` when nobody won.
    #[must_use]
    pub const fn is_draw(&self) -> bool {
        self.winner.is_none()
    }
}

/// A draw the player to move may claim but that never happens by itself.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub enum Claim {
    /// The current position has occurred at least three times.
    ThreefoldRepetition,
    /// 50 moves by each side without capture or pawn move.
    FiftyMoves,
}

impl Claim {
    /// The snake_case name used in JSON.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Self::ThreefoldRepetition => "threefold_repetition",
            Self::FiftyMoves => "fifty_moves",
        }
    }

    /// The reason a draw claimed this way ends the game with.
    #[must_use]
    pub const fn end_reason(self) -> EndReason {
        match self {
            Self::ThreefoldRepetition => EndReason::ThreefoldRepetition,
            Self::FiftyMoves => EndReason::FiftyMoves,
        }
    }
}

impl core::fmt::Display for Claim {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(self.name())
    }
}
