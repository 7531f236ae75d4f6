//! Sides and per-side containers.

use core::ops::Not;

/// A side. In Xiangqi, Red plays the part of White: it moves first and is
/// written `w` in FEN, as Fairy-Stockfish does.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "lowercase"))]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub enum Color {
    /// The side that moves first (Red in Xiangqi).
    White = 0,
    /// The side that moves second.
    Black = 1,
}

impl Color {
    /// Both sides, White first.
    pub const ALL: [Self; 2] = [Self::White, Self::Black];

    /// The opponent.
    #[must_use]
    pub const fn other(self) -> Self {
        match self {
            Self::White => Self::Black,
            Self::Black => Self::White,
        }
    }

    /// `true` for White.
    #[must_use]
    pub const fn is_white(self) -> bool {
        matches!(self, Self::White)
    }

    /// Picks one of two values by side, without branching on a table.
    #[must_use]
    pub fn fold_wb<T>(self, white: T, black: T) -> T {
        match self {
            Self::White => white,
            Self::Black => black,
        }
    }

    /// The FEN letter: `w` or `b`.
    #[must_use]
    pub const fn char(self) -> char {
        match self {
            Self::White => 'w',
            Self::Black => 'b',
        }
    }

    /// Parses a FEN side letter (`w` or `b`).
    #[must_use]
    pub const fn from_char(c: char) -> Option<Self> {
        match c {
            'w' => Some(Self::White),
            'b' => Some(Self::Black),
            _ => None,
        }
    }

    /// The lower-case English name used in JSON: `white` or `black`.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Self::White => "white",
            Self::Black => "black",
        }
    }
}

impl Not for Color {
    type Output = Self;
    fn not(self) -> Self {
        self.other()
    }
}

impl core::fmt::Display for Color {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(self.name())
    }
}

/// One value per side, indexed by [`Color`] rather than by a bare `usize`,
/// so a side can never be confused with another index.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct ByColor<T> {
    /// White's value.
    pub white: T,
    /// Black's value.
    pub black: T,
}

impl<T> ByColor<T> {
    /// Builds from both values.
    pub const fn new(white: T, black: T) -> Self {
        Self { white, black }
    }

    /// The value of one side.
    pub const fn get(&self, color: Color) -> &T {
        match color {
            Color::White => &self.white,
            Color::Black => &self.black,
        }
    }

    /// The value of one side, mutably.
    pub const fn get_mut(&mut self, color: Color) -> &mut T {
        match color {
            Color::White => &mut self.white,
            Color::Black => &mut self.black,
        }
    }

    /// Applies `f` to both values.
    pub fn map<U>(self, mut f: impl FnMut(T) -> U) -> ByColor<U> {
        ByColor {
            white: f(self.white),
            black: f(self.black),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn other_and_chars_round_trip() {
        for c in Color::ALL {
            assert_eq!(c.other().other(), c);
            assert_ne!(c.other(), c);
            assert_eq!(Color::from_char(c.char()), Some(c));
        }
        assert_eq!(Color::from_char('x'), None);
    }

    #[test]
    fn by_color_indexes_each_side() {
        let mut b = ByColor::new(1, 2);
        *b.get_mut(Color::Black) += 10;
        assert_eq!((*b.get(Color::White), *b.get(Color::Black)), (1, 12));
        assert_eq!(b.map(|x| x * 2), ByColor::new(2, 24));
    }
}
