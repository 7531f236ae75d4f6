//! Piece placement.

use core::fmt;

use super::{
    attacks,
    bitboard::Bitboard,
    role::{Piece, Role},
    square::{File, Rank, Square},
};
use crate::Color;

/// Where the pieces stand, and nothing else (no side to move, no rights).
///
/// Kept as one set per role and one per colour, so that "white rooks and
/// queens" is two `&`s. Every value is a real placement: the setters keep
/// the sets consistent (one piece per square at most).
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Board {
    by_role: [Bitboard; 6],
    by_color: [Bitboard; 2],
}

impl Default for Board {
    fn default() -> Self {
        Self::empty()
    }
}

impl Board {
    /// A board with no piece.
    #[must_use]
    pub const fn empty() -> Self {
        Self {
            by_role: [Bitboard::EMPTY; 6],
            by_color: [Bitboard::EMPTY; 2],
        }
    }

    /// The standard chess (and Atomic) start placement.
    #[must_use]
    pub const fn standard() -> Self {
        Self {
            by_role: [
                Bitboard(0x00ff_0000_0000_ff00),
                Bitboard(0x4200_0000_0000_0042),
                Bitboard(0x2400_0000_0000_0024),
                Bitboard(0x8100_0000_0000_0081),
                Bitboard(0x0800_0000_0000_0008),
                Bitboard(0x1000_0000_0000_0010),
            ],
            by_color: [Bitboard(0xffff), Bitboard(0xffff_0000_0000_0000)],
        }
    }

    /// The Horde start placement: 36 white pawns against Black's army.
    #[must_use]
    pub const fn horde() -> Self {
        let white = 0x0000_0066_ffff_ffff;
        let std = Self::standard();
        let mut by_role = std.by_role;
        by_role[0] = Bitboard(0x00ff_0000_0000_0000 | white);
        let mut i = 1;
        while i < 6 {
            by_role[i] = Bitboard(by_role[i].0 & 0xffff_0000_0000_0000);
            i += 1;
        }
        Self {
            by_role,
            by_color: [Bitboard(white), Bitboard(0xffff_0000_0000_0000)],
        }
    }

    /// Every occupied square.
    #[must_use]
    #[inline(always)]
    pub const fn occupied(&self) -> Bitboard {
        Bitboard(self.by_color[0].0 | self.by_color[1].0)
    }

    /// The squares of one side's pieces.
    #[must_use]
    #[inline(always)]
    pub const fn by_color(&self, color: Color) -> Bitboard {
        self.by_color[color as usize]
    }

    /// The squares of both sides' pieces of one role.
    #[must_use]
    #[inline(always)]
    pub const fn by_role(&self, role: Role) -> Bitboard {
        self.by_role[role as usize]
    }

    /// The squares of one piece (role and colour).
    #[must_use]
    #[inline(always)]
    pub const fn by_piece(&self, piece: Piece) -> Bitboard {
        Bitboard(self.by_role[piece.role as usize].0 & self.by_color[piece.color as usize].0)
    }

    /// Pawns of both sides.
    #[must_use]
    #[inline(always)]
    pub const fn pawns(&self) -> Bitboard {
        self.by_role[Role::Pawn as usize]
    }

    /// Knights of both sides.
    #[must_use]
    #[inline(always)]
    pub const fn knights(&self) -> Bitboard {
        self.by_role[Role::Knight as usize]
    }

    /// Kings of both sides.
    #[must_use]
    #[inline(always)]
    pub const fn kings(&self) -> Bitboard {
        self.by_role[Role::King as usize]
    }

    /// Bishops and queens of both sides: the pieces that slide diagonally.
    #[must_use]
    #[inline(always)]
    pub const fn bishops_and_queens(&self) -> Bitboard {
        Bitboard(self.by_role[Role::Bishop as usize].0 | self.by_role[Role::Queen as usize].0)
    }

    /// Rooks and queens of both sides: the pieces that slide orthogonally.
    #[must_use]
    #[inline(always)]
    pub const fn rooks_and_queens(&self) -> Bitboard {
        Bitboard(self.by_role[Role::Rook as usize].0 | self.by_role[Role::Queen as usize].0)
    }

    /// The square of `color`'s king, if any (the lowest one should a setup
    /// have several; positions never do).
    #[must_use]
    #[inline(always)]
    pub const fn king_of(&self, color: Color) -> Option<Square> {
        Bitboard(self.by_role[Role::King as usize].0 & self.by_color[color as usize].0).first()
    }

    /// The colour of the piece on `sq`, if any.
    #[must_use]
    #[inline]
    pub const fn color_at(&self, sq: Square) -> Option<Color> {
        if self.by_color[0].contains(sq) {
            Some(Color::White)
        } else if self.by_color[1].contains(sq) {
            Some(Color::Black)
        } else {
            None
        }
    }

    /// The role of the piece on `sq`, if any.
    #[must_use]
    #[inline]
    pub const fn role_at(&self, sq: Square) -> Option<Role> {
        if !self.occupied().contains(sq) {
            return None;
        }
        let mut i = 0;
        while i < 5 {
            if self.by_role[i].contains(sq) {
                return Some(Role::ALL[i]);
            }
            i += 1;
        }
        Some(Role::King)
    }

    /// The piece on `sq`, if any.
    #[must_use]
    pub const fn piece_at(&self, sq: Square) -> Option<Piece> {
        match (self.color_at(sq), self.role_at(sq)) {
            (Some(color), Some(role)) => Some(Piece { color, role }),
            _ => None,
        }
    }

    /// Removes and returns the piece on `sq`.
    pub fn remove_piece_at(&mut self, sq: Square) -> Option<Piece> {
        let piece = self.piece_at(sq)?;
        self.by_role[piece.role as usize].remove(sq);
        self.by_color[piece.color as usize].remove(sq);
        Some(piece)
    }

    /// Puts `piece` on `sq`, replacing whatever stood there.
    pub fn set_piece_at(&mut self, sq: Square, piece: Piece) {
        self.remove_piece_at(sq);
        self.by_role[piece.role as usize].add(sq);
        self.by_color[piece.color as usize].add(sq);
    }

    /// Toggles a piece known to be on (or known to be absent from) `sq`.
    /// The move code uses it where it already knows what stands where.
    #[inline(always)]
    pub(crate) fn toggle(&mut self, sq: Square, color: Color, role: Role) {
        self.by_role[role as usize].toggle(sq);
        self.by_color[color as usize].toggle(sq);
    }

    /// Removes every piece on `mask` (an Atomic explosion).
    #[inline(always)]
    pub(crate) fn clear_squares(&mut self, mask: Bitboard) {
        for bb in &mut self.by_role {
            *bb = bb.without(mask);
        }
        for bb in &mut self.by_color {
            *bb = bb.without(mask);
        }
    }

    /// Pieces of `attacker` that attack `sq` when `occ` holds the blockers
    /// (kings included).
    #[must_use]
    #[inline(always)]
    pub fn attackers_to(&self, sq: Square, attacker: Color, occ: Bitboard) -> Bitboard {
        let them = self.by_color(attacker);
        them & ((attacks::rook_attacks(sq, occ) & self.rooks_and_queens())
            | (attacks::bishop_attacks(sq, occ) & self.bishops_and_queens())
            | (attacks::knight_attacks(sq) & self.knights())
            | (attacks::king_attacks(sq) & self.kings())
            | (attacks::pawn_attacks(attacker.other(), sq) & self.pawns()))
    }

    /// The placement field of a FEN, rank 8 first.
    #[must_use]
    pub fn board_fen(&self) -> String {
        let mut s = String::with_capacity(72);
        for rank in Rank::ALL.into_iter().rev() {
            let mut empty = 0u8;
            for file in File::ALL {
                match self.piece_at(Square::from_coords(file, rank)) {
                    Some(p) => {
                        if empty > 0 {
                            s.push((b'0' + empty) as char);
                            empty = 0;
                        }
                        s.push(p.char());
                    }
                    None => empty += 1,
                }
            }
            if empty > 0 {
                s.push((b'0' + empty) as char);
            }
            if rank != Rank::First {
                s.push('/');
            }
        }
        s
    }
}

impl fmt::Debug for Board {
    /// The placement in FEN, which reads better than twelve numbers.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Board({})", self.board_fen())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_boards() {
        assert_eq!(
            Board::standard().board_fen(),
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR"
        );
        assert_eq!(
            Board::horde().board_fen(),
            "rnbqkbnr/pppppppp/8/1PP2PP1/PPPPPPPP/PPPPPPPP/PPPPPPPP/PPPPPPPP"
        );
        let b = Board::standard();
        assert_eq!(b.king_of(Color::Black), Some(Square::E8));
        assert_eq!(b.piece_at(Square::D1), Some(Role::Queen.of(Color::White)));
        assert_eq!(b.piece_at(Square::E4), None);
    }

    #[test]
    fn setters_keep_one_piece_per_square() {
        let mut b = Board::standard();
        b.set_piece_at(Square::E1, Role::Queen.of(Color::Black));
        assert_eq!(b.piece_at(Square::E1), Some(Role::Queen.of(Color::Black)));
        assert_eq!(b.king_of(Color::White), None);
        assert_eq!(
            b.remove_piece_at(Square::E1),
            Some(Role::Queen.of(Color::Black))
        );
        assert_eq!(b.occupied().count(), 31);
    }
}
