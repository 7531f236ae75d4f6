//! The `chessplayx` binary.

fn main() {}
