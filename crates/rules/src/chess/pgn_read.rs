//! Reading a PGN game, in two steps like every other input of this crate:
//! [`PgnGame::parse`] reads the text (tags, movetext tokens; comments,
//! variations, NAGs and move numbers skipped) and checks each move for SAN
//! syntax only; [`PgnGame::replay`] then plays the moves on the game's
//! start position, which is where illegal and ambiguous moves show.
//!
//! Every error says where: the 1-based line and column of the text for
//! syntax, the ply, the SAN and its place for an illegal move. The reader
//! never panics and reads each byte once, so it is safe on any input (the
//! `pgn_read` fuzz target and a seeded mangling test check that).
//!
//! Only the first game of the text is read: reading stops at its result
//! token (`1-0`, `0-1`, `1/2-1/2`, `*`).
//!
//! ```
//! use chessplayx_rules::chess::{PgnGame, Standard};
//!
//! let pgn = "[White \"Anna\"]\n\n1. e4 {best by test} e5 (1... c5) 2. Nf3 $1 *";
//! let parsed = PgnGame::parse(pgn)?;
//! assert_eq!(parsed.tag("White"), Some("Anna"));
//! let game = parsed.replay::<Standard>()?;
//! assert_eq!(game.sans(), ["e4", "e5", "Nf3"]);
//! # Ok::<_, Box<dyn std::error::Error>>(())
//! ```

use core::fmt;

use super::{
    position::FenError,
    record::{ChessGame, PlaySanError},
    rules::Rules,
    san::{ParseSanError, SanPlus},
};

/// The most bytes [`PgnGame::parse`] reads: far more than any one game
/// (a 300-move game with comments is about 10 KB).
pub const MAX_PGN_LEN: usize = 256 * 1024;

/// The most moves (plies) of one game [`PgnGame::parse`] accepts: the
/// server's limit for a game it replays or analyses.
pub const MAX_PGN_MOVES: usize = 1_000;

/// The most tags [`PgnGame::parse`] keeps.
const MAX_TAGS: usize = 64;

/// A place in the text: 1-based line and column (columns count
/// characters, not bytes).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct TextPos {
    /// The line, from 1.
    pub line: usize,
    /// The column, from 1.
    pub column: usize,
}

impl fmt::Display for TextPos {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}, column {}", self.line, self.column)
    }
}

/// A move of the movetext: well-formed SAN, not yet checked against a
/// position, with where it stands in the text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PgnMove {
    /// The move.
    pub san: SanPlus,
    /// The text as written (`Nf3!`, `0-0`).
    pub text: String,
    /// Where it starts.
    pub at: TextPos,
}

/// A PGN game whose syntax has been read: its tags and its main line.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PgnGame {
    tags: Vec<(String, String)>,
    moves: Vec<PgnMove>,
    result: Option<String>,
}

/// What is wrong with the text of a PGN game.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ParsePgnError {
    /// The text is longer than [`MAX_PGN_LEN`] bytes.
    #[error("the text is {len} bytes long; at most {MAX_PGN_LEN} are read")]
    TooLong {
        /// Its length.
        len: usize,
    },
    /// The game has more than [`MAX_PGN_MOVES`] moves.
    #[error("{at}: more than {MAX_PGN_MOVES} moves")]
    TooManyMoves {
        /// Where the first move too many starts.
        at: TextPos,
    },
    /// There are no moves and no tags: this is not PGN.
    #[error("no PGN game found (expected tags like [White \"...\"] or moves like 1. e4)")]
    Empty,
    /// A tag pair is not `[Name "value"]`.
    #[error("{at}: malformed tag pair ({what})")]
    BadTag {
        /// Where the tag starts.
        at: TextPos,
        /// What is wrong.
        what: &'static str,
    },
    /// A `{` comment is not closed.
    #[error("{at}: comment not closed (a '{{' without its '}}')")]
    UnclosedComment {
        /// Where it opens.
        at: TextPos,
    },
    /// A `(` variation is not closed.
    #[error("{at}: variation not closed (a '(' without its ')')")]
    UnclosedVariation {
        /// Where it opens.
        at: TextPos,
    },
    /// A `)` closes no variation.
    #[error("{at}: ')' closes no variation")]
    UnopenedVariation {
        /// Where it stands.
        at: TextPos,
    },
    /// A character that has no place in movetext.
    #[error("{at}: unexpected character {ch:?}")]
    UnexpectedChar {
        /// Where it stands.
        at: TextPos,
        /// The character.
        ch: char,
    },
    /// A token that should be a move is not SAN.
    #[error("{at}: '{text}' is not a move ({source})")]
    BadSan {
        /// Where it starts.
        at: TextPos,
        /// The token.
        text: String,
        /// What is wrong with it.
        source: ParseSanError,
    },
}

/// Why the moves of a well-formed PGN game cannot be played.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PgnReplayError {
    /// The `FEN` tag is not a legal position of the game.
    #[error("the FEN tag is not a legal position: {0}")]
    Fen(#[from] FenError),
    /// A move is illegal, ambiguous, or comes after the end of the game.
    #[error("{at}: move {ply} '{text}' cannot be played ({source})")]
    Move {
        /// The 1-based ply of the move in the game.
        ply: usize,
        /// The move as written.
        text: String,
        /// Where it stands.
        at: TextPos,
        /// Why.
        source: PlaySanError,
    },
}

/// A byte reader that knows its line and column.
struct Cursor<'a> {
    src: &'a str,
    text: &'a [u8],
    index: usize,
    line: usize,
    column: usize,
}

impl<'a> Cursor<'a> {
    const fn new(text: &'a str) -> Self {
        Self {
            src: text,
            text: text.as_bytes(),
            index: 0,
            line: 1,
            column: 1,
        }
    }

    const fn pos(&self) -> TextPos {
        TextPos {
            line: self.line,
            column: self.column,
        }
    }

    fn peek(&self) -> Option<u8> {
        self.text.get(self.index).copied()
    }

    /// The character at the cursor (the text is UTF-8, so this is whole).
    fn peek_char(&self) -> char {
        self.src
            .get(self.index..)
            .and_then(|s| s.chars().next())
            .unwrap_or(char::REPLACEMENT_CHARACTER)
    }

    fn bump(&mut self) -> Option<u8> {
        let b = self.peek()?;
        self.index += 1;
        if b == b'\n' {
            self.line += 1;
            self.column = 1;
        } else if b & 0xC0 != 0x80 {
            // A UTF-8 continuation byte belongs to the previous column.
            self.column += 1;
        }
        Some(b)
    }

    /// Moves past bytes while `keep` holds; returns them.
    fn take_while(&mut self, keep: impl Fn(u8) -> bool) -> &'a [u8] {
        let start = self.index;
        while self.peek().is_some_and(&keep) {
            self.bump();
        }
        self.text.get(start..self.index).unwrap_or_default()
    }

    /// Skips a `{...}` comment (the cursor at its `{`).
    fn skip_brace_comment(&mut self) -> Result<(), ParsePgnError> {
        let at = self.pos();
        self.bump();
        loop {
            match self.bump() {
                Some(b'}') => return Ok(()),
                Some(_) => {}
                None => return Err(ParsePgnError::UnclosedComment { at }),
            }
        }
    }

    /// Skips to the end of the line (`;` comments, `%` escapes).
    fn skip_line(&mut self) {
        while let Some(b) = self.bump() {
            if b == b'\n' {
                break;
            }
        }
    }
}

/// Bytes a SAN token (with annotations) is made of.
const fn is_token_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || matches!(b, b'=' | b'+' | b'#' | b'!' | b'?' | b'-' | b'/' | b'*')
}

impl PgnGame {
    /// Reads the syntax of the first game in `text`.
    ///
    /// # Errors
    ///
    /// [`ParsePgnError`] with the line and column of what is wrong.
    pub fn parse(text: &str) -> Result<Self, ParsePgnError> {
        if text.len() > MAX_PGN_LEN {
            return Err(ParsePgnError::TooLong { len: text.len() });
        }
        let mut cur = Cursor::new(text);
        let mut game = Self::default();
        // Open variations: where each opened, innermost last.
        let mut variations: Vec<TextPos> = Vec::new();
        while let Some(b) = cur.peek() {
            let at = cur.pos();
            match b {
                b if b.is_ascii_whitespace() => {
                    cur.bump();
                }
                b'%' if at.column == 1 => cur.skip_line(),
                b';' => cur.skip_line(),
                b'{' => cur.skip_brace_comment()?,
                b'[' if variations.is_empty() && game.moves.is_empty() => {
                    let tag = read_tag(&mut cur)?;
                    if game.tags.len() < MAX_TAGS {
                        game.tags.push(tag);
                    }
                }
                b'(' => {
                    cur.bump();
                    variations.push(at);
                }
                b')' => {
                    cur.bump();
                    if variations.pop().is_none() {
                        return Err(ParsePgnError::UnopenedVariation { at });
                    }
                }
                b'$' => {
                    cur.bump();
                    cur.take_while(|b| b.is_ascii_digit());
                }
                b'.' => {
                    cur.bump();
                }
                b if is_token_byte(b) => {
                    let token = cur.take_while(is_token_byte);
                    if variations.is_empty() && game.token(token, at)? {
                        return game.finish();
                    }
                }
                _ => {
                    return Err(ParsePgnError::UnexpectedChar {
                        at,
                        ch: cur.peek_char(),
                    });
                }
            }
        }
        if let Some(&at) = variations.first() {
            return Err(ParsePgnError::UnclosedVariation { at });
        }
        game.finish()
    }

    fn finish(self) -> Result<Self, ParsePgnError> {
        if self.tags.is_empty() && self.moves.is_empty() && self.result.is_none() {
            return Err(ParsePgnError::Empty);
        }
        Ok(self)
    }

    /// Takes one movetext token of the main line; `true` when it is the
    /// game's result (the end of the game).
    fn token(&mut self, token: &[u8], at: TextPos) -> Result<bool, ParsePgnError> {
        if matches!(token, b"1-0" | b"0-1" | b"1/2-1/2" | b"*") {
            self.result = Some(String::from_utf8_lossy(token).into_owned());
            return Ok(true);
        }
        // A move number, `12` (its dots are skipped on their own).
        if token.iter().all(u8::is_ascii_digit) {
            return Ok(false);
        }
        let text = String::from_utf8_lossy(token).into_owned();
        let san = SanPlus::from_ascii(token).map_err(|source| ParsePgnError::BadSan {
            at,
            text: text.clone(),
            source,
        })?;
        if self.moves.len() >= MAX_PGN_MOVES {
            return Err(ParsePgnError::TooManyMoves { at });
        }
        self.moves.push(PgnMove { san, text, at });
        Ok(false)
    }

    /// The tags, in the order written.
    #[must_use]
    pub fn tags(&self) -> &[(String, String)] {
        &self.tags
    }

    /// The value of tag `name` (the first if repeated).
    #[must_use]
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    /// The moves of the main line.
    #[must_use]
    pub fn moves(&self) -> &[PgnMove] {
        &self.moves
    }

    /// The result token that ended the movetext, if any.
    #[must_use]
    pub fn result(&self) -> Option<&str> {
        self.result.as_deref()
    }

    /// Plays the moves from the `FEN` tag's position (the variant's start
    /// when there is none) under the rules `R`.
    ///
    /// # Errors
    ///
    /// [`PgnReplayError`]: a bad `FEN` tag, or the first move that cannot
    /// be played, with its ply and place.
    pub fn replay<R: Rules>(&self) -> Result<ChessGame<R>, PgnReplayError> {
        let mut game = match self.tag("FEN") {
            Some(fen) => ChessGame::from_fen(fen)?,
            None => ChessGame::new(),
        };
        for (i, mv) in self.moves.iter().enumerate() {
            game.play_san(&mv.san.san.to_string())
                .map_err(|source| PgnReplayError::Move {
                    ply: i + 1,
                    text: mv.text.clone(),
                    at: mv.at,
                    source,
                })?;
        }
        Ok(game)
    }
}

/// Reads `[Name "value"]` (the cursor at its `[`). The value's `\"` and
/// `\\` escapes are undone.
fn read_tag(cur: &mut Cursor<'_>) -> Result<(String, String), ParsePgnError> {
    let at = cur.pos();
    let bad = |what| ParsePgnError::BadTag { at, what };
    cur.bump();
    cur.take_while(|b| b == b' ' || b == b'\t');
    let name = cur.take_while(|b| b.is_ascii_alphanumeric() || b == b'_');
    if name.is_empty() {
        return Err(bad("no tag name"));
    }
    let name = String::from_utf8_lossy(name).into_owned();
    cur.take_while(|b| b == b' ' || b == b'\t');
    if cur.bump() != Some(b'"') {
        return Err(bad("the value must be in double quotes"));
    }
    let mut value = Vec::new();
    loop {
        match cur.bump() {
            Some(b'"') => break,
            Some(b'\\') => match cur.bump() {
                Some(b @ (b'"' | b'\\')) => value.push(b),
                Some(b'\n') | None => return Err(bad("the value is not closed")),
                Some(b) => value.extend([b'\\', b]),
            },
            Some(b'\n') | None => return Err(bad("the value is not closed")),
            Some(b) => value.push(b),
        }
    }
    cur.take_while(|b| b == b' ' || b == b'\t');
    if cur.bump() != Some(b']') {
        return Err(bad("no closing ']'"));
    }
    Ok((name, String::from_utf8_lossy(&value).into_owned()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chess::{Atomic, Standard};

    const GAME: &str = r#"[Event "Casual"]
[White "A \"quoted\" name"]
[Black "B"]

% an escaped line 1. h4
1. e4 e5 {a comment (with a paren} 2. Nf3 $1 Nc6 (2... d6 3. d4 (3. Bc4)) ; rest of line
3. Bb5!? a6 4. Ba4 Nf6 5. O-O Be7 1-0

[Event "second game, ignored"]
"#;

    #[test]
    fn tags_comments_variations_and_nags_are_read_or_skipped() {
        let parsed = PgnGame::parse(GAME).unwrap();
        assert_eq!(parsed.tag("White"), Some("A \"quoted\" name"));
        assert_eq!(parsed.tags().len(), 3);
        assert_eq!(parsed.result(), Some("1-0"));
        let game = parsed.replay::<Standard>().unwrap();
        assert_eq!(
            game.sans(),
            [
                "e4", "e5", "Nf3", "Nc6", "Bb5", "a6", "Ba4", "Nf6", "O-O", "Be7"
            ]
        );
        assert_eq!(parsed.moves()[4].text, "Bb5!?");
        assert_eq!(parsed.moves()[4].at, TextPos { line: 7, column: 4 });
    }

    #[test]
    fn syntax_errors_name_line_and_column() {
        let err = PgnGame::parse("1. e4 e5\n2. Nf9 Nc6").unwrap_err();
        assert!(
            matches!(&err, ParsePgnError::BadSan { at: TextPos { line: 2, column: 4 }, text, .. } if text == "Nf9"),
            "{err:?}"
        );
        assert!(
            err.to_string().starts_with("line 2, column 4: 'Nf9'"),
            "{err}"
        );
        let cases = [
            ("1. e4 { open", 1, 7),
            ("1. e4 (1. d4", 1, 7),
            ("1. e4 )", 1, 7),
            ("[White \"x]\n1. e4", 1, 1),
            ("[White x]", 1, 1),
            ("1. e4 <e5>", 1, 7),
        ];
        for (text, line, column) in cases {
            let err = PgnGame::parse(text).unwrap_err();
            assert!(
                err.to_string()
                    .starts_with(&format!("line {line}, column {column}:")),
                "{text:?}: {err}"
            );
        }
        assert_eq!(PgnGame::parse("  \n"), Err(ParsePgnError::Empty));
        let shuffle = ["Nf3", "Nf6", "Ng1", "Ng8"];
        let long: Vec<&str> = shuffle
            .iter()
            .copied()
            .cycle()
            .take(MAX_PGN_MOVES)
            .collect();
        assert_eq!(
            PgnGame::parse(&long.join(" ")).map(|g| g.moves().len()),
            Ok(MAX_PGN_MOVES)
        );
        let too_long = format!("{} Nf3", long.join(" "));
        assert!(matches!(
            PgnGame::parse(&too_long),
            Err(ParsePgnError::TooManyMoves { .. })
        ));
    }

    #[test]
    fn illegal_moves_name_ply_and_place() {
        let parsed = PgnGame::parse("1. e4 e5 2. Ke3 Nc6").unwrap();
        let err = parsed.replay::<Standard>().unwrap_err();
        assert!(
            matches!(
                &err,
                PgnReplayError::Move {
                    ply: 3,
                    at: TextPos {
                        line: 1,
                        column: 13
                    },
                    ..
                }
            ),
            "{err:?}"
        );
        assert!(err.to_string().contains("move 3 'Ke3'"), "{err}");
    }

    #[test]
    fn the_fen_tag_sets_the_start_and_the_rules_decide() {
        let pgn = "[Variant \"Atomic\"]\n[FEN \"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\"]\n1. Nf3 d5 2. Ne5 Nf6 3. Nxf7 *";
        let game = PgnGame::parse(pgn).unwrap().replay::<Atomic>().unwrap();
        assert!(game.outcome().is_some(), "Nxf7 explodes the black king");
        let bad = PgnGame::parse("[FEN \"8/8/8 w - - 0 1\"]\n*").unwrap();
        assert!(matches!(
            bad.replay::<Standard>(),
            Err(PgnReplayError::Fen(_))
        ));
    }

    /// Thousands of mangled games (bytes dropped, duplicated, replaced,
    /// truncated) from a fixed seed: the reader answers every one without
    /// a panic, and the ones it accepts replay without one.
    #[test]
    fn mangled_text_never_panics() {
        let alphabet = b"[]{}()\"\\;%$.!?+#=-/*0123456789 \nabcdefghKQRBNOPx\xc3\xa9";
        let mut state = 0x9E37_79B9_7F4A_7C15_u64;
        let mut next = move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        let mut accepted = 0;
        for _ in 0..5_000 {
            let mut bytes = GAME.as_bytes().to_vec();
            for _ in 0..(next() % 6 + 1) {
                let len = bytes.len().max(1) as u64;
                let i = (next() % len) as usize;
                match next() % 4 {
                    0 if i < bytes.len() => {
                        bytes.remove(i);
                    }
                    1 => bytes.insert(i.min(bytes.len()), alphabet[(next() % 32) as usize]),
                    2 if i < bytes.len() => {
                        bytes[i] = alphabet[(next() % alphabet.len() as u64) as usize]
                    }
                    _ => bytes.truncate(i),
                }
            }
            let text = String::from_utf8_lossy(&bytes);
            if let Ok(parsed) = PgnGame::parse(&text) {
                accepted += 1;
                let _ = parsed.replay::<Standard>();
                let _ = parsed.replay::<Atomic>();
            }
        }
        assert!(
            accepted > 100,
            "the mangling kept some games readable: {accepted}"
        );
    }
}
