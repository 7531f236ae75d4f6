//! PGN export of a [`ChessGame`], as lichess writes it and python-chess
//! reads it.

use core::fmt::Write as _;

use super::{record::ChessGame, rules::Rules};
use crate::{Color, Outcome, Variant};

/// Widest line of the movetext, trailing space included (python-chess's
/// `columns=80`, which leaves at most 79 visible characters).
const COLUMNS: usize = 80;

/// The roster tags the caller may set, with their value when unset.
const ROSTER: [(&str, &str); 6] = [
    ("Event", "?"),
    ("Site", "?"),
    ("Date", "????.??.??"),
    ("Round", "?"),
    ("White", "?"),
    ("Black", "?"),
];

/// Tags the record itself decides.
const RESERVED: [&str; 3] = ["Variant", "FEN", "SetUp"];

/// Tags for a PGN export, set by name. Names and values are checked when
/// set, so every `PgnTags` exports as valid PGN.
///
/// `Result` and `Termination` may be set to record a game-level ending
/// the record does not know (a resignation: `Result "0-1"`,
/// `Termination "Normal"`; a flag: `Termination "Time forfeit"`); they
/// then replace what the record would write.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PgnTags {
    tags: Vec<(String, String)>,
}

/// A tag that cannot go into a PGN export.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PgnTagError {
    /// A tag name must be letters, digits and `_`, starting with a letter.
    #[error("invalid pgn tag name {name:?}")]
    InvalidName {
        /// The name given.
        name: String,
    },
    /// A tag value may not contain line breaks or other control
    /// characters.
    #[error("invalid value {value:?} for pgn tag {name}")]
    InvalidValue {
        /// The tag.
        name: String,
        /// The value given.
        value: String,
    },
    /// `Result` must be `1-0`, `0-1`, `1/2-1/2` or `*`.
    #[error("invalid pgn result {value:?} (expected 1-0, 0-1, 1/2-1/2 or *)")]
    InvalidResult {
        /// The value given.
        value: String,
    },
    /// `Variant`, `FEN` and `SetUp` follow from the game and cannot be
    /// set.
    #[error("pgn tag {name} is written from the game and cannot be set")]
    Reserved {
        /// The tag.
        name: String,
    },
}

impl PgnTags {
    /// No tags: the roster will read `?`.
    #[must_use]
    pub fn new() -> Self {
        Self::default()
    }

    /// Sets a tag, replacing any earlier value of the same name.
    ///
    /// # Errors
    ///
    /// [`PgnTagError`] for a malformed name or value, an invalid result,
    /// or a tag the game decides.
    pub fn set(&mut self, name: &str, value: &str) -> Result<&mut Self, PgnTagError> {
        let valid_name = name.chars().next().is_some_and(|c| c.is_ascii_alphabetic())
            && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
        if !valid_name {
            return Err(PgnTagError::InvalidName { name: name.into() });
        }
        if RESERVED.contains(&name) {
            return Err(PgnTagError::Reserved { name: name.into() });
        }
        if value.chars().any(char::is_control) {
            return Err(PgnTagError::InvalidValue {
                name: name.into(),
                value: value.into(),
            });
        }
        if name == "Result" && !["1-0", "0-1", "1/2-1/2", "*"].contains(&value) {
            return Err(PgnTagError::InvalidResult {
                value: value.into(),
            });
        }
        match self.tags.iter_mut().find(|(n, _)| n == name) {
            Some((_, v)) => value.clone_into(v),
            None => self.tags.push((name.into(), value.into())),
        }
        Ok(self)
    }

    /// [`PgnTags::set`] for building in one expression.
    ///
    /// # Errors
    ///
    /// As [`PgnTags::set`].
    pub fn with(mut self, name: &str, value: &str) -> Result<Self, PgnTagError> {
        self.set(name, value)?;
        Ok(self)
    }

    /// The value of a tag, if set.
    #[must_use]
    pub fn get(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }
}

/// The PGN result token of an outcome (`*` while the game goes on).
const fn result_token(outcome: Option<Outcome>) -> &'static str {
    match outcome {
        None => "*",
        Some(Outcome { winner: None, .. }) => "1/2-1/2",
        Some(Outcome {
            winner: Some(Color::White),
            ..
        }) => "1-0",
        Some(Outcome {
            winner: Some(Color::Black),
            ..
        }) => "0-1",
    }
}

/// Writes one PGN tag pair, its value escaped. Shared with every other
/// PGN-layout writer (the server's export, Xiangqi's WXF text) so that
/// the layout is written in one place.
pub fn write_pgn_tag(out: &mut String, name: &str, value: &str) {
    let escaped = value.replace('\\', "\\\\").replace('"', "\\\"");
    let _ = writeln!(out, "[{name} \"{escaped}\"]");
}

/// Writes PGN movetext: the moves numbered from `number` with `turn` to
/// move first (`N...` before a first move by Black), then `{ comment }`
/// when given, then the result token, wrapped at 80 columns and ending
/// with a newline.
pub fn write_pgn_movetext<M: core::fmt::Display>(
    out: &mut String,
    mut turn: Color,
    mut number: u32,
    moves: &[M],
    comment: Option<&str>,
    result: &str,
) {
    let mut tokens = Vec::with_capacity(moves.len() * 3 / 2 + 2);
    for (i, mv) in moves.iter().enumerate() {
        match turn {
            Color::White => tokens.push(format!("{number}.")),
            Color::Black if i == 0 => tokens.push(format!("{number}...")),
            Color::Black => {}
        }
        tokens.push(mv.to_string());
        if turn == Color::Black {
            number = number.saturating_add(1);
        }
        turn = turn.other();
    }
    if let Some(c) = comment {
        tokens.push(format!("{{ {c} }}"));
    }
    tokens.push(result.to_owned());
    out.push_str(&wrap(&tokens));
}

/// Joins tokens with spaces into lines no wider than [`COLUMNS`] with a
/// trailing space, breaking only between tokens.
fn wrap(tokens: &[String]) -> String {
    let mut out = String::new();
    let mut line = String::new();
    for token in tokens {
        if !line.is_empty() && line.len() + 1 + token.len() + 1 > COLUMNS {
            out.push_str(&line);
            out.push('\n');
            line.clear();
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(token);
    }
    out.push_str(&line);
    out.push('\n');
    out
}

impl<R: Rules> ChessGame<R> {
    /// The game as PGN, ending with a newline, laid out as lichess
    /// exports and python-chess reads it.
    ///
    /// The tag section has the Seven Tag Roster first (unset values are
    /// `?`, the date `????.??.??`), then `Variant` (`Standard`, `Horde`,
    /// `Atomic`, always written, as lichess does), `FEN` and `SetUp "1"`
    /// when the game did not start from the standard chess position (so
    /// every Horde game has them), `Termination` (`Normal` once the game
    /// has ended, `Unterminated` before), then the caller's other tags in
    /// the order they were set. The movetext is SAN with move numbers
    /// (`1... e5` when Black starts), a comment naming the
    /// [`EndReason`](crate::EndReason) after the last move once the game
    /// has ended (`{ checkmate }`), and the result. Lines are wrapped
    /// between tokens so that none exceeds 79 characters, as the PGN
    /// export format asks and python-chess writes.
    ///
    /// ```
    /// use chessplayx_rules::chess::{PgnTags, StandardGame};
    ///
    /// let mut game = StandardGame::new();
    /// for san in ["f3", "e5", "g4", "Qh4#"] {
    ///     game.play_san(san)?;
    /// }
    /// let pgn = game.pgn(&PgnTags::new().with("White", "Alice")?);
    /// assert!(pgn.contains("[White \"Alice\"]\n"));
    /// assert!(pgn.ends_with("\n1. f3 e5 2. g4 Qh4# { checkmate } 0-1\n"));
    /// # Ok::<_, Box<dyn std::error::Error>>(())
    /// ```
    #[must_use]
    pub fn pgn(&self, tags: &PgnTags) -> String {
        let outcome = self.outcome();
        let result = tags.get("Result").unwrap_or_else(|| result_token(outcome));
        let mut out = String::new();
        for (name, default) in ROSTER {
            write_pgn_tag(&mut out, name, tags.get(name).unwrap_or(default));
        }
        write_pgn_tag(&mut out, "Result", result);
        write_pgn_tag(&mut out, "Variant", R::VARIANT.pgn_name());
        let start_fen = self.start_fen();
        if start_fen != Variant::Chess.start_fen() {
            write_pgn_tag(&mut out, "FEN", &start_fen);
            write_pgn_tag(&mut out, "SetUp", "1");
        }
        let termination = if outcome.is_some() || tags.get("Result").is_some_and(|r| r != "*") {
            "Normal"
        } else {
            "Unterminated"
        };
        write_pgn_tag(
            &mut out,
            "Termination",
            tags.get("Termination").unwrap_or(termination),
        );
        for (name, value) in &tags.tags {
            let written =
                ROSTER.iter().any(|(n, _)| n == name) || name == "Result" || name == "Termination";
            if !written {
                write_pgn_tag(&mut out, name, value);
            }
        }
        out.push('\n');

        let start = self.start();
        let reason = outcome.map(|o| o.reason.to_string());
        write_pgn_movetext(
            &mut out,
            start.turn(),
            start.fullmoves(),
            self.san_moves(),
            reason.as_deref(),
            result,
        );
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wrap_keeps_lines_within_79_characters() {
        let tokens: Vec<String> = (0..200).map(|i| "x".repeat(i % 9 + 1)).collect();
        let text = wrap(&tokens);
        let lines: Vec<&str> = text.lines().collect();
        assert!(lines.len() > 5);
        for pair in lines.windows(2) {
            assert!(pair[0].len() <= 79, "{:?}", pair[0]);
            // Breaking earlier than needed would also be wrong: the next
            // token did not fit.
            let next = pair[1].split(' ').next().unwrap_or_default();
            assert!(pair[0].len() + 1 + next.len() > 79);
        }
        assert_eq!(text.split_whitespace().count(), tokens.len());
    }

    #[test]
    fn tags_are_checked() {
        let mut tags = PgnTags::new();
        assert!(tags.set("White", "Alice \"A\" \\o/").is_ok());
        assert!(matches!(
            tags.set("Bad Name", "x"),
            Err(PgnTagError::InvalidName { .. })
        ));
        assert!(matches!(
            tags.set("", "x"),
            Err(PgnTagError::InvalidName { .. })
        ));
        assert!(matches!(
            tags.set("Event", "a\nb"),
            Err(PgnTagError::InvalidValue { .. })
        ));
        assert!(matches!(
            tags.set("Result", "2-0"),
            Err(PgnTagError::InvalidResult { .. })
        ));
        assert!(matches!(
            tags.set("FEN", "8/8/8/8/8/8/8/8 w - - 0 1"),
            Err(PgnTagError::Reserved { .. })
        ));
        tags.set("White", "Bob").unwrap();
        assert_eq!(tags.get("White"), Some("Bob"));
        let mut out = String::new();
        write_pgn_tag(&mut out, "White", "Alice \"A\" \\o/");
        assert_eq!(out, "[White \"Alice \\\"A\\\" \\\\o/\"]\n");
    }
}
