//! The transposition table: what earlier searches learnt about positions,
//! keyed by Zobrist hash.
//!
//! Each search owns its table (`&mut`), so there is no sharing, no
//! atomics and no unsafe code; several searches run side by side with a
//! table each.

/// How a stored score relates to the true value.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum Bound {
    /// The true value is at least the score (a beta cut-off).
    Lower,
    /// The true value is at most the score (every move failed low).
    Upper,
    /// The score is exact (a principal-variation node).
    Exact,
}

/// One stored result. 16 bytes, four to a 64-byte bucket.
#[derive(Copy, Clone, Debug, Default)]
struct Entry {
    key: u64,
    mv: u16,
    score: i16,
    eval: i16,
    /// Remaining depth (low 7 bits) and whether the node was on a
    /// principal variation when stored (high bit).
    depth: u8,
    /// Generation (high 6 bits) and bound (low 2 bits; 0 = empty slot).
    info: u8,
}

/// What a probe finds.
#[derive(Copy, Clone, Debug)]
pub(crate) struct Hit {
    /// The best move's code ([`crate::Evaluate::move_code`]), 0 for none.
    pub(crate) mv: u16,
    /// Score, node-relative for mates (see [`crate::score::from_tt`]).
    pub(crate) score: i32,
    /// The static evaluation stored with it.
    pub(crate) eval: i32,
    /// Remaining depth of the search that stored it.
    pub(crate) depth: i32,
    /// How the score bounds the true value.
    pub(crate) bound: Bound,
    /// The node was on a principal variation, then or earlier
    /// (the search's `TT_PV` switch).
    pub(crate) pv: bool,
}

impl Hit {
    /// The stored score when it settles the node's window by itself (an
    /// exact score, or a bound already outside `alpha..beta`), made
    /// relative to the root again at `ply`.
    #[inline]
    pub(crate) fn cutoff(&self, ply: usize, alpha: i32, beta: i32) -> Option<i32> {
        let s = crate::score::from_tt(self.score, ply);
        let cut = match self.bound {
            Bound::Exact => true,
            Bound::Lower => s >= beta,
            Bound::Upper => s <= alpha,
        };
        cut.then_some(s)
    }
}

const BUCKET: usize = 4;
/// [`Entry::depth`]'s two parts: searches never go 127 plies deep.
const DEPTH_MASK: u8 = 127;
const PV_FLAG: u8 = 128;

/// A fixed-size table of buckets; replacement prefers keeping deep,
/// recent entries.
#[derive(Debug)]
pub(crate) struct TranspositionTable {
    buckets: Vec<[Entry; BUCKET]>,
    generation: u8,
}

impl TranspositionTable {
    /// A table of about `mb` mebibytes (at least one bucket).
    pub(crate) fn new(mb: usize) -> Self {
        let bytes = mb.max(1).saturating_mul(1 << 20);
        let n = (bytes / size_of::<[Entry; BUCKET]>()).max(1);
        Self {
            buckets: vec![[Entry::default(); BUCKET]; n],
            generation: 0,
        }
    }

    /// Forgets everything (a new game).
    pub(crate) fn clear(&mut self) {
        self.buckets.fill([Entry::default(); BUCKET]);
        self.generation = 0;
    }

    /// Starts a new search: older entries become preferred victims.
    pub(crate) const fn new_search(&mut self) {
        self.generation = (self.generation + 1) & 63;
    }

    #[inline(always)]
    const fn index(&self, key: u64) -> usize {
        // Multiply-shift maps the key onto the bucket count without a
        // power-of-two size or a division.
        ((key as u128 * self.buckets.len() as u128) >> 64) as usize
    }

    /// The stored result for `key`, if any.
    #[inline]
    pub(crate) fn probe(&self, key: u64) -> Option<Hit> {
        let bucket = &self.buckets[self.index(key)];
        bucket
            .iter()
            .find(|e| e.key == key && e.info & 3 != 0)
            .map(|e| Hit {
                mv: e.mv,
                score: i32::from(e.score),
                eval: i32::from(e.eval),
                depth: i32::from(e.depth & DEPTH_MASK),
                pv: e.depth & PV_FLAG != 0,
                bound: match e.info & 3 {
                    1 => Bound::Lower,
                    2 => Bound::Upper,
                    _ => Bound::Exact,
                },
            })
    }

    /// Stores a result. Scores must already be node-relative
    /// ([`crate::score::to_tt`]) and inside the `i16` range; `pv` marks a
    /// node on a principal variation. One argument per field of the
    /// entry, hence the count.
    #[allow(clippy::too_many_arguments)]
    #[inline]
    pub(crate) fn store(
        &mut self,
        key: u64,
        mv: u16,
        score: i32,
        eval: i32,
        depth: i32,
        bound: Bound,
        pv: bool,
    ) {
        let generation = self.generation;
        let i = self.index(key);
        let bucket = &mut self.buckets[i];
        let age = |e: &Entry| (generation.wrapping_sub(e.info >> 2)) & 63;
        let slot = match bucket.iter().position(|e| e.key == key) {
            Some(s) => s,
            None => {
                // Victim: an empty slot, else the entry with the least
                // depth, counting each generation of age as 4 plies less.
                let mut best = 0;
                let mut best_worth = i32::MAX;
                for (s, e) in bucket.iter().enumerate() {
                    let worth = if e.info & 3 == 0 {
                        i32::MIN
                    } else {
                        i32::from(e.depth & DEPTH_MASK) - 4 * i32::from(age(e))
                    };
                    if worth < best_worth {
                        best_worth = worth;
                        best = s;
                    }
                }
                best
            }
        };
        let e = &mut bucket[slot];
        // Keep a deeper result for the same position from this search
        // unless the new one is exact; keep the old move if we have none.
        if e.key == key
            && e.info & 3 != 0
            && age(e) == 0
            && i32::from(e.depth & DEPTH_MASK) > depth + 2
            && bound != Bound::Exact
        {
            return;
        }
        let mv = if mv == 0 && e.key == key { e.mv } else { mv };
        let b = match bound {
            Bound::Lower => 1,
            Bound::Upper => 2,
            Bound::Exact => 3,
        };
        *e = Entry {
            key,
            mv,
            score: score.clamp(i32::from(i16::MIN), i32::from(i16::MAX)) as i16,
            eval: eval.clamp(i32::from(i16::MIN), i32::from(i16::MAX)) as i16,
            depth: depth.clamp(0, i32::from(DEPTH_MASK)) as u8 | if pv { PV_FLAG } else { 0 },
            info: generation << 2 | b,
        };
    }

    /// Permille of the first thousand buckets' slots filled by this search
    /// (UCI `hashfull`).
    pub(crate) fn hashfull(&self) -> u32 {
        let n = self.buckets.len().min(1000);
        let used: usize = self.buckets[..n]
            .iter()
            .map(|b| {
                b.iter()
                    .filter(|e| e.info & 3 != 0 && e.info >> 2 == self.generation)
                    .count()
            })
            .sum();
        (used * 1000 / (n * BUCKET)) as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_pv_mark_is_kept_apart_from_the_depth() {
        let mut tt = TranspositionTable::new(1);
        tt.store(9, 3, 20, 10, 100, Bound::Exact, true);
        let hit = tt.probe(9).unwrap_or_else(|| unreachable!("stored"));
        assert_eq!((hit.depth, hit.pv), (100, true));
        tt.store(9, 3, 20, 10, 400, Bound::Lower, false);
        let hit = tt.probe(9).unwrap_or_else(|| unreachable!("stored"));
        assert_eq!(
            (hit.depth, hit.pv),
            (127, false),
            "depth capped, mark cleared"
        );
    }

    #[test]
    fn stores_and_finds_and_replaces_shallow_old_entries() {
        let mut tt = TranspositionTable::new(1);
        assert!(tt.probe(7).is_none());
        tt.store(7, 42, -300, 10, 5, Bound::Lower, false);
        let hit = tt.probe(7).unwrap_or_else(|| unreachable!("stored"));
        assert_eq!((hit.mv, hit.score, hit.eval, hit.depth), (42, -300, 10, 5));
        assert_eq!(hit.bound, Bound::Lower);
        // A move-less store keeps the old move.
        tt.store(7, 0, 50, 10, 6, Bound::Upper, false);
        let hit = tt.probe(7).unwrap_or_else(|| unreachable!("stored"));
        assert_eq!((hit.mv, hit.score, hit.bound), (42, 50, Bound::Upper));
        // Fill one bucket past capacity: keys that map to the same bucket.
        // Small keys all map to bucket 0 (multiply-shift by the count).
        let mut tt = TranspositionTable::new(1);
        let same: Vec<u64> = (1..=5).collect();
        assert!(same.iter().all(|&k| tt.index(k) == 0));
        for (d, &k) in same.iter().enumerate().take(4) {
            tt.store(k, 1, 0, 0, 10 + d as i32, Bound::Exact, false);
        }
        tt.store(same[4], 1, 0, 0, 1, Bound::Exact, false);
        // The shallowest (depth 10) was the victim.
        assert!(tt.probe(same[0]).is_none());
        assert!(tt.probe(same[4]).is_some());
        tt.clear();
        assert!(tt.probe(same[4]).is_none());
    }
}
