//! Tuning level 8's search constants together by games (SPSA:
//! simultaneous perturbation stochastic approximation, as chess
//! engines' test farms tune). Each step perturbs every constant at once
//! by ± its step, in a random direction, plays a pair of games between
//! the two perturbed sets from one random opening (each set once with
//! each colour), and moves every constant along the direction in
//! proportion to the pair's result. One game's result says little;
//! hundreds of pairs add up to a gradient.
//!
//! Why tune together: session after session, single constants and
//! switches changed one at a time were within error of nothing
//! (docs/strength-session-32.md); constants that interact are better
//! moved at once.

use std::{collections::HashMap, sync::Mutex, thread};

use chessplayx_rules::{
    Color, Variant,
    chess::{AtomicChess, Chess, HordeChess},
    xiangqi::Xiangqi,
};

use crate::{
    LevelParams, PositionHistory, Rng, Score, SearchLimits, SearchOptions, SearchParams, Searcher,
    eval::Evaluate,
    search::params::{COUNT, SPECS},
};

/// How [`spsa`] tunes.
#[derive(Clone, Debug)]
pub struct SpsaOptions {
    /// Game pairs to play (steps).
    pub pairs: u32,
    /// Node budget of each move's search.
    pub nodes: u64,
    /// Games played at once, one thread each.
    pub threads: usize,
    /// Seed of the openings and the directions.
    pub seed: u64,
    /// Random moves at the start of each game.
    pub random_plies: u32,
    /// A game still running after this many plies is a draw.
    pub max_plies: u32,
    /// The step's learning rate: each pair moves a constant by
    /// `rate × step × result` (result −2 to 2, the perturbation's sign
    /// folded in).
    pub rate: f64,
    /// Scale of every constant's perturbation (1: [`SPECS`]' steps).
    pub step_scale: f64,
    /// Indices of [`SPECS`] to tune; the others stay at `start`.
    pub tuned: Vec<usize>,
    /// Where the constants start.
    pub start: SearchParams,
}

/// Where [`spsa`] is after some pairs.
#[derive(Clone, Debug)]
pub struct SpsaReport {
    /// Pairs played.
    pub pairs: u32,
    /// Games won by the plus side, drawn, won by the minus side.
    pub results: [u32; 3],
    /// The constants now, unrounded (in [`SPECS`]' order).
    pub theta: [f64; COUNT],
}

impl SpsaReport {
    /// The constants now, rounded into a set the search plays.
    #[must_use]
    pub fn params(&self) -> SearchParams {
        rounded(&self.theta, &[0.0; COUNT])
    }
}

/// `theta + delta`, each rounded and clamped into its range.
fn rounded(theta: &[f64; COUNT], delta: &[f64; COUNT]) -> SearchParams {
    let mut p = SearchParams::DEFAULT;
    for i in 0..COUNT {
        p = p.with(i, (theta[i] + delta[i]).round() as i32);
    }
    p
}

/// Tunes level 8's search constants in `variant` by `opts.pairs` game
/// pairs; `progress` hears of every finished pair.
pub fn spsa(
    variant: Variant,
    opts: &SpsaOptions,
    progress: &mut (dyn FnMut(&SpsaReport) + Send),
) -> SpsaReport {
    match variant {
        Variant::Chess => spsa_in(&Chess::start(), opts, progress),
        Variant::Horde => spsa_in(&HordeChess::start(), opts, progress),
        Variant::Atomic => spsa_in(&AtomicChess::start(), opts, progress),
        Variant::Xiangqi => spsa_in(&Xiangqi::start(), opts, progress),
    }
}

struct Shared<'a> {
    /// Pairs claimed by a thread (given back when its opening fails).
    started: u32,
    /// Openings drawn: each draw gets its own number, so a failed one is
    /// not drawn again.
    draws: u64,
    report: SpsaReport,
    progress: &'a mut (dyn FnMut(&SpsaReport) + Send),
}

fn spsa_in<G: Evaluate + Send + Sync>(
    start: &G,
    opts: &SpsaOptions,
    progress: &mut (dyn FnMut(&SpsaReport) + Send),
) -> SpsaReport {
    let mut theta = [0.0; COUNT];
    for (i, t) in theta.iter_mut().enumerate() {
        *t = f64::from(opts.start.get(i));
    }
    let shared = Mutex::new(Shared {
        started: 0,
        draws: 0,
        report: SpsaReport {
            pairs: 0,
            results: [0; 3],
            theta,
        },
        progress,
    });
    thread::scope(|s| {
        for _ in 0..opts.threads.max(1) {
            s.spawn(|| worker(start, opts, &shared));
        }
    });
    let shared = shared
        .into_inner()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    shared.report
}

/// One thread: takes the next pair's number and the constants, plays the
/// pair, applies its result.
fn worker<G: Evaluate>(start: &G, opts: &SpsaOptions, shared: &Mutex<Shared<'_>>) {
    let mut plus = Searcher::<G>::new(16);
    let mut minus = Searcher::<G>::new(16);
    loop {
        let (k, theta) = {
            let mut sh = shared
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner);
            if sh.started >= opts.pairs {
                return;
            }
            sh.started += 1;
            sh.draws += 1;
            (sh.draws - 1, sh.report.theta)
        };
        let mut rng = Rng::new(opts.seed.wrapping_mul(0x9e37_79b9).wrapping_add(k));
        let mut dir = [0.0; COUNT];
        let mut delta = [0.0; COUNT];
        for &i in &opts.tuned {
            dir[i] = if rng.below(2) == 0 { -1.0 } else { 1.0 };
            delta[i] = dir[i] * SPECS[i].step * opts.step_scale;
        }
        let minus_delta = delta.map(|d| -d);
        let p_plus = rounded(&theta, &delta);
        let p_minus = rounded(&theta, &minus_delta);
        let Some(opening) = balanced_opening(start, opts, &mut rng, &mut plus) else {
            // Give the number back: a pair is only counted when played.
            shared
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner)
                .started -= 1;
            continue;
        };
        let mut result = 0.0;
        let mut tally = [0u32; 3];
        for plus_white in [true, false] {
            plus.clear();
            minus.clear();
            let white_score = if plus_white {
                play(&opening, opts, [(&mut plus, p_plus), (&mut minus, p_minus)])
            } else {
                play(&opening, opts, [(&mut minus, p_minus), (&mut plus, p_plus)])
            };
            // White's result (2 win, 1 draw, 0 loss) as the plus side's.
            let s = if plus_white {
                white_score
            } else {
                2 - white_score
            };
            result += f64::from(s) - 1.0;
            tally[2 - s as usize] += 1;
        }
        let mut sh = shared
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        for &i in &opts.tuned {
            let spec = &SPECS[i];
            let step = spec.step * opts.step_scale;
            let t = sh.report.theta[i] + opts.rate * step * result * dir[i];
            sh.report.theta[i] = t.clamp(f64::from(spec.min), f64::from(spec.max));
        }
        sh.report.pairs += 1;
        for (r, t) in sh.report.results.iter_mut().zip(tally) {
            *r += t;
        }
        let report = sh.report.clone();
        (sh.progress)(&report);
    }
}

/// A random opening whose score at the default constants is near level
/// (within 100 cp at a tenth of the game budget); `None` when the random
/// moves ended the game or unbalanced it.
fn balanced_opening<G: Evaluate>(
    start: &G,
    opts: &SpsaOptions,
    rng: &mut Rng,
    searcher: &mut Searcher<G>,
) -> Option<G> {
    let mut moves = Vec::new();
    let pos = super::random_opening(start, opts.random_plies, rng, &mut moves)?;
    searcher.clear();
    let probe = searcher.search(
        &pos,
        &PositionHistory::new(),
        &SearchLimits::nodes((opts.nodes / 4).max(1000)),
        SearchOptions::default(),
        &mut |_| {},
    );
    matches!(probe.score, Score::Cp(cp) if cp.abs() <= 100).then_some(pos)
}

/// Score beyond which both sides must agree for a few plies to end the
/// game as won (as `tune gen` does).
const WIN_CP: i32 = 1000;
const WIN_PLIES: u32 = 6;
/// A long game where both sides see a level position this long is drawn.
const DRAW_CP: i32 = 10;
const DRAW_PLIES: u32 = 12;
const DRAW_FROM_PLY: u32 = 80;

/// One game from `pos`, White searching with `sides[0]`'s searcher and
/// constants: White's result (2 win, 1 draw, 0 loss).
fn play<G: Evaluate>(
    pos: &G,
    opts: &SpsaOptions,
    mut sides: [(&mut Searcher<G>, SearchParams); 2],
) -> u8 {
    let mut pos = pos.clone();
    let mut history = PositionHistory::new();
    let mut seen: HashMap<u64, u32> = HashMap::new();
    let mut win_streak: (i32, u32) = (0, 0);
    let mut draw_streak = 0u32;
    let limits = SearchLimits::nodes(opts.nodes);
    for ply in 0..opts.max_plies {
        if let Some(o) = pos.outcome() {
            return super::white_score(o.winner);
        }
        if pos.lost() {
            return super::white_score(Some(!pos.turn()));
        }
        let count = seen.entry(pos.zobrist()).or_insert(0);
        *count += 1;
        if *count >= 3 || pos.dead_draw() || pos.halfmoves() >= 100 {
            return 1;
        }
        let (searcher, params) = &mut sides[usize::from(pos.turn() != Color::White)];
        let row = LevelParams {
            search: Some(*params),
            ..crate::Level::Eight.params_in(pos.variant())
        };
        let options = SearchOptions {
            row: Some(row),
            ..SearchOptions::default()
        };
        let r = searcher.search(&pos, &history, &limits, options, &mut |_| {});
        let Some(mv) = r.best_move else {
            break;
        };
        let cp = match r.score {
            Score::Cp(cp) => cp,
            Score::Mate(n) if n > 0 => 30_000,
            Score::Mate(_) => -30_000,
        };
        let white_cp = if pos.turn() == Color::White { cp } else { -cp };
        let sign = if white_cp >= WIN_CP {
            1
        } else if white_cp <= -WIN_CP {
            -1
        } else {
            0
        };
        win_streak = if sign != 0 && sign == win_streak.0 {
            (sign, win_streak.1 + 1)
        } else {
            (sign, 1)
        };
        if sign != 0 && win_streak.1 >= WIN_PLIES {
            return if sign > 0 { 2 } else { 0 };
        }
        draw_streak = if ply >= DRAW_FROM_PLY && white_cp.abs() <= DRAW_CP {
            draw_streak + 1
        } else {
            0
        };
        if draw_streak >= DRAW_PLIES {
            return 1;
        }
        history.push(&pos);
        pos.play(mv);
    }
    1
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_short_run_moves_only_the_tuned_constants_and_counts_every_game() {
        let opts = SpsaOptions {
            pairs: 2,
            nodes: 300,
            threads: 2,
            seed: 5,
            random_plies: 6,
            max_plies: 60,
            rate: 0.5,
            step_scale: 1.0,
            tuned: vec![
                crate::search::params::RFP_MARGIN,
                crate::search::params::LMR_DIV,
            ],
            start: SearchParams::DEFAULT,
        };
        let mut seen = 0;
        let report = spsa(Variant::Chess, &opts, &mut |_| seen += 1);
        assert_eq!(report.pairs, 2);
        assert_eq!(seen, 2);
        assert_eq!(report.results.iter().sum::<u32>(), 4);
        let p = report.params();
        for (i, spec) in SPECS.iter().enumerate() {
            if !opts.tuned.contains(&i) {
                assert_eq!(p.get(i), spec.default, "{} moved", spec.name);
            }
        }
        // Each decisive pair moves both tuned constants by a multiple of
        // rate × step; the unrounded values stay on that grid.
        for &i in &opts.tuned {
            let moved = (report.theta[i] - f64::from(SPECS[i].default)) / (0.5 * SPECS[i].step);
            assert!((moved - moved.round()).abs() < 1e-9, "{moved}");
            assert!(moved.abs() <= 4.0);
        }
    }
}
