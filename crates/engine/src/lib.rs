//! The chessplayx engine: the UCI protocol today, the search and the
//! evaluation per game later (see the issues).

pub mod uci;
