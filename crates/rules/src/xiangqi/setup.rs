//! FEN parsing into an unvalidated [`Setup`].

use core::{fmt, str::FromStr};

use super::{Board, Piece, Square};
use crate::Color;

/// A position as written in a FEN, not yet checked against the rules:
/// any placement, a side to move and the two counters. Turn it into a
/// playable [`super::Xiangqi`] with [`super::Xiangqi::from_setup`].
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Setup {
    /// Piece placement.
    pub board: Board,
    /// Side to move.
    pub turn: Color,
    /// The FEN halfmove field: plies since the last capture, as
    /// Fairy-Stockfish counts it.
    pub halfmoves: u32,
    /// The FEN fullmove field, starting at 1 and incremented after each
    /// Black move.
    pub fullmoves: u32,
}

impl Default for Setup {
    /// The start position.
    fn default() -> Self {
        Self {
            board: Board::start(),
            turn: Color::White,
            halfmoves: 0,
            fullmoves: 1,
        }
    }
}

/// Why a FEN could not be read. One variant per kind of mistake, carrying
/// the offending part.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ParseFenError {
    /// Nothing but white space.
    #[error("empty fen")]
    Empty,
    /// The placement does not have 10 ranks.
    #[error("fen has {found} ranks, expected 10")]
    WrongRankCount {
        /// How many `/`-separated ranks were found.
        found: usize,
    },
    /// A rank describes more than 9 files.
    #[error("rank {rank} of the fen describes more than 9 files")]
    RankTooLong {
        /// The rank number (1..=10) counted from Red's side.
        rank: u8,
    },
    /// A rank describes fewer than 9 files.
    #[error("rank {rank} of the fen describes {files} files, expected 9")]
    RankTooShort {
        /// The rank number (1..=10).
        rank: u8,
        /// How many files it describes.
        files: u8,
    },
    /// A character that is neither a piece letter nor a digit 1..9.
    #[error("invalid character {found:?} in fen placement")]
    InvalidPiece {
        /// The character.
        found: char,
    },
    /// Holdings other than the empty `[]` Fairy-Stockfish may append.
    #[error("unexpected holdings {found:?} in xiangqi fen")]
    InvalidHoldings {
        /// The bracketed text.
        found: String,
    },
    /// No side-to-move field.
    #[error("fen has no side to move")]
    MissingTurn,
    /// The side-to-move field is not `w` or `b`.
    #[error("invalid side to move {found:?} (expected w or b)")]
    InvalidTurn {
        /// The field.
        found: String,
    },
    /// The halfmove field is not a non-negative integer.
    #[error("invalid halfmove counter {found:?}")]
    InvalidHalfmoves {
        /// The field.
        found: String,
    },
    /// The fullmove field is not an integer of at least 1.
    #[error("invalid fullmove counter {found:?}")]
    InvalidFullmoves {
        /// The field.
        found: String,
    },
    /// More than six fields.
    #[error("unexpected text {found:?} after the fen")]
    TrailingFields {
        /// The first extra field.
        found: String,
    },
}

impl Setup {
    /// Parses a Fairy-Stockfish Xiangqi FEN. Missing trailing fields take
    /// their start values (`- - 0 1`); the castling and en-passant fields
    /// are read and ignored, as Fairy-Stockfish does for Xiangqi.
    ///
    /// # Errors
    ///
    /// A [`ParseFenError`] naming the first malformed part.
    pub fn from_fen(fen: &str) -> Result<Self, ParseFenError> {
        let mut fields = fen.split_ascii_whitespace();
        let placement = fields.next().ok_or(ParseFenError::Empty)?;
        let board = parse_placement(placement)?;
        let turn = match fields.next() {
            None => return Err(ParseFenError::MissingTurn),
            Some("w") => Color::White,
            Some("b") => Color::Black,
            Some(other) => {
                return Err(ParseFenError::InvalidTurn {
                    found: other.to_owned(),
                });
            }
        };
        let _castling = fields.next();
        let _ep = fields.next();
        let halfmoves = match fields.next() {
            None => 0,
            Some(s) => parse_counter(s).ok_or_else(|| ParseFenError::InvalidHalfmoves {
                found: s.to_owned(),
            })?,
        };
        let fullmoves = match fields.next() {
            None => 1,
            Some(s) => parse_counter(s).filter(|&n| n >= 1).ok_or_else(|| {
                ParseFenError::InvalidFullmoves {
                    found: s.to_owned(),
                }
            })?,
        };
        if let Some(extra) = fields.next() {
            return Err(ParseFenError::TrailingFields {
                found: extra.to_owned(),
            });
        }
        Ok(Self {
            board,
            turn,
            halfmoves,
            fullmoves,
        })
    }

    /// The FEN, in Fairy-Stockfish's format.
    #[must_use]
    pub fn to_fen(&self) -> String {
        let mut s = String::with_capacity(96);
        self.board.write_fen(&mut s);
        s.push(' ');
        s.push(self.turn.char());
        s.push_str(" - - ");
        s.push_str(&self.halfmoves.to_string());
        s.push(' ');
        s.push_str(&self.fullmoves.to_string());
        s
    }
}

fn parse_counter(s: &str) -> Option<u32> {
    if s.is_empty() || !s.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    s.parse().ok()
}

fn parse_placement(placement: &str) -> Result<Board, ParseFenError> {
    let (ranks_text, holdings) = match placement.find('[') {
        Some(i) => (&placement[..i], Some(&placement[i..])),
        None => (placement, None),
    };
    if let Some(h) = holdings
        && h != "[]"
    {
        return Err(ParseFenError::InvalidHoldings {
            found: h.to_owned(),
        });
    }
    let ranks: Vec<&str> = ranks_text.split('/').collect();
    if ranks.len() != 10 {
        return Err(ParseFenError::WrongRankCount { found: ranks.len() });
    }
    let mut board = Board::empty();
    for (i, text) in ranks.iter().enumerate() {
        let rank = 9 - i as u8; // index 0..10 from Red's side
        let mut file = 0u8;
        for c in text.chars() {
            if let Some(d) = c.to_digit(10).filter(|&d| d >= 1) {
                file += d as u8;
                if file > 9 {
                    return Err(ParseFenError::RankTooLong { rank: rank + 1 });
                }
            } else if let Some(piece) = Piece::from_char(c) {
                if file >= 9 {
                    return Err(ParseFenError::RankTooLong { rank: rank + 1 });
                }
                board.set_piece_at(Square::from_index_unchecked(rank * 9 + file), piece);
                file += 1;
            } else {
                return Err(ParseFenError::InvalidPiece { found: c });
            }
        }
        if file < 9 {
            return Err(ParseFenError::RankTooShort {
                rank: rank + 1,
                files: file,
            });
        }
    }
    Ok(board)
}

impl FromStr for Setup {
    type Err = ParseFenError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Self::from_fen(s)
    }
}

impl fmt::Display for Setup {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_fen())
    }
}
