//! Quiescence search: below the main search's horizon, captures (and
//! check evasions, and at level 8 in chess a first ply of quiet checks)
//! until the position is quiet enough for its static evaluation to stand.

use super::*;

impl<G: Evaluate> Searcher<G> {
    /// Quiescence: captures (and check evasions) until the position is
    /// quiet. Just over 100 lines, for `negamax`'s reason: its stand-pat,
    /// delta and exchange pruning share the node's values. Quiet checks
    /// in Xiangqi's first ply were tried and played worse (see
    /// docs/strength-xiangqi.md).
    pub(super) fn qsearch(
        &mut self,
        pos: &G,
        alpha: i32,
        beta: i32,
        ply: usize,
        in_check: bool,
    ) -> i32 {
        self.qsearch_with(pos, alpha, beta, ply, in_check, false)
    }

    /// [`Self::qsearch`], trying quiet checks too when `checks` is set
    /// ([`knob::QS_CHECKS`], its first ply only).
    pub(super) fn qsearch_with(
        &mut self,
        pos: &G,
        mut alpha: i32,
        beta: i32,
        ply: usize,
        in_check: bool,
        checks: bool,
    ) -> i32 {
        self.stack[ply].pv.clear();
        if self.stopped {
            return 0;
        }
        if pos.lost() {
            return mated_in(ply);
        }
        self.count_node(ply);
        if pos.dead_draw() {
            return 0;
        }
        if ply >= MAX_PLY - 2 {
            return if in_check { 0 } else { self.static_eval(pos) };
        }
        let pv_node = beta - alpha > 1;
        let key = pos.zobrist();
        let hit = self.tt.probe(key);
        if let Some(h) = hit
            && !pv_node
            && let Some(s) = h.cutoff(ply, alpha, beta)
        {
            return s;
        }
        let (raw_stand, stand, _) = self.node_evals(pos, hit, in_check, ply);
        let mut best = stand;
        if !in_check {
            if stand >= beta {
                return stand;
            }
            alpha = alpha.max(stand);
        }
        let mut moves = core::mem::take(&mut self.stack[ply].moves);
        let mut scores = core::mem::take(&mut self.stack[ply].scores);
        pos.legal_moves_into(&mut moves);
        if moves.is_empty() {
            self.stack[ply].moves = moves;
            self.stack[ply].scores = scores;
            return if pos.no_moves_loses() {
                mated_in(ply)
            } else {
                0
            };
        }
        let tt_code = hit.map_or(0, |h| h.mv);
        if !in_check {
            moves.retain(|&m| pos.is_tactical(m) || (checks && pos.may_check(m)));
        }
        self.score_moves(pos, &moves, &mut scores, tt_code, ply);
        let mut best_move = None;
        for i in 0..moves.len() {
            Self::pick(&mut moves, &mut scores, i);
            let mv = moves[i];
            let quiet = !in_check && !pos.is_tactical(mv);
            if !in_check {
                if !quiet && stand + pos.gain(mv) + self.params.get(params::QS_DELTA) <= alpha {
                    continue;
                }
                if !pos.see_ge(mv, 0) {
                    continue;
                }
            }
            let mut child = pos.clone();
            child.play(mv);
            let gives_check = child.is_check();
            if quiet && !gives_check {
                continue;
            }
            if self.on(knob::CORR2) {
                // The child's correction reads the move that led to it.
                self.stack[ply].slot = pos.history_slot(mv) as u16;
            }
            let score = -self.qsearch(&child, -beta, -alpha, ply + 1, gives_check);
            if self.stopped {
                break;
            }
            if score > best {
                best = score;
                if score > alpha {
                    best_move = Some(mv);
                    if score >= beta {
                        break;
                    }
                    alpha = score;
                }
            }
        }
        self.stack[ply].moves = moves;
        self.stack[ply].scores = scores;
        if self.stopped {
            return 0;
        }
        let bound = if best >= beta {
            Bound::Lower
        } else {
            Bound::Upper
        };
        self.tt.store(
            key,
            best_move.map_or(0, G::move_code),
            to_tt(best, ply),
            if in_check { 0 } else { raw_stand },
            0,
            bound,
            false,
        );
        best
    }
}
