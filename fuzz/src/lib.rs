//! Shared material of the fuzz targets: the built-in start positions and
//! the byte reader. The slow reference move generators the `*_legal`
//! targets compare the rules crate with are the workspace crate
//! `chessplayx-reference` (`crates/reference`), which the rules crate's
//! property tests use too.

#![forbid(unsafe_code)]

pub mod positions;

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

/// The references are only worth comparing with when they are right: they
/// must reproduce the perft suites' counts (from engines this project did
/// not write, `shared/perft/*.epd`) for every built-in position.
#[cfg(test)]
mod tests {
    use chessplayx_rules::{
        chess::{Atomic, Horde, Position, Rules, Standard},
        xiangqi::Xiangqi,
    };

    use chessplayx_reference::{chess as chess_ref, xiangqi as xiangqi_ref};

    use crate::positions;

    fn chess_perft(pos: &chess_ref::RefPos, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        pos.legal_moves()
            .into_iter()
            .map(|m| chess_perft(&pos.make(m), depth - 1))
            .sum()
    }

    fn xiangqi_perft(pos: &xiangqi_ref::RefPos, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        pos.legal_moves()
            .into_iter()
            .map(|m| xiangqi_perft(&pos.make(m), depth - 1))
            .sum()
    }

    fn check_chess<R: Rules>(fens: &[&str], family: chess_ref::Family, d3: &[u64]) {
        assert_eq!(fens.len(), d3.len());
        for (fen, &expected) in fens.iter().zip(d3) {
            let pos = Position::<R>::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
            let reference = chess_ref::RefPos::from_position(&pos, family);
            assert_eq!(chess_perft(&reference, 3), expected, "perft 3 of {fen}");
        }
    }

    #[test]
    fn chess_reference_matches_the_suites() {
        check_chess::<Standard>(
            positions::CHESS,
            chess_ref::Family::Standard,
            &[8902, 97862, 9467, 62379, 343, 555, 2528, 4593, 497],
        );
    }

    #[test]
    fn horde_reference_matches_the_suites() {
        check_chess::<Horde>(
            positions::HORDE,
            chess_ref::Family::Horde,
            &[1274, 6633, 14481, 77, 4140, 1058, 1608, 665],
        );
    }

    #[test]
    fn atomic_reference_matches_the_suites() {
        check_chess::<Atomic>(
            positions::ATOMIC,
            chess_ref::Family::Atomic,
            &[8902, 45237, 7676, 14295, 12897, 299, 1304, 27627, 1719],
        );
    }

    #[test]
    fn xiangqi_reference_matches_the_suites() {
        let d3: &[u64] = &[79666, 43929, 9850, 100326, 3707, 1205, 81756, 98, 1069, 198];
        assert_eq!(positions::XIANGQI.len(), d3.len());
        for (fen, &expected) in positions::XIANGQI.iter().zip(d3) {
            let pos = Xiangqi::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
            let reference = xiangqi_ref::RefPos::from_position(&pos);
            assert_eq!(xiangqi_perft(&reference, 3), expected, "perft 3 of {fen}");
        }
    }
}
