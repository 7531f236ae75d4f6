//! ProbCut (level 8's [`knob::PROBCUT`]): at a deep enough non-PV node, a
//! capture that already beats beta by a margin in a search four plies
//! shallower almost surely beats beta at full depth, so the node is cut
//! without its full search. Horde gives it many chances: Black's pieces
//! take White's pawns and White's pawns fork and take pieces, and most of
//! those exchanges are decided long before the full depth.

use super::*;

/// The shallow search's depth below the node's.
const PROBCUT_REDUCTION: i32 = 4;
/// The node's least depth for a try.
pub(super) const PROBCUT_MIN_DEPTH: i32 = 5;

impl<G: Evaluate> Searcher<G> {
    /// The node's cut-off score when a capture clears `beta` by the margin
    /// (first in quiescence, then at reduced depth); `None` otherwise.
    /// The caller has checked: not PV, not in check, no excluded move,
    /// depth ≥ [`PROBCUT_MIN_DEPTH`], `beta` not a mate score.
    pub(super) fn probcut(
        &mut self,
        pos: &G,
        depth: i32,
        beta: i32,
        ply: usize,
        cut_node: bool,
        static_eval: i32,
    ) -> Option<i32> {
        let rbeta = (beta + self.params.get(params::PROBCUT_MARGIN)).min(MATE_BOUND - 1);
        let mut moves = core::mem::take(&mut self.stack[ply].moves);
        pos.legal_moves_into(&mut moves);
        // Only captures that win at least the margin over the static
        // evaluation by exchange alone.
        moves.retain(|&m| pos.is_tactical(m) && pos.see_ge(m, rbeta - static_eval));
        let mut found = None;
        for &mv in &moves {
            let mut child = pos.clone();
            child.play(mv);
            let gives_check = child.is_check();
            self.stack[ply].slot = pos.history_slot(mv) as u16;
            self.path.push(PathEntry {
                key: child.zobrist(),
                check: gives_check,
                null: false,
            });
            let mut s = -self.qsearch(&child, -rbeta, -rbeta + 1, ply + 1, gives_check);
            if s >= rbeta && !self.stopped {
                s = -self.negamax(
                    &child,
                    depth - 1 - PROBCUT_REDUCTION,
                    -rbeta,
                    -rbeta + 1,
                    ply + 1,
                    !cut_node,
                    gives_check,
                );
            }
            self.path.pop();
            if self.stopped {
                break;
            }
            if s >= rbeta {
                found = Some(s);
                break;
            }
        }
        self.stack[ply].moves = moves;
        if self.stopped { None } else { found }
    }
}
