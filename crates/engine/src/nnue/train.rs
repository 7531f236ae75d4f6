//! The network's trainer: float weights, Adam, mini-batches shared over
//! threads. The network learns a correction to the hand-set evaluation
//! (`out = net + handset / SCALE`): with a few hundred thousand positions
//! a net alone overfits and plays far worse, while a correction starts
//! from what the hand-set evaluation knows. The loss is the squared error
//! between `sigmoid(out)` and the target
//! `λ·sigmoid(k·score / SCALE) + (1 − λ)·result` (both for the side to
//! move; k is [`TrainOptions::score_scale`]), the last tenth of the
//! positions (whole games) held out to report the validation loss.
//!
//! Positions are lines `<fen>;<score>;<result>` as `chessplayx tune gen
//! --with-score` writes them (score in centipawns and result 1/0.5/0,
//! both for White, Red in Xiangqi). The trainer is generic over the
//! board's [`Features`]: the same code trains the 8×8 nets and Xiangqi's.

use std::{fmt, time::Instant};

use chessplayx_rules::{Color, Variant, xiangqi::Xiangqi};

use super::{Board8, Features, HIDDEN, Network, SCALE, Xiangqi90};
use crate::{Evaluate, Rng, eval::Eval8};

/// Why training failed.
#[derive(Debug, thiserror::Error)]
pub enum TrainError {
    /// A line is not `<fen>;<score>;<result>`.
    #[error("line {line}: {reason}")]
    BadLine {
        /// 1-based line number.
        line: usize,
        /// What is wrong with it.
        reason: String,
    },
    /// No position to train on.
    #[error("no position to train on")]
    NoData,
    /// The score scale is not a finite number above zero.
    #[error("score scale {0} is not a finite number above zero")]
    BadScoreScale(f32),
}

/// How [`train`] runs.
#[derive(Clone, Debug)]
pub struct TrainOptions {
    /// Passes over the training positions.
    pub epochs: u32,
    /// Positions per gradient step.
    pub batch: usize,
    /// Adam's step size (divided by 10 for the last quarter of epochs).
    pub lr: f32,
    /// Weight of the search score in the target (the rest is the result).
    pub lambda: f32,
    /// Factor on every score before it becomes a target. A reference
    /// whose centipawns are on another scale than the hand-set
    /// evaluation's (Fairy-Stockfish's Xiangqi scores are about half of
    /// ours) would otherwise teach the net to rescale the evaluation,
    /// and with it every margin the search compares the evaluation to.
    pub score_scale: f32,
    /// Threads sharing each batch.
    pub threads: usize,
    /// Seed of the initial weights and the shuffling.
    pub seed: u64,
    /// Also train on each position mirrored left to right where that is
    /// the same game: without castling rights on the 8×8 board, always in
    /// Xiangqi (held-out positions are never mirrored).
    pub mirror: bool,
}

impl Default for TrainOptions {
    fn default() -> Self {
        Self {
            epochs: 20,
            batch: 4096,
            lr: 1e-3,
            lambda: 0.75,
            score_scale: 1.0,
            threads: 1,
            seed: 1,
            mirror: true,
        }
    }
}

/// One epoch's losses.
#[derive(Clone, Copy, Debug)]
pub struct EpochReport {
    /// 1-based epoch.
    pub epoch: u32,
    /// Mean loss over the training positions (while training).
    pub train_loss: f64,
    /// Mean loss over the held-out positions after the epoch.
    pub valid_loss: f64,
    /// Seconds since the start.
    pub seconds: f64,
}

impl fmt::Display for EpochReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "epoch {}: train {:.6}, validation {:.6} ({:.0} s)",
            self.epoch, self.train_loss, self.valid_loss, self.seconds
        )
    }
}

/// Positions as pieces and targets, compact: the features are rebuilt
/// per batch from the pieces.
#[derive(Debug, Default)]
struct Data {
    /// Per position: features for White and for Black, interleaved.
    features: Vec<u16>,
    /// Start of each position's features (one extra at the end).
    offsets: Vec<u32>,
    white_to_move: Vec<bool>,
    /// Target for the side to move.
    target: Vec<f32>,
    /// The hand-set evaluation for the side to move, in units of
    /// `SCALE`: the network learns a correction on top of it.
    base: Vec<f32>,
    /// Summed loss of the hand-set evaluation on these positions (as
    /// `sigmoid(eval / SCALE)`): what the network must beat.
    handset_loss: f64,
}

impl Data {
    /// Adds a position; `mirror` flips it left to right.
    fn push<F: Features>(
        &mut self,
        pieces: &F::Pieces,
        turn: Color,
        target: f32,
        base: f32,
        mirror: bool,
    ) {
        if self.offsets.is_empty() {
            self.offsets.push(0);
        }
        let m = |f: usize| if mirror { F::mirror(f) } else { f };
        F::for_each_feature(pieces, |w, b| {
            self.features.push(m(w) as u16);
            self.features.push(m(b) as u16);
        });
        self.offsets.push(self.features.len() as u32);
        self.white_to_move.push(turn == Color::White);
        self.target.push(target);
        self.base.push(base);
    }

    fn len(&self) -> usize {
        self.target.len()
    }

    /// Features of position `i` as (side to move's, other side's), and
    /// its target.
    fn sample(&self, i: usize) -> (impl Iterator<Item = (usize, usize)> + '_, f32) {
        let (a, b) = (self.offsets[i] as usize, self.offsets[i + 1] as usize);
        let white = self.white_to_move[i];
        let it = self.features[a..b].chunks_exact(2).map(move |p| {
            let (w, bl) = (usize::from(p[0]), usize::from(p[1]));
            if white { (w, bl) } else { (bl, w) }
        });
        (it, self.target[i])
    }
}

fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

/// The first held-out line of `total` data lines: the last tenth is held
/// out, because a game's positions are consecutive lines, so these are
/// (all but one) whole games the net never saw; every tenth line would be
/// neighbours of training positions.
fn first_held_out(total: usize) -> usize {
    total - total / 10
}

/// A data line's position as the trainer needs it: its pieces, the side
/// to move, the hand-set evaluation (side to move) and whether its left-
/// right mirror is the same game.
type Parsed<F> = (<F as Features>::Pieces, Color, i32, bool);

/// Parses `fen` as an 8×8 game with rules `R`: without castling rights
/// the game is symmetric left to right. The base is level 8's hand-set
/// evaluation (`Eval8::TOP_PARAMS`), the one the net is added to in play:
/// a correction learnt on top of levels 1–7's weights is off by their
/// difference wherever the two differ (Horde's were refitted in session
/// 9, and a net trained on the old base lost its first six A/B games).
fn parse_8x8<R: Eval8>(fen: &str) -> Result<Parsed<Board8>, String> {
    let p = chessplayx_rules::chess::Position::<R>::from_fen(fen).map_err(|e| e.to_string())?;
    let symmetric = fen.split_whitespace().nth(2) == Some("-");
    let base = R::evaluate_with(&p, &R::TOP_PARAMS);
    Ok((*p.board(), p.turn(), base, symmetric))
}

/// Parses `fen` as Xiangqi, always symmetric left to right.
fn parse_xiangqi(fen: &str) -> Result<Parsed<Xiangqi90>, String> {
    let p = Xiangqi::from_fen(fen).map_err(|e| e.to_string())?;
    Ok((Xiangqi90::pieces(p.board()), p.turn(), p.evaluate(), true))
}

/// Reads the data into training and held-out sets (the last tenth);
/// `parse` reads a FEN.
fn load<F: Features>(
    text: &str,
    opts: &TrainOptions,
    parse: impl Fn(&str) -> Result<Parsed<F>, String>,
) -> Result<(Data, Data), TrainError> {
    let (mut train, mut valid) = (Data::default(), Data::default());
    let first_held = first_held_out(crate::tune::data_lines(text).count());
    for (n, (i, line)) in crate::tune::data_lines(text).enumerate() {
        let bad = |reason: String| TrainError::BadLine {
            line: i + 1,
            reason,
        };
        let mut parts = line.split(';');
        let (Some(fen), Some(score), Some(result), None) =
            (parts.next(), parts.next(), parts.next(), parts.next())
        else {
            return Err(bad("not <fen>;<score>;<result>".into()));
        };
        let score: f32 = score
            .trim()
            .parse()
            .map_err(|_| bad(format!("score {score:?}")))?;
        let result: f32 = result
            .trim()
            .parse()
            .map_err(|_| bad(format!("result {result:?}")))?;
        let (pieces, turn, handset, symmetric) = parse(fen.trim()).map_err(bad)?;
        let (score, result) = if turn == Color::White {
            (score, result)
        } else {
            (-score, 1.0 - result)
        };
        let lambda = opts.lambda;
        let target =
            lambda * sigmoid(score * opts.score_scale / SCALE as f32) + (1.0 - lambda) * result;
        let held = n >= first_held;
        let set = if held { &mut valid } else { &mut train };
        let base = handset as f32 / SCALE as f32;
        set.push::<F>(&pieces, turn, target, base, false);
        let e = sigmoid(handset as f32 / SCALE as f32) - target;
        set.handset_loss += f64::from(e * e);
        // Where the game is symmetric left to right, the mirror image
        // is a second training position for free.
        if opts.mirror && !held && symmetric {
            train.push::<F>(&pieces, turn, target, base, true);
        }
    }
    if train.len() == 0 {
        return Err(TrainError::NoData);
    }
    Ok((train, valid))
}

/// Float weights (or their gradients, or Adam's moments): `w1` is
/// feature-major, `w2` the side to move's half first.
#[derive(Clone, Debug)]
struct Weights {
    w1: Vec<f32>,
    b1: Vec<f32>,
    w2: Vec<f32>,
    b2: f32,
}

/// Largest magnitude of a hidden weight: keeps the quantised i16
/// accumulator (`QA` per unit) far from overflow with 52 pieces (Horde).
const W1_CLIP: f32 = 1.98;
/// Largest magnitude of an output weight.
const W2_CLIP: f32 = 4.0;

impl Weights {
    /// All zero, for `inputs` features.
    fn zero(inputs: usize) -> Self {
        Self {
            w1: vec![0.0; inputs * HIDDEN],
            b1: vec![0.0; HIDDEN],
            w2: vec![0.0; 2 * HIDDEN],
            b2: 0.0,
        }
    }

    fn random(inputs: usize, rng: &mut Rng) -> Self {
        let mut uniform = |scale: f32| {
            let u = (rng.next_u64() >> 40) as f32 / (1u64 << 24) as f32;
            (u * 2.0 - 1.0) * scale
        };
        let mut w = Self::zero(inputs);
        w.w1.iter_mut().for_each(|v| *v = uniform(0.1));
        // Output weights start at zero: the untrained correction is
        // none, so training starts from the hand-set evaluation's loss.
        w
    }

    fn params_mut(&mut self) -> impl Iterator<Item = &mut f32> {
        self.w1
            .iter_mut()
            .chain(&mut self.b1)
            .chain(&mut self.w2)
            .chain(std::iter::once(&mut self.b2))
    }

    fn add(&mut self, o: &Self) {
        for (a, b) in self.params_mut().zip(o.params()) {
            *a += b;
        }
    }

    fn params(&self) -> impl Iterator<Item = f32> + '_ {
        self.w1
            .iter()
            .chain(&self.b1)
            .chain(&self.w2)
            .chain(std::iter::once(&self.b2))
            .copied()
    }

    /// Output, hidden pre-activations of both halves, for one position.
    fn forward(
        &self,
        feats: impl Iterator<Item = (usize, usize)>,
        acc: &mut [[f32; HIDDEN]; 2],
    ) -> f32 {
        for half in acc.iter_mut() {
            half.copy_from_slice(&self.b1);
        }
        for (us, them) in feats {
            let (ru, rt) = (
                &self.w1[us * HIDDEN..][..HIDDEN],
                &self.w1[them * HIDDEN..][..HIDDEN],
            );
            for j in 0..HIDDEN {
                acc[0][j] += ru[j];
                acc[1][j] += rt[j];
            }
        }
        let mut out = self.b2;
        for (h, half) in acc.iter().enumerate() {
            let w2 = &self.w2[h * HIDDEN..][..HIDDEN];
            for j in 0..HIDDEN {
                out += half[j].clamp(0.0, 1.0) * w2[j];
            }
        }
        out
    }
}

/// Loss summed over `idx` of `data`, with gradients added into `grad`
/// when given.
fn run_batch(w: &Weights, data: &Data, idx: &[usize], mut grad: Option<&mut Weights>) -> f64 {
    let mut acc = [[0f32; HIDDEN]; 2];
    let mut loss = 0f64;
    for &i in idx {
        let (feats, target) = data.sample(i);
        let out = w.forward(feats, &mut acc) + data.base[i];
        let p = sigmoid(out);
        let err = p - target;
        loss += f64::from(err * err);
        let Some(g) = grad.as_deref_mut() else {
            continue;
        };
        let d = 2.0 * err * p * (1.0 - p);
        g.b2 += d;
        let mut dacc = [[0f32; HIDDEN]; 2];
        for h in 0..2 {
            let w2 = &w.w2[h * HIDDEN..][..HIDDEN];
            let g2 = &mut g.w2[h * HIDDEN..][..HIDDEN];
            for j in 0..HIDDEN {
                let a = acc[h][j];
                g2[j] += d * a.clamp(0.0, 1.0);
                if a > 0.0 && a < 1.0 {
                    dacc[h][j] = d * w2[j];
                }
            }
        }
        for ((b, d0), d1) in g.b1.iter_mut().zip(&dacc[0]).zip(&dacc[1]) {
            *b += d0 + d1;
        }
        let (feats, _) = data.sample(i);
        for (us, them) in feats {
            for (h, f) in [(0, us), (1, them)] {
                let row = &mut g.w1[f * HIDDEN..][..HIDDEN];
                for (r, d) in row.iter_mut().zip(&dacc[h]) {
                    *r += d;
                }
            }
        }
    }
    loss
}

/// Loss and gradient of a batch, split over `threads`.
fn batch_gradient(w: &Weights, data: &Data, idx: &[usize], grads: &mut [Weights]) -> f64 {
    let size = idx.len().div_ceil(grads.len()).max(1);
    std::thread::scope(|scope| {
        let handles: Vec<_> = idx
            .chunks(size)
            .zip(grads.iter_mut())
            .map(|(chunk, g)| {
                scope.spawn(move || {
                    *g = Weights::zero(w.w1.len() / HIDDEN);
                    run_batch(w, data, chunk, Some(g))
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().unwrap_or(f64::NAN))
            .sum()
    })
}

/// Mean loss over all of `data`, shared over `threads`.
fn mean_loss(w: &Weights, data: &Data, threads: usize) -> f64 {
    if data.len() == 0 {
        return 0.0;
    }
    let idx: Vec<usize> = (0..data.len()).collect();
    let size = idx.len().div_ceil(threads.max(1));
    let total: f64 = std::thread::scope(|scope| {
        let handles: Vec<_> = idx
            .chunks(size)
            .map(|c| scope.spawn(move || run_batch(w, data, c, None)))
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().unwrap_or(f64::NAN))
            .sum()
    });
    total / data.len() as f64
}

/// Adam's state.
#[derive(Debug)]
struct Adam {
    m: Weights,
    v: Weights,
    t: i32,
}

impl Adam {
    fn step(&mut self, w: &mut Weights, g: &Weights, lr: f32, n: f32) {
        const B1: f32 = 0.9;
        const B2: f32 = 0.999;
        self.t += 1;
        let c1 = 1.0 - B1.powi(self.t);
        let c2 = 1.0 - B2.powi(self.t);
        let moments = self.m.params_mut().zip(self.v.params_mut());
        for ((p, gi), (m, v)) in w.params_mut().zip(g.params()).zip(moments) {
            let gi = gi / n;
            *m = B1 * *m + (1.0 - B1) * gi;
            *v = B2 * *v + (1.0 - B2) * gi * gi;
            *p -= lr * (*m / c1) / ((*v / c2).sqrt() + 1e-8);
        }
        w.w1.iter_mut()
            .for_each(|v| *v = v.clamp(-W1_CLIP, W1_CLIP));
        w.w2.iter_mut()
            .for_each(|v| *v = v.clamp(-W2_CLIP, W2_CLIP));
    }
}

/// What [`train`] produced.
#[derive(Debug)]
pub struct Trained {
    /// Positions trained on and held out.
    pub sizes: (usize, usize),
    /// Mean loss of the hand-set evaluation on the held-out positions
    /// (the same target, its centipawns through the same sigmoid).
    pub handset_valid_loss: f64,
    /// Every epoch's losses.
    pub epochs: Vec<EpochReport>,
    /// The epoch whose weights were kept (lowest validation loss).
    pub best_epoch: u32,
    /// The quantised weight file.
    pub file: Vec<u8>,
}

/// Trains `variant`'s network on `data` (lines as [`super::train`]'s
/// module documentation says). `progress` hears of each epoch.
///
/// # Errors
///
/// [`TrainError`] for data that does not parse.
pub fn train(
    variant: Variant,
    data: &str,
    opts: &TrainOptions,
    progress: &mut dyn FnMut(&EpochReport),
) -> Result<Trained, TrainError> {
    use chessplayx_rules::chess::{Atomic, Horde, Standard};
    match variant {
        Variant::Chess => train_on::<Board8>(data, opts, progress, parse_8x8::<Standard>),
        Variant::Horde => train_on::<Board8>(data, opts, progress, parse_8x8::<Horde>),
        Variant::Atomic => train_on::<Board8>(data, opts, progress, parse_8x8::<Atomic>),
        Variant::Xiangqi => train_on::<Xiangqi90>(data, opts, progress, parse_xiangqi),
    }
}

/// [`train`] over the features `F`, reading FENs with `parse`.
fn train_on<F: Features>(
    data: &str,
    opts: &TrainOptions,
    progress: &mut dyn FnMut(&EpochReport),
    parse: impl Fn(&str) -> Result<Parsed<F>, String>,
) -> Result<Trained, TrainError> {
    if !(opts.score_scale.is_finite() && opts.score_scale > 0.0) {
        return Err(TrainError::BadScoreScale(opts.score_scale));
    }
    let (train, valid) = load::<F>(data, opts, parse)?;
    let clock = Instant::now();
    let mut rng = Rng::new(opts.seed);
    let mut w = Weights::random(F::INPUTS, &mut rng);
    let mut adam = Adam {
        m: Weights::zero(F::INPUTS),
        v: Weights::zero(F::INPUTS),
        t: 0,
    };
    let threads = opts.threads.max(1);
    let mut grads = vec![Weights::zero(F::INPUTS); threads];
    let mut order: Vec<usize> = (0..train.len()).collect();
    let mut epochs = Vec::new();
    let mut best = (f64::INFINITY, 0, w.clone());
    for epoch in 1..=opts.epochs {
        for i in (1..order.len()).rev() {
            let j = (rng.next_u64() % (i as u64 + 1)) as usize;
            order.swap(i, j);
        }
        let lr = if epoch * 4 > opts.epochs * 3 {
            opts.lr / 10.0
        } else {
            opts.lr
        };
        let mut loss = 0f64;
        for idx in order.chunks(opts.batch.max(1)) {
            loss += batch_gradient(&w, &train, idx, &mut grads);
            let (first, rest) = grads.split_at_mut(1);
            for g in rest.iter() {
                first[0].add(g);
            }
            adam.step(&mut w, &first[0], lr, idx.len() as f32);
        }
        let report = EpochReport {
            epoch,
            train_loss: loss / train.len() as f64,
            valid_loss: mean_loss(&w, &valid, threads),
            seconds: clock.elapsed().as_secs_f64(),
        };
        progress(&report);
        epochs.push(report);
        // Early stopping: the data is small, the net overfits after a few
        // epochs, and the held-out games say when.
        if valid.len() == 0 || report.valid_loss < best.0 {
            best = (report.valid_loss, epoch, w.clone());
        }
    }
    let (_, best_epoch, w) = best;
    Ok(Trained {
        sizes: (train.len(), valid.len()),
        handset_valid_loss: valid.handset_loss / valid.len().max(1) as f64,
        best_epoch,
        epochs,
        file: Network::<F>::quantise(&w.w1, &w.b1, &w.w2, w.b2),
    })
}

#[cfg(test)]
mod tests {
    use chessplayx_rules::chess::Chess;

    use super::*;

    /// The trainer's base is level 8's evaluation (`TOP_PARAMS`), the one
    /// the net is added to in play, not levels 1–7's (`PARAMS`): a net
    /// learnt on the wrong base is off by their difference (session 10
    /// lost its first six Horde A/B games to it). The positions are ones
    /// where the two weight sets disagree, so the test can fail.
    #[test]
    fn the_base_is_level_8s_evaluation() {
        use chessplayx_rules::chess::{Horde, Position, Standard};

        fn check<R: Eval8>(fen: &str) {
            let p = Position::<R>::from_fen(fen).unwrap_or_else(|e| unreachable!("{e}"));
            let top = R::evaluate_with(&p, &R::TOP_PARAMS);
            assert_ne!(top, R::evaluate_with(&p, &R::PARAMS), "{fen}");
            let (_, _, base, _) = parse_8x8::<R>(fen).unwrap_or_else(|e| unreachable!("{e}"));
            assert_eq!(base, top, "{fen}");
        }
        check::<Horde>(
            "rnbqkbnr/pppppppp/8/1PP2PP1/PPPPPPPP/PPPPPPPP/PPPPPPPP/PPPPPPPP w kq - 0 1",
        );
        // A knight a pawn attacks: only level 8's threats see it.
        check::<Standard>("4k3/pppp4/8/3n4/4P3/8/PPP5/4K3 w - - 0 1");
    }

    /// Held-out loss of a weight file on a data file's last tenth, the
    /// positions the trainer holds out, so that a committed net and a new
    /// one are compared on the same games (the trainer only reports the
    /// net it is training):
    /// `NET_FILE=crates/engine/nets/horde.nnue NET_DATA=FILE cargo test --release -p
    /// chessplayx-engine --lib held_out_loss_of_a_net_file -- --ignored --nocapture`.
    #[test]
    #[ignore = "needs NET_FILE and NET_DATA"]
    fn held_out_loss_of_a_net_file() {
        use chessplayx_rules::chess::Horde;

        let var = |k: &str| std::env::var(k).unwrap_or_else(|_| unreachable!("set {k}"));
        let bytes = std::fs::read(var("NET_FILE")).unwrap_or_else(|e| unreachable!("{e}"));
        let net = Network::<Board8>::parse(&bytes).unwrap_or_else(|e| unreachable!("{e}"));
        let text = std::fs::read_to_string(var("NET_DATA")).unwrap_or_else(|e| unreachable!("{e}"));
        let first_held = first_held_out(crate::tune::data_lines(&text).count());
        let (mut net_loss, mut base_loss, mut n) = (0f64, 0f64, 0usize);
        for (_, line) in crate::tune::data_lines(&text).skip(first_held) {
            let f: Vec<&str> = line.split(';').collect();
            let (pieces, turn, base, _) =
                parse_8x8::<Horde>(f[0].trim()).unwrap_or_else(|e| unreachable!("{e}"));
            let score: f32 = f[1].trim().parse().unwrap_or_else(|e| unreachable!("{e}"));
            let score = if turn == Color::White { score } else { -score };
            // λ = 1: the target is the reference's score alone.
            let target = sigmoid(score / SCALE as f32);
            let with_net = base + net.evaluate(&pieces, turn);
            let e = sigmoid(with_net as f32 / SCALE as f32) - target;
            net_loss += f64::from(e * e);
            let e = sigmoid(base as f32 / SCALE as f32) - target;
            base_loss += f64::from(e * e);
            n += 1;
        }
        let n = n.max(1) as f64;
        println!(
            "{n} held out: net {:.6}, hand-set alone {:.6}",
            net_loss / n,
            base_loss / n
        );
    }

    /// The quantised network computes what the float one does, to within
    /// rounding (a few centipawns).
    #[test]
    fn quantised_inference_matches_the_float_network() {
        let mut w = Weights::random(Board8::INPUTS, &mut Rng::new(9));
        w.b1.iter_mut().for_each(|v| *v = 0.3);
        let mut rng = Rng::new(4);
        for v in &mut w.w2 {
            *v = ((rng.next_u64() % 2001) as f32 - 1000.0) / 10_000.0;
        }
        w.b2 = 0.05;
        let net = Network::<Board8>::parse(&Network::<Board8>::quantise(&w.w1, &w.b1, &w.w2, w.b2))
            .unwrap_or_else(|e| unreachable!("{e}"));
        for fen in [
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "r1bqk2r/pppp1ppp/2n2n2/2b1p3/2B1P3/3P1N2/PPP2PPP/RNBQK2R b KQkq - 0 5",
        ] {
            let p = Chess::from_fen(fen).unwrap_or_else(|e| unreachable!("{e}"));
            let mut d = Data::default();
            d.push::<Board8>(p.board(), p.turn(), 0.5, 0.0, false);
            let mut acc = [[0f32; HIDDEN]; 2];
            let float_cp = w.forward(d.sample(0).0, &mut acc) * SCALE as f32;
            let int_cp = net.evaluate(p.board(), p.turn());
            assert!(
                (float_cp - int_cp as f32).abs() < 8.0,
                "{fen}: float {float_cp}, quantised {int_cp}"
            );
        }
    }
}
