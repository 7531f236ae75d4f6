//! Token buckets: per IP address for room creation, per connection for
//! WebSocket messages.

use std::{
    collections::HashMap,
    net::IpAddr,
    sync::Mutex,
    time::{Duration, Instant},
};

/// A token bucket: `capacity` tokens, refilled at `per_sec` a second.
#[derive(Clone, Debug)]
pub(crate) struct Bucket {
    tokens: f64,
    capacity: f64,
    per_sec: f64,
    at: Instant,
}

impl Bucket {
    /// A full bucket.
    pub(crate) fn new(capacity: u32, per_sec: f64, now: Instant) -> Self {
        Self {
            tokens: f64::from(capacity),
            capacity: f64::from(capacity),
            per_sec,
            at: now,
        }
    }

    /// Takes a token if there is one; otherwise says how long until one.
    pub(crate) fn take(&mut self, now: Instant) -> Result<(), Duration> {
        let elapsed = now.saturating_duration_since(self.at).as_secs_f64();
        self.tokens = (self.tokens + elapsed * self.per_sec).min(self.capacity);
        self.at = now;
        if self.tokens >= 1.0 {
            self.tokens -= 1.0;
            Ok(())
        } else if self.per_sec > 0.0 {
            Err(Duration::from_secs_f64(
                ((1.0 - self.tokens) / self.per_sec).min(3600.0),
            ))
        } else {
            Err(Duration::from_secs(3600))
        }
    }

    fn is_full(&self, now: Instant) -> bool {
        let elapsed = now.saturating_duration_since(self.at).as_secs_f64();
        self.tokens + elapsed * self.per_sec >= self.capacity
    }
}

/// One bucket per IP address. Full buckets are forgotten now and then, so
/// the map holds only addresses that were recently busy.
#[derive(Debug)]
pub(crate) struct PerIp {
    per_minute: u32,
    buckets: Mutex<HashMap<IpAddr, Bucket>>,
}

impl PerIp {
    /// `per_minute` actions per address per minute (burst as large); 0
    /// turns the limit off.
    pub(crate) fn new(per_minute: u32) -> Self {
        Self {
            per_minute,
            buckets: Mutex::new(HashMap::new()),
        }
    }

    /// Counts one action of `ip`; `Err` with the wait when over the limit,
    /// rounded up to whole seconds (at least one): it becomes the
    /// `Retry-After` header, and a client that waits exactly that long
    /// must find a token (rounded down, it came back too early).
    pub(crate) fn check(&self, ip: IpAddr) -> Result<(), Duration> {
        self.take(ip).map_err(whole_seconds_up)
    }

    fn take(&self, ip: IpAddr) -> Result<(), Duration> {
        if self.per_minute == 0 {
            return Ok(());
        }
        let now = Instant::now();
        let mut buckets = self
            .buckets
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if buckets.len() > 10_000 {
            buckets.retain(|_, b| !b.is_full(now));
        }
        buckets
            .entry(ip)
            .or_insert_with(|| Bucket::new(self.per_minute, f64::from(self.per_minute) / 60.0, now))
            .take(now)
    }
}

/// `wait` rounded up to a whole number of seconds, at least one.
fn whole_seconds_up(wait: Duration) -> Duration {
    let secs = wait.as_secs() + u64::from(wait.subsec_nanos() > 0);
    Duration::from_secs(secs.max(1))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_bucket_empties_then_refills() {
        let t0 = Instant::now();
        let mut b = Bucket::new(2, 10.0, t0);
        assert!(b.take(t0).is_ok());
        assert!(b.take(t0).is_ok());
        let wait = b.take(t0).unwrap_err();
        assert!(wait <= Duration::from_millis(100) && wait > Duration::ZERO);
        assert!(b.take(t0 + Duration::from_millis(100)).is_ok());
        assert!(b.take(t0 + Duration::from_millis(100)).is_err());
    }

    #[test]
    fn per_ip_limits_each_address_alone() {
        let limit = PerIp::new(3);
        let a: IpAddr = [10, 0, 0, 1].into();
        let b: IpAddr = [10, 0, 0, 2].into();
        for _ in 0..3 {
            assert!(limit.check(a).is_ok());
        }
        let wait = limit.check(a).unwrap_err();
        assert!(wait > Duration::from_secs(10), "{wait:?}");
        assert_eq!(wait.subsec_nanos(), 0, "{wait:?}");
        assert!(limit.check(b).is_ok());
        let off = PerIp::new(0);
        for _ in 0..1000 {
            assert!(off.check(a).is_ok());
        }
    }

    #[test]
    fn waits_round_up_to_whole_seconds() {
        let ms = Duration::from_millis;
        assert_eq!(whole_seconds_up(ms(1)), Duration::from_secs(1));
        assert_eq!(whole_seconds_up(ms(1000)), Duration::from_secs(1));
        assert_eq!(whole_seconds_up(ms(1001)), Duration::from_secs(2));
        assert_eq!(whole_seconds_up(ms(2999)), Duration::from_secs(3));
        assert_eq!(whole_seconds_up(Duration::ZERO), Duration::from_secs(1));
    }
}
