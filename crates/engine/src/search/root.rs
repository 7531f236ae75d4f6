//! The root of the search: iterative deepening, aspiration windows and
//! the pass over the root moves (MultiPV for the lower levels).

use super::*;

impl<G: Evaluate> Searcher<G> {
    /// The search proper, at full strength. Over 100 lines: iterative
    /// deepening keeps its state (the previous iteration's score and
    /// lines, the time plan, the info reports) in locals from one
    /// iteration to the next, read top to bottom as one loop.
    pub(super) fn search_full(
        &mut self,
        root: &G,
        history: &PositionHistory,
        limits: &SearchLimits,
        options: SearchOptions,
        on_info: &mut dyn FnMut(&SearchInfo<'_, G::Move>),
    ) -> SearchResult<G::Move> {
        self.start = Instant::now();
        self.plan = TimePlan::new(limits, self.start, options.deadline);
        self.node_limit = limits.nodes;
        let params = options.params(root.variant());
        let full = params.full_engine;
        self.stop = options.stop;
        let use_net = full && !self.hand_set_only;
        if use_net != self.use_net {
            // The table stores static evaluations: one search must not read
            // the other evaluation's (the hand-set levels stay as calibrated).
            self.tt.clear();
            self.use_net = use_net;
        }
        self.switches = if full {
            params
                .switches
                .unwrap_or_else(|| switches_for(root.variant()))
        } else {
            0
        };
        self.params = if full {
            params.search.unwrap_or_default()
        } else {
            params::SearchParams::DEFAULT
        };
        let shape = lmr_shape(&self.params);
        if shape != self.lmr_top_built {
            self.lmr_top = lmr_table_top(&self.params);
            self.lmr_top_built = shape;
        }
        if self.on(knob::CONT_HIST | knob::CAPT_HIST | knob::CORR_HIST | knob::COUNTER) {
            self.tables.ensure(self.on(knob::CONT4));
        }
        self.nodes = 0;
        self.seldepth = 0;
        self.stopped = false;
        self.can_stop = false;
        self.tt.new_search();
        for h in self.history.iter_mut() {
            for v in h.iter_mut() {
                *v /= 2;
            }
        }
        for v in self.butterfly.iter_mut().flatten() {
            *v /= 2;
        }
        for f in &mut self.stack {
            f.killers = [None, None];
            f.null = false;
            f.slot = history::NO_SLOT;
            f.excluded = None;
            f.double_exts = 0;
            f.stat = 0;
        }
        self.path.clear();
        self.path.extend_from_slice(&history.entries);
        let root_check = root.is_check();
        self.path.push(PathEntry {
            key: root.zobrist(),
            check: root_check,
            null: false,
        });

        let mut moves = Vec::new();
        root.legal_moves_into(&mut moves);
        if moves.is_empty() || root.lost() {
            let score = if root.lost() || root.no_moves_loses() {
                mated_in(0)
            } else {
                0
            };
            return SearchResult {
                best_move: None,
                score: Score::from_internal(score),
                depth: 0,
                seldepth: 0,
                nodes: 0,
                time: self.start.elapsed(),
                pv: Vec::new(),
                lines: Vec::new(),
            };
        }
        // Initial order: the transposition table's move, then by the
        // usual move-ordering scores.
        let tt_code = self.tt.probe(root.zobrist()).map_or(0, |h| h.mv);
        self.root_moves = moves
            .iter()
            .map(|&mv| RootMove {
                mv,
                score: -INFINITE,
                exact: false,
                pv: vec![mv],
                order: self.order_score(root, mv, tt_code, 0, Color2::of(root)),
            })
            .collect();
        self.root_moves.sort_by_key(|r| core::cmp::Reverse(r.order));

        let multipv = options.multipv.clamp(1, self.root_moves.len());
        let max_depth = limits.depth.map_or(MAX_PLY as i32 - 8, |d| {
            (d as i32).clamp(1, MAX_PLY as i32 - 8)
        });
        let mut completed: Vec<RootMove<G::Move>> = self.root_moves.clone();
        let mut completed_depth = 0;
        let mut prev_best = 0;

        for depth in 1..=max_depth {
            self.root_depth = depth;
            for rm in &mut self.root_moves {
                rm.exact = false;
                rm.score = -INFINITE;
            }
            let best = if multipv == 1 && depth >= 4 {
                self.aspiration(root, root_check, depth, prev_best)
            } else {
                self.search_root(root, root_check, depth, -INFINITE, INFINITE, multipv)
            };
            if self.stopped {
                // A move that beat the previous best inside the window was
                // fully searched: trust it. Otherwise keep the last
                // complete iteration.
                if multipv == 1 && self.root_moves.iter().any(|r| r.exact) && completed_depth > 0 {
                    self.sort_root();
                    let better = self.root_moves[0].clone();
                    if let Some(i) = completed.iter().position(|r| r.mv == better.mv) {
                        completed.remove(i);
                    }
                    completed.insert(0, better);
                }
                break;
            }
            self.sort_root();
            prev_best = best;
            completed_depth = depth;
            completed.clone_from(&self.root_moves);
            self.can_stop = true;
            for (i, rm) in self.root_moves.iter().enumerate().take(multipv) {
                on_info(&SearchInfo {
                    depth: depth as u32,
                    seldepth: self.seldepth as u32,
                    multipv: i as u32 + 1,
                    score: Score::from_internal(rm.score),
                    nodes: self.nodes,
                    time: self.start.elapsed(),
                    hashfull: self.tt.hashfull(),
                    pv: &rm.pv,
                });
            }
            if self.limits_reached_between_iterations() {
                break;
            }
            // A forced mate found with every move searched to enough
            // depth will not change: stop early under a time limit.
            if self.plan.soft.is_some()
                && multipv == 1
                && best.abs() >= MATE_BOUND
                && depth > 2 * (crate::score::MATE - best.abs()) + 4
            {
                break;
            }
            // A single legal move: no need to think under a clock.
            if self.plan.soft.is_some() && self.root_moves.len() == 1 && depth >= 4 {
                break;
            }
        }

        for (i, rm) in completed.iter_mut().enumerate() {
            rm.order = i as i32;
        }
        let best = &completed[0];
        SearchResult {
            best_move: Some(best.mv),
            score: if completed_depth == 0 {
                Score::Cp(0)
            } else {
                Score::from_internal(best.score)
            },
            depth: completed_depth as u32,
            seldepth: self.seldepth as u32,
            nodes: self.nodes,
            time: self.start.elapsed(),
            pv: best.pv.clone(),
            lines: completed
                .iter()
                .enumerate()
                .map(|(i, r)| RootLine {
                    mv: r.mv,
                    score: Score::from_internal(r.score.max(-INFINITE + 1)),
                    exact: r.exact && i < multipv,
                    pv: r.pv.clone(),
                })
                .collect(),
        }
    }

    /// Stable sort: exact scores first, best first; the rest keep their
    /// order from earlier iterations.
    pub(super) fn sort_root(&mut self) {
        self.root_moves.sort_by(|a, b| {
            b.exact.cmp(&a.exact).then_with(|| {
                if a.exact {
                    b.score.cmp(&a.score)
                } else {
                    core::cmp::Ordering::Equal
                }
            })
        });
        let n = self.root_moves.len() as i32;
        for (i, rm) in self.root_moves.iter_mut().enumerate() {
            rm.order = n - i as i32;
        }
    }

    pub(super) fn aspiration(&mut self, root: &G, root_check: bool, depth: i32, prev: i32) -> i32 {
        let mut delta = self.params.get(params::ASPIRATION);
        let mut alpha = (prev - delta).max(-INFINITE);
        let mut beta = (prev + delta).min(INFINITE);
        loop {
            let score = self.search_root(root, root_check, depth, alpha, beta, 1);
            if self.stopped {
                return score;
            }
            if score <= alpha && alpha > -INFINITE {
                beta = (alpha + beta) / 2;
                alpha = (score - delta).max(-INFINITE);
            } else if score >= beta && beta < INFINITE {
                beta = (score + delta).min(INFINITE);
            } else {
                return score;
            }
            delta += delta;
            if delta > 1000 {
                alpha = -INFINITE;
                beta = INFINITE;
            }
            for rm in &mut self.root_moves {
                rm.exact = false;
                rm.score = -INFINITE;
            }
        }
    }

    /// One pass over the root moves. With `multipv` k > 1 the window's
    /// lower edge is the k-th best exact score so far, so the best k moves
    /// come out with exact scores in one pass. Slightly over 100 lines:
    /// the root is `negamax`'s move loop with MultiPV's window, kept in
    /// the same shape so the two can be read side by side.
    pub(super) fn search_root(
        &mut self,
        root: &G,
        root_check: bool,
        depth: i32,
        alpha0: i32,
        beta: i32,
        multipv: usize,
    ) -> i32 {
        let mut best = -INFINITE;
        let mut alpha = alpha0;
        let mut exact_scores: Vec<i32> = Vec::with_capacity(multipv);
        self.stack[0].pv.clear();
        self.nodes += 1;
        let n = self.root_moves.len();
        for i in 0..n {
            let mv = self.root_moves[i].mv;
            let window_alpha = if multipv > 1 {
                if exact_scores.len() < multipv {
                    -INFINITE
                } else {
                    exact_scores[multipv - 1]
                }
            } else {
                alpha
            };
            self.root_sacrifice = self.on(knob::PLY1_SAC) && !root.see_ge(mv, 0);
            let mut child = root.clone();
            child.play(mv);
            let gives_check = child.is_check();
            let new_depth = depth - 1 + i32::from(gives_check);
            self.stack[0].slot = root.history_slot(mv) as u16;
            self.stack[0].quiet = !root.is_tactical(mv);
            self.path.push(PathEntry {
                key: child.zobrist(),
                check: gives_check,
                null: false,
            });
            let full_window_first = i == 0 || (multipv > 1 && exact_scores.len() < multipv);
            let mut score;
            if full_window_first {
                score = -self.negamax(
                    &child,
                    new_depth,
                    -beta,
                    -window_alpha,
                    1,
                    false,
                    gives_check,
                );
            } else {
                let quiet = !root.is_tactical(mv) && !root.is_pawn_advance(mv);
                let r = if depth >= 3 && quiet && !gives_check && !root_check && i >= 3 {
                    (i32::from(self.lmr[depth.min(63) as usize][i.min(63)]) - 1)
                        .clamp(0, new_depth - 1)
                } else {
                    0
                };
                score = -self.negamax(
                    &child,
                    new_depth - r,
                    -window_alpha - 1,
                    -window_alpha,
                    1,
                    true,
                    gives_check,
                );
                if score > window_alpha && r > 0 {
                    score = -self.negamax(
                        &child,
                        new_depth,
                        -window_alpha - 1,
                        -window_alpha,
                        1,
                        false,
                        gives_check,
                    );
                }
                if score > window_alpha && score < beta {
                    score = -self.negamax(
                        &child,
                        new_depth,
                        -beta,
                        -window_alpha,
                        1,
                        false,
                        gives_check,
                    );
                }
            }
            self.path.pop();
            if self.stopped {
                break;
            }
            if score > best {
                best = score;
            }
            let rm = &mut self.root_moves[i];
            if score > window_alpha && score < beta {
                rm.score = score;
                rm.exact = true;
                rm.pv.clear();
                rm.pv.push(mv);
                rm.pv.extend_from_slice(&self.stack[1].pv);
                if multipv > 1 {
                    let pos = exact_scores.partition_point(|&s| s >= score);
                    exact_scores.insert(pos, score);
                    exact_scores.truncate(multipv);
                } else {
                    alpha = score;
                }
            } else if score >= beta {
                // Fail high: the caller widens the window.
                rm.score = score;
                rm.exact = false;
                rm.pv.clear();
                rm.pv.push(mv);
                rm.pv.extend_from_slice(&self.stack[1].pv);
                // Keep it first for the re-search.
                let moved = self.root_moves.remove(i);
                self.root_moves.insert(0, moved);
                break;
            } else {
                rm.score = score;
                rm.exact = false;
            }
        }
        best
    }
}
