//! Tuning the evaluation weights from games the engine plays itself
//! (Texel's method): [`generate`] plays self-play games at a small node
//! budget from randomised openings and writes their quiet positions with
//! the game's result; [`fit`] finds the weights whose evaluation, passed
//! through a logistic curve, best predicts those results (least squares),
//! by a local search over every weight of the game's evaluation.
//!
//! The printed weights are a Rust literal that replaces the game's
//! `PARAMS` constant; docs/strength.md records the runs that set them.

use std::{
    fmt::Write as _,
    io::{self, Write},
    time::Instant,
};

use chessplayx_rules::{
    Color, Variant,
    chess::{AtomicChess, Chess, HordeChess},
    xiangqi::Xiangqi,
};

use crate::{
    PositionHistory, Rng, Score, SearchLimits, SearchOptions, Searcher,
    eval::{Evaluate, Params, Tuned},
};

/// Why tuning failed.
#[derive(Debug, thiserror::Error)]
pub enum TuneError {
    /// Writing positions failed.
    #[error("writing positions: {0}")]
    Io(#[from] io::Error),
    /// A line of the data is not `<fen>;<result>`.
    #[error("line {line}: {reason}")]
    BadLine {
        /// 1-based line number.
        line: usize,
        /// What is wrong with it.
        reason: String,
    },
    /// No usable position in the data.
    #[error("no quiet position to fit on")]
    NoData,
    /// The reference engine of `tune spsa` could not start, stopped
    /// answering or played a move the rules refuse.
    #[error("reference engine: {0}")]
    Reference(io::Error),
    /// `--only` names no weight of this game.
    #[error("no weight of this game starts with any of {0:?}")]
    NoSuchWeight(Vec<String>),
}

/// How [`generate`] plays.
#[derive(Clone, Debug)]
pub struct GenOptions {
    /// Games to play.
    pub games: u32,
    /// Node budget of each move's search.
    pub nodes: u64,
    /// Random moves at the start of each game, for variety.
    pub random_plies: u32,
    /// A game still running after this many plies is a draw.
    pub max_plies: u32,
    /// Seed of the random openings.
    pub seed: u64,
    /// Also write each position's search score (centipawns, White's
    /// point of view) between the FEN and the result, as the network
    /// trainer's second target (`<fen>;<score>;<result>`).
    pub with_score: bool,
    /// Search with the game's network (level 8's evaluation) instead of
    /// the hand-set one, e.g. to generate a next round of data.
    pub with_net: bool,
}

/// What [`generate`] did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GenReport {
    /// Games played.
    pub games: u32,
    /// White (Red) wins, draws, Black wins.
    pub results: [u32; 3],
    /// Positions written.
    pub positions: u64,
}

/// A random opening is kept only if a short search scores it within
/// this many centipawns of equality: random moves often just drop
/// material, and games decided in the opening teach little.
const OPENING_BALANCE_CP: i32 = 150;

/// Plays `opts.games` self-play games of `variant` and writes each quiet
/// position (not in check, and the move chosen is not a capture or
/// promotion) as `<fen>;<result>` with the result 1, 0.5 or 0 for White
/// (Red in Xiangqi). `progress` hears of each finished game.
///
/// # Errors
///
/// [`TuneError::Io`] when writing fails.
pub fn generate(
    variant: Variant,
    opts: &GenOptions,
    out: &mut dyn Write,
    progress: &mut dyn FnMut(&GenReport),
) -> Result<GenReport, TuneError> {
    match variant {
        Variant::Chess => generate_in(&Chess::start(), opts, out, progress),
        Variant::Horde => generate_in(&HordeChess::start(), opts, out, progress),
        Variant::Atomic => generate_in(&AtomicChess::start(), opts, out, progress),
        Variant::Xiangqi => generate_in(&Xiangqi::start(), opts, out, progress),
    }
}

fn generate_in<G: Tuned>(
    start: &G,
    opts: &GenOptions,
    out: &mut dyn Write,
    progress: &mut dyn FnMut(&GenReport),
) -> Result<GenReport, TuneError> {
    let mut searcher = Searcher::<G>::new(16);
    searcher.set_hand_set_only(!opts.with_net);
    let mut rng = Rng::new(opts.seed);
    let mut report = GenReport::default();
    let mut moves = Vec::new();
    while report.games < opts.games {
        let Some(pos) = balanced_opening(
            start,
            opts.random_plies,
            &mut rng,
            &mut moves,
            &mut searcher,
            (opts.nodes, OPENING_BALANCE_CP),
        ) else {
            continue;
        };
        searcher.clear();
        let (fens, white_score) = self_play(pos, opts, &mut searcher);
        let result = match white_score {
            2 => "1",
            1 => "0.5",
            _ => "0",
        };
        for (fen, cp) in &fens {
            if opts.with_score {
                writeln!(out, "{fen};{cp};{result}")?;
            } else {
                writeln!(out, "{fen};{result}")?;
            }
        }
        report.games += 1;
        report.results[2 - white_score as usize] += 1;
        report.positions += fens.len() as u64;
        progress(&report);
    }
    out.flush()?;
    Ok(report)
}

/// `plies` random legal moves from `start`; `None` when the game ends
/// on the way.
fn random_opening<G: Evaluate>(
    start: &G,
    plies: u32,
    rng: &mut Rng,
    moves: &mut Vec<G::Move>,
) -> Option<G> {
    let mut pos = start.clone();
    for _ in 0..plies {
        moves.clear();
        pos.legal_moves_into(moves);
        if moves.is_empty() || pos.outcome().is_some() {
            return None;
        }
        let n = u32::try_from(moves.len()).unwrap_or(u32::MAX);
        pos.play(moves[rng.below(n) as usize]);
    }
    (pos.outcome().is_none() && !pos.lost()).then_some(pos)
}

/// A random opening of `plies` moves that a fresh search of `probe.0`
/// nodes (the game's default level) scores within `probe.1` centipawns
/// of level; `None` when the random moves ended or unbalanced the game.
fn balanced_opening<G: Evaluate>(
    start: &G,
    plies: u32,
    rng: &mut Rng,
    moves: &mut Vec<G::Move>,
    searcher: &mut Searcher<G>,
    probe: (u64, i32),
) -> Option<G> {
    searcher.clear();
    let pos = random_opening(start, plies, rng, moves)?;
    let r = searcher.search(
        &pos,
        &PositionHistory::new(),
        &SearchLimits::nodes(probe.0),
        SearchOptions::default(),
        &mut |_| {},
    );
    matches!(r.score, Score::Cp(cp) if cp.abs() <= probe.1).then_some(pos)
}

/// One game from `pos` at full strength within the node budget: its
/// quiet positions as FEN with the search's score for White, and White's
/// result (2 win, 1 draw, 0 loss).
fn self_play<G: Tuned>(
    mut pos: G,
    opts: &GenOptions,
    searcher: &mut Searcher<G>,
) -> (Vec<(String, i32)>, u8) {
    let mut history = PositionHistory::new();
    let mut judge = judge::Adjudicator::default();
    let mut fens = Vec::new();
    let limits = SearchLimits::nodes(opts.nodes);
    for _ in 0..opts.max_plies {
        if let Some(score) = judge.ended(&pos) {
            return (fens, score);
        }
        let r = searcher.search(
            &pos,
            &history,
            &limits,
            SearchOptions::default(),
            &mut |_| {},
        );
        let Some(mv) = r.best_move else {
            break;
        };
        let cp = score_cp(r.score);
        let white_cp = if pos.turn() == Color::White { cp } else { -cp };
        if !pos.is_check() && !pos.is_tactical(mv) && cp.abs() < judge::ADJUDICATE_CP {
            fens.push((pos.fen(), white_cp));
        }
        if let Some(score) = judge.won(Some(white_cp)) {
            return (fens, score);
        }
        history.push(&pos);
        pos.play(mv);
    }
    (fens, 1)
}

/// A search score as centipawns for the side to move, a mate as
/// ±[`MATE_CP`]: what adjudication compares against its thresholds.
const fn score_cp(score: Score) -> i32 {
    match score {
        Score::Cp(cp) => cp,
        Score::Mate(n) if n > 0 => MATE_CP,
        Score::Mate(_) => -MATE_CP,
    }
}

/// [`score_cp`]'s value for a forced mate.
const MATE_CP: i32 = 30_000;

/// How [`fit`] searches.
#[derive(Clone, Debug)]
pub struct FitOptions {
    /// The first step of the local search; it halves down to 1.
    pub step: i32,
    /// Most passes over all weights per step size.
    pub max_passes: u32,
    /// Only weights whose names start with one of these (all if empty).
    pub only: Vec<String>,
    /// Threads that share the error computation.
    pub threads: usize,
    /// Every this-many-th position is kept out of the fit and only
    /// measured (0: none).
    pub holdout_every: usize,
    /// Rescale the fitted weights so that the evaluation keeps its
    /// average size on the data (see [`FitReport::rescaled`]).
    pub keep_scale: bool,
    /// Start from, and fit, level 8's weights (`TOP_PARAMS`, which add
    /// terms the lower levels do not weigh) instead of levels 1–7's, with
    /// the game's network correction added as level 8 does: for
    /// labels from a stronger judge than the game results (a reference
    /// engine's scores, `scripts/strength/label-fsf.py`).
    pub top: bool,
    /// The logistic scale `k` to fit with, instead of the one that fits the
    /// starting weights best: 1 for labels that are a reference engine's
    /// centipawns through the same curve, so that the fit moves the
    /// evaluation onto the reference's scale and removes its bias (the
    /// best `k` of a biased evaluation is near zero, which the weights
    /// would then grow to make up for).
    pub k: Option<f64>,
    /// Seconds after which the passes stop and the best weights so far
    /// are reported (no limit if `None`): a fit on a few hundred thousand
    /// positions can outlast the time left for the match that tests it.
    pub max_seconds: Option<f64>,
}

impl Default for FitOptions {
    fn default() -> Self {
        Self {
            step: 8,
            max_passes: 12,
            only: Vec::new(),
            threads: 1,
            holdout_every: 10,
            keep_scale: true,
            top: false,
            k: None,
            max_seconds: None,
        }
    }
}

/// What [`fit`] found.
#[derive(Clone, Debug)]
pub struct FitReport {
    /// Positions fitted on and held out.
    pub train: usize,
    /// Positions only measured.
    pub holdout: usize,
    /// Positions of the data skipped as not quiet.
    pub skipped: usize,
    /// The logistic scale: win probability 1 / (1 + 10^(−k·eval/400)).
    pub k: f64,
    /// Mean squared error on the training and held-out positions, before
    /// and after.
    pub train_error: (f64, f64),
    /// See `train_error`.
    pub holdout_error: (f64, f64),
    /// The factor the fitted weights were multiplied by so that the mean
    /// absolute evaluation stays what it was (1 without
    /// [`FitOptions::keep_scale`]). The fit only determines the weights'
    /// ratios and the product of their scale with `k`; the search's
    /// margins (futility, null move, aspiration) are in the old scale.
    pub rescaled: f64,
    /// The scale `k` refitted to the rescaled weights.
    pub k_after: f64,
    /// Every weight: name, value before, value after.
    pub weights: Vec<(String, i32, i32)>,
    /// The fitted weights as a Rust literal of the game's params type.
    pub literal: String,
    /// Whether [`FitOptions::max_seconds`] ended the passes before they
    /// converged.
    pub out_of_time: bool,
}

impl FitReport {
    /// The report as text: the errors, the weights that changed, and the
    /// literal.
    #[must_use]
    pub fn render(&self) -> String {
        let mut s = String::new();
        let _ = writeln!(
            s,
            "positions: {} fitted, {} held out, {} skipped as not quiet",
            self.train, self.holdout, self.skipped
        );
        let _ = writeln!(
            s,
            "k = {:.4}; weights rescaled by {:.3} after the fit, k then {:.4}",
            self.k, self.rescaled, self.k_after
        );
        let _ = writeln!(
            s,
            "error fitted: {:.6} -> {:.6}; held out: {:.6} -> {:.6}",
            self.train_error.0, self.train_error.1, self.holdout_error.0, self.holdout_error.1
        );
        if self.out_of_time {
            let _ = writeln!(s, "stopped by the time limit before converging");
        }
        for (name, before, after) in &self.weights {
            if before != after {
                let _ = writeln!(s, "  {name}: {before} -> {after}");
            }
        }
        let _ = writeln!(s, "{}", self.literal);
        s
    }
}

/// Fits `variant`'s evaluation weights to `data` (lines `<fen>;<result>`
/// as [`generate`] writes them; blank lines and `#` comments skipped),
/// starting from the weights the engine plays with. `progress` hears of
/// each improvement.
///
/// # Errors
///
/// [`TuneError::BadLine`] for a line that does not parse,
/// [`TuneError::NoData`] without a quiet position,
/// [`TuneError::NoSuchWeight`] when `opts.only` selects nothing.
pub fn fit(
    variant: Variant,
    data: &str,
    opts: &FitOptions,
    progress: &mut dyn FnMut(&str),
) -> Result<FitReport, TuneError> {
    match variant {
        Variant::Chess => fit_in::<Chess>(data, opts, progress),
        Variant::Horde => fit_in::<HordeChess>(data, opts, progress),
        Variant::Atomic => fit_in::<AtomicChess>(data, opts, progress),
        Variant::Xiangqi => fit_in::<Xiangqi>(data, opts, progress),
    }
}

/// A game whose positions the data's FEN can be read into.
trait FromFen: Tuned {
    /// Level 8's weights ([`FitOptions::top`]).
    const TOP: Self::Params;
    fn read_fen(fen: &str) -> Result<Self, String>;
    /// The network's correction that level 8 adds to the weighed
    /// evaluation, White's point of view (0 without a network).
    fn net_offset(&self) -> i32 {
        0
    }
}

impl<R: crate::eval::Eval8> FromFen for chessplayx_rules::chess::Position<R> {
    const TOP: R::Params = R::TOP_PARAMS;
    fn read_fen(fen: &str) -> Result<Self, String> {
        Self::from_fen(fen).map_err(|e| e.to_string())
    }
    fn net_offset(&self) -> i32 {
        let v = R::net().map_or(0, |n| n.evaluate(self.board(), self.turn()));
        if self.turn() == Color::White { v } else { -v }
    }
}

impl FromFen for Xiangqi {
    const TOP: Self::Params = Self::PARAMS;
    fn read_fen(fen: &str) -> Result<Self, String> {
        Self::from_fen(fen).map_err(|e| e.to_string())
    }
}

/// A position and its game's result for White (0, 0.5 or 1, or any
/// probability in between).
struct Sample<G> {
    pos: G,
    result: f64,
    /// What level 8 adds to the weighed evaluation (the network's
    /// correction, White's point of view) when fitting its weights, so
    /// that the fitted sum is what level 8 plays with; 0 otherwise.
    offset: f64,
}

/// The data lines of a positions file (`tune gen`'s output, read by the
/// fit and by the network trainer): trimmed, with their 0-based line
/// index, blank lines and `#` comments left out.
pub(crate) fn data_lines(text: &str) -> impl Iterator<Item = (usize, &str)> {
    text.lines()
        .map(str::trim)
        .enumerate()
        .filter(|(_, l)| !l.is_empty() && !l.starts_with('#'))
}

/// Parses the data; drops positions that are not quiet (in check, or with
/// a capture that wins material by static exchange), where the static
/// evaluation says little about the result.
fn load<G: FromFen>(data: &str) -> Result<(Vec<Sample<G>>, usize), TuneError> {
    let mut samples = Vec::new();
    let mut skipped = 0;
    let mut moves = Vec::new();
    for (i, line) in data_lines(data) {
        let bad = |reason: String| TuneError::BadLine {
            line: i + 1,
            reason,
        };
        let (fen, result) = line
            .rsplit_once(';')
            .ok_or_else(|| bad("no ';' before the result".into()))?;
        // A search score between the two (`tune gen --with-score`) is
        // for the network trainer; the fit uses only the result.
        let fen = fen.split(';').next().unwrap_or(fen);
        let result: f64 = result
            .trim()
            .parse()
            .map_err(|_| bad(format!("result {result:?} is not a number")))?;
        if !(0.0..=1.0).contains(&result) {
            return Err(bad(format!("result {result} is outside 0..1")));
        }
        let pos = G::read_fen(fen.trim()).map_err(bad)?;
        moves.clear();
        pos.legal_moves_into(&mut moves);
        let noisy = pos.is_check()
            || pos.outcome().is_some()
            || moves
                .iter()
                .any(|&m| pos.is_tactical(m) && pos.see_ge(m, 1));
        if noisy {
            skipped += 1;
        } else {
            samples.push(Sample {
                pos,
                result,
                offset: 0.0,
            });
        }
    }
    Ok((samples, skipped))
}

/// Splits the samples into (fitted, held out): every `every`-th is held
/// out (none when `every` is 0), so both fits measure on the same kind
/// of positions.
fn split_holdout<G>(all: Vec<Sample<G>>, every: usize) -> (Vec<Sample<G>>, Vec<Sample<G>>) {
    let (mut train, mut holdout) = (Vec::new(), Vec::new());
    for (i, s) in all.into_iter().enumerate() {
        if every > 0 && i % every == every - 1 {
            holdout.push(s);
        } else {
            train.push(s);
        }
    }
    (train, holdout)
}

/// The evaluation from White's point of view.
fn white_eval<G: Tuned>(pos: &G, p: &G::Params) -> f64 {
    let v = pos.evaluate_with(p);
    f64::from(if pos.turn() == Color::White { v } else { -v })
}

fn sigmoid(k: f64, eval: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-k * eval / 400.0))
}

/// Mean squared error of the predicted results, shared over `threads`.
fn error<G: Tuned>(samples: &[Sample<G>], p: &G::Params, k: f64, threads: usize) -> f64 {
    if samples.is_empty() {
        return 0.0;
    }
    let sum = |chunk: &[Sample<G>]| -> f64 {
        chunk
            .iter()
            .map(|s| {
                let d = s.result - sigmoid(k, white_eval(&s.pos, p) + s.offset);
                d * d
            })
            .sum()
    };
    let threads = threads.max(1);
    let total: f64 = if threads == 1 {
        sum(samples)
    } else {
        let size = samples.len().div_ceil(threads);
        std::thread::scope(|scope| {
            let handles: Vec<_> = samples
                .chunks(size)
                .map(|c| scope.spawn(move || sum(c)))
                .collect();
            handles
                .into_iter()
                .map(|h| h.join().unwrap_or(f64::NAN))
                .sum()
        })
    };
    total / samples.len() as f64
}

/// The scale `k` that fits the current weights best (golden-section
/// search on 0.05..5; the error is unimodal in `k`).
fn best_k<G: Tuned>(samples: &[Sample<G>], p: &G::Params, threads: usize) -> f64 {
    let (mut lo, mut hi) = (0.05f64, 5.0f64);
    let g = (5f64.sqrt() - 1.0) / 2.0;
    for _ in 0..40 {
        let a = hi - g * (hi - lo);
        let b = lo + g * (hi - lo);
        if error(samples, p, a, threads) < error(samples, p, b, threads) {
            hi = b;
        } else {
            lo = a;
        }
    }
    (lo + hi) / 2.0
}

/// The weights as (name, value) in visiting order.
fn values<P: Params>(p: &P) -> Vec<(String, i32)> {
    let mut p = *p;
    let mut out = Vec::new();
    p.visit(&mut |name, v| out.push((name.to_owned(), *v)));
    out
}

/// `p` with weight `index` changed by `delta`.
fn nudged<P: Params>(p: &P, index: usize, delta: i32) -> P {
    let mut q = *p;
    let mut i = 0;
    q.visit(&mut |_, v| {
        if i == index {
            *v += delta;
        }
        i += 1;
    });
    q
}

/// Over 100 lines: one fit (the scaling constant, the coordinate passes
/// nudging each weight, the hold-out check, the rescaling, the report)
/// shares the training and hold-out sets and the best weights so far;
/// split up, each part would take most of them.
fn fit_in<G: FromFen>(
    data: &str,
    opts: &FitOptions,
    progress: &mut dyn FnMut(&str),
) -> Result<FitReport, TuneError>
where
    G::Params: core::fmt::Debug,
{
    let (mut all, skipped) = load::<G>(data)?;
    if opts.top {
        for s in &mut all {
            s.offset = f64::from(s.pos.net_offset());
        }
    }
    let (train, holdout) = split_holdout(all, opts.holdout_every);
    if train.is_empty() {
        return Err(TuneError::NoData);
    }
    let start = if opts.top { G::TOP } else { G::PARAMS };
    let names = values(&start);
    let chosen: Vec<usize> = names
        .iter()
        .enumerate()
        .filter(|(_, (n, _))| {
            opts.only.is_empty() || opts.only.iter().any(|o| n.starts_with(o.as_str()))
        })
        .map(|(i, _)| i)
        .collect();
    if chosen.is_empty() {
        return Err(TuneError::NoSuchWeight(opts.only.clone()));
    }
    let threads = opts.threads;
    let clock = Instant::now();
    let k = opts.k.unwrap_or_else(|| best_k(&train, &start, threads));
    let before = (
        error(&train, &start, k, threads),
        error(&holdout, &start, k, threads),
    );
    progress(&format!("k = {k:.4}, error {:.6}", before.0));
    let mut best = start;
    let mut e = before.0;
    let mut step = opts.step.max(1);
    let out_of_time = || {
        opts.max_seconds
            .is_some_and(|m| clock.elapsed().as_secs_f64() > m)
    };
    let mut stopped = false;
    'steps: loop {
        for pass in 0..opts.max_passes {
            let mut improved = false;
            for &i in &chosen {
                if out_of_time() {
                    stopped = true;
                    progress(&format!(
                        "out of time at step {step} pass {pass}: error {e:.6}"
                    ));
                    break 'steps;
                }
                for dir in [1, -1] {
                    let mut moved = false;
                    loop {
                        let cand = nudged(&best, i, dir * step);
                        let ec = error(&train, &cand, k, threads);
                        if ec < e {
                            best = cand;
                            e = ec;
                            moved = true;
                        } else {
                            break;
                        }
                    }
                    if moved {
                        improved = true;
                        break;
                    }
                }
            }
            progress(&format!(
                "step {step} pass {pass}: error {e:.6} ({:.0} s)",
                clock.elapsed().as_secs_f64()
            ));
            if !improved {
                break;
            }
        }
        if step == 1 {
            break;
        }
        step /= 2;
    }
    let mut after = (e, error(&holdout, &best, k, threads));
    let mut rescaled = 1.0;
    let mut k_after = k;
    if opts.keep_scale {
        let size = |p: &G::Params| -> f64 {
            train
                .iter()
                .map(|s| white_eval(&s.pos, p).abs())
                .sum::<f64>()
                / train.len() as f64
        };
        let (old, new) = (size(&start), size(&best));
        if new > 0.0 {
            rescaled = old / new;
            let mut scaled = best;
            let mut i = 0;
            scaled.visit(&mut |_, v| {
                if chosen.contains(&i) {
                    *v = (f64::from(*v) * rescaled).round() as i32;
                }
                i += 1;
            });
            best = scaled;
            k_after = best_k(&train, &best, threads);
            after = (
                error(&train, &best, k_after, threads),
                error(&holdout, &best, k_after, threads),
            );
        }
    }
    let weights = names
        .into_iter()
        .zip(values(&best))
        .map(|((name, b), (_, a))| (name, b, a))
        .collect();
    Ok(FitReport {
        train: train.len(),
        holdout: holdout.len(),
        skipped,
        k,
        rescaled,
        k_after,
        train_error: (before.0, after.0),
        holdout_error: (before.1, after.1),
        weights,
        literal: format!("{best:#?}"),
        out_of_time: stopped,
    })
}

mod judge;
pub mod pst;
pub mod reference;
pub mod spsa;

#[cfg(test)]
mod tests;
