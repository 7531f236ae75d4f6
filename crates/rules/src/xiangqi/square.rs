//! Files, ranks and the 90 points of the board.

use core::fmt;

use crate::Color;

/// A file (column), `a` on Red's left to `i` on Red's right.
///
/// Range-typed so that [`Square::from_coords`] needs no check.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum File {
    /// File `a` (Red's file 9, Black's file 1).
    A = 0,
    /// File `b`.
    B,
    /// File `c`.
    C,
    /// File `d`.
    D,
    /// File `e`, the central file through both palaces.
    E,
    /// File `f`.
    F,
    /// File `g`.
    G,
    /// File `h`.
    H,
    /// File `i` (Red's file 1, Black's file 9).
    I,
}

impl File {
    /// All files, `a` first.
    pub const ALL: [Self; 9] = [
        Self::A,
        Self::B,
        Self::C,
        Self::D,
        Self::E,
        Self::F,
        Self::G,
        Self::H,
        Self::I,
    ];

    /// The file with index `0..9`, `None` beyond.
    #[must_use]
    pub const fn new(index: u8) -> Option<Self> {
        if index < 9 {
            Some(Self::ALL[index as usize])
        } else {
            None
        }
    }

    /// Index `0..9` (`a` = 0).
    #[must_use]
    pub const fn index(self) -> u8 {
        self as u8
    }

    /// The letter `a`..`i`.
    #[must_use]
    pub const fn char(self) -> char {
        (b'a' + self as u8) as char
    }

    /// Parses `a`..`i`.
    #[must_use]
    pub const fn from_char(c: char) -> Option<Self> {
        match c {
            'a'..='i' => Self::new(c as u8 - b'a'),
            _ => None,
        }
    }

    /// The file as numbered in WXF notation by `color`: 1..9 from that
    /// player's right (Red's 1 is `i`, Black's 1 is `a`).
    #[must_use]
    pub const fn wxf_number(self, color: Color) -> u8 {
        match color {
            Color::White => 9 - self as u8,
            Color::Black => self as u8 + 1,
        }
    }

    /// The file that `color` numbers `n` (1..=9) in WXF notation.
    #[must_use]
    pub const fn from_wxf_number(color: Color, n: u8) -> Option<Self> {
        if n < 1 || n > 9 {
            return None;
        }
        match color {
            Color::White => Self::new(9 - n),
            Color::Black => Self::new(n - 1),
        }
    }
}

impl fmt::Display for File {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.char())
    }
}

/// A rank (row), `1` on Red's side to `10` on Black's side.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum Rank {
    /// Rank 1, Red's back rank.
    First = 0,
    /// Rank 2.
    Second,
    /// Rank 3.
    Third,
    /// Rank 4, where Red's soldiers start.
    Fourth,
    /// Rank 5, the last rank on Red's side of the river.
    Fifth,
    /// Rank 6, the first rank on Black's side of the river.
    Sixth,
    /// Rank 7, where Black's soldiers start.
    Seventh,
    /// Rank 8.
    Eighth,
    /// Rank 9.
    Ninth,
    /// Rank 10, Black's back rank.
    Tenth,
}

impl Rank {
    /// All ranks, rank 1 first.
    pub const ALL: [Self; 10] = [
        Self::First,
        Self::Second,
        Self::Third,
        Self::Fourth,
        Self::Fifth,
        Self::Sixth,
        Self::Seventh,
        Self::Eighth,
        Self::Ninth,
        Self::Tenth,
    ];

    /// The rank with index `0..10` (rank 1 = 0), `None` beyond.
    #[must_use]
    pub const fn new(index: u8) -> Option<Self> {
        if index < 10 {
            Some(Self::ALL[index as usize])
        } else {
            None
        }
    }

    /// Index `0..10` (rank 1 = 0).
    #[must_use]
    pub const fn index(self) -> u8 {
        self as u8
    }

    /// The number written in coordinates, `1..=10`.
    #[must_use]
    pub const fn number(self) -> u8 {
        self as u8 + 1
    }

    /// `true` when the rank lies on `color`'s own side of the river.
    #[must_use]
    pub const fn is_own_half(self, color: Color) -> bool {
        match color {
            Color::White => (self as u8) < 5,
            Color::Black => (self as u8) >= 5,
        }
    }
}

impl fmt::Display for Rank {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.number())
    }
}

/// A point of the 9×10 board, `a1` (Red's left corner) to `i10`.
///
/// The index is `rank * 9 + file`; the private field keeps it below 90.
#[derive(Copy, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square(u8);

impl Square {
    /// Number of points on the board.
    pub const COUNT: usize = 90;

    /// The square with this index (`a1` = 0, `i10` = 89), `None` from 90 on.
    #[must_use]
    pub const fn new(index: u8) -> Option<Self> {
        if index < 90 { Some(Self(index)) } else { None }
    }

    /// Builds from an index the caller has already proved to be below 90.
    /// Private so that no public path can create an out-of-range square.
    #[inline(always)]
    pub(crate) const fn from_index_unchecked(index: u8) -> Self {
        debug_assert!(index < 90);
        Self(index)
    }

    /// The square of a file and a rank; infallible because both are
    /// range-typed.
    #[must_use]
    pub const fn from_coords(file: File, rank: Rank) -> Self {
        Self(rank as u8 * 9 + file as u8)
    }

    /// Index `0..90`.
    #[must_use]
    #[inline(always)]
    pub const fn index(self) -> u8 {
        self.0
    }

    /// The file.
    #[must_use]
    pub const fn file(self) -> File {
        File::ALL[(self.0 % 9) as usize]
    }

    /// The rank.
    #[must_use]
    pub const fn rank(self) -> Rank {
        Rank::ALL[(self.0 / 9) as usize]
    }

    /// The square `df` files and `dr` ranks away, `None` off the board.
    #[must_use]
    pub const fn offset(self, df: i8, dr: i8) -> Option<Self> {
        let f = (self.0 % 9) as i8 + df;
        let r = (self.0 / 9) as i8 + dr;
        if f < 0 || f >= 9 || r < 0 || r >= 10 {
            None
        } else {
            Some(Self((r * 9 + f) as u8))
        }
    }

    /// `true` inside `color`'s palace (files d..f, ranks 1..3 for Red,
    /// 8..10 for Black).
    #[must_use]
    pub const fn in_palace(self, color: Color) -> bool {
        let f = self.0 % 9;
        let r = self.0 / 9;
        f >= 3
            && f <= 5
            && match color {
                Color::White => r <= 2,
                Color::Black => r >= 7,
            }
    }

    /// `true` on `color`'s own side of the river.
    #[must_use]
    pub const fn is_own_half(self, color: Color) -> bool {
        self.rank().is_own_half(color)
    }

    /// The same point seen from the other side (rotated by 180°), used to
    /// share tables between Red and Black.
    #[must_use]
    pub const fn flip(self) -> Self {
        Self(89 - self.0)
    }

    /// Parses coordinates such as `e1`, `b10` (ranks 1..=10).
    ///
    /// # Errors
    ///
    /// [`ParseSquareError`] when the text is not exactly a file letter
    /// followed by a rank number.
    pub fn from_ascii(s: &[u8]) -> Result<Self, ParseSquareError> {
        let err = || ParseSquareError {
            text: String::from_utf8_lossy(s).into_owned(),
        };
        let (&f, rest) = s.split_first().ok_or_else(err)?;
        let file = File::from_char(f as char).ok_or_else(err)?;
        let rank = match rest {
            [d @ b'1'..=b'9'] => d - b'1',
            [b'1', b'0'] => 9,
            _ => return Err(err()),
        };
        Rank::new(rank)
            .map(|r| Self::from_coords(file, r))
            .ok_or_else(err)
    }

    /// Every square, `a1` first.
    pub fn all() -> impl Iterator<Item = Self> {
        (0..90u8).map(Self)
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.file(), self.rank())
    }
}

impl fmt::Debug for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.file(), self.rank())
    }
}

impl core::str::FromStr for Square {
    type Err = ParseSquareError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Self::from_ascii(s.as_bytes())
    }
}

impl TryFrom<u8> for Square {
    type Error = SquareIndexError;
    fn try_from(index: u8) -> Result<Self, Self::Error> {
        Self::new(index).ok_or(SquareIndexError { index })
    }
}

/// Text that is not a square name such as `e1` or `b10`.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("invalid xiangqi square {text:?} (expected a..i followed by 1..10)")]
pub struct ParseSquareError {
    /// What was given.
    pub text: String,
}

/// A square index outside `0..90`.
#[derive(Copy, Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("square index {index} out of range 0..90")]
pub struct SquareIndexError {
    /// What was given.
    pub index: u8,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for sq in Square::all() {
            let name = sq.to_string();
            assert_eq!(name.parse::<Square>(), Ok(sq));
            assert_eq!(Square::from_coords(sq.file(), sq.rank()), sq);
        }
        assert_eq!(Square::new(0).map(|s| s.to_string()), Some("a1".into()));
        assert_eq!(Square::new(89).map(|s| s.to_string()), Some("i10".into()));
        for bad in ["", "a", "a0", "a11", "j1", "a01", "a100", "A1", "a1 "] {
            assert!(bad.parse::<Square>().is_err(), "{bad}");
        }
        assert!(Square::try_from(90).is_err());
    }

    #[test]
    fn wxf_files() {
        assert_eq!(File::I.wxf_number(Color::White), 1);
        assert_eq!(File::A.wxf_number(Color::Black), 1);
        for f in File::ALL {
            for c in Color::ALL {
                assert_eq!(File::from_wxf_number(c, f.wxf_number(c)), Some(f));
            }
        }
        assert_eq!(File::from_wxf_number(Color::White, 0), None);
        assert_eq!(File::from_wxf_number(Color::White, 10), None);
    }

    #[test]
    fn palace_and_halves() {
        let e2: Square = "e2".parse().unwrap_or_else(|_| unreachable!());
        assert!(e2.in_palace(Color::White) && !e2.in_palace(Color::Black));
        let count = |c| Square::all().filter(|s| s.in_palace(c)).count();
        assert_eq!((count(Color::White), count(Color::Black)), (9, 9));
        assert_eq!(
            Square::all()
                .filter(|s| s.is_own_half(Color::White))
                .count(),
            45
        );
    }
}
