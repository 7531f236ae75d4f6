//! Xiangqi on its 9×10 board, under the Asian competition rules.
//!
//! Own geometry (90 points, 128-bit bitboards), FEN in Fairy-Stockfish's
//! format with strict validation, legal move generation, perft, UCI
//! coordinates and WXF notation.
//!
//! ```
//! use chessplayx_rules::xiangqi::{UciMove, Xiangqi};
//!
//! let mut pos = Xiangqi::start();
//! assert_eq!(pos.legal_moves().len(), 44);
//! let mv = UciMove::from_ascii(b"h3e3")?.to_move(&pos)?;
//! assert_eq!(pos.wxf(mv), "C2=5");
//! pos.play_unchecked(mv);
//! assert_eq!(pos.fen(), "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 1 1");
//! # Ok::<_, Box<dyn std::error::Error>>(())
//! ```
//!
//! # Queries for the advanced (check and chase) rules
//!
//! * Placement-level, on any [`Board`] (so a copy can be edited and asked
//!   again): [`Board::attacks_from`], [`Board::attackers_to`],
//!   [`Board::king_attackers`] (with the flying general),
//!   [`Board::generals_face`], [`Board::is_in_check`], [`Board::is_pinned`]
//!   (the §7.2 definition), [`Board::pseudo_targets`],
//!   [`Board::is_legal_move_for_owner`] (a capture's legality whoever is to
//!   move), [`Board::move_piece`].
//! * Occupancy-level functions: [`attacks`], [`chariot_attacks`],
//!   [`cannon_attacks`], [`horse_attacks`], [`horse_attackers`],
//!   [`elephant_attacks`], [`advisor_attacks`], [`general_attacks`],
//!   [`soldier_attacks`], [`soldier_attackers`], [`between`].
//! * Position-level: [`Xiangqi::checkers`], [`Xiangqi::is_check`],
//!   [`Xiangqi::pinned`], [`Xiangqi::legal_moves_from`],
//!   [`Xiangqi::is_legal`], [`Xiangqi::swap_turn`] and
//!   [`Xiangqi::opponent_captures`] (what the side that just moved
//!   threatens next), [`Xiangqi::captured`], [`Xiangqi::gives_check`],
//!   [`Square::is_own_half`] (a soldier has crossed the river when it is
//!   not on its own half), [`crossed_river`].

mod advanced;
mod attacks;
mod bitboard;
mod board;
mod config;
mod movegen;
mod position;
mod record;
mod report;
mod role;
mod setup;
mod square;
mod uci;
mod wxf;
mod zobrist;

pub use advanced::{PieceId, PieceIds, Threats, capture_ok, is_protected, threatens};
pub use attacks::{
    advisor_attacks, attacks, between, cannon_attacks, chariot_attacks, elephant_attacks,
    general_attacks, horse_attackers, horse_attacks, soldier_attackers, soldier_attacks,
};
pub use bitboard::Bitboard;
pub use board::Board;
pub use config::{LimitCap, MoveUnit, ViolationMode, XiangqiConfig};
pub use position::{FenError, IllegalMove, Move, PositionError, Xiangqi};
pub use record::XiangqiGame;
pub use report::{
    Chase, ChaseStreak, Counters, MoveWarning, PlyReport, StreakInfo, Streaks, XiangqiPlayError,
};
pub use role::{Piece, Role};
pub use setup::{ParseFenError, Setup};
pub use square::{File, ParseSquareError, Rank, Square, SquareIndexError};
pub use uci::{IllegalUciMoveError, ParseUciMoveError, UciMove};
pub use wxf::{IllegalWxfError, ParseWxfError, Wxf, WxfDirection, WxfPosition};

use crate::Color;

/// `true` when a `color` soldier on `sq` has crossed the river (stands on
/// the opponent's half), and so may also move sideways.
#[must_use]
pub const fn crossed_river(color: Color, sq: Square) -> bool {
    !sq.is_own_half(color)
}
