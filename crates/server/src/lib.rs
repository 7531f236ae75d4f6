//! chessplayx server (work in progress: see the issues).
