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
mod node;
mod ordering;
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
/// [`knob::BUTTERFLY`]: the low 12 bits of a move code, from and to
/// square on the 8×8 board.
const BUTTERFLY_SLOTS: usize = 4096;
// Level 8 in chess only (see docs/strength-search.md).
const RFP_MARGIN_TOP: i32 = 75;
/// [`knob::RFP_WIDE`]'s margin.
const RFP_MARGIN_WIDE: i32 = 120;
const RAZOR_BASE: i32 = 250;
const RAZOR_PER_DEPTH: i32 = 150;
const HIST_PRUNE_PER_DEPTH: i32 = 2_000;
const SINGULAR_MIN_DEPTH: i32 = 7;
const SINGULAR_MARGIN: i32 = 2;
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

/// Level 8's own reductions in chess: steeper than [`lmr_table`]'s, so the
/// late quiet moves of a node cost less and the time goes to depth
/// (see docs/strength-search.md).
fn lmr_table_top(steep: bool) -> Box<[[u8; 64]; 64]> {
    let (base, div) = if steep { (0.9, 1.6) } else { (0.75, 1.9) };
    lmr_table_with(base, div)
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

/// Level 8's own search settings, one bit each, so that each can be
/// measured on its own (A/B at equal time, docs/strength-search.md).
/// Level 8 plays [`CHESS_SWITCHES`] in chess and [`HORDE_SWITCHES`] in
/// Horde; the others were measured and lost or were not measured apart,
/// and stay here to be tried again.
pub(crate) mod knob {
    /// Extend only checks that do not lose material (SEE ≥ 0) off the PV.
    pub(crate) const CHECK_EXT: u64 = 1;
    /// [`super::lmr_table_top`], plus one ply when the table move captures.
    pub(crate) const LMR: u64 = 2;
    /// Reverse futility to depth 8 (6).
    pub(crate) const RFP: u64 = 4;
    /// Skip quiet moves with a bad history at depth ≤ 3.
    pub(crate) const HIST_PRUNE: u64 = 8;
    /// Razoring at depth ≤ 3 (off: it misses quiet mates).
    pub(crate) const RAZOR: u64 = 16;
    /// Late-move pruning to depth 7 (5).
    pub(crate) const LMP: u64 = 32;
    /// Reduce captures that lose material, by half the quiet reduction.
    pub(crate) const BAD_CAPT: u64 = 64;
    /// An even steeper reduction table (lost in chess with the next four;
    /// won in Horde, where reductions almost never fail).
    pub(crate) const LMR_STEEP: u64 = 128;
    /// No check extension off the PV.
    pub(crate) const NO_CHECK_EXT: u64 = 256;
    /// Shallow pruning at PV nodes too.
    pub(crate) const PV_PRUNE: u64 = 512;
    /// Reverse futility margin 75 (90).
    pub(crate) const RFP_TIGHT: u64 = 1024;
    /// Null move reduced by 4 + depth / 3 (3 + depth / 4): more nodes to
    /// depth 12, never played.
    pub(crate) const NULL_DEEP: u64 = 2048;
    // 4096 was `HORDE` (chess's switches in Horde too); Horde now has its
    // own set, `HORDE_SWITCHES`.
    /// History bonuses grow linearly with depth (`300 d − 250`, at most
    /// 1,600) instead of `16 d²` (at most 2,000): shallow cut-offs, most
    /// of the tree, teach the histories as much as deep ones do.
    /// Not played: see [`super::CHESS_SWITCHES`].
    pub(crate) const BONUS_LIN: u64 = 4096;
    /// History counts for more in the reductions (/ 4000, not / 6000).
    pub(crate) const HIST_LMR: u64 = 8192;
    /// Futility pruning of quiet moves to depth 6 (4).
    pub(crate) const FUT_DEEP: u64 = 16384;
    /// Continuation histories (after the opponent's last move and our
    /// move before it) in quiet ordering, reductions and history pruning.
    pub(crate) const CONT_HIST: u64 = 32768;
    /// Capture history (mover and square × victim) in capture ordering.
    pub(crate) const CAPT_HIST: u64 = 65536;
    /// Singular extension of the table move, with multi-cut, at depth ≥ 7.
    pub(crate) const SINGULAR: u64 = 131_072;
    /// Futility and exchange pruning of quiet moves judged at the depth
    /// the move would be searched to after its reduction, not the node's:
    /// late quiet moves of deeper nodes become prunable.
    pub(crate) const LMR_DEPTH_PRUNE: u64 = 262_144;
    /// Pawn pushes to the sixth or seventh rank are reduced (one ply less
    /// than other quiet moves) instead of always searched to full depth;
    /// they are still never pruned. In Horde such pushes are most of
    /// White's moves in the middle game.
    pub(crate) const ADV_REDUCE: u64 = 524_288;
    /// ProbCut: see `search/probcut.rs`.
    pub(crate) const PROBCUT: u64 = 1_048_576;
    /// No static cut (reverse futility, razoring, null move, ProbCut) at
    /// the node right below a root move that offers material (SEE < 0):
    /// the sacrifice is answered by real moves. With chess's net the
    /// victim of Morphy's 1.Ra6! looks well off, so passing (null move)
    /// or its static score cut that node and hid a mate in two in a
    /// zugzwang; with this switch the net build finds it at depth 3.
    /// Not played: chess plays no net (session 21, strength-nnue-session-20.md);
    /// the same at every root move cost −23 ± 49 Elo.
    pub(crate) const PLY1_SAC: u64 = 2_097_152;
    /// Correction history: the static evaluation plus what deeper
    /// searches found it missed in the same pawn structure (per side to
    /// move), learnt at every quiet node whose bound says which way the
    /// evaluation erred.
    pub(crate) const CORR_HIST: u64 = 4_194_304;
    /// Singular extension's two other outcomes: two plies (at most
    /// [`super::DOUBLE_EXT_MAX`] times on a path) when every other move
    /// falls far short, off the PV; one ply less for the table move when
    /// the others fail below the stored score but it beats beta anyway.
    /// Not played: 101.5/200 on top of `CORR_HIST` (session 22).
    pub(crate) const SING_EXT2: u64 = 8_388_608;
    /// Quiescence's first ply also tries quiet checks that do not lose
    /// material, so a mate or a fork by check one ply past the horizon is
    /// seen. Not played: 96.5/200 on top of `CORR_HIST` (session 22).
    pub(crate) const QS_CHECKS: u64 = 16_777_216;
    /// With [`CORR_HIST`]: three more correction entries beside the pawn
    /// structure's, keyed by White's pieces, Black's pieces (each a hash
    /// of that side's non-pawn pieces) and the opponent's last move; each
    /// counts half. Not played: 99/200 on top of `CORR_HIST` (session 23).
    pub(crate) const CORR2: u64 = 33_554_432;
    /// The table remembers which nodes were on a principal variation;
    /// such nodes, searched again with a null window, reduce their late
    /// moves a ply less (they are where the game's line is most likely
    /// to run). Not played: see [`super::CHESS_SWITCHES`].
    pub(crate) const TT_PV: u64 = 67_108_864;
    /// A node where every move failed low credits the opponent's quiet
    /// move that led to it (history and continuation history), as if it
    /// had cut off: it did, one ply up, without being tried as a cut.
    /// Not played: see [`super::CHESS_SWITCHES`].
    pub(crate) const PRIOR_BONUS: u64 = 134_217_728;
    /// Late moves of an expected cut node are reduced two plies more
    /// (one without): such a node needs one move to cut, which is
    /// usually among the first few. Not played: see
    /// [`super::CHESS_SWITCHES`].
    pub(crate) const CUT_LMR2: u64 = 268_435_456;
    /// A counter-move table: the quiet move that last cut off after the
    /// opponent's move (by its history slot) is tried right after the
    /// killers, and like them is reduced a ply less and never pruned.
    /// Not played: see [`super::CHESS_SWITCHES`].
    pub(crate) const COUNTER: u64 = 536_870_912;
    /// A late move whose reduced search beats alpha is searched again a
    /// ply deeper than usual when it beat the best score by far, a ply
    /// shallower when it barely did: the tree grows where the reduction
    /// was most wrong. Not played: see [`super::CHESS_SWITCHES`].
    pub(crate) const LMR_DEEPER: u64 = 1_073_741_824;
    /// A quiet move among the first five whose histories cut its
    /// reduction below −1 is searched a ply deeper instead (the
    /// reduction may go to −1): the histories extend what they trust.
    /// Not played: see [`super::CHESS_SWITCHES`].
    pub(crate) const LMR_EXT: u64 = 2_147_483_648;
    /// The continuation history after the opponent's last move counts
    /// twice in quiet moves' statistics (ordering, reductions, pruning):
    /// it is the most specific of them. Not played: see
    /// [`super::CHESS_SWITCHES`].
    pub(crate) const CONT_W: u64 = 1 << 32;
    /// A third continuation history, after our own move two moves back
    /// (four plies): plans span more than one move. Not played: see
    /// [`super::CHESS_SWITCHES`].
    pub(crate) const CONT4: u64 = 1 << 33;
    /// Late captures that do not lose material are reduced too, by half
    /// a quiet move's table reduction (rounded up), a ply less when their
    /// capture history is good (off: only losing captures, `BAD_CAPT`).
    /// Not played: see [`super::CHESS_SWITCHES`].
    pub(crate) const CAPT_LMR: u64 = 1 << 34;
    // Bit 35 was session 29's `ROOT_FH` (play a root move that failed
    // high in the unfinished iteration), screened on a branch and not
    // merged: it changed 1 of 60 node-limited searches.
    /// Flatter late-move reductions (`ln d · ln m / 2.3`, not `/ 1.9`):
    /// level 8's tree is thinner than the reference's from depth 12 on
    /// (docs/strength-session-29.md). Not played.
    pub(crate) const LMR_FLAT: u64 = 1 << 36;
    /// Reverse futility's margin 120 a ply (90). Not played.
    pub(crate) const RFP_WIDE: u64 = 1 << 37;
    /// The null move's reduction grows by a ply every six of depth
    /// (four). Not played.
    pub(crate) const NULL_LESS: u64 = 1 << 38;
    /// The static evaluation the search reads is rounded to 8 cp, as
    /// Stockfish's classical evaluation is to a grain: fewer distinct
    /// scores, more null-window cut-offs. Not played.
    pub(crate) const EVAL_GRAIN: u64 = 1 << 39;
    /// The static evaluation shrinks towards a draw as the fifty-move
    /// count grows (`× (200 − halfmoves) / 200`), so shuffling is not
    /// scored as progress. Not played.
    pub(crate) const DAMP50: u64 = 1 << 40;
    /// The plain quiet history is kept by from and to square (a
    /// "butterfly" table, as Stockfish's main history) instead of by
    /// piece and target square, which the continuation histories
    /// already are. Not played.
    pub(crate) const BUTTERFLY: u64 = 1 << 41;
    /// The reference's shallow-depth cuts as one bundle in place of level
    /// 8's own (`search/shallow.rs`); at principal-variation nodes only
    /// with [`PV_PRUNE`] (the reference cuts there too), where level 8's
    /// own cut nothing. Not played.
    pub(crate) const STEP13: u64 = 1 << 42;
    // Bit 43 was session 29's `NO_SHALLOW` (level 8's move-loop pruning
    // off), a knock-out on a branch.
    /// Checks are extended only at depth > 6 where the static evaluation
    /// is not level (|eval| > 100), as the reference does, in place of
    /// level 8's extension of every check that keeps material. Not played.
    pub(crate) const CHECK_EXT_DEEP: u64 = 1 << 44;
    /// History bonuses on the reference's scale, `32 d² + 128 d − 128`
    /// (at most 6,000), where `16 d²` (at most 2,000) moves an entry a
    /// quarter as far: the statistics follow the last few hundred nodes
    /// rather than a long average. Not played.
    pub(crate) const HIST_FAST: u64 = 1 << 45;
    /// A table cut-off teaches the histories: a quiet table move that
    /// holds beta gets a cut-off's bonus, one that fails low a malus, as
    /// the reference does at its table probe. Without it the moves that
    /// cut most often (through the table) stop being taught. Not played.
    pub(crate) const TT_HIST: u64 = 1 << 46;
    /// A reduced quiet move whose reduced search beat alpha teaches its
    /// continuation histories by the re-search's verdict: a bonus if it
    /// still beats alpha at full depth, a malus if not. Not played.
    pub(crate) const LMR_HIST: u64 = 1 << 47;
    /// A quiet move's reduction also reads the statistics of the move
    /// that led to its node: a ply less when ours are good and the
    /// opponent's move's were bad (it probably erred, so look harder), a
    /// ply more the other way round. Not played.
    pub(crate) const STAT_CARRY: u64 = 1 << 48;
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
    /// The steep [`lmr_table_top`], used with [`knob::LMR`] and
    /// [`knob::LMR_STEEP`].
    lmr_steep: Box<[[u8; 64]; 64]>,
    lmr_flat: Box<[[u8; 64]; 64]>,
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
            lmr_top: lmr_table_top(false),
            lmr_steep: lmr_table_top(true),
            lmr_flat: lmr_table_with(0.75, 2.3),
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
