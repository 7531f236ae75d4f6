//! WXF notation (`C2=5`, `H2+3`, `R+=6`, `25=6`), written as
//! Fairy-Stockfish writes it and parsed in two steps.
//!
//! A move is four characters: the piece, where it stands, the direction
//! (`+` forward, `-` backward, `=` sideways) and a number. Files are
//! counted 1..9 from the mover's right. Straight movers (general, chariot,
//! cannon, soldier) give the number of ranks moved forward or backward, or
//! the destination file when moving sideways; diagonal movers (advisor,
//! elephant, horse) always give the destination file.
//!
//! Where it stands: normally the file number. Two pieces of one kind on a
//! file are told apart by `+` (front) and `-` (rear) in place of the file
//! (`C+=6`), except for advisors and elephants, whose direction already
//! tells them apart, and (as Fairy-Stockfish does) when the same move made
//! by the other piece would leave the board. Soldiers: when one file has three or more, or two files have
//! two or more, the letter is dropped and the soldier is named by its place
//! from the front and its file (`25=6`: the second soldier on file 5).

use core::{fmt, str::FromStr};

use super::{File, Move, Piece, Role, Square, Xiangqi};
use crate::Color;

/// Where the moving piece stands, as WXF names it.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum WxfPosition {
    /// On this file (1..=9 from the mover's right).
    File(u8),
    /// The front one of two on a file.
    Front,
    /// The rear one of two on a file.
    Rear,
    /// Soldiers only: the `index`-th (1 = front) on `file`.
    Nth {
        /// Place from the front, 1..=5.
        index: u8,
        /// File, 1..=9 from the mover's right.
        file: u8,
    },
}

/// The direction of a WXF move.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum WxfDirection {
    /// `+`: towards the opponent.
    Forward,
    /// `-`: towards the own side.
    Backward,
    /// `=` (or `.`): along the rank.
    Sideways,
}

/// A syntactically valid WXF move, not yet checked against a position.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Wxf {
    /// The kind of piece.
    pub role: Role,
    /// Where it stands.
    pub position: WxfPosition,
    /// Which way it goes.
    pub direction: WxfDirection,
    /// Ranks moved (straight movers going forward/backward) or the
    /// destination file (everything else), 1..=9.
    pub number: u8,
}

/// Text that is not a WXF move.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("invalid wxf move {text:?}")]
pub struct ParseWxfError {
    /// What was given.
    pub text: String,
}

/// A well-formed WXF move that does not name exactly one legal move.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum IllegalWxfError {
    /// No piece of the side to move stands where the move says.
    #[error("no piece matches {wxf}")]
    NoPiece {
        /// The move.
        wxf: Wxf,
    },
    /// A piece matches but cannot make that move.
    #[error("illegal move {wxf}")]
    Illegal {
        /// The move.
        wxf: Wxf,
    },
    /// Several legal moves match.
    #[error("ambiguous move {wxf}: {candidates:?}")]
    Ambiguous {
        /// The move.
        wxf: Wxf,
        /// The legal moves it could mean.
        candidates: Vec<Move>,
    },
}

fn digit(c: u8) -> Option<u8> {
    matches!(c, b'1'..=b'9').then(|| c - b'0')
}

impl Wxf {
    /// Parses a WXF move. Accepts Fairy-Stockfish's form (`C2=5`, `R+=6`,
    /// `25=6`), `.` for sideways, the prefix form of tandem pieces (`+R=6`)
    /// and `B`/`N` for elephant/horse.
    ///
    /// # Errors
    ///
    /// [`ParseWxfError`] for anything else.
    pub fn from_ascii(s: &[u8]) -> Result<Self, ParseWxfError> {
        let err = || ParseWxfError {
            text: String::from_utf8_lossy(s).into_owned(),
        };
        let &[a, b, op, n] = s else { return Err(err()) };
        let direction = match op {
            b'+' => WxfDirection::Forward,
            b'-' => WxfDirection::Backward,
            b'=' | b'.' => WxfDirection::Sideways,
            _ => return Err(err()),
        };
        let number = digit(n).ok_or_else(err)?;
        let tandem = |c: u8| match c {
            b'+' => Some(WxfPosition::Front),
            b'-' => Some(WxfPosition::Rear),
            _ => None,
        };
        let (role, position) = if let Some(role) = Role::from_wxf_char(a as char) {
            let pos = match (digit(b), tandem(b)) {
                (Some(f), _) => WxfPosition::File(f),
                (None, Some(t)) => t,
                _ => return Err(err()),
            };
            (role, pos)
        } else if let (Some(t), Some(role)) = (tandem(a), Role::from_wxf_char(b as char)) {
            (role, t)
        } else if let (Some(index), Some(file)) = (digit(a), digit(b)) {
            if index > 5 {
                return Err(err());
            }
            (Role::Soldier, WxfPosition::Nth { index, file })
        } else {
            return Err(err());
        };
        Ok(Self {
            role,
            position,
            direction,
            number,
        })
    }

    /// Parses a WXF move from text (see [`Wxf::from_ascii`]).
    ///
    /// # Errors
    ///
    /// [`ParseWxfError`] when the text is not a WXF move.
    pub fn parse(text: &str) -> Result<Self, ParseWxfError> {
        Self::from_ascii(text.as_bytes())
    }

    /// Finds the one legal move of `pos` this names.
    ///
    /// # Errors
    ///
    /// [`IllegalWxfError`] when no piece matches, the move is illegal, or
    /// several legal moves match.
    pub fn to_move(self, pos: &Xiangqi) -> Result<Move, IllegalWxfError> {
        let us = pos.turn();
        let mine = pos.board().by_piece(Piece::new(us, self.role));
        let origins: Vec<Square> = match self.position {
            WxfPosition::File(n) => match File::from_wxf_number(us, n) {
                Some(f) => mine.filter(|s| s.file() == f).collect(),
                None => Vec::new(),
            },
            WxfPosition::Front | WxfPosition::Rear => File::ALL
                .iter()
                .filter_map(|&f| {
                    let column = front_to_rear(us, mine.filter(|s| s.file() == f).collect());
                    if column.len() < 2 {
                        None
                    } else if self.position == WxfPosition::Front {
                        column.first().copied()
                    } else {
                        column.last().copied()
                    }
                })
                .collect(),
            WxfPosition::Nth { index, file } => File::from_wxf_number(us, file)
                .and_then(|f| {
                    front_to_rear(us, mine.filter(|s| s.file() == f).collect())
                        .get(usize::from(index) - 1)
                        .copied()
                })
                .into_iter()
                .collect(),
        };
        if origins.is_empty() {
            return Err(IllegalWxfError::NoPiece { wxf: self });
        }
        let candidates: Vec<Move> = origins
            .into_iter()
            .filter_map(|from| self.destination(us, from).map(|to| Move::new(from, to)))
            .filter(|&m| pos.is_legal(m))
            .collect();
        match candidates.as_slice() {
            [] => Err(IllegalWxfError::Illegal { wxf: self }),
            [m] => Ok(*m),
            _ => Err(IllegalWxfError::Ambiguous {
                wxf: self,
                candidates,
            }),
        }
    }

    /// Where a piece on `from` would go under this move.
    fn destination(self, us: Color, from: Square) -> Option<Square> {
        let fwd: i8 = if us == Color::White { 1 } else { -1 };
        let sign: i8 = match self.direction {
            WxfDirection::Forward => fwd,
            WxfDirection::Backward => -fwd,
            WxfDirection::Sideways => 0,
        };
        let straight = matches!(
            self.role,
            Role::General | Role::Chariot | Role::Cannon | Role::Soldier
        );
        let n = self.number as i8;
        if sign == 0 {
            if !straight {
                return None;
            }
            let f = File::from_wxf_number(us, self.number)?;
            return Some(Square::from_coords(f, from.rank()));
        }
        if straight {
            return from.offset(0, sign * n);
        }
        let f = File::from_wxf_number(us, self.number)?;
        let df = f.index() as i8 - from.file().index() as i8;
        let dr = match (self.role, df.abs()) {
            (Role::Advisor, 1) => 1,
            (Role::Elephant, 2) => 2,
            (Role::Horse, 1) => 2,
            (Role::Horse, 2) => 1,
            _ => return None,
        };
        from.offset(df, sign * dr)
    }
}

/// Squares of one file ordered from the front (nearest the opponent).
fn front_to_rear(us: Color, mut squares: Vec<Square>) -> Vec<Square> {
    squares.sort_unstable();
    if us == Color::White {
        squares.reverse();
    }
    squares
}

impl FromStr for Wxf {
    type Err = ParseWxfError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Self::from_ascii(s.as_bytes())
    }
}

impl fmt::Display for Wxf {
    /// Fairy-Stockfish's spelling.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let dir = match self.direction {
            WxfDirection::Forward => '+',
            WxfDirection::Backward => '-',
            WxfDirection::Sideways => '=',
        };
        match self.position {
            WxfPosition::File(n) => write!(f, "{}{n}", self.role.wxf_char())?,
            WxfPosition::Front => write!(f, "{}+", self.role.wxf_char())?,
            WxfPosition::Rear => write!(f, "{}-", self.role.wxf_char())?,
            WxfPosition::Nth { index, file } => write!(f, "{index}{file}")?,
        }
        write!(f, "{dir}{}", self.number)
    }
}

impl Xiangqi {
    /// The WXF description of `mv`, a legal move of this position, in
    /// Fairy-Stockfish's spelling. For a move that does not start on a
    /// piece of the side to move, returns its UCI text instead.
    #[must_use]
    pub fn wxf_move(&self, mv: Move) -> Option<Wxf> {
        let us = self.turn();
        let piece = self.piece_at(mv.from()).filter(|p| p.color == us)?;
        let (from, to) = (mv.from(), mv.to());
        let mine = self.board().by_piece(piece);
        let column = front_to_rear(us, mine.filter(|s| s.file() == from.file()).collect());
        let file_no = from.file().wxf_number(us);
        // Advisors and elephants never need the tandem marks: of two on one
        // file, one can only go forward and the other only backward.
        let position = if column.len() <= 1 || matches!(piece.role, Role::Advisor | Role::Elephant)
        {
            WxfPosition::File(file_no)
        } else if piece.role == Role::Soldier
            && (column.len() > 2
                || File::ALL
                    .iter()
                    .filter(|&&f| mine.filter(|s| s.file() == f).count() >= 2)
                    .count()
                    > 1)
        {
            let index = column.iter().position(|&s| s == from).unwrap_or(0) as u8 + 1;
            WxfPosition::Nth {
                index,
                file: file_no,
            }
        } else if column.iter().find(|&&s| s != from).is_some_and(|&other| {
            // Fairy-Stockfish marks front/rear only when the other piece,
            // shifted by the same vector, would still be on the board.
            let df = to.file().index() as i8 - from.file().index() as i8;
            let dr = to.rank().index() as i8 - from.rank().index() as i8;
            other.offset(df, dr).is_none()
        }) {
            WxfPosition::File(file_no)
        } else if column.first() == Some(&from) {
            WxfPosition::Front
        } else {
            WxfPosition::Rear
        };
        let dr = to.rank().index() as i8 - from.rank().index() as i8;
        let forward = if us == Color::White { dr } else { -dr };
        let direction = match forward {
            0 => WxfDirection::Sideways,
            d if d > 0 => WxfDirection::Forward,
            _ => WxfDirection::Backward,
        };
        let straight = matches!(
            piece.role,
            Role::General | Role::Chariot | Role::Cannon | Role::Soldier
        );
        let number = if straight && direction != WxfDirection::Sideways {
            forward.unsigned_abs()
        } else {
            to.file().wxf_number(us)
        };
        Some(Wxf {
            role: piece.role,
            position,
            direction,
            number,
        })
    }

    /// The WXF text of `mv` (see [`Xiangqi::wxf_move`]); the UCI text for a
    /// move that does not start on a piece of the side to move.
    #[must_use]
    pub fn wxf(&self, mv: Move) -> String {
        self.wxf_move(mv)
            .map_or_else(|| mv.to_uci(), |w| w.to_string())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn syntax() {
        for (text, canon) in [
            ("C2=5", "C2=5"),
            ("C2.5", "C2=5"),
            ("H2+3", "H2+3"),
            ("R+=6", "R+=6"),
            ("+R=6", "R+=6"),
            ("-C-1", "C--1"),
            ("25=6", "25=6"),
            ("N8+7", "H8+7"),
        ] {
            let w: Wxf = text.parse().unwrap_or_else(|e| unreachable!("{e}"));
            assert_eq!(w.to_string(), canon);
        }
        for bad in [
            "", "C2=", "C2=0", "C0=5", "X2=5", "C2*5", "C2=55", "65=6", "++=1", "c2=5",
        ] {
            assert!(bad.parse::<Wxf>().is_err(), "{bad}");
        }
    }
}
