//! Static evaluation, one module per game, and the few game facts the
//! search needs beyond [`Game`] (how much a capture wins, whether a null
//! move is sound, how a move is stored in the transposition table).

mod atomic;
mod chess8;
mod chess_endgame;
mod chess_king;
mod chess_pst;
mod chess_space;
mod chess_terms;
mod horde;
mod standard;
mod xiangqi;

#[cfg(test)]
pub(crate) use chess_pst::TOP_PST as CHESS_TOP_PST;
pub(crate) use chess8::{Eval8, PstTable};
pub(crate) use standard::{
    StandardParams, TOP_PARAMS as CHESS_TOP_PARAMS, evaluate_table, pst_features, scaled_pst,
};

use chessplayx_rules::Game;

/// Number of slots in the history tables: every `(piece, target)` pair of
/// any game fits below it (8×8: 6 roles × 64; Xiangqi: 7 roles × 90).
pub(crate) const HISTORY_SLOTS: usize = 1024;

/// What the search must know about a game besides its rules: a static
/// evaluation and a few move facts. Implemented for [`chessplayx_rules::chess::Chess`],
/// [`chessplayx_rules::chess::HordeChess`], [`chessplayx_rules::chess::AtomicChess`]
/// and [`chessplayx_rules::xiangqi::Xiangqi`]; the search is generic over it so
/// every game gets the same search.
pub trait Evaluate: Game {
    /// Set when repeating a cycle of checks loses for the side giving them
    /// (Xiangqi's perpetual-check rule) instead of drawing.
    const PERPETUAL_CHECK_LOSES: bool = false;

    /// Xiangqi's perpetual chase: which sides (indexed by colour) chased
    /// one piece with every move of the repetition cycle that starts and
    /// ends at `self`, whose positions' keys (after each ply) are `keys`.
    /// `None` for games without the rule, or when a ply cannot be matched
    /// to a legal move. Only asked when `PERPETUAL_CHECK_LOSES` is set.
    fn cycle_chasers(&self, keys: &[u64]) -> Option<[bool; 2]> {
        let _ = keys;
        None
    }

    /// The static evaluation in centipawns from the side to move's point
    /// of view. Only called on positions that are not over.
    fn evaluate(&self) -> i32;

    /// The material `mv` wins at once (the captured piece, a promotion's
    /// gain, an explosion's net balance); 0 for a quiet move. Orders
    /// captures and prunes hopeless ones in quiescence.
    fn gain(&self, mv: Self::Move) -> i32;

    /// The value of the moving piece: the tie-break of "most valuable
    /// victim, least valuable attacker".
    fn mover_value(&self, mv: Self::Move) -> i32;

    /// `true` for the moves quiescence search plays: captures (and
    /// explosions) and promotions.
    fn is_tactical(&self, mv: Self::Move) -> bool;

    /// `true` when `mv` does not lose more than `-threshold` once the
    /// exchange on its square has played out (static exchange
    /// evaluation). The default is the optimistic "what it takes", for
    /// games where exchanges are not simple sequences.
    fn see_ge(&self, mv: Self::Move, threshold: i32) -> bool {
        self.gain(mv) >= threshold
    }

    /// `true` for quiet moves the search must not reduce or prune: pawn
    /// pushes to the last ranks, whose point lies beyond the horizon of a
    /// reduced search (a breakthrough, a promotion race).
    fn is_pawn_advance(&self, mv: Self::Move) -> bool {
        let _ = mv;
        false
    }

    /// A compact non-zero code of the move for the transposition table.
    fn move_code(mv: Self::Move) -> u16;

    /// The history slot of the quiet move whose table code is `code`
    /// here, so that a table cut-off can teach the histories without
    /// generating the moves; `None` for a tactical move or a game that
    /// does not decode codes.
    fn quiet_slot_of_code(&self, code: u16) -> Option<usize> {
        let _ = code;
        None
    }

    /// The move's `(piece, target)` slot in the history tables, below
    /// 1024 (enough for 7 roles × 90 squares).
    fn history_slot(&self, mv: Self::Move) -> usize;

    /// `true` when the side to move has already lost by the game's own
    /// rule (its king exploded, its horde destroyed).
    fn lost(&self) -> bool;

    /// With no legal move: `true` if the side to move loses (checkmate;
    /// any Xiangqi stalemate), `false` for a draw (stalemate).
    fn no_moves_loses(&self) -> bool;

    /// `true` when neither side can win any more (insufficient material).
    fn dead_draw(&self) -> bool;

    /// Plies since the last irreversible move (pawn move or capture in the
    /// 8×8 games, capture in Xiangqi): the fifty-move counter, and how far
    /// back a repetition can lie.
    fn halfmoves(&self) -> u32;

    /// The position after passing the move, when null-move pruning is sound
    /// here: never in check, never for a side that may be in zugzwang
    /// (Horde's pawns, sides without pieces).
    fn null_move(&self) -> Option<Self>;

    /// `false` only when the quiet move `mv` surely does not give check: a
    /// cheap filter before playing the move to see, for the checks
    /// level 8's quiescence search tries. `true` by default.
    fn may_check(&self, mv: Self::Move) -> bool {
        let _ = mv;
        true
    }

    /// A hash of the pawn structure (each side's pawns), the key of level
    /// 8's correction history: the evaluation's errors follow the pawns
    /// more than anything else. 0 in games without one.
    fn pawn_key(&self) -> u64 {
        0
    }

    /// Hashes of White's and of Black's pieces other than pawns (king
    /// included), the keys of level 8's second correction history
    /// (the search's `CORR2` switch): an evaluation that misjudges a
    /// piece setup misjudges it whatever the pawns do. `[0, 0]` in games
    /// without one.
    fn piece_keys(&self) -> [u64; 2] {
        [0, 0]
    }

    /// Level 8's evaluation (centipawns, side to move): the hand-set
    /// evaluation with the terms only level 8 weighs, plus the trained
    /// network's correction in games that have one; `None` where level 8
    /// evaluates as the lower levels do. Level 8 plays with it, the lower
    /// levels keep [`Evaluate::evaluate`] they were calibrated with. `acc` holds the accumulators of the last call
    /// (kept by the search), which are updated rather than rebuilt.
    fn net_evaluate(&self, acc: &mut crate::nnue::Accumulator) -> Option<i32> {
        let _ = acc;
        None
    }
}

/// The numbers an evaluation is made of, as the tuner sees them: each one
/// visited by name with write access, so one generic optimiser (the
/// `tune` module) can read, change and print the weights of every game
/// without knowing their layout.
pub(crate) trait Params: Copy + Send + Sync {
    /// Calls `f` on every tunable number, always in the same order.
    fn visit(&mut self, f: &mut dyn FnMut(&str, &mut i32));
}

/// Visits both halves of a tapered weight as `name.mg` and `name.eg`.
pub(crate) fn visit_tapered(name: &str, t: &mut Tapered, f: &mut dyn FnMut(&str, &mut i32)) {
    f(&format!("{name}.mg"), &mut t.mg);
    f(&format!("{name}.eg"), &mut t.eg);
}

/// A game whose evaluation takes its weights as an argument: production
/// code evaluates with the constant [`Tuned::PARAMS`] (what
/// [`Evaluate::evaluate`] does), the tuner with candidate weights.
pub(crate) trait Tuned: Evaluate {
    /// The weights' type.
    type Params: Params;
    /// The weights the engine plays with.
    const PARAMS: Self::Params;
    /// [`Evaluate::evaluate`] with the weights `p`.
    fn evaluate_with(&self, p: &Self::Params) -> i32;
}

/// Evaluation weights shared by the three 8×8 games, as a pair of middle
/// game and end game values blended by the phase.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Tapered {
    pub(crate) mg: i32,
    pub(crate) eg: i32,
}

impl Tapered {
    pub(crate) const fn new(mg: i32, eg: i32) -> Self {
        Self { mg, eg }
    }

    /// The blend at `phase` (0 = bare end game … 24 = all pieces).
    #[inline]
    pub(crate) const fn blend(self, phase: i32) -> i32 {
        let p = if phase > 24 { 24 } else { phase };
        (self.mg * p + self.eg * (24 - p)) / 24
    }
}

impl core::ops::Add for Tapered {
    type Output = Self;
    #[inline]
    fn add(self, o: Self) -> Self {
        Self::new(self.mg + o.mg, self.eg + o.eg)
    }
}

impl core::ops::AddAssign for Tapered {
    #[inline]
    fn add_assign(&mut self, o: Self) {
        self.mg += o.mg;
        self.eg += o.eg;
    }
}

impl core::ops::SubAssign for Tapered {
    #[inline]
    fn sub_assign(&mut self, o: Self) {
        self.mg -= o.mg;
        self.eg -= o.eg;
    }
}

impl core::ops::Mul<i32> for Tapered {
    type Output = Self;
    #[inline]
    fn mul(self, k: i32) -> Self {
        Self::new(self.mg * k, self.eg * k)
    }
}

impl core::ops::Div<i32> for Tapered {
    type Output = Self;
    #[inline]
    fn div(self, k: i32) -> Self {
        Self::new(self.mg / k, self.eg / k)
    }
}

impl core::ops::Neg for Tapered {
    type Output = Self;
    #[inline]
    fn neg(self) -> Self {
        Self::new(-self.mg, -self.eg)
    }
}

impl core::ops::Sub for Tapered {
    type Output = Self;
    #[inline]
    fn sub(self, o: Self) -> Self {
        Self::new(self.mg - o.mg, self.eg - o.eg)
    }
}
