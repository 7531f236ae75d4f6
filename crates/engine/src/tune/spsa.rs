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

use std::{
    io,
    sync::{Mutex, PoisonError},
    thread,
};

use chessplayx_rules::{
    Color, Variant,
    chess::{AtomicChess, Chess, HordeChess},
    xiangqi::Xiangqi,
};

use super::{TuneError, reference::UciEngine};
use crate::{
    LevelParams, PositionHistory, Rng, SearchLimits, SearchOptions, SearchParams, Searcher,
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
    /// Play each perturbed set against this UCI engine instead of
    /// against the other set (see [`super::reference`]).
    pub reference: Option<Reference>,
}

/// The UCI engine the perturbed sets play against.
#[derive(Clone, Debug)]
pub struct Reference {
    /// Program and arguments, split on whitespace.
    pub command: String,
    /// `setoption` pairs (name, value), e.g. `Threads`, `1`.
    pub options: Vec<(String, String)>,
}

/// Where [`spsa`] is after some pairs.
#[derive(Clone, Debug)]
pub struct SpsaReport {
    /// Pairs played.
    pub pairs: u32,
    /// Self-play: games won by the plus side, drawn, won by the minus
    /// side. Against a reference: both sets' wins, draws and losses.
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
/// pairs (steps); `progress` hears of every finished step.
///
/// # Errors
///
/// [`TuneError::Reference`] when the reference engine cannot start,
/// stops answering or plays an illegal move.
pub fn spsa(
    variant: Variant,
    opts: &SpsaOptions,
    progress: &mut (dyn FnMut(&SpsaReport) + Send),
) -> Result<SpsaReport, TuneError> {
    match variant {
        Variant::Chess => spsa_in(&Chess::start(), opts, progress),
        Variant::Horde => spsa_in(&HordeChess::start(), opts, progress),
        Variant::Atomic => spsa_in(&AtomicChess::start(), opts, progress),
        Variant::Xiangqi => spsa_in(&Xiangqi::start(), opts, progress),
    }
}

struct Shared<'a> {
    /// The first reference failure; the other threads stop on it.
    failed: Option<io::Error>,
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
) -> Result<SpsaReport, TuneError> {
    let mut theta = [0.0; COUNT];
    for (i, t) in theta.iter_mut().enumerate() {
        *t = f64::from(opts.start.get(i));
    }
    let shared = Mutex::new(Shared {
        failed: None,
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
            s.spawn(|| {
                if let Err(e) = worker(start, opts, &shared) {
                    let mut sh = shared.lock().unwrap_or_else(PoisonError::into_inner);
                    sh.started = opts.pairs;
                    sh.failed.get_or_insert(e);
                }
            });
        }
    });
    let shared = shared.into_inner().unwrap_or_else(PoisonError::into_inner);
    match shared.failed {
        Some(e) => Err(TuneError::Reference(e)),
        None => Ok(shared.report),
    }
}

/// One thread: takes the next step's number and the constants, plays
/// the step's games, applies their result.
fn worker<G: Evaluate>(
    start: &G,
    opts: &SpsaOptions,
    shared: &Mutex<Shared<'_>>,
) -> io::Result<()> {
    let mut plus = Searcher::<G>::new(16);
    let mut minus = Searcher::<G>::new(16);
    let mut reference = match &opts.reference {
        Some(r) => Some(UciEngine::start(&r.command, &r.options, start.variant())?),
        None => None,
    };
    loop {
        let (k, theta) = {
            let mut sh = shared.lock().unwrap_or_else(PoisonError::into_inner);
            if sh.started >= opts.pairs {
                return Ok(());
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
        // Within 100 cp at a quarter of the game budget (at least 1,000
        // nodes), by the default search.
        let probe = ((opts.nodes / 4).max(1000), 100);
        let Some(opening) = super::balanced_opening(
            start,
            opts.random_plies,
            &mut rng,
            &mut Vec::new(),
            &mut plus,
            probe,
        ) else {
            // Give the number back: a step is only counted when played.
            shared
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .started -= 1;
            continue;
        };
        // The result: the plus set's points less the minus set's, a win
        // counting 1 and a loss −1.
        let mut result = 0.0;
        let mut tally = [0u32; 3];
        for ours_white in [true, false] {
            plus.clear();
            minus.clear();
            let sets = [(&mut plus, p_plus), (&mut minus, p_minus)];
            let scores = colour_games(&opening, opts, ours_white, sets, reference.as_mut())?;
            result += (f64::from(scores[0]) - f64::from(scores[1])) / 2.0;
            // Self-play: the plus side's games; against the reference,
            // both sets' games.
            let counted = if reference.is_some() {
                &scores[..]
            } else {
                &scores[..1]
            };
            for &s in counted {
                tally[2 - s as usize] += 1;
            }
        }
        let mut sh = shared.lock().unwrap_or_else(PoisonError::into_inner);
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

/// The step's games with one colour for level 8: `[plus, minus]`'s
/// scores (2 win, 1 draw, 0 loss), each against the reference when there
/// is one, else against each other.
fn colour_games<G: Evaluate>(
    opening: &G,
    opts: &SpsaOptions,
    ours_white: bool,
    sets: [(&mut Searcher<G>, SearchParams); 2],
    reference: Option<&mut UciEngine>,
) -> io::Result<[u8; 2]> {
    let ours = |white_score: u8| {
        if ours_white {
            white_score
        } else {
            2 - white_score
        }
    };
    let [(plus, p_plus), (minus, p_minus)] = sets;
    if let Some(engine) = reference {
        let mut one = |searcher: &mut Searcher<G>, p: SearchParams| -> io::Result<u8> {
            engine.new_game()?;
            let side = Player::Ours(searcher, p);
            let sides = if ours_white {
                [side, Player::Uci(&mut *engine)]
            } else {
                [Player::Uci(&mut *engine), side]
            };
            Ok(ours(play(opening, opts, sides)?))
        };
        let a = one(plus, p_plus)?;
        let b = one(minus, p_minus)?;
        Ok([a, b])
    } else {
        let (p, m) = (Player::Ours(plus, p_plus), Player::Ours(minus, p_minus));
        let sides = if ours_white { [p, m] } else { [m, p] };
        let a = ours(play(opening, opts, sides)?);
        Ok([a, 2 - a])
    }
}

/// A long game where both sides see a level position this long is drawn.
const DRAW_CP: i32 = 10;
const DRAW_PLIES: u32 = 12;
const DRAW_FROM_PLY: u32 = 80;

/// One side of a game: level 8 with a set of constants, or the
/// reference.
enum Player<'a, G: Evaluate> {
    Ours(&'a mut Searcher<G>, SearchParams),
    Uci(&'a mut UciEngine),
}

/// One game from `pos`, `sides[0]` White: White's result (2 win, 1 draw,
/// 0 loss). Both sides' scores adjudicate, so that a set whose own
/// scores run high does not win games the reference would not lose.
fn play<G: Evaluate>(pos: &G, opts: &SpsaOptions, mut sides: [Player<'_, G>; 2]) -> io::Result<u8> {
    let fen = pos.fen();
    let mut pos = pos.clone();
    let mut ucis: Vec<String> = Vec::new();
    let mut history = PositionHistory::new();
    let mut judge = super::judge::Adjudicator::default();
    let mut draw_streak = 0u32;
    let limits = SearchLimits::nodes(opts.nodes);
    for ply in 0..opts.max_plies {
        if let Some(score) = judge.ended(&pos) {
            return Ok(score);
        }
        let white = pos.turn() == Color::White;
        let (mv, cp) = match &mut sides[usize::from(!white)] {
            Player::Uci(engine) => {
                let (text, cp) = engine.best_move(&fen, &ucis, opts.nodes)?;
                let mv = pos.parse_uci(&text).map_err(|e| {
                    io::Error::new(
                        io::ErrorKind::InvalidData,
                        format!("reference played {text:?}: {e}"),
                    )
                })?;
                (mv, cp)
            }
            Player::Ours(searcher, params) => {
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
                (mv, Some(super::score_cp(r.score)))
            }
        };
        // A side that gives no score breaks both streaks.
        let white_cp = cp.map(|cp| if white { cp } else { -cp });
        if let Some(score) = judge.won(white_cp) {
            return Ok(score);
        }
        draw_streak = match white_cp {
            Some(c) if ply >= DRAW_FROM_PLY && c.abs() <= DRAW_CP => draw_streak + 1,
            _ => 0,
        };
        if draw_streak >= DRAW_PLIES {
            return Ok(1);
        }
        ucis.push(pos.move_to_uci(mv));
        history.push(&pos);
        pos.play(mv);
    }
    Ok(1)
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
            reference: None,
        };
        let mut seen = 0;
        let report = spsa(Variant::Chess, &opts, &mut |_| seen += 1).unwrap();
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
