//! Squares, files and ranks of the 8×8 board.

use core::{fmt, str::FromStr};

/// A file (column), `a` to `h`.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum File {
    /// File a.
    A = 0,
    /// File b.
    B,
    /// File c.
    C,
    /// File d.
    D,
    /// File e.
    E,
    /// File f.
    F,
    /// File g.
    G,
    /// File h.
    H,
}

impl File {
    /// Every file, a to h.
    pub const ALL: [Self; 8] = [
        Self::A,
        Self::B,
        Self::C,
        Self::D,
        Self::E,
        Self::F,
        Self::G,
        Self::H,
    ];

    /// The file with this index (0 = a), if in range.
    #[must_use]
    pub const fn new(index: u32) -> Option<Self> {
        if index < 8 {
            Some(Self::ALL[index as usize])
        } else {
            None
        }
    }

    /// The index, 0 for a to 7 for h.
    #[must_use]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The lower-case letter used in FEN, UCI and SAN.
    #[must_use]
    pub const fn char(self) -> char {
        (b'a' + self as u8) as char
    }

    /// Parses a lower-case file letter.
    #[must_use]
    pub const fn from_char(c: char) -> Option<Self> {
        match c {
            'a'..='h' => Self::new(c as u32 - 'a' as u32),
            _ => None,
        }
    }
}

/// A rank (row), 1 to 8; `First` is White's back rank.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum Rank {
    /// Rank 1.
    First = 0,
    /// Rank 2.
    Second,
    /// Rank 3.
    Third,
    /// Rank 4.
    Fourth,
    /// Rank 5.
    Fifth,
    /// Rank 6.
    Sixth,
    /// Rank 7.
    Seventh,
    /// Rank 8.
    Eighth,
}

impl Rank {
    /// Every rank, 1 to 8.
    pub const ALL: [Self; 8] = [
        Self::First,
        Self::Second,
        Self::Third,
        Self::Fourth,
        Self::Fifth,
        Self::Sixth,
        Self::Seventh,
        Self::Eighth,
    ];

    /// The rank with this index (0 = rank 1), if in range.
    #[must_use]
    pub const fn new(index: u32) -> Option<Self> {
        if index < 8 {
            Some(Self::ALL[index as usize])
        } else {
            None
        }
    }

    /// The index, 0 for rank 1 to 7 for rank 8.
    #[must_use]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The digit used in FEN, UCI and SAN.
    #[must_use]
    pub const fn char(self) -> char {
        (b'1' + self as u8) as char
    }

    /// Parses a rank digit `1` to `8`.
    #[must_use]
    pub const fn from_char(c: char) -> Option<Self> {
        match c {
            '1'..='8' => Self::new(c as u32 - '1' as u32),
            _ => None,
        }
    }

    /// The same rank seen from Black's side (rank 1 ↔ rank 8), so rules
    /// written for White serve both sides.
    #[must_use]
    pub const fn flip(self) -> Self {
        Self::ALL[7 - self as usize]
    }
}

macro_rules! define_squares {
    ($($sq:ident = $i:literal,)*) => {
        /// A square of the 8×8 board, `A1` (index 0) to `H8` (index 63),
        /// rank by rank. A fieldless enum so that every value is a real
        /// square and tables indexed by it need no bounds checks.
        #[derive(Copy, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
        #[repr(u8)]
        pub enum Square {
            $(
                #[doc = concat!("The square ", stringify!($sq), ".")]
                $sq = $i,
            )*
        }

        impl Square {
            /// Every square, a1, b1, …, h8.
            pub const ALL: [Self; 64] = [$(Self::$sq),*];

            /// The square with index `i & 63`. Callers use it only with
            /// an index they proved to be below 64 (a bit position of a
            /// `u64`); the mask makes the match total, and the compiler
            /// turns it into the identity.
            #[inline(always)]
            pub(crate) const fn from_index_masked(i: u32) -> Self {
                match i & 63 {
                    $($i => Self::$sq,)*
                    _ => Self::H8,
                }
            }
        }
    };
}

define_squares! { A1 = 0, B1 = 1, C1 = 2, D1 = 3, E1 = 4, F1 = 5, G1 = 6, H1 = 7, A2 = 8, B2 = 9, C2 = 10, D2 = 11, E2 = 12, F2 = 13, G2 = 14, H2 = 15, A3 = 16, B3 = 17, C3 = 18, D3 = 19, E3 = 20, F3 = 21, G3 = 22, H3 = 23, A4 = 24, B4 = 25, C4 = 26, D4 = 27, E4 = 28, F4 = 29, G4 = 30, H4 = 31, A5 = 32, B5 = 33, C5 = 34, D5 = 35, E5 = 36, F5 = 37, G5 = 38, H5 = 39, A6 = 40, B6 = 41, C6 = 42, D6 = 43, E6 = 44, F6 = 45, G6 = 46, H6 = 47, A7 = 48, B7 = 49, C7 = 50, D7 = 51, E7 = 52, F7 = 53, G7 = 54, H7 = 55, A8 = 56, B8 = 57, C8 = 58, D8 = 59, E8 = 60, F8 = 61, G8 = 62, H8 = 63, }

impl Square {
    /// The square with this index (0 = a1, 63 = h8), if in range.
    #[must_use]
    pub const fn new(index: u32) -> Option<Self> {
        if index < 64 {
            Some(Self::from_index_masked(index))
        } else {
            None
        }
    }

    /// The square on this file and rank; total because both are in range.
    #[must_use]
    pub const fn from_coords(file: File, rank: Rank) -> Self {
        Self::from_index_masked(rank as u32 * 8 + file as u32)
    }

    /// The index, 0 (a1) to 63 (h8).
    #[must_use]
    #[inline(always)]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The file.
    #[must_use]
    pub const fn file(self) -> File {
        File::ALL[self as usize & 7]
    }

    /// The rank.
    #[must_use]
    pub const fn rank(self) -> Rank {
        Rank::ALL[self as usize >> 3]
    }

    /// The square on the same file, mirrored across the middle of the
    /// board (e1 ↔ e8).
    #[must_use]
    pub const fn flip_vertical(self) -> Self {
        Self::from_index_masked(self as u32 ^ 56)
    }

    /// The square `delta` indices away (8 = one rank up), if it exists.
    /// No wrap-around check: callers only move along a file.
    #[must_use]
    pub const fn offset(self, delta: i32) -> Option<Self> {
        let i = self as i32 + delta;
        if i >= 0 && i < 64 {
            Some(Self::from_index_masked(i as u32))
        } else {
            None
        }
    }

    /// `true` for dark squares (a1 is dark).
    #[must_use]
    pub const fn is_dark(self) -> bool {
        (self.file() as u8 + self.rank() as u8).is_multiple_of(2)
    }

    /// Parses a square name such as `e4` from bytes.
    #[must_use]
    pub const fn from_ascii(s: &[u8]) -> Option<Self> {
        if s.len() != 2 {
            return None;
        }
        match (File::from_char(s[0] as char), Rank::from_char(s[1] as char)) {
            (Some(f), Some(r)) => Some(Self::from_coords(f, r)),
            _ => None,
        }
    }
}

/// Every square's name, by index. Names are written for every legal
/// move the server sends after each move; a table lookup is several times
/// cheaper than formatting two characters.
#[rustfmt::skip]
const NAMES: [&str; 64] = ["a1", "b1", "c1", "d1", "e1", "f1", "g1", "h1", "a2", "b2", "c2", "d2", "e2", "f2", "g2", "h2", "a3", "b3", "c3", "d3", "e3", "f3", "g3", "h3", "a4", "b4", "c4", "d4", "e4", "f4", "g4", "h4", "a5", "b5", "c5", "d5", "e5", "f5", "g5", "h5", "a6", "b6", "c6", "d6", "e6", "f6", "g6", "h6", "a7", "b7", "c7", "d7", "e7", "f7", "g7", "h7", "a8", "b8", "c8", "d8", "e8", "f8", "g8", "h8"];

impl Square {
    /// The square's name (`e4`).
    #[must_use]
    pub const fn name(self) -> &'static str {
        NAMES[self as usize]
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl fmt::Debug for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// Text that is not a square name (`a1` … `h8`).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("invalid square {text:?} (expected a file a-h and a rank 1-8)")]
pub struct ParseSquareError {
    /// What was given.
    pub text: String,
}

impl FromStr for Square {
    type Err = ParseSquareError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Self::from_ascii(s.as_bytes()).ok_or_else(|| ParseSquareError { text: s.to_owned() })
    }
}

impl TryFrom<u8> for Square {
    type Error = u8;

    /// Accepts 0 to 63; hands an out-of-range index back.
    fn try_from(value: u8) -> Result<Self, Self::Error> {
        Self::new(u32::from(value)).ok_or(value)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn index_coords_and_names_agree() {
        for (i, sq) in Square::ALL.into_iter().enumerate() {
            assert_eq!(sq.index(), i);
            assert_eq!(Square::new(i as u32), Some(sq));
            assert_eq!(Square::from_coords(sq.file(), sq.rank()), sq);
            assert_eq!(sq.to_string().parse::<Square>(), Ok(sq));
            assert_eq!(sq.flip_vertical().flip_vertical(), sq);
        }
        assert_eq!(Square::new(64), None);
        assert!(Square::try_from(200u8).is_err());
        assert!("i1".parse::<Square>().is_err());
        assert!("a9".parse::<Square>().is_err());
        assert!("a".parse::<Square>().is_err());
        assert_eq!(Square::E4.to_string(), "e4");
        assert!(Square::A1.is_dark());
        assert!(!Square::H1.is_dark());
    }
}
