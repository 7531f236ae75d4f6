//! UCI coordinate moves (`h3e3`, `b10c8`), parsed in two steps.

use core::{fmt, str::FromStr};

use super::{Move, Square, Xiangqi};

/// A syntactically valid coordinate move, not yet checked against a
/// position.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct UciMove {
    /// Origin.
    pub from: Square,
    /// Destination.
    pub to: Square,
}

/// Text that is not a coordinate move `<file><rank><file><rank>` with
/// files `a..i` and ranks `1..10`.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("invalid xiangqi uci move {text:?}")]
pub struct ParseUciMoveError {
    /// What was given.
    pub text: String,
}

/// A well-formed coordinate move that the position does not allow.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum IllegalUciMoveError {
    /// The origin holds no piece of the side to move.
    #[error("no piece of the side to move on {from}")]
    NoPiece {
        /// The origin.
        from: Square,
    },
    /// The piece cannot go there, or doing so exposes its general.
    #[error("illegal move {uci}")]
    Illegal {
        /// The move.
        uci: UciMove,
    },
}

impl UciMove {
    /// Parses `<from><to>`; ranks are `1..=10`, so the text has 4 to 6
    /// characters.
    ///
    /// # Errors
    ///
    /// [`ParseUciMoveError`] when the text is not exactly two squares.
    pub fn from_ascii(s: &[u8]) -> Result<Self, ParseUciMoveError> {
        let err = || ParseUciMoveError {
            text: String::from_utf8_lossy(s).into_owned(),
        };
        if !(4..=6).contains(&s.len()) {
            return Err(err());
        }
        // The second square starts at the second file letter.
        let split = s
            .iter()
            .skip(1)
            .position(u8::is_ascii_alphabetic)
            .ok_or_else(err)?
            + 1;
        let from = Square::from_ascii(&s[..split]).map_err(|_| err())?;
        let to = Square::from_ascii(&s[split..]).map_err(|_| err())?;
        Ok(Self { from, to })
    }

    /// Parses coordinates from text (see [`UciMove::from_ascii`]).
    ///
    /// # Errors
    ///
    /// [`ParseUciMoveError`] when the text is not exactly two squares.
    pub fn parse(text: &str) -> Result<Self, ParseUciMoveError> {
        Self::from_ascii(text.as_bytes())
    }

    /// Checks the move against `pos`.
    ///
    /// # Errors
    ///
    /// [`IllegalUciMoveError`] when the move is not legal there.
    pub fn to_move(self, pos: &Xiangqi) -> Result<Move, IllegalUciMoveError> {
        match pos.piece_at(self.from) {
            Some(p) if p.color == pos.turn() => {}
            _ => return Err(IllegalUciMoveError::NoPiece { from: self.from }),
        }
        let mv = Move::new(self.from, self.to);
        if pos.is_legal(mv) {
            Ok(mv)
        } else {
            Err(IllegalUciMoveError::Illegal { uci: self })
        }
    }
}

impl From<Move> for UciMove {
    fn from(mv: Move) -> Self {
        Self {
            from: mv.from(),
            to: mv.to(),
        }
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
        write!(f, "{}{}", self.from, self.to)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn syntax() {
        for ok in ["h3e3", "b10c8", "a10a1", "a1a10", "i10i9"] {
            let m: UciMove = ok.parse().unwrap_or_else(|e| unreachable!("{e}"));
            assert_eq!(m.to_string(), ok);
        }
        for bad in [
            "", "h3", "h3e", "h0e3", "h3e11", "j1a1", "a11a1", "a1a1a", "h3e3 ", "ä1a1",
        ] {
            assert!(bad.parse::<UciMove>().is_err(), "{bad}");
        }
    }

    #[test]
    fn legality() {
        let pos = Xiangqi::start();
        let ok = UciMove::from_ascii(b"h3e3").map(|m| m.to_move(&pos));
        assert!(matches!(ok, Ok(Ok(_))));
        let no_piece = UciMove::from_ascii(b"e5e6").map(|m| m.to_move(&pos));
        assert!(matches!(
            no_piece,
            Ok(Err(IllegalUciMoveError::NoPiece { .. }))
        ));
        let illegal = UciMove::from_ascii(b"b1d2").map(|m| m.to_move(&pos));
        assert!(matches!(
            illegal,
            Ok(Err(IllegalUciMoveError::Illegal { .. }))
        ));
    }
}
