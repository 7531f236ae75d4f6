//! Moves of the 8×8 games.

use core::fmt;

use super::{role::Role, setup::CastlingSide, square::Square, uci::UciMove};

/// What kind of move, beyond its squares. Private: a [`Move`] comes only
/// from a position's move generator.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
pub(crate) enum MoveKind {
    /// Any other move (captures included).
    Normal,
    /// A pawn's two-square advance.
    DoublePush,
    /// An en-passant capture.
    EnPassant,
    /// Castling, given as the king's move.
    Castle,
    /// Promotion to a knight.
    PromoteKnight,
    /// Promotion to a bishop.
    PromoteBishop,
    /// Promotion to a rook.
    PromoteRook,
    /// Promotion to a queen.
    PromoteQueen,
}

impl MoveKind {
    /// The four promotions, queen first.
    pub(crate) const PROMOTIONS: [Self; 4] = [
        Self::PromoteQueen,
        Self::PromoteRook,
        Self::PromoteBishop,
        Self::PromoteKnight,
    ];
}

/// A move, four bytes: from, to, the moving role and the kind. Only
/// meaningful in the position whose generator produced it. Castling is
/// the king's two-square move (`e1g1`), as UCI writes it.
#[derive(Copy, Clone, PartialEq, Eq, Hash)]
pub struct Move {
    from: Square,
    to: Square,
    role: Role,
    kind: MoveKind,
}

impl Move {
    #[inline(always)]
    pub(crate) const fn new(from: Square, to: Square, role: Role, kind: MoveKind) -> Self {
        Self {
            from,
            to,
            role,
            kind,
        }
    }

    #[inline(always)]
    pub(crate) const fn kind(self) -> MoveKind {
        self.kind
    }

    /// The square the piece leaves.
    #[must_use]
    #[inline(always)]
    pub const fn from(self) -> Square {
        self.from
    }

    /// The square the piece goes to (the king's square for castling, the
    /// empty square behind the taken pawn for en passant).
    #[must_use]
    #[inline(always)]
    pub const fn to(self) -> Square {
        self.to
    }

    /// The role of the moving piece (a pawn for promotions).
    #[must_use]
    #[inline(always)]
    pub const fn role(self) -> Role {
        self.role
    }

    /// The role a pawn promotes to.
    #[must_use]
    #[inline(always)]
    pub const fn promotion(self) -> Option<Role> {
        match self.kind {
            MoveKind::PromoteKnight => Some(Role::Knight),
            MoveKind::PromoteBishop => Some(Role::Bishop),
            MoveKind::PromoteRook => Some(Role::Rook),
            MoveKind::PromoteQueen => Some(Role::Queen),
            _ => None,
        }
    }

    /// `true` for an en-passant capture.
    #[must_use]
    pub const fn is_en_passant(self) -> bool {
        matches!(self.kind, MoveKind::EnPassant)
    }

    /// `true` for a pawn's two-square advance.
    #[must_use]
    pub const fn is_double_push(self) -> bool {
        matches!(self.kind, MoveKind::DoublePush)
    }

    /// The wing of a castling move, `None` for any other move.
    #[must_use]
    pub const fn castling_side(self) -> Option<CastlingSide> {
        match self.kind {
            MoveKind::Castle if (self.to as u8) & 7 == 6 => Some(CastlingSide::KingSide),
            MoveKind::Castle => Some(CastlingSide::QueenSide),
            _ => None,
        }
    }

    /// The move in UCI coordinates.
    #[must_use]
    pub const fn to_uci(self) -> UciMove {
        UciMove {
            from: self.from,
            to: self.to,
            promotion: self.promotion(),
        }
    }
}

impl fmt::Display for Move {
    /// UCI coordinates (`e2e4`, `e7e8q`, `e1g1`).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.to_uci(), f)
    }
}

impl fmt::Debug for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}({})", self.role.upper_char(), self.to_uci())
    }
}
