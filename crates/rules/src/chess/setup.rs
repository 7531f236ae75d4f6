//! Unvalidated positions as read from FEN.

use core::fmt;

use super::{
    board::Board,
    role::Piece,
    square::{File, Rank, Square},
};
use crate::Color;

/// Which wing a castling goes to.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum CastlingSide {
    /// Towards the h-file (`O-O`, king to g1/g8).
    KingSide,
    /// Towards the a-file (`O-O-O`, king to c1/c8).
    QueenSide,
}

impl CastlingSide {
    /// Both wings, king side first (the FEN order `KQkq`).
    pub const ALL: [Self; 2] = [Self::KingSide, Self::QueenSide];

    /// The file the king lands on.
    #[must_use]
    pub const fn king_to_file(self) -> File {
        match self {
            Self::KingSide => File::G,
            Self::QueenSide => File::C,
        }
    }

    /// The file the rook starts on.
    #[must_use]
    pub const fn rook_from_file(self) -> File {
        match self {
            Self::KingSide => File::H,
            Self::QueenSide => File::A,
        }
    }

    /// The file the rook lands on.
    #[must_use]
    pub const fn rook_to_file(self) -> File {
        match self {
            Self::KingSide => File::F,
            Self::QueenSide => File::D,
        }
    }
}

/// Which castlings are still allowed: four flags, so every value is
/// meaningful by itself (whether they fit the placement is checked when a
/// [`Setup`] becomes a position).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct CastlingRights(u8);

impl CastlingRights {
    /// No castling for anyone.
    pub const NONE: Self = Self(0);
    /// All four castlings (`KQkq`).
    pub const ALL: Self = Self(15);

    const fn bit(color: Color, side: CastlingSide) -> u8 {
        1 << (color as u8 * 2 + side as u8)
    }

    /// The four flags as bits: 1 = `K`, 2 = `Q`, 4 = `k`, 8 = `q`.
    #[must_use]
    #[inline(always)]
    pub const fn bits(self) -> u8 {
        self.0
    }

    /// Rights from the bits of [`CastlingRights::bits`]; higher bits are
    /// ignored.
    #[must_use]
    #[inline(always)]
    pub const fn from_bits(bits: u8) -> Self {
        Self(bits & 15)
    }

    /// `true` when `color` may still castle to `side`.
    #[must_use]
    #[inline(always)]
    pub const fn has(self, color: Color, side: CastlingSide) -> bool {
        self.0 & Self::bit(color, side) != 0
    }

    /// `true` when `color` may still castle to either side.
    #[must_use]
    #[inline(always)]
    pub const fn has_any(self, color: Color) -> bool {
        self.0 & (3 << (color as u8 * 2)) != 0
    }

    /// `true` when nobody may castle.
    #[must_use]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// These rights plus one more.
    #[must_use]
    pub const fn with(self, color: Color, side: CastlingSide) -> Self {
        Self(self.0 | Self::bit(color, side))
    }

    /// These rights minus one.
    #[must_use]
    pub const fn without(self, color: Color, side: CastlingSide) -> Self {
        Self(self.0 & !Self::bit(color, side))
    }

    /// These rights minus both of `color`'s.
    #[must_use]
    pub const fn without_color(self, color: Color) -> Self {
        Self(self.0 & !(3 << (color as u8 * 2)))
    }

    /// The FEN field: `KQkq`, a subset of it, or `-`.
    #[must_use]
    pub fn fen(self) -> String {
        let mut s = String::new();
        for color in Color::ALL {
            for side in CastlingSide::ALL {
                if self.has(color, side) {
                    let c = if side == CastlingSide::KingSide {
                        'k'
                    } else {
                        'q'
                    };
                    s.push(if color.is_white() {
                        c.to_ascii_uppercase()
                    } else {
                        c
                    });
                }
            }
        }
        if s.is_empty() {
            s.push('-');
        }
        s
    }
}

/// The six FEN fields, for error messages.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum FenField {
    /// Piece placement.
    Board,
    /// Side to move.
    Turn,
    /// Castling rights.
    Castling,
    /// En-passant square.
    EnPassant,
    /// Halfmove clock.
    HalfmoveClock,
    /// Fullmove number.
    FullmoveNumber,
}

impl fmt::Display for FenField {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Self::Board => "board",
            Self::Turn => "side to move",
            Self::Castling => "castling",
            Self::EnPassant => "en passant",
            Self::HalfmoveClock => "halfmove clock",
            Self::FullmoveNumber => "fullmove number",
        })
    }
}

/// Text that is not a FEN at all (syntax only; whether the position makes
/// sense is [`PositionError`](super::PositionError)'s business).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ParseFenError {
    /// The text is empty or blank.
    #[error("empty fen")]
    Empty,
    /// A required field is absent (board, side, castling and en passant
    /// are required; the two counters may be left out).
    #[error("fen has no {field} field")]
    MissingField {
        /// The first missing field.
        field: FenField,
    },
    /// There is text after the fullmove number.
    #[error("unexpected text after the fen: {extra:?}")]
    TooManyFields {
        /// What followed.
        extra: String,
    },
    /// The board does not have eight ranks separated by `/`.
    #[error("fen board has {found} ranks, expected 8")]
    WrongRankCount {
        /// How many ranks were found.
        found: usize,
    },
    /// A rank describes more or fewer than eight squares.
    #[error("fen rank {rank} describes {squares} squares, expected 8")]
    WrongRankLength {
        /// The rank, 1 to 8, as a chess player numbers them.
        rank: u8,
        /// How many squares it described.
        squares: usize,
    },
    /// A character in the board is neither a piece letter nor 1-8.
    #[error("unknown piece {found:?} on fen rank {rank}")]
    UnknownPiece {
        /// The rank, 1 to 8.
        rank: u8,
        /// The character.
        found: char,
    },
    /// The side to move is not `w` or `b`.
    #[error("invalid side to move {found:?} (expected w or b)")]
    InvalidTurn {
        /// What was given.
        found: String,
    },
    /// The castling field is not `-` or a subset of `KQkq` in that order
    /// without repeats.
    #[error("invalid castling field {found:?}")]
    InvalidCastling {
        /// What was given.
        found: String,
    },
    /// The en-passant field is not `-` or a square on rank 3 or 6.
    #[error("invalid en-passant field {found:?}")]
    InvalidEnPassant {
        /// What was given.
        found: String,
    },
    /// The halfmove clock is not a number.
    #[error("invalid halfmove clock {found:?}")]
    InvalidHalfmoveClock {
        /// What was given.
        found: String,
    },
    /// The fullmove number is not a positive number.
    #[error("invalid fullmove number {found:?}")]
    InvalidFullmoveNumber {
        /// What was given.
        found: String,
    },
}

/// A position as a FEN describes it, not yet checked for legality. Any
/// field may be changed; [`Position::from_setup`](super::Position::from_setup)
/// decides whether the result is a position of a given game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Setup {
    /// The placement.
    pub board: Board,
    /// The side to move.
    pub turn: Color,
    /// Castling rights.
    pub castling: CastlingRights,
    /// The square behind a pawn that just advanced two squares, as the FEN
    /// gave it.
    pub ep_square: Option<Square>,
    /// Plies since the last capture or pawn move.
    pub halfmoves: u32,
    /// The move number, starting at 1 and increased after Black moves.
    pub fullmoves: u32,
}

impl Default for Setup {
    fn default() -> Self {
        Self::standard()
    }
}

impl Setup {
    /// The standard start position.
    #[must_use]
    pub const fn standard() -> Self {
        Self {
            board: Board::standard(),
            turn: Color::White,
            castling: CastlingRights::ALL,
            ep_square: None,
            halfmoves: 0,
            fullmoves: 1,
        }
    }

    /// Parses a FEN. Fields are separated by whitespace; the halfmove
    /// clock and fullmove number may be omitted (0 and 1 then).
    ///
    /// # Errors
    ///
    /// A [`ParseFenError`] naming the field and what was wrong with it.
    pub fn from_fen(fen: &str) -> Result<Self, ParseFenError> {
        let mut fields = fen.split_ascii_whitespace();
        let board = parse_board(fields.next().ok_or(ParseFenError::Empty)?)?;
        let turn_text = fields.next().ok_or(ParseFenError::MissingField {
            field: FenField::Turn,
        })?;
        let turn = match turn_text {
            "w" => Color::White,
            "b" => Color::Black,
            _ => {
                return Err(ParseFenError::InvalidTurn {
                    found: turn_text.to_owned(),
                });
            }
        };
        let castling_text = fields.next().ok_or(ParseFenError::MissingField {
            field: FenField::Castling,
        })?;
        let castling =
            parse_castling(castling_text).ok_or_else(|| ParseFenError::InvalidCastling {
                found: castling_text.to_owned(),
            })?;
        let ep_text = fields.next().ok_or(ParseFenError::MissingField {
            field: FenField::EnPassant,
        })?;
        let ep_square = match ep_text {
            "-" => None,
            _ => match Square::from_ascii(ep_text.as_bytes()) {
                Some(sq) if matches!(sq.rank(), Rank::Third | Rank::Sixth) => Some(sq),
                _ => {
                    return Err(ParseFenError::InvalidEnPassant {
                        found: ep_text.to_owned(),
                    });
                }
            },
        };
        let halfmoves = match fields.next() {
            None => 0,
            Some(t) => parse_number(t).ok_or_else(|| ParseFenError::InvalidHalfmoveClock {
                found: t.to_owned(),
            })?,
        };
        let fullmoves = match fields.next() {
            None => 1,
            Some(t) => parse_number(t).filter(|&n| n > 0).ok_or_else(|| {
                ParseFenError::InvalidFullmoveNumber {
                    found: t.to_owned(),
                }
            })?,
        };
        let rest: Vec<&str> = fields.collect();
        if !rest.is_empty() {
            return Err(ParseFenError::TooManyFields {
                extra: rest.join(" "),
            });
        }
        Ok(Self {
            board,
            turn,
            castling,
            ep_square,
            halfmoves,
            fullmoves,
        })
    }

    /// Writes the FEN, in Fairy-Stockfish's form.
    #[must_use]
    pub fn fen(&self) -> String {
        format!(
            "{} {} {} {} {} {}",
            self.board.board_fen(),
            self.turn.char(),
            self.castling.fen(),
            self.ep_square
                .map_or_else(|| "-".to_owned(), |sq| sq.to_string()),
            self.halfmoves,
            self.fullmoves
        )
    }
}

impl fmt::Display for Setup {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.fen())
    }
}

fn parse_number(text: &str) -> Option<u32> {
    // `u32::from_str` accepts a leading `+`; FEN does not.
    if text.is_empty() || !text.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    text.parse().ok()
}

fn parse_board(text: &str) -> Result<Board, ParseFenError> {
    let ranks: Vec<&str> = text.split('/').collect();
    if ranks.len() != 8 {
        return Err(ParseFenError::WrongRankCount { found: ranks.len() });
    }
    let mut board = Board::empty();
    for (i, rank_text) in ranks.iter().enumerate() {
        let rank = Rank::ALL[7 - i];
        let rank_no = rank as u8 + 1;
        let mut file = 0usize;
        for c in rank_text.chars() {
            if let Some(d) = c.to_digit(10).filter(|d| (1..=8).contains(d)) {
                file += d as usize;
            } else {
                let piece = Piece::from_char(c).ok_or(ParseFenError::UnknownPiece {
                    rank: rank_no,
                    found: c,
                })?;
                if file < 8 {
                    board.set_piece_at(Square::from_coords(File::ALL[file], rank), piece);
                }
                file += 1;
            }
            if file > 8 {
                break;
            }
        }
        if file != 8 {
            let squares = if file > 8 {
                count_squares(rank_text)
            } else {
                file
            };
            return Err(ParseFenError::WrongRankLength {
                rank: rank_no,
                squares,
            });
        }
    }
    Ok(board)
}

/// Squares a rank text describes, for the error message of an overlong
/// rank (unknown characters count as one square).
fn count_squares(rank_text: &str) -> usize {
    rank_text
        .chars()
        .map(|c| c.to_digit(10).map_or(1, |d| d as usize))
        .sum()
}

fn parse_castling(text: &str) -> Option<CastlingRights> {
    if text == "-" {
        return Some(CastlingRights::NONE);
    }
    let mut rights = CastlingRights::NONE;
    let mut last = None;
    for c in text.chars() {
        let (color, side, order) = match c {
            'K' => (Color::White, CastlingSide::KingSide, 0),
            'Q' => (Color::White, CastlingSide::QueenSide, 1),
            'k' => (Color::Black, CastlingSide::KingSide, 2),
            'q' => (Color::Black, CastlingSide::QueenSide, 3),
            _ => return None,
        };
        if last.is_some_and(|l| l >= order) {
            return None;
        }
        last = Some(order);
        rights = rights.with(color, side);
    }
    if last.is_none() { None } else { Some(rights) }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_round_trip() {
        let fen = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
        let setup = Setup::from_fen(fen).unwrap();
        assert_eq!(setup, Setup::standard());
        assert_eq!(setup.fen(), fen);
    }

    #[test]
    fn castling_field() {
        assert_eq!(parse_castling("KQkq"), Some(CastlingRights::ALL));
        assert_eq!(
            parse_castling("Kq").map(CastlingRights::fen).as_deref(),
            Some("Kq")
        );
        assert_eq!(parse_castling("qK"), None);
        assert_eq!(parse_castling("KK"), None);
        assert_eq!(parse_castling(""), None);
        assert_eq!(parse_castling("-"), Some(CastlingRights::NONE));
    }
}
