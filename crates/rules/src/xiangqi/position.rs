//! The legal position: [`Xiangqi`].

use core::fmt;

use super::{
    Bitboard, Board, File, Piece, Rank, Role, Setup, Square,
    movegen::{self, Counter, Ctx, MoveList},
    setup::ParseFenError,
    zobrist,
};
use crate::{Color, EndReason, Game, MoveError, Outcome, Variant};

/// A move: origin and destination. What moves and what is captured follow
/// from the position it was generated in. Two bytes, `Copy`.
#[derive(Copy, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Move(u16);

impl Move {
    /// A placeholder (`a1a1`) that no position generates; fills unused
    /// slots of fixed-size move lists.
    pub const NULL: Self = Self(0);

    /// The move from `from` to `to`.
    #[must_use]
    pub const fn new(from: Square, to: Square) -> Self {
        Self(from.index() as u16 | (to.index() as u16) << 7)
    }

    #[inline(always)]
    pub(crate) const fn from_indices(from: usize, to: usize) -> Self {
        Self(from as u16 | (to as u16) << 7)
    }

    /// Origin.
    #[must_use]
    #[inline(always)]
    pub const fn from(self) -> Square {
        Square::from_index_unchecked((self.0 & 0x7f) as u8)
    }

    /// Destination.
    #[must_use]
    #[inline(always)]
    pub const fn to(self) -> Square {
        Square::from_index_unchecked((self.0 >> 7) as u8)
    }

    /// UCI coordinates, e.g. `h3e3`, `b10c8`.
    #[must_use]
    pub fn to_uci(self) -> String {
        format!("{}{}", self.from(), self.to())
    }
}

impl fmt::Debug for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.from(), self.to())
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.from(), self.to())
    }
}

/// Why a [`Setup`] is not a legal Xiangqi position (§2.3 of the rules).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PositionError {
    /// A side has no general.
    #[error("{color} has no general")]
    MissingGeneral {
        /// The side.
        color: Color,
    },
    /// A side has more of one kind of piece than the start position gives
    /// it (one general, two of each officer, five soldiers).
    #[error("{color} has {count} pieces of kind {role:?}, at most {max} are possible")]
    TooManyPieces {
        /// The side.
        color: Color,
        /// The kind.
        role: Role,
        /// How many there are.
        count: u32,
        /// The most possible.
        max: u32,
    },
    /// A general outside its own palace.
    #[error("general on {square} is outside its palace")]
    GeneralOutsidePalace {
        /// Where it stands.
        square: Square,
    },
    /// An advisor off its side's five palace points.
    #[error("advisor on {square} is not on one of its five palace points")]
    AdvisorOffPoint {
        /// Where it stands.
        square: Square,
    },
    /// An elephant off its side's seven points.
    #[error("elephant on {square} is not on one of its seven points")]
    ElephantOffPoint {
        /// Where it stands.
        square: Square,
    },
    /// A soldier behind its starting rank (soldiers never retreat).
    #[error("soldier on {square} is behind its starting rank")]
    SoldierBehindStart {
        /// Where it stands.
        square: Square,
    },
    /// The generals face each other on an open file.
    #[error("the generals face each other")]
    GeneralsFacing,
    /// The side that just moved is in check: its general could be taken.
    #[error("{color}, not to move, is in check")]
    OppositeCheck {
        /// The side in check.
        color: Color,
    },
}

/// Error of [`Xiangqi::from_fen`]: unreadable text or an illegal position.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum FenError {
    /// The text is not a FEN.
    #[error(transparent)]
    Parse(#[from] ParseFenError),
    /// The FEN describes an impossible position.
    #[error(transparent)]
    Position(#[from] PositionError),
}

/// A legal Xiangqi position with the side to move, the FEN counters and an
/// incrementally updated Zobrist key. Built only from [`Xiangqi::start`],
/// a validated [`Setup`], or by playing legal moves.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Xiangqi {
    pub(crate) board: Board,
    pub(crate) turn: Color,
    pub(crate) generals: [Square; 2],
    halfmoves: u32,
    fullmoves: u32,
    zobrist: u64,
}

impl fmt::Debug for Xiangqi {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Xiangqi({})", self.fen())
    }
}

impl Default for Xiangqi {
    fn default() -> Self {
        Self::start()
    }
}

const fn is_advisor_point(color: Color, sq: Square) -> bool {
    let s = match color {
        Color::White => sq,
        Color::Black => sq.flip(),
    };
    let f = s.index() % 9;
    let r = s.index() / 9;
    f >= 3 && f <= 5 && r <= 2 && (f - 3 + r) % 2 == 0
}

const fn is_elephant_point(color: Color, sq: Square) -> bool {
    let s = match color {
        Color::White => sq,
        Color::Black => sq.flip(),
    };
    let f = s.index() % 9;
    let r = s.index() / 9;
    f % 2 == 0 && r % 2 == 0 && r <= 4 && (f / 2 + r / 2) % 2 == 1
}

impl Xiangqi {
    /// The start position.
    #[must_use]
    pub fn start() -> Self {
        let setup = Setup::default();
        let generals = [
            Square::from_coords(File::E, Rank::First),
            Square::from_coords(File::E, Rank::Tenth),
        ];
        let zobrist = Self::compute_zobrist(&setup.board, setup.turn);
        Self {
            board: setup.board,
            turn: Color::White,
            generals,
            halfmoves: 0,
            fullmoves: 1,
            zobrist,
        }
    }

    /// Checks a setup against §2.3 of the rules and makes it playable.
    ///
    /// # Errors
    ///
    /// The first [`PositionError`] found, in this order: piece counts,
    /// squares of generals, advisors, elephants and soldiers, facing
    /// generals, side not to move in check.
    pub fn from_setup(setup: Setup) -> Result<Self, PositionError> {
        let b = &setup.board;
        for color in Color::ALL {
            for role in Role::ALL {
                let count = b.count(Piece::new(color, role));
                if role == Role::General && count == 0 {
                    return Err(PositionError::MissingGeneral { color });
                }
                if count > role.max_count() {
                    return Err(PositionError::TooManyPieces {
                        color,
                        role,
                        count,
                        max: role.max_count(),
                    });
                }
            }
        }
        for (sq, p) in b.pieces() {
            let ok = match p.role {
                Role::General => sq.in_palace(p.color),
                Role::Advisor => is_advisor_point(p.color, sq),
                Role::Elephant => is_elephant_point(p.color, sq),
                Role::Soldier => match p.color {
                    Color::White => sq.rank() >= Rank::Fourth,
                    Color::Black => sq.rank() <= Rank::Seventh,
                },
                _ => true,
            };
            if !ok {
                return Err(match p.role {
                    Role::General => PositionError::GeneralOutsidePalace { square: sq },
                    Role::Advisor => PositionError::AdvisorOffPoint { square: sq },
                    Role::Elephant => PositionError::ElephantOffPoint { square: sq },
                    _ => PositionError::SoldierBehindStart { square: sq },
                });
            }
        }
        if b.generals_face() {
            return Err(PositionError::GeneralsFacing);
        }
        let waiting = !setup.turn;
        if b.is_in_check(waiting) {
            return Err(PositionError::OppositeCheck { color: waiting });
        }
        let (Some(red), Some(black)) = (b.general(Color::White), b.general(Color::Black)) else {
            // Unreachable: counts were checked above.
            return Err(PositionError::MissingGeneral {
                color: Color::White,
            });
        };
        let zobrist = Self::compute_zobrist(&setup.board, setup.turn);
        Ok(Self {
            board: setup.board,
            turn: setup.turn,
            generals: [red, black],
            halfmoves: setup.halfmoves,
            // A hand-built setup may hold 0, which no FEN parses to.
            fullmoves: setup.fullmoves.max(1),
            zobrist,
        })
    }

    /// Parses and validates a FEN.
    ///
    /// # Errors
    ///
    /// [`FenError::Parse`] for malformed text, [`FenError::Position`] for
    /// a well-formed FEN of an illegal position.
    pub fn from_fen(fen: &str) -> Result<Self, FenError> {
        Ok(Self::from_setup(Setup::from_fen(fen)?)?)
    }

    /// The position as an unvalidated setup (for editing).
    #[must_use]
    pub fn to_setup(&self) -> Setup {
        Setup {
            board: self.board.clone(),
            turn: self.turn,
            halfmoves: self.halfmoves,
            fullmoves: self.fullmoves,
        }
    }

    /// The FEN in Fairy-Stockfish's format.
    #[must_use]
    pub fn fen(&self) -> String {
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

    fn compute_zobrist(board: &Board, turn: Color) -> u64 {
        let mut z = zobrist::turn_key(turn);
        for (sq, p) in board.pieces() {
            z ^= zobrist::piece_key(p, sq.index() as usize);
        }
        z
    }

    /// The Zobrist key recomputed from scratch (tests compare it with the
    /// incremental [`Xiangqi::zobrist`]).
    #[must_use]
    pub fn zobrist_from_scratch(&self) -> u64 {
        Self::compute_zobrist(&self.board, self.turn)
    }

    /// The incrementally maintained Zobrist key (placement and side to move).
    #[must_use]
    #[inline(always)]
    pub fn zobrist(&self) -> u64 {
        self.zobrist
    }

    /// The placement.
    #[must_use]
    #[inline(always)]
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// The side to move (Red = [`Color::White`]).
    #[must_use]
    #[inline(always)]
    pub fn turn(&self) -> Color {
        self.turn
    }

    /// The FEN halfmove field: plies since the last capture, as
    /// Fairy-Stockfish counts it.
    #[must_use]
    pub fn halfmoves(&self) -> u32 {
        self.halfmoves
    }

    /// The FEN fullmove field.
    #[must_use]
    pub fn fullmoves(&self) -> u32 {
        self.fullmoves
    }

    /// Plies played since the game's start as the FEN tells it:
    /// `2 * (fullmove - 1) + (1 if Black to move)` (Fairy-Stockfish's
    /// `gamePly`).
    #[must_use]
    pub fn game_ply(&self) -> u64 {
        2 * (u64::from(self.fullmoves) - 1) + self.turn as u64
    }

    /// The piece on `sq`.
    #[must_use]
    #[inline(always)]
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        self.board.piece_at(sq)
    }

    /// The general of `color` (always present in a legal position).
    #[must_use]
    #[inline(always)]
    pub fn general(&self, color: Color) -> Square {
        self.generals[color as usize]
    }

    /// Enemy pieces giving check to the side to move.
    #[must_use]
    pub fn checkers(&self) -> Bitboard {
        Bitboard(Ctx::new(self).checkers)
    }

    /// `true` while `color` has a piece that can attack (a chariot, horse,
    /// cannon or soldier): a general with advisors and elephants alone
    /// cannot, so a time-out against it is a draw. Wins by stalemating a
    /// helpless opponent are not considered.
    #[must_use]
    pub fn can_still_win(&self, color: Color) -> bool {
        let board = self.board();
        [Role::Chariot, Role::Horse, Role::Cannon, Role::Soldier]
            .into_iter()
            .any(|role| (board.by_role(role) & board.by_color(color)).any())
    }

    /// `true` when the side to move is in check.
    #[must_use]
    pub fn is_check(&self) -> bool {
        Ctx::new(self).checkers != 0
    }

    /// Pieces of the side to move whose moves are restricted by their own
    /// general's safety: the only piece between the general and an enemy
    /// chariot or the enemy general, either of two pieces between the
    /// general and an enemy cannon, or a piece on the leg of an enemy horse
    /// aimed at the general. (A move of such a piece along its line may
    /// still be legal.)
    #[must_use]
    pub fn pinned(&self) -> Bitboard {
        Bitboard(Ctx::new(self).pinned)
    }

    /// Empty squares between the own general and an enemy cannon with no
    /// piece between: a piece of the side to move arriving there would
    /// become a screen and expose its own general.
    #[must_use]
    pub fn screen_squares(&self) -> Bitboard {
        Bitboard(Ctx::new(self).screens)
    }

    /// Every legal move.
    #[must_use]
    pub fn legal_moves(&self) -> Vec<Move> {
        let mut v = Vec::with_capacity(64);
        self.legal_moves_vec(&mut v);
        v
    }

    fn legal_moves_vec(&self, out: &mut Vec<Move>) {
        let mut list = MoveList::new();
        movegen::generate(self, &mut list);
        out.clear();
        out.extend_from_slice(list.as_slice());
    }

    /// Number of legal moves, without building a list.
    #[must_use]
    pub fn count_legal_moves(&self) -> u64 {
        let mut c = Counter(0);
        movegen::generate(self, &mut c);
        c.0
    }

    /// `true` when the side to move has a legal move.
    #[must_use]
    pub fn has_legal_moves(&self) -> bool {
        self.count_legal_moves() > 0
    }

    /// The legal moves of the piece on `from` (empty if it is not a piece of
    /// the side to move).
    #[must_use]
    pub fn legal_moves_from(&self, from: Square) -> Vec<Move> {
        let ctx = Ctx::new(self);
        let f = from.index() as usize;
        let mut t = movegen::pseudo_targets(self, &ctx, f);
        let mut out = Vec::new();
        while t != 0 {
            let to = t.trailing_zeros() as usize;
            t &= t - 1;
            if ctx.safe_after(f, to) {
                out.push(Move::from_indices(f, to));
            }
        }
        out
    }

    /// `true` when `mv` is legal here.
    #[must_use]
    pub fn is_legal(&self, mv: Move) -> bool {
        let ctx = Ctx::new(self);
        let (f, t) = (mv.from().index() as usize, mv.to().index() as usize);
        movegen::pseudo_targets(self, &ctx, f) >> t & 1 != 0 && ctx.safe_after(f, t)
    }

    /// `true` when `mv` takes a piece.
    #[must_use]
    pub fn is_capture(&self, mv: Move) -> bool {
        self.board.by_color(!self.turn).contains(mv.to())
    }

    /// The piece `mv` takes, if any.
    #[must_use]
    pub fn captured(&self, mv: Move) -> Option<Piece> {
        self.board
            .piece_at(mv.to())
            .filter(|p| p.color != self.turn)
    }

    /// `true` when `mv` leaves the opponent in check.
    #[must_use]
    pub fn gives_check(&self, mv: Move) -> bool {
        let mut p = self.clone();
        p.play_unchecked(mv);
        p.is_check()
    }

    /// Plays a move that [`Xiangqi::legal_moves`] produced. Anything else
    /// leaves the position unspecified but never panics.
    #[inline]
    pub fn play_unchecked(&mut self, mv: Move) {
        let from = mv.from();
        let to = mv.to();
        let Some(piece) = self.board.piece_at(from) else {
            return;
        };
        if from == to {
            return;
        }
        let captured = self.board.piece_at(to);
        self.board.apply_move(from, to, piece, captured);
        let mut z = self.zobrist ^ zobrist::SIDE_KEY;
        z ^= zobrist::piece_key(piece, from.index() as usize)
            ^ zobrist::piece_key(piece, to.index() as usize);
        if let Some(c) = captured {
            z ^= zobrist::piece_key(c, to.index() as usize);
            self.halfmoves = 0;
        } else {
            self.halfmoves = self.halfmoves.saturating_add(1);
        }
        self.zobrist = z;
        if piece.role == Role::General {
            self.generals[piece.color as usize] = to;
        }
        if self.turn == Color::Black {
            self.fullmoves = self.fullmoves.saturating_add(1);
        }
        self.turn = !self.turn;
    }

    /// Plays `mv` if it is legal.
    ///
    /// # Errors
    ///
    /// [`IllegalMove`] when it is not, leaving the position unchanged.
    pub fn play(&mut self, mv: Move) -> Result<(), IllegalMove> {
        if self.is_legal(mv) {
            self.play_unchecked(mv);
            Ok(())
        } else {
            Err(IllegalMove { mv })
        }
    }

    /// The same placement with the other side to move, for questions like
    /// "which captures could the side that just moved make next" (the
    /// chase rules). `None` when the side to move is in check, because the
    /// swapped position would have the side not to move in check.
    #[must_use]
    pub fn swap_turn(&self) -> Option<Self> {
        if self.is_check() {
            return None;
        }
        let mut p = self.clone();
        p.turn = !p.turn;
        p.zobrist ^= zobrist::SIDE_KEY;
        Some(p)
    }

    /// Legal captures the side **not** to move could make if it were its
    /// turn (empty when the side to move is in check, since then the
    /// question has no legal answer; use
    /// [`Board::is_legal_move_for_owner`] for placement-only checks).
    #[must_use]
    pub fn opponent_captures(&self) -> Vec<Move> {
        self.swap_turn().map_or_else(Vec::new, |p| {
            p.legal_moves()
                .into_iter()
                .filter(|&m| p.is_capture(m))
                .collect()
        })
    }

    /// The end decided by this position alone: no legal move loses in
    /// Xiangqi, by checkmate or by stalemate.
    #[must_use]
    pub fn outcome(&self) -> Option<Outcome> {
        if self.has_legal_moves() {
            return None;
        }
        let reason = if self.is_check() {
            EndReason::Checkmate
        } else {
            EndReason::Stalemate
        };
        Some(Outcome::win(!self.turn, reason))
    }

    /// Leaf count of the legal move tree `depth` plies deep, with bulk
    /// counting at the last ply.
    #[must_use]
    pub fn perft(&self, depth: u32) -> u64 {
        match depth {
            0 => 1,
            1 => self.count_legal_moves(),
            _ => {
                let mut list = MoveList::new();
                movegen::generate(self, &mut list);
                let mut total = 0;
                for &m in list.as_slice() {
                    let mut child = self.clone();
                    child.play_unchecked(m);
                    total += child.perft(depth - 1);
                }
                total
            }
        }
    }

    /// Perft per root move ("divide"), in generation order.
    #[must_use]
    pub fn divide(&self, depth: u32) -> Vec<(Move, u64)> {
        self.legal_moves()
            .into_iter()
            .map(|m| {
                let mut child = self.clone();
                child.play_unchecked(m);
                (
                    m,
                    if depth <= 1 {
                        1
                    } else {
                        child.perft(depth - 1)
                    },
                )
            })
            .collect()
    }
}

/// A move that is not legal in the position it was played in.
#[derive(Copy, Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("illegal move {mv}")]
pub struct IllegalMove {
    /// The move.
    pub mv: Move,
}

impl Game for Xiangqi {
    type Move = Move;

    fn variant(&self) -> Variant {
        Variant::Xiangqi
    }

    fn turn(&self) -> Color {
        self.turn
    }

    fn is_check(&self) -> bool {
        Self::is_check(self)
    }

    fn legal_moves_into(&self, out: &mut Vec<Move>) {
        self.legal_moves_vec(out);
    }

    fn play(&mut self, mv: Move) {
        self.play_unchecked(mv);
    }

    fn zobrist(&self) -> u64 {
        self.zobrist
    }

    fn fen(&self) -> String {
        Self::fen(self)
    }

    fn move_to_uci(&self, mv: Move) -> String {
        mv.to_uci()
    }

    fn parse_uci(&self, uci: &str) -> Result<Move, MoveError> {
        let parsed = super::UciMove::from_ascii(uci.as_bytes()).map_err(|_| MoveError::Syntax {
            text: uci.to_owned(),
        })?;
        parsed.to_move(self).map_err(|_| MoveError::Illegal {
            text: uci.to_owned(),
        })
    }

    fn is_capture(&self, mv: Move) -> bool {
        Self::is_capture(self, mv)
    }

    fn outcome(&self) -> Option<Outcome> {
        Self::outcome(self)
    }

    fn perft(&self, depth: u32) -> u64 {
        Self::perft(self, depth)
    }
}
