//! Attack tables and attack functions for the seven kinds of pieces.
//!
//! Everything here works on a bare occupancy, so callers can ask about
//! hypothetical placements (a piece removed, a capture played) without
//! building a position. Tables are computed at compile time by `const fn`.
//!
//! Sliding attacks follow the four rays from the square: the first occupied
//! square on a ray (found with one `trailing_zeros`/`leading_zeros` on the
//! masked ray) ends the chariot's reach, and the next occupied square beyond
//! it is the cannon's capture.

use super::{Bitboard, Role, Square};
use crate::Color;

pub(crate) const N: usize = 0;
pub(crate) const E: usize = 1;
pub(crate) const S: usize = 2;
pub(crate) const W: usize = 3;

const fn sq_offset(sq: usize, df: i32, dr: i32) -> Option<usize> {
    let f = (sq % 9) as i32 + df;
    let r = (sq / 9) as i32 + dr;
    if f < 0 || f >= 9 || r < 0 || r >= 10 {
        None
    } else {
        Some((r * 9 + f) as usize)
    }
}

const fn bit(sq: usize) -> u128 {
    1u128 << sq
}

const fn in_palace(sq: usize) -> bool {
    let f = sq % 9;
    let r = sq / 9;
    f >= 3 && f <= 5 && (r <= 2 || r >= 7)
}

const DIRS: [(i32, i32); 4] = [(0, 1), (1, 0), (0, -1), (-1, 0)];

const fn make_rays() -> [[u128; 90]; 4] {
    let mut t = [[0u128; 90]; 4];
    let mut d = 0;
    while d < 4 {
        let mut sq = 0;
        while sq < 90 {
            let mut cur = sq;
            let mut acc = 0u128;
            while let Some(n) = sq_offset(cur, DIRS[d].0, DIRS[d].1) {
                acc |= bit(n);
                cur = n;
            }
            t[d][sq] = acc;
            sq += 1;
        }
        d += 1;
    }
    t
}

/// `RAYS[dir][sq]`: the squares strictly beyond `sq` in direction `dir`
/// (N, E, S, W). N and E point to higher indices.
pub(crate) static RAYS: [[u128; 90]; 4] = make_rays();

const fn make_steps(diagonal: bool) -> [u128; 90] {
    let mut t = [0u128; 90];
    let mut sq = 0;
    while sq < 90 {
        if in_palace(sq) {
            let deltas: [(i32, i32); 4] = if diagonal {
                [(1, 1), (1, -1), (-1, 1), (-1, -1)]
            } else {
                DIRS
            };
            let mut i = 0;
            while i < 4 {
                if let Some(n) = sq_offset(sq, deltas[i].0, deltas[i].1) {
                    // Same palace: palaces are 3 ranks apart from each other,
                    // so a one-step neighbour in a palace is in the same one.
                    if in_palace(n) {
                        t[sq] |= bit(n);
                    }
                }
                i += 1;
            }
        }
        sq += 1;
    }
    t
}

static GENERAL_STEPS: [u128; 90] = make_steps(false);
static ADVISOR_STEPS: [u128; 90] = make_steps(true);

/// Leg (or eye) squares and target squares of the jumping pieces, four
/// entries per square, zero where the move leaves the board.
#[derive(Copy, Clone)]
pub(crate) struct Jumps {
    pub(crate) block: [u128; 4],
    pub(crate) to: [u128; 4],
}

const fn make_horse() -> [Jumps; 90] {
    let mut t = [Jumps {
        block: [0; 4],
        to: [0; 4],
    }; 90];
    let mut sq = 0;
    while sq < 90 {
        let mut d = 0;
        while d < 4 {
            let (df, dr) = DIRS[d];
            if let Some(leg) = sq_offset(sq, df, dr) {
                let mut to = 0u128;
                // Two targets: two steps along the leg direction, one across.
                if let Some(a) = sq_offset(sq, 2 * df + dr, 2 * dr + df) {
                    to |= bit(a);
                }
                if let Some(b) = sq_offset(sq, 2 * df - dr, 2 * dr - df) {
                    to |= bit(b);
                }
                t[sq].block[d] = bit(leg);
                t[sq].to[d] = to;
            }
            d += 1;
        }
        sq += 1;
    }
    t
}

const fn make_horse_attackers() -> [Jumps; 90] {
    // A horse on h attacks sq through the leg next to h, which is a
    // diagonal neighbour of sq; `block` is that leg and `to` the horse
    // squares (two per leg) that use it.
    let mut t = [Jumps {
        block: [0; 4],
        to: [0; 4],
    }; 90];
    let diag: [(i32, i32); 4] = [(1, 1), (1, -1), (-1, -1), (-1, 1)];
    let mut sq = 0;
    while sq < 90 {
        let mut d = 0;
        while d < 4 {
            let (df, dr) = diag[d];
            if let Some(leg) = sq_offset(sq, df, dr) {
                let mut from = 0u128;
                if let Some(a) = sq_offset(sq, 2 * df, dr) {
                    from |= bit(a);
                }
                if let Some(b) = sq_offset(sq, df, 2 * dr) {
                    from |= bit(b);
                }
                t[sq].block[d] = bit(leg);
                t[sq].to[d] = from;
            }
            d += 1;
        }
        sq += 1;
    }
    t
}

const fn make_elephant() -> [Jumps; 90] {
    let mut t = [Jumps {
        block: [0; 4],
        to: [0; 4],
    }; 90];
    let diag: [(i32, i32); 4] = [(1, 1), (1, -1), (-1, -1), (-1, 1)];
    let mut sq = 0;
    while sq < 90 {
        let mut d = 0;
        while d < 4 {
            let (df, dr) = diag[d];
            if let (Some(eye), Some(to)) = (sq_offset(sq, df, dr), sq_offset(sq, 2 * df, 2 * dr)) {
                t[sq].block[d] = bit(eye);
                t[sq].to[d] = bit(to);
            }
            d += 1;
        }
        sq += 1;
    }
    t
}

pub(crate) static HORSE: [Jumps; 90] = make_horse();
pub(crate) static HORSE_ATTACKERS: [Jumps; 90] = make_horse_attackers();
pub(crate) static ELEPHANT: [Jumps; 90] = make_elephant();

/// Red's half (ranks 1..5); Black's half is the complement.
pub(crate) const RED_HALF: u128 = (1u128 << 45) - 1;
pub(crate) const BLACK_HALF: u128 = crate::xiangqi::bitboard::FULL & !RED_HALF;

#[inline(always)]
pub(crate) const fn own_half(color: Color) -> u128 {
    match color {
        Color::White => RED_HALF,
        Color::Black => BLACK_HALF,
    }
}

const fn make_soldier() -> [[u128; 90]; 2] {
    let mut t = [[0u128; 90]; 2];
    let mut c = 0;
    while c < 2 {
        let fwd: i32 = if c == 0 { 1 } else { -1 };
        let mut sq = 0;
        while sq < 90 {
            if let Some(n) = sq_offset(sq, 0, fwd) {
                t[c][sq] |= bit(n);
            }
            let crossed = if c == 0 { sq >= 45 } else { sq < 45 };
            if crossed {
                if let Some(n) = sq_offset(sq, 1, 0) {
                    t[c][sq] |= bit(n);
                }
                if let Some(n) = sq_offset(sq, -1, 0) {
                    t[c][sq] |= bit(n);
                }
            }
            sq += 1;
        }
        c += 1;
    }
    t
}

const fn invert(t: &[u128; 90]) -> [u128; 90] {
    let mut out = [0u128; 90];
    let mut from = 0;
    while from < 90 {
        let mut to = 0;
        while to < 90 {
            if t[from] >> to & 1 != 0 {
                out[to] |= bit(from);
            }
            to += 1;
        }
        from += 1;
    }
    out
}

static SOLDIER: [[u128; 90]; 2] = make_soldier();
static SOLDIER_ATTACKERS: [[u128; 90]; 2] = [invert(&SOLDIER[0]), invert(&SOLDIER[1])];

/// Squares between two squares on one file or rank (both excluded); empty
/// when they are not aligned or adjacent.
#[must_use]
pub fn between(a: Square, b: Square) -> Bitboard {
    let (a, b) = (a.index() as usize, b.index() as usize);
    for rays in &RAYS {
        if rays[a] & bit(b) != 0 {
            return Bitboard(rays[a] & !rays[b] & !bit(b));
        }
    }
    Bitboard::EMPTY
}

/// The first occupied square on ray `d` from `sq`, or a square whose ray in
/// direction `d` is empty (89 for N/E, 0 for S/W) when the ray is clear, so
/// that `RAYS[d][result]` is always a valid lookup and empty in that case.
#[inline(always)]
pub(crate) fn first_blocker(d: usize, sq: usize, occ: u128) -> usize {
    let b = RAYS[d][sq] & occ;
    if d < 2 {
        (b | 1u128 << 89).trailing_zeros() as usize
    } else {
        127 - (b | 1).leading_zeros() as usize
    }
}

/// The lowest (N/E) or highest (S/W) set bit of `b`, as a set; 0 if empty.
#[inline(always)]
pub(crate) fn nearest_bit(d: usize, b: u128) -> u128 {
    if d < 2 {
        b & b.wrapping_neg()
    } else {
        (1u128 << (127 - (b | 1).leading_zeros())) & b
    }
}

/// Chariot reach along one ray: empty squares and the first piece.
#[inline(always)]
pub(crate) fn ray_slide(d: usize, sq: usize, occ: u128) -> u128 {
    RAYS[d][sq] ^ RAYS[d][first_blocker(d, sq, occ)]
}

/// Chariot attacks from `sq` (raw bits).
#[inline(always)]
pub(crate) fn chariot_bits(sq: usize, occ: u128) -> u128 {
    ray_slide(N, sq, occ) | ray_slide(E, sq, occ) | ray_slide(S, sq, occ) | ray_slide(W, sq, occ)
}

/// Cannon captures from `sq` (raw bits): the first piece beyond the first
/// piece on each ray.
#[inline(always)]
pub(crate) fn cannon_bits(sq: usize, occ: u128) -> u128 {
    let mut out = 0;
    let mut d = 0;
    while d < 4 {
        let s1 = first_blocker(d, sq, occ);
        out |= nearest_bit(d, RAYS[d][s1] & occ);
        d += 1;
    }
    out
}

/// Horse targets from `sq` (raw bits) with legs tested against `occ`.
#[inline(always)]
pub(crate) fn horse_bits(sq: usize, occ: u128) -> u128 {
    let j = &HORSE[sq];
    let mut out = 0;
    let mut d = 0;
    while d < 4 {
        if j.block[d] & occ == 0 {
            out |= j.to[d];
        }
        d += 1;
    }
    out
}

/// Squares from which a horse would attack `sq` given `occ` (raw bits).
#[inline(always)]
pub(crate) fn horse_attacker_bits(sq: usize, occ: u128) -> u128 {
    let j = &HORSE_ATTACKERS[sq];
    let mut out = 0;
    let mut d = 0;
    while d < 4 {
        if j.block[d] & occ == 0 {
            out |= j.to[d];
        }
        d += 1;
    }
    out
}

/// Elephant targets from `sq` (raw bits), eyes tested, own half only.
#[inline(always)]
pub(crate) fn elephant_bits(color: Color, sq: usize, occ: u128) -> u128 {
    let j = &ELEPHANT[sq];
    let mut out = 0;
    let mut d = 0;
    while d < 4 {
        if j.block[d] & occ == 0 {
            out |= j.to[d];
        }
        d += 1;
    }
    out & own_half(color)
}

#[inline(always)]
pub(crate) fn general_bits(sq: usize) -> u128 {
    GENERAL_STEPS[sq]
}

#[inline(always)]
pub(crate) fn advisor_bits(sq: usize) -> u128 {
    ADVISOR_STEPS[sq]
}

#[inline(always)]
pub(crate) fn soldier_bits(color: Color, sq: usize) -> u128 {
    SOLDIER[color as usize][sq]
}

#[inline(always)]
pub(crate) fn soldier_attacker_bits(color: Color, sq: usize) -> u128 {
    SOLDIER_ATTACKERS[color as usize][sq]
}

/// Squares a chariot on `sq` reaches: empty squares up to and including
/// the first piece in each direction.
#[must_use]
pub fn chariot_attacks(sq: Square, occupied: Bitboard) -> Bitboard {
    Bitboard(chariot_bits(sq.index() as usize, occupied.0))
}

/// Squares a cannon on `sq` can capture on (whatever stands there): the
/// first piece behind exactly one screen in each direction. Its quiet moves
/// are `chariot_attacks(sq, occupied) & !occupied`.
#[must_use]
pub fn cannon_attacks(sq: Square, occupied: Bitboard) -> Bitboard {
    Bitboard(cannon_bits(sq.index() as usize, occupied.0))
}

/// Squares a horse on `sq` reaches, legs tested against `occupied`.
#[must_use]
pub fn horse_attacks(sq: Square, occupied: Bitboard) -> Bitboard {
    Bitboard(horse_bits(sq.index() as usize, occupied.0))
}

/// Squares a `color` elephant on `sq` reaches: eyes empty, own half only.
#[must_use]
pub fn elephant_attacks(color: Color, sq: Square, occupied: Bitboard) -> Bitboard {
    Bitboard(elephant_bits(color, sq.index() as usize, occupied.0))
}

/// Squares an advisor on `sq` reaches (diagonal steps inside the palace it
/// stands in; empty outside a palace).
#[must_use]
pub fn advisor_attacks(sq: Square) -> Bitboard {
    Bitboard(advisor_bits(sq.index() as usize))
}

/// Squares a general on `sq` reaches by a step (inside its palace; empty
/// outside a palace). The flying-general rule is not a step: see
/// [`super::Board::king_attackers`].
#[must_use]
pub fn general_attacks(sq: Square) -> Bitboard {
    Bitboard(general_bits(sq.index() as usize))
}

/// Squares a `color` soldier on `sq` reaches: forward, plus sideways once
/// on the far side of the river.
#[must_use]
pub fn soldier_attacks(color: Color, sq: Square) -> Bitboard {
    Bitboard(soldier_bits(color, sq.index() as usize))
}

/// The capture pattern of any piece standing on `sq`: the squares it could
/// capture on if an enemy piece stood there.
#[must_use]
pub fn attacks(color: Color, role: Role, sq: Square, occupied: Bitboard) -> Bitboard {
    match role {
        Role::General => general_attacks(sq),
        Role::Advisor => advisor_attacks(sq),
        Role::Elephant => elephant_attacks(color, sq, occupied),
        Role::Horse => horse_attacks(sq, occupied),
        Role::Chariot => chariot_attacks(sq, occupied),
        Role::Cannon => cannon_attacks(sq, occupied),
        Role::Soldier => soldier_attacks(color, sq),
    }
}

/// Squares from which a horse would attack `sq` (legs tested against
/// `occupied`). The reverse of [`horse_attacks`], which is not symmetric.
#[must_use]
pub fn horse_attackers(sq: Square, occupied: Bitboard) -> Bitboard {
    Bitboard(horse_attacker_bits(sq.index() as usize, occupied.0))
}

/// Squares from which a `color` soldier would attack `sq`.
#[must_use]
pub fn soldier_attackers(color: Color, sq: Square) -> Bitboard {
    Bitboard(soldier_attacker_bits(color, sq.index() as usize))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sq(s: &str) -> Square {
        s.parse().unwrap_or_else(|_| unreachable!("bad square {s}"))
    }

    fn set(names: &[&str]) -> Bitboard {
        names.iter().map(|s| sq(s)).collect()
    }

    #[test]
    fn horse_leg() {
        // Horse b1 with c1 occupied cannot reach d2.
        let occ = set(&["b1", "c1"]);
        assert_eq!(horse_attacks(sq("b1"), occ), set(&["a3", "c3"]));
        // Reverse table agrees with the forward one on every square.
        for s in Square::all() {
            for t in Square::all() {
                let occ = set(&["e5", "d4"]);
                assert_eq!(
                    horse_attacks(s, occ).contains(t),
                    horse_attackers(t, occ).contains(s),
                    "{s} {t}"
                );
            }
        }
    }

    #[test]
    fn cannon_and_chariot() {
        let occ = set(&["e2", "e4", "e5", "e7", "b2"]);
        assert_eq!(cannon_attacks(sq("e2"), occ), set(&["e5"]));
        assert_eq!(
            chariot_attacks(sq("e2"), occ),
            set(&["e1", "e3", "e4", "b2", "c2", "d2", "f2", "g2", "h2", "i2"])
        );
        assert_eq!(between(sq("e1"), sq("e10")).count(), 8);
        assert!(between(sq("e1"), sq("d3")).is_empty());
    }

    #[test]
    fn palace_and_river() {
        assert_eq!(general_attacks(sq("e1")), set(&["d1", "f1", "e2"]));
        assert_eq!(advisor_attacks(sq("e9")), set(&["d10", "f10", "d8", "f8"]));
        assert_eq!(advisor_attacks(sq("a1")), Bitboard::EMPTY);
        assert_eq!(
            elephant_attacks(Color::White, sq("c5"), Bitboard::EMPTY),
            set(&["a3", "e3"])
        );
        assert_eq!(soldier_attacks(Color::White, sq("e4")), set(&["e5"]));
        assert_eq!(
            soldier_attacks(Color::White, sq("e6")),
            set(&["e7", "d6", "f6"])
        );
        assert_eq!(soldier_attacks(Color::Black, sq("a5")), set(&["a4", "b5"]));
        assert_eq!(soldier_attacks(Color::White, sq("i10")), set(&["h10"]));
    }
}
