//! Zobrist keys: fixed pseudo-random numbers, computed at compile time from
//! a fixed seed so keys are identical across builds and machines.

use super::Piece;
use crate::Color;

const fn splitmix(state: u64) -> (u64, u64) {
    let s = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = s;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    (s, z ^ (z >> 31))
}

const fn make_keys() -> ([[u64; 90]; 14], u64) {
    let mut keys = [[0u64; 90]; 14];
    // "xiangqi" in ASCII: a fixed, documented seed.
    let mut state = 0x0078_6961_6E67_7169u64;
    let mut p = 0;
    while p < 14 {
        let mut sq = 0;
        while sq < 90 {
            let (s, v) = splitmix(state);
            state = s;
            keys[p][sq] = v;
            sq += 1;
        }
        p += 1;
    }
    let (_, side) = splitmix(state);
    (keys, side)
}

const KEYS: ([[u64; 90]; 14], u64) = make_keys();
static PIECE_KEYS: [[u64; 90]; 14] = KEYS.0;

/// Key of Black to move.
pub(crate) const SIDE_KEY: u64 = KEYS.1;

/// Key of `piece` on square index `sq`.
#[inline(always)]
pub(crate) fn piece_key(piece: Piece, sq: usize) -> u64 {
    PIECE_KEYS[piece.code() as usize - 1][sq]
}

/// Key of the side to move.
#[inline(always)]
pub(crate) const fn turn_key(turn: Color) -> u64 {
    match turn {
        Color::White => 0,
        Color::Black => SIDE_KEY,
    }
}
