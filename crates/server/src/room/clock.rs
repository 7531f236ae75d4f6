//! The server-side Fischer clock of a room.

use std::time::Duration;

use chessplayx_rules::{ByColor, Color};
use tokio::time::Instant;

use crate::{protocol::ClockJson, store::ClockConfig};

/// Both sides' remaining time and which one runs. Times are kept in
/// milliseconds as signed numbers so an overdraft is visible before it is
/// turned into a time-out.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Clocks {
    config: ClockConfig,
    /// Remaining time when the running side's clock was last started.
    remaining: ByColor<i64>,
    running: Option<(Color, Instant)>,
}

fn ms(d: Duration) -> i64 {
    i64::try_from(d.as_millis()).unwrap_or(i64::MAX)
}

impl Clocks {
    /// Fresh clocks, both stopped.
    pub(crate) fn new(config: ClockConfig) -> Self {
        let initial = i64::try_from(config.initial).unwrap_or(i64::MAX);
        Self {
            config,
            remaining: ByColor::new(initial, initial),
            running: None,
        }
    }

    /// Clocks restored from stored values, both stopped.
    pub(crate) fn restored(config: ClockConfig, remaining: ByColor<u64>) -> Self {
        Self {
            config,
            remaining: remaining.map(|r| i64::try_from(r).unwrap_or(i64::MAX)),
            running: None,
        }
    }

    /// The time control.
    pub(crate) const fn config(&self) -> ClockConfig {
        self.config
    }

    /// `side`'s remaining time at `now` (negative when flagged).
    pub(crate) fn remaining(&self, side: Color, now: Instant) -> i64 {
        let base = *self.remaining.get(side);
        match self.running {
            Some((running, since)) if running == side => {
                base.saturating_sub(ms(now.saturating_duration_since(since)))
            }
            _ => base,
        }
    }

    /// Which clock runs.
    pub(crate) fn running(&self) -> Option<Color> {
        self.running.map(|(c, _)| c)
    }

    /// When the running side's time reaches zero.
    pub(crate) fn flag_at(&self) -> Option<Instant> {
        let (side, since) = self.running?;
        let left = u64::try_from((*self.remaining.get(side)).max(0)).unwrap_or(0);
        Some(since + Duration::from_millis(left))
    }

    /// The side whose time is up at `now`, if any.
    pub(crate) fn flagged(&self, now: Instant) -> Option<Color> {
        let side = self.running()?;
        (self.remaining(side, now) <= 0).then_some(side)
    }

    /// Stops every clock, keeping the times; an overdraft (a command
    /// handled after the flag fell but before the flag timer ran) stops
    /// at 0, so a stopped clock is never negative.
    pub(crate) fn stop(&mut self, now: Instant) {
        if let Some((side, _)) = self.running {
            *self.remaining.get_mut(side) = self.remaining(side, now).max(0);
        }
        self.running = None;
    }

    /// Starts `side`'s clock (stopping the other).
    pub(crate) fn start(&mut self, side: Color, now: Instant) {
        self.stop(now);
        self.running = Some((side, now));
    }

    /// After `mover` moved: charge the time it used, add the increment
    /// if its clock was running, and start the opponent's clock when
    /// `opponent_runs` (both sides have moved once).
    pub(crate) fn after_move(&mut self, mover: Color, now: Instant, opponent_runs: bool) {
        let was_running = self.running() == Some(mover);
        self.stop(now);
        if was_running {
            let inc = i64::try_from(self.config.increment).unwrap_or(0);
            let r = self.remaining.get_mut(mover);
            *r = r.saturating_add(inc);
        }
        if opponent_runs {
            self.running = Some((!mover, now));
        }
    }

    /// Remaining times for storage (an overdraft is stored as 0).
    pub(crate) fn stored(&self, now: Instant) -> ByColor<u64> {
        ByColor::new(
            u64::try_from(self.remaining(Color::White, now).max(0)).unwrap_or(0),
            u64::try_from(self.remaining(Color::Black, now).max(0)).unwrap_or(0),
        )
    }

    /// The clocks as sent to clients.
    pub(crate) fn json(&self, now: Instant) -> ClockJson {
        let stored = self.stored(now);
        ClockJson {
            white: stored.white,
            black: stored.black,
            running: self.running(),
            initial: self.config.initial,
            increment: self.config.increment,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const CONFIG: ClockConfig = ClockConfig {
        initial: 60_000,
        increment: 2_000,
    };

    #[test]
    fn time_is_charged_to_the_running_side_and_increment_added() {
        let t0 = Instant::now();
        let mut c = Clocks::new(CONFIG);
        // First moves: no clock runs, no increment.
        c.after_move(Color::White, t0 + Duration::from_secs(5), false);
        assert_eq!(c.running(), None);
        c.after_move(Color::Black, t0 + Duration::from_secs(9), true);
        assert_eq!(c.running(), Some(Color::White));
        assert_eq!(
            c.stored(t0 + Duration::from_secs(9)),
            ByColor::new(60_000, 60_000)
        );
        let t1 = t0 + Duration::from_secs(19);
        assert_eq!(c.remaining(Color::White, t1), 50_000);
        c.after_move(Color::White, t1, true);
        assert_eq!(c.stored(t1), ByColor::new(52_000, 60_000));
        assert_eq!(c.running(), Some(Color::Black));
        assert_eq!(c.flag_at(), Some(t1 + Duration::from_secs(60)));
        assert_eq!(c.flagged(t1 + Duration::from_secs(59)), None);
        assert_eq!(c.flagged(t1 + Duration::from_secs(60)), Some(Color::Black));
        let json = c.json(t1 + Duration::from_secs(61));
        assert_eq!((json.white, json.black), (52_000, 0));
    }

    #[test]
    fn stopping_freezes_the_times() {
        let t0 = Instant::now();
        let mut c = Clocks::restored(CONFIG, ByColor::new(1_000, 5_000));
        c.start(Color::Black, t0);
        c.stop(t0 + Duration::from_millis(1_500));
        assert_eq!(c.running(), None);
        assert_eq!(c.flag_at(), None);
        assert_eq!(
            c.stored(t0 + Duration::from_secs(100)),
            ByColor::new(1_000, 3_500)
        );
    }
}
