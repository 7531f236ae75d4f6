//! Sets of squares as 64-bit masks.

use core::{
    fmt,
    ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not},
};

use super::square::{File, Rank, Square};

/// A set of squares, bit `i` standing for [`Square`] index `i` (a1 = bit 0,
/// h8 = bit 63). Every `u64` is a valid set, so the field is public.
///
/// ```text
/// rank 8:  56 57 58 59 60 61 62 63
/// …
/// rank 1:   0  1  2  3  4  5  6  7
///           a  b  c  d  e  f  g  h
/// ```
#[derive(Copy, Clone, Default, PartialEq, Eq, Hash)]
pub struct Bitboard(pub u64);

impl Bitboard {
    /// No square.
    pub const EMPTY: Self = Self(0);
    /// Every square.
    pub const FULL: Self = Self(!0);
    /// The dark squares (a1 is dark).
    pub const DARK_SQUARES: Self = Self(0xaa55_aa55_aa55_aa55);
    /// The light squares.
    pub const LIGHT_SQUARES: Self = Self(!0xaa55_aa55_aa55_aa55);

    /// The squares of one rank.
    #[must_use]
    #[inline(always)]
    pub const fn rank(rank: Rank) -> Self {
        Self(0xff << (8 * rank as u32))
    }

    /// The squares of one file.
    #[must_use]
    #[inline(always)]
    pub const fn file(file: File) -> Self {
        Self(0x0101_0101_0101_0101 << file as u32)
    }

    /// The set holding only `sq`.
    #[must_use]
    #[inline(always)]
    pub const fn from_square(sq: Square) -> Self {
        Self(1 << sq as u32)
    }

    /// `true` when `sq` is in the set.
    #[must_use]
    #[inline(always)]
    pub const fn contains(self, sq: Square) -> bool {
        self.0 & (1 << sq as u32) != 0
    }

    /// `true` when the set has no square.
    #[must_use]
    #[inline(always)]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// `true` when the set has at least one square.
    #[must_use]
    #[inline(always)]
    pub const fn any(self) -> bool {
        self.0 != 0
    }

    /// `true` when the set has two squares or more (double check, for one).
    #[must_use]
    #[inline(always)]
    pub const fn more_than_one(self) -> bool {
        self.0 & self.0.wrapping_sub(1) != 0
    }

    /// The number of squares.
    #[must_use]
    #[inline(always)]
    pub const fn count(self) -> u32 {
        self.0.count_ones()
    }

    /// The lowest square (a1 first, then b1, …), if any.
    #[must_use]
    #[inline(always)]
    pub const fn first(self) -> Option<Square> {
        if self.0 == 0 {
            None
        } else {
            Some(Square::from_index_masked(self.0.trailing_zeros()))
        }
    }

    /// The only square, if the set has exactly one.
    #[must_use]
    pub const fn single_square(self) -> Option<Square> {
        if self.more_than_one() {
            None
        } else {
            self.first()
        }
    }

    /// Adds a square.
    #[inline(always)]
    pub const fn add(&mut self, sq: Square) {
        self.0 |= 1 << sq as u32;
    }

    /// Removes a square.
    #[inline(always)]
    pub const fn remove(&mut self, sq: Square) {
        self.0 &= !(1 << sq as u32);
    }

    /// Adds the square if absent, removes it if present.
    #[inline(always)]
    pub const fn toggle(&mut self, sq: Square) {
        self.0 ^= 1 << sq as u32;
    }

    /// The set with every square moved `n` ranks up (towards rank 8);
    /// squares pushed off the board vanish.
    #[must_use]
    #[inline(always)]
    pub const fn shift_up(self, n: u32) -> Self {
        Self(self.0 << (8 * n))
    }

    /// The set with every square moved `n` ranks down (towards rank 1).
    #[must_use]
    #[inline(always)]
    pub const fn shift_down(self, n: u32) -> Self {
        Self(self.0 >> (8 * n))
    }

    /// The set without the squares of `other`.
    #[must_use]
    #[inline(always)]
    pub const fn without(self, other: Self) -> Self {
        Self(self.0 & !other.0)
    }

    /// The set with every square mirrored rank-wise (a1 ↔ a8).
    #[must_use]
    pub const fn flip_vertical(self) -> Self {
        Self(self.0.swap_bytes())
    }
}

impl From<Square> for Bitboard {
    fn from(sq: Square) -> Self {
        Self::from_square(sq)
    }
}

macro_rules! bit_op {
    ($tr:ident, $f:ident, $tra:ident, $fa:ident, $op:tt) => {
        impl $tr for Bitboard {
            type Output = Self;
            #[inline(always)]
            fn $f(self, rhs: Self) -> Self {
                Self(self.0 $op rhs.0)
            }
        }
        impl $tra for Bitboard {
            #[inline(always)]
            fn $fa(&mut self, rhs: Self) {
                self.0 = self.0 $op rhs.0;
            }
        }
    };
}
bit_op!(BitAnd, bitand, BitAndAssign, bitand_assign, &);
bit_op!(BitOr, bitor, BitOrAssign, bitor_assign, |);
bit_op!(BitXor, bitxor, BitXorAssign, bitxor_assign, ^);

impl Not for Bitboard {
    type Output = Self;
    #[inline(always)]
    fn not(self) -> Self {
        Self(!self.0)
    }
}

/// Iterates over the squares of a set, lowest first.
#[derive(Clone, Debug)]
pub struct IntoIter(u64);

impl Iterator for IntoIter {
    type Item = Square;

    #[inline(always)]
    fn next(&mut self) -> Option<Square> {
        if self.0 == 0 {
            None
        } else {
            let sq = Square::from_index_masked(self.0.trailing_zeros());
            self.0 &= self.0 - 1;
            Some(sq)
        }
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.0.count_ones() as usize;
        (n, Some(n))
    }
}

impl ExactSizeIterator for IntoIter {}

impl IntoIterator for Bitboard {
    type Item = Square;
    type IntoIter = IntoIter;

    #[inline(always)]
    fn into_iter(self) -> IntoIter {
        IntoIter(self.0)
    }
}

impl FromIterator<Square> for Bitboard {
    fn from_iter<I: IntoIterator<Item = Square>>(iter: I) -> Self {
        let mut bb = Self::EMPTY;
        for sq in iter {
            bb.add(sq);
        }
        bb
    }
}

impl fmt::Debug for Bitboard {
    /// Draws the set as a board, rank 8 on top, `1` for a member.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "Bitboard(0x{:016x})", self.0)?;
        for rank in Rank::ALL.into_iter().rev() {
            for file in File::ALL {
                let c = if self.contains(Square::from_coords(file, rank)) {
                    '1'
                } else {
                    '.'
                };
                write!(f, "{c}")?;
            }
            writeln!(f)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn set_operations() {
        let mut bb = Bitboard::EMPTY;
        bb.add(Square::E4);
        bb.add(Square::A1);
        assert_eq!(bb.count(), 2);
        assert!(bb.more_than_one());
        assert_eq!(bb.first(), Some(Square::A1));
        assert_eq!(
            bb.into_iter().collect::<Vec<_>>(),
            vec![Square::A1, Square::E4]
        );
        bb.remove(Square::A1);
        assert_eq!(bb.single_square(), Some(Square::E4));
        assert_eq!(bb.shift_up(1), Bitboard::from_square(Square::E5));
        assert_eq!(Bitboard::rank(Rank::Eighth).shift_up(1), Bitboard::EMPTY);
        assert_eq!(Bitboard::file(File::H).count(), 8);
        assert_eq!(
            (Bitboard::DARK_SQUARES | Bitboard::LIGHT_SQUARES),
            Bitboard::FULL
        );
        assert!(Bitboard::DARK_SQUARES.contains(Square::A1));
    }
}
