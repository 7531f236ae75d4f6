//! The search: iterative deepening over a principal-variation alpha-beta
//! with quiescence, one implementation for every game through
//! [`Evaluate`].
//!
//! Positions are copied and the move played on the copy (copy-make):
//! they are a few hundred bytes at most and copying beats undo code.
//! Every per-ply buffer lives in a stack allocated once per [`Searcher`],
//! so the hot loop does not allocate.

use std::{
    sync::{
        Arc,
        atomic::{AtomicBool, Ordering},
    },
    time::{Duration, Instant},
};

use crate::{
    eval::{Evaluate, HISTORY_SLOTS},
    limits::{SearchLimits, TimePlan},
    score::{EVAL_LIMIT, INFINITE, MATE_BOUND, MAX_PLY, Score, mate_in, mated_in, to_tt},
    tt::{Bound, TranspositionTable},
};

/// One earlier position of the game, as the repetition rules need it.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
struct PathEntry {
    key: u64,
    /// The side to move in this position is in check (so the move that
    /// led here was a check).
    check: bool,
    /// This position came from a null move: repetitions do not reach
    /// across it.
    null: bool,
}

/// The positions played before the one searched, oldest first: the search
/// needs them to see repetitions (and, in Xiangqi, who has been checking).
///
/// Push every position of the game from its start (or from the last
/// capture or pawn move, which is all that matters) up to but not
/// including the position given to the search.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PositionHistory {
    entries: Vec<PathEntry>,
}

impl PositionHistory {
    /// No earlier positions.
    #[must_use]
    pub const fn new() -> Self {
        Self {
            entries: Vec::new(),
        }
    }

    /// Records a position that was on the board before the searched one.
    pub fn push<G: Evaluate>(&mut self, pos: &G) {
        self.entries.push(PathEntry {
            key: pos.zobrist(),
            check: pos.is_check(),
            null: false,
        });
    }

    /// Number of positions recorded.
    #[must_use]
    pub const fn len(&self) -> usize {
        self.entries.len()
    }

    /// `true` when nothing was recorded.
    #[must_use]
    pub const fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// Forgets everything.
    pub fn clear(&mut self) {
        self.entries.clear();
    }
}

/// A progress report, sent after each completed iteration (one per line
/// in MultiPV searches): what UCI prints as `info …`.
#[derive(Clone, Debug)]
pub struct SearchInfo<'a, M> {
    /// Iteration depth (plies).
    pub depth: u32,
    /// Deepest ply reached, quiescence included.
    pub seldepth: u32,
    /// Which line (1 = best).
    pub multipv: u32,
    /// The line's score for the side to move.
    pub score: Score,
    /// Nodes searched so far.
    pub nodes: u64,
    /// Time since the search started.
    pub time: Duration,
    /// Permille of the transposition table in use by this search.
    pub hashfull: u32,
    /// The line, root move first.
    pub pv: &'a [M],
}

impl<M> SearchInfo<'_, M> {
    /// Nodes per second.
    #[must_use]
    pub fn nps(&self) -> u64 {
        let micros = self.time.as_micros().max(1);
        (u128::from(self.nodes) * 1_000_000 / micros) as u64
    }
}

/// One root move with what the last completed iteration found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RootLine<M> {
    /// The move.
    pub mv: M,
    /// Its score (exact for the lines the search was asked to score;
    /// an upper bound, or unknown, for the others).
    pub score: Score,
    /// `true` when `score` is exact.
    pub exact: bool,
    /// The principal variation, starting with `mv`.
    pub pv: Vec<M>,
}

/// What a search found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchResult<M> {
    /// The move to play; `None` only when the game is over (no legal move).
    pub best_move: Option<M>,
    /// Its score for the side to move.
    pub score: Score,
    /// Depth of the last completed iteration.
    pub depth: u32,
    /// Deepest ply reached.
    pub seldepth: u32,
    /// Nodes searched.
    pub nodes: u64,
    /// Time spent.
    pub time: Duration,
    /// The principal variation.
    pub pv: Vec<M>,
    /// Every root move, best first; the first `multipv` have exact scores.
    pub lines: Vec<RootLine<M>>,
}

/// Per-ply working memory, allocated once.
#[derive(Debug)]
struct Frame<M> {
    moves: Vec<M>,
    scores: Vec<i32>,
    quiets: Vec<M>,
    pv: Vec<M>,
    killers: [Option<M>; 2],
    eval: i32,
    null: bool,
}

impl<M> Frame<M> {
    fn new() -> Self {
        Self {
            moves: Vec::with_capacity(128),
            scores: Vec::with_capacity(128),
            quiets: Vec::with_capacity(64),
            pv: Vec::with_capacity(MAX_PLY),
            killers: [None, None],
            eval: 0,
            null: false,
        }
    }
}

#[derive(Clone, Debug)]
struct RootMove<M> {
    mv: M,
    /// This iteration's score (valid when `exact`), or the bound found.
    score: i32,
    exact: bool,
    pv: Vec<M>,
    /// Ordering key from earlier iterations.
    order: i32,
}

// Search parameters, hand-set (see docs/strength.md).
const RFP_MARGIN: i32 = 90;
const NULL_MIN_DEPTH: i32 = 3;
const FUTILITY_BASE: i32 = 120;
const FUTILITY_PER_DEPTH: i32 = 110;
const QS_DELTA: i32 = 220;
const SEE_QUIET_MARGIN: i32 = 60;
const SEE_CAPTURE_MARGIN: i32 = 100;
const ASPIRATION: i32 = 30;
const HISTORY_MAX: i32 = 16_384;

const SCORE_TT: i32 = 1 << 30;
const SCORE_GOOD_CAPTURE: i32 = 1 << 28;
const SCORE_KILLER: i32 = 1 << 27;
const SCORE_BAD_CAPTURE: i32 = -(1 << 27);

/// `ln(depth) * ln(moves)`-shaped reductions, precomputed.
fn lmr_table() -> Box<[[u8; 64]; 64]> {
    let mut t = Box::new([[0u8; 64]; 64]);
    for (d, row) in t.iter_mut().enumerate().skip(1) {
        for (m, r) in row.iter_mut().enumerate().skip(1) {
            let v = 0.6 + (d as f64).ln() * (m as f64).ln() / 2.2;
            *r = v.clamp(0.0, 30.0) as u8;
        }
    }
    t
}

/// A reusable search for one game type: owns its transposition table and
/// history tables, so several `Searcher`s run side by side without
/// sharing anything, and one `Searcher` kept across the moves of a game
/// remembers what it learnt.
#[derive(Debug)]
pub struct Searcher<G: Evaluate> {
    tt: TranspositionTable,
    history: Box<[[i32; HISTORY_SLOTS]; 2]>,
    lmr: Box<[[u8; 64]; 64]>,
    stack: Vec<Frame<G::Move>>,
    path: Vec<PathEntry>,
    root_moves: Vec<RootMove<G::Move>>,
    nodes: u64,
    seldepth: usize,
    root_depth: i32,
    stopped: bool,
    /// Limits may stop the search only once an iteration is complete, so
    /// there is always a searched move to play.
    can_stop: bool,
    stop: Option<Arc<AtomicBool>>,
    plan: TimePlan,
    node_limit: Option<u64>,
    start: Instant,
}

impl<G: Evaluate> Searcher<G> {
    /// A searcher with a transposition table of about `hash_mb` MiB.
    #[must_use]
    pub fn new(hash_mb: usize) -> Self {
        Self {
            tt: TranspositionTable::new(hash_mb),
            history: Box::new([[0; HISTORY_SLOTS]; 2]),
            lmr: lmr_table(),
            stack: (0..MAX_PLY + 4).map(|_| Frame::new()).collect(),
            path: Vec::with_capacity(1024),
            root_moves: Vec::new(),
            nodes: 0,
            seldepth: 0,
            root_depth: 0,
            stopped: false,
            can_stop: false,
            stop: None,
            plan: TimePlan::default(),
            node_limit: None,
            start: Instant::now(),
        }
    }

    /// Replaces the transposition table by one of about `hash_mb` MiB.
    pub fn resize_hash(&mut self, hash_mb: usize) {
        self.tt = TranspositionTable::new(hash_mb);
    }

    /// Forgets everything learnt (UCI `ucinewgame`).
    pub fn clear(&mut self) {
        self.tt.clear();
        for h in self.history.iter_mut() {
            h.fill(0);
        }
    }

    /// The search proper, at full strength.
    fn search_full(
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
        self.stop = options.stop;
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
        for f in &mut self.stack {
            f.killers = [None, None];
            f.null = false;
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
    fn sort_root(&mut self) {
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

    fn aspiration(&mut self, root: &G, root_check: bool, depth: i32, prev: i32) -> i32 {
        let mut delta = ASPIRATION;
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
    /// come out with exact scores in one pass.
    fn search_root(
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
            let mut child = root.clone();
            child.play(mv);
            let gives_check = child.is_check();
            let new_depth = depth - 1 + i32::from(gives_check);
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

    #[inline]
    fn limits_reached_between_iterations(&mut self) -> bool {
        if self.stop_requested() {
            return true;
        }
        if self.node_limit.is_some_and(|n| self.nodes >= n) {
            return true;
        }
        self.plan.soft.is_some_and(|s| Instant::now() >= s)
    }

    #[inline]
    fn stop_requested(&self) -> bool {
        self.stop
            .as_ref()
            .is_some_and(|s| s.load(Ordering::Relaxed))
    }

    /// Counts a node and checks the limits every 1024 nodes.
    #[inline]
    fn count_node(&mut self, ply: usize) {
        self.nodes += 1;
        if ply > self.seldepth {
            self.seldepth = ply;
        }
        if self.nodes & 1023 == 0
            && (self.stop_requested()
                || (self.can_stop && self.plan.hard.is_some_and(|h| Instant::now() >= h)))
        {
            self.stopped = true;
        }
        if self.can_stop && self.node_limit.is_some_and(|n| self.nodes >= n) {
            self.stopped = true;
        }
    }

    /// Draw or rule result at a node inside the tree: repetition (with
    /// Xiangqi's perpetual-check verdict), the fifty-move rule, dead
    /// positions. `None` when the game goes on.
    fn rule_score(&self, pos: &G, ply: usize) -> Option<i32> {
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
                return Some(self.perpetual_verdict(cur - back, cur, ply));
            }
            back += 1;
        }
        None
    }

    /// Xiangqi: in the cycle `start..=end` (same position at both ends,
    /// the side to move S at both), the side that checked with every move
    /// loses; both or neither: a draw. Chases are not judged (see
    /// docs/strength.md).
    fn perpetual_verdict(&self, start: usize, end: usize, ply: usize) -> i32 {
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
        match (s_all, o_all) {
            (true, false) => mated_in(ply),
            (false, true) => mate_in(ply),
            _ => 0,
        }
    }

    /// Move-ordering score; larger is tried first.
    #[inline]
    fn order_score(&self, pos: &G, mv: G::Move, tt_code: u16, ply: usize, us: Color2) -> i32 {
        if tt_code != 0 && G::move_code(mv) == tt_code {
            return SCORE_TT;
        }
        if pos.is_tactical(mv) {
            let gain = pos.gain(mv);
            let base = gain * 16 - pos.mover_value(mv) / 16;
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
        self.history[us.0][pos.history_slot(mv)]
    }

    #[inline]
    fn update_history(&mut self, us: Color2, slot: usize, bonus: i32) {
        let h = &mut self.history[us.0][slot];
        *h += bonus - *h * bonus.abs() / HISTORY_MAX;
    }

    /// Fills `scores` for `moves` and returns the count.
    #[inline]
    fn score_moves(
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
    fn pick(moves: &mut [G::Move], scores: &mut [i32], i: usize) {
        let mut best = i;
        for j in i + 1..moves.len() {
            if scores[j] > scores[best] {
                best = j;
            }
        }
        moves.swap(i, best);
        scores.swap(i, best);
    }

    #[allow(clippy::too_many_arguments)]
    fn negamax(
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
            return self.qsearch(pos, alpha, beta, ply, in_check);
        }
        self.count_node(ply);
        if ply >= MAX_PLY - 2 {
            return if in_check {
                0
            } else {
                clamp_eval(pos.evaluate())
            };
        }

        let key = pos.zobrist();
        let hit = self.tt.probe(key);
        let tt_code = hit.map_or(0, |h| h.mv);
        if let Some(h) = hit
            && !pv_node
            && h.depth >= depth
            && let Some(s) = h.cutoff(ply, alpha, beta)
        {
            return s;
        }

        let eval = if in_check {
            -INFINITE
        } else {
            let raw = hit.map_or_else(|| clamp_eval(pos.evaluate()), |h| h.eval);
            // A stored bound on the true value is a better guess.
            match hit {
                Some(h) if h.score.abs() < MATE_BOUND => match h.bound {
                    Bound::Lower if h.score > raw => h.score,
                    Bound::Upper if h.score < raw => h.score,
                    Bound::Exact => h.score,
                    _ => raw,
                },
                _ => raw,
            }
        };
        let static_eval = if in_check {
            -INFINITE
        } else {
            hit.map_or(eval, |h| h.eval)
        };
        self.stack[ply].eval = eval;
        let improving = !in_check && ply >= 2 && eval > self.stack[ply - 2].eval;

        if !pv_node && !in_check {
            // Reverse futility: far above beta at low depth.
            // The static evaluation, not a stored bound: a bound from a
            // shallow search that missed a quiet mate would keep this node
            // from ever being searched.
            if depth <= 6
                && static_eval.abs() < MATE_BOUND
                && static_eval - RFP_MARGIN * (depth - i32::from(improving)) >= beta
            {
                return (static_eval + beta) / 2;
            }
            // Null move, only where the game makes passing a fair test.
            if depth >= NULL_MIN_DEPTH
                && eval >= beta
                && beta > -MATE_BOUND
                && !self.stack[ply - 1].null
                && let Some(child) = pos.null_move()
            {
                let r = 3 + depth / 4 + ((eval - beta) / 200).min(3);
                self.stack[ply].null = true;
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

        // Internal iterative reduction: no stored move, search less.
        if tt_code == 0 && depth >= 4 && (pv_node || cut_node) {
            depth -= 1;
        }

        let mut moves = core::mem::take(&mut self.stack[ply].moves);
        let mut scores = core::mem::take(&mut self.stack[ply].scores);
        let mut quiets = core::mem::take(&mut self.stack[ply].quiets);
        quiets.clear();
        pos.legal_moves_into(&mut moves);
        if moves.is_empty() {
            self.stack[ply].moves = moves;
            self.stack[ply].scores = scores;
            self.stack[ply].quiets = quiets;
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
        let lmp_limit = (3 + depth * depth) / (2 - i32::from(improving));
        for i in 0..moves.len() {
            Self::pick(&mut moves, &mut scores, i);
            let mv = moves[i];
            let order = scores[i];
            let tactical = pos.is_tactical(mv);
            let advance = !tactical && pos.is_pawn_advance(mv);
            let is_killer = (SCORE_KILLER..SCORE_GOOD_CAPTURE).contains(&order);

            // Shallow pruning once one move has kept us from being mated.
            let may_prune = best > -MATE_BOUND && !pv_node && !advance;
            let mut child = pos.clone();
            child.play(mv);
            let gives_check = child.is_check();
            if may_prune
                && tactical
                && !gives_check
                && depth <= 5
                && order < SCORE_GOOD_CAPTURE
                && !pos.see_ge(mv, -SEE_CAPTURE_MARGIN * depth)
            {
                continue;
            }
            // Quiet moves that cannot raise the score enough, or that hang
            // the piece, are skipped; checks never are (a quiet check may
            // mate).
            if may_prune
                && !tactical
                && !in_check
                && !gives_check
                && depth <= 5
                && quiets.len() as i32 >= lmp_limit
            {
                quiets.push(mv);
                continue;
            }
            if may_prune && !tactical && !in_check && !gives_check && depth <= 4 {
                if !is_killer && static_eval + FUTILITY_BASE + FUTILITY_PER_DEPTH * depth <= alpha {
                    quiets.push(mv);
                    continue;
                }
                if !pos.see_ge(mv, -SEE_QUIET_MARGIN * depth) {
                    quiets.push(mv);
                    continue;
                }
            }
            let extend = gives_check && (ply as i32) < 2 * self.root_depth;
            let new_depth = depth - 1 + i32::from(extend);
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
                if depth >= 3 && searched > usize::from(pv_node) && !tactical && !advance {
                    r = i32::from(self.lmr[depth.min(63) as usize][searched.min(63)]);
                    r -= i32::from(pv_node);
                    r += i32::from(!improving);
                    r += i32::from(cut_node);
                    r -= i32::from(is_killer);
                    r -= i32::from(gives_check || in_check);
                    r -= self.history[us.0][pos.history_slot(mv)] / 6000;
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
                if score > alpha && r > 0 {
                    score = -self.negamax(
                        &child,
                        new_depth,
                        -alpha - 1,
                        -alpha,
                        ply + 1,
                        !cut_node,
                        gives_check,
                    );
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
                        if !tactical {
                            let f = &mut self.stack[ply];
                            if f.killers[0] != Some(mv) {
                                f.killers[1] = f.killers[0];
                                f.killers[0] = Some(mv);
                            }
                            let bonus = (depth * depth * 16).min(2000);
                            self.update_history(us, pos.history_slot(mv), bonus);
                            for &q in &quiets {
                                self.update_history(us, pos.history_slot(q), -bonus);
                            }
                        }
                        break;
                    }
                    alpha = score;
                }
            }
            if !tactical {
                quiets.push(mv);
            }
        }
        self.stack[ply].moves = moves;
        self.stack[ply].scores = scores;
        self.stack[ply].quiets = quiets;
        if self.stopped {
            return 0;
        }
        if searched == 0 {
            // Everything was pruned: not possible before one move was
            // searched, so this cannot happen; stay safe anyway.
            return alpha;
        }
        let bound = if best >= beta {
            Bound::Lower
        } else if pv_node && best_move.is_some() {
            Bound::Exact
        } else {
            Bound::Upper
        };
        self.tt.store(
            key,
            best_move.map_or(0, G::move_code),
            to_tt(best, ply),
            static_eval,
            depth,
            bound,
        );
        best
    }

    fn qsearch(&mut self, pos: &G, mut alpha: i32, beta: i32, ply: usize, in_check: bool) -> i32 {
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
            return if in_check {
                0
            } else {
                clamp_eval(pos.evaluate())
            };
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
        let stand = if in_check {
            -INFINITE
        } else {
            hit.map_or_else(|| clamp_eval(pos.evaluate()), |h| h.eval)
        };
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
            moves.retain(|&m| pos.is_tactical(m));
        }
        self.score_moves(pos, &moves, &mut scores, tt_code, ply);
        let mut best_move = None;
        for i in 0..moves.len() {
            Self::pick(&mut moves, &mut scores, i);
            let mv = moves[i];
            if !in_check {
                if stand + pos.gain(mv) + QS_DELTA <= alpha {
                    continue;
                }
                if !pos.see_ge(mv, 0) {
                    continue;
                }
            }
            let mut child = pos.clone();
            child.play(mv);
            let gives_check = child.is_check();
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
            if in_check { 0 } else { stand },
            0,
            bound,
        );
        best
    }
}

/// Options of one search beyond its limits.
#[derive(Clone, Debug, Default)]
pub struct SearchOptions {
    /// How strongly to play (level 8, the default: full strength).
    pub level: crate::Level,
    /// Seed of the level's random choice.
    pub seed: u64,
    /// Number of root moves to score exactly (MultiPV); 0 or 1 for one.
    pub multipv: usize,
    /// Raised by another thread to end the search at once.
    pub stop: Option<Arc<AtomicBool>>,
    /// No time limit runs past this instant.
    pub deadline: Option<Instant>,
}

/// The side to move as an index into per-side tables.
#[derive(Copy, Clone, Debug)]
struct Color2(usize);

impl Color2 {
    #[inline]
    fn of<G: Evaluate>(pos: &G) -> Self {
        Self(pos.turn() as usize)
    }
}

#[inline]
fn clamp_eval(v: i32) -> i32 {
    v.clamp(-EVAL_LIMIT, EVAL_LIMIT)
}

impl<G: Evaluate> Searcher<G> {
    /// Searches `root` (reached after the positions in `history`) within
    /// `limits`, and picks the move as `options.level` plays: level 8
    /// takes the best move; lower levels add their depth, node and time
    /// caps, score several moves (MultiPV) and choose among them with
    /// noise seeded by `options.seed` (the same seed in the same position
    /// gives the same move).
    ///
    /// `options.stop` ends the search early when raised (from another
    /// thread); `options.deadline` caps any time limit. `on_info` hears of
    /// each completed iteration. The result holds a legal move unless the
    /// game is over.
    pub fn search(
        &mut self,
        root: &G,
        history: &PositionHistory,
        limits: &SearchLimits,
        options: SearchOptions,
        on_info: &mut dyn FnMut(&SearchInfo<'_, G::Move>),
    ) -> SearchResult<G::Move> {
        let level = options.level;
        let seed = options.seed;
        let p = level.params_in(root.variant());
        let mut limits = *limits;
        if let Some(d) = p.depth {
            limits.depth = Some(limits.depth.map_or(d, |x| x.min(d)));
        }
        if let Some(n) = p.nodes {
            limits.nodes = Some(limits.nodes.map_or(n, |x| x.min(n)));
        }
        let mut options = options;
        if let Some(ms) = p.movetime_ms
            && !limits.infinite
        {
            let cap = Instant::now() + Duration::from_millis(ms);
            options.deadline = Some(options.deadline.map_or(cap, |d| d.min(cap)));
        }
        options.multipv = if p.multipv == 0 {
            usize::MAX
        } else {
            p.multipv.max(options.multipv)
        };
        let mut result = self.search_full(root, history, &limits, options, on_info);
        let mut rng = crate::Rng::new(seed ^ root.zobrist());
        let i = level.choose(root.variant(), &result.lines, &mut rng);
        if i != 0
            && let Some(line) = result.lines.get(i)
        {
            result.best_move = Some(line.mv);
            result.score = line.score;
            result.pv.clone_from(&line.pv);
        }
        result
    }
}
