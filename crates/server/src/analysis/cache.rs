//! A small least-recently-used map for the analyses in memory: bounded by
//! count, and only entries the caller calls evictable (finished analyses)
//! are ever dropped, so a running analysis is never lost to a newer one.
//! A linear scan finds the oldest: the map holds a few dozen entries.

use std::collections::HashMap;

/// Every entry is in use and none may be dropped.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(super) struct Full;

/// At most `capacity` values by key, each stamped when last used.
#[derive(Debug)]
pub(super) struct Lru<V> {
    entries: HashMap<String, (V, u64)>,
    clock: u64,
    capacity: usize,
}

impl<V> Lru<V> {
    pub(super) fn new(capacity: usize) -> Self {
        Self {
            entries: HashMap::new(),
            clock: 0,
            capacity: capacity.max(1),
        }
    }

    /// The value of `key`, marked as just used.
    pub(super) fn get(&mut self, key: &str) -> Option<&V> {
        self.clock += 1;
        let clock = self.clock;
        self.entries.get_mut(key).map(|(v, used)| {
            *used = clock;
            &*v
        })
    }

    /// How many values satisfy `pred`.
    pub(super) fn count(&self, pred: impl Fn(&V) -> bool) -> usize {
        self.entries.values().filter(|(v, _)| pred(v)).count()
    }

    /// Adds `value` under `key` (replacing any value there), first dropping
    /// the least recently used value that `evictable` allows when full.
    pub(super) fn insert(
        &mut self,
        key: String,
        value: V,
        evictable: impl Fn(&V) -> bool,
    ) -> Result<(), Full> {
        if !self.entries.contains_key(&key) && self.entries.len() >= self.capacity {
            let oldest = self
                .entries
                .iter()
                .filter(|(_, (v, _))| evictable(v))
                .min_by_key(|(_, (_, used))| *used)
                .map(|(k, _)| k.clone())
                .ok_or(Full)?;
            self.entries.remove(&oldest);
        }
        self.clock += 1;
        self.entries.insert(key, (value, self.clock));
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_least_recently_used_evictable_value_goes_first() {
        let mut lru = Lru::new(2);
        let any = |_: &u32| true;
        lru.insert("a".into(), 1, any).unwrap();
        lru.insert("b".into(), 2, any).unwrap();
        assert_eq!(lru.get("a"), Some(&1));
        lru.insert("c".into(), 3, any).unwrap();
        assert_eq!(lru.get("b"), None, "b was used least recently");
        assert_eq!(lru.get("a"), Some(&1));
        assert_eq!(lru.get("c"), Some(&3));
        // Only values above 1 may go: "a" (1) stays although older.
        lru.insert("d".into(), 4, |v| *v > 1).unwrap();
        assert_eq!(lru.get("a"), Some(&1));
        assert_eq!(lru.get("c"), None);
        assert_eq!(lru.insert("e".into(), 5, |_| false), Err(Full));
        assert_eq!(lru.count(|v| *v > 1), 1);
    }
}
