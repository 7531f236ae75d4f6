//! What bounds a search: depth, nodes, time, or nothing (until stopped).

use std::time::{Duration, Instant};

/// A side's clock as UCI gives it in `go wtime … winc … movestogo …`.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Clock {
    /// Time left on the clock of the side to move.
    pub time: Duration,
    /// Increment added after each move.
    pub increment: Duration,
    /// Moves until the next time control (`None`: sudden death).
    pub moves_to_go: Option<u32>,
}

/// The limits of one search. All given limits apply together; the search
/// stops at the first one reached. With none at all it runs until the stop
/// flag is raised (UCI `go infinite`).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct SearchLimits {
    /// Deepest iteration (plies).
    pub depth: Option<u32>,
    /// Node budget.
    pub nodes: Option<u64>,
    /// Exact thinking time.
    pub movetime: Option<Duration>,
    /// A game clock to budget from.
    pub clock: Option<Clock>,
    /// Search until stopped, ignoring the clock (UCI `go infinite`).
    pub infinite: bool,
}

impl SearchLimits {
    /// A search to a fixed depth (tests, `bench`).
    #[must_use]
    pub const fn depth(depth: u32) -> Self {
        Self {
            depth: Some(depth),
            nodes: None,
            movetime: None,
            clock: None,
            infinite: false,
        }
    }

    /// A search of about `nodes` nodes.
    #[must_use]
    pub const fn nodes(nodes: u64) -> Self {
        Self {
            depth: None,
            nodes: Some(nodes),
            movetime: None,
            clock: None,
            infinite: false,
        }
    }

    /// A search of `time`.
    #[must_use]
    pub const fn movetime(time: Duration) -> Self {
        Self {
            depth: None,
            nodes: None,
            movetime: Some(time),
            clock: None,
            infinite: false,
        }
    }
}

/// Time kept back from a clock's budget for the trip through the GUI's
/// pipes: running out of a clock loses the game.
pub(crate) const MOVE_OVERHEAD: Duration = Duration::from_millis(10);

/// Time kept back from a fixed move time (`go movetime`). The reference
/// searches its whole move time (Stockfish's move overhead applies to
/// clocks only), and a move is a line on a pipe sent within a
/// millisecond: keeping the clock's 10 ms back left level 8 searching
/// 90 ms of every 100 (session 28, docs/strength-search-session-28.md).
pub(crate) const MOVETIME_OVERHEAD: Duration = Duration::from_millis(2);

/// When to stop: `soft` is checked between iterations (do not start
/// another), `hard` inside the search (abort now).
#[derive(Copy, Clone, Debug, Default)]
pub(crate) struct TimePlan {
    pub(crate) soft: Option<Instant>,
    pub(crate) hard: Option<Instant>,
}

impl TimePlan {
    /// The plan for `limits` starting at `start`, never past `deadline`.
    pub(crate) fn new(limits: &SearchLimits, start: Instant, deadline: Option<Instant>) -> Self {
        let mut plan = Self::default();
        if !limits.infinite {
            if let Some(t) = limits.movetime {
                let t = t
                    .saturating_sub(MOVETIME_OVERHEAD)
                    .max(Duration::from_millis(1));
                plan.soft = Some(start + t);
                plan.hard = Some(start + t);
            } else if let Some(c) = limits.clock {
                let (soft, hard) = clock_budget(c);
                plan.soft = Some(start + soft);
                plan.hard = Some(start + hard);
            }
        }
        if let Some(d) = deadline {
            plan.soft = Some(plan.soft.map_or(d, |s| s.min(d)));
            plan.hard = Some(plan.hard.map_or(d, |h| h.min(d)));
        }
        plan
    }
}

/// `(soft, hard)` for a clock: aim at an even share of the remaining time
/// (35 moves when the control does not say) plus most of the increment;
/// allow up to five times that when an iteration is running, but never
/// more than 40% of what is left.
fn clock_budget(c: Clock) -> (Duration, Duration) {
    let left = c.time.saturating_sub(MOVE_OVERHEAD);
    let mtg = c.moves_to_go.unwrap_or(35).clamp(1, 50);
    let optimum = left / mtg + c.increment * 3 / 4;
    let cap = if mtg == 1 {
        left.mul_f64(0.9)
    } else {
        left.mul_f64(0.4)
    };
    let hard = (optimum * 5).min(cap).max(Duration::from_millis(1));
    let soft = optimum.mul_f64(0.6).min(hard);
    (soft, hard)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clock_budget_is_a_fair_share_and_never_flags() {
        let c = Clock {
            time: Duration::from_secs(60),
            increment: Duration::ZERO,
            moves_to_go: None,
        };
        let (soft, hard) = clock_budget(c);
        assert!(soft < hard);
        assert!(hard <= Duration::from_secs(24));
        assert!(soft > Duration::from_millis(500));
        // Last move before the control: most of the time, not all.
        let c = Clock {
            time: Duration::from_secs(2),
            increment: Duration::ZERO,
            moves_to_go: Some(1),
        };
        let (_, hard) = clock_budget(c);
        assert!(hard < Duration::from_secs(2) && hard > Duration::from_secs(1));
        // Almost no time: still a positive budget.
        let c = Clock {
            time: Duration::from_millis(3),
            increment: Duration::ZERO,
            moves_to_go: None,
        };
        assert!(clock_budget(c).1 > Duration::ZERO);
    }

    #[test]
    fn a_fixed_move_time_is_searched_almost_whole() {
        let start = Instant::now();
        let plan = TimePlan::new(
            &SearchLimits::movetime(Duration::from_millis(100)),
            start,
            None,
        );
        assert_eq!(plan.hard, Some(start + Duration::from_millis(98)));
        assert_eq!(plan.soft, plan.hard);
    }

    #[test]
    fn deadline_caps_every_plan() {
        let start = Instant::now();
        let deadline = start + Duration::from_millis(50);
        let plan = TimePlan::new(
            &SearchLimits::movetime(Duration::from_secs(5)),
            start,
            Some(deadline),
        );
        assert_eq!(plan.hard, Some(deadline));
        let plan = TimePlan::new(&SearchLimits::depth(3), start, None);
        assert!(plan.hard.is_none() && plan.soft.is_none());
        let inf = SearchLimits {
            infinite: true,
            movetime: Some(Duration::from_millis(1)),
            ..SearchLimits::default()
        };
        assert!(TimePlan::new(&inf, start, None).hard.is_none());
    }
}
