//! `chessplayx uci`: the UCI session on stdin/stdout, with a backend that
//! keeps the variant and the position and answers `go perft` and `d`.
//! Search (`go` without `perft`) belongs to the engine issue.

use std::io::{self, BufRead, Write};

use chessplayx_engine::uci::{self, GoParams, Reply, StartPosition, UciBackend, UciOption};
use chessplayx_rules::{Game, ParseVariantError, Variant};

use crate::games::{Divide, GameVisitor, OpenError, ReplayError, describe, replay, with_game};

/// The option that selects the game, named as Fairy-Stockfish names it so
/// the same tools drive both engines.
const VARIANT_OPTION: &str = "UCI_Variant";

/// Runs a UCI session until `quit` or the end of input.
///
/// # Errors
///
/// Only I/O errors on `input` or `output`.
pub(crate) fn run(input: impl BufRead, output: impl Write) -> io::Result<()> {
    uci::run(input, output, &mut Engine::default())
}

/// A position as UCI describes it: a start (FEN or the variant's start)
/// and moves already checked to be legal.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
struct PositionSpec {
    fen: Option<String>,
    moves: Vec<String>,
}

/// The backend of `chessplayx uci`.
///
/// It stores the position as text and sets it up again for each command.
/// Replaying a few hundred moves costs microseconds, far below any `go`,
/// and keeps this type independent of the concrete position types.
#[derive(Debug)]
struct Engine {
    variant: Variant,
    /// `None` after a `position` whose FEN was invalid, so a later `go`
    /// reports that instead of silently using an older position.
    position: Option<PositionSpec>,
}

impl Default for Engine {
    fn default() -> Self {
        Self {
            variant: Variant::Chess,
            position: Some(PositionSpec::default()),
        }
    }
}

/// Why a UCI command could not be carried out; printed as `info string`.
#[derive(Debug, thiserror::Error)]
enum EngineError {
    /// An option we do not have.
    #[error("no such option {name:?}")]
    UnknownOption {
        /// The name given.
        name: String,
    },
    /// An option that needs a value was given none.
    #[error("option {name} needs a value")]
    MissingValue {
        /// The option.
        name: &'static str,
    },
    /// `UCI_Variant` with a value that is not one of ours.
    #[error(transparent)]
    Variant(#[from] ParseVariantError),
    /// The FEN was rejected (or the variant is not built yet).
    #[error("position not set: {0}")]
    Open(#[from] OpenError),
    /// A move of the `position` line could not be played; the moves before
    /// it were kept.
    #[error("position set up to the move before: {0}")]
    Replay(#[from] ReplayError),
    /// `go` or `d` after a `position` command that failed.
    #[error("no position: the last `position` command was rejected")]
    NoPosition,
    /// `go` without `perft`.
    #[error("search is not built yet; only `go perft N` works")]
    SearchNotBuilt,
}

impl Engine {
    fn position(&self) -> Result<&PositionSpec, EngineError> {
        self.position.as_ref().ok_or(EngineError::NoPosition)
    }
}

/// Plays the moves and reports how many were legal, with the first error.
struct Validate<'a> {
    moves: &'a [String],
}

impl GameVisitor for Validate<'_> {
    type Output = Result<(), (usize, ReplayError)>;

    fn visit<G: Game>(self, mut game: G) -> Self::Output {
        replay(&mut game, self.moves).map_err(|e| (e.ply - 1, e))
    }
}

/// Plays the (already validated) moves, then computes the divide.
struct PerftAfter<'a> {
    moves: &'a [String],
    depth: u32,
}

impl GameVisitor for PerftAfter<'_> {
    type Output = Result<Divide, ReplayError>;

    fn visit<G: Game>(self, mut game: G) -> Self::Output {
        replay(&mut game, self.moves)?;
        Ok(Divide::of(&game, self.depth))
    }
}

/// Plays the moves, then draws the position.
struct DescribeAfter<'a> {
    moves: &'a [String],
}

impl GameVisitor for DescribeAfter<'_> {
    type Output = Result<Vec<String>, ReplayError>;

    fn visit<G: Game>(self, mut game: G) -> Self::Output {
        replay(&mut game, self.moves)?;
        Ok(describe(&game))
    }
}

impl UciBackend for Engine {
    type Error = EngineError;

    fn options(&self) -> Vec<UciOption> {
        let names = Variant::ALL.map(Variant::name);
        vec![
            UciOption::combo(VARIANT_OPTION, Variant::Chess.name(), &names)
                .expect("variant names are single lower-case words, one of them the default"),
        ]
    }

    fn set_option(&mut self, name: &str, value: Option<&str>) -> Result<(), EngineError> {
        // UCI option names are case-insensitive.
        if !name.eq_ignore_ascii_case(VARIANT_OPTION) {
            return Err(EngineError::UnknownOption {
                name: name.to_owned(),
            });
        }
        let value = value.ok_or(EngineError::MissingValue {
            name: VARIANT_OPTION,
        })?;
        self.variant = value.parse()?;
        // A position of another game means nothing in this one.
        self.position = Some(PositionSpec::default());
        Ok(())
    }

    fn new_game(&mut self) -> Result<(), EngineError> {
        self.position = Some(PositionSpec::default());
        Ok(())
    }

    fn set_position(&mut self, start: &StartPosition, moves: &[String]) -> Result<(), EngineError> {
        let fen = match start {
            StartPosition::StartPos => None,
            StartPosition::Fen(fen) => Some(fen.clone()),
        };
        self.position = None;
        let checked = with_game(self.variant, fen.as_deref(), Validate { moves })?;
        let (legal, result) = match checked {
            Ok(()) => (moves.len(), Ok(())),
            Err((legal, e)) => (legal, Err(e.into())),
        };
        self.position = Some(PositionSpec {
            fen,
            moves: moves[..legal].to_vec(),
        });
        result
    }

    fn go(&mut self, params: &GoParams, reply: &mut Reply<'_>) -> Result<(), EngineError> {
        let Some(depth) = params.perft else {
            return Err(EngineError::SearchNotBuilt);
        };
        let position = self.position()?;
        let visitor = PerftAfter {
            moves: &position.moves,
            depth,
        };
        let divide = with_game(self.variant, position.fen.as_deref(), visitor)??;
        for line in divide.fairy_lines() {
            reply.line(line);
        }
        Ok(())
    }

    fn display(&mut self, reply: &mut Reply<'_>) -> Result<(), EngineError> {
        let position = self.position()?;
        let visitor = DescribeAfter {
            moves: &position.moves,
        };
        for line in with_game(self.variant, position.fen.as_deref(), visitor)?? {
            reply.line(line);
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use chessplayx_rules::MoveError;

    use super::*;
    use crate::games::tests::nim;

    fn transcript(input: &str) -> (Vec<String>, Engine) {
        let mut engine = Engine::default();
        let mut out = Vec::new();
        uci::run(input.as_bytes(), &mut out, &mut engine).unwrap();
        let lines = String::from_utf8(out)
            .unwrap()
            .lines()
            .map(str::to_owned)
            .collect();
        (lines, engine)
    }

    #[test]
    fn advertises_every_variant_like_fairy_stockfish() {
        let (out, _) = transcript("uci\n");
        assert!(
            out.contains(
                &"option name UCI_Variant type combo default chess var chess var horde var atomic var xiangqi"
                    .to_owned()
            ),
            "{out:?}"
        );
        assert_eq!(out.last().map(String::as_str), Some("uciok"));
    }

    #[test]
    fn variant_option_selects_the_game_and_resets_the_position() {
        let mut engine = Engine {
            position: None,
            ..Engine::default()
        };
        engine.set_option("uci_variant", Some("Xiangqi")).unwrap();
        assert_eq!(engine.variant, Variant::Xiangqi);
        assert_eq!(engine.position, Some(PositionSpec::default()));
    }

    #[test]
    fn bad_options_are_reported_and_change_nothing() {
        let (out, engine) = transcript(
            "setoption name UCI_Variant value shogi\n\
             setoption name UCI_Variant\n\
             setoption name Hash value 64\n",
        );
        assert_eq!(
            out,
            [
                "info string unknown variant \"shogi\" (expected chess, horde, atomic or xiangqi)",
                "info string option UCI_Variant needs a value",
                "info string no such option \"Hash\"",
            ]
        );
        assert_eq!(engine.variant, Variant::Chess);
    }

    #[test]
    fn search_is_refused_with_a_bestmove_so_guis_do_not_hang() {
        let (out, _) = transcript("go depth 3\n");
        assert_eq!(
            out,
            [
                "info string search is not built yet; only `go perft N` works",
                "bestmove (none)"
            ]
        );
    }

    #[test]
    fn validate_keeps_the_count_of_legal_moves() {
        let moves: Vec<String> = ["take1", "take3", "take9", "take1"]
            .map(String::from)
            .to_vec();
        let (legal, err) = Validate { moves: &moves }.visit(nim(10)).unwrap_err();
        assert_eq!(legal, 2);
        assert_eq!(
            err.source,
            MoveError::Illegal {
                text: "take9".into()
            }
        );
        assert_eq!(Validate { moves: &moves[..2] }.visit(nim(10)), Ok(()));
    }

    #[test]
    fn perft_and_describe_run_after_the_moves() {
        let moves = vec!["take2".to_owned()];
        let divide = PerftAfter {
            moves: &moves,
            depth: 1,
        }
        .visit(nim(3))
        .unwrap();
        assert_eq!(divide.moves, [("take1".to_owned(), 1)]);
        let lines = DescribeAfter { moves: &moves }.visit(nim(3)).unwrap();
        assert!(lines.contains(&"Fen: 1/p1P b".to_owned()), "{lines:?}");
    }
}
