//! A slow reference for Xiangqi, written from §3–4 of
//! `shared/rules/xiangqi.md`: a mailbox of 90 points, pseudo-legal moves
//! from the per-piece table of §3, and legality by §4.3: after the move no
//! enemy piece can take my general and the generals do not face each other.

use chessplayx_rules::{
    Color,
    xiangqi::{Piece, Role, Square, Xiangqi},
};

/// A move as the reference sees it: points `0..90` (`a1` = 0, index
/// `rank * 9 + file`).
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct RefMove {
    /// Origin.
    pub from: u8,
    /// Destination.
    pub to: u8,
}

/// The reference position: placement and side to move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RefPos {
    /// What stands on each point, `a1` first.
    pub points: [Option<Piece>; 90],
    /// Side to move (Red = White).
    pub turn: Color,
}

const fn file_of(sq: u8) -> i8 {
    (sq % 9) as i8
}

const fn rank_of(sq: u8) -> i8 {
    (sq / 9) as i8
}

const fn at(f: i8, r: i8) -> Option<u8> {
    if f >= 0 && f < 9 && r >= 0 && r < 10 {
        Some((r * 9 + f) as u8)
    } else {
        None
    }
}

/// Rank step towards the opponent.
const fn forward(color: Color) -> i8 {
    match color {
        Color::White => 1,
        Color::Black => -1,
    }
}

/// Files d..f, ranks 1..3 (Red) or 8..10 (Black).
const fn in_palace(color: Color, sq: u8) -> bool {
    let (f, r) = (file_of(sq), rank_of(sq));
    f >= 3
        && f <= 5
        && match color {
            Color::White => r <= 2,
            Color::Black => r >= 7,
        }
}

/// Ranks 1..5 for Red, 6..10 for Black.
const fn own_half(color: Color, sq: u8) -> bool {
    match color {
        Color::White => rank_of(sq) <= 4,
        Color::Black => rank_of(sq) >= 5,
    }
}

impl RefPos {
    /// Copies a position of the rules crate.
    #[must_use]
    pub fn from_position(pos: &Xiangqi) -> Self {
        let mut points = [None; 90];
        for (i, slot) in points.iter_mut().enumerate() {
            *slot = Square::new(i as u8).and_then(|sq| pos.piece_at(sq));
        }
        Self {
            points,
            turn: pos.turn(),
        }
    }

    fn piece(&self, sq: u8) -> Option<Piece> {
        self.points[usize::from(sq)]
    }

    /// The point of `color`'s general.
    #[must_use]
    pub fn general(&self, color: Color) -> Option<u8> {
        (0..90).find(|&s| self.piece(s) == Some(Piece::new(color, Role::General)))
    }

    /// Pieces strictly between `a` and `b`, which share a rank or a file.
    fn between(&self, a: u8, b: u8) -> usize {
        let (df, dr) = (
            (file_of(b) - file_of(a)).signum(),
            (rank_of(b) - rank_of(a)).signum(),
        );
        let (mut f, mut r) = (file_of(a) + df, rank_of(a) + dr);
        let mut n = 0;
        while let Some(s) = at(f, r) {
            if s == b {
                break;
            }
            n += usize::from(self.piece(s).is_some());
            f += df;
            r += dr;
        }
        n
    }

    /// `true` when the piece on `from` could move to the empty point `to`
    /// (`capture == false`) or take a piece standing on `to`
    /// (`capture == true`), by the table of §3.
    fn reaches(&self, from: u8, to: u8, capture: bool) -> bool {
        let Some(p) = self.piece(from) else {
            return false;
        };
        if from == to {
            return false;
        }
        let (df, dr) = (file_of(to) - file_of(from), rank_of(to) - rank_of(from));
        let (af, ar) = (df.abs(), dr.abs());
        let straight = (df == 0) != (dr == 0);
        match p.role {
            Role::General => af + ar == 1 && in_palace(p.color, to),
            Role::Advisor => af == 1 && ar == 1 && in_palace(p.color, to),
            Role::Elephant => {
                af == 2
                    && ar == 2
                    && own_half(p.color, to)
                    && at(file_of(from) + df / 2, rank_of(from) + dr / 2)
                        .is_some_and(|eye| self.piece(eye).is_none())
            }
            Role::Horse => {
                let leg = match (af, ar) {
                    (1, 2) => at(file_of(from), rank_of(from) + dr / 2),
                    (2, 1) => at(file_of(from) + df / 2, rank_of(from)),
                    _ => None,
                };
                leg.is_some_and(|l| self.piece(l).is_none())
            }
            Role::Chariot => straight && self.between(from, to) == 0,
            Role::Cannon => straight && self.between(from, to) == usize::from(capture),
            Role::Soldier => {
                let fwd = forward(p.color);
                (df == 0 && dr == fwd) || (dr == 0 && af == 1 && !own_half(p.color, from))
            }
        }
    }

    /// `true` when some piece of `by` could take on `sq`.
    fn attacked_by(&self, sq: u8, by: Color) -> bool {
        (0..90).any(|s| self.piece(s).is_some_and(|p| p.color == by) && self.reaches(s, sq, true))
    }

    /// Both generals on one file with nothing between them.
    #[must_use]
    pub fn generals_face(&self) -> bool {
        match (self.general(Color::White), self.general(Color::Black)) {
            (Some(a), Some(b)) => file_of(a) == file_of(b) && self.between(a, b) == 0,
            _ => false,
        }
    }

    /// §4.2: an enemy piece attacks `color`'s general, or the generals face.
    #[must_use]
    pub fn in_check(&self, color: Color) -> bool {
        let Some(g) = self.general(color) else {
            return true;
        };
        self.generals_face() || self.attacked_by(g, !color)
    }

    /// The enemy pieces that could take the general of the side to move.
    #[must_use]
    pub fn checkers(&self) -> Vec<u8> {
        let Some(g) = self.general(self.turn) else {
            return Vec::new();
        };
        (0..90)
            .filter(|&s| {
                self.piece(s).is_some_and(|p| p.color != self.turn) && self.reaches(s, g, true)
            })
            .collect()
    }

    /// Every pseudo-legal move of the side to move (§3).
    #[must_use]
    pub fn pseudo_moves(&self) -> Vec<RefMove> {
        let us = self.turn;
        let mut out = Vec::new();
        for from in 0..90u8 {
            if self.piece(from).is_none_or(|p| p.color != us) {
                continue;
            }
            for to in 0..90u8 {
                let ok = match self.piece(to) {
                    None => self.reaches(from, to, false),
                    Some(q) => q.color != us && self.reaches(from, to, true),
                };
                if ok {
                    out.push(RefMove { from, to });
                }
            }
        }
        out
    }

    /// The position after `m`.
    #[must_use]
    pub fn make(&self, m: RefMove) -> Self {
        let mut next = self.clone();
        next.points[usize::from(m.to)] = next.points[usize::from(m.from)].take();
        next.turn = !self.turn;
        next
    }

    /// §4.3: the mover is not in check after the move.
    #[must_use]
    pub fn is_legal(&self, m: RefMove) -> bool {
        !self.make(m).in_check(self.turn)
    }

    /// Every legal move, sorted.
    #[must_use]
    pub fn legal_moves(&self) -> Vec<RefMove> {
        let mut v: Vec<RefMove> = self
            .pseudo_moves()
            .into_iter()
            .filter(|&m| self.is_legal(m))
            .collect();
        v.sort_unstable();
        v
    }
}
