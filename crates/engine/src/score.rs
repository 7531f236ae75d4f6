//! Scores: centipawns for the side to move, with mate distances folded
//! into the top of the range so that plain integer comparison orders them.

use core::fmt;

/// The deepest ply a search reaches; sizes the per-ply stacks.
pub(crate) const MAX_PLY: usize = 128;
/// Larger than any score: the initial window.
pub(crate) const INFINITE: i32 = 32_000;
/// A mate on the board right now (the side to move is mated at ply 0).
pub(crate) const MATE: i32 = 31_000;
/// Scores beyond this are mates (or forced wins by the variant's rules).
pub(crate) const MATE_BOUND: i32 = MATE - MAX_PLY as i32;
/// Static evaluations are clamped inside this, so they never look like mates.
pub(crate) const EVAL_LIMIT: i32 = MATE_BOUND - 1;

/// The side to move has lost, `ply` plies from the root.
#[inline]
pub(crate) const fn mated_in(ply: usize) -> i32 {
    -MATE + ply as i32
}

/// The side to move wins, `ply` plies from the root.
#[inline]
pub(crate) const fn mate_in(ply: usize) -> i32 {
    MATE - ply as i32
}

/// Mate scores are stored in the transposition table relative to the node
/// (distance from it), not to the root, so an entry stays right when it is
/// reached again at another ply.
#[inline]
pub(crate) const fn to_tt(score: i32, ply: usize) -> i32 {
    if score >= MATE_BOUND {
        score + ply as i32
    } else if score <= -MATE_BOUND {
        score - ply as i32
    } else {
        score
    }
}

/// The reverse of [`to_tt`].
#[inline]
pub(crate) const fn from_tt(score: i32, ply: usize) -> i32 {
    if score >= MATE_BOUND {
        score - ply as i32
    } else if score <= -MATE_BOUND {
        score + ply as i32
    } else {
        score
    }
}

/// A search score as UCI reports it: centipawns, or moves to mate.
///
/// Kept apart from the internal integer so callers never have to decode
/// mate distances themselves.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Score {
    /// Centipawns for the side to move (positive: better for it).
    Cp(i32),
    /// Mate in this many moves (positive: the side to move mates; negative:
    /// it is mated). `Mate(0)` does not occur: a mated root has no move.
    Mate(i32),
}

impl Score {
    /// Decodes an internal score.
    #[must_use]
    pub(crate) const fn from_internal(v: i32) -> Self {
        if v >= MATE_BOUND {
            Self::Mate((MATE - v + 1) / 2)
        } else if v <= -MATE_BOUND {
            Self::Mate(-(MATE + v) / 2)
        } else {
            Self::Cp(v)
        }
    }

    /// A single number that orders scores (mates far beyond any
    /// centipawn value), for callers that compare or sort.
    #[must_use]
    pub const fn ordering_value(self) -> i32 {
        match self {
            Self::Cp(cp) => cp,
            Self::Mate(n) if n > 0 => MATE - 2 * n + 1,
            Self::Mate(n) => -MATE - 2 * n,
        }
    }
}

impl fmt::Display for Score {
    /// The UCI form: `cp 35`, `mate 3`, `mate -2`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Cp(cp) => write!(f, "cp {cp}"),
            Self::Mate(n) => write!(f, "mate {n}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mate_scores_decode_to_moves() {
        // Mate delivered by our move at ply 1: mate in 1.
        assert_eq!(Score::from_internal(mate_in(1)), Score::Mate(1));
        assert_eq!(Score::from_internal(mate_in(3)), Score::Mate(2));
        // We are mated after our move and theirs: mated in 1.
        assert_eq!(Score::from_internal(mated_in(2)), Score::Mate(-1));
        assert_eq!(Score::from_internal(mated_in(4)), Score::Mate(-2));
        assert_eq!(Score::from_internal(150), Score::Cp(150));
        assert_eq!(Score::Mate(2).to_string(), "mate 2");
    }

    #[test]
    fn ordering_value_agrees_with_internal_order() {
        let internal = [mated_in(2), -500, 0, 40, mate_in(5), mate_in(1)];
        let ordered: Vec<i32> = internal
            .iter()
            .map(|&v| Score::from_internal(v).ordering_value())
            .collect();
        assert!(ordered.windows(2).all(|w| w[0] < w[1]), "{ordered:?}");
    }

    #[test]
    fn tt_adjustment_round_trips() {
        for ply in [0, 3, 17] {
            for v in [mate_in(9), mated_in(12), 0, 321, -77] {
                assert_eq!(from_tt(to_tt(v, ply), ply), v);
            }
        }
        // A mate found 4 plies below a node, stored at ply 6 and read back
        // at ply 2, is still 4 plies below that node.
        assert_eq!(from_tt(to_tt(mate_in(10), 6), 2), mate_in(6));
    }
}
