//! The search's memory of which quiet moves refuted what: a butterfly-like
//! history per side (`(piece, target)` slot), and two continuation
//! histories keyed by the move played one ply before (the opponent's
//! reply, a "counter-move" history) and two plies before (our own previous
//! move, a "follow-up" history). The plain history says "this move is often
//! good"; the continuation ones say "this move is good *after that one*",
//! which orders quiet moves far better in positions where the plain table
//! has been filled by other branches.

use crate::eval::HISTORY_SLOTS;

/// The slot of "no move": the root's predecessors, or a null move. Its row
/// of the continuation tables gathers statistics like any other.
pub(crate) const NO_SLOT: usize = HISTORY_SLOTS;

/// Bound of every entry: updates are damped as they approach it (the
/// "gravity" rule `h += b - h·|b| / MAX`), so entries stay within ±MAX.
const HISTORY_MAX: i32 = 16_384;

/// Rows of one continuation table: every slot plus [`NO_SLOT`].
const ROWS: usize = HISTORY_SLOTS + 1;

/// The histories of one [`crate::Searcher`].
#[derive(Debug)]
pub(crate) struct Histories {
    /// `[side][slot]`.
    main: Box<[[i32; HISTORY_SLOTS]; 2]>,
    /// `[plies back - 1][side][previous slot][slot]`, flattened: 8 MiB of
    /// `i16`, allocated zeroed (pages are only touched where used).
    cont: Vec<i16>,
}

/// The slots of the moves one and two plies before a node.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Prev {
    /// The opponent's move that led to the node.
    pub(crate) one: usize,
    /// Our own move before that.
    pub(crate) two: usize,
}

impl Histories {
    pub(crate) fn new() -> Self {
        Self {
            main: Box::new([[0; HISTORY_SLOTS]; 2]),
            cont: vec![0; 2 * 2 * ROWS * HISTORY_SLOTS],
        }
    }

    /// Forgets everything (a new game).
    pub(crate) fn clear(&mut self) {
        for h in self.main.iter_mut() {
            h.fill(0);
        }
        self.cont.fill(0);
    }

    /// Halves the plain history between searches, so the newest search
    /// weighs most. The continuation tables, whose entries are specific to
    /// a move pair, keep their values.
    pub(crate) fn age(&mut self) {
        for h in self.main.iter_mut() {
            for v in h.iter_mut() {
                *v /= 2;
            }
        }
    }

    #[inline]
    fn cont_index(back: usize, side: usize, prev: usize, slot: usize) -> usize {
        ((back * 2 + side) * ROWS + prev) * HISTORY_SLOTS + slot
    }

    /// The plain history of `slot` for `side`: what reduces a quiet move
    /// less or more (the continuation tables are too sparse at the low
    /// node counts of most searches to steer reductions).
    #[inline]
    pub(crate) fn main(&self, side: usize, slot: usize) -> i32 {
        self.main[side][slot]
    }

    /// The sum of the plain and both continuation histories: the ordering
    /// key of a quiet move.
    #[inline]
    pub(crate) fn quiet(&self, side: usize, prev: Prev, slot: usize) -> i32 {
        self.main[side][slot]
            + i32::from(self.cont[Self::cont_index(0, side, prev.one, slot)])
            + i32::from(self.cont[Self::cont_index(1, side, prev.two, slot)])
    }

    /// Rewards (positive `bonus`) or punishes a quiet move in all three
    /// tables.
    #[inline]
    pub(crate) fn update(&mut self, side: usize, prev: Prev, slot: usize, bonus: i32) {
        let h = &mut self.main[side][slot];
        *h += bonus - *h * bonus.abs() / HISTORY_MAX;
        for (back, p) in [(0, prev.one), (1, prev.two)] {
            let c = &mut self.cont[Self::cont_index(back, side, p, slot)];
            let v = i32::from(*c);
            // Within ±HISTORY_MAX by the gravity rule, so within i16.
            *c = (v + bonus - v * bonus.abs() / HISTORY_MAX) as i16;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn updates_stay_bounded_and_follow_the_previous_move() {
        let mut h = Histories::new();
        let after_a = Prev { one: 3, two: 5 };
        let after_b = Prev { one: 4, two: 5 };
        for _ in 0..10_000 {
            h.update(0, after_a, 7, 2_000);
            h.update(0, after_b, 7, -2_000);
        }
        // The continuation tables tell the two contexts apart; the plain
        // history, updated both ways, does not.
        assert!(h.quiet(0, after_a, 7) > h.quiet(0, after_b, 7) + 2 * HISTORY_MAX - 2_000);
        for prev in [after_a, after_b] {
            assert!(h.quiet(0, prev, 7).abs() <= 3 * HISTORY_MAX);
        }
        // Sides are separate.
        assert_eq!(h.quiet(1, after_a, 7), 0);
        h.age();
        h.clear();
        assert_eq!(h.quiet(0, after_a, 7), 0);
    }
}
