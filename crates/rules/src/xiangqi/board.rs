//! Piece placement, without side to move or legality.

use core::fmt;

use super::{
    Bitboard, Piece, Role, Square,
    attacks::{
        self, advisor_bits, cannon_bits, chariot_bits, elephant_bits, general_bits,
        horse_attacker_bits, horse_bits, soldier_attacker_bits, soldier_bits,
    },
};
use crate::{ByColor, Color};

/// Where the pieces stand: any placement at all (a [`super::Setup`] may
/// hold an impossible one), with bitboards per side and per kind plus a
/// square-indexed array for `piece_at`.
///
/// All attack queries work on any placement, so the advanced-rules code
/// can edit a copy (move or remove a piece) and ask again.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Board {
    by_role: [Bitboard; 7],
    by_color: [Bitboard; 2],
    mailbox: [u8; 90],
}

impl Default for Board {
    fn default() -> Self {
        Self::empty()
    }
}

impl Board {
    /// No pieces.
    #[must_use]
    pub const fn empty() -> Self {
        Self {
            by_role: [Bitboard::EMPTY; 7],
            by_color: [Bitboard::EMPTY; 2],
            mailbox: [0; 90],
        }
    }

    /// The start placement.
    #[must_use]
    pub fn start() -> Self {
        let mut b = Self::empty();
        let back = [
            Role::Chariot,
            Role::Horse,
            Role::Elephant,
            Role::Advisor,
            Role::General,
            Role::Advisor,
            Role::Elephant,
            Role::Horse,
            Role::Chariot,
        ];
        for (f, &role) in back.iter().enumerate() {
            b.put(f as u8, Piece::new(Color::White, role));
            b.put(81 + f as u8, Piece::new(Color::Black, role));
        }
        for f in [0u8, 2, 4, 6, 8] {
            b.put(27 + f, Piece::new(Color::White, Role::Soldier));
            b.put(54 + f, Piece::new(Color::Black, Role::Soldier));
        }
        for f in [1u8, 7] {
            b.put(18 + f, Piece::new(Color::White, Role::Cannon));
            b.put(63 + f, Piece::new(Color::Black, Role::Cannon));
        }
        b
    }

    fn put(&mut self, index: u8, piece: Piece) {
        self.set_piece_at(Square::from_index_unchecked(index), piece);
    }

    /// The piece on `sq`.
    #[must_use]
    #[inline(always)]
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        Piece::from_code(self.mailbox[sq.index() as usize])
    }

    /// The kind of piece on `sq`.
    #[must_use]
    #[inline(always)]
    pub fn role_at(&self, sq: Square) -> Option<Role> {
        self.piece_at(sq).map(|p| p.role)
    }

    /// The side of the piece on `sq`.
    #[must_use]
    pub fn color_at(&self, sq: Square) -> Option<Color> {
        self.piece_at(sq).map(|p| p.color)
    }

    /// Puts `piece` on `sq`, replacing what stood there.
    pub fn set_piece_at(&mut self, sq: Square, piece: Piece) {
        self.discard_piece_at(sq);
        let bb = Bitboard::from_square(sq);
        self.by_role[piece.role.index()] |= bb;
        self.by_color[piece.color as usize] |= bb;
        self.mailbox[sq.index() as usize] = piece.code();
    }

    /// Removes and returns the piece on `sq`.
    pub fn discard_piece_at(&mut self, sq: Square) -> Option<Piece> {
        let piece = self.piece_at(sq)?;
        let bb = Bitboard::from_square(sq);
        self.by_role[piece.role.index()] ^= bb;
        self.by_color[piece.color as usize] ^= bb;
        self.mailbox[sq.index() as usize] = 0;
        Some(piece)
    }

    /// Moves the piece on `from` to `to` (capturing whatever is there) and
    /// returns the moved and the captured piece. Does nothing and returns
    /// `None` if `from` is empty. Rules are not checked.
    pub fn move_piece(&mut self, from: Square, to: Square) -> Option<(Piece, Option<Piece>)> {
        if from == to {
            return None;
        }
        let piece = self.discard_piece_at(from)?;
        let captured = self.discard_piece_at(to);
        self.set_piece_at(to, piece);
        Some((piece, captured))
    }

    /// Fast move for the position: `from` holds `piece`, `to` holds
    /// `captured` (if any). Updates bitboards and mailbox only.
    #[inline(always)]
    pub(crate) fn apply_move(
        &mut self,
        from: Square,
        to: Square,
        piece: Piece,
        captured: Option<Piece>,
    ) {
        let fb = 1u128 << from.index();
        let tb = 1u128 << to.index();
        if let Some(c) = captured {
            self.by_role[c.role.index()].0 ^= tb;
            self.by_color[c.color as usize].0 ^= tb;
        }
        self.by_role[piece.role.index()].0 ^= fb | tb;
        self.by_color[piece.color as usize].0 ^= fb | tb;
        self.mailbox[from.index() as usize] = 0;
        self.mailbox[to.index() as usize] = piece.code();
    }

    /// Every occupied square.
    #[must_use]
    #[inline(always)]
    pub fn occupied(&self) -> Bitboard {
        Bitboard(self.by_color[0].0 | self.by_color[1].0)
    }

    /// The squares of one side's pieces.
    #[must_use]
    #[inline(always)]
    pub fn by_color(&self, color: Color) -> Bitboard {
        self.by_color[color as usize]
    }

    /// The squares of one kind of piece, both sides.
    #[must_use]
    #[inline(always)]
    pub fn by_role(&self, role: Role) -> Bitboard {
        self.by_role[role.index()]
    }

    /// The squares of one piece.
    #[must_use]
    #[inline(always)]
    pub fn by_piece(&self, piece: Piece) -> Bitboard {
        self.by_role[piece.role.index()] & self.by_color[piece.color as usize]
    }

    /// Both sides' pieces as separate sets.
    #[must_use]
    pub fn colors(&self) -> ByColor<Bitboard> {
        ByColor::new(self.by_color[0], self.by_color[1])
    }

    /// The general of `color` (the lowest one if there are several, as in
    /// an invalid setup).
    #[must_use]
    pub fn general(&self, color: Color) -> Option<Square> {
        self.by_piece(Piece::new(color, Role::General)).first()
    }

    /// Every piece with its square, `a1` first.
    pub fn pieces(&self) -> impl Iterator<Item = (Square, Piece)> + '_ {
        self.occupied()
            .filter_map(|sq| self.piece_at(sq).map(|p| (sq, p)))
    }

    /// The capture pattern of the piece on `sq` at the current occupancy
    /// (see [`attacks::attacks`]); empty for an empty square.
    #[must_use]
    pub fn attacks_from(&self, sq: Square) -> Bitboard {
        self.piece_at(sq).map_or(Bitboard::EMPTY, |p| {
            attacks::attacks(p.color, p.role, sq, self.occupied())
        })
    }

    /// Pieces of `attacker` that could capture on `sq` (by step or capture
    /// pattern), with `occupied` as the blockers. The general's step counts;
    /// the flying-general rule does not (it only concerns the enemy general,
    /// see [`Board::king_attackers`]).
    #[must_use]
    pub fn attackers_to(&self, sq: Square, attacker: Color, occupied: Bitboard) -> Bitboard {
        let s = sq.index() as usize;
        let occ = occupied.0;
        let them = self.by_color[attacker as usize].0;
        let r = |role: Role| self.by_role[role.index()].0;
        let mut out = chariot_bits(s, occ) & r(Role::Chariot)
            | cannon_bits(s, occ) & r(Role::Cannon)
            | horse_attacker_bits(s, occ) & r(Role::Horse)
            | soldier_attacker_bits(attacker, s) & r(Role::Soldier)
            | general_bits(s) & r(Role::General)
            | advisor_bits(s) & r(Role::Advisor);
        // Elephants: symmetric pattern (same eye), target on the attacker's half.
        out |= elephant_bits(attacker, s, occ)
            & r(Role::Elephant)
            & if attacks::own_half(attacker) >> s & 1 != 0 {
                u128::MAX
            } else {
                0
            };
        Bitboard(out & them)
    }

    /// `true` when both generals stand on one file with nothing between.
    #[must_use]
    pub fn generals_face(&self) -> bool {
        match (self.general(Color::White), self.general(Color::Black)) {
            (Some(r), Some(b)) => {
                // Lower one looks up the file; any placement, even generals
                // on the wrong sides, is answered.
                let (lo, hi) = if r < b { (r, b) } else { (b, r) };
                attacks::ray_slide(attacks::N, lo.index() as usize, self.occupied().0) >> hi.index()
                    & 1
                    != 0
            }
            _ => false,
        }
    }

    /// The enemy pieces attacking `color`'s general, including the enemy
    /// general itself when the generals face each other (the flying-general
    /// rule, modelled as an attack as Fairy-Stockfish does). Empty when
    /// `color` has no general.
    #[must_use]
    pub fn king_attackers(&self, color: Color) -> Bitboard {
        let Some(k) = self.general(color) else {
            return Bitboard::EMPTY;
        };
        let mut out = self.attackers_to(k, !color, self.occupied());
        if self.generals_face() {
            out |= self.by_piece(Piece::new(!color, Role::General));
        }
        out
    }

    /// `true` when `color`'s general is attacked (or the generals face).
    #[must_use]
    pub fn is_in_check(&self, color: Color) -> bool {
        self.king_attackers(color).any()
    }

    /// `true` when removing the piece on `sq` would create a new attack on
    /// its own general (a chariot or cannon line, a horse leg, a cannon
    /// screen, or the flying-general file). This is the pin of the
    /// advanced rules (§7.2): a pinned piece's own move may still be legal
    /// when it stays on the line, see [`super::Xiangqi::is_legal`].
    #[must_use]
    pub fn is_pinned(&self, sq: Square) -> bool {
        let Some(p) = self.piece_at(sq) else {
            return false;
        };
        if p.role == Role::General {
            return false;
        }
        let before = self.king_attackers(p.color);
        let mut b = self.clone();
        b.discard_piece_at(sq);
        (b.king_attackers(p.color) - before).any()
    }

    /// Moves a piece of `color` could make from `sq` by its pattern alone
    /// (targets empty or enemy; general and advisor in the palace; cannon
    /// quiet moves and captures), ignoring whether its general is safe.
    #[must_use]
    pub fn pseudo_targets(&self, sq: Square) -> Bitboard {
        let Some(p) = self.piece_at(sq) else {
            return Bitboard::EMPTY;
        };
        let s = sq.index() as usize;
        let occ = self.occupied().0;
        let own = self.by_color[p.color as usize].0;
        let them = self.by_color[!p.color as usize].0;
        let bits = match p.role {
            Role::General => general_bits(s) & !own,
            Role::Advisor => advisor_bits(s) & !own,
            Role::Elephant => elephant_bits(p.color, s, occ) & !own,
            Role::Horse => horse_bits(s, occ) & !own,
            Role::Chariot => chariot_bits(s, occ) & !own,
            Role::Cannon => chariot_bits(s, occ) & !occ | cannon_bits(s, occ) & them,
            Role::Soldier => soldier_bits(p.color, s) & !own,
        };
        Bitboard(bits)
    }

    /// `true` when the piece on `from` may go to `to` by its pattern and,
    /// after the move, its own general is neither attacked nor facing the
    /// other general. Whose turn it is plays no part, so this answers "could
    /// that side capture there if it were its move" for the chase rules.
    #[must_use]
    pub fn is_legal_move_for_owner(&self, from: Square, to: Square) -> bool {
        let Some(p) = self.piece_at(from) else {
            return false;
        };
        if !self.pseudo_targets(from).contains(to) {
            return false;
        }
        let mut b = self.clone();
        b.move_piece(from, to);
        !b.is_in_check(p.color)
    }

    /// Number of pieces of `piece` on the board.
    #[must_use]
    pub fn count(&self, piece: Piece) -> u32 {
        self.by_piece(piece).count()
    }

    /// Writes the placement field of a FEN (rank 10 first).
    pub(crate) fn write_fen(&self, out: &mut String) {
        for rank in (0..10u8).rev() {
            let mut empty = 0;
            for file in 0..9u8 {
                match self.piece_at(Square::from_index_unchecked(rank * 9 + file)) {
                    Some(p) => {
                        if empty > 0 {
                            out.push((b'0' + empty) as char);
                            empty = 0;
                        }
                        out.push(p.char());
                    }
                    None => empty += 1,
                }
            }
            if empty > 0 {
                out.push((b'0' + empty) as char);
            }
            if rank > 0 {
                out.push('/');
            }
        }
    }

    /// The placement field of a FEN.
    #[must_use]
    pub fn board_fen(&self) -> String {
        let mut s = String::with_capacity(90);
        self.write_fen(&mut s);
        s
    }
}

impl fmt::Debug for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for rank in (0..10u8).rev() {
            for file in 0..9u8 {
                let c = self
                    .piece_at(Square::from_index_unchecked(rank * 9 + file))
                    .map_or('.', Piece::char);
                write!(f, "{c}{}", if file < 8 { ' ' } else { '\n' })?;
            }
        }
        Ok(())
    }
}
