//! The rules of the games chessplayx plays: standard chess, Horde and
//! Atomic on the 8×8 board, and Xiangqi on its 9×10 board.
//!
//! The crate is pure: no I/O, no async, no global mutable state, and no
//! panics on any input. Unvalidated input (a parsed FEN) and a legal
//! position are different types; moves are parsed first for syntax, then
//! checked against a position.

mod any;
mod color;
mod dispatch;
mod game;
mod notation;
mod outcome;
mod variant;

pub mod chess;
pub mod xiangqi;

pub use any::{
    AnyClaimError, AnyGame, AnyPlayError, ChaseJson, GameStatus, MoveInfo, MoveWarningInfo,
    OpenError, PlayedMove, ReplayError, SideStreaks, StreakJson, XiangqiStatus,
};
pub use color::{ByColor, Color};
pub use dispatch::{GameVisitor, VariantPosition};
pub use game::{Game, MoveError};
pub use notation::Notation;
pub use outcome::{Claim, EndReason, Outcome};
pub use variant::{ParseVariantError, Variant};
