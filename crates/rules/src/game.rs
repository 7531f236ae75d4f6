//! The one trait that joins the 8×8 games and Xiangqi for the engine and
//! the server, which must not care about board geometry.

use core::{fmt::Debug, hash::Hash};

use crate::{Color, Outcome, Variant};

/// A move given as text that cannot be played in a position. The two steps
/// of parsing stay visible: text that is no move at all is `Syntax`, a
/// well-formed move that this position does not allow is `Illegal`.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum MoveError {
    /// The text is not a move in this notation.
    #[error("malformed move {text:?}")]
    Syntax {
        /// What was given.
        text: String,
    },
    /// The move is well formed but not legal here.
    #[error("illegal move {text}")]
    Illegal {
        /// What was given.
        text: String,
    },
}

/// A legal position of one of the games, as the engine and the server see it.
///
/// Implementations keep the invariant that the position is legal: values
/// come only from checked constructors (a validated FEN, the start
/// position) and from playing legal moves.
pub trait Game: Clone + Debug + Send + Sync + 'static {
    /// A move of this game. Cheap to copy; only meaningful in the position
    /// that generated it.
    type Move: Copy + Eq + Hash + Debug + Send + Sync + 'static;

    /// Which game this is.
    fn variant(&self) -> Variant;

    /// The side to move.
    fn turn(&self) -> Color;

    /// `true` when the side to move is in check.
    fn is_check(&self) -> bool;

    /// Clears `out` and fills it with every legal move. Taking a buffer lets
    /// a search reuse one allocation per ply.
    fn legal_moves_into(&self, out: &mut Vec<Self::Move>);

    /// Plays a move that [`Game::legal_moves_into`] produced for this
    /// position. Any other move leaves the position unspecified (but never
    /// causes undefined behaviour or a panic).
    fn play(&mut self, mv: Self::Move);

    /// The Zobrist key of everything that defines the position for
    /// repetition (placement, side to move, castling, en passant).
    fn zobrist(&self) -> u64;

    /// The position in Fairy-Stockfish's FEN.
    fn fen(&self) -> String;

    /// The move in UCI coordinates, as Fairy-Stockfish writes it.
    fn move_to_uci(&self, mv: Self::Move) -> String;

    /// Parses a UCI move and checks it against this position.
    ///
    /// # Errors
    ///
    /// [`MoveError::Syntax`] for text that is no UCI move,
    /// [`MoveError::Illegal`] for a move this position does not allow.
    fn parse_uci(&self, uci: &str) -> Result<Self::Move, MoveError>;

    /// `true` when the move takes (or, in Atomic, explodes) something.
    fn is_capture(&self, mv: Self::Move) -> bool;

    /// The end of the game decided by this position alone (mate, stalemate,
    /// exploded king, destroyed horde, insufficient material). Endings that
    /// need the game's history (repetition, move counters, Xiangqi's
    /// perpetual rules) belong to the game record.
    fn outcome(&self) -> Option<Outcome>;

    /// Number of leaf nodes of the legal move tree `depth` plies deep.
    fn perft(&self, depth: u32) -> u64;
}
