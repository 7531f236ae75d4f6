//! [`knob::STEP13`]: the reference's whole set of shallow-depth cuts in
//! the move loop, judged at the depth a move's reduction would leave it
//! (`lmr_depth`) rather than at the node's depth, at every depth, and at
//! principal-variation nodes too with [`knob::PV_PRUNE`].
//!
//! Session 29 took this part out of the reference and level 8 went from
//! 27% to 63% against it (docs/strength-session-29.md): it shrinks the
//! reference's tree six to eight times at depths 8–12, where level 8's own
//! cuts shrink it three times. This module tries the same cuts as one
//! bundle; level 8's own ones (late-move count to depth 7, futility and
//! exchange tests to depth 4, history pruning to depth 3) are then off.

use super::*;

/// A quiet move whose two continuation entries are both below this is
/// cut at `lmr_depth` < 5.
const CONT_PRUNE_BELOW: i32 = 0;
/// Futility's margin, `base + per_depth · lmr_depth`, in centipawns: the
/// reference's 174 + 157 a ply in its internal unit (208 a pawn).
const FUT_BASE: i32 = 84;
const FUT_PER_DEPTH: i32 = 75;
/// A quiet move whose continuation entries sum to this or more is never
/// cut by futility: the reference's 28,255 of its two-to-four entries,
/// rescaled to two entries of at most ±[`HISTORY_MAX`].
const FUT_HISTORY_KEEP: i32 = 9_000;
/// Captures and checks that lose more than this a ply of depth in the
/// exchange are cut: the reference's 218 in its exchange unit (126 a
/// pawn), in ours (100 a pawn).
const SEE_CAPTURE_PER_DEPTH: i32 = 173;

/// What every move of a node is judged against, computed once a node.
pub(super) struct Shallow {
    pub(super) depth: i32,
    pub(super) improving: bool,
    pub(super) in_check: bool,
    pub(super) static_eval: i32,
    /// The game would allow a null move here (`Evaluate::null_move`: no
    /// likely zugzwang, so in chess the side to move has a piece besides
    /// pawns and king), or the side is in check. The reference cuts
    /// nothing in pawn endings; a check has no null move to ask, and is
    /// let through, an approximation kept because the switch is not played.
    pub(super) pieces: bool,
}

/// One move as the cuts see it.
pub(super) struct Candidate<M> {
    pub(super) mv: M,
    /// 1 for the first move tried at the node, pruned ones counted.
    pub(super) number: usize,
    pub(super) tactical: bool,
    pub(super) gives_check: bool,
    pub(super) is_killer: bool,
}

impl<G: Evaluate> Searcher<G> {
    /// Whether the reference's shallow cuts skip `c` at this node, whose
    /// best score so far is `best` (nothing is cut before one move kept
    /// the side from being mated).
    pub(super) fn shallow_cut(
        &self,
        pos: &G,
        node: &Shallow,
        c: &Candidate<G::Move>,
        best: i32,
        alpha: i32,
        ply: usize,
    ) -> bool {
        if !node.pieces || best <= -MATE_BOUND {
            return false;
        }
        let depth = node.depth;
        let table = self.lmr_for(self.on(knob::LMR));
        let r =
            i32::from(table[depth.min(63) as usize][c.number.min(63)]) + i32::from(!node.improving);
        let lmr_depth = (depth - 1 - r).max(0);
        let us = Color2::of(pos);
        if c.tactical || c.gives_check {
            if !c.gives_check
                && lmr_depth < 1
                && self
                    .tables
                    .capt(us.0, pos.history_slot(c.mv), pos.gain(c.mv))
                    < 0
            {
                return true;
            }
            return !pos.see_ge(c.mv, -SEE_CAPTURE_PER_DEPTH * depth);
        }
        // Late quiet moves, killers excepted, as the reference's move
        // picker skips its quiet stage.
        let move_count_limit = (3 + depth * depth) / (2 - i32::from(node.improving));
        if !node.in_check && !c.is_killer && c.number as i32 >= move_count_limit {
            return true;
        }
        let prev = self.prev_slots(ply);
        let slot = pos.history_slot(c.mv);
        let cont0 = self.tables.cont1(us.0, prev[0], slot);
        let cont1 = self.tables.cont1_at(1, us.0, prev[1], slot);
        if lmr_depth < 5 && cont0 < CONT_PRUNE_BELOW && cont1 < CONT_PRUNE_BELOW {
            return true;
        }
        if lmr_depth < 7
            && !node.in_check
            && node.static_eval.abs() < MATE_BOUND
            && node.static_eval + FUT_BASE + FUT_PER_DEPTH * lmr_depth <= alpha
            && cont0 + cont1 < FUT_HISTORY_KEEP
        {
            return true;
        }
        let l = lmr_depth.min(18);
        // The reference's −(30 − l)·l² in its exchange unit, in ours.
        let see_margin = (30 - l) * lmr_depth * lmr_depth * 100 / 126;
        !pos.see_ge(c.mv, -see_margin)
    }
}
