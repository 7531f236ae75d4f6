//! A small NNUE-style evaluation for the 8×8 games that have a trained
//! network (Horde and Atomic play one at level 8; chess's is built in but
//! off, as it did not gain: docs/strength-nnue.md): 768 inputs (piece colour relative to the
//! perspective × 6 roles × 64 squares, flipped for Black), one hidden
//! layer of [`HIDDEN`] per perspective with clipped ReLU, both halves
//! (side to move first) into one output scaled to centipawns. The output
//! is a correction added to the hand-set evaluation (see [`train`] for
//! why), so [`Network::evaluate`] alone is not an evaluation.
//!
//! Inference is integer (i16 weights and accumulators, i32 output sum) in
//! plain loops over fixed-size arrays, which rustc vectorises. The search
//! copies positions, so it has no make/unmake to hook an update into: the
//! searcher keeps the last evaluation's accumulators and applies the
//! bitboard differences to the next board (a child or sibling, a few rows).
//! The weights are built into the binary (`include_bytes!`), so the
//! engine stays one self-contained file and `bench` stays deterministic.
//! [`train`] fits them; docs/strength-nnue.md has the recipe.

pub mod train;

use std::sync::OnceLock;

use chessplayx_rules::{
    Color,
    chess::{Bitboard, Board, Role},
};

/// Input features: 2 relative colours × 6 roles × 64 squares.
pub const INPUTS: usize = 768;
/// Hidden units per perspective.
pub const HIDDEN: usize = 128;
/// Quantisation of the hidden layer: float 1.0 is `QA` (the clipped ReLU
/// clips at `QA`).
pub const QA: i32 = 255;
/// Quantisation of the output weights: fine, because each rounding
/// error is multiplied by a hidden activation of up to `QA` and 256 of
/// them add up (64 cost ~25 centipawns); the i32 sum stays below 2^28.
pub const QB: i32 = 1024;
/// Centipawns per unit of the network's output: the trainer's sigmoid is
/// `1 / (1 + e^(−cp / SCALE))`, the same scale as its search-score target.
pub const SCALE: i32 = 400;
/// First bytes of a weight file, with the format's version.
const MAGIC: &[u8; 8] = b"CPXNNUE1";
/// Bytes of a weight file: magic, two u32 sizes, i16 weights, i32 bias.
pub const FILE_BYTES: usize = 8 + 8 + 2 * (INPUTS * HIDDEN + HIDDEN + 2 * HIDDEN) + 4;

/// Why a weight file was refused.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum NetError {
    /// Not a weight file of this format.
    #[error("not a chessplayx network (bad magic)")]
    Magic,
    /// Sizes other than this build's.
    #[error("network is {inputs}×{hidden}, this build reads {INPUTS}×{HIDDEN}")]
    Shape {
        /// Inputs in the file.
        inputs: usize,
        /// Hidden units in the file.
        hidden: usize,
    },
    /// Too short or too long.
    #[error("network file is {0} bytes, expected {FILE_BYTES}")]
    Length(usize),
}

/// Quantised weights, as inference reads them.
#[derive(Clone, Debug)]
pub struct Network {
    /// One row of hidden weights per input feature.
    w1: Box<[[i16; HIDDEN]; INPUTS]>,
    b1: [i16; HIDDEN],
    /// Output weights: side to move's half, then the other side's.
    w2: [[i16; HIDDEN]; 2],
    /// Output bias, in units of `QA × QB`.
    b2: i32,
}

/// The feature of a `color` `role` on square index `sq` (a1 = 0) as
/// `perspective` sees it: its own pieces first, ranks flipped for Black so
/// both sides see the board from their own side.
#[inline]
#[must_use]
pub fn feature(perspective: Color, color: Color, role: Role, sq: usize) -> usize {
    let rel = usize::from(color != perspective);
    let sq = if perspective == Color::White {
        sq
    } else {
        sq ^ 56
    };
    rel * 384 + role as usize * 64 + sq
}

/// Calls `f(white_feature, black_feature)` for every piece on `board`.
#[inline]
pub fn for_each_feature(board: &Board, mut f: impl FnMut(usize, usize)) {
    for color in Color::ALL {
        for role in Role::ALL {
            for sq in board.by_color(color) & board.by_role(role) {
                let s = sq.index();
                f(
                    feature(Color::White, color, role, s),
                    feature(Color::Black, color, role, s),
                );
            }
        }
    }
}

impl Network {
    /// Reads a weight file (little-endian, as [`train`] writes it).
    ///
    /// # Errors
    ///
    /// [`NetError`] when `bytes` is not a file of this build's shape.
    pub fn parse(bytes: &[u8]) -> Result<Self, NetError> {
        if bytes.len() < 16 || &bytes[..8] != MAGIC {
            return Err(NetError::Magic);
        }
        let u32_at = |i: usize| {
            u32::from_le_bytes([bytes[i], bytes[i + 1], bytes[i + 2], bytes[i + 3]]) as usize
        };
        let (inputs, hidden) = (u32_at(8), u32_at(12));
        if inputs != INPUTS || hidden != HIDDEN {
            return Err(NetError::Shape { inputs, hidden });
        }
        if bytes.len() != FILE_BYTES {
            return Err(NetError::Length(bytes.len()));
        }
        let mut words = bytes[16..FILE_BYTES - 4]
            .chunks_exact(2)
            .map(|c| i16::from_le_bytes([c[0], c[1]]));
        let mut next = || words.next().unwrap_or(0);
        let mut w1 = Box::new([[0i16; HIDDEN]; INPUTS]);
        for row in w1.iter_mut() {
            row.iter_mut().for_each(|w| *w = next());
        }
        let mut b1 = [0i16; HIDDEN];
        b1.iter_mut().for_each(|w| *w = next());
        let mut w2 = [[0i16; HIDDEN]; 2];
        for half in &mut w2 {
            half.iter_mut().for_each(|w| *w = next());
        }
        let t = FILE_BYTES - 4;
        let b2 = i32::from_le_bytes([bytes[t], bytes[t + 1], bytes[t + 2], bytes[t + 3]]);
        Ok(Self { w1, b1, w2, b2 })
    }

    /// Builds the quantised network from float weights laid out as the
    /// trainer keeps them (`w1` feature-major).
    pub(crate) fn quantise(w1: &[f32], b1: &[f32], w2: &[f32], b2: f32) -> Vec<u8> {
        let q = |v: f32, s: i32| {
            (v * s as f32)
                .round()
                .clamp(f32::from(i16::MIN), f32::from(i16::MAX)) as i16
        };
        let mut out = Vec::with_capacity(FILE_BYTES);
        out.extend_from_slice(MAGIC);
        out.extend_from_slice(&(INPUTS as u32).to_le_bytes());
        out.extend_from_slice(&(HIDDEN as u32).to_le_bytes());
        for &v in w1.iter().chain(b1) {
            out.extend_from_slice(&q(v, QA).to_le_bytes());
        }
        for &v in w2 {
            out.extend_from_slice(&q(v, QB).to_le_bytes());
        }
        let b2 = (b2 * (QA * QB) as f32).round() as i32;
        out.extend_from_slice(&b2.to_le_bytes());
        out
    }

    /// The network's output in centipawns for the side to move `turn`
    /// (a correction to the hand-set evaluation).
    #[must_use]
    pub fn evaluate(&self, board: &Board, turn: Color) -> i32 {
        // An empty cache has no board to update from: a full refresh.
        self.evaluate_cached(board, turn, &mut Accumulator::default())
    }
}

/// Accumulators of both perspectives (White's, Black's) with the board
/// they were computed for. The search's next evaluation is usually of a
/// child or a sibling, a few pieces away: updating from the last one by
/// the bitboards' differences costs a handful of row additions instead of
/// one per piece. Integer arithmetic makes the update exact, so the
/// result is the same as a refresh (`bench` counts the same nodes).
#[derive(Clone, Debug)]
pub struct Accumulator {
    board: Option<Board>,
    acc: [[i16; HIDDEN]; 2],
}

impl Default for Accumulator {
    fn default() -> Self {
        Self {
            board: None,
            acc: [[0; HIDDEN]; 2],
        }
    }
}

/// More changed pieces than this and a refresh is cheaper.
const MAX_UPDATE: u32 = 12;

impl Network {
    /// [`Network::evaluate`], updating `cache` from its board to `board`.
    #[must_use]
    pub fn evaluate_cached(&self, board: &Board, turn: Color, cache: &mut Accumulator) -> i32 {
        let updated = cache
            .board
            .is_some_and(|old| self.update(&old, board, &mut cache.acc));
        if !updated {
            cache.acc = [self.b1; 2];
            let [white, black] = &mut cache.acc;
            for_each_feature(board, |w, b| {
                add_row(white, &self.w1[w]);
                add_row(black, &self.w1[b]);
            });
        }
        cache.board = Some(*board);
        let (us, them) = if turn == Color::White { (0, 1) } else { (1, 0) };
        self.output(&cache.acc[us], &cache.acc[them])
    }

    /// Moves `acc` from `old` to `new`; `false` (untouched) when too many
    /// pieces differ.
    fn update(&self, old: &Board, new: &Board, acc: &mut [[i16; HIDDEN]; 2]) -> bool {
        // Each (colour, role)'s squares left and reached, found once and
        // both counted and applied.
        let mut diffs = [(Color::White, Role::Pawn, Bitboard::EMPTY, Bitboard::EMPTY); 12];
        let mut changed = 0;
        for (slot, (color, role)) in diffs.iter_mut().zip(
            Color::ALL
                .into_iter()
                .flat_map(|c| Role::ALL.into_iter().map(move |r| (c, r))),
        ) {
            let o = old.by_color(color) & old.by_role(role);
            let n = new.by_color(color) & new.by_role(role);
            let (gone, came) = (o & !n, n & !o);
            changed += gone.count() + came.count();
            *slot = (color, role, gone, came);
        }
        if changed > MAX_UPDATE {
            return false;
        }
        let [white, black] = acc;
        for &(color, role, gone, came) in &diffs {
            for sq in gone {
                let s = sq.index();
                sub_row(white, &self.w1[feature(Color::White, color, role, s)]);
                sub_row(black, &self.w1[feature(Color::Black, color, role, s)]);
            }
            for sq in came {
                let s = sq.index();
                add_row(white, &self.w1[feature(Color::White, color, role, s)]);
                add_row(black, &self.w1[feature(Color::Black, color, role, s)]);
            }
        }
        true
    }

    /// The output from the side to move's and the other side's
    /// accumulators, in centipawns.
    fn output(&self, us: &[i16; HIDDEN], them: &[i16; HIDDEN]) -> i32 {
        let sum = self
            .b2
            .wrapping_add(dot_crelu(us, &self.w2[0]))
            .wrapping_add(dot_crelu(them, &self.w2[1]));
        (i64::from(sum) * i64::from(SCALE) / i64::from(QA * QB)) as i32
    }
}

/// `acc -= row`, wrapping (the inverse of [`add_row`]).
#[inline]
fn sub_row(acc: &mut [i16; HIDDEN], row: &[i16; HIDDEN]) {
    for (a, &w) in acc.iter_mut().zip(row) {
        *a = a.wrapping_sub(w);
    }
}

/// `acc += row`, wrapping (the trainer keeps weights small enough that
/// it never does): a loop over fixed-size arrays that vectorises.
#[inline]
fn add_row(acc: &mut [i16; HIDDEN], row: &[i16; HIDDEN]) {
    for (a, &w) in acc.iter_mut().zip(row) {
        *a = a.wrapping_add(w);
    }
}

/// `Σ clamp(acc, 0, QA) · w` in i32.
#[inline]
fn dot_crelu(acc: &[i16; HIDDEN], w: &[i16; HIDDEN]) -> i32 {
    let mut sum = 0i32;
    for (&a, &w) in acc.iter().zip(w) {
        let h = i32::from(a.clamp(0, QA as i16));
        sum = sum.wrapping_add(h * i32::from(w));
    }
    sum
}

/// Chess's network file.
static CHESS_BYTES: &[u8] = include_bytes!("../../nets/chess.nnue");

/// Chess's network, parsed once; `None` if the built-in file is broken
/// (a unit test makes sure it is not), and chess then keeps the
/// hand-set evaluation.
pub fn chess() -> Option<&'static Network> {
    static NET: OnceLock<Option<Network>> = OnceLock::new();
    NET.get_or_init(|| Network::parse(CHESS_BYTES).ok())
        .as_ref()
}

/// Horde's network file.
static HORDE_BYTES: &[u8] = include_bytes!("../../nets/horde.nnue");

/// Horde's network, parsed once (as [`chess`]).
pub fn horde() -> Option<&'static Network> {
    static NET: OnceLock<Option<Network>> = OnceLock::new();
    NET.get_or_init(|| Network::parse(HORDE_BYTES).ok())
        .as_ref()
}

/// Atomic's network file.
static ATOMIC_BYTES: &[u8] = include_bytes!("../../nets/atomic.nnue");

/// Atomic's network, parsed once (as [`chess`]). The same features as
/// chess serve: an explosion only removes pieces, which the accumulator
/// update handles like captures (a refresh past twelve changed pieces).
pub fn atomic() -> Option<&'static Network> {
    static NET: OnceLock<Option<Network>> = OnceLock::new();
    NET.get_or_init(|| Network::parse(ATOMIC_BYTES).ok())
        .as_ref()
}

#[cfg(test)]
mod tests;
