//! Move ordering: the transposition-table move, captures by their
//! exchange value, killers, then quiet moves by their history.

use super::*;

impl<G: Evaluate> Searcher<G> {
    /// Move-ordering score; larger is tried first.
    #[inline]
    pub(super) fn order_score(
        &self,
        pos: &G,
        mv: G::Move,
        tt_code: u16,
        ply: usize,
        us: Color2,
    ) -> i32 {
        if tt_code != 0 && G::move_code(mv) == tt_code {
            return SCORE_TT;
        }
        if pos.is_tactical(mv) {
            let gain = pos.gain(mv);
            let mut base = gain * 16 - pos.mover_value(mv) / 16;
            if self.on(knob::CAPT_HIST) {
                // A quarter: a pawn's worth of victim (1,600) outweighs
                // all but the most lopsided record.
                base += self.tables.capt(us.0, pos.history_slot(mv), gain) / 4;
            }
            return if pos.see_ge(mv, 0) {
                SCORE_GOOD_CAPTURE + base
            } else {
                SCORE_BAD_CAPTURE + base
            };
        }
        let f = &self.stack[ply];
        if f.killers[0] == Some(mv) {
            return SCORE_KILLER + 2;
        }
        if f.killers[1] == Some(mv) {
            return SCORE_KILLER + 1;
        }
        if self.on(knob::COUNTER)
            && ply >= 1
            && self.tables.counter(us.0, self.stack[ply - 1].slot) == G::move_code(mv)
        {
            return SCORE_KILLER;
        }
        self.quiet_stat(pos, mv, ply, us)
    }

    /// The slots of the opponent's last move, of ours before it and
    /// (with [`knob::CONT4`]) of ours before that, for the continuation
    /// histories at `ply`.
    #[inline]
    pub(super) fn prev_slots(&self, ply: usize) -> history::Prev {
        let back = |n: usize| {
            if ply >= n {
                self.stack[ply - n].slot
            } else {
                history::NO_SLOT
            }
        };
        [
            back(1),
            back(2),
            if self.on(knob::CONT4) {
                back(4)
            } else {
                history::NO_SLOT
            },
        ]
    }

    /// What the histories say of quiet `mv`: the plain history, plus the
    /// continuation histories where level 8 uses them.
    #[inline]
    pub(super) fn quiet_stat(&self, pos: &G, mv: G::Move, ply: usize, us: Color2) -> i32 {
        let slot = pos.history_slot(mv);
        let h = if self.on(knob::BUTTERFLY) {
            self.butterfly[us.0][usize::from(G::move_code(mv)) % BUTTERFLY_SLOTS]
        } else {
            self.history[us.0][slot]
        };
        if self.on(knob::CONT_HIST) {
            let prev = self.prev_slots(ply);
            let twice = if self.on(knob::CONT_W) {
                self.tables.cont1(us.0, prev[0], slot)
            } else {
                0
            };
            h + self.tables.cont(us.0, prev, slot) + twice
        } else {
            h
        }
    }

    /// The plain history of quiet `mv`: by piece and target, or by from
    /// and to square with [`knob::BUTTERFLY`].
    #[inline]
    pub(super) fn update_main_history(&mut self, us: Color2, pos: &G, mv: G::Move, bonus: i32) {
        if self.on(knob::BUTTERFLY) {
            let code = usize::from(G::move_code(mv)) % BUTTERFLY_SLOTS;
            add_bonus(&mut self.butterfly[us.0][code], bonus);
        } else {
            self.update_history(us, pos.history_slot(mv), bonus);
        }
    }

    #[inline]
    pub(super) fn update_history(&mut self, us: Color2, slot: usize, bonus: i32) {
        add_bonus(&mut self.history[us.0][slot], bonus);
    }

    /// Fills `scores` for `moves` and returns the count.
    #[inline]
    pub(super) fn score_moves(
        &self,
        pos: &G,
        moves: &[G::Move],
        scores: &mut Vec<i32>,
        tt_code: u16,
        ply: usize,
    ) {
        let us = Color2::of(pos);
        scores.clear();
        scores.extend(
            moves
                .iter()
                .map(|&m| self.order_score(pos, m, tt_code, ply, us)),
        );
    }

    /// Selection step: brings the best-scored remaining move to `i`.
    #[inline]
    pub(super) fn pick(moves: &mut [G::Move], scores: &mut [i32], i: usize) {
        let mut best = i;
        for j in i + 1..moves.len() {
            if scores[j] > scores[best] {
                best = j;
            }
        }
        moves.swap(i, best);
        scores.swap(i, best);
    }
}

/// A history bonus (or malus) with gravity: the entry moves towards
/// ±[`HISTORY_MAX`] and never passes it.
#[inline]
fn add_bonus(h: &mut i32, bonus: i32) {
    *h += bonus - *h * bonus.abs() / HISTORY_MAX;
}
