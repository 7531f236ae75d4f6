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

#[cfg(test)]
mod calibrated;
pub(crate) mod chase;
mod history;
pub(crate) mod knob;
mod node;
mod ordering;
pub(crate) mod params;
mod probcut;
mod quiesce;
mod root;
mod shallow;

use crate::{
    eval::{Evaluate, HISTORY_SLOTS},
    limits::{SearchLimits, TimePlan},
    score::{EVAL_LIMIT, INFINITE, MATE_BOUND, MAX_PLY, Score, from_tt, mate_in, mated_in, to_tt},
    tt::{Bound, Hit, TranspositionTable},
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
    /// Captures searched at this node so far (the capture history's
    /// malus when another move cuts off).
    captures: Vec<M>,
    /// History slot of the move being searched from this ply
    /// ([`history::NO_SLOT`] for a null move): the continuation histories'
    /// index one and two plies further down.
    slot: u16,
    /// The move a singular-extension test leaves out.
    excluded: Option<M>,
    /// Double extensions on the path to this node ([`knob::SING_EXT2`]),
    /// capped so that they cannot make a search explode.
    double_exts: u8,
    /// The move being searched from this ply is quiet
    /// ([`knob::PRIOR_BONUS`]).
    quiet: bool,
    /// [`knob::STAT_CARRY`]: the statistics of the quiet move being
    /// searched from this ply (0 for other moves).
    stat: i32,
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
            captures: Vec::with_capacity(32),
            slot: history::NO_SLOT,
            quiet: false,
            stat: 0,
            excluded: None,
            double_exts: 0,
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

// Search parameters, hand-set (see docs/strength.md); the tunable ones
// are in `params` (`SearchParams`).
const NULL_MIN_DEPTH: i32 = 3;
const HISTORY_MAX: i32 = 16_384;
/// [`knob::BUTTERFLY`]: the low 12 bits of a move code, from and to
/// square on the 8×8 board.
const BUTTERFLY_SLOTS: usize = 4096;
// Level 8 in chess only (see docs/strength-search.md).
const RFP_MARGIN_TOP: i32 = 75;
/// [`knob::RFP_WIDE`]'s margin.
const RFP_MARGIN_WIDE: i32 = 120;
const RAZOR_BASE: i32 = 250;
const RAZOR_PER_DEPTH: i32 = 150;
const SINGULAR_MIN_DEPTH: i32 = 7;
/// How far below the singular bound the other moves must stay for the
/// table move's double extension ([`knob::SING_EXT2`]), in centipawns.
const DOUBLE_EXT_MARGIN: i32 = 20;
/// Double extensions allowed on one path.
const DOUBLE_EXT_MAX: u8 = 6;

/// The history bonus of a cut-off at `depth` (and of the move credited
/// for a fail low below it, [`knob::PRIOR_BONUS`]).
#[inline]
fn history_bonus(depth: i32, linear: bool, fast: bool) -> i32 {
    if fast {
        (32 * depth * depth + 128 * depth - 128).clamp(32, 6000)
    } else if linear {
        (300 * depth - 250).clamp(50, 1600)
    } else {
        (depth * depth * 16).min(2000)
    }
}

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

/// Level 8's own reductions in chess, shaped by `p`'s `lmr_base` and
/// `lmr_div` (hundredths): steeper than [`lmr_table`]'s, so the late quiet
/// moves of a node cost less and the time goes to depth (see
/// docs/strength-search.md).
fn lmr_table_top(p: &params::SearchParams) -> Box<[[u8; 64]; 64]> {
    let (base, div) = lmr_shape(p);
    lmr_table_with(f64::from(base) / 100.0, f64::from(div) / 100.0)
}

/// The `(lmr_base, lmr_div)` of `p`, what [`lmr_table_top`] reads.
fn lmr_shape(p: &params::SearchParams) -> (i32, i32) {
    (p.get(params::LMR_BASE), p.get(params::LMR_DIV))
}

/// `base + ln(depth) · ln(moves) / div`, precomputed.
fn lmr_table_with(base: f64, div: f64) -> Box<[[u8; 64]; 64]> {
    let mut t = Box::new([[0u8; 64]; 64]);
    for (d, row) in t.iter_mut().enumerate().skip(1) {
        for (m, r) in row.iter_mut().enumerate().skip(1) {
            let v = base + (d as f64).ln() * (m as f64).ln() / div;
            *r = v.clamp(0.0, 30.0) as u8;
        }
    }
    t
}

/// The switches level 8 plays with in chess: the first bundle measured,
/// +26 Elo at equal time (docs/strength-search.md), less `RAZOR`: its
/// quiescence search sees no quiet checks, so it cut the mate in
/// Morphy's Ra6 (tests/tactics.rs), for 1% fewer nodes.
const TOP_SWITCHES: u64 =
    knob::CHECK_EXT | knob::LMR | knob::RFP | knob::HIST_PRUNE | knob::LMP | knob::BAD_CAPT;

/// Level 8's switches in chess since session 18: the first bundle plus
/// the continuation and capture histories, pruning at the reduced depth
/// and ProbCut (Horde's set without its steep reductions). At 3,000 nodes
/// a move the continuation histories had lost (their tables hardly
/// fill); at level 8's real 100 ms a move (about 120,000 nodes) the set
/// scored 115/200 against `TOP_SWITCHES`, +53 ± 48 Elo
/// (docs/strength-search.md, "Session 18"). Session 19 adds singular
/// extensions: 157.5/280 at equal time over two runs (+44 ± 41 Elo;
/// the second run an SPRT that accepted). Session 22 adds the correction
/// history: 109.5/200 (+33 ± 48), with session 19's run of the same idea
/// 213/400 (+23 ± 34). Session 23's `TT_PV`, `PRIOR_BONUS` and
/// `CUT_LMR2` won at equal time against this build (111.5/200, then
/// 105.5/200 on top) but lost against the reference: 20.5/200 against
/// this build's 38.5/200 in the same conditions (strength-search-session-23.md),
/// so they are off. Session 27's seven new switches, and `NO_CHECK_EXT`,
/// screened at fixed nodes against the reference did not gain either
/// (strength-search-session-27.md): off. So did session 29's six
/// (strength-session-29.md).
const CHESS_SWITCHES: u64 = SHARED_SWITCHES | knob::SINGULAR | knob::CORR_HIST;

/// What chess and Horde's level 8 both search with: the first bundle,
/// the continuation and capture histories, pruning at the reduced depth
/// and ProbCut.
const SHARED_SWITCHES: u64 =
    TOP_SWITCHES | knob::CONT_HIST | knob::CAPT_HIST | knob::LMR_DEPTH_PRUNE | knob::PROBCUT;

/// The switches level 8 plays with in Horde (docs/strength-search.md,
/// sessions 11 and 12): chess's, the continuation and capture histories,
/// pruning at the reduced depth and ProbCut, measured at equal time
/// against the calibrated search; then the steep reductions, which gave
/// +43 ± 43 Elo over 244 games on top: in Horde a reduced move is
/// re-searched at full depth only 0.4% of the time, so cutting harder
/// buys depth almost for free. Not `ADV_REDUCE`: with it the tree is
/// smaller still, but the breakthrough b6! of tests/tactics.rs comes a
/// ply too late. Singular extensions were only screened in Horde, at
/// fixed nodes (session 12), never played in a match: not included.
const HORDE_SWITCHES: u64 = SHARED_SWITCHES | knob::LMR_STEEP;

/// Level 8's switches in `variant`; 0 (the calibrated search) in the
/// games where none were measured to help.
fn switches_for(variant: chessplayx_rules::Variant) -> u64 {
    match variant {
        chessplayx_rules::Variant::Chess => CHESS_SWITCHES,
        chessplayx_rules::Variant::Horde => HORDE_SWITCHES,
        _ => 0,
    }
}

/// A reusable search for one game type: owns its transposition table and
/// history tables, so several `Searcher`s run side by side without
/// sharing anything, and one `Searcher` kept across the moves of a game
/// remembers what it learnt.
#[derive(Debug)]
pub struct Searcher<G: Evaluate> {
    tt: TranspositionTable,
    history: Box<[[i32; HISTORY_SLOTS]; 2]>,
    /// [`knob::BUTTERFLY`]'s table, by the move code's from and to bits.
    butterfly: Box<[[i32; BUTTERFLY_SLOTS]; 2]>,
    /// Level 8's continuation and capture histories.
    tables: history::Tables,
    lmr: Box<[[u8; 64]; 64]>,
    /// [`lmr_table_top`], used with [`knob::LMR`].
    lmr_top: Box<[[u8; 64]; 64]>,
    /// A steeper table yet, used with [`knob::LMR`] and
    /// [`knob::LMR_STEEP`].
    lmr_steep: Box<[[u8; 64]; 64]>,
    lmr_flat: Box<[[u8; 64]; 64]>,
    /// Level 8's tunable constants in this search (the defaults at
    /// levels 1-7 and unless a row gives its own).
    params: params::SearchParams,
    /// The `(base, div)` [`Self::lmr_top`] was built with (hundredths).
    lmr_top_built: (i32, i32),
    /// Level 8's search switches ([`knob`]) in this search's game: 0 at
    /// levels 1-7 and in the games where none were measured to help, so
    /// those search as calibrated.
    switches: u64,
    stack: Vec<Frame<G::Move>>,
    path: Vec<PathEntry>,
    root_moves: Vec<RootMove<G::Move>>,
    nodes: u64,
    seldepth: usize,
    root_depth: i32,
    /// The root move being searched offers material ([`knob::PLY1_SAC`]).
    root_sacrifice: bool,
    stopped: bool,
    /// Limits may stop the search only once an iteration is complete, so
    /// there is always a searched move to play.
    can_stop: bool,
    stop: Option<Arc<AtomicBool>>,
    plan: TimePlan,
    node_limit: Option<u64>,
    start: Instant,
    /// Evaluate with the game's network where it has one (level 8).
    use_net: bool,
    /// Never use a network (see [`Searcher::set_hand_set_only`]).
    hand_set_only: bool,
    /// The network's accumulators of the last evaluation.
    net_acc: Box<crate::nnue::Accumulator>,
    /// Xiangqi: which sides chase in a repetition cycle, by the cycle's
    /// hash (bit 0 White, bit 1 Black); see [`chase`].
    chase_cache: Vec<(u64, u8)>,
}

impl<G: Evaluate> Searcher<G> {
    /// A searcher with a transposition table of about `hash_mb` MiB.
    #[must_use]
    pub fn new(hash_mb: usize) -> Self {
        Self {
            tt: TranspositionTable::new(hash_mb),
            history: Box::new([[0; HISTORY_SLOTS]; 2]),
            butterfly: Box::new([[0; BUTTERFLY_SLOTS]; 2]),
            tables: history::Tables::default(),
            lmr: lmr_table(),
            lmr_top: lmr_table_top(&params::SearchParams::DEFAULT),
            lmr_steep: lmr_table_with(0.9, 1.6),
            lmr_flat: lmr_table_with(0.75, 2.3),
            params: params::SearchParams::DEFAULT,
            lmr_top_built: lmr_shape(&params::SearchParams::DEFAULT),
            switches: 0,
            stack: (0..MAX_PLY + 4).map(|_| Frame::new()).collect(),
            path: Vec::with_capacity(1024),
            root_moves: Vec::new(),
            nodes: 0,
            seldepth: 0,
            root_depth: 0,
            root_sacrifice: false,
            stopped: false,
            can_stop: false,
            stop: None,
            plan: TimePlan::default(),
            node_limit: None,
            start: Instant::now(),
            use_net: false,
            hand_set_only: false,
            net_acc: Box::default(),
            chase_cache: vec![(0, 0); chase::CHASE_CACHE_SIZE],
        }
    }

    /// With `true`, level 8 too searches with the hand-set evaluation:
    /// the self-play data the networks are trained on is generated so, to
    /// stay the same whatever network is built in.
    pub fn set_hand_set_only(&mut self, yes: bool) {
        self.hand_set_only = yes;
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
        self.butterfly.iter_mut().for_each(|h| h.fill(0));
        self.tables.clear();
    }

    /// Whether level 8's switch `bits` (or any of several, or'ed
    /// together) applies to this search.
    #[inline]
    fn on(&self, bits: u64) -> bool {
        self.switches & bits != 0
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
    /// A row to play instead of `level`'s own in every game: for trying a
    /// candidate row without a build (UCI's `LevelRow`, scripts/strength).
    pub row: Option<crate::LevelParams>,
    /// Raised by another thread to end the search at once.
    pub stop: Option<Arc<AtomicBool>>,
    /// No time limit runs past this instant.
    pub deadline: Option<Instant>,
}

impl SearchOptions {
    /// The row this search plays in `variant`: the override, else the
    /// level's.
    #[must_use]
    pub fn params(&self, variant: chessplayx_rules::Variant) -> crate::LevelParams {
        self.row.unwrap_or_else(|| self.level.params_in(variant))
    }
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
    /// The static evaluation the search uses: level 8's own
    /// ([`Evaluate::net_evaluate`]) at level 8, the calibrated hand-set
    /// evaluation otherwise; clamped below the mate scores.
    #[inline]
    fn static_eval(&mut self, pos: &G) -> i32 {
        let v = if self.use_net {
            pos.net_evaluate(&mut self.net_acc)
                .unwrap_or_else(|| pos.evaluate())
        } else {
            pos.evaluate()
        };
        clamp_eval(v)
    }

    /// A node's static evaluation: as the game computes it (what the
    /// table keeps), then with level 8's correction history added (what
    /// the search uses; the same without [`knob::CORR_HIST`]), and the
    /// keys the correction was read at (zero without the switch). Both
    /// `-INFINITE` in check, where nothing is evaluated.
    fn node_evals(
        &mut self,
        pos: &G,
        hit: Option<Hit>,
        in_check: bool,
        ply: usize,
    ) -> (i32, i32, history::CorrKeys) {
        let none = history::CorrKeys::default();
        if in_check {
            return (-INFINITE, -INFINITE, none);
        }
        let raw = hit.map_or_else(|| self.static_eval(pos), |h| h.eval);
        if !self.on(knob::CORR_HIST) {
            return (raw, self.shaped(pos, raw), none);
        }
        let wide = self.on(knob::CORR2);
        let keys = history::CorrKeys {
            pawn: pos.pawn_key(),
            pieces: if wide { pos.piece_keys() } else { [0, 0] },
            prev: if ply >= 1 {
                self.stack[ply - 1].slot
            } else {
                history::NO_SLOT
            },
        };
        let correction = self.tables.correction(Color2::of(pos).0, &keys, wide);
        (raw, self.shaped(pos, clamp_eval(raw + correction)), keys)
    }

    /// [`knob::DAMP50`] and [`knob::EVAL_GRAIN`] applied to a static
    /// evaluation.
    #[inline]
    fn shaped(&self, pos: &G, mut v: i32) -> i32 {
        if self.on(knob::DAMP50) {
            v = v * (200 - pos.halfmoves().min(100) as i32) / 200;
        }
        if self.on(knob::EVAL_GRAIN) {
            v = v / 8 * 8;
        }
        v
    }
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
        let seed = options.seed;
        let p = options.params(root.variant());
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
        let i = p.choose(&result.lines, &mut rng);
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
