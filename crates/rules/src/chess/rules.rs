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

    /// `true` while `color` could still win by some legal sequence: a
    /// time-out against a side that cannot is a draw (what lichess does).
    fn can_still_win(board: &Board, color: Color) -> bool;
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

    /// A lone knight or bishop cannot mate unless the other side's own
    /// pieces help (lichess's rule).
    fn can_still_win(board: &Board, color: Color) -> bool {
        let ours = board.by_color(color);
        let theirs = board.by_color(!color);
        let kings = board.kings();
        let bishops = board.by_role(Role::Bishop);
        let knights = board.knights();
        if (ours & !kings).is_empty() {
            return false;
        }
        if (ours & (board.pawns() | board.rooks_and_queens())).any() {
            return true;
        }
        if (ours & knights).any() {
            // A lone knight mates only a king hemmed in by its own
            // rooks, bishops, knights or pawns.
            let queens = board.by_role(Role::Queen);
            return (ours & !kings).more_than_one() || (theirs & !kings & !queens).any();
        }
        // Bishops only: mate needs a pawn or knight to block, or a
        // bishop on the other colour.
        let one_colour = (bishops & Bitboard::DARK_SQUARES).is_empty()
            || (bishops & Bitboard::LIGHT_SQUARES).is_empty();
        !one_colour || (board.pawns() | knights).any()
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

    /// Always: kept simple, either side can in principle still reach its
    /// goal while the game runs, so a flag always loses.
    fn can_still_win(_board: &Board, _color: Color) -> bool {
        true
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

    /// Explosions: with enemy pieces besides the king, one of them can
    /// explode next to its own king, unless only bishops on squares of
    /// opposite colours are left; against a bare king, a single piece or
    /// two knights cannot.
    fn can_still_win(board: &Board, color: Color) -> bool {
        let ours = board.by_color(color);
        let theirs = board.by_color(!color);
        let kings = board.kings();
        let bishops = board.by_role(Role::Bishop);
        let knights = board.knights();
        if (ours & !kings).is_empty() {
            return false;
        }
        if (theirs & !kings).any() {
            if board.occupied() == (bishops | kings) {
                let (w, b) = (ours & bishops, theirs & bishops);
                let apart = ((w & Bitboard::DARK_SQUARES).is_empty()
                    && (b & Bitboard::LIGHT_SQUARES).is_empty())
                    || ((w & Bitboard::LIGHT_SQUARES).is_empty()
                        && (b & Bitboard::DARK_SQUARES).is_empty());
                return !apart;
            }
            return true;
        }
        if (board.by_role(Role::Queen) | board.pawns()).any() {
            return true;
        }
        let minors_and_rooks = knights | bishops | board.by_role(Role::Rook);
        if minors_and_rooks.count() == 1 {
            return false;
        }
        if board.occupied() == (knights | kings) {
            return knights.count() > 2;
        }
        true
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
