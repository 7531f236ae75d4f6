//! A set of points as a 128-bit integer.

use core::{
    fmt,
    ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not, Sub},
};

use super::Square;

/// A set of squares: bit `i` is the square with index `i`. Only the low 90
/// bits can be set; the field is private so no value outside the board can
/// be built.
///
/// ```text
/// rank 10 | 81 ... 89
///   ...
/// rank  1 |  0 ...  8      (bit = rank * 9 + file)
/// ```
#[derive(Copy, Clone, Default, PartialEq, Eq, Hash)]
pub struct Bitboard(pub(crate) u128);

/// The 90 board bits.
pub(crate) const FULL: u128 = (1u128 << 90) - 1;

impl Bitboard {
    /// The empty set.
    pub const EMPTY: Self = Self(0);
    /// All 90 points.
    pub const FULL: Self = Self(FULL);

    /// Builds from raw bits, `None` if a bit at 90 or above is set.
    #[must_use]
    pub const fn try_from_u128(bits: u128) -> Option<Self> {
        if bits & !FULL == 0 {
            Some(Self(bits))
        } else {
            None
        }
    }

    /// The raw bits (only the low 90 can be set).
    #[must_use]
    pub const fn to_u128(self) -> u128 {
        self.0
    }

    /// The set of one square.
    #[must_use]
    #[inline(always)]
    pub const fn from_square(sq: Square) -> Self {
        Self(1u128 << sq.index())
    }

    /// `true` when `sq` is in the set.
    #[must_use]
    #[inline(always)]
    pub const fn contains(self, sq: Square) -> bool {
        self.0 >> sq.index() & 1 != 0
    }

    /// `true` when no square is in the set.
    #[must_use]
    #[inline(always)]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// `true` when at least one square is in the set.
    #[must_use]
    #[inline(always)]
    pub const fn any(self) -> bool {
        self.0 != 0
    }

    /// Number of squares in the set.
    #[must_use]
    #[inline(always)]
    pub const fn count(self) -> u32 {
        self.0.count_ones()
    }

    /// `true` when the set has two or more squares.
    #[must_use]
    #[inline(always)]
    pub const fn more_than_one(self) -> bool {
        self.0 & self.0.wrapping_sub(1) != 0
    }

    /// The lowest square (`a1` side), if any.
    #[must_use]
    #[inline(always)]
    pub const fn first(self) -> Option<Square> {
        if self.0 == 0 {
            None
        } else {
            Some(Square::from_index_unchecked(self.0.trailing_zeros() as u8))
        }
    }

    /// The highest square (`i10` side), if any.
    #[must_use]
    #[inline(always)]
    pub const fn last(self) -> Option<Square> {
        if self.0 == 0 {
            None
        } else {
            Some(Square::from_index_unchecked(
                127 - self.0.leading_zeros() as u8,
            ))
        }
    }

    /// The set plus `sq`.
    #[must_use]
    #[inline(always)]
    pub const fn with(self, sq: Square) -> Self {
        Self(self.0 | 1u128 << sq.index())
    }

    /// The set minus `sq`.
    #[must_use]
    #[inline(always)]
    pub const fn without(self, sq: Square) -> Self {
        Self(self.0 & !(1u128 << sq.index()))
    }

    /// Adds `sq`.
    #[inline(always)]
    pub fn add(&mut self, sq: Square) {
        self.0 |= 1u128 << sq.index();
    }

    /// Removes `sq`.
    #[inline(always)]
    pub fn discard(&mut self, sq: Square) {
        self.0 &= !(1u128 << sq.index());
    }

    /// Toggles `sq`.
    #[inline(always)]
    pub fn toggle(&mut self, sq: Square) {
        self.0 ^= 1u128 << sq.index();
    }

    /// `true` when the two sets share a square.
    #[must_use]
    #[inline(always)]
    pub const fn intersects(self, other: Self) -> bool {
        self.0 & other.0 != 0
    }

    /// Removes and returns the lowest square.
    #[inline(always)]
    pub fn pop_first(&mut self) -> Option<Square> {
        let sq = self.first()?;
        self.0 &= self.0 - 1;
        Some(sq)
    }
}

impl Iterator for Bitboard {
    type Item = Square;
    #[inline(always)]
    fn next(&mut self) -> Option<Square> {
        self.pop_first()
    }
    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.count() as usize;
        (n, Some(n))
    }
}

impl ExactSizeIterator for Bitboard {}

impl FromIterator<Square> for Bitboard {
    fn from_iter<T: IntoIterator<Item = Square>>(iter: T) -> Self {
        let mut bb = Self::EMPTY;
        for sq in iter {
            bb.add(sq);
        }
        bb
    }
}

impl From<Square> for Bitboard {
    fn from(sq: Square) -> Self {
        Self::from_square(sq)
    }
}

macro_rules! binop {
    ($trait:ident, $f:ident, $atrait:ident, $af:ident, $op:tt) => {
        impl $trait for Bitboard {
            type Output = Self;
            #[inline(always)]
            fn $f(self, rhs: Self) -> Self {
                Self(self.0 $op rhs.0)
            }
        }
        impl $atrait for Bitboard {
            #[inline(always)]
            fn $af(&mut self, rhs: Self) {
                self.0 = self.0 $op rhs.0;
            }
        }
    };
}
binop!(BitAnd, bitand, BitAndAssign, bitand_assign, &);
binop!(BitOr, bitor, BitOrAssign, bitor_assign, |);
binop!(BitXor, bitxor, BitXorAssign, bitxor_assign, ^);

impl Sub for Bitboard {
    type Output = Self;
    /// Set difference.
    #[inline(always)]
    fn sub(self, rhs: Self) -> Self {
        Self(self.0 & !rhs.0)
    }
}

impl Not for Bitboard {
    type Output = Self;
    /// Complement within the 90 points.
    #[inline(always)]
    fn not(self) -> Self {
        Self(!self.0 & FULL)
    }
}

impl fmt::Debug for Bitboard {
    /// Draws the board, rank 10 on top, as shakmaty does for 8×8.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for rank in (0..10u8).rev() {
            for file in 0..9u8 {
                let bit = self.0 >> (rank * 9 + file) & 1;
                f.write_str(if bit != 0 { "1" } else { "." })?;
                f.write_str(if file < 8 { " " } else { "\n" })?;
            }
        }
        Ok(())
    }
}
