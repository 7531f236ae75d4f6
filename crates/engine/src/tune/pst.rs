//! Fitting chess level 8's piece-square tables (6 roles × 64 squares ×
//! middle and end game = 768 numbers) to a reference engine's scores.
//! Coordinate search over the named weights ([`super::fit`]) is too slow
//! for that many numbers, but for a fixed position the evaluation is
//! linear in the table entries (`standard::PstFeatures`): each position's
//! evaluation with the starting tables is computed once, and a change
//! `δ` of the tables moves it by the position's features · `δ`. Adam
//! then minimises the same loss as the named weights' fit (mean squared
//! error of `sigmoid(eval / 400)` against the label, `k` = 1) plus a
//! small L2 pull of `δ` towards zero, over the whole data at each step
//! (deterministic: one thread, fixed order). docs/strength-chess.md,
//! "Session 14", records the runs.

use std::fmt::Write as _;

use chessplayx_rules::chess::{Chess, Role};

use super::{Sample, TuneError, load, sigmoid, split_holdout};
use crate::eval::{
    CHESS_TOP_PARAMS, PstTable, StandardParams, Tapered, evaluate_table, pst_features, scaled_pst,
};

/// Table entries: 6 roles × 64 squares, each a middle-game and an
/// end-game number (`δ[2 × entry]`, `δ[2 × entry + 1]`).
const N: usize = 6 * 64 * 2;
/// Then one shift per role (middle and end game), which the L2 pull
/// leaves free: a role's value as a whole is well determined by the data
/// (it is material), so only the squares' departures from it are pulled
/// towards the starting shapes. Folded into the tables at the end.
const ALL: usize = N + 6 * 2;

/// The shift of `entry`'s role in `δ`.
fn role_shift(entry: usize) -> usize {
    N + entry / 64 * 2
}

/// How [`fit_pst`] fits.
#[derive(Clone, Debug)]
pub struct PstFitOptions {
    /// Every this-many-th position is kept out of the fit and only
    /// measured (as [`super::FitOptions::holdout_every`]).
    pub holdout_every: usize,
    /// The L2 strengths to try (per squared centipawn of `δ`); the one
    /// with the lowest held-out error is kept.
    pub l2: Vec<f64>,
    /// Adam steps, each over all training positions.
    pub steps: u32,
    /// Adam's first step size in centipawns; it falls linearly to a tenth
    /// of it by the last step, so the end settles.
    pub rate: f64,
    /// Keep each role's average over its squares (mg and eg apart) where
    /// it was, and the role shifts at zero: the tables then only reshape
    /// and the material stays the named weights' (`TOP_PARAMS`). A free
    /// fit moves the pieces' end-game values down by about a sixth and
    /// the middle-game ones up, which changes the evaluation's scale the
    /// search's margins were set in.
    pub keep_material: bool,
}

impl Default for PstFitOptions {
    fn default() -> Self {
        Self {
            holdout_every: 10,
            l2: vec![0.0, 3e-11, 1e-10, 3e-10, 1e-9],
            steps: 1500,
            rate: 2.0,
            keep_material: false,
        }
    }
}

/// What [`fit_pst`] found. Errors are the real evaluation's (with the
/// fitted tables rounded to whole centipawns), before and after.
#[derive(Clone, Debug)]
pub struct PstFitReport {
    /// Positions fitted on, held out, skipped as not quiet.
    pub train: usize,
    /// See `train`.
    pub holdout: usize,
    /// See `train`.
    pub skipped: usize,
    /// Mean squared error on the fitted positions, before and after.
    pub train_error: (f64, f64),
    /// The same on the held-out positions.
    pub holdout_error: (f64, f64),
    /// The same on the unseen games' positions, if given.
    pub test_error: Option<(f64, f64)>,
    /// Held-out and unseen (if given) errors of the linear model for
    /// each L2 strength tried: the unseen games only report, the held-out
    /// positions choose.
    pub l2_tried: Vec<(f64, f64, Option<f64>)>,
    /// The L2 strength kept.
    pub l2: f64,
    /// The fitted tables.
    pub(crate) table: PstTable,
}

impl PstFitReport {
    /// The errors as text.
    #[must_use]
    pub fn summary(&self) -> String {
        let mut s = String::new();
        let _ = writeln!(
            s,
            "positions: {} fitted, {} held out, {} skipped as not quiet",
            self.train, self.holdout, self.skipped
        );
        for (l2, e, u) in &self.l2_tried {
            let _ = write!(s, "l2 {l2:e}: linear held-out error {e:.6}");
            let _ = writeln!(
                s,
                "{}",
                u.map_or(String::new(), |u| format!(", unseen {u:.6}"))
            );
        }
        let _ = writeln!(s, "l2 kept: {:e}", self.l2);
        let (t, h) = (self.train_error, self.holdout_error);
        let _ = writeln!(s, "error fitted: {:.6} -> {:.6}", t.0, t.1);
        let _ = writeln!(s, "error held out: {:.6} -> {:.6}", h.0, h.1);
        if let Some(u) = self.test_error {
            let _ = writeln!(s, "error unseen: {:.6} -> {:.6}", u.0, u.1);
        }
        s
    }
}

/// The positions as the fit sees them: per position its starting
/// evaluation (White's point of view), label, phase weights and the span
/// of its pieces in `pieces`.
struct Set {
    rows: Vec<Row>,
    pieces: Vec<(u16, i8)>,
}

struct Row {
    base: f64,
    label: f64,
    mg: f64,
    eg: f64,
    span: (u32, u32),
}

/// The evaluation, White's point of view.
fn white(pos: &Chess, p: &StandardParams, table: &PstTable) -> f64 {
    let v = evaluate_table(pos, p, Some(table));
    f64::from(if pos.turn() == chessplayx_rules::Color::White {
        v
    } else {
        -v
    })
}

fn features(samples: &[Sample<Chess>], p: &StandardParams, table: &PstTable) -> Set {
    let mut set = Set {
        rows: Vec::with_capacity(samples.len()),
        pieces: Vec::new(),
    };
    for s in samples {
        let f = pst_features(&s.pos, p, Some(table));
        let begin = set.pieces.len() as u32;
        set.pieces.extend_from_slice(&f.pieces);
        set.rows.push(Row {
            base: white(&s.pos, p, table),
            label: s.result,
            mg: f.mg,
            eg: f.eg,
            span: (begin, set.pieces.len() as u32),
        });
    }
    set
}

impl Set {
    /// The linear model's evaluation of row `r` with the change `delta`.
    fn predict(&self, r: &Row, delta: &[f64]) -> f64 {
        let mut d = 0.0;
        for &(e, sign) in &self.pieces[r.span.0 as usize..r.span.1 as usize] {
            let (k, e) = (role_shift(usize::from(e)), usize::from(e) * 2);
            let (mg, eg) = (delta[e] + delta[k], delta[e + 1] + delta[k + 1]);
            d += f64::from(sign) * (r.mg * mg + r.eg * eg);
        }
        r.base + d
    }

    /// The linear model's mean squared error.
    fn error(&self, delta: &[f64]) -> f64 {
        let sum: f64 = self
            .rows
            .iter()
            .map(|r| {
                let d = r.label - sigmoid(1.0, self.predict(r, delta));
                d * d
            })
            .sum();
        sum / self.rows.len().max(1) as f64
    }

    /// The gradient of the mean squared error with respect to `delta`.
    fn gradient(&self, delta: &[f64], grad: &mut [f64]) {
        grad.fill(0.0);
        let n = self.rows.len().max(1) as f64;
        let slope = std::f64::consts::LN_10 / 400.0;
        for r in &self.rows {
            let s = sigmoid(1.0, self.predict(r, delta));
            let g = -2.0 * (r.label - s) * s * (1.0 - s) * slope / n;
            for &(e, sign) in &self.pieces[r.span.0 as usize..r.span.1 as usize] {
                let (k, e) = (role_shift(usize::from(e)), usize::from(e) * 2);
                let gs = g * f64::from(sign);
                grad[e] += gs * r.mg;
                grad[e + 1] += gs * r.eg;
                grad[k] += gs * r.mg;
                grad[k + 1] += gs * r.eg;
            }
        }
    }
}

/// Adam over `delta` from zero; `progress` hears every 100th step.
fn adam(set: &Set, l2: f64, opts: &PstFitOptions, progress: &mut dyn FnMut(&str)) -> Vec<f64> {
    let (b1, b2, eps) = (0.9f64, 0.999f64, 1e-8);
    let mut delta = vec![0.0; ALL];
    let (mut m, mut v, mut g) = (vec![0.0; ALL], vec![0.0; ALL], vec![0.0; ALL]);
    let steps = opts.steps.max(1);
    for t in 1..=steps {
        set.gradient(&delta, &mut g);
        let rate = opts.rate * (1.0 - 0.9 * f64::from(t - 1) / f64::from(steps));
        let (c1, c2) = (1.0 - b1.powi(t as i32), 1.0 - b2.powi(t as i32));
        for i in 0..ALL {
            let pull = if i < N { 2.0 * l2 * delta[i] } else { 0.0 };
            let gi = g[i] + pull;
            m[i] = b1 * m[i] + (1.0 - b1) * gi;
            v[i] = b2 * v[i] + (1.0 - b2) * gi * gi;
            delta[i] -= rate * (m[i] / c1) / ((v[i] / c2).sqrt() + eps);
        }
        if opts.keep_material {
            recentre(&mut delta);
        }
        if t % 100 == 0 {
            progress(&format!(
                "l2 {l2:e} step {t}: error {:.6}",
                set.error(&delta)
            ));
        }
    }
    delta
}

/// Sets the role shifts to zero and moves each role's middle-game and
/// end-game changes to average zero over the squares its pieces can
/// stand on (a pawn's ranks 2–7).
fn recentre(delta: &mut [f64]) {
    delta[N..].fill(0.0);
    for role in 0..6 {
        let squares = if role == Role::Pawn as usize {
            8..56
        } else {
            0..64
        };
        for half in 0..2 {
            let at = |sq: usize| (role * 64 + sq) * 2 + half;
            let n = squares.len() as f64;
            let mean = squares.clone().map(|sq| delta[at(sq)]).sum::<f64>() / n;
            for sq in squares.clone() {
                delta[at(sq)] -= mean;
            }
        }
    }
}

/// `table` plus `delta` (each square's change and its role's shift)
/// rounded to whole centipawns.
fn apply(table: &PstTable, delta: &[f64]) -> PstTable {
    let mut out = *table;
    for (role, row) in out.iter_mut().enumerate() {
        for (sq, t) in row.iter_mut().enumerate() {
            let (k, e) = (role_shift(role * 64 + sq), (role * 64 + sq) * 2);
            t.mg += (delta[e] + delta[k]).round() as i32;
            t.eg += (delta[e + 1] + delta[k + 1]).round() as i32;
        }
    }
    out
}

/// The real evaluation's mean squared error with `table`.
fn real_error(samples: &[Sample<Chess>], p: &StandardParams, table: &PstTable) -> f64 {
    let sum: f64 = samples
        .iter()
        .map(|s| {
            let d = s.result - sigmoid(1.0, white(&s.pos, p, table));
            d * d
        })
        .sum();
    sum / samples.len().max(1) as f64
}

/// Fits level 8's chess tables to `data` (lines `<fen>;<probability>`,
/// as the named weights' fit reads them; positions that are not quiet
/// skipped the same way), starting from the shared tables at level 8's
/// `pst_scale`, so that the result depends only on the data and the other
/// weights. `test` (same format) is only measured.
///
/// # Errors
///
/// As [`super::fit`]: a line that does not parse, or no quiet position.
pub fn fit_pst(
    data: &str,
    test: Option<&str>,
    opts: &PstFitOptions,
    progress: &mut dyn FnMut(&str),
) -> Result<PstFitReport, TuneError> {
    let (all, skipped) = load::<Chess>(data)?;
    let (train, holdout) = split_holdout(all, opts.holdout_every);
    if train.is_empty() {
        return Err(TuneError::NoData);
    }
    let p = CHESS_TOP_PARAMS;
    let start = scaled_pst(p.w.pst_scale);
    let (train_set, holdout_set) = (features(&train, &p, &start), features(&holdout, &p, &start));
    let unseen = match test {
        Some(text) => Some(load::<Chess>(text)?.0),
        None => None,
    };
    let unseen_set = unseen.as_ref().map(|u| features(u, &p, &start));
    progress(&format!(
        "{} fitted, {} held out: linear error {:.6}",
        train.len(),
        holdout.len(),
        train_set.error(&[0.0; ALL])
    ));
    let mut best: Option<(f64, f64, Vec<f64>)> = None;
    let mut l2_tried = Vec::new();
    for &l2 in &opts.l2 {
        let delta = adam(&train_set, l2, opts, progress);
        let e = if holdout.is_empty() {
            train_set.error(&delta)
        } else {
            holdout_set.error(&delta)
        };
        let u = unseen_set.as_ref().map(|s| s.error(&delta));
        progress(&format!("l2 {l2:e}: held-out error {e:.6}, unseen {u:?}"));
        l2_tried.push((l2, e, u));
        if best.as_ref().is_none_or(|b| e < b.1) {
            best = Some((l2, e, delta));
        }
    }
    let (l2, _, delta) = best.ok_or(TuneError::NoData)?;
    let table = apply(&start, &delta);
    let both = |s: &[Sample<Chess>]| (real_error(s, &p, &start), real_error(s, &p, &table));
    let test_error = unseen.as_deref().map(both);
    Ok(PstFitReport {
        train: train.len(),
        holdout: holdout.len(),
        skipped,
        train_error: both(&train),
        holdout_error: both(&holdout),
        test_error,
        l2_tried,
        l2,
        table,
    })
}

/// The Rust source of eval/chess_pst.rs holding `report`'s tables, one
/// rank a line (rank 1 first, as the owner sees the board), with the
/// fit's errors and `command` in its header.
#[must_use]
pub fn render(report: &PstFitReport, command: &str) -> String {
    let mut s = String::new();
    s.push_str("//! Level 8's piece-square tables in chess (`own_pst` in standard.rs's\n");
    s.push_str("//! `TOP_PARAMS`), fitted to Fairy-Stockfish's scores by tune/pst.rs;\n");
    s.push_str("//! generated, do not edit: docs/strength-chess.md, \"Session 14\".\n//!\n");
    let _ = writeln!(s, "//! Made by: {command}");
    for line in report.summary().lines() {
        let _ = writeln!(s, "//! {line}");
    }
    s.push_str("\nuse super::{Tapered, chess8::PstTable};\n\n");
    s.push_str("const fn t(mg: i32, eg: i32) -> Tapered {\n    Tapered::new(mg, eg)\n}\n\n");
    s.push_str("/// Indexed `[role][square as seen by the piece's owner]`, at full size.\n");
    s.push_str("#[rustfmt::skip]\npub(crate) static TOP_PST: PstTable = [\n");
    for (role, row) in Role::ALL.iter().zip(&report.table) {
        let _ = writeln!(s, "    // {role:?}\n    [");
        for rank in row.chunks(8) {
            let cells: Vec<String> = rank
                .iter()
                .map(|e: &Tapered| format!("t({}, {})", e.mg, e.eg))
                .collect();
            let _ = writeln!(s, "        {},", cells.join(", "));
        }
        s.push_str("    ],\n");
    }
    s.push_str("];\n");
    s
}

#[cfg(test)]
mod tests;
