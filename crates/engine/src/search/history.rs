//! Level 8's move statistics beyond the plain `[side][slot]` history:
//! continuation histories (how a quiet move fared after the opponent's last
//! move, and after our own move before it) and the capture history (how a
//! capture of a given victim by a given piece on a given square fared).
//!
//! The plain history says "this piece to this square is good for this
//! side" whatever happened before; at the node counts level 8 searches in
//! a real game (about 100,000 a move) the tree is deep enough that the
//! answer to the previous moves matters, and the tables fill up enough to
//! be read (at 3,000 nodes they were not: docs/strength.md, session 4).

use super::*;

/// A ply whose move has no history slot: the root's parent, a null move.
pub(super) const NO_SLOT: u16 = u16::MAX;

/// The continuation histories' plies back: the opponent's last move,
/// ours before it, and with [`knob::CONT4`] our move before that.
pub(super) const CONT_DISTANCES: usize = 3;

/// The slots of the moves the continuation histories follow, nearest
/// first ([`NO_SLOT`] where there is none or it is not used).
pub(super) type Prev = [u16; CONT_DISTANCES];

/// Victim classes of the capture history: the material won, in pawns.
const VICTIMS: usize = 16;

/// Continuation and capture histories, allocated on the first search that
/// uses them (8 MiB, 12 with [`knob::CONT4`]: levels 1–7 and the other
/// games never pay for them).
#[derive(Debug, Default)]
pub(super) struct Tables {
    /// `[distance 1, 2 or 4][side][previous slot][slot]`.
    cont: Vec<i16>,
    /// `[side][slot][victim class]`.
    capt: Vec<i16>,
    /// `[side][pawn-structure key % CORR_SIZE]`: the correction history,
    /// in 1/[`CORR_GRAIN`] centipawn.
    corr: Vec<i32>,
    /// [`knob::CORR2`]'s tables, in the same unit: `[side][colour][that
    /// colour's piece key % CORR_SIZE]`, then `[side][the opponent's last
    /// move's slot]`.
    corr2: Vec<i32>,
    /// [`knob::COUNTER`]: `[side][the opponent's last move's slot]`, the
    /// code of the quiet move that last cut off after it (0: none).
    counter: Vec<u16>,
}

/// Where a node's correction is read and learnt: its pawn key, each
/// colour's piece key and the slot of the move that led to it.
#[derive(Copy, Clone, Debug, Default)]
pub(super) struct CorrKeys {
    pub(super) pawn: u64,
    pub(super) pieces: [u64; 2],
    pub(super) prev: u16,
}

/// Entries of the correction history per side: enough that two pawn
/// structures of one game seldom share one.
const CORR_SIZE: usize = 16_384;
/// Sub-centipawn resolution of the correction history, so that shallow
/// nodes' small weights still move an entry.
const CORR_GRAIN: i32 = 256;
/// The largest correction, in centipawns: an evaluation off by more than
/// this in one pawn structure is left to the search.
const CORR_MAX_CP: i32 = 64;

/// The value of a history entry after a `bonus` (negative: a malus), kept
/// within ±[`HISTORY_MAX`] by the usual gravity term.
#[inline]
fn gravity(h: i16, bonus: i32) -> i16 {
    let h = i32::from(h);
    (h + bonus - h * bonus.abs() / HISTORY_MAX) as i16
}

impl Tables {
    /// Allocates the tables if not done yet; the 4-ply continuation
    /// history (the last distance) only with `cont4` ([`knob::CONT4`]),
    /// so that the level 8 that is played does not carry its 4 MiB.
    pub(super) fn ensure(&mut self, cont4: bool) {
        let distances = if cont4 {
            CONT_DISTANCES
        } else {
            CONT_DISTANCES - 1
        };
        let cont_len = distances * 2 * HISTORY_SLOTS * HISTORY_SLOTS;
        if self.cont.len() < cont_len {
            self.cont.resize(cont_len, 0);
        }
        if self.capt.is_empty() {
            self.capt = vec![0; 2 * HISTORY_SLOTS * VICTIMS];
            self.corr = vec![0; 2 * CORR_SIZE];
            self.corr2 = vec![0; 4 * CORR_SIZE + 2 * HISTORY_SLOTS];
            self.counter = vec![0; 2 * HISTORY_SLOTS];
        }
    }

    /// Forgets everything (keeps the memory).
    pub(super) fn clear(&mut self) {
        self.cont.fill(0);
        self.capt.fill(0);
        self.corr.fill(0);
        self.corr2.fill(0);
        self.counter.fill(0);
    }

    /// The counter move's code after the opponent's move in slot `prev`
    /// (0: none, or no tables, or after a null move).
    #[inline]
    pub(super) fn counter(&self, us: usize, prev: u16) -> u16 {
        if prev == NO_SLOT {
            return 0;
        }
        self.counter
            .get(us * HISTORY_SLOTS + usize::from(prev))
            .copied()
            .unwrap_or(0)
    }

    #[inline]
    pub(super) fn set_counter(&mut self, us: usize, prev: u16, code: u16) {
        if prev == NO_SLOT {
            return;
        }
        if let Some(e) = self.counter.get_mut(us * HISTORY_SLOTS + usize::from(prev)) {
            *e = code;
        }
    }

    #[inline]
    fn corr_index(us: usize, pawn_key: u64) -> usize {
        us * CORR_SIZE + (pawn_key as usize & (CORR_SIZE - 1))
    }

    /// [`Self::corr2`]'s entries for `keys`: White's pieces, Black's,
    /// then the previous move (none after a null move or at the root).
    #[inline]
    fn corr2_indices(us: usize, keys: &CorrKeys) -> [Option<usize>; 3] {
        let piece =
            |c: usize| (us * 2 + c) * CORR_SIZE + (keys.pieces[c] as usize & (CORR_SIZE - 1));
        [
            Some(piece(0)),
            Some(piece(1)),
            (keys.prev != NO_SLOT)
                .then(|| 4 * CORR_SIZE + us * HISTORY_SLOTS + usize::from(keys.prev)),
        ]
    }

    /// What the searches so far say the static evaluation misses at a
    /// node with `keys`, in centipawns for the side `us` to move: the
    /// pawn structure's entry, and with `wide` ([`knob::CORR2`]) half of
    /// each other entry's too (they all learn the same error, so their
    /// plain sum would overshoot); 0 before the tables exist.
    #[inline]
    pub(super) fn correction(&self, us: usize, keys: &CorrKeys, wide: bool) -> i32 {
        if self.corr.is_empty() {
            return 0;
        }
        let mut c = self.corr[Self::corr_index(us, keys.pawn)];
        if wide {
            let more: i32 = Self::corr2_indices(us, keys)
                .iter()
                .flatten()
                .map(|&i| self.corr2[i])
                .sum();
            c += more / 2;
        }
        c / CORR_GRAIN
    }

    /// Moves the entries toward `diff` (search score minus corrected
    /// static evaluation, centipawns), the more the deeper the search
    /// that found it.
    #[inline]
    pub(super) fn update_correction(
        &mut self,
        us: usize,
        keys: &CorrKeys,
        diff: i32,
        depth: i32,
        wide: bool,
    ) {
        if self.corr.is_empty() {
            return;
        }
        let weight = (depth + 1).clamp(1, 16);
        let target = diff.clamp(-4 * CORR_MAX_CP, 4 * CORR_MAX_CP) * CORR_GRAIN;
        let limit = CORR_MAX_CP * CORR_GRAIN;
        let nudge =
            |e: &mut i32| *e = ((*e * (256 - weight) + target * weight) / 256).clamp(-limit, limit);
        nudge(&mut self.corr[Self::corr_index(us, keys.pawn)]);
        if wide {
            for i in Self::corr2_indices(us, keys).into_iter().flatten() {
                nudge(&mut self.corr2[i]);
            }
        }
    }

    #[inline]
    fn cont_index(dist: usize, us: usize, prev: u16, slot: usize) -> Option<usize> {
        (prev != NO_SLOT)
            .then(|| ((dist * 2 + us) * HISTORY_SLOTS + usize::from(prev)) * HISTORY_SLOTS + slot)
    }

    /// The sum of the two continuation entries of `slot` after the moves
    /// `prev` (the opponent's last, then ours before it); 0 before the
    /// tables exist.
    #[inline]
    pub(super) fn cont(&self, us: usize, prev: Prev, slot: usize) -> i32 {
        if self.cont.is_empty() {
            return 0;
        }
        let mut s = 0;
        for (d, &p) in prev.iter().enumerate() {
            if let Some(i) = Self::cont_index(d, us, p, slot) {
                s += i32::from(self.cont[i]);
            }
        }
        s
    }

    /// The entry of `slot` after the opponent's last move alone
    /// ([`knob::CONT_W`] counts it twice).
    #[inline]
    pub(super) fn cont1(&self, us: usize, prev: u16, slot: usize) -> i32 {
        self.cont1_at(0, us, prev, slot)
    }

    /// The entry of `slot` at one distance back (0: after the opponent's
    /// last move, 1: after our move before it).
    #[inline]
    pub(super) fn cont1_at(&self, dist: usize, us: usize, prev: u16, slot: usize) -> i32 {
        match Self::cont_index(dist, us, prev, slot) {
            Some(i) if !self.cont.is_empty() => i32::from(self.cont[i]),
            _ => 0,
        }
    }

    #[inline]
    pub(super) fn update_cont(&mut self, us: usize, prev: Prev, slot: usize, bonus: i32) {
        if self.cont.is_empty() {
            return;
        }
        for (d, &p) in prev.iter().enumerate() {
            if let Some(i) = Self::cont_index(d, us, p, slot) {
                self.cont[i] = gravity(self.cont[i], bonus);
            }
        }
    }

    #[inline]
    fn capt_index(us: usize, slot: usize, gain: i32) -> usize {
        let victim = (gain / 100).clamp(0, VICTIMS as i32 - 1) as usize;
        (us * HISTORY_SLOTS + slot) * VICTIMS + victim
    }

    /// The capture history of a capture in `slot` winning `gain` at once.
    #[inline]
    pub(super) fn capt(&self, us: usize, slot: usize, gain: i32) -> i32 {
        if self.capt.is_empty() {
            return 0;
        }
        i32::from(self.capt[Self::capt_index(us, slot, gain)])
    }

    #[inline]
    pub(super) fn update_capt(&mut self, us: usize, slot: usize, gain: i32, bonus: i32) {
        if self.capt.is_empty() {
            return;
        }
        let i = Self::capt_index(us, slot, gain);
        self.capt[i] = gravity(self.capt[i], bonus);
    }
}

/// What a node teaches the histories beyond its own cut-offs.
impl<G: Evaluate> Searcher<G> {
    /// [`knob::PRIOR_BONUS`]: every move failed low here, so the
    /// opponent's quiet move that led here (at `ply` − 1) scores above
    /// its node's alpha, as a cut-off does; it gets a cut-off's history
    /// bonus.
    pub(super) fn credit_prior_move(&mut self, ply: usize, depth: i32, us: Color2) {
        let parent = &self.stack[ply - 1];
        if parent.slot == history::NO_SLOT || !parent.quiet || parent.excluded.is_some() {
            return;
        }
        let slot = usize::from(parent.slot);
        let them = Color2(1 - us.0);
        let bonus = self.bonus(depth);
        self.update_history(them, slot, bonus);
        if self.on(knob::CONT_HIST) {
            let prev = self.prev_slots(ply - 1);
            self.tables.update_cont(them.0, prev, slot, bonus);
        }
    }

    /// History bonus for a result at `depth` ([`knob::HIST_FAST`],
    /// [`knob::BONUS_LIN`] or the plain square law).
    #[inline]
    pub(super) fn bonus(&self, depth: i32) -> i32 {
        history_bonus(depth, self.on(knob::BONUS_LIN), self.on(knob::HIST_FAST))
    }

    /// [`knob::TT_HIST`]: the table's move `code` cut this node off
    /// (`held`) or failed low; a quiet one is taught as if searched.
    pub(super) fn teach_table_move(
        &mut self,
        pos: &G,
        code: u16,
        depth: i32,
        ply: usize,
        held: bool,
    ) {
        let Some(slot) = pos.quiet_slot_of_code(code) else {
            return;
        };
        let us = Color2::of(pos);
        let b = self.bonus(depth);
        let b = if held { b } else { -b };
        self.update_history(us, slot, b);
        if self.on(knob::CONT_HIST) {
            let prev = self.prev_slots(ply);
            self.tables.update_cont(us.0, prev, slot, b);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gravity_keeps_entries_bounded_and_signed() {
        let mut h = 0i16;
        for _ in 0..1000 {
            h = gravity(h, 2000);
        }
        assert!(i32::from(h) <= HISTORY_MAX && h > 15_000, "{h}");
        for _ in 0..1000 {
            h = gravity(h, -2000);
        }
        assert!(i32::from(h) >= -HISTORY_MAX && h < -15_000, "{h}");
    }

    #[test]
    fn continuation_entries_depend_on_the_previous_move() {
        let mut t = Tables::default();
        assert_eq!(t.cont(0, [5, 7, NO_SLOT], 9), 0, "no tables yet: neutral");
        t.ensure(true);
        t.update_cont(0, [5, 7, NO_SLOT], 9, 1000);
        assert_eq!(t.cont(0, [5, 7, NO_SLOT], 9), 2000);
        assert_eq!(
            t.cont(0, [5, 8, NO_SLOT], 9),
            1000,
            "only the 1-ply entry matches"
        );
        assert_eq!(t.cont1(0, 5, 9), 1000);
        assert_eq!(
            t.cont(0, [5, 7, 3], 9),
            2000,
            "the 4-ply entry learnt nothing"
        );
        t.update_cont(0, [NO_SLOT, NO_SLOT, 3], 9, 500);
        assert_eq!(t.cont(0, [5, 7, 3], 9), 2500);
        assert_eq!(t.cont(1, [5, 7, NO_SLOT], 9), 0, "the other side's table");
        assert_eq!(t.cont(0, [NO_SLOT, NO_SLOT, NO_SLOT], 9), 0);
        t.update_capt(1, 3, 320, -500);
        assert_eq!(t.capt(1, 3, 330), -500, "knight and bishop: one class");
        assert_eq!(t.capt(1, 3, 500), 0);
        t.clear();
        assert_eq!(t.cont(0, [5, 7, NO_SLOT], 9), 0);
    }

    #[test]
    fn counter_moves_are_kept_per_side_and_previous_move() {
        let mut t = Tables::default();
        t.set_counter(0, 5, 77);
        assert_eq!(t.counter(0, 5), 0, "no tables yet: nothing kept");
        t.ensure(false);
        t.set_counter(0, 5, 77);
        assert_eq!(t.counter(0, 5), 77);
        assert_eq!(t.counter(1, 5), 0, "the other side's table");
        assert_eq!(t.counter(0, 6), 0, "another previous move");
        t.set_counter(0, NO_SLOT, 99);
        assert_eq!(t.counter(0, NO_SLOT), 0, "after a null move: none");
        t.set_counter(0, 5, 78);
        assert_eq!(t.counter(0, 5), 78, "the latest cut-off replaces it");
        t.clear();
        assert_eq!(t.counter(0, 5), 0);
    }

    #[test]
    fn corrections_follow_the_search_per_side_and_structure_and_stay_bounded() {
        let k = |pawn: u64| CorrKeys {
            pawn,
            pieces: [7, 9],
            prev: NO_SLOT,
        };
        let mut t = Tables::default();
        t.update_correction(0, &k(42), 100, 10, false);
        assert_eq!(t.correction(0, &k(42), false), 0, "no tables yet: neutral");
        t.ensure(false);
        for _ in 0..60 {
            t.update_correction(0, &k(42), 40, 10, false);
        }
        let c = t.correction(0, &k(42), false);
        assert!((30..=40).contains(&c), "{c}");
        assert_eq!(t.correction(1, &k(42), false), 0, "the other side's entry");
        assert_eq!(t.correction(0, &k(43), false), 0, "another structure");
        assert_eq!(
            t.correction(0, &k(42), true),
            c,
            "the wide tables learnt nothing"
        );
        for _ in 0..200 {
            t.update_correction(0, &k(42), -5000, 20, false);
        }
        assert_eq!(t.correction(0, &k(42), false), -CORR_MAX_CP);
        let before = t.correction(0, &k(42), false);
        t.update_correction(0, &k(42), 0, 0, false);
        assert!(
            t.correction(0, &k(42), false) > before,
            "a shallow result still moves it"
        );
        t.clear();
        assert_eq!(t.correction(0, &k(42), false), 0);
    }

    #[test]
    fn the_wide_correction_learns_piece_setups_and_the_last_move() {
        let mut t = Tables::default();
        t.ensure(false);
        let keys = CorrKeys {
            pawn: 1,
            pieces: [2, 3],
            prev: 5,
        };
        for _ in 0..200 {
            t.update_correction(1, &keys, 40, 10, true);
        }
        let other_pawns = CorrKeys { pawn: 99, ..keys };
        // Three wide entries near 40 cp, read at half weight.
        let c = t.correction(1, &other_pawns, true);
        assert!((50..=60).contains(&c), "{c}");
        assert_eq!(t.correction(1, &other_pawns, false), 0);
        let one_side = CorrKeys {
            pawn: 99,
            pieces: [2, 77],
            prev: NO_SLOT,
        };
        let c = t.correction(1, &one_side, true);
        assert!((17..=20).contains(&c), "only White's pieces match: {c}");
        assert_eq!(t.correction(0, &keys, true), 0, "the other side to move");
    }
}
