//! A small NNUE-style evaluation for the games that have a trained
//! network (Horde, Atomic and Xiangqi play one at level 8; chess's is
//! built in but off, as it did not gain: docs/strength-nnue.md). The
//! inputs are one-hot piece features per board shape ([`Features`]): 768
//! on the 8×8 board ([`Board8`]: piece colour relative to the perspective
//! × 6 roles × 64 squares, flipped for Black) and 1,260 in Xiangqi
//! ([`Xiangqi90`]: 2 × 7 roles × 90 points). One hidden layer of
//! [`HIDDEN`] per perspective with clipped ReLU, both halves (side to move
//! first) into one output scaled to centipawns. The output is a
//! correction added to the hand-set evaluation (see [`train`] for why),
//! so [`Network::evaluate`] alone is not an evaluation.
//!
//! Inference is integer (i16 weights and accumulators, i32 output sum) in
//! plain loops over fixed-size arrays, which rustc vectorises. The search
//! copies positions, so it has no make/unmake to hook an update into: the
//! searcher keeps the last evaluation's accumulators and applies the
//! piece sets' differences to the next board (a child or sibling, a few
//! rows). The weights are built into the binary (`include_bytes!`), so
//! the engine stays one self-contained file and `bench` stays
//! deterministic. [`train`] fits them; docs/strength-nnue.md has the
//! recipe.

mod features;
pub mod train;

use std::{marker::PhantomData, sync::OnceLock};

use chessplayx_rules::Color;
pub use features::{Board8, Features, Xiangqi90, XiangqiPieces};

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
/// First bytes of a weight file, with the format's version. The shape
/// follows it, so one format serves every board: a file of another
/// shape is refused by its sizes ([`NetError::Shape`]).
const MAGIC: &[u8; 8] = b"CPXNNUE1";

/// Bytes of a weight file with `inputs` features: magic, two u32 sizes,
/// i16 weights, i32 bias.
#[must_use]
pub const fn file_bytes(inputs: usize) -> usize {
    8 + 8 + 2 * (inputs * HIDDEN + HIDDEN + 2 * HIDDEN) + 4
}

/// Bytes of an 8×8 game's weight file.
pub const FILE_BYTES: usize = file_bytes(Board8::INPUTS);

/// Why a weight file was refused.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum NetError {
    /// Not a weight file of this format.
    #[error("not a chessplayx network (bad magic)")]
    Magic,
    /// Sizes other than this board's.
    #[error("network is {inputs}×{hidden}, this board reads {expected}×{HIDDEN}")]
    Shape {
        /// Inputs in the file.
        inputs: usize,
        /// Hidden units in the file.
        hidden: usize,
        /// Inputs of the board it was read for.
        expected: usize,
    },
    /// Too short or too long.
    #[error("network file is {len} bytes, expected {expected}")]
    Length {
        /// Bytes given.
        len: usize,
        /// Bytes of a file of this shape.
        expected: usize,
    },
}

/// Quantised weights, as inference reads them, for the board shape `F`.
#[derive(Clone, Debug)]
pub struct Network<F: Features = Board8> {
    /// One row of hidden weights per input feature (`F::INPUTS` rows).
    w1: Box<[[i16; HIDDEN]]>,
    b1: [i16; HIDDEN],
    /// Output weights: side to move's half, then the other side's.
    w2: [[i16; HIDDEN]; 2],
    /// Output bias, in units of `QA × QB`.
    b2: i32,
    shape: PhantomData<F>,
}

impl<F: Features> Network<F> {
    /// Reads a weight file (little-endian, as [`train`] writes it).
    ///
    /// # Errors
    ///
    /// [`NetError`] when `bytes` is not a file of this board's shape.
    pub fn parse(bytes: &[u8]) -> Result<Self, NetError> {
        if bytes.len() < 16 || &bytes[..8] != MAGIC {
            return Err(NetError::Magic);
        }
        let u32_at = |i: usize| {
            u32::from_le_bytes([bytes[i], bytes[i + 1], bytes[i + 2], bytes[i + 3]]) as usize
        };
        let (inputs, hidden) = (u32_at(8), u32_at(12));
        if inputs != F::INPUTS || hidden != HIDDEN {
            return Err(NetError::Shape {
                inputs,
                hidden,
                expected: F::INPUTS,
            });
        }
        let expected = file_bytes(F::INPUTS);
        if bytes.len() != expected {
            return Err(NetError::Length {
                len: bytes.len(),
                expected,
            });
        }
        let mut words = bytes[16..expected - 4]
            .chunks_exact(2)
            .map(|c| i16::from_le_bytes([c[0], c[1]]));
        let mut next = || words.next().unwrap_or(0);
        let mut w1 = vec![[0i16; HIDDEN]; F::INPUTS].into_boxed_slice();
        for row in w1.iter_mut() {
            row.iter_mut().for_each(|w| *w = next());
        }
        let mut b1 = [0i16; HIDDEN];
        b1.iter_mut().for_each(|w| *w = next());
        let mut w2 = [[0i16; HIDDEN]; 2];
        for half in &mut w2 {
            half.iter_mut().for_each(|w| *w = next());
        }
        let t = expected - 4;
        let b2 = i32::from_le_bytes([bytes[t], bytes[t + 1], bytes[t + 2], bytes[t + 3]]);
        Ok(Self {
            w1,
            b1,
            w2,
            b2,
            shape: PhantomData,
        })
    }

    /// Builds the quantised network from float weights laid out as the
    /// trainer keeps them (`w1` feature-major, `F::INPUTS` rows).
    pub(crate) fn quantise(w1: &[f32], b1: &[f32], w2: &[f32], b2: f32) -> Vec<u8> {
        let q = |v: f32, s: i32| {
            (v * s as f32)
                .round()
                .clamp(f32::from(i16::MIN), f32::from(i16::MAX)) as i16
        };
        let mut out = Vec::with_capacity(file_bytes(F::INPUTS));
        out.extend_from_slice(MAGIC);
        out.extend_from_slice(&(F::INPUTS as u32).to_le_bytes());
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
    pub fn evaluate(&self, board: &F::Board, turn: Color) -> i32 {
        // An empty cache has no board to update from: a full refresh.
        self.evaluate_cached(board, turn, &mut Accumulator::default())
    }
}

/// One board shape's accumulators of both perspectives (White's,
/// Black's) with the pieces they were computed for. The search's next
/// evaluation is usually of a child or a sibling, a few pieces away:
/// updating from the last one by the piece sets' differences costs a
/// handful of row additions instead of one per piece. Integer arithmetic
/// makes the update exact, so the result is the same as a refresh
/// (`bench` counts the same nodes).
pub struct Cache<F: Features> {
    pieces: Option<F::Pieces>,
    acc: [[i16; HIDDEN]; 2],
}

impl<F: Features> Clone for Cache<F> {
    fn clone(&self) -> Self {
        Self {
            pieces: self.pieces,
            acc: self.acc,
        }
    }
}

impl<F: Features> Default for Cache<F> {
    fn default() -> Self {
        Self {
            pieces: None,
            acc: [[0; HIDDEN]; 2],
        }
    }
}

impl<F: Features> std::fmt::Debug for Cache<F> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Cache")
            .field("filled", &self.pieces.is_some())
            .finish_non_exhaustive()
    }
}

/// The accumulators the search keeps between evaluations, one [`Cache`]
/// per board shape: the search's hook ([`crate::Evaluate`]'s
/// `net_evaluate`) has one type for every game, and a searcher only
/// ever fills the one of its game.
#[derive(Clone, Debug, Default)]
pub struct Accumulator {
    board8: Cache<Board8>,
    xiangqi: Cache<Xiangqi90>,
}

/// More changed pieces than this and a refresh is cheaper.
const MAX_UPDATE: u32 = 12;

impl<F: Features> Network<F> {
    /// [`Network::evaluate`], updating `acc` from its last board to `board`.
    #[must_use]
    pub fn evaluate_cached(&self, board: &F::Board, turn: Color, acc: &mut Accumulator) -> i32 {
        let cache = F::cache(acc);
        let pieces = F::pieces(board);
        let w1 = &self.w1;
        let [white, black] = &mut cache.acc;
        let updated = cache.pieces.as_ref().is_some_and(|old| {
            F::for_each_change(old, &pieces, MAX_UPDATE, |added, w, b| {
                if added {
                    add_row(white, &w1[w]);
                    add_row(black, &w1[b]);
                } else {
                    sub_row(white, &w1[w]);
                    sub_row(black, &w1[b]);
                }
            })
        });
        if !updated {
            *white = self.b1;
            *black = self.b1;
            F::for_each_feature(&pieces, |w, b| {
                add_row(white, &w1[w]);
                add_row(black, &w1[b]);
            });
        }
        cache.pieces = Some(pieces);
        let (us, them) = if turn == Color::White { (0, 1) } else { (1, 0) };
        self.output(&cache.acc[us], &cache.acc[them])
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

/// Xiangqi's network file.
static XIANGQI_BYTES: &[u8] = include_bytes!("../../nets/xiangqi.nnue");

/// Xiangqi's network, parsed once (as [`chess`]), over [`Xiangqi90`]'s
/// 1,260 features.
pub fn xiangqi() -> Option<&'static Network<Xiangqi90>> {
    static NET: OnceLock<Option<Network<Xiangqi90>>> = OnceLock::new();
    NET.get_or_init(|| Network::parse(XIANGQI_BYTES).ok())
        .as_ref()
}

#[cfg(test)]
pub(crate) mod tests;
#[cfg(test)]
mod xiangqi_tests;
