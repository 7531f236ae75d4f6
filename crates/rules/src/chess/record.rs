//! A game of chess, Horde or Atomic as played: the start position, the
//! moves, and the history the repetition and move-count rules need.
//!
//! The record keeps every position it went through (a position is about
//! 100 bytes), each with its repetition key and how many times that key
//! has occurred so far. Playing a move compares the new key only with the
//! positions since the last capture or pawn move, same side to move, and
//! takes the count from the latest match, so asking for the repetition
//! count, the claims or the outcome never replays the game. Undo pops the
//! last position: nothing is replayed either.
//!
//! ```
//! use chessplayx_rules::{Claim, EndReason, chess::StandardGame};
//!
//! let mut game = StandardGame::new();
//! for _ in 0..2 {
//!     for san in ["Nf3", "Nf6", "Ng1", "Ng8"] {
//!         game.play_san(san)?;
//!     }
//! }
//! assert_eq!(game.repetitions(), 3);
//! assert_eq!(game.claimable(), vec![Claim::ThreefoldRepetition]);
//! let draw = game.claim(Claim::ThreefoldRepetition)?;
//! assert_eq!(draw.reason, EndReason::ThreefoldRepetition);
//! assert!(game.play_san("e4").is_err());
//! # Ok::<_, Box<dyn std::error::Error>>(())
//! ```

use super::{
    moves::Move,
    position::{FenError, Position},
    rules::{Atomic, Horde, Rules, Standard},
    san::{ParseSanError, San, SanError, SanPlus, Suffix},
    uci::{IllegalUciMoveError, ParseUciMoveError, UciMove},
    zobrist,
};
use crate::{Claim, EndReason, Outcome};

/// Plies without capture or pawn move after which a draw may be claimed.
pub const FIFTY_MOVES_PLIES: u32 = 100;
/// Plies without capture or pawn move after which the game is drawn.
pub const SEVENTY_FIVE_MOVES_PLIES: u32 = 150;
/// Occurrences of a position after which a draw may be claimed.
pub const THREEFOLD: u32 = 3;
/// Occurrences of a position after which the game is drawn.
pub const FIVEFOLD: u32 = 5;

/// A standard chess game.
pub type StandardGame = ChessGame<Standard>;
/// A Horde game.
pub type HordeGame = ChessGame<Horde>;
/// An Atomic game.
pub type AtomicGame = ChessGame<Atomic>;

/// One position of the game and what the rules need to know about it,
/// computed once when the position is reached.
#[derive(Clone, Debug)]
struct Node<R: Rules> {
    pos: Position<R>,
    /// [`repetition_key`] of `pos`.
    key: u64,
    /// How many times `key` has occurred up to and including this node.
    seen: u32,
    /// The ending the position alone decides.
    end: Option<Outcome>,
}

impl<R: Rules> Node<R> {
    fn new(pos: Position<R>, seen_before: &[Self]) -> Self {
        let key = repetition_key(&pos);
        // Only positions since the last capture or pawn move, with the
        // same side to move, can be equal; castling rights are in the key.
        let window = pos.halfmoves() as usize;
        let seen = seen_before
            .iter()
            .rev()
            .take(window)
            .skip(1)
            .step_by(2)
            .find(|n| n.key == key)
            .map_or(1, |n| n.seen + 1);
        Self {
            pos,
            key,
            seen,
            end: pos.outcome(),
        }
    }
}

/// The key that decides whether two positions are the same for the
/// repetition rules: placement, side to move, castling rights and the
/// possibility of an en-passant capture. The position's own key includes
/// its en-passant square whenever a pawn attacks it; here it counts only
/// when the capture is actually legal (not when a pin or, in Atomic, the
/// explosion forbids it).
fn repetition_key<R: Rules>(pos: &Position<R>) -> u64 {
    match pos.ep_square() {
        Some(ep) if !pos.legal_moves().iter().any(|m| m.is_en_passant()) => {
            pos.zobrist() ^ zobrist::en_passant(ep)
        }
        _ => pos.zobrist(),
    }
}

/// A move that cannot be played in the game.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PlayError {
    /// The game has ended; no move may follow.
    #[error("the game is over ({})", outcome.reason)]
    GameOver {
        /// How it ended.
        outcome: Outcome,
    },
    /// The move is not legal in the current position.
    #[error("illegal move {uci} in {fen}")]
    Illegal {
        /// The move.
        uci: UciMove,
        /// The position, as FEN.
        fen: String,
    },
}

/// A UCI move that cannot be played in the game.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PlayUciError {
    /// The game has ended; no move may follow.
    #[error("the game is over ({})", outcome.reason)]
    GameOver {
        /// How it ended.
        outcome: Outcome,
    },
    /// The text is not UCI.
    #[error(transparent)]
    Syntax(#[from] ParseUciMoveError),
    /// The move is not legal in the current position.
    #[error(transparent)]
    Illegal(#[from] IllegalUciMoveError),
}

/// A SAN move that cannot be played in the game.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PlaySanError {
    /// The game has ended; no move may follow.
    #[error("the game is over ({})", outcome.reason)]
    GameOver {
        /// How it ended.
        outcome: Outcome,
    },
    /// The text is not SAN.
    #[error(transparent)]
    Syntax(#[from] ParseSanError),
    /// The move is illegal or ambiguous in the current position.
    #[error(transparent)]
    Illegal(#[from] SanError),
}

/// A draw claim the rules do not allow now.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ClaimError {
    /// The game has already ended.
    #[error("the game is over ({})", outcome.reason)]
    GameOver {
        /// How it ended.
        outcome: Outcome,
    },
    /// The current position has not occurred three times.
    #[error("no threefold repetition: the position has occurred {occurrences} time(s)")]
    NoThreefoldRepetition {
        /// How often it has occurred.
        occurrences: u32,
    },
    /// Fewer than 100 plies since the last capture or pawn move.
    #[error("no fifty-move rule: only {halfmoves} plies without capture or pawn move")]
    NoFiftyMoves {
        /// The plies since the last capture or pawn move.
        halfmoves: u32,
    },
}

/// A game of chess, Horde or Atomic (`R` says which): its start, its
/// moves and their SAN, its current position, and its ending.
///
/// The record applies the rules that need history: fivefold repetition
/// and the 75-move rule end the game by themselves; threefold repetition
/// and the 50-move rule are offered as claims. A claimed draw ends the
/// game; other game-level endings (resignation, time) belong to whoever
/// runs the game.
#[derive(Clone, Debug)]
pub struct ChessGame<R: Rules> {
    /// `nodes[0]` is the start; `nodes[i]` the position after `moves[i-1]`.
    nodes: Vec<Node<R>>,
    moves: Vec<Move>,
    sans: Vec<String>,
    claimed: Option<Outcome>,
}

impl<R: Rules> Default for ChessGame<R> {
    fn default() -> Self {
        Self::new()
    }
}

impl<R: Rules> ChessGame<R> {
    /// A game from the start position of the variant.
    #[must_use]
    pub fn new() -> Self {
        Self::from_position(Position::start())
    }

    /// A game from any legal position. What happened before it is
    /// unknown: its repetition count starts at 1 (its halfmove clock is
    /// kept for the 50- and 75-move rules).
    #[must_use]
    pub fn from_position(start: Position<R>) -> Self {
        Self {
            nodes: vec![Node::new(start, &[])],
            moves: Vec::new(),
            sans: Vec::new(),
            claimed: None,
        }
    }

    /// A game from a FEN.
    ///
    /// # Errors
    ///
    /// [`FenError`] when the FEN is malformed or not a legal position.
    pub fn from_fen(fen: &str) -> Result<Self, FenError> {
        Ok(Self::from_position(Position::from_fen(fen)?))
    }

    fn current(&self) -> &Node<R> {
        // Never empty: `nodes[0]` is set at construction and undo keeps it.
        let last = self.nodes.len() - 1;
        &self.nodes[last]
    }

    /// The current position.
    #[must_use]
    pub fn position(&self) -> &Position<R> {
        &self.current().pos
    }

    /// The start position.
    #[must_use]
    pub fn start(&self) -> &Position<R> {
        &self.nodes[0].pos
    }

    /// The start position as FEN (for the record, or to replay the moves).
    #[must_use]
    pub fn start_fen(&self) -> String {
        self.start().fen()
    }

    /// Every position of the game, the start first and the current last.
    pub fn positions(&self) -> impl ExactSizeIterator<Item = &Position<R>> + '_ {
        self.nodes.iter().map(|n| &n.pos)
    }

    /// The moves played, in order.
    #[must_use]
    pub fn moves(&self) -> &[Move] {
        &self.moves
    }

    /// The moves in SAN (with `+` and `#`), in order.
    #[must_use]
    pub fn sans(&self) -> &[String] {
        &self.sans
    }

    /// The last move, if any.
    #[must_use]
    pub fn last_move(&self) -> Option<Move> {
        self.moves.last().copied()
    }

    /// The SAN of the last move, if any.
    #[must_use]
    pub fn last_san(&self) -> Option<&str> {
        self.sans.last().map(String::as_str)
    }

    /// How many times the current position has occurred in this game
    /// (1 the first time). Positions are the same when placement, side to
    /// move, castling rights and the possibility of an en-passant capture
    /// are.
    #[must_use]
    pub fn repetitions(&self) -> u32 {
        self.current().seen
    }

    /// How the game has ended, if it has: a claimed draw, an ending of the
    /// position itself (mate, stalemate, exploded king, destroyed horde,
    /// insufficient material), then fivefold repetition and the 75-move
    /// rule. A mate delivered on the move that reaches the fifth
    /// occurrence or the 150th ply is still a mate.
    #[must_use]
    pub fn outcome(&self) -> Option<Outcome> {
        if self.claimed.is_some() {
            return self.claimed;
        }
        let node = self.current();
        if node.end.is_some() {
            return node.end;
        }
        if node.seen >= FIVEFOLD {
            return Some(Outcome::draw(EndReason::FivefoldRepetition));
        }
        if node.pos.halfmoves() >= SEVENTY_FIVE_MOVES_PLIES {
            return Some(Outcome::draw(EndReason::SeventyFiveMoves));
        }
        None
    }

    /// `true` once the game has ended.
    #[must_use]
    pub fn is_over(&self) -> bool {
        self.outcome().is_some()
    }

    /// The moves that may be played now: the position's legal moves, or
    /// none once the game is over (a fivefold repetition or a claimed
    /// draw leaves the position with moves the game no longer allows).
    #[must_use]
    pub fn legal_moves(&self) -> Vec<Move> {
        if self.is_over() {
            Vec::new()
        } else {
            self.position().legal_moves()
        }
    }

    /// The draws the player to move may claim now (threefold repetition,
    /// then the 50-move rule); none once the game is over.
    #[must_use]
    pub fn claimable(&self) -> Vec<Claim> {
        let mut out = Vec::new();
        if self.is_over() {
            return out;
        }
        for claim in [Claim::ThreefoldRepetition, Claim::FiftyMoves] {
            if self.check_claim(claim).is_ok() {
                out.push(claim);
            }
        }
        out
    }

    fn check_claim(&self, claim: Claim) -> Result<Outcome, ClaimError> {
        if let Some(outcome) = self.outcome() {
            return Err(ClaimError::GameOver { outcome });
        }
        let node = self.current();
        match claim {
            Claim::ThreefoldRepetition if node.seen >= THREEFOLD => {
                Ok(Outcome::draw(claim.end_reason()))
            }
            Claim::ThreefoldRepetition => Err(ClaimError::NoThreefoldRepetition {
                occurrences: node.seen,
            }),
            Claim::FiftyMoves if node.pos.halfmoves() >= FIFTY_MOVES_PLIES => {
                Ok(Outcome::draw(claim.end_reason()))
            }
            Claim::FiftyMoves => Err(ClaimError::NoFiftyMoves {
                halfmoves: node.pos.halfmoves(),
            }),
        }
    }

    /// Claims a draw for the player to move. If the rules allow it the
    /// game ends as a draw with the claim's reason, which is returned.
    ///
    /// # Errors
    ///
    /// [`ClaimError`] when the game is over or the claim is not valid
    /// now.
    pub fn claim(&mut self, claim: Claim) -> Result<Outcome, ClaimError> {
        let outcome = self.check_claim(claim)?;
        self.claimed = Some(outcome);
        Ok(outcome)
    }

    /// Plays a legal move of the current position.
    ///
    /// # Errors
    ///
    /// [`PlayError::GameOver`] once the game has ended,
    /// [`PlayError::Illegal`] for a move the position does not allow.
    pub fn play(&mut self, mv: Move) -> Result<(), PlayError> {
        if let Some(outcome) = self.outcome() {
            return Err(PlayError::GameOver { outcome });
        }
        let before = self.current().pos;
        if !before.is_legal(mv) {
            return Err(PlayError::Illegal {
                uci: mv.to_uci(),
                fen: before.fen(),
            });
        }
        let node = Node::new(before.played(mv), &self.nodes);
        let suffix = if node.end.is_some_and(|o| o.winner == Some(before.turn())) {
            Some(Suffix::Mate)
        } else if node.pos.is_check() {
            Some(Suffix::Check)
        } else {
            None
        };
        let san = SanPlus {
            san: San::from_move(&before, mv),
            suffix,
        };
        self.nodes.push(node);
        self.moves.push(mv);
        self.sans.push(san.to_string());
        Ok(())
    }

    /// Plays a move given in UCI (`e2e4`, `e7e8q`, `e1g1`) and returns it.
    ///
    /// # Errors
    ///
    /// [`PlayUciError`]: game over, malformed text or illegal move.
    pub fn play_uci(&mut self, uci: &str) -> Result<Move, PlayUciError> {
        if let Some(outcome) = self.outcome() {
            return Err(PlayUciError::GameOver { outcome });
        }
        let mv = uci.parse::<UciMove>()?.to_move(self.position())?;
        self.play(mv).map_err(|e| match e {
            PlayError::GameOver { outcome } => PlayUciError::GameOver { outcome },
            PlayError::Illegal { uci, fen } => IllegalUciMoveError { uci, fen }.into(),
        })?;
        Ok(mv)
    }

    /// Plays a move given in SAN (`Nf3`, `exd5`, `O-O`, `e8=Q`) and
    /// returns it.
    ///
    /// # Errors
    ///
    /// [`PlaySanError`]: game over, malformed text, illegal or ambiguous
    /// move.
    pub fn play_san(&mut self, san: &str) -> Result<Move, PlaySanError> {
        if let Some(outcome) = self.outcome() {
            return Err(PlaySanError::GameOver { outcome });
        }
        let parsed = san.parse::<San>()?;
        let mv = parsed.to_move(self.position())?;
        self.play(mv).map_err(|e| match e {
            PlayError::GameOver { outcome } => PlaySanError::GameOver { outcome },
            PlayError::Illegal { fen, .. } => SanError::Illegal {
                san: parsed.to_string(),
                fen,
            }
            .into(),
        })?;
        Ok(mv)
    }

    /// Takes back the last move and returns it (`None` at the start). A
    /// claimed draw is withdrawn with it: claims, repetition count and
    /// outcome are those of the position before the move again.
    pub fn undo(&mut self) -> Option<Move> {
        let mv = self.moves.pop()?;
        self.nodes.pop();
        self.sans.pop();
        self.claimed = None;
        Some(mv)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chess::Chess;

    /// The key must not depend on whether the FEN named an en-passant
    /// square the side to move cannot use.
    #[test]
    fn repetition_key_ignores_unusable_en_passant() {
        // After ...d7d5 the e5 pawn attacks d6, but it is pinned along
        // the fifth rank by the rook on a5 against the king on h5.
        let pinned = Chess::from_fen("4k3/8/8/r2pP2K/8/8/8/8 w - d6 0 2").unwrap();
        assert_eq!(pinned.ep_square().map(|s| s.to_string()), Some("d6".into()));
        assert!(!pinned.legal_moves().iter().any(|m| m.is_en_passant()));
        let plain = Chess::from_fen("4k3/8/8/r2pP2K/8/8/8/8 w - - 0 2").unwrap();
        assert_ne!(pinned.zobrist(), plain.zobrist());
        assert_eq!(repetition_key(&pinned), repetition_key(&plain));

        let usable = Chess::from_fen("4k3/8/8/3pP2K/8/8/8/8 w - d6 0 2").unwrap();
        let plain = Chess::from_fen("4k3/8/8/3pP2K/8/8/8/8 w - - 0 2").unwrap();
        assert_ne!(repetition_key(&usable), repetition_key(&plain));
    }
}
