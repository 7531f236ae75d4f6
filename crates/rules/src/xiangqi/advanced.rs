//! The placement-level predicates of the advanced rules (§7.1–§7.3 of the
//! rules page): stable piece identities, the check-neutral capture, the
//! protection test and the chase threat relation.
//!
//! They work on any [`Board`] so the game record can ask them about the
//! position before and after a move without committing it.

use core::fmt;

use super::{Bitboard, Board, Move, Role, Square, Xiangqi, XiangqiConfig};
use crate::Color;

/// The identity of one piece for the whole game: chases are counted per
/// target and per attacker, and the same piece moves from square to square
/// while a streak runs.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct PieceId(u8);

impl PieceId {
    /// `0..32`, in the order the start FEN lists the pieces (rank 10
    /// first, file a first).
    #[must_use]
    pub const fn index(self) -> u8 {
        self.0
    }

    pub(crate) const fn from_index(index: u8) -> Self {
        Self(index)
    }

    /// Bit of this id in a 32-bit id set.
    pub(crate) const fn bit(self) -> u32 {
        1u32 << (self.0 & 31)
    }
}

const NO_ID: u8 = u8::MAX;

/// Which piece stands where, by [`PieceId`]. Built from a legal position
/// (at most 32 pieces) and carried along with the moves of the game.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct PieceIds {
    at: [u8; Square::COUNT],
}

impl fmt::Debug for PieceIds {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_map()
            .entries(Square::all().filter_map(|sq| self.get(sq).map(|id| (sq.to_string(), id.0))))
            .finish()
    }
}

impl PieceIds {
    /// Numbers the pieces of `pos` in FEN scan order (rank 10 first, file
    /// a first), as §7.1 suggests.
    #[must_use]
    pub fn new(pos: &Xiangqi) -> Self {
        let mut at = [NO_ID; Square::COUNT];
        let mut next = 0u8;
        for rank in (0..10u8).rev() {
            for file in 0..9u8 {
                if let Some(sq) = Square::new(rank * 9 + file)
                    && pos.piece_at(sq).is_some()
                {
                    at[sq.index() as usize] = next;
                    next = next.saturating_add(1);
                }
            }
        }
        Self { at }
    }

    /// The piece on `sq`.
    #[must_use]
    pub fn get(&self, sq: Square) -> Option<PieceId> {
        match self.at[sq.index() as usize] {
            NO_ID => None,
            id => Some(PieceId(id)),
        }
    }

    /// Where the piece `id` stands (`None` once it has been captured).
    #[must_use]
    pub fn square(&self, id: PieceId) -> Option<Square> {
        self.at
            .iter()
            .position(|&x| x == id.0)
            .and_then(|i| Square::new(i as u8))
    }

    /// The squares of a set of ids (bit `i` = id `i`).
    pub(crate) fn squares(&self, set: u32) -> Bitboard {
        let mut out = Bitboard::EMPTY;
        if set == 0 {
            return out;
        }
        for (i, &id) in self.at.iter().enumerate() {
            if id != NO_ID
                && set >> (id & 31) & 1 != 0
                && let Some(sq) = Square::new(i as u8)
            {
                out.add(sq);
            }
        }
        out
    }

    /// The id set of the pieces on `squares`.
    pub(crate) fn ids(&self, squares: Bitboard) -> u32 {
        squares.fold(0, |acc, sq| acc | self.get(sq).map_or(0, PieceId::bit))
    }

    /// Follows a move: the piece on `from` now stands on `to`.
    pub(crate) fn play(&mut self, mv: Move) {
        let (f, t) = (mv.from().index() as usize, mv.to().index() as usize);
        if f != t {
            self.at[t] = self.at[f];
            self.at[f] = NO_ID;
        }
    }
}

/// `true` when the piece on `from` could capture the piece on `to` without
/// exposing its general to an attack that was not there before (§7.2
/// `capture_ok`): checks that already exist are ignored, new ones are not.
/// A general's capture must leave it wholly safe. `false` when `from` is
/// empty or its capture pattern does not reach `to`.
#[must_use]
pub fn capture_ok(board: &Board, from: Square, to: Square) -> bool {
    let Some(p) = board.piece_at(from) else {
        return false;
    };
    if !board.attacks_from(from).contains(to) {
        return false;
    }
    let before = board.king_attackers(p.color);
    let mut after = board.clone();
    after.move_piece(from, to);
    let now = after.king_attackers(p.color);
    if p.role == Role::General {
        now.is_empty()
    } else {
        // No enemy piece moves, so squares identify the attackers.
        (now - before).is_empty()
    }
}

/// `true` when, were the piece on `attacker` to take the piece on
/// `target`, the target's side could take back at once (§7.3
/// `protected`): some piece of that side attacks `target` afterwards and
/// its recapture exposes its own general to no new attack (a general's
/// recapture must leave it wholly safe). Any piece may protect, the general
/// and soldiers included.
#[must_use]
pub fn is_protected(board: &Board, attacker: Square, target: Square) -> bool {
    let Some(t) = board.piece_at(target) else {
        return false;
    };
    let mut taken = board.clone();
    taken.move_piece(attacker, target);
    protected_after(board, &taken, target, t.color)
}

/// The body of [`is_protected`] once the capture is made on `taken`.
fn protected_after(board: &Board, taken: &Board, target: Square, owner: Color) -> bool {
    let before = board.king_attackers(owner);
    let recapturers = taken.attackers_to(target, owner, taken.occupied());
    for r in recapturers {
        let mut back = taken.clone();
        let Some((piece, _)) = back.move_piece(r, target) else {
            continue;
        };
        let exposed = back.king_attackers(owner);
        let ok = if piece.role == Role::General {
            exposed.is_empty()
        } else {
            (exposed - before).is_empty()
        };
        if ok {
            return true;
        }
    }
    false
}

/// `true` when a piece of this kind can chase at all: generals and
/// soldiers never do (§7.3 rule 1).
const fn can_chase(role: Role) -> bool {
    !matches!(role, Role::General | Role::Soldier)
}

/// `true` when the piece on `sq` can be chased: not a general (that is a
/// check) and not a soldier on its own side of the river (§7.3 rule 2).
fn can_be_chased(board: &Board, sq: Square) -> bool {
    match board.piece_at(sq) {
        Some(p) => match p.role {
            Role::General => false,
            Role::Soldier => !sq.is_own_half(p.color),
            _ => true,
        },
        None => false,
    }
}

/// `true` when this attack ignores the target's protection: a horse or a
/// cannon on a chariot always, and with knob K6 an elephant or advisor on
/// a chariot, cannon or horse.
const fn ignores_protection(attacker: Role, target: Role, config: &XiangqiConfig) -> bool {
    match (attacker, target) {
        (Role::Horse | Role::Cannon, Role::Chariot) => true,
        (Role::Elephant | Role::Advisor, Role::Chariot | Role::Cannon | Role::Horse) => {
            config.minor_on_major_always_chase
        }
        _ => false,
    }
}

/// The threat relation of §7.3: the piece on `attacker` threatens, in the
/// chase sense, the enemy piece on `target`. Pins are tested with
/// [`Board::is_pinned`].
#[must_use]
pub fn threatens(board: &Board, attacker: Square, target: Square, config: &XiangqiConfig) -> bool {
    let (Some(a), Some(t)) = (board.piece_at(attacker), board.piece_at(target)) else {
        return false;
    };
    a.color != t.color
        && can_chase(a.role)
        && can_be_chased(board, target)
        && !board.is_pinned(attacker)
        && threat_after_pin_test(board, attacker, target, a.role, t.role, config)
}

/// Rules 3, 5 and 6 of §7.3 (the cheap rules 1, 2 and the pin are tested
/// by the caller).
fn threat_after_pin_test(
    board: &Board,
    attacker: Square,
    target: Square,
    a_role: Role,
    t_role: Role,
    config: &XiangqiConfig,
) -> bool {
    let Some(a) = board.piece_at(attacker) else {
        return false;
    };
    // 3. capture_ok, inlined to keep the capture for the protection test.
    if !board.attacks_from(attacker).contains(target) {
        return false;
    }
    let before = board.king_attackers(a.color);
    let mut taken = board.clone();
    taken.move_piece(attacker, target);
    if (taken.king_attackers(a.color) - before).any() {
        return false;
    }
    // 5. An attack on the same kind that can be returned is an offer.
    if a_role == t_role && capture_ok(board, target, attacker) {
        return false;
    }
    // 6. Protection.
    ignores_protection(a_role, t_role, config) || !protected_after(board, &taken, target, !a.color)
}

/// `Threatened(pos, S)` of §7.3: for every enemy piece that `side`
/// threatens in the chase sense, the pieces threatening it. Targets are in
/// square order.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Threats {
    list: Vec<(Square, Bitboard)>,
}

impl Threats {
    /// Computes the map for `side`'s pieces on `board`.
    #[must_use]
    pub fn new(board: &Board, side: Color, config: &XiangqiConfig) -> Self {
        let occ = board.occupied();
        let chasers =
            board.by_color(side) - board.by_role(Role::General) - board.by_role(Role::Soldier);
        let mut pin_known = Bitboard::EMPTY;
        let mut pinned = Bitboard::EMPTY;
        let mut list = Vec::new();
        for target in board.by_color(!side) {
            if !can_be_chased(board, target) {
                continue;
            }
            let Some(t) = board.piece_at(target) else {
                continue;
            };
            let mut found = Bitboard::EMPTY;
            for a in board.attackers_to(target, side, occ) & chasers {
                if !pin_known.contains(a) {
                    pin_known.add(a);
                    if board.is_pinned(a) {
                        pinned.add(a);
                    }
                }
                if pinned.contains(a) {
                    continue;
                }
                let Some(a_role) = board.role_at(a) else {
                    continue;
                };
                if threat_after_pin_test(board, a, target, a_role, t.role, config) {
                    found.add(a);
                }
            }
            if found.any() {
                list.push((target, found));
            }
        }
        Self { list }
    }

    /// The threatened pieces.
    #[must_use]
    pub fn targets(&self) -> Bitboard {
        self.list.iter().map(|&(t, _)| t).collect()
    }

    /// The pieces threatening the piece on `target` (empty if none).
    #[must_use]
    pub fn attackers(&self, target: Square) -> Bitboard {
        self.list
            .iter()
            .find(|&&(t, _)| t == target)
            .map_or(Bitboard::EMPTY, |&(_, a)| a)
    }

    /// Every (target, attackers) pair, targets in square order.
    pub fn iter(&self) -> impl Iterator<Item = (Square, Bitboard)> + '_ {
        self.list.iter().copied()
    }

    /// `true` when nothing is threatened.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.list.is_empty()
    }
}
