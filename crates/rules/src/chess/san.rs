//! Standard Algebraic Notation (`Nf3`, `exd5`, `O-O`, `e8=Q#`), parsed in
//! two steps like UCI: text to [`San`] (syntax only), then
//! [`San::to_move`] against a position (legality, ambiguity).
//!
//! Writing follows the FIDE Laws (appendix C) as lichess and python-chess
//! write them: the piece letter (none for pawns), the smallest
//! disambiguation (file, else rank, else both), `x` for captures (a pawn
//! capture names its file), `=Q` for promotions, `O-O`/`O-O-O` for
//! castling, then `+` for check and `#` when the move wins at once: a
//! checkmate, an exploded king in Atomic, the last white piece taken in
//! Horde (python-chess writes `#` for every decisive variant end, and so
//! do we).
//!
//! ```
//! use chessplayx_rules::chess::{Chess, San};
//!
//! let pos = Chess::start();
//! let mv = "Nf3".parse::<San>()?.to_move(&pos)?;
//! assert_eq!(mv.to_string(), "g1f3");
//! assert_eq!(pos.san(mv), "Nf3");
//! # Ok::<_, Box<dyn std::error::Error>>(())
//! ```

use core::{
    fmt::{self, Write as _},
    str::FromStr,
};

use super::{
    moves::Move,
    position::Position,
    role::Role,
    rules::Rules,
    setup::CastlingSide,
    square::{File, Rank, Square},
    uci::UciMove,
};

/// Longest text the parser looks at. The longest real SAN
/// (`Qa1xb2=Q+!?`-like) is far shorter; the limit keeps error values small.
const MAX_LEN: usize = 24;

/// The sign after a SAN move.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Suffix {
    /// `+`: the move gives check.
    Check,
    /// `#`: the move wins at once (checkmate, or a decisive variant end).
    Mate,
}

impl Suffix {
    /// The character SAN writes.
    #[must_use]
    pub const fn char(self) -> char {
        match self {
            Self::Check => '+',
            Self::Mate => '#',
        }
    }
}

/// What the move part of a SAN says, without its check sign.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
enum Kind {
    Normal {
        role: Role,
        file: Option<File>,
        rank: Option<Rank>,
        capture: bool,
        to: Square,
        promotion: Option<Role>,
    },
    Castle(CastlingSide),
}

/// A move in SAN, without its check sign: well formed, but not yet checked
/// against any position.
///
/// Values come from parsing ([`San::from_ascii`], [`str::parse`]) or from
/// a legal move ([`San::from_move`]), so a `San` never holds a combination
/// no text could express (a promoting knight, a promotion to a king).
/// [`fmt::Display`] writes it back as SAN.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct San(Kind);

/// A SAN move with its check or mate sign, as written in a game record.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct SanPlus {
    /// The move.
    pub san: San,
    /// `+`, `#` or nothing.
    pub suffix: Option<Suffix>,
}

/// Text that is not SAN at all.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ParseSanError {
    /// Nothing but annotation signs (or nothing at all).
    #[error("empty san move")]
    Empty,
    /// Longer than any SAN move can be.
    #[error("san move {text:?} is too long")]
    TooLong {
        /// The first characters of what was given.
        text: String,
    },
    /// No destination square `a1`…`h8` where one must be.
    #[error("san move {text:?} has no valid destination square")]
    InvalidDestination {
        /// What was given.
        text: String,
    },
    /// A promotion that is not `=N`, `=B`, `=R` or `=Q`.
    #[error("san move {text:?} has an invalid promotion (expected =N, =B, =R or =Q)")]
    InvalidPromotion {
        /// What was given.
        text: String,
    },
    /// A promotion written after a piece move.
    #[error("san move {text:?} promotes a piece that is not a pawn")]
    PromotionNotPawn {
        /// What was given.
        text: String,
    },
    /// A character that has no place in SAN (or is in the wrong place).
    #[error("san move {text:?} has an unexpected character")]
    UnexpectedCharacter {
        /// What was given.
        text: String,
    },
}

/// A well-formed SAN move that does not name exactly one legal move of the
/// position.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SanError {
    /// No legal move matches.
    #[error("illegal move {san} in {fen}")]
    Illegal {
        /// The move as parsed (written back as SAN).
        san: String,
        /// The position, as FEN.
        fen: String,
    },
    /// Several legal moves match (the disambiguation is missing or too
    /// short).
    #[error("ambiguous move {san} in {fen} (could be {candidates:?})")]
    Ambiguous {
        /// The move as parsed (written back as SAN).
        san: String,
        /// The position, as FEN.
        fen: String,
        /// The legal moves it could mean, in UCI.
        candidates: Vec<UciMove>,
    },
}

fn owned(text: &[u8]) -> String {
    String::from_utf8_lossy(text).into_owned()
}

const fn piece_letter(c: u8) -> Option<Role> {
    match c {
        b'N' => Some(Role::Knight),
        b'B' => Some(Role::Bishop),
        b'R' => Some(Role::Rook),
        b'Q' => Some(Role::Queen),
        b'K' => Some(Role::King),
        b'P' => Some(Role::Pawn),
        _ => None,
    }
}

impl SanPlus {
    /// Parses SAN with an optional `+` or `#` sign. Annotation glyphs
    /// (`!`, `?`, `!?`…) after the move are tolerated and dropped, and
    /// castling may be written with zeros (`0-0`).
    ///
    /// The parser is lenient where the meaning stays clear: a promotion
    /// without `=` (`e8Q`), long algebraic (`Ng1f3`, `Ng1-f3`) and a
    /// capture sign that does not match the position are accepted. A
    /// pawn move without a file (`d5`) is always a push: pawn captures
    /// must name their file.
    ///
    /// # Errors
    ///
    /// [`ParseSanError`] saying what is malformed.
    pub fn from_ascii(text: &[u8]) -> Result<Self, ParseSanError> {
        if text.len() > MAX_LEN {
            return Err(ParseSanError::TooLong {
                text: owned(&text[..MAX_LEN]),
            });
        }
        let mut body = text;
        let mut suffix = None;
        while let Some((&last, rest)) = body.split_last() {
            match last {
                b'!' | b'?' => {}
                b'+' => {
                    if suffix.is_none() {
                        suffix = Some(Suffix::Check);
                    }
                }
                b'#' => suffix = Some(Suffix::Mate),
                _ => break,
            }
            body = rest;
        }
        if body.is_empty() {
            return Err(ParseSanError::Empty);
        }
        let san = San::parse_body(body).map_err(|make| make(owned(text)))?;
        Ok(Self { san, suffix })
    }

    /// The SAN of a legal move of `pos`, with its `+` or `#` sign.
    ///
    /// For a move `pos` does not allow the result is unspecified (but
    /// there is no panic).
    #[must_use]
    pub fn from_move<R: Rules>(pos: &Position<R>, mv: Move) -> Self {
        let san = San::from_move(pos, mv);
        let after = pos.played(mv);
        Self {
            san,
            suffix: suffix_after(pos, &after),
        }
    }

    /// As [`SanPlus::from_move`], given every legal move of `pos`
    /// (`legal`): naming all the moves of a position this way generates
    /// them once instead of once per move (the server sends every legal
    /// move with its SAN after each move).
    #[must_use]
    pub(crate) fn from_move_among<R: Rules>(pos: &Position<R>, mv: Move, legal: &[Move]) -> Self {
        let san = San::from_move_among(pos, mv, legal);
        let after = pos.played(mv);
        Self {
            san,
            suffix: suffix_after(pos, &after),
        }
    }
}

/// The sign a move deserves, given the positions before and after it:
/// `#` when the mover has won (mate, exploded king, destroyed horde),
/// `+` when the side to move is in check.
pub(crate) fn suffix_after<R: Rules>(before: &Position<R>, after: &Position<R>) -> Option<Suffix> {
    // `Position::outcome` without its costly parts where they cannot make
    // the mover the winner: the variant's own ending decides first, and
    // otherwise only a mate wins, which needs a check, so the legal moves
    // are counted only after a checking move (insufficient material and
    // stalemate are draws).
    let won = match R::variant_outcome(after) {
        Some(o) => o.winner == Some(before.turn()),
        None => after.is_check() && after.count_legal_moves() == 0,
    };
    if won {
        Some(Suffix::Mate)
    } else if after.is_check() {
        Some(Suffix::Check)
    } else {
        None
    }
}

type MakeError = fn(String) -> ParseSanError;

impl San {
    /// Parses SAN, ignoring any check sign or annotation (see
    /// [`SanPlus::from_ascii`] for what is accepted).
    ///
    /// # Errors
    ///
    /// [`ParseSanError`] saying what is malformed.
    pub fn from_ascii(text: &[u8]) -> Result<Self, ParseSanError> {
        SanPlus::from_ascii(text).map(|s| s.san)
    }

    /// The move part, signs already removed. Errors come back as a
    /// constructor so that the whole original text goes into them.
    fn parse_body(body: &[u8]) -> Result<Self, MakeError> {
        if !body.is_ascii() {
            return Err(|text| ParseSanError::UnexpectedCharacter { text });
        }
        match body {
            b"O-O" | b"0-0" => return Ok(Self(Kind::Castle(CastlingSide::KingSide))),
            b"O-O-O" | b"0-0-0" => return Ok(Self(Kind::Castle(CastlingSide::QueenSide))),
            _ => {}
        }
        let (role, mut rest) = match body.split_first() {
            Some((&c, rest)) if c.is_ascii_uppercase() => match piece_letter(c) {
                Some(role) => (role, rest),
                None => return Err(|text| ParseSanError::UnexpectedCharacter { text }),
            },
            _ => (Role::Pawn, body),
        };
        // Promotion: `=Q`, `=q` or a bare upper-case `Q` at the end.
        let mut promotion = None;
        if let Some((&last, before)) = rest.split_last() {
            if let Some((b'=', before_eq)) = before.split_last() {
                match piece_letter(last.to_ascii_uppercase()) {
                    Some(r @ (Role::Knight | Role::Bishop | Role::Rook | Role::Queen)) => {
                        promotion = Some(r);
                        rest = before_eq;
                    }
                    _ => return Err(|text| ParseSanError::InvalidPromotion { text }),
                }
            } else if last == b'=' {
                return Err(|text| ParseSanError::InvalidPromotion { text });
            } else if last.is_ascii_uppercase() {
                match piece_letter(last) {
                    Some(r @ (Role::Knight | Role::Bishop | Role::Rook | Role::Queen)) => {
                        promotion = Some(r);
                        rest = before;
                    }
                    _ => return Err(|text| ParseSanError::InvalidPromotion { text }),
                }
            }
        }
        if promotion.is_some() && role != Role::Pawn {
            return Err(|text| ParseSanError::PromotionNotPawn { text });
        }
        let Some(split) = rest.len().checked_sub(2) else {
            return Err(|text| ParseSanError::InvalidDestination { text });
        };
        let (mut middle, dest) = rest.split_at(split);
        let Some(to) = Square::from_ascii(dest) else {
            return Err(|text| ParseSanError::InvalidDestination { text });
        };
        let mut file = None;
        let mut rank = None;
        let mut capture = false;
        if let Some((&c, r)) = middle.split_first()
            && let Some(f) = File::from_char(char::from(c))
        {
            file = Some(f);
            middle = r;
        }
        if let Some((&c, r)) = middle.split_first()
            && let Some(rk) = Rank::from_char(char::from(c))
        {
            rank = Some(rk);
            middle = r;
        }
        match middle {
            b"" | b"-" => {}
            b"x" | b":" => capture = true,
            _ => return Err(|text| ParseSanError::UnexpectedCharacter { text }),
        }
        Ok(Self(Kind::Normal {
            role,
            file,
            rank,
            capture,
            to,
            promotion,
        }))
    }

    /// The SAN of a legal move of `pos` (without check sign), with the
    /// smallest disambiguation FIDE allows.
    ///
    /// For a move `pos` does not allow the result is unspecified (but
    /// there is no panic).
    #[must_use]
    pub fn from_move<R: Rules>(pos: &Position<R>, mv: Move) -> Self {
        if mv.castling_side().is_some() || matches!(mv.role(), Role::Pawn | Role::King) {
            return Self::from_move_among(pos, mv, &[]);
        }
        Self::from_move_among(pos, mv, &pos.legal_moves())
    }

    /// As [`San::from_move`], with `legal` the legal moves of `pos` (only
    /// read to disambiguate a piece move).
    pub(crate) fn from_move_among<R: Rules>(pos: &Position<R>, mv: Move, legal: &[Move]) -> Self {
        if let Some(side) = mv.castling_side() {
            return Self(Kind::Castle(side));
        }
        let role = mv.role();
        let (from, to) = (mv.from(), mv.to());
        let capture = pos.is_capture(mv);
        let (file, rank) = if role == Role::Pawn {
            (capture.then(|| from.file()), None)
        } else if role == Role::King {
            (None, None)
        } else {
            let others: Vec<&Move> = legal
                .iter()
                .filter(|m| m.role() == role && m.to() == to && m.from() != from)
                .collect();
            if others.is_empty() {
                (None, None)
            } else if others.iter().all(|m| m.from().file() != from.file()) {
                (Some(from.file()), None)
            } else if others.iter().all(|m| m.from().rank() != from.rank()) {
                (None, Some(from.rank()))
            } else {
                (Some(from.file()), Some(from.rank()))
            }
        };
        Self(Kind::Normal {
            role,
            file,
            rank,
            capture,
            to,
            promotion: mv.promotion(),
        })
    }

    /// The one legal move of `pos` this SAN names.
    ///
    /// Castling matches only the castling move (`Kg1` is not `O-O`); a
    /// pawn without a file is a push; the capture sign is not checked.
    ///
    /// # Errors
    ///
    /// [`SanError::Illegal`] when no legal move matches,
    /// [`SanError::Ambiguous`] when more than one does.
    pub fn to_move<R: Rules>(&self, pos: &Position<R>) -> Result<Move, SanError> {
        let mut moves = pos.legal_moves();
        match self.0 {
            Kind::Castle(side) => moves.retain(|m| m.castling_side() == Some(side)),
            Kind::Normal {
                role,
                file,
                rank,
                to,
                promotion,
                ..
            } => {
                let file = match (role, file) {
                    (Role::Pawn, None) => Some(to.file()),
                    _ => file,
                };
                moves.retain(|m| {
                    m.role() == role
                        && m.to() == to
                        && m.castling_side().is_none()
                        && m.promotion() == promotion
                        && file.is_none_or(|f| m.from().file() == f)
                        && rank.is_none_or(|r| m.from().rank() == r)
                });
            }
        }
        match moves.as_slice() {
            [mv] => Ok(*mv),
            [] => Err(SanError::Illegal {
                san: self.to_string(),
                fen: pos.fen(),
            }),
            _ => Err(SanError::Ambiguous {
                san: self.to_string(),
                fen: pos.fen(),
                candidates: moves.iter().map(|m| m.to_uci()).collect(),
            }),
        }
    }

    /// The role of the moving piece, `None` for castling.
    #[must_use]
    pub const fn role(&self) -> Option<Role> {
        match self.0 {
            Kind::Normal { role, .. } => Some(role),
            Kind::Castle(_) => None,
        }
    }

    /// The destination square, `None` for castling (whose squares depend
    /// on the side to move).
    #[must_use]
    pub const fn to(&self) -> Option<Square> {
        match self.0 {
            Kind::Normal { to, .. } => Some(to),
            Kind::Castle(_) => None,
        }
    }

    /// The wing, for castling.
    #[must_use]
    pub const fn castling_side(&self) -> Option<CastlingSide> {
        match self.0 {
            Kind::Castle(side) => Some(side),
            Kind::Normal { .. } => None,
        }
    }

    /// The promotion role, if any.
    #[must_use]
    pub const fn promotion(&self) -> Option<Role> {
        match self.0 {
            Kind::Normal { promotion, .. } => promotion,
            Kind::Castle(_) => None,
        }
    }

    /// `true` when the text has a capture sign.
    #[must_use]
    pub const fn is_capture(&self) -> bool {
        matches!(self.0, Kind::Normal { capture: true, .. })
    }

    /// The file and rank given to tell the moving piece from others.
    #[must_use]
    pub const fn disambiguation(&self) -> (Option<File>, Option<Rank>) {
        match self.0 {
            Kind::Normal { file, rank, .. } => (file, rank),
            Kind::Castle(_) => (None, None),
        }
    }
}

impl<R: Rules> Position<R> {
    /// The SAN of a legal move, with its `+`/`#` sign, as shown to people.
    ///
    /// For a move this position does not allow the result is unspecified
    /// (but there is no panic).
    #[must_use]
    pub fn san(&self, mv: Move) -> String {
        SanPlus::from_move(self, mv).to_string()
    }
}

impl fmt::Display for San {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            Kind::Castle(CastlingSide::KingSide) => f.write_str("O-O"),
            Kind::Castle(CastlingSide::QueenSide) => f.write_str("O-O-O"),
            Kind::Normal {
                role,
                file,
                rank,
                capture,
                to,
                promotion,
            } => {
                if role != Role::Pawn {
                    f.write_char(role.upper_char())?;
                }
                if let Some(file) = file {
                    f.write_char(file.char())?;
                }
                if let Some(rank) = rank {
                    f.write_char(rank.char())?;
                }
                if capture {
                    f.write_str("x")?;
                }
                f.write_str(to.name())?;
                if let Some(p) = promotion {
                    f.write_char('=')?;
                    f.write_char(p.upper_char())?;
                }
                Ok(())
            }
        }
    }
}

impl fmt::Display for SanPlus {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.san)?;
        if let Some(s) = self.suffix {
            write!(f, "{}", s.char())?;
        }
        Ok(())
    }
}

impl FromStr for San {
    type Err = ParseSanError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Self::from_ascii(s.as_bytes())
    }
}

impl FromStr for SanPlus {
    type Err = ParseSanError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Self::from_ascii(s.as_bytes())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> Result<SanPlus, ParseSanError> {
        text.parse()
    }

    #[test]
    fn parses_and_writes_back() {
        for text in [
            "e4", "exd5", "Nf3", "Nbd7", "R1e2", "Qh4xe1", "e8=Q", "exd8=N+", "O-O", "O-O-O#",
            "Kxe2", "Bb5+",
        ] {
            assert_eq!(parse(text).unwrap().to_string(), text);
        }
    }

    #[test]
    fn tolerated_forms() {
        assert_eq!(parse("0-0").unwrap().to_string(), "O-O");
        assert_eq!(parse("0-0-0+").unwrap().to_string(), "O-O-O+");
        assert_eq!(parse("Nf3!?").unwrap().to_string(), "Nf3");
        assert_eq!(parse("Nf3+!").unwrap().to_string(), "Nf3+");
        assert_eq!(parse("e8Q").unwrap().to_string(), "e8=Q");
        assert_eq!(parse("e8=q").unwrap().to_string(), "e8=Q");
        assert_eq!(parse("Ng1-f3").unwrap().to_string(), "Ng1f3");
        assert_eq!(parse("Pe4").unwrap().to_string(), "e4");
    }

    #[test]
    fn rejects_malformed() {
        use ParseSanError as E;
        type Check = fn(&E) -> bool;
        let cases: [(&str, Check); 14] = [
            ("", |e| matches!(e, E::Empty)),
            ("+!", |e| matches!(e, E::Empty)),
            ("N", |e| matches!(e, E::InvalidDestination { .. })),
            ("Nf9", |e| matches!(e, E::InvalidDestination { .. })),
            ("e", |e| matches!(e, E::InvalidDestination { .. })),
            ("e8=K", |e| matches!(e, E::InvalidPromotion { .. })),
            ("e8=", |e| matches!(e, E::InvalidPromotion { .. })),
            ("e8K", |e| matches!(e, E::InvalidPromotion { .. })),
            ("Ne8=Q", |e| matches!(e, E::PromotionNotPawn { .. })),
            ("Xe4", |e| matches!(e, E::UnexpectedCharacter { .. })),
            ("Nxxf3", |e| matches!(e, E::UnexpectedCharacter { .. })),
            ("O-O-O-O", |e| matches!(e, E::UnexpectedCharacter { .. })),
            ("Né3", |e| matches!(e, E::UnexpectedCharacter { .. })),
            ("e4e4e4e4e4e4e4e4e4e4e4e4e4", |e| {
                matches!(e, E::TooLong { .. })
            }),
        ];
        for (text, check) in cases {
            let err = parse(text).expect_err(text);
            assert!(check(&err), "{text}: {err:?}");
        }
    }

    #[test]
    fn never_panics_on_bytes() {
        let alphabet = b"abh18x=+#NBRQKPO0-!?e\xff ";
        let mut state = 0x1234_5678_u64;
        for _ in 0..20_000 {
            let mut text = Vec::new();
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            let len = (state % 9) as usize;
            let mut s = state;
            for _ in 0..len {
                text.push(alphabet[(s % alphabet.len() as u64) as usize]);
                s /= alphabet.len() as u64;
            }
            if let Ok(san) = SanPlus::from_ascii(&text) {
                // Whatever parses must survive a round trip through text.
                assert_eq!(SanPlus::from_ascii(san.to_string().as_bytes()), Ok(san));
            }
        }
    }
}
