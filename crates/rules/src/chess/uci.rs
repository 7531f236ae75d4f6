//! Moves in UCI coordinates, parsed in two steps: text to [`UciMove`]
//! (syntax), then [`UciMove::to_move`] against a position (legality).

use core::{
    fmt::{self, Write as _},
    str::FromStr,
};

use super::{moves::Move, position::Position, role::Role, rules::Rules, square::Square};

/// A move as UCI writes it: from, to and an optional promotion letter.
/// Any combination is a well-formed UCI move; whether it is legal depends
/// on the position.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct UciMove {
    /// Where the piece starts.
    pub from: Square,
    /// Where it goes (the king's destination for castling).
    pub to: Square,
    /// The promotion role, if any.
    pub promotion: Option<Role>,
}

/// Text that is not a UCI move.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ParseUciMoveError {
    /// Not 4 or 5 characters.
    #[error("uci move {text:?} must have 4 or 5 characters")]
    WrongLength {
        /// What was given.
        text: String,
    },
    /// The first or second square is not `a1`…`h8`.
    #[error("uci move {text:?} has an invalid square")]
    InvalidSquare {
        /// What was given.
        text: String,
    },
    /// The fifth character is not one of `q r b n`.
    #[error("uci move {text:?} has an invalid promotion (expected q, r, b or n)")]
    InvalidPromotion {
        /// What was given.
        text: String,
    },
}

/// A well-formed UCI move that is not legal in the position.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("illegal move {uci} in {fen}")]
pub struct IllegalUciMoveError {
    /// The move.
    pub uci: UciMove,
    /// The position, as FEN.
    pub fen: String,
}

impl UciMove {
    /// Parses `e2e4`, `e7e8q` (promotion letter lower case).
    ///
    /// # Errors
    ///
    /// [`ParseUciMoveError`] saying what is malformed.
    pub fn from_ascii(text: &[u8]) -> Result<Self, ParseUciMoveError> {
        let owned = || String::from_utf8_lossy(text).into_owned();
        if text.len() != 4 && text.len() != 5 {
            return Err(ParseUciMoveError::WrongLength { text: owned() });
        }
        let (Some(from), Some(to)) = (
            Square::from_ascii(&text[0..2]),
            Square::from_ascii(&text[2..4]),
        ) else {
            return Err(ParseUciMoveError::InvalidSquare { text: owned() });
        };
        let promotion = match text.get(4) {
            None => None,
            Some(b'q') => Some(Role::Queen),
            Some(b'r') => Some(Role::Rook),
            Some(b'b') => Some(Role::Bishop),
            Some(b'n') => Some(Role::Knight),
            Some(_) => return Err(ParseUciMoveError::InvalidPromotion { text: owned() }),
        };
        Ok(Self {
            from,
            to,
            promotion,
        })
    }

    /// The legal move of `pos` this UCI move names.
    ///
    /// # Errors
    ///
    /// [`IllegalUciMoveError`] when no legal move matches.
    pub fn to_move<R: Rules>(&self, pos: &Position<R>) -> Result<Move, IllegalUciMoveError> {
        pos.legal_moves()
            .into_iter()
            .find(|m| m.from() == self.from && m.to() == self.to && m.promotion() == self.promotion)
            .ok_or_else(|| IllegalUciMoveError {
                uci: *self,
                fen: pos.fen(),
            })
    }
}

impl FromStr for UciMove {
    type Err = ParseUciMoveError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Self::from_ascii(s.as_bytes())
    }
}

impl fmt::Display for UciMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.from.name())?;
        f.write_str(self.to.name())?;
        if let Some(p) = self.promotion {
            f.write_char(p.char())?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parse_and_print() {
        for text in ["e2e4", "e7e8q", "a7a8n", "e1g1"] {
            assert_eq!(text.parse::<UciMove>().unwrap().to_string(), text);
        }
        assert!(matches!(
            "e2e".parse::<UciMove>(),
            Err(ParseUciMoveError::WrongLength { .. })
        ));
        assert!(matches!(
            "e2e4qq".parse::<UciMove>(),
            Err(ParseUciMoveError::WrongLength { .. })
        ));
        assert!(matches!(
            "e9e4".parse::<UciMove>(),
            Err(ParseUciMoveError::InvalidSquare { .. })
        ));
        assert!(matches!(
            "e7e8k".parse::<UciMove>(),
            Err(ParseUciMoveError::InvalidPromotion { .. })
        ));
        assert!(matches!(
            "e7e8Q".parse::<UciMove>(),
            Err(ParseUciMoveError::InvalidPromotion { .. })
        ));
        assert!(matches!(
            "é2e4".parse::<UciMove>(),
            Err(ParseUciMoveError::InvalidSquare { .. })
        ));
    }
}
