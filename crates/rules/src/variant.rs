//! The four games.

use core::{fmt, str::FromStr};

/// One of the games chessplayx plays. Names follow Fairy-Stockfish's
/// `UCI_Variant` values so any tool that drives Fairy-Stockfish drives us.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "lowercase"))]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub enum Variant {
    /// Standard chess (FIDE).
    Chess,
    /// Horde: 36 white pawns against Black's usual army.
    Horde,
    /// Atomic: captures explode.
    Atomic,
    /// Xiangqi under the Asian (Club Xiangqi) rules.
    Xiangqi,
}

impl Variant {
    /// Every variant, in the order the product lists them.
    pub const ALL: [Self; 4] = [Self::Chess, Self::Horde, Self::Atomic, Self::Xiangqi];

    /// The Fairy-Stockfish / UCI name.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Self::Chess => "chess",
            Self::Horde => "horde",
            Self::Atomic => "atomic",
            Self::Xiangqi => "xiangqi",
        }
    }

    /// The value of the PGN `Variant` tag, as lichess writes it.
    #[must_use]
    pub const fn pgn_name(self) -> &'static str {
        match self {
            Self::Chess => "Standard",
            Self::Horde => "Horde",
            Self::Atomic => "Atomic",
            Self::Xiangqi => "Xiangqi",
        }
    }

    /// The start position in FEN.
    #[must_use]
    pub const fn start_fen(self) -> &'static str {
        match self {
            Self::Chess | Self::Atomic => {
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
            }
            Self::Horde => {
                "rnbqkbnr/pppppppp/8/1PP2PP1/PPPPPPPP/PPPPPPPP/PPPPPPPP/PPPPPPPP w kq - 0 1"
            }
            Self::Xiangqi => {
                "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1"
            }
        }
    }

    /// `true` for the games on the 8×8 board.
    #[must_use]
    pub const fn is_chess_family(self) -> bool {
        !matches!(self, Self::Xiangqi)
    }
}

impl fmt::Display for Variant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A variant name that is not one of ours.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown variant {name:?} (expected chess, horde, atomic or xiangqi)")]
pub struct ParseVariantError {
    /// What was given.
    pub name: String,
}

impl FromStr for Variant {
    type Err = ParseVariantError;

    /// Accepts the UCI names case-insensitively, plus `standard` for chess
    /// (lichess's name for it).
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let lower = s.trim().to_ascii_lowercase();
        match lower.as_str() {
            "chess" | "standard" => Ok(Self::Chess),
            "horde" => Ok(Self::Horde),
            "atomic" => Ok(Self::Atomic),
            "xiangqi" => Ok(Self::Xiangqi),
            _ => Err(ParseVariantError { name: s.to_owned() }),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for v in Variant::ALL {
            assert_eq!(v.name().parse::<Variant>(), Ok(v));
            assert_eq!(v.to_string(), v.name());
        }
        assert_eq!("Standard".parse::<Variant>(), Ok(Variant::Chess));
        assert!("crazyhouse".parse::<Variant>().is_err());
    }
}
