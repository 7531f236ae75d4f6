//! Shared material of the fuzz targets: the built-in start positions and
//! the slow reference move generators the `*_legal` targets compare the
//! rules crate with.
//!
//! The references are written from the rules pages
//! (`shared/rules/chess-family.md`, `shared/rules/xiangqi.md` §3–4), one
//! square at a time on a mailbox board, without bitboards, magic tables or
//! pins: slow, but different enough from `crates/rules` that the two are
//! unlikely to share a mistake.

#![forbid(unsafe_code)]

pub mod chess_ref;
pub mod positions;
pub mod xiangqi_ref;

/// Reads fuzzer bytes front to back; once they run out every read is 0,
/// so any input, even empty, drives a target to the end.
#[derive(Debug)]
pub struct Bytes<'a> {
    data: &'a [u8],
}

impl<'a> Bytes<'a> {
    /// Wraps the fuzzer's input.
    #[must_use]
    pub const fn new(data: &'a [u8]) -> Self {
        Self { data }
    }

    /// The next byte, 0 past the end.
    pub fn byte(&mut self) -> u8 {
        match self.data.split_first() {
            Some((&b, rest)) => {
                self.data = rest;
                b
            }
            None => 0,
        }
    }

    /// The next byte, `None` past the end (for "one move per byte" loops).
    pub fn next_byte(&mut self) -> Option<u8> {
        let (&b, rest) = self.data.split_first()?;
        self.data = rest;
        Some(b)
    }

    /// An index below `n` (`n > 0`) taken from the next byte.
    pub fn below(&mut self, n: usize) -> usize {
        usize::from(self.byte()) % n.max(1)
    }

    /// The next `n` bytes (fewer when the input runs out).
    pub fn take(&mut self, n: usize) -> &'a [u8] {
        let (head, rest) = self.data.split_at(n.min(self.data.len()));
        self.data = rest;
        head
    }

    /// Everything not read yet.
    #[must_use]
    pub const fn rest(&self) -> &'a [u8] {
        self.data
    }
}
