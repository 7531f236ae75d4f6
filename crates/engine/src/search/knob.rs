//! Level 8's own search settings, one bit each, so that each can be
//! measured on its own (A/B at equal time, docs/strength-search.md).
//! Level 8 plays [`super::CHESS_SWITCHES`] in chess and [`super::HORDE_SWITCHES`] in
//! Horde; the others were measured and lost or were not measured apart,
//! and stay here to be tried again.

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
/// Quiet moves pruned before being searched (late-move, futility,
/// exchange and history pruning) get no history malus at a cut-off,
/// as in the reference: without it a move that sits low in the order
/// keeps being pruned and keeps losing history for it, so it can never
/// climb back. They still count towards the late-move limit. Not played.
pub(crate) const PRUNED_NO_MALUS: u64 = 1 << 49;
