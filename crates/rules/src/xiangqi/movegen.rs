//! Legal move generation.
//!
//! Instead of playing every move and testing for check, the generator
//! first finds, from the own general outward, which of our pieces are
//! *pinned* in the wide Xiangqi sense and which empty squares are *screen
//! squares*:
//!
//! * a piece that is the only one between the general and an enemy chariot
//!   (or the enemy general, for the flying-general rule);
//! * either of two pieces between the general and an enemy cannon (moving
//!   one leaves exactly one screen);
//! * a piece on the leg of an enemy horse that would otherwise attack the
//!   general;
//! * an empty square between the general and an enemy cannon with nothing
//!   in between: any piece arriving there becomes a screen and so gives
//!   check to its own general.
//!
//! Every other move of a non-general piece is legal when not in check, so
//! it is counted with a popcount; moves of pinned pieces, moves onto screen
//! squares, general moves and all moves while in check are tested one by
//! one against the occupancy after the move.

use super::{
    Move, Role, Xiangqi,
    attacks::{
        HORSE_ATTACKERS, RAYS, advisor_bits, cannon_bits, chariot_bits, elephant_bits,
        first_blocker, general_bits, horse_attacker_bits, horse_bits, nearest_bit,
        soldier_attacker_bits, soldier_bits,
    },
};
use crate::Color;

/// Receives generated moves, either as a bitboard of targets per origin or
/// one at a time.
pub(crate) trait Sink {
    fn targets(&mut self, from: usize, targets: u128);
    fn one(&mut self, from: usize, to: usize);
}

/// Counts moves (perft's bulk counting at the last ply).
pub(crate) struct Counter(pub(crate) u64);

impl Sink for Counter {
    #[inline(always)]
    fn targets(&mut self, _from: usize, targets: u128) {
        self.0 += u64::from(targets.count_ones());
    }
    #[inline(always)]
    fn one(&mut self, _from: usize, _to: usize) {
        self.0 += 1;
    }
}

/// Most legal moves a Xiangqi position can have is below this (two
/// chariots and two cannons reach at most 17 squares each, and so on: 119).
pub(crate) const MAX_MOVES: usize = 128;

/// A fixed-capacity move list, to avoid allocation in perft and search.
pub(crate) struct MoveList {
    pub(crate) moves: [Move; MAX_MOVES],
    pub(crate) len: usize,
}

impl MoveList {
    #[inline(always)]
    pub(crate) fn new() -> Self {
        Self {
            moves: [Move::NULL; MAX_MOVES],
            len: 0,
        }
    }

    #[inline(always)]
    fn push(&mut self, m: Move) {
        if let Some(slot) = self.moves.get_mut(self.len) {
            *slot = m;
            self.len += 1;
        }
    }

    pub(crate) fn as_slice(&self) -> &[Move] {
        &self.moves[..self.len]
    }
}

impl Sink for MoveList {
    #[inline(always)]
    fn targets(&mut self, from: usize, mut targets: u128) {
        while targets != 0 {
            let to = targets.trailing_zeros() as usize;
            targets &= targets - 1;
            self.push(Move::from_indices(from, to));
        }
    }
    #[inline(always)]
    fn one(&mut self, from: usize, to: usize) {
        self.push(Move::from_indices(from, to));
    }
}

/// Legality facts about the side to move, computed once per node.
pub(crate) struct Ctx {
    pub(crate) us: Color,
    pub(crate) occ: u128,
    pub(crate) ours: u128,
    pub(crate) theirs: u128,
    pub(crate) king: usize,
    /// Enemy chariots and the enemy general (flying general).
    rooklike: u128,
    cannons: u128,
    horses: u128,
    soldiers: u128,
    pub(crate) checkers: u128,
    /// Our pieces whose moves need a full test.
    pub(crate) pinned: u128,
    /// Empty squares where any arriving piece would give check to us.
    pub(crate) screens: u128,
}

impl Ctx {
    #[inline(always)]
    pub(crate) fn new(pos: &Xiangqi) -> Self {
        let b = &pos.board;
        let us = pos.turn;
        let them = !us;
        let ours = b.by_color(us).0;
        let theirs = b.by_color(them).0;
        let occ = ours | theirs;
        let king = pos.generals[us as usize].index() as usize;
        let rooklike = theirs & (b.by_role(Role::Chariot).0 | b.by_role(Role::General).0);
        let cannons = theirs & b.by_role(Role::Cannon).0;
        let horses = theirs & b.by_role(Role::Horse).0;
        let soldiers = theirs & b.by_role(Role::Soldier).0;
        let mut checkers = 0u128;
        let mut pinned = 0u128;
        let mut screens = 0u128;
        let mut d = 0;
        while d < 4 {
            let ray = RAYS[d][king];
            if ray & occ != 0 {
                let s1 = first_blocker(d, king, occ);
                let b1 = 1u128 << s1;
                checkers |= b1 & rooklike;
                if b1 & cannons != 0 {
                    screens |= ray & !RAYS[d][s1] & !b1;
                }
                let rest = RAYS[d][s1] & occ;
                if rest != 0 {
                    let b2 = nearest_bit(d, rest);
                    checkers |= b2 & cannons;
                    if b2 & rooklike != 0 {
                        pinned |= b1;
                    }
                    let s2 = b2.trailing_zeros() as usize;
                    let b3 = nearest_bit(d, RAYS[d][s2] & occ);
                    if b3 & cannons != 0 {
                        pinned |= b1 | b2;
                    }
                }
            }
            d += 1;
        }
        let ha = &HORSE_ATTACKERS[king];
        let mut i = 0;
        while i < 4 {
            if ha.to[i] & horses != 0 {
                if ha.block[i] & occ == 0 {
                    checkers |= ha.to[i] & horses;
                } else {
                    pinned |= ha.block[i];
                }
            }
            i += 1;
        }
        checkers |= soldier_attacker_bits(them, king) & soldiers;
        Self {
            us,
            occ,
            ours,
            theirs,
            king,
            rooklike,
            cannons,
            horses,
            soldiers,
            checkers,
            pinned: pinned & ours,
            screens,
        }
    }

    /// `true` when our general is safe after moving `from` to `to` (a
    /// pseudo-legal move of ours).
    #[inline(always)]
    pub(crate) fn safe_after(&self, from: usize, to: usize) -> bool {
        let tb = 1u128 << to;
        let occ = (self.occ ^ (1u128 << from)) | tb;
        let keep = !tb;
        let k = if from == self.king { to } else { self.king };
        chariot_bits(k, occ) & self.rooklike & keep == 0
            && cannon_bits(k, occ) & self.cannons & keep == 0
            && horse_attacker_bits(k, occ) & self.horses & keep == 0
            && soldier_attacker_bits(!self.us, k) & self.soldiers & keep == 0
    }

    /// Emits the moves `from -> targets`, testing those that may be illegal.
    #[inline(always)]
    fn emit<S: Sink>(&self, sink: &mut S, from: usize, targets: u128) {
        if self.pinned >> from & 1 != 0 {
            let mut t = targets;
            while t != 0 {
                let to = t.trailing_zeros() as usize;
                t &= t - 1;
                if self.safe_after(from, to) {
                    sink.one(from, to);
                }
            }
        } else {
            sink.targets(from, targets & !self.screens);
            let mut t = targets & self.screens;
            while t != 0 {
                let to = t.trailing_zeros() as usize;
                t &= t - 1;
                if self.safe_after(from, to) {
                    sink.one(from, to);
                }
            }
        }
    }
}

/// Generates every legal move of the side to move into `sink`.
#[inline(always)]
pub(crate) fn generate<S: Sink>(pos: &Xiangqi, sink: &mut S) {
    let mut ctx = Ctx::new(pos);
    if ctx.checkers != 0 {
        // In check: test every move. Checks are a small share of nodes.
        ctx.pinned = ctx.ours;
    }
    generate_with(pos, &ctx, sink);
}

#[inline(always)]
pub(crate) fn generate_with<S: Sink>(pos: &Xiangqi, ctx: &Ctx, sink: &mut S) {
    let b = &pos.board;
    let us = ctx.us;
    let occ = ctx.occ;
    let ours = ctx.ours;
    let not_ours = !ours & super::bitboard::FULL;

    let mut chariots = b.by_role(Role::Chariot).0 & ours;
    while chariots != 0 {
        let s = chariots.trailing_zeros() as usize;
        chariots &= chariots - 1;
        ctx.emit(sink, s, chariot_bits(s, occ) & not_ours);
    }
    let mut cannons = b.by_role(Role::Cannon).0 & ours;
    while cannons != 0 {
        let s = cannons.trailing_zeros() as usize;
        cannons &= cannons - 1;
        let mut t = 0;
        let mut d = 0;
        while d < 4 {
            let s1 = first_blocker(d, s, occ);
            t |= (RAYS[d][s] ^ RAYS[d][s1]) & !occ;
            t |= nearest_bit(d, RAYS[d][s1] & occ) & ctx.theirs;
            d += 1;
        }
        ctx.emit(sink, s, t);
    }
    let mut horses = b.by_role(Role::Horse).0 & ours;
    while horses != 0 {
        let s = horses.trailing_zeros() as usize;
        horses &= horses - 1;
        ctx.emit(sink, s, horse_bits(s, occ) & not_ours);
    }
    let mut soldiers = b.by_role(Role::Soldier).0 & ours;
    while soldiers != 0 {
        let s = soldiers.trailing_zeros() as usize;
        soldiers &= soldiers - 1;
        ctx.emit(sink, s, soldier_bits(us, s) & not_ours);
    }
    let mut elephants = b.by_role(Role::Elephant).0 & ours;
    while elephants != 0 {
        let s = elephants.trailing_zeros() as usize;
        elephants &= elephants - 1;
        ctx.emit(sink, s, elephant_bits(us, s, occ) & not_ours);
    }
    let mut advisors = b.by_role(Role::Advisor).0 & ours;
    while advisors != 0 {
        let s = advisors.trailing_zeros() as usize;
        advisors &= advisors - 1;
        ctx.emit(sink, s, advisor_bits(s) & not_ours);
    }
    let k = ctx.king;
    let mut t = general_bits(k) & not_ours;
    while t != 0 {
        let to = t.trailing_zeros() as usize;
        t &= t - 1;
        if ctx.safe_after(k, to) {
            sink.one(k, to);
        }
    }
}

/// Pseudo-legal targets of the piece on `from` (own pieces excluded).
pub(crate) fn pseudo_targets(pos: &Xiangqi, ctx: &Ctx, from: usize) -> u128 {
    let Some(p) = pos
        .board
        .piece_at(super::Square::from_index_unchecked(from as u8))
    else {
        return 0;
    };
    if p.color != ctx.us {
        return 0;
    }
    let occ = ctx.occ;
    let not_ours = !ctx.ours & super::bitboard::FULL;
    match p.role {
        Role::General => general_bits(from) & not_ours,
        Role::Advisor => advisor_bits(from) & not_ours,
        Role::Elephant => elephant_bits(ctx.us, from, occ) & not_ours,
        Role::Horse => horse_bits(from, occ) & not_ours,
        Role::Chariot => chariot_bits(from, occ) & not_ours,
        Role::Cannon => chariot_bits(from, occ) & !occ | cannon_bits(from, occ) & ctx.theirs,
        Role::Soldier => soldier_bits(ctx.us, from) & not_ours,
    }
}
