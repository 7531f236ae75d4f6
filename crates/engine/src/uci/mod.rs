//! The UCI protocol: parsing command lines and the session loop that
//! answers them over any `BufRead`/`Write` pair.
//!
//! The loop knows the protocol (`uci`, `isready`, `quit`, error reporting);
//! everything that needs a position or a search goes through
//! [`UciBackend`], so the same loop serves the `chessplayx uci` binary and
//! transcript tests.

mod command;
mod session;

pub use command::{GoParam, GoParams, StartPosition, UciCommand, UciParseError};
pub use session::{Reply, UciBackend, UciOption, UciOptionError, UciOptionKind, run};
