//! chessplayx engine (work in progress: see the issues).
