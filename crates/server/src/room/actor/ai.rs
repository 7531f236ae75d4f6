//! The room actor's AI seat: starting, stopping and applying searches.

use chessplayx_engine::Level;

use super::*;

impl RoomActor {
    // ----- AI -----------------------------------------------------------

    pub(super) fn stop_ai(&mut self) {
        if let Some(job) = self.ai.take() {
            job.stop.store(true, Ordering::Relaxed);
        }
    }

    /// Starts a search when the side to move is the AI's and none runs
    /// for this ply.
    pub(super) fn maybe_start_ai(&mut self) {
        self.start_ai_after(Duration::ZERO);
    }

    /// As [`Self::maybe_start_ai`], the search starting after `delay` (a
    /// retry after a failed search must not spin).
    pub(super) fn start_ai_after(&mut self, delay: Duration) {
        if self.core.state != RoomState::Playing || self.core.outcome.is_some() {
            return;
        }
        let turn = self.core.game.turn();
        // Seats hold levels checked at the HTTP edge.
        let Some(level) = self.core.ai_seat(turn).and_then(|n| Level::new(n).ok()) else {
            return;
        };
        let ply = self.core.game.ply();
        if self.ai.as_ref().is_some_and(|j| j.ply == ply) {
            return;
        }
        self.stop_ai();
        let stop = Arc::new(AtomicBool::new(false));
        // With a clock, spend at most a 30th of what is left (and 1 s).
        let think = self.core.clock.as_ref().map(|c| {
            let left = u64::try_from(c.remaining(turn, Instant::now()).max(0)).unwrap_or(0);
            Duration::from_millis((left / 30).clamp(10, 1_000))
        });
        let req = AiRequest {
            game: self.core.game.clone(),
            level,
        };
        let pool = self.shared.ai.clone();
        let weak = self.weak.clone();
        let flag = Arc::clone(&stop);
        tokio::spawn(async move {
            if !delay.is_zero() {
                tokio::time::sleep(delay).await;
            }
            let result = pool.best_move(req, think, None, flag).await;
            if let Some(tx) = weak.upgrade() {
                let _gone = tx.send(RoomCmd::AiMove { ply, result }).await;
            }
        });
        self.ai = Some(AiJob { ply, stop });
    }

    pub(super) async fn ai_move(&mut self, ply: usize, result: AiOutcome) {
        if self.ai.as_ref().is_none_or(|j| j.ply != ply) || self.core.game.ply() != ply {
            return;
        }
        self.ai = None;
        let turn = self.core.game.turn();
        match result {
            Ok(uci) => {
                let cmd = Command::Move {
                    me: turn,
                    held: ByColor::default(),
                    uci: &uci,
                    ply: None,
                };
                if let Err(r) = self.decide_and_commit(None, cmd).await {
                    tracing::error!(room = %self.core.id, uci, code = %r.code, message = r.message, "AI move refused; searching again in 1 s");
                    self.start_ai_after(Duration::from_secs(1));
                }
            }
            Err(e) => {
                tracing::warn!(room = %self.core.id, error = %e, "AI search failed; retrying in 1 s");
                self.start_ai_after(Duration::from_secs(1));
            }
        }
    }
}
