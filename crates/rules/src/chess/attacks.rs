//! Attack tables, all computed at compile time by `const fn`.
//!
//! Sliding pieces use "fancy" magic bitboards: for each square, the
//! relevant blockers are multiplied by a magic number and the top bits of
//! the product index a per-square slice of one shared table. The magic
//! numbers below were found by a seeded random search (xorshift64* seeded
//! with `0x6368_6573_7370_6c78`, candidates `r & r & r`, the first one
//! without destructive collisions kept, rooks a1..h8 then bishops); the
//! ignored test `tests::find_magics` repeats that search and checks it
//! finds the same numbers. Only the numbers are committed: the masks,
//! offsets and the attack table itself are derived here, and a test checks
//! every entry against a plain ray walk.

use super::{bitboard::Bitboard, square::Square};
use crate::Color;

#[rustfmt::skip]
const ROOK_MAGIC_NUMBERS: [u64; 64] = [
    0x0080004000208010,
    0x00c0300020004000,
    0x0180200030008108,
    0x0200104006000820,
    0x0200042010020009,
    0x1880020080410400,
    0x1080410000802200,
    0x8200110042008024,
    0x2002800420804002,
    0x8031400141201000,
    0x0002802000900082,
    0x0209001000082100,
    0x00460004900a0020,
    0x0222009008020004,
    0x0804001081120844,
    0x1282000108a20044,
    0x0480004000402008,
    0x2120004040003000,
    0x1209010020001041,
    0x8028008010000c80,
    0x0000808008000401,
    0x8008808004000200,
    0x0000040081481002,
    0x00042200004100a4,
    0x00004001800080a1,
    0x0000400280200081,
    0x000a008200201044,
    0x1800080080100084,
    0x1180080080800400,
    0x1006000901000400,
    0x6000080400020110,
    0x008a008200340041,
    0x8008400098800020,
    0x0001060482002840,
    0x0000801000802000,
    0x0008210089001000,
    0x8258040080800801,
    0x0808020080800400,
    0x1000020001010004,
    0x0c10104082000114,
    0x0008209c40028000,
    0x0020402010004004,
    0x0000200010008080,
    0x8090100008008080,
    0x8822002010060008,
    0x0004000200808004,
    0x3000410278040010,
    0x2000208100420004,
    0x0040004080002180,
    0x4040400820108080,
    0x0081802000900480,
    0x0420a040920a0200,
    0x4028008004010880,
    0x2202011004080200,
    0x0000100201080400,
    0x002108509c010200,
    0x010100b2a28006c1,
    0x0080102100420082,
    0x0002000844201182,
    0x0700c41000610009,
    0x4002001020080402,
    0x40010008020400c1,
    0x8000008110020804,
    0x8042410400208052,
];
#[rustfmt::skip]
const BISHOP_MAGIC_NUMBERS: [u64; 64] = [
    0xc102021002120040,
    0x2110840800802142,
    0x400444108a000032,
    0x881c10c200208100,
    0x0012021040200000,
    0x0902020321058480,
    0x080054020840008c,
    0x0051002084044080,
    0x0002102202980200,
    0x02200401a2040100,
    0x0001088081020000,
    0x004402209a00a54c,
    0x0000a40420001900,
    0x0000220184200400,
    0x9082842228020800,
    0x0421403201500708,
    0x422006c508101341,
    0x0402812008121080,
    0x001400120802040a,
    0x0000840802004100,
    0x0011020190400210,
    0x0101010210022100,
    0xa00604e041100900,
    0x4040414200440408,
    0x1114401144092808,
    0x0401840828101400,
    0x0000880110004810,
    0x00004800048200c0,
    0x8208840080802020,
    0x44b0002001040128,
    0x0018008501045100,
    0x0100410080440200,
    0x0402024024202880,
    0x0409101000820480,
    0x0522202403280801,
    0x1930020080080080,
    0x0010008200026200,
    0x00200805c0460906,
    0x0028080040009220,
    0x20009c0040009600,
    0x04080a0860014680,
    0x0044240104000800,
    0x0400231048081000,
    0x080a024200800800,
    0x8002c08591000200,
    0x2150200051904900,
    0x0582480104101101,
    0x0008180040801048,
    0x0004451090100010,
    0x0001004124202800,
    0x08a0104602410000,
    0x8000002084040018,
    0x12152220142c0a40,
    0x04080a1001220222,
    0x10a1880208004000,
    0x0082080101021450,
    0x0100841048020800,
    0x031021840108a201,
    0x0110000020841000,
    0x4026010282104402,
    0x0000040040082201,
    0x0640080408080840,
    0x0409200411822400,
    0x2030600802803240,
];

const ROOK_DIRS: [(i32, i32); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];
const BISHOP_DIRS: [(i32, i32); 4] = [(1, 1), (1, -1), (-1, 1), (-1, -1)];
const KNIGHT_DELTAS: [(i32, i32); 8] = [
    (1, 2),
    (2, 1),
    (2, -1),
    (1, -2),
    (-1, -2),
    (-2, -1),
    (-2, 1),
    (-1, 2),
];
const KING_DELTAS: [(i32, i32); 8] = [
    (1, 0),
    (1, 1),
    (0, 1),
    (-1, 1),
    (-1, 0),
    (-1, -1),
    (0, -1),
    (1, -1),
];

const fn on_board(f: i32, r: i32) -> bool {
    f >= 0 && f < 8 && r >= 0 && r < 8
}

const fn step_table(deltas: &[(i32, i32)]) -> [Bitboard; 64] {
    let mut table = [Bitboard::EMPTY; 64];
    let mut sq = 0;
    while sq < 64 {
        let (f, r) = ((sq % 8) as i32, (sq / 8) as i32);
        let mut bits = 0u64;
        let mut i = 0;
        while i < deltas.len() {
            let (nf, nr) = (f + deltas[i].0, r + deltas[i].1);
            if on_board(nf, nr) {
                bits |= 1 << (nr * 8 + nf);
            }
            i += 1;
        }
        table[sq] = Bitboard(bits);
        sq += 1;
    }
    table
}

/// Attacks of a slider on `sq` with blockers `occ`, by walking each ray.
const fn slide(sq: usize, occ: u64, dirs: &[(i32, i32); 4]) -> u64 {
    let mut att = 0u64;
    let mut d = 0;
    while d < 4 {
        let (mut f, mut r) = ((sq % 8) as i32, (sq / 8) as i32);
        loop {
            f += dirs[d].0;
            r += dirs[d].1;
            if !on_board(f, r) {
                break;
            }
            let bit = 1u64 << (r * 8 + f);
            att |= bit;
            if occ & bit != 0 {
                break;
            }
        }
        d += 1;
    }
    att
}

/// The blockers that matter for a slider on `sq`: its rays on an empty
/// board without the last square of each ray.
const fn relevant_mask(sq: usize, dirs: &[(i32, i32); 4]) -> u64 {
    let mut mask = 0u64;
    let mut d = 0;
    while d < 4 {
        let (mut f, mut r) = ((sq % 8) as i32, (sq / 8) as i32);
        loop {
            f += dirs[d].0;
            r += dirs[d].1;
            if !on_board(f + dirs[d].0, r + dirs[d].1) {
                break;
            }
            mask |= 1u64 << (r * 8 + f);
        }
        d += 1;
    }
    mask
}

#[derive(Copy, Clone, Debug)]
struct Magic {
    mask: u64,
    magic: u64,
    shift: u32,
    offset: u32,
}

const fn build_magics(
    magics: &[u64; 64],
    dirs: &[(i32, i32); 4],
    start: usize,
) -> ([Magic; 64], usize) {
    let mut out = [Magic {
        mask: 0,
        magic: 0,
        shift: 0,
        offset: 0,
    }; 64];
    let mut offset = start;
    let mut sq = 0;
    while sq < 64 {
        let mask = relevant_mask(sq, dirs);
        let bits = mask.count_ones();
        out[sq] = Magic {
            mask,
            magic: magics[sq],
            shift: 64 - bits,
            offset: offset as u32,
        };
        offset += 1 << bits;
        sq += 1;
    }
    (out, offset)
}

const ROOK_BUILT: ([Magic; 64], usize) = build_magics(&ROOK_MAGIC_NUMBERS, &ROOK_DIRS, 0);
const BISHOP_BUILT: ([Magic; 64], usize) =
    build_magics(&BISHOP_MAGIC_NUMBERS, &BISHOP_DIRS, ROOK_BUILT.1);
static ROOK_MAGICS: [Magic; 64] = ROOK_BUILT.0;
static BISHOP_MAGICS: [Magic; 64] = BISHOP_BUILT.0;
const TABLE_SIZE: usize = BISHOP_BUILT.1;

const fn fill(table: &mut [u64; TABLE_SIZE], magics: &[Magic; 64], dirs: &[(i32, i32); 4]) {
    let mut sq = 0;
    while sq < 64 {
        let m = magics[sq];
        // Carry-rippler walk over every subset of the mask.
        let mut sub = 0u64;
        loop {
            let idx = m.offset as usize + (sub.wrapping_mul(m.magic) >> m.shift) as usize;
            table[idx] = slide(sq, sub, dirs);
            sub = sub.wrapping_sub(m.mask) & m.mask;
            if sub == 0 {
                break;
            }
        }
        sq += 1;
    }
}

const fn build_table() -> [u64; TABLE_SIZE] {
    let mut table = [0u64; TABLE_SIZE];
    fill(&mut table, &ROOK_BUILT.0, &ROOK_DIRS);
    fill(&mut table, &BISHOP_BUILT.0, &BISHOP_DIRS);
    table
}

static SLIDER_TABLE: [u64; TABLE_SIZE] = build_table();

static KNIGHT: [Bitboard; 64] = step_table(&KNIGHT_DELTAS);
static KING: [Bitboard; 64] = step_table(&KING_DELTAS);
static PAWN: [[Bitboard; 64]; 2] = [
    step_table(&[(-1, 1), (1, 1)]),
    step_table(&[(-1, -1), (1, -1)]),
];

const fn empty_board_rays(dirs: &[(i32, i32); 4]) -> [Bitboard; 64] {
    let mut t = [Bitboard::EMPTY; 64];
    let mut sq = 0;
    while sq < 64 {
        t[sq] = Bitboard(slide(sq, 0, dirs));
        sq += 1;
    }
    t
}

static ROOK_RAYS: [Bitboard; 64] = empty_board_rays(&ROOK_DIRS);
static BISHOP_RAYS: [Bitboard; 64] = empty_board_rays(&BISHOP_DIRS);

type PairTable = [[u64; 64]; 64];

/// `(between, line)` for every pair of squares: the squares strictly
/// between two aligned squares, and the whole line through both.
const fn build_between_line() -> (PairTable, PairTable) {
    let mut between = [[0u64; 64]; 64];
    let mut line = [[0u64; 64]; 64];
    let mut a = 0;
    while a < 64 {
        let mut b = 0;
        while b < 64 {
            let bb = 1u64 << b;
            let mut dirs_i = 0;
            while dirs_i < 2 {
                let dirs = if dirs_i == 0 {
                    &ROOK_DIRS
                } else {
                    &BISHOP_DIRS
                };
                if a != b && slide(a, 0, dirs) & bb != 0 {
                    between[a][b] = slide(a, bb, dirs) & slide(b, 1u64 << a, dirs);
                    line[a][b] = (slide(a, 0, dirs) & slide(b, 0, dirs)) | (1u64 << a) | bb;
                }
                dirs_i += 1;
            }
            b += 1;
        }
        a += 1;
    }
    (between, line)
}

static BETWEEN_LINE: (PairTable, PairTable) = build_between_line();

/// Squares a knight on `sq` attacks.
#[must_use]
#[inline(always)]
pub fn knight_attacks(sq: Square) -> Bitboard {
    KNIGHT[sq as usize]
}

/// Squares a king on `sq` attacks.
#[must_use]
#[inline(always)]
pub fn king_attacks(sq: Square) -> Bitboard {
    KING[sq as usize]
}

/// Squares a pawn of `color` on `sq` attacks (diagonally forward).
#[must_use]
#[inline(always)]
pub fn pawn_attacks(color: Color, sq: Square) -> Bitboard {
    PAWN[color as usize][sq as usize]
}

/// Squares a rook on `sq` attacks when `occ` holds the blockers.
#[must_use]
#[inline(always)]
pub fn rook_attacks(sq: Square, occ: Bitboard) -> Bitboard {
    let m = &ROOK_MAGICS[sq as usize];
    let idx = m.offset as usize + ((occ.0 & m.mask).wrapping_mul(m.magic) >> m.shift) as usize;
    Bitboard(SLIDER_TABLE[idx])
}

/// Squares a bishop on `sq` attacks when `occ` holds the blockers.
#[must_use]
#[inline(always)]
pub fn bishop_attacks(sq: Square, occ: Bitboard) -> Bitboard {
    let m = &BISHOP_MAGICS[sq as usize];
    let idx = m.offset as usize + ((occ.0 & m.mask).wrapping_mul(m.magic) >> m.shift) as usize;
    Bitboard(SLIDER_TABLE[idx])
}

/// Squares a queen on `sq` attacks when `occ` holds the blockers.
#[must_use]
#[inline(always)]
pub fn queen_attacks(sq: Square, occ: Bitboard) -> Bitboard {
    rook_attacks(sq, occ) | bishop_attacks(sq, occ)
}

/// Rook moves from `sq` on an empty board.
#[must_use]
#[inline(always)]
pub(crate) fn rook_rays(sq: Square) -> Bitboard {
    ROOK_RAYS[sq as usize]
}

/// Bishop moves from `sq` on an empty board.
#[must_use]
#[inline(always)]
pub(crate) fn bishop_rays(sq: Square) -> Bitboard {
    BISHOP_RAYS[sq as usize]
}

/// The squares strictly between `a` and `b` if they share a rank, file or
/// diagonal; empty otherwise.
#[must_use]
#[inline(always)]
pub fn between(a: Square, b: Square) -> Bitboard {
    Bitboard(BETWEEN_LINE.0[a as usize][b as usize])
}

/// The whole line (edge to edge) through `a` and `b` if they are aligned;
/// empty otherwise. A pinned piece stays on the line through its king and
/// the pinner.
#[must_use]
#[inline(always)]
pub fn line(a: Square, b: Square) -> Bitboard {
    Bitboard(BETWEEN_LINE.1[a as usize][b as usize])
}

#[cfg(test)]
mod tests {
    use super::*;

    struct XorShift(u64);
    impl XorShift {
        fn next(&mut self) -> u64 {
            self.0 ^= self.0 >> 12;
            self.0 ^= self.0 << 25;
            self.0 ^= self.0 >> 27;
            self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
        }
    }

    fn subsets(mask: u64) -> Vec<u64> {
        let mut out = vec![];
        let mut sub = 0u64;
        loop {
            out.push(sub);
            sub = sub.wrapping_sub(mask) & mask;
            if sub == 0 {
                return out;
            }
        }
    }

    #[test]
    fn magic_lookups_match_ray_walks() {
        for sq in Square::ALL {
            let i = sq.index();
            for occ in subsets(relevant_mask(i, &ROOK_DIRS)) {
                assert_eq!(rook_attacks(sq, Bitboard(occ)).0, slide(i, occ, &ROOK_DIRS));
            }
            for occ in subsets(relevant_mask(i, &BISHOP_DIRS)) {
                assert_eq!(
                    bishop_attacks(sq, Bitboard(occ)).0,
                    slide(i, occ, &BISHOP_DIRS)
                );
            }
        }
        let mut rng = XorShift(7);
        for _ in 0..10_000 {
            let occ = rng.next() & rng.next();
            let sq = Square::from_index_masked(rng.next() as u32);
            assert_eq!(queen_attacks(sq, Bitboard(occ)).0, {
                slide(sq.index(), occ, &ROOK_DIRS) | slide(sq.index(), occ, &BISHOP_DIRS)
            });
        }
    }

    #[test]
    fn step_tables() {
        assert_eq!(knight_attacks(Square::A1).count(), 2);
        assert_eq!(knight_attacks(Square::E4).count(), 8);
        assert_eq!(king_attacks(Square::H8).count(), 3);
        assert_eq!(
            pawn_attacks(Color::White, Square::A2),
            Bitboard::from_square(Square::B3)
        );
        assert_eq!(
            pawn_attacks(Color::Black, Square::E5)
                .into_iter()
                .collect::<Vec<_>>(),
            vec![Square::D4, Square::F4]
        );
        assert_eq!(pawn_attacks(Color::White, Square::A8), Bitboard::EMPTY);
    }

    #[test]
    fn between_and_line() {
        assert_eq!(
            between(Square::A1, Square::D4)
                .into_iter()
                .collect::<Vec<_>>(),
            vec![Square::B2, Square::C3]
        );
        assert_eq!(between(Square::A1, Square::B3), Bitboard::EMPTY);
        assert_eq!(between(Square::E1, Square::E2), Bitboard::EMPTY);
        assert_eq!(line(Square::B2, Square::C3).count(), 8);
        assert!(line(Square::B2, Square::C3).contains(Square::H8));
        assert_eq!(line(Square::A1, Square::B3), Bitboard::EMPTY);
        assert_eq!(
            line(Square::E1, Square::E5),
            Bitboard::file(Square::E1.file())
        );
    }

    /// Repeats the seeded search that produced the committed numbers.
    #[test]
    #[ignore = "regenerates the magic numbers; run by hand"]
    fn find_magics() {
        let mut rng = XorShift(0x6368_6573_7370_6c78);
        for (dirs, committed) in [
            (&ROOK_DIRS, &ROOK_MAGIC_NUMBERS),
            (&BISHOP_DIRS, &BISHOP_MAGIC_NUMBERS),
        ] {
            for (sq, &expected) in committed.iter().enumerate() {
                let mask = relevant_mask(sq, dirs);
                let bits = mask.count_ones();
                let occs = subsets(mask);
                let atts: Vec<u64> = occs.iter().map(|&o| slide(sq, o, dirs)).collect();
                let mut used = vec![0u64; 1 << bits];
                let mut epoch = vec![0u32; 1 << bits];
                let mut tries = 0u32;
                let magic = loop {
                    let magic = rng.next() & rng.next() & rng.next();
                    if (mask.wrapping_mul(magic) >> 56).count_ones() < 6 {
                        continue;
                    }
                    tries += 1;
                    let ok = occs.iter().zip(&atts).all(|(&o, &a)| {
                        let idx = (o.wrapping_mul(magic) >> (64 - bits)) as usize;
                        if epoch[idx] != tries {
                            epoch[idx] = tries;
                            used[idx] = a;
                            true
                        } else {
                            used[idx] == a
                        }
                    });
                    if ok {
                        break magic;
                    }
                };
                println!("0x{magic:016x},");
                assert_eq!(magic, expected);
            }
        }
    }
}
