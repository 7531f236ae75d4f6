//! The 8×8 family: standard chess, Horde and Atomic.
//!
//! One [`Position<R>`] struct serves the three games; the zero-sized rule
//! types [`Standard`], [`Horde`] and [`Atomic`] say where they differ.
//! The aliases [`Chess`], [`HordeChess`] and [`AtomicChess`] name the
//! three positions.
//!
//! Input is checked in two steps: [`Setup::from_fen`] reads the text
//! ([`ParseFenError`]) and [`Position::from_setup`] checks it against the
//! game ([`PositionError`]); [`Position::from_fen`] does both. Moves in
//! UCI likewise: [`UciMove`] is syntax, [`UciMove::to_move`] legality.
//!
//! FEN is written as Fairy-Stockfish writes it. The en-passant square is
//! given after a double step exactly when a pawn of the side to move
//! attacks it (even if that capture is illegal because of a pin) and `-`
//! otherwise; when reading, a square no pawn attacks is dropped, so both
//! conventions are accepted and equal positions compare, hash and print
//! alike. The Zobrist key ([`Position::zobrist`]) includes that square.
//!
//! ```
//! use chessplayx_rules::chess::{Chess, UciMove};
//!
//! let mut pos = Chess::start();
//! assert_eq!(pos.legal_moves().len(), 20);
//! let mv = "e2e4".parse::<UciMove>()?.to_move(&pos)?;
//! pos.play(mv);
//! assert_eq!(pos.fen(), "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1");
//! assert_eq!(Chess::start().perft(3), 8902);
//! # Ok::<_, Box<dyn std::error::Error>>(())
//! ```

mod attacks;
mod bitboard;
mod board;
mod movegen;
mod moves;
mod pgn;
mod pgn_read;
mod position;
mod record;
mod role;
mod rules;
mod san;
mod setup;
mod square;
mod uci;
mod zobrist;

pub use attacks::{
    between, bishop_attacks, king_attacks, knight_attacks, line, pawn_attacks, queen_attacks,
    rook_attacks,
};
pub use bitboard::{Bitboard, IntoIter as BitboardIter};
pub use board::Board;
pub use moves::Move;
pub use pgn::{PgnTagError, PgnTags, write_pgn_movetext, write_pgn_tag};
pub use pgn_read::{
    MAX_PGN_LEN, MAX_PGN_MOVES, ParsePgnError, PgnGame, PgnMove, PgnReplayError, TextPos,
};
pub use position::{AtomicChess, Chess, FenError, HordeChess, Position, PositionError};
pub use record::{
    AtomicGame, ChessGame, ClaimError, FIFTY_MOVES_PLIES, FIVEFOLD, HordeGame, PlayError,
    PlaySanError, PlayUciError, SEVENTY_FIVE_MOVES_PLIES, StandardGame, THREEFOLD,
};
pub use role::{Piece, Role};
pub use rules::{Atomic, Horde, Rules, Standard};
pub use san::{ParseSanError, San, SanError, SanPlus, Suffix};
pub use setup::{CastlingRights, CastlingSide, FenField, ParseFenError, Setup};
pub use square::{File, ParseSquareError, Rank, Square};
pub use uci::{IllegalUciMoveError, ParseUciMoveError, UciMove};
