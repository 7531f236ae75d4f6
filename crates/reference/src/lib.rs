//! Slow reference move generators, the oracle that the rules crate's
//! property tests (`crates/rules/tests/chess_reference.rs`) and the fuzz
//! targets (`fuzz/`) compare `chessplayx-rules` with.
//!
//! The references are written from the rules pages
//! (`shared/rules/chess-family.md`, `shared/rules/xiangqi.md` §3–4), one
//! square at a time on a mailbox board, without bitboards, magic tables or
//! pins: slow, but different enough from `crates/rules` that the two are
//! unlikely to share a mistake. One copy serves the tests and the fuzzer,
//! so a fix to the oracle reaches both.
//!
//! Not published: it exists for testing only.

#![forbid(unsafe_code)]

pub mod chess;
pub mod xiangqi;
