//! A small seeded random number generator for the levels' weakening.
//!
//! Our own so that a fixed seed gives the same games on every platform
//! and version (no dependency whose stream may change), and passed as a
//! value so that nothing is global.

/// SplitMix64 (Steele, Lea and Flood's mixing function): tiny, fast, and
/// every seed (including 0) gives a good stream.
#[derive(Clone, Debug)]
pub struct Rng {
    state: u64,
}

impl Rng {
    /// A generator whose stream is fixed by `seed`.
    #[must_use]
    pub const fn new(seed: u64) -> Self {
        Self { state: seed }
    }

    /// The next 64 random bits.
    pub const fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// A number in `0..n` (0 when `n` is 0), by multiply-shift: no modulo
    /// bias worth speaking of for the small `n` used here.
    pub const fn below(&mut self, n: u32) -> u32 {
        (((self.next_u64() >> 32) * n as u64) >> 32) as u32
    }

    /// `true` with probability `permille / 1000`.
    pub const fn chance(&mut self, permille: u32) -> bool {
        self.below(1000) < permille
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_seed_same_stream_and_bounds_hold() {
        let mut a = Rng::new(42);
        let mut b = Rng::new(42);
        let mut c = Rng::new(43);
        let xs: Vec<u64> = (0..8).map(|_| a.next_u64()).collect();
        let ys: Vec<u64> = (0..8).map(|_| b.next_u64()).collect();
        let zs: Vec<u64> = (0..8).map(|_| c.next_u64()).collect();
        assert_eq!(xs, ys);
        assert_ne!(xs, zs);
        let mut counts = [0u32; 5];
        for _ in 0..5000 {
            counts[a.below(5) as usize] += 1;
        }
        // Each bucket near 1000: a broken reduction would empty some.
        assert!(
            counts.iter().all(|&n| (850..1150).contains(&n)),
            "{counts:?}"
        );
        assert_eq!(a.below(0), 0);
        assert!(!a.chance(0));
        assert!(a.chance(1000));
    }
}
