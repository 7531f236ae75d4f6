//! What differs between standard chess, Horde and Atomic, as zero-sized
//! rule types plugged into the one [`Position`] struct.

use core::{fmt::Debug, hash::Hash};

use super::{
    attacks,
    bitboard::Bitboard,
    board::Board,
    position::Position,
    role::Role,
    square::{Rank, Square},
};
use crate::{Color, EndReason, Outcome, Variant};

mod sealed {
    pub trait Sealed {}
    impl Sealed for super::Standard {}
    impl Sealed for super::Horde {}
    impl Sealed for super::Atomic {}
}

/// The hooks in which the three 8×8 games differ. Sealed: the move
/// generator relies on exactly these three sets of rules.
pub trait Rules:
    sealed::Sealed + Copy + Clone + Debug + Default + PartialEq + Eq + Hash + Send + Sync + 'static
{
    /// Which game these rules are.
    const VARIANT: Variant;

    /// `true` when captures explode (Atomic): the move generator and
    /// `play` take the atomic paths.
    const EXPLOSIONS: bool = false;

    /// The start placement.
    fn start_board() -> Board;

    /// The start castling rights.
    fn start_castling() -> super::CastlingRights {
        super::CastlingRights::ALL
    }

    /// How many kings `color` may have when `turn` is to move: `(min, max)`.
    fn king_count(color: Color, turn: Color) -> (u32, u32) {
        let _ = (color, turn);
        (1, 1)
    }

    /// Squares on which a pawn of `color` may never stand.
    fn pawn_forbidden(color: Color) -> Bitboard {
        let _ = color;
        Bitboard(0xff00_0000_0000_00ff)
    }

    /// Squares a single push of `color` may land on and continue from
    /// with the second step of a double push (rank 3 for White in chess).
    fn double_step_via(color: Color) -> Bitboard {
        match color {
            Color::White => Bitboard::rank(Rank::Third),
            Color::Black => Bitboard::rank(Rank::Sixth),
        }
    }

    /// Whether a double step from `from` by `color` can be answered en
    /// passant (not from Horde's rank 1).
    fn double_step_allows_ep(color: Color, from: Square) -> bool {
        let _ = (color, from);
        true
    }

    /// The game's own ending, decided before mate and stalemate (an
    /// exploded king, a destroyed horde).
    fn variant_outcome(pos: &Position<Self>) -> Option<Outcome> {
        let _ = pos;
        None
    }

    /// `true` when neither side can ever win (automatic draw).
    fn insufficient_material(board: &Board) -> bool;
}

/// FIDE chess.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Standard;

/// Horde: 36 white pawns and no white king against Black's army.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Horde;

/// Atomic: captures explode.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Atomic;

impl Rules for Standard {
    const VARIANT: Variant = Variant::Chess;

    fn start_board() -> Board {
        Board::standard()
    }

    /// King against king, king and one minor piece against king, and
    /// kings with bishops all on squares of one colour.
    fn insufficient_material(board: &Board) -> bool {
        if (board.pawns() | board.rooks_and_queens()).any() {
            return false;
        }
        let minors = board.knights() | board.by_role(Role::Bishop);
        if minors.count() <= 1 {
            return true;
        }
        if board.knights().any() {
            return false;
        }
        let bishops = board.by_role(Role::Bishop);
        (bishops & Bitboard::DARK_SQUARES).is_empty()
            || (bishops & Bitboard::LIGHT_SQUARES).is_empty()
    }
}

impl Rules for Horde {
    const VARIANT: Variant = Variant::Horde;

    fn start_board() -> Board {
        Board::horde()
    }

    fn start_castling() -> super::CastlingRights {
        super::CastlingRights::ALL.without_color(Color::White)
    }

    /// White has no king; Black has one.
    fn king_count(color: Color, _turn: Color) -> (u32, u32) {
        match color {
            Color::White => (0, 0),
            Color::Black => (1, 1),
        }
    }

    /// White pawns may stand on rank 1 (they start there).
    fn pawn_forbidden(color: Color) -> Bitboard {
        match color {
            Color::White => Bitboard::rank(Rank::Eighth),
            Color::Black => Bitboard(0xff00_0000_0000_00ff),
        }
    }

    /// White pawns may double-step from rank 1 too.
    fn double_step_via(color: Color) -> Bitboard {
        match color {
            Color::White => Bitboard::rank(Rank::Second) | Bitboard::rank(Rank::Third),
            Color::Black => Bitboard::rank(Rank::Sixth),
        }
    }

    /// A double step from rank 1 creates no en-passant square.
    fn double_step_allows_ep(color: Color, from: Square) -> bool {
        !(color.is_white() && from.rank() == Rank::First)
    }

    /// Black wins as soon as White has nothing left.
    fn variant_outcome(pos: &Position<Self>) -> Option<Outcome> {
        if pos.board().by_color(Color::White).is_empty() {
            Some(Outcome::win(Color::Black, EndReason::HordeDestroyed))
        } else {
            None
        }
    }

    /// Never: the rules page says insufficient material does not end Horde.
    fn insufficient_material(_board: &Board) -> bool {
        false
    }
}

impl Rules for Atomic {
    const VARIANT: Variant = Variant::Atomic;
    const EXPLOSIONS: bool = true;

    fn start_board() -> Board {
        Board::standard()
    }

    /// The side to move may have lost its king in the last explosion (the
    /// game is then over); the other side must have one.
    fn king_count(color: Color, turn: Color) -> (u32, u32) {
        if color == turn { (0, 1) } else { (1, 1) }
    }

    /// A missing king was exploded: its owner lost.
    fn variant_outcome(pos: &Position<Self>) -> Option<Outcome> {
        let board = pos.board();
        for color in Color::ALL {
            if board.king_of(color).is_none() {
                return Some(Outcome::win(color.other(), EndReason::KingExploded));
            }
        }
        None
    }

    /// Only the two kings are left.
    fn insufficient_material(board: &Board) -> bool {
        board.occupied() == board.kings()
    }
}

/// The atomic meaning of "`color`'s king is attacked": a direct attack by
/// a piece other than the king, and never while the kings touch.
pub(crate) fn atomic_king_attacked(board: &Board, color: Color, occ: Bitboard) -> Bitboard {
    let Some(k) = board.king_of(color) else {
        return Bitboard::EMPTY;
    };
    if let Some(tk) = board.king_of(color.other())
        && attacks::king_attacks(k).contains(tk)
    {
        return Bitboard::EMPTY;
    }
    board
        .attackers_to(k, color.other(), occ)
        .without(board.kings())
}
