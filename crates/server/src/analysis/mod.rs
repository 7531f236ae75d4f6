//! Game analysis: the engine over every position of a game on the AI
//! pool, one background job per position (so rooms' AI moves, which
//! queue ahead of background jobs, are never starved), with the moves
//! judged by the winning chances they gave away ([`judge`]).
//!
//! Analyses are kept in memory, the most recently asked for
//! [`CACHE_SIZE`] of them, keyed by a hash of the game (variant, start,
//! moves): the same game asked for twice, at once or later, shares one
//! run. They are not stored in the database: an analysis is a pure
//! function of the game and the engine, cheap enough to redo (a minute
//! of background search for a long game), and storing it would tie old
//! results to an engine that has since improved.

mod cache;
mod import;
mod judge;
mod search;

use std::{
    sync::{Arc, Mutex, PoisonError},
    time::Duration,
};

use chessplayx_rules::{AnyGame, Color, EndReason, Variant};
use serde::Serialize;
use sha2::{Digest as _, Sha256};
use tokio::task::JoinSet;

pub(crate) use import::{ImportError, import};
pub(crate) use judge::{Eval, Judgement};
pub(crate) use search::{PositionEval, evaluate};

use crate::bot::{AiPool, Priority};

/// Analyses kept in memory.
pub(crate) const CACHE_SIZE: usize = 64;

/// Analyses running at once; one more is refused (`unavailable`) until
/// one finishes. Each runs at most [`PARALLEL`] positions at a time.
pub(crate) const MAX_RUNNING: usize = 4;

/// Positions of one analysis searched at once.
const PARALLEL: usize = 2;

/// Search time per position: about 20 s of one thread for a 40-move
/// game.
pub(crate) const THINK: Duration = Duration::from_millis(250);

/// A game's analysis id: the first 16 hex digits of SHA-256 over the
/// variant, the start FEN and the moves, so the same game always gets the
/// same id.
#[must_use]
pub(crate) fn analysis_id(variant: Variant, start_fen: &str, moves: &[String]) -> String {
    let mut hash = Sha256::new();
    hash.update(variant.name());
    hash.update(b"\n");
    hash.update(start_fen);
    for m in moves {
        hash.update(b" ");
        hash.update(m);
    }
    hash.finalize()
        .iter()
        .take(8)
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// A Xiangqi move that loses by the perpetual rules.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub(crate) enum Violation {
    /// The move continues a forbidden perpetual check.
    PerpetualCheck,
    /// The move continues a forbidden perpetual chase.
    PerpetualChase,
}

/// One analysis: the game and what is known so far.
#[derive(Debug)]
struct Analysis {
    id: String,
    variant: Variant,
    start_fen: String,
    /// The side to move at the start.
    first_mover: Color,
    moves: Vec<String>,
    sans: Vec<String>,
    violations: Vec<Option<Violation>>,
    /// One per position (moves + 1); `None` until searched (or when its
    /// search failed).
    positions: Vec<Option<PositionEval>>,
    /// Positions finished (searched or failed).
    done: usize,
}

/// The JSON of `GET /api/analysis/{id}`.
#[derive(Debug, Serialize)]
pub(crate) struct AnalysisJson {
    id: String,
    variant: Variant,
    fen: String,
    ucis: Vec<String>,
    sans: Vec<String>,
    total: usize,
    done: usize,
    complete: bool,
    positions: Vec<PositionJson>,
    moves: Vec<MoveJson>,
}

#[derive(Debug, Serialize)]
struct PositionJson {
    ply: usize,
    eval: Option<Eval>,
    best: Option<String>,
    best_san: Option<String>,
    pv: Vec<String>,
    pv_san: Vec<String>,
    depth: u32,
}

#[derive(Debug, Serialize)]
struct MoveJson {
    ply: usize,
    uci: String,
    san: String,
    loss: Option<i32>,
    judgement: Option<Judgement>,
    better: Option<String>,
    better_san: Option<String>,
    violation: Option<Violation>,
}

impl Analysis {
    fn json(&self) -> AnalysisJson {
        let positions = self
            .positions
            .iter()
            .enumerate()
            .map(|(ply, p)| PositionJson {
                ply,
                eval: p.as_ref().map(|p| p.eval),
                best: p.as_ref().and_then(|p| p.best.clone()),
                best_san: p.as_ref().and_then(|p| p.best_san.clone()),
                pv: p.as_ref().map(|p| p.pv.clone()).unwrap_or_default(),
                pv_san: p.as_ref().map(|p| p.pv_san.clone()).unwrap_or_default(),
                depth: p.as_ref().map_or(0, |p| p.depth),
            })
            .collect();
        let moves = self
            .moves
            .iter()
            .enumerate()
            .map(|(i, uci)| self.move_json(i, uci))
            .collect();
        AnalysisJson {
            id: self.id.clone(),
            variant: self.variant,
            fen: self.start_fen.clone(),
            ucis: self.moves.clone(),
            sans: self.sans.clone(),
            total: self.positions.len(),
            done: self.done,
            complete: self.done == self.positions.len(),
            positions,
            moves,
        }
    }

    /// Move `i` (0-based), judged once both positions around it are.
    fn move_json(&self, i: usize, uci: &str) -> MoveJson {
        let before = self.positions.get(i).and_then(Option::as_ref);
        let after = self.positions.get(i + 1).and_then(Option::as_ref);
        // The side to move alternates in every game here.
        let mover = self.mover(i);
        let verdict = match (before, after) {
            (Some(b), Some(a)) => Some(judge::judge(
                mover,
                b.eval,
                a.eval,
                b.best.as_deref() == Some(uci),
            )),
            _ => None,
        };
        let judged = verdict.and_then(|v| v.judgement);
        MoveJson {
            ply: i + 1,
            uci: uci.to_owned(),
            san: self.sans.get(i).cloned().unwrap_or_default(),
            loss: verdict.map(|v| v.loss),
            judgement: judged,
            better: judged.and(before.and_then(|b| b.best.clone())),
            better_san: judged.and(before.and_then(|b| b.best_san.clone())),
            violation: self.violations.get(i).copied().flatten(),
        }
    }

    const fn mover(&self, i: usize) -> Color {
        if i.is_multiple_of(2) {
            self.first_mover
        } else {
            self.first_mover.other()
        }
    }
}

/// Why an analysis was not started.
#[derive(Copy, Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub(crate) enum StartError {
    /// [`MAX_RUNNING`] analyses are running.
    #[error("{MAX_RUNNING} analyses are running; try again in a minute")]
    Busy,
}

/// The analyses in memory: at most [`CACHE_SIZE`], the least recently
/// used finished one dropped first.
#[derive(Debug)]
pub(crate) struct Analyses {
    entries: Mutex<cache::Lru<Arc<Mutex<Analysis>>>>,
}

impl Default for Analyses {
    fn default() -> Self {
        Self {
            entries: Mutex::new(cache::Lru::new(CACHE_SIZE)),
        }
    }
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(PoisonError::into_inner)
}

/// What `POST /api/analysis` answers.
#[derive(Debug, Serialize)]
pub(crate) struct Started {
    /// The analysis id.
    pub(crate) id: String,
    /// Positions to analyse (moves + 1).
    pub(crate) total: usize,
}

impl Analyses {
    /// The analysis of `game`: the one in memory, or a new run on `pool`.
    /// Blocking work (the Xiangqi rules' warnings per move) runs off the
    /// async workers.
    ///
    /// # Errors
    ///
    /// [`StartError::Busy`] when too many analyses are running.
    pub(crate) async fn start(&self, pool: &AiPool, game: AnyGame) -> Result<Started, StartError> {
        let moves = game.moves_uci();
        let start_fen = game.start_fen();
        let id = analysis_id(game.variant(), &start_fen, &moves);
        let total = moves.len() + 1;
        if self.touch(&id) {
            return Ok(Started { id, total });
        }
        let prepared = tokio::task::spawn_blocking(move || prepare(&game))
            .await
            .map_err(|_| StartError::Busy)?;
        let analysis = Analysis {
            id: id.clone(),
            variant: prepared.start.variant(),
            first_mover: prepared.start.turn(),
            start_fen,
            sans: prepared.sans,
            violations: prepared.violations,
            positions: vec![None; total],
            done: 0,
            moves,
        };
        let analysis = Arc::new(Mutex::new(analysis));
        {
            let mut entries = lock(&self.entries);
            // Another request may have started it meanwhile.
            if entries.get(&id).is_some() {
                return Ok(Started { id, total });
            }
            if entries.count(|a| !is_complete(a)) >= MAX_RUNNING {
                return Err(StartError::Busy);
            }
            entries
                .insert(id.clone(), Arc::clone(&analysis), |a| is_complete(a))
                .map_err(|cache::Full| StartError::Busy)?;
        }
        tokio::spawn(run(pool.clone(), analysis, prepared.start));
        Ok(Started { id, total })
    }

    /// Marks `id` used; `true` when it is in memory.
    fn touch(&self, id: &str) -> bool {
        lock(&self.entries).get(id).is_some()
    }

    /// The analysis `id` as it stands, if in memory.
    pub(crate) fn get(&self, id: &str) -> Option<AnalysisJson> {
        let analysis = Arc::clone(lock(&self.entries).get(id)?);
        let json = lock(&analysis).json();
        Some(json)
    }
}

fn is_complete(a: &Mutex<Analysis>) -> bool {
    let a = lock(a);
    a.done == a.positions.len()
}

/// What is computed once before the searches.
struct Prepared {
    /// The game at its start position (played forward by the run).
    start: AnyGame,
    sans: Vec<String>,
    violations: Vec<Option<Violation>>,
}

/// The moves' notation and, in Xiangqi, which of them lose by the
/// perpetual rules (the rules' warnings for the position before each).
fn prepare(game: &AnyGame) -> Prepared {
    let history = game.history();
    let sans = history.iter().map(|m| m.san.clone()).collect();
    let start =
        AnyGame::new(game.variant(), Some(&game.start_fen())).unwrap_or_else(|_| game.clone());
    let violations = if game.variant() == Variant::Xiangqi {
        let mut g = start.clone();
        history
            .iter()
            .map(|m| {
                let v = g
                    .move_warnings()
                    .into_iter()
                    .find(|w| w.uci == m.uci && w.loses)
                    .and_then(|w| w.outcome)
                    .and_then(|o| match o.reason {
                        EndReason::PerpetualCheck | EndReason::PerpetualCheckVsChase => {
                            Some(Violation::PerpetualCheck)
                        }
                        EndReason::PerpetualChase => Some(Violation::PerpetualChase),
                        _ => None,
                    });
                let _played = g.play_uci(&m.uci);
                v
            })
            .collect()
    } else {
        vec![None; history.len()]
    };
    Prepared {
        start,
        sans,
        violations,
    }
}

/// Searches every position of the game, [`PARALLEL`] at a time, as
/// background jobs of the pool, writing each result as it comes.
async fn run(pool: AiPool, analysis: Arc<Mutex<Analysis>>, start: AnyGame) {
    let moves = lock(&analysis).moves.clone();
    let mut game = start;
    let mut jobs = JoinSet::new();
    for ply in 0..=moves.len() {
        if jobs.len() >= PARALLEL
            && let Some(joined) = jobs.join_next().await
        {
            record(&analysis, joined);
        }
        let position = game.clone();
        let pool = pool.clone();
        jobs.spawn(async move {
            let eval = pool
                .run(Priority::Background, None, move || {
                    evaluate(&position, THINK)
                })
                .await;
            (ply, eval.ok())
        });
        if let Some(m) = moves.get(ply)
            && game.play_uci(m).is_err()
        {
            // The moves were checked when the game was built.
            tracing::error!(ply, uci = %m, "analysis: a checked move failed");
        }
    }
    while let Some(joined) = jobs.join_next().await {
        record(&analysis, joined);
    }
}

fn record(
    analysis: &Mutex<Analysis>,
    joined: Result<(usize, Option<PositionEval>), tokio::task::JoinError>,
) {
    let mut a = lock(analysis);
    match joined {
        Ok((ply, eval)) => {
            if eval.is_none() {
                tracing::error!(id = %a.id, ply, "analysis: a search failed");
            }
            if let Some(slot) = a.positions.get_mut(ply) {
                *slot = eval;
            }
        }
        Err(e) => tracing::error!(id = %a.id, error = %e, "analysis: a search task failed"),
    }
    a.done += 1;
}
