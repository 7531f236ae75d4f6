//! Import: a pasted PGN (8×8 games) or FEN (all four games) read into a
//! game, with errors that say what is wrong and where.

use chessplayx_rules::{
    AnyGame, OpenError, Variant,
    chess::{Atomic, Horde, ParsePgnError, PgnGame, PgnReplayError, Standard},
};

/// A game read from text.
#[derive(Debug)]
pub(crate) struct Imported {
    /// The game, its moves played.
    pub(crate) game: AnyGame,
    /// The start FEN when the text gave one (`None`: the variant's start).
    pub(crate) fen: Option<String>,
    /// The PGN's tags, in order (none for a FEN).
    pub(crate) headers: Vec<(String, String)>,
}

/// Why a text could not be imported.
#[derive(Debug, thiserror::Error)]
pub(crate) enum ImportError {
    /// Nothing but white space.
    #[error("the text is empty: paste a PGN or a FEN")]
    Empty,
    /// The PGN's syntax.
    #[error(transparent)]
    Pgn(#[from] ParsePgnError),
    /// The PGN's `Variant` tag names no game played here.
    #[error("the Variant tag {0:?} is not a game played here (chess, horde, atomic, xiangqi)")]
    UnknownVariant(String),
    /// A PGN for Xiangqi (its records are WXF, read as a FEN only).
    #[error("PGN import is for chess, Horde and Atomic; for Xiangqi paste a FEN")]
    XiangqiPgn,
    /// The FEN (alone, or the PGN's `FEN` tag) is not a legal position.
    #[error("{0}")]
    Fen(String),
    /// A move of the PGN cannot be played (its ply, text and place).
    #[error("{0}")]
    Move(PgnReplayError),
}

impl From<PgnReplayError> for ImportError {
    fn from(e: PgnReplayError) -> Self {
        match e {
            PgnReplayError::Fen(f) => {
                Self::Fen(format!("the FEN tag is not a legal position: {f}"))
            }
            e @ PgnReplayError::Move { .. } => Self::Move(e),
        }
    }
}

impl From<OpenError> for ImportError {
    fn from(e: OpenError) -> Self {
        Self::Fen(e.to_string())
    }
}

/// Whether `text` is a FEN rather than a PGN: one line whose first field
/// is a board (ranks joined by `/`), with no tag or move number.
fn looks_like_fen(text: &str) -> bool {
    !text.contains('\n')
        && !text.starts_with('[')
        && text
            .split_whitespace()
            .next()
            .is_some_and(|board| board.contains('/') && !board.contains('.'))
}

/// The game a FEN is for when the client did not say: ten ranks are a
/// Xiangqi board, eight ranks with a black king but no white one a Horde
/// position, anything else chess. Only the board's shape is read; the
/// rules then judge the position.
fn fen_variant(fen: &str) -> Variant {
    let board = fen.split_whitespace().next().unwrap_or_default();
    match board.split('/').count() {
        10 => Variant::Xiangqi,
        8 if !board.contains('K') && board.contains('k') => Variant::Horde,
        _ => Variant::Chess,
    }
}

/// Reads `text` as a FEN or a PGN game. `variant` overrides the PGN's
/// `Variant` tag (or the shape of a FEN, [`fen_variant`]); without both
/// the game is chess.
///
/// # Errors
///
/// [`ImportError`] saying what is wrong and where.
pub(crate) fn import(text: &str, variant: Option<Variant>) -> Result<Imported, ImportError> {
    let text = text.trim();
    if text.is_empty() {
        return Err(ImportError::Empty);
    }
    if looks_like_fen(text) {
        let game = AnyGame::new(variant.unwrap_or_else(|| fen_variant(text)), Some(text))?;
        return Ok(Imported {
            fen: Some(game.start_fen()),
            game,
            headers: Vec::new(),
        });
    }
    let parsed = PgnGame::parse(text)?;
    let variant = match (variant, parsed.tag("Variant")) {
        (Some(v), _) => v,
        (None, None) => Variant::Chess,
        (None, Some(name)) if name.eq_ignore_ascii_case("from position") => Variant::Chess,
        (None, Some(name)) => name
            .parse()
            .map_err(|_| ImportError::UnknownVariant(name.to_owned()))?,
    };
    let game = match variant {
        Variant::Chess => AnyGame::Chess(parsed.replay::<Standard>()?),
        Variant::Horde => AnyGame::Horde(parsed.replay::<Horde>()?),
        Variant::Atomic => AnyGame::Atomic(parsed.replay::<Atomic>()?),
        Variant::Xiangqi => return Err(ImportError::XiangqiPgn),
    };
    Ok(Imported {
        fen: parsed.tag("FEN").map(|_| game.start_fen()),
        game,
        headers: parsed.tags().to_vec(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fens_and_pgns_are_told_apart() {
        assert!(looks_like_fen("8/8/8/8/8/8/8/K6k w - - 0 1"));
        assert!(looks_like_fen(
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w"
        ));
        assert!(!looks_like_fen("1. e4 e5"));
        assert!(!looks_like_fen("[FEN \"8/8/8/8/8/8/8/K6k w - - 0 1\"]\n*"));
    }

    #[test]
    fn a_fen_without_a_variant_is_read_by_the_shape_of_its_board() {
        let of = |fen: &str| import(fen, None).unwrap().game.variant();
        assert_eq!(
            of("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1"),
            Variant::Xiangqi
        );
        assert_eq!(of("8/P5k1/8/8/8/8/8/8 w - - 0 1"), Variant::Horde);
        assert_eq!(of("8/P5k1/8/8/8/8/6K1/8 w - - 0 1"), Variant::Chess);
        assert_eq!(
            import("8/P5k1/8/8/8/8/6K1/8 w - - 0 1", Some(Variant::Atomic))
                .unwrap()
                .game
                .variant(),
            Variant::Atomic,
            "a chosen variant wins over the shape"
        );
    }

    #[test]
    fn the_variant_tag_chooses_the_rules_unless_overridden() {
        let pgn = "[Variant \"Horde\"]\n1. e5 *";
        assert_eq!(import(pgn, None).unwrap().game.variant(), Variant::Horde);
        assert!(matches!(
            import("[Variant \"Crazyhouse\"]\n*", None),
            Err(ImportError::UnknownVariant(_))
        ));
        assert!(matches!(
            import("1. e4 *", Some(Variant::Xiangqi)),
            Err(ImportError::XiangqiPgn)
        ));
    }
}
