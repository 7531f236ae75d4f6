//! The tree below the root: the alpha-beta node and the
//! game rules (repetition, fifty moves, Xiangqi's perpetual check) seen
//! from inside the tree.

use super::*;

impl<G: Evaluate> Searcher<G> {
    /// Draw or rule result at a node inside the tree: repetition (with
    /// Xiangqi's perpetual-check verdict), the fifty-move rule, dead
    /// positions. `None` when the game goes on.
    pub(super) fn rule_score(&mut self, pos: &G, ply: usize) -> Option<i32> {
        let halfmoves = pos.halfmoves() as usize;
        if halfmoves >= 100 {
            return Some(0);
        }
        if pos.dead_draw() {
            return Some(0);
        }
        let n = self.path.len();
        let cur = n - 1;
        let key = self.path[cur].key;
        let reach = halfmoves.min(cur);
        // Positions with the same side to move lie an even distance back;
        // a null move anywhere in between breaks the cycle.
        let mut back = 1;
        while back <= reach {
            let e = &self.path[cur - back];
            if self.path[cur - back + 1].null || e.null {
                return None;
            }
            if back % 2 == 0 && back >= 4 && e.key == key {
                if !G::PERPETUAL_CHECK_LOSES {
                    return Some(0);
                }
                return Some(self.perpetual_verdict(pos, cur - back, cur, ply));
            }
            back += 1;
        }
        None
    }

    /// Xiangqi: in the cycle `start..=end` (same position at both ends,
    /// the side to move S at both), the side that checked with every move
    /// loses; both: a draw. When neither did, the side that chased one
    /// piece with every move loses, both or neither: a draw (the Asian
    /// rules, as the arbiter applies them; see [`chase`]).
    pub(super) fn perpetual_verdict(
        &mut self,
        pos: &G,
        start: usize,
        end: usize,
        ply: usize,
    ) -> i32 {
        // Positions start+1, start+3, … follow S's moves (the opponent is
        // to move there); start+2, …, end follow the opponent's.
        let mut s_all = true;
        let mut o_all = true;
        for i in start + 1..=end {
            let checked = self.path[i].check;
            if (i - start) % 2 == 1 {
                s_all &= checked;
            } else {
                o_all &= checked;
            }
        }
        if !s_all && !o_all {
            (s_all, o_all) = self.chase_sides(pos, start, end);
        }
        match (s_all, o_all) {
            (true, false) => mated_in(ply),
            (false, true) => mate_in(ply),
            _ => 0,
        }
    }

    /// Whether S (to move at `end`) and the opponent each chased one piece
    /// with every move of the cycle `start..=end`, remembered per cycle
    /// in a small table: the same cycles come back all over the tree.
    fn chase_sides(&mut self, pos: &G, start: usize, end: usize) -> (bool, bool) {
        let keys: Vec<u64> = self.path[start + 1..=end].iter().map(|e| e.key).collect();
        let hash = chase::cycle_hash(&keys) | 1;
        let slot = hash as usize & (chase::CHASE_CACHE_SIZE - 1);
        let code = match self.chase_cache[slot] {
            (h, code) if h == hash => code,
            _ => {
                let code = pos
                    .cycle_chasers(&keys)
                    .map_or(0, |c| u8::from(c[0]) | u8::from(c[1]) << 1);
                self.chase_cache[slot] = (hash, code);
                code
            }
        };
        let s = pos.turn() as usize;
        (code >> s & 1 != 0, code >> (1 - s) & 1 != 0)
    }

    /// One alpha-beta node. Over 100 lines on purpose: its stages (table
    /// probe, static pruning, null move, the move loop with its
    /// reductions, the table store) share a dozen values computed once per
    /// node (static eval, table move, `improving`, check, bounds), and
    /// splitting them into functions would pass most of them along or
    /// recompute them in the hottest code of the engine. Search engines
    /// keep this function whole for the same reason.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn negamax(
        &mut self,
        pos: &G,
        mut depth: i32,
        mut alpha: i32,
        mut beta: i32,
        ply: usize,
        cut_node: bool,
        in_check: bool,
    ) -> i32 {
        let pv_node = beta - alpha > 1;
        self.stack[ply].pv.clear();
        if self.stopped {
            return 0;
        }
        if pos.lost() {
            return mated_in(ply);
        }
        if let Some(s) = self.rule_score(pos, ply) {
            return s;
        }
        alpha = alpha.max(mated_in(ply));
        beta = beta.min(mate_in(ply + 1));
        if alpha >= beta {
            return alpha;
        }
        if depth <= 0 {
            let checks = self.on(knob::QS_CHECKS);
            return self.qsearch_with(pos, alpha, beta, ply, in_check, checks);
        }
        self.count_node(ply);
        if ply >= MAX_PLY - 2 {
            return if in_check { 0 } else { self.static_eval(pos) };
        }
        self.stack[ply + 1].double_exts = self.stack[ply].double_exts;

        let key = pos.zobrist();
        // Set while a singular-extension test searches this node without
        // its table move: then the table's verdict on the node is not
        // this search's, so it neither cuts off on it nor overwrites it.
        let excluded = self.stack[ply].excluded;
        let hit = self.tt.probe(key);
        let tt_code = hit.map_or(0, |h| h.mv);
        if let Some(h) = hit
            && !pv_node
            && excluded.is_none()
            && h.depth >= depth
            && let Some(s) = h.cutoff(ply, alpha, beta)
        {
            if self.on(knob::TT_HIST) && h.mv != 0 {
                self.teach_table_move(pos, h.mv, depth, ply, s >= beta);
            }
            return s;
        }

        // The table keeps the evaluation as the game computes it; the
        // correction history's learnt offset is added afresh each time.
        let (raw_eval, static_eval, corr_keys) = self.node_evals(pos, hit, in_check, ply);
        let eval = match hit {
            // A stored bound on the true value is a better guess.
            Some(h) if !in_check && h.score.abs() < MATE_BOUND => match h.bound {
                Bound::Lower if h.score > static_eval => h.score,
                Bound::Upper if h.score < static_eval => h.score,
                Bound::Exact => h.score,
                _ => static_eval,
            },
            _ => static_eval,
        };
        self.stack[ply].eval = eval;
        let tt_pv = self.on(knob::TT_PV) && (pv_node || hit.is_some_and(|h| h.pv));
        let improving = !in_check && ply >= 2 && eval > self.stack[ply - 2].eval;

        let static_cuts = ply > 1 || !self.root_sacrifice;
        if !pv_node && !in_check && excluded.is_none() && static_cuts {
            // Reverse futility: far above beta at low depth.
            // The static evaluation, not a stored bound: a bound from a
            // shallow search that missed a quiet mate would keep this node
            // from ever being searched.
            let rfp_depth = if self.on(knob::RFP) {
                self.params.get(params::RFP_DEPTH)
            } else {
                6
            };
            let rfp_margin = if self.on(knob::RFP_TIGHT) {
                RFP_MARGIN_TOP
            } else if self.on(knob::RFP_WIDE) {
                RFP_MARGIN_WIDE
            } else {
                self.params.get(params::RFP_MARGIN)
            };
            if depth <= rfp_depth
                && static_eval.abs() < MATE_BOUND
                && static_eval - rfp_margin * (depth - i32::from(improving)) >= beta
            {
                return (static_eval + beta) / 2;
            }
            // Razoring (level 8): far below alpha near the leaves, a
            // quiescence search that stays below decides.
            if self.on(knob::RAZOR)
                && depth <= 3
                && static_eval.abs() < MATE_BOUND
                && static_eval + RAZOR_BASE + RAZOR_PER_DEPTH * depth <= alpha
            {
                let q = self.qsearch(pos, alpha, alpha + 1, ply, false);
                if self.stopped {
                    return 0;
                }
                if q <= alpha {
                    return q;
                }
            }
            // Null move, only where the game makes passing a fair test.
            if depth >= NULL_MIN_DEPTH
                && eval >= beta
                && beta > -MATE_BOUND
                && !self.stack[ply - 1].null
                && let Some(child) = pos.null_move()
            {
                let r = if self.on(knob::NULL_DEEP) {
                    4 + depth / 3 + ((eval - beta) / 200).min(3)
                } else if self.on(knob::NULL_LESS) {
                    3 + depth / 6 + ((eval - beta) / 200).min(3)
                } else {
                    let p = &self.params;
                    p.get(params::NULL_BASE)
                        + depth / p.get(params::NULL_DIV)
                        + ((eval - beta) / p.get(params::NULL_EVAL)).min(3)
                };
                self.stack[ply].null = true;
                self.stack[ply].slot = history::NO_SLOT;
                self.path.push(PathEntry {
                    key: child.zobrist(),
                    check: false,
                    null: true,
                });
                let s = -self.negamax(
                    &child,
                    depth - 1 - r,
                    -beta,
                    -beta + 1,
                    ply + 1,
                    !cut_node,
                    false,
                );
                self.path.pop();
                self.stack[ply].null = false;
                if self.stopped {
                    return 0;
                }
                if s >= beta {
                    return if s >= MATE_BOUND { beta } else { s };
                }
            }
        }

        if self.on(knob::PROBCUT)
            && static_cuts
            && !pv_node
            && !in_check
            && excluded.is_none()
            && depth >= probcut::PROBCUT_MIN_DEPTH
            && beta.abs() < MATE_BOUND
            && let Some(s) = self.probcut(pos, depth, beta, ply, cut_node, static_eval)
        {
            return s;
        }

        // Internal iterative reduction: no stored move, search less.
        if tt_code == 0 && depth >= 4 && (pv_node || cut_node) {
            depth -= 1;
        }

        let mut moves = core::mem::take(&mut self.stack[ply].moves);
        let mut scores = core::mem::take(&mut self.stack[ply].scores);
        let mut quiets = core::mem::take(&mut self.stack[ply].quiets);
        let mut captures = core::mem::take(&mut self.stack[ply].captures);
        quiets.clear();
        captures.clear();
        pos.legal_moves_into(&mut moves);
        if moves.is_empty() {
            self.stack[ply].moves = moves;
            self.stack[ply].scores = scores;
            self.stack[ply].quiets = quiets;
            self.stack[ply].captures = captures;
            return if pos.no_moves_loses() {
                mated_in(ply)
            } else {
                0
            };
        }
        self.score_moves(pos, &moves, &mut scores, tt_code, ply);
        let us = Color2::of(pos);

        let mut best = -INFINITE;
        let mut best_move: Option<G::Move> = None;
        let mut searched = 0usize;
        let lmp_limit =
            (self.params.get(params::LMP_BASE) + depth * depth) / (2 - i32::from(improving));
        let lmp_depth = if self.on(knob::LMP) { 7 } else { 5 };
        let hist_prune = self.on(knob::HIST_PRUNE);
        let check_ext_safe = self.on(knob::CHECK_EXT);
        let top_lmr = self.on(knob::LMR);
        let lmr_depth_prune = self.on(knob::LMR_DEPTH_PRUNE);
        let adv_reduce = self.on(knob::ADV_REDUCE);
        let bad_capt = self.on(knob::BAD_CAPT);
        let no_check_ext = self.on(knob::NO_CHECK_EXT);
        let pv_prune = self.on(knob::PV_PRUNE);
        let check_ext_deep = self.on(knob::CHECK_EXT_DEEP);
        let fut_depth = if self.on(knob::FUT_DEEP) { 6 } else { 4 };
        let hist_div = if self.on(knob::HIST_LMR) {
            4000
        } else {
            self.params.get(params::HIST_DIV)
        };
        let hist_prune_step = self.params.get(params::HIST_PRUNE);
        // The continuation histories add two terms to the plain one: the
        // sum spreads wider, so reductions and pruning read it scaled.
        let cont = self.on(knob::CONT_HIST);
        let capt_hist = self.on(knob::CAPT_HIST);
        let (hist_div, hist_prune_step) = if cont {
            (hist_div * 3 / 2, hist_prune_step * 3 / 2)
        } else {
            (hist_div, hist_prune_step)
        };
        let singular = match hit {
            Some(h)
                if self.on(knob::SINGULAR)
                    && depth >= SINGULAR_MIN_DEPTH
                    && excluded.is_none()
                    && h.mv != 0
                    && h.bound != Bound::Upper
                    && h.depth >= depth - 3
                    && (ply as i32) < 2 * self.root_depth =>
            {
                let s = from_tt(h.score, ply);
                (s.abs() < MATE_BOUND).then_some(s)
            }
            _ => None,
        };
        let ext2 = self.on(knob::SING_EXT2);
        let cut_lmr2 = self.on(knob::CUT_LMR2);
        let lmr_hist = self.on(knob::LMR_HIST) && cont;
        let stat_carry = self.on(knob::STAT_CARRY);
        self.stack[ply].stat = 0;
        let lmr_deeper = self.on(knob::LMR_DEEPER);
        let lmr_ext = self.on(knob::LMR_EXT);
        let capt_lmr = self.on(knob::CAPT_LMR);
        let step13 = (self.on(knob::STEP13) && (!pv_node || pv_prune)).then(|| shallow::Shallow {
            depth,
            improving,
            in_check,
            static_eval,
            pieces: in_check || pos.null_move().is_some(),
        });
        let mut number = 0usize;
        // `PRUNED_NO_MALUS`: pruned quiet moves are counted, not listed
        // for the cut-off's malus.
        let no_malus = self.on(knob::PRUNED_NO_MALUS);
        let mut pruned = 0usize;
        let prune_quiet = |quiets: &mut Vec<G::Move>, pruned: &mut usize, mv: G::Move| {
            if no_malus {
                *pruned += 1;
            } else {
                quiets.push(mv);
            }
        };
        let tt_tactical = top_lmr
            && tt_code != 0
            && moves
                .iter()
                .any(|&m| G::move_code(m) == tt_code && pos.is_tactical(m));
        for i in 0..moves.len() {
            Self::pick(&mut moves, &mut scores, i);
            let mv = moves[i];
            if excluded == Some(mv) {
                continue;
            }
            let order = scores[i];
            let tactical = pos.is_tactical(mv);
            let advance = !tactical && pos.is_pawn_advance(mv);
            let is_killer = (SCORE_KILLER..SCORE_GOOD_CAPTURE).contains(&order);

            // Shallow pruning once one move has kept us from being mated.
            let may_prune = best > -MATE_BOUND && (!pv_node || pv_prune) && !advance;
            // Most quiet moves near the leaves are pruned below, and only
            // whether they check matters there: a quiet move that cannot
            // check (`may_check`, a quick over-estimate) is played only
            // once it survives the pruning. The same moves are pruned as
            // when every move was played first (session 28).
            let make_child = || {
                let mut child = pos.clone();
                child.play(mv);
                child
            };
            let played = (tactical || pos.may_check(mv)).then(make_child);
            let gives_check = played.as_ref().is_some_and(G::is_check);
            number += 1;
            if let Some(node) = &step13 {
                let c = shallow::Candidate {
                    mv,
                    number,
                    tactical,
                    gives_check,
                    is_killer,
                };
                if self.shallow_cut(pos, node, &c, best, alpha, ply) {
                    continue;
                }
            } else if may_prune
                && tactical
                && !gives_check
                && depth <= 5
                && order < SCORE_GOOD_CAPTURE
                && !pos.see_ge(mv, -self.params.get(params::SEE_CAPTURE) * depth)
            {
                continue;
            }
            // Quiet moves that cannot raise the score enough, or that hang
            // the piece, are skipped; checks never are (a quiet check may
            // mate).
            let may_prune = may_prune && step13.is_none();
            if may_prune
                && !tactical
                && !in_check
                && !gives_check
                && depth <= lmp_depth
                && (quiets.len() + pruned) as i32 >= lmp_limit
            {
                prune_quiet(&mut quiets, &mut pruned, mv);
                continue;
            }
            // Level 8 (`LMR_DEPTH_PRUNE`): judged at the depth the move's
            // reduction would leave it.
            let prune_depth = if lmr_depth_prune {
                (depth - i32::from(self.lmr_for(top_lmr)[depth.min(63) as usize][searched.min(63)]))
                    .max(1)
            } else {
                depth
            };
            if may_prune && !tactical && !in_check && !gives_check && prune_depth <= fut_depth {
                if !is_killer
                    && static_eval
                        + self.params.get(params::FUT_BASE)
                        + self.params.get(params::FUT_DEPTH) * prune_depth
                        <= alpha
                {
                    prune_quiet(&mut quiets, &mut pruned, mv);
                    continue;
                }
                if prune_depth <= 4
                    && !pos.see_ge(mv, -self.params.get(params::SEE_QUIET) * prune_depth)
                {
                    prune_quiet(&mut quiets, &mut pruned, mv);
                    continue;
                }
            }
            // Level 8: quiet moves that kept failing elsewhere, near the
            // leaves.
            if hist_prune
                && may_prune
                && !tactical
                && !in_check
                && !gives_check
                && !is_killer
                && depth <= 3
                && order < -hist_prune_step * depth
            {
                prune_quiet(&mut quiets, &mut pruned, mv);
                continue;
            }
            // Level 8 extends only checks that do not lose material.
            let extend = gives_check
                && (ply as i32) < 2 * self.root_depth
                && if check_ext_deep {
                    depth > 6 && static_eval.abs() > 100
                } else {
                    (!check_ext_safe || pv_node || pos.see_ge(mv, 0)) && (!no_check_ext || pv_node)
                };
            // Singular extension: the table move, when every other move
            // falls well short of its stored bound, is the only move and
            // gets a ply more; when even the others beat beta, the node
            // cuts off without it (multi-cut).
            let mut singular_ext = 0;
            if let Some(tt_score) = singular
                && G::move_code(mv) == tt_code
            {
                let sbeta = tt_score - self.params.get(params::SING_MARGIN) * depth;
                self.stack[ply].excluded = Some(mv);
                let s = self.negamax(
                    pos,
                    (depth - 1) / 2,
                    sbeta - 1,
                    sbeta,
                    ply,
                    cut_node,
                    in_check,
                );
                self.stack[ply].excluded = None;
                if self.stopped {
                    break;
                }
                if s < sbeta {
                    singular_ext = if ext2
                        && !pv_node
                        && s < sbeta - DOUBLE_EXT_MARGIN
                        && self.stack[ply].double_exts < DOUBLE_EXT_MAX
                    {
                        2
                    } else {
                        1
                    };
                } else if sbeta >= beta {
                    self.stack[ply].moves = moves;
                    self.stack[ply].scores = scores;
                    self.stack[ply].quiets = quiets;
                    self.stack[ply].captures = captures;
                    return sbeta;
                } else if ext2 && tt_score >= beta {
                    singular_ext = -1;
                }
            }
            let ext = if extend {
                singular_ext.max(1)
            } else {
                singular_ext
            };
            let child = played.unwrap_or_else(make_child);
            self.stack[ply + 1].double_exts = self.stack[ply].double_exts + u8::from(ext == 2);
            let new_depth = depth - 1 + ext;
            self.stack[ply].slot = pos.history_slot(mv) as u16;
            self.stack[ply].quiet = !tactical;
            self.path.push(PathEntry {
                key: child.zobrist(),
                check: gives_check,
                null: false,
            });

            let mut score;
            if searched == 0 {
                score = -self.negamax(
                    &child,
                    new_depth,
                    -beta,
                    -alpha,
                    ply + 1,
                    !pv_node && !cut_node,
                    gives_check,
                );
            } else {
                let mut r = 0;
                let table = self.lmr_for(top_lmr);
                if depth >= 3
                    && searched > usize::from(pv_node)
                    && !tactical
                    && (!advance || adv_reduce)
                {
                    r = i32::from(table[depth.min(63) as usize][searched.min(63)]);
                    r -= i32::from(advance);
                    r += i32::from(tt_tactical);
                    r -= i32::from(pv_node);
                    r -= i32::from(tt_pv && !pv_node);
                    r += i32::from(!improving);
                    r += i32::from(cut_node) * if cut_lmr2 { 2 } else { 1 };
                    r -= i32::from(is_killer);
                    r -= i32::from(gives_check || in_check);
                    let stat = self.quiet_stat(pos, mv, ply, us);
                    r -= stat / hist_div;
                    if stat_carry && ply >= 1 {
                        let theirs = self.stack[ply - 1].stat;
                        r +=
                            i32::from(theirs >= 0 && stat < 0) - i32::from(stat >= 0 && theirs < 0);
                        self.stack[ply].stat = stat;
                    }
                    let lowest = -i32::from(lmr_ext && r <= -2 && searched <= 5);
                    r = r.clamp(lowest, (new_depth - 1).max(0));
                } else if bad_capt
                    && depth >= 3
                    && tactical
                    && !gives_check
                    && !in_check
                    && order < SCORE_BAD_CAPTURE / 2
                {
                    // Level 8: captures that lose material, late in the
                    // list, are reduced like quiet moves (less).
                    r = i32::from(table[depth.min(63) as usize][searched.min(63)]) / 2;
                    r = r.clamp(0, (new_depth - 1).max(0));
                } else if capt_lmr
                    && depth >= 3
                    && tactical
                    && !gives_check
                    && !in_check
                    && searched > 1 + usize::from(pv_node)
                    && G::move_code(mv) != tt_code
                {
                    // `CAPT_LMR`: late captures that keep material.
                    r = (i32::from(table[depth.min(63) as usize][searched.min(63)]) + 1) / 2;
                    let record = self.tables.capt(us.0, pos.history_slot(mv), pos.gain(mv));
                    r -= i32::from(record > 4_000);
                    r = r.clamp(0, (new_depth - 1).max(0));
                }
                score = -self.negamax(
                    &child,
                    new_depth - r,
                    -alpha - 1,
                    -alpha,
                    ply + 1,
                    true,
                    gives_check,
                );
                // With `LMR_DEEPER` the re-search depth follows by how
                // much the reduced search beat the best score so far.
                let again = if lmr_deeper && r > 0 {
                    new_depth + i32::from(score > best + 50 + 2 * new_depth)
                        - i32::from(score < best + 8)
                } else {
                    new_depth
                };
                if score > alpha && r > 0 && again > new_depth - r {
                    score = -self.negamax(
                        &child,
                        again,
                        -alpha - 1,
                        -alpha,
                        ply + 1,
                        !cut_node,
                        gives_check,
                    );
                    if lmr_hist && !tactical && !self.stopped {
                        let b = self.bonus(new_depth);
                        let prev = self.prev_slots(ply);
                        let slot = pos.history_slot(mv);
                        let b = if score > alpha { b } else { -b };
                        self.tables.update_cont(us.0, prev, slot, b);
                    }
                }
                if score > alpha && score < beta {
                    score = -self.negamax(
                        &child,
                        new_depth,
                        -beta,
                        -alpha,
                        ply + 1,
                        false,
                        gives_check,
                    );
                }
            }
            self.path.pop();
            self.stack[ply].stat = 0;
            searched += 1;
            if self.stopped {
                break;
            }
            if score > best {
                best = score;
                if score > alpha {
                    best_move = Some(mv);
                    if pv_node {
                        let (head, tail) = self.stack.split_at_mut(ply + 1);
                        let pv = &mut head[ply].pv;
                        pv.clear();
                        pv.push(mv);
                        pv.extend_from_slice(&tail[0].pv);
                    }
                    if score >= beta {
                        let bonus = self.bonus(depth);
                        if !tactical {
                            let f = &mut self.stack[ply];
                            if f.killers[0] != Some(mv) {
                                f.killers[1] = f.killers[0];
                                f.killers[0] = Some(mv);
                            }
                            self.update_main_history(us, pos, mv, bonus);
                            if self.on(knob::COUNTER) && ply >= 1 {
                                let prev = self.stack[ply - 1].slot;
                                self.tables.set_counter(us.0, prev, G::move_code(mv));
                            }
                            for &q in &quiets {
                                self.update_main_history(us, pos, q, -bonus);
                            }
                            if cont {
                                let prev = self.prev_slots(ply);
                                let t = &mut self.tables;
                                t.update_cont(us.0, prev, pos.history_slot(mv), bonus);
                                for &q in &quiets {
                                    t.update_cont(us.0, prev, pos.history_slot(q), -bonus);
                                }
                            }
                        } else if capt_hist {
                            let slot = pos.history_slot(mv);
                            self.tables.update_capt(us.0, slot, pos.gain(mv), bonus);
                        }
                        if capt_hist {
                            for &c in &captures {
                                let slot = pos.history_slot(c);
                                self.tables.update_capt(us.0, slot, pos.gain(c), -bonus);
                            }
                        }
                        break;
                    }
                    alpha = score;
                }
            }
            if !tactical {
                quiets.push(mv);
            } else if capt_hist {
                captures.push(mv);
            }
        }
        self.stack[ply].moves = moves;
        self.stack[ply].scores = scores;
        self.stack[ply].quiets = quiets;
        self.stack[ply].captures = captures;
        if self.stopped {
            return 0;
        }
        if searched == 0 {
            // Everything was pruned: not possible before one move was
            // searched, so this cannot happen; stay safe anyway.
            return alpha;
        }
        if excluded.is_some() {
            return best;
        }
        let bound = if best >= beta {
            Bound::Lower
        } else if pv_node && best_move.is_some() {
            Bound::Exact
        } else {
            Bound::Upper
        };
        if bound == Bound::Upper && ply >= 1 && self.on(knob::PRIOR_BONUS) {
            self.credit_prior_move(ply, depth, us);
        }
        // The correction history learns from quiet outcomes whose bound
        // says on which side of the static evaluation the truth lies.
        if self.on(knob::CORR_HIST)
            && !in_check
            && best.abs() < MATE_BOUND
            && best_move.is_none_or(|m| !pos.is_tactical(m))
            && !(bound == Bound::Lower && best <= static_eval)
            && !(bound == Bound::Upper && best >= static_eval)
        {
            let wide = self.on(knob::CORR2);
            self.tables
                .update_correction(us.0, &corr_keys, best - static_eval, depth, wide);
        }
        self.tt.store(
            key,
            best_move.map_or(0, G::move_code),
            to_tt(best, ply),
            raw_eval,
            depth,
            bound,
            tt_pv,
        );
        best
    }

    /// The reduction table: level 8's own with [`knob::LMR`] (steeper
    /// yet with [`knob::LMR_STEEP`]), else the calibrated one.
    #[inline]
    pub(super) fn lmr_for(&self, top_lmr: bool) -> &[[u8; 64]; 64] {
        if !top_lmr {
            &self.lmr
        } else if self.on(knob::LMR_STEEP) {
            &self.lmr_steep
        } else if self.on(knob::LMR_FLAT) {
            &self.lmr_flat
        } else {
            &self.lmr_top
        }
    }
}
