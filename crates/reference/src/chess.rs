//! A slow reference for the 8×8 games, written from
//! `shared/rules/chess-family.md`: a mailbox of 64 squares, pseudo-legal
//! moves from simple per-piece rules, and legality by "after the move my
//! king cannot be captured" (Atomic: my king did not explode, and either
//! the enemy king did or mine cannot be captured while the kings do not
//! touch).
//!
//! The reference keeps its own castling rights and en-passant square,
//! updated from the moves it plays, so comparing it with the rules crate
//! after every move also checks `Position::play`.

use chessplayx_rules::{
    Color, EndReason, Outcome,
    chess::{CastlingSide, Piece, Position, Role, Rules, Square},
};

/// Which of the three games the reference plays.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Family {
    /// FIDE chess.
    Standard,
    /// Horde: White has pawns and no king.
    Horde,
    /// Atomic: captures explode.
    Atomic,
}

/// A move as the reference sees it: squares `0..64` (`a1` = 0) and the
/// promotion role.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct RefMove {
    /// Origin.
    pub from: u8,
    /// Destination (the king's for castling).
    pub to: u8,
    /// Promotion role.
    pub promotion: Option<Role>,
}

impl RefMove {
    /// The move in UCI, for messages.
    #[must_use]
    pub fn uci(self) -> String {
        let name = |i: u8| format!("{}{}", char::from(b'a' + i % 8), i / 8 + 1);
        let mut s = format!("{}{}", name(self.from), name(self.to));
        if let Some(r) = self.promotion {
            s.push(r.char());
        }
        s
    }
}

/// The reference position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RefPos {
    /// The game.
    pub family: Family,
    /// What stands on each square, `a1` first.
    pub squares: [Option<Piece>; 64],
    /// Side to move.
    pub turn: Color,
    /// `[K, Q, k, q]`.
    pub rights: [bool; 4],
    /// Set after a double step when an enemy pawn attacks the square behind
    /// the pawn (Fairy-Stockfish's convention, which the rules crate keeps).
    pub ep: Option<u8>,
}

const KNIGHT: [(i8, i8); 8] = [
    (1, 2),
    (2, 1),
    (2, -1),
    (1, -2),
    (-1, -2),
    (-2, -1),
    (-2, 1),
    (-1, 2),
];
const KING: [(i8, i8); 8] = [
    (1, 0),
    (1, 1),
    (0, 1),
    (-1, 1),
    (-1, 0),
    (-1, -1),
    (0, -1),
    (1, -1),
];

const fn file_of(sq: u8) -> i8 {
    (sq % 8) as i8
}

const fn rank_of(sq: u8) -> i8 {
    (sq / 8) as i8
}

/// The square at file `f`, rank `r`, if on the board.
const fn at(f: i8, r: i8) -> Option<u8> {
    if f >= 0 && f < 8 && r >= 0 && r < 8 {
        Some((r * 8 + f) as u8)
    } else {
        None
    }
}

/// `+1` for White's pawns (up the board), `-1` for Black's.
const fn forward(color: Color) -> i8 {
    match color {
        Color::White => 1,
        Color::Black => -1,
    }
}

/// The castling squares: king from, king to, rook from, rook to, and the
/// index of the right in [`RefPos::rights`].
const fn castling(color: Color, side: CastlingSide) -> (u8, u8, u8, u8, usize) {
    let base = match color {
        Color::White => 0,
        Color::Black => 56,
    };
    let right = match (color, side) {
        (Color::White, CastlingSide::KingSide) => 0,
        (Color::White, CastlingSide::QueenSide) => 1,
        (Color::Black, CastlingSide::KingSide) => 2,
        (Color::Black, CastlingSide::QueenSide) => 3,
    };
    match side {
        CastlingSide::KingSide => (base + 4, base + 6, base + 7, base + 5, right),
        CastlingSide::QueenSide => (base + 4, base + 2, base, base + 3, right),
    }
}

impl RefPos {
    /// Copies a position of the rules crate (only at the start of a walk;
    /// afterwards the reference follows its own moves).
    #[must_use]
    pub fn from_position<R: Rules>(pos: &Position<R>, family: Family) -> Self {
        let mut squares = [None; 64];
        for (i, slot) in squares.iter_mut().enumerate() {
            *slot = Square::new(i as u32).and_then(|sq| pos.piece_at(sq));
        }
        let c = pos.castling();
        Self {
            family,
            squares,
            turn: pos.turn(),
            rights: [
                c.has(Color::White, CastlingSide::KingSide),
                c.has(Color::White, CastlingSide::QueenSide),
                c.has(Color::Black, CastlingSide::KingSide),
                c.has(Color::Black, CastlingSide::QueenSide),
            ],
            ep: pos.ep_square().map(|s| s.index() as u8),
        }
    }

    fn piece(&self, sq: u8) -> Option<Piece> {
        self.squares[usize::from(sq)]
    }

    fn is(&self, sq: u8, color: Color, role: Role) -> bool {
        self.piece(sq) == Some(Piece { color, role })
    }

    /// The square of `color`'s king (the first one; legal positions have
    /// at most one).
    #[must_use]
    pub fn king(&self, color: Color) -> Option<u8> {
        (0..64).find(|&s| self.is(s, color, Role::King))
    }

    /// `true` when nothing stands strictly between `a` and `b`, which lie
    /// on one rank, file or diagonal.
    fn clear_between(&self, a: u8, b: u8) -> bool {
        let (df, dr) = (
            (file_of(b) - file_of(a)).signum(),
            (rank_of(b) - rank_of(a)).signum(),
        );
        let (mut f, mut r) = (file_of(a) + df, rank_of(a) + dr);
        while let Some(s) = at(f, r) {
            if s == b {
                return true;
            }
            if self.piece(s).is_some() {
                return false;
            }
            f += df;
            r += dr;
        }
        false
    }

    /// `true` when the piece on `from` could take a piece standing on `to`
    /// by its movement rules (ignoring what stands on `to`, and ignoring
    /// Atomic's "kings never capture", which callers apply).
    fn hits(&self, from: u8, to: u8) -> bool {
        let Some(p) = self.piece(from) else {
            return false;
        };
        if from == to {
            return false;
        }
        let (df, dr) = (file_of(to) - file_of(from), rank_of(to) - rank_of(from));
        let straight = df == 0 || dr == 0;
        let diagonal = df.abs() == dr.abs();
        match p.role {
            Role::Pawn => dr == forward(p.color) && df.abs() == 1,
            Role::Knight => KNIGHT.contains(&(df, dr)),
            Role::King => df.abs() <= 1 && dr.abs() <= 1,
            Role::Bishop => diagonal && self.clear_between(from, to),
            Role::Rook => straight && self.clear_between(from, to),
            Role::Queen => (straight || diagonal) && self.clear_between(from, to),
        }
    }

    /// `true` when a piece of `by` could take on `sq` (Atomic: not the
    /// king, which never captures).
    fn attacked_by(&self, sq: u8, by: Color) -> bool {
        (0..64).any(|s| {
            self.piece(s).is_some_and(|p| {
                p.color == by
                    && !(self.family == Family::Atomic && p.role == Role::King)
                    && self.hits(s, sq)
            })
        })
    }

    fn kings_touch(&self) -> bool {
        match (self.king(Color::White), self.king(Color::Black)) {
            (Some(a), Some(b)) => {
                (file_of(a) - file_of(b)).abs() <= 1 && (rank_of(a) - rank_of(b)).abs() <= 1
            }
            _ => false,
        }
    }

    /// The squares of the enemy pieces that could take `color`'s king:
    /// the variant's meaning of check (none without a king, none in
    /// Atomic while the kings touch).
    #[must_use]
    pub fn checkers(&self, color: Color) -> Vec<u8> {
        let Some(k) = self.king(color) else {
            return Vec::new();
        };
        if self.family == Family::Atomic && self.kings_touch() {
            return Vec::new();
        }
        (0..64)
            .filter(|&s| {
                self.piece(s).is_some_and(|p| {
                    p.color != color
                        && !(self.family == Family::Atomic && p.role == Role::King)
                        && self.hits(s, k)
                })
            })
            .collect()
    }

    /// `true` when `color` is in check (see [`RefPos::checkers`]).
    #[must_use]
    pub fn in_check(&self, color: Color) -> bool {
        let Some(k) = self.king(color) else {
            return false;
        };
        if self.family == Family::Atomic && self.kings_touch() {
            return false;
        }
        self.attacked_by(k, color.other())
    }

    /// Every pseudo-legal move: the pieces' movement, captures of enemy
    /// pieces, en passant onto [`RefPos::ep`], promotions, and castling
    /// with the right, the rook home and the squares between empty.
    #[must_use]
    pub fn pseudo_moves(&self) -> Vec<RefMove> {
        let us = self.turn;
        let mut out = Vec::new();
        let mut push = |from: u8, to: u8, promote: bool| {
            if promote {
                for r in [Role::Queen, Role::Rook, Role::Bishop, Role::Knight] {
                    out.push(RefMove {
                        from,
                        to,
                        promotion: Some(r),
                    });
                }
            } else {
                out.push(RefMove {
                    from,
                    to,
                    promotion: None,
                });
            }
        };
        for from in 0..64u8 {
            let Some(p) = self.piece(from).filter(|p| p.color == us) else {
                continue;
            };
            let (f, r) = (file_of(from), rank_of(from));
            if p.role == Role::Pawn {
                let dr = forward(us);
                let last = if us == Color::White { 7 } else { 0 };
                if let Some(one) = at(f, r + dr)
                    && self.piece(one).is_none()
                {
                    push(from, one, r + dr == last);
                    let may_double = match us {
                        Color::White => r == 1 || (self.family == Family::Horde && r == 0),
                        Color::Black => r == 6,
                    };
                    if may_double
                        && let Some(two) = at(f, r + 2 * dr)
                        && self.piece(two).is_none()
                    {
                        push(from, two, false);
                    }
                }
                for df in [-1, 1] {
                    if let Some(t) = at(f + df, r + dr)
                        && (self.piece(t).is_some_and(|q| q.color != us) || self.ep == Some(t))
                    {
                        push(from, t, r + dr == last);
                    }
                }
                continue;
            }
            for to in 0..64u8 {
                if !self.hits(from, to) {
                    continue;
                }
                match self.piece(to) {
                    None => push(from, to, false),
                    Some(q)
                        if q.color != us
                            && !(self.family == Family::Atomic && p.role == Role::King) =>
                    {
                        push(from, to, false);
                    }
                    Some(_) => {}
                }
            }
            if p.role == Role::King {
                for side in CastlingSide::ALL {
                    let (kf, kt, rf, _, right) = castling(us, side);
                    let (lo, hi) = (kf.min(rf), kf.max(rf));
                    if from == kf
                        && self.rights[right]
                        && self.is(rf, us, Role::Rook)
                        && (lo + 1..hi).all(|s| self.piece(s).is_none())
                    {
                        push(from, kt, false);
                    }
                }
            }
        }
        out
    }

    fn castling_side_of(&self, m: RefMove) -> Option<CastlingSide> {
        if self.piece(m.from).is_none_or(|p| p.role != Role::King) {
            return None;
        }
        match file_of(m.to) - file_of(m.from) {
            2 => Some(CastlingSide::KingSide),
            -2 => Some(CastlingSide::QueenSide),
            _ => None,
        }
    }

    /// The position after `m`, a move of [`RefPos::pseudo_moves`].
    #[must_use]
    pub fn make(&self, m: RefMove) -> Self {
        let mut next = self.clone();
        let us = self.turn;
        let Some(p) = self.piece(m.from) else {
            return next;
        };
        let en_passant =
            p.role == Role::Pawn && file_of(m.from) != file_of(m.to) && self.piece(m.to).is_none();
        let capture = self.piece(m.to).is_some() || en_passant;
        next.squares[usize::from(m.from)] = None;
        if en_passant {
            let victim = at(file_of(m.to), rank_of(m.from)).unwrap_or(m.to);
            next.squares[usize::from(victim)] = None;
        }
        if let Some(side) = self.castling_side_of(m) {
            let (_, _, rf, rt, _) = castling(us, side);
            next.squares[usize::from(rt)] = next.squares[usize::from(rf)].take();
        }
        next.squares[usize::from(m.to)] = Some(Piece {
            color: us,
            role: m.promotion.unwrap_or(p.role),
        });
        if self.family == Family::Atomic && capture {
            next.squares[usize::from(m.to)] = None;
            for (df, dr) in KING {
                if let Some(t) = at(file_of(m.to) + df, rank_of(m.to) + dr)
                    && next.piece(t).is_some_and(|q| q.role != Role::Pawn)
                {
                    next.squares[usize::from(t)] = None;
                }
            }
        }
        // A right dies with any change on its king's or rook's square.
        for color in [Color::White, Color::Black] {
            for side in CastlingSide::ALL {
                let (kf, _, rf, _, right) = castling(color, side);
                if next.piece(kf) != self.piece(kf) || next.piece(rf) != self.piece(rf) {
                    next.rights[right] = false;
                }
            }
        }
        next.ep = None;
        if p.role == Role::Pawn && (rank_of(m.to) - rank_of(m.from)).abs() == 2 {
            let from_first_rank = us == Color::White && rank_of(m.from) == 0;
            let behind = at(file_of(m.from), rank_of(m.from) + forward(us)).unwrap_or(m.from);
            let attacked = [-1, 1].into_iter().any(|df| {
                at(file_of(behind) + df, rank_of(behind) + forward(us))
                    .is_some_and(|s| next.is(s, us.other(), Role::Pawn))
            });
            if !from_first_rank && attacked {
                next.ep = Some(behind);
            }
        }
        next.turn = us.other();
        next
    }

    /// `true` when the pseudo-legal move `m` is legal.
    #[must_use]
    pub fn is_legal(&self, m: RefMove) -> bool {
        let us = self.turn;
        let next = self.make(m);
        if let Some(side) = self.castling_side_of(m) {
            if self.in_check(us) {
                return false;
            }
            // The square the king crosses, with the king alone moved there.
            let (kf, kt, ..) = castling(us, side);
            let crossed = (kf + kt) / 2;
            let mut probe = self.clone();
            probe.squares[usize::from(crossed)] = probe.squares[usize::from(kf)].take();
            if probe.in_check(us) {
                return false;
            }
            return !next.in_check(us);
        }
        if self.family == Family::Atomic {
            if next.king(us).is_none() {
                return false;
            }
            if next.king(us.other()).is_none() {
                return true;
            }
        }
        !next.in_check(us)
    }

    /// Every legal move, sorted.
    #[must_use]
    pub fn legal_moves(&self) -> Vec<RefMove> {
        if self.family == Family::Atomic && self.king(self.turn).is_none() {
            return Vec::new();
        }
        let mut v: Vec<RefMove> = self
            .pseudo_moves()
            .into_iter()
            .filter(|&m| self.is_legal(m))
            .collect();
        v.sort_unstable();
        v
    }

    /// How the game stands by the rules page: the variant's own end (an
    /// exploded king, a destroyed horde), then mate or stalemate, then
    /// insufficient material. `no_moves` says whether
    /// [`RefPos::legal_moves`] is empty (the caller has it already).
    #[must_use]
    pub fn outcome(&self, no_moves: bool) -> Option<Outcome> {
        let pieces =
            |c: Color| (0..64).filter(move |&s| self.piece(s).is_some_and(|p| p.color == c));
        match self.family {
            Family::Horde if pieces(Color::White).count() == 0 => {
                return Some(Outcome::win(Color::Black, EndReason::HordeDestroyed));
            }
            Family::Atomic => {
                for c in [Color::White, Color::Black] {
                    if self.king(c).is_none() {
                        return Some(Outcome::win(c.other(), EndReason::KingExploded));
                    }
                }
            }
            _ => {}
        }
        if no_moves {
            return Some(if self.in_check(self.turn) {
                Outcome::win(self.turn.other(), EndReason::Checkmate)
            } else {
                Outcome::draw(EndReason::Stalemate)
            });
        }
        let all: Vec<(u8, Piece)> = (0..64)
            .filter_map(|s| self.piece(s).map(|p| (s, p)))
            .collect();
        let insufficient = match self.family {
            Family::Horde => false,
            Family::Atomic => all.iter().all(|(_, p)| p.role == Role::King),
            Family::Standard => {
                let minors: Vec<(u8, Piece)> = all
                    .iter()
                    .copied()
                    .filter(|(_, p)| p.role != Role::King)
                    .collect();
                let only_minors = minors
                    .iter()
                    .all(|(_, p)| matches!(p.role, Role::Knight | Role::Bishop));
                let dark = |s: u8| (file_of(s) + rank_of(s)) % 2 == 0;
                only_minors
                    && (minors.len() <= 1
                        || (minors.iter().all(|(_, p)| p.role == Role::Bishop)
                            && (minors.iter().all(|&(s, _)| dark(s))
                                || minors.iter().all(|&(s, _)| !dark(s)))))
            }
        };
        insufficient.then_some(Outcome::draw(EndReason::InsufficientMaterial))
    }
}
