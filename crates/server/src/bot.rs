//! AI moves on a bounded pool: at most `ai_threads` searches run at once
//! (a [`Semaphore`]), each on tokio's blocking threads with a deadline and
//! a stop flag, so searches never starve the async workers that carry the
//! games' moves.

use std::{
    fmt,
    sync::{Arc, atomic::AtomicBool},
    time::{Duration, Instant},
};

use chessplayx_engine::{EngineGame, EnginePosition, Level, think};
use chessplayx_rules::Variant;
use rand::Rng as _;
use tokio::sync::Semaphore;

/// A position to search: the game's start and its moves (so the engine
/// sees the history for repetitions), and the level.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AiRequest {
    /// The game.
    pub variant: Variant,
    /// The start FEN, `None` for the variant's start.
    pub start_fen: Option<String>,
    /// The moves played, UCI.
    pub moves: Vec<String>,
    /// 1 (weakest) to 8.
    pub level: u8,
}

/// What picks a move: blocking, CPU-bound, called on a blocking thread.
/// It must return by the deadline (or soon after the stop flag is raised)
/// and gives `None` when it has no move (the game is over). The server
/// uses the engine ([`engine_picker`]); tests may inject another.
pub type Picker =
    Arc<dyn Fn(&AiRequest, Option<Instant>, &Arc<AtomicBool>) -> Option<String> + Send + Sync>;

/// Why no AI move came.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum AiError {
    /// Every search slot stayed busy until the deadline.
    #[error("the engine is busy")]
    Busy,
    /// The position has no move to make.
    #[error("no move to make")]
    NoMove,
    /// The search task failed (a bug in the engine).
    #[error("the search failed")]
    Failed,
}

/// A search's result: the move in UCI, or why there is none.
pub type AiOutcome = Result<String, AiError>;

/// The bounded pool of searches.
#[derive(Clone)]
pub struct AiPool {
    permits: Arc<Semaphore>,
    picker: Picker,
}

impl fmt::Debug for AiPool {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("AiPool")
            .field("available", &self.permits.available_permits())
            .finish_non_exhaustive()
    }
}

impl AiPool {
    /// A pool running at most `threads` searches at once with `picker`.
    #[must_use]
    pub fn new(threads: usize, picker: Picker) -> Self {
        Self {
            permits: Arc::new(Semaphore::new(threads.max(1))),
            picker,
        }
    }

    /// Searches `req`. Waits for a free slot until `queue_deadline` (for
    /// ever when `None`), then thinks for at most `think` (the level's own
    /// time when `None`). Raising `stop` ends the search early.
    ///
    /// # Errors
    ///
    /// [`AiError::Busy`] when no slot freed up in time, [`AiError::NoMove`]
    /// when the game is over, [`AiError::Failed`] when the search panicked.
    pub async fn best_move(
        &self,
        req: AiRequest,
        think: Option<Duration>,
        queue_deadline: Option<tokio::time::Instant>,
        stop: Arc<AtomicBool>,
    ) -> AiOutcome {
        let acquire = Arc::clone(&self.permits).acquire_owned();
        let permit = match queue_deadline {
            Some(deadline) => tokio::time::timeout_at(deadline, acquire)
                .await
                .map_err(|_| AiError::Busy)?,
            None => acquire.await,
        }
        .map_err(|_| AiError::Failed)?;
        let picker = Arc::clone(&self.picker);
        let search = tokio::task::spawn_blocking(move || {
            let _permit = permit;
            let deadline = think.map(|t| Instant::now() + t);
            picker(&req, deadline, &stop)
        });
        match search.await {
            Ok(Some(uci)) => Ok(uci),
            Ok(None) => Err(AiError::NoMove),
            Err(_) => Err(AiError::Failed),
        }
    }
}

/// The engine as a [`Picker`]: replays the game so the search sees its
/// history (repetitions), then thinks at the level until the deadline
/// (the level's own move time when `None`) or the stop flag. Each call
/// has a fresh random seed, so games against the AI differ.
#[must_use]
pub fn engine_picker() -> Picker {
    Arc::new(
        |req: &AiRequest, deadline: Option<Instant>, stop: &Arc<AtomicBool>| {
            let position = match req.start_fen.as_deref() {
                Some(fen) => EnginePosition::from_fen(req.variant, fen).ok()?,
                None => EnginePosition::start(req.variant),
            };
            let mut game = EngineGame::new(position);
            for uci in &req.moves {
                game.play_uci(uci).ok()?;
            }
            let level = Level::try_from(req.level).ok()?;
            let seed = rand::rng().random();
            think(&game, level, deadline, Some(Arc::clone(stop)), seed).best_move
        },
    )
}
