//! Kinds of pieces and coloured pieces.

use core::fmt;

use crate::Color;

/// A kind of piece.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum Role {
    /// General (king): one orthogonal step inside the palace.
    General = 0,
    /// Advisor: one diagonal step inside the palace.
    Advisor = 1,
    /// Elephant: two diagonal steps over an empty eye, never across the river.
    Elephant = 2,
    /// Horse: one orthogonal step over an empty leg, then one diagonal step.
    Horse = 3,
    /// Chariot: slides orthogonally.
    Chariot = 4,
    /// Cannon: slides orthogonally, captures over exactly one screen.
    Cannon = 5,
    /// Soldier: forward, and sideways once across the river.
    Soldier = 6,
}

impl Role {
    /// All roles, general first.
    pub const ALL: [Self; 7] = [
        Self::General,
        Self::Advisor,
        Self::Elephant,
        Self::Horse,
        Self::Chariot,
        Self::Cannon,
        Self::Soldier,
    ];

    /// Index `0..7`, for per-role tables.
    #[must_use]
    #[inline(always)]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The lower-case FEN letter as Fairy-Stockfish writes it (`k a b n r c p`).
    #[must_use]
    pub const fn char(self) -> char {
        match self {
            Self::General => 'k',
            Self::Advisor => 'a',
            Self::Elephant => 'b',
            Self::Horse => 'n',
            Self::Chariot => 'r',
            Self::Cannon => 'c',
            Self::Soldier => 'p',
        }
    }

    /// Parses a FEN letter of either case, accepting Fairy-Stockfish's
    /// aliases `e` (elephant) and `h` (horse).
    #[must_use]
    pub const fn from_char(c: char) -> Option<Self> {
        match c.to_ascii_lowercase() {
            'k' => Some(Self::General),
            'a' => Some(Self::Advisor),
            'b' | 'e' => Some(Self::Elephant),
            'n' | 'h' => Some(Self::Horse),
            'r' => Some(Self::Chariot),
            'c' => Some(Self::Cannon),
            'p' => Some(Self::Soldier),
            _ => None,
        }
    }

    /// The upper-case WXF letter (`K A E H R C P`).
    #[must_use]
    pub const fn wxf_char(self) -> char {
        match self {
            Self::General => 'K',
            Self::Advisor => 'A',
            Self::Elephant => 'E',
            Self::Horse => 'H',
            Self::Chariot => 'R',
            Self::Cannon => 'C',
            Self::Soldier => 'P',
        }
    }

    /// Parses a WXF letter (upper case; `B`/`N` also accepted for E/H).
    #[must_use]
    pub const fn from_wxf_char(c: char) -> Option<Self> {
        match c {
            'K' | 'G' => Some(Self::General),
            'A' => Some(Self::Advisor),
            'E' | 'B' => Some(Self::Elephant),
            'H' | 'N' => Some(Self::Horse),
            'R' => Some(Self::Chariot),
            'C' => Some(Self::Cannon),
            'P' => Some(Self::Soldier),
            _ => None,
        }
    }

    /// The most pieces of this kind a side has in the start position, and so
    /// in any reachable position (soldiers never promote).
    #[must_use]
    pub const fn max_count(self) -> u32 {
        match self {
            Self::General => 1,
            Self::Soldier => 5,
            _ => 2,
        }
    }
}

/// A piece: a role of one side.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Piece {
    /// Its side (Red = [`Color::White`]).
    pub color: Color,
    /// Its kind.
    pub role: Role,
}

impl Piece {
    /// Builds a piece.
    #[must_use]
    pub const fn new(color: Color, role: Role) -> Self {
        Self { color, role }
    }

    /// The FEN letter: upper case for Red, lower case for Black.
    #[must_use]
    pub const fn char(self) -> char {
        let c = self.role.char();
        match self.color {
            Color::White => c.to_ascii_uppercase(),
            Color::Black => c,
        }
    }

    /// Parses a FEN letter (aliases `E`/`H` accepted).
    #[must_use]
    pub const fn from_char(c: char) -> Option<Self> {
        let color = if c.is_ascii_uppercase() {
            Color::White
        } else {
            Color::Black
        };
        match Role::from_char(c) {
            Some(role) => Some(Self { color, role }),
            None => None,
        }
    }

    /// Compact code `1..=14` used by the board's mailbox (0 = empty).
    #[inline(always)]
    pub(crate) const fn code(self) -> u8 {
        1 + self.color as u8 * 7 + self.role as u8
    }

    /// Inverse of [`Piece::code`] for a non-zero code.
    #[inline(always)]
    pub(crate) const fn from_code(code: u8) -> Option<Self> {
        if code == 0 || code > 14 {
            return None;
        }
        let i = code - 1;
        let color = if i >= 7 { Color::Black } else { Color::White };
        Some(Self {
            color,
            role: Role::ALL[(i % 7) as usize],
        })
    }
}

impl fmt::Display for Piece {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.char())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chars_and_codes_round_trip() {
        for color in Color::ALL {
            for role in Role::ALL {
                let p = Piece::new(color, role);
                assert_eq!(Piece::from_char(p.char()), Some(p));
                assert_eq!(Piece::from_code(p.code()), Some(p));
                assert_eq!(Role::from_wxf_char(role.wxf_char()), Some(role));
            }
        }
        assert_eq!(
            Piece::from_char('E'),
            Some(Piece::new(Color::White, Role::Elephant))
        );
        assert_eq!(
            Piece::from_char('h'),
            Some(Piece::new(Color::Black, Role::Horse))
        );
        assert_eq!(Piece::from_char('q'), None);
        assert_eq!(Piece::from_code(0), None);
    }
}
