//! A game of chess, Horde or Atomic as played: the start position, the
//! moves, and the history the repetition and move-count rules need.
//!
//! A server keeps one record per running game for the game's whole life,
//! so the record keeps per ply only what the rules and the notation need:
//! the move (4 bytes) and its SAN as a [`SanPlus`] value (7 bytes, rendered
//! to text on demand). Besides them it keeps the start and the current
//! position, and the repetition keys of the positions since the last
//! capture or pawn move: no position before it can occur again, so the
//! keys never outnumber the plies the 75-move rule allows. Playing a move
//! compares the new key with those of the same side to move, so asking
//! for the repetition count, the claims or the outcome never replays the
//! game. Undo, rare, replays the moves from the start to rebuild the
//! position before the last move and its keys (a few microseconds for a
//! long game); [`ChessGame::positions`] replays too.
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

/// How many times the position with `key` and `halfmoves` occurs in a
/// game whose earlier positions have the keys `before` (in order, at least
/// the last `halfmoves` of them), counting itself: only positions since the last capture or pawn move,
/// with the same side to move, can be equal (castling rights are in the
/// key).
///
/// Counting every match in that window gives the same figure as taking
/// the latest match's own count plus one: the latest match lies in the
/// window, so no capture or pawn move came after it, and its own window
/// is the part of this one before it.
fn occurrences(before: &[u64], key: u64, halfmoves: u32) -> u32 {
    let window = halfmoves as usize;
    let matches = before
        .iter()
        .rev()
        .take(window)
        .skip(1)
        .step_by(2)
        .filter(|&&k| k == key)
        .count();
    // At most 5 while the game runs (the fifth occurrence ends it).
    u32::try_from(matches).map_or(u32::MAX, |m| m.saturating_add(1))
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
    start: Position<R>,
    /// The position after the last move.
    current: Position<R>,
    /// [`repetition_key`] of each position since the last capture or pawn
    /// move (or since the start), the current one last. Never empty.
    keys: Vec<u64>,
    /// How many times the current position has occurred, itself included.
    seen: u32,
    /// The ending the current position alone decides.
    end: Option<Outcome>,
    moves: Vec<Move>,
    /// The SAN of each move, with its sign.
    sans: Vec<SanPlus>,
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
            start,
            current: start,
            keys: vec![repetition_key(&start)],
            seen: 1,
            end: start.outcome(),
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

    /// The current position.
    #[must_use]
    pub fn position(&self) -> &Position<R> {
        &self.current
    }

    /// The start position.
    #[must_use]
    pub fn start(&self) -> &Position<R> {
        &self.start
    }

    /// The start position as FEN (for the record, or to replay the moves).
    #[must_use]
    pub fn start_fen(&self) -> String {
        self.start().fen()
    }

    /// Every position of the game, the start first and the current last,
    /// rebuilt by replaying the moves (the record does not keep them).
    pub fn positions(&self) -> impl ExactSizeIterator<Item = Position<R>> + '_ {
        Positions {
            next: Some(self.start),
            moves: self.moves.iter(),
        }
    }

    /// The moves played, in order.
    #[must_use]
    pub fn moves(&self) -> &[Move] {
        &self.moves
    }

    /// The moves in SAN (with `+` and `#`), in order, as values; see
    /// [`ChessGame::sans`] for the text.
    #[must_use]
    pub fn san_moves(&self) -> &[SanPlus] {
        &self.sans
    }

    /// The moves in SAN (with `+` and `#`), in order, as text.
    #[must_use]
    pub fn sans(&self) -> Vec<String> {
        self.sans.iter().map(SanPlus::to_string).collect()
    }

    /// The last move, if any.
    #[must_use]
    pub fn last_move(&self) -> Option<Move> {
        self.moves.last().copied()
    }

    /// The SAN of the last move, if any.
    #[must_use]
    pub fn last_san(&self) -> Option<String> {
        self.sans.last().map(SanPlus::to_string)
    }

    /// How many times the current position has occurred in this game
    /// (1 the first time). Positions are the same when placement, side to
    /// move, castling rights and the possibility of an en-passant capture
    /// are.
    #[must_use]
    pub fn repetitions(&self) -> u32 {
        self.seen
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
        if self.end.is_some() {
            return self.end;
        }
        if self.seen >= FIVEFOLD {
            return Some(Outcome::draw(EndReason::FivefoldRepetition));
        }
        if self.current.halfmoves() >= SEVENTY_FIVE_MOVES_PLIES {
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
        let halfmoves = self.current.halfmoves();
        match claim {
            Claim::ThreefoldRepetition if self.seen >= THREEFOLD => {
                Ok(Outcome::draw(claim.end_reason()))
            }
            Claim::ThreefoldRepetition => Err(ClaimError::NoThreefoldRepetition {
                occurrences: self.seen,
            }),
            Claim::FiftyMoves if halfmoves >= FIFTY_MOVES_PLIES => {
                Ok(Outcome::draw(claim.end_reason()))
            }
            Claim::FiftyMoves => Err(ClaimError::NoFiftyMoves { halfmoves }),
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
        let before = self.current;
        if !before.is_legal(mv) {
            return Err(PlayError::Illegal {
                uci: mv.to_uci(),
                fen: before.fen(),
            });
        }
        let after = before.played(mv);
        let key = repetition_key(&after);
        let end = after.outcome();
        let suffix = if end.is_some_and(|o| o.winner == Some(before.turn())) {
            Some(Suffix::Mate)
        } else if after.is_check() {
            Some(Suffix::Check)
        } else {
            None
        };
        let san = SanPlus {
            san: San::from_move(&before, mv),
            suffix,
        };
        if after.halfmoves() == 0 {
            // A capture or pawn move: no earlier position can recur.
            self.keys.clear();
        }
        self.seen = occurrences(&self.keys, key, after.halfmoves());
        self.current = after;
        self.end = end;
        self.keys.push(key);
        self.moves.push(mv);
        self.sans.push(san);
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
        self.sans.pop();
        // The record keeps no positions but the start and the current one:
        // replay to the one before the move, with the keys of its window.
        let mut pos = self.start;
        self.keys.clear();
        self.keys.push(repetition_key(&pos));
        for &m in &self.moves {
            pos = pos.played(m);
            if pos.halfmoves() == 0 {
                self.keys.clear();
            }
            self.keys.push(repetition_key(&pos));
        }
        // Never empty: the current position's key was just pushed.
        let last = self.keys.len() - 1;
        self.seen = occurrences(&self.keys[..last], self.keys[last], pos.halfmoves());
        self.current = pos;
        self.end = pos.outcome();
        self.claimed = None;
        Some(mv)
    }
}

/// The positions of a game, replayed from its start.
#[derive(Debug)]
struct Positions<'a, R: Rules> {
    /// The next position to yield (`None` once the current one was).
    next: Option<Position<R>>,
    /// The moves still to play.
    moves: core::slice::Iter<'a, Move>,
}

impl<R: Rules> Iterator for Positions<'_, R> {
    type Item = Position<R>;

    fn next(&mut self) -> Option<Position<R>> {
        let pos = self.next?;
        self.next = self.moves.next().map(|&m| pos.played(m));
        Some(pos)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = usize::from(self.next.is_some()) + self.moves.len();
        (n, Some(n))
    }
}

impl<R: Rules> ExactSizeIterator for Positions<'_, R> {}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chess::Chess;

    /// The record keeps the keys of the positions since the last capture
    /// or pawn move only, undo included.
    #[test]
    fn keys_are_kept_back_to_the_last_capture_or_pawn_move() {
        let mut game = StandardGame::new();
        assert_eq!(game.keys.len(), 1);
        for (san, kept) in [("e4", 1), ("Nf6", 2), ("Nf3", 3), ("e5", 1), ("Nc3", 2)] {
            game.play_san(san).unwrap();
            assert_eq!(game.keys.len(), kept, "after {san}");
        }
        game.play_san("Nxe4").unwrap();
        assert_eq!(game.keys.len(), 1);
        game.undo();
        assert_eq!(game.keys.len(), 2);
        game.undo();
        assert_eq!(game.keys.len(), 1);
        game.undo();
        assert_eq!(game.keys.len(), 3); // after Nf3: e4, Nf6, Nf3
        game.undo();
        assert_eq!(game.keys.len(), 2);
        // From a FEN without a reset since: every position is kept.
        let mut game = StandardGame::from_fen("4k3/8/8/8/8/8/8/R3K3 w Q - 40 60").unwrap();
        for san in ["Ra2", "Kd8", "Ra1", "Ke8"] {
            game.play_san(san).unwrap();
        }
        assert_eq!(game.keys.len(), 5);
    }

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
