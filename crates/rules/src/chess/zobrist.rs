//! Zobrist keys, generated at compile time from a fixed seed so that keys
//! are the same in every build (the game record may store them).

use super::{role::Role, setup::CastlingRights, square::Square};
use crate::Color;

const fn splitmix64(state: u64) -> (u64, u64) {
    let state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
    let mut z = state;
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    (state, z ^ (z >> 31))
}

/// 768 piece-square keys, then side, 4 castling flags and 8 files.
const COUNT: usize = 768 + 1 + 4 + 8;

const fn generate() -> [u64; COUNT] {
    let mut out = [0u64; COUNT];
    let mut state = 0x6368_6573_735f_7a6f; // "chess_zo"
    let mut i = 0;
    while i < COUNT {
        let (s, v) = splitmix64(state);
        state = s;
        out[i] = v;
        i += 1;
    }
    out
}

static KEYS: [u64; COUNT] = generate();

const fn castling_table() -> [u64; 16] {
    let keys = generate();
    let mut t = [0u64; 16];
    let mut bits = 0;
    while bits < 16 {
        let mut k = 0u64;
        let mut i = 0;
        while i < 4 {
            if bits & (1 << i) != 0 {
                k ^= keys[769 + i];
            }
            i += 1;
        }
        t[bits] = k;
        bits += 1;
    }
    t
}

static CASTLING: [u64; 16] = castling_table();

/// The key of one piece on one square.
#[inline(always)]
pub(crate) fn piece(color: Color, role: Role, sq: Square) -> u64 {
    KEYS[(color as usize * 6 + role as usize) * 64 + sq as usize]
}

/// Added when Black is to move.
#[inline(always)]
pub(crate) fn black_to_move() -> u64 {
    KEYS[768]
}

/// The key of a whole set of castling rights.
#[inline(always)]
pub(crate) fn castling(rights: CastlingRights) -> u64 {
    CASTLING[rights.bits() as usize & 15]
}

/// The key of an en-passant square (by its file).
#[inline(always)]
pub(crate) fn en_passant(sq: Square) -> u64 {
    KEYS[773 + sq.file() as usize]
}
