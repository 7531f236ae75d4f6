//! The UCI session loop, generic over its input, its output and the
//! backend that owns positions and search.
//!
//! The loop answers what is pure protocol itself (`uci`, `isready`, `quit`,
//! malformed lines) and delegates the rest to a [`UciBackend`]. Nothing in
//! here writes to the process's stdout directly, so tests replay whole
//! transcripts through in-memory buffers.

use core::fmt;
use std::io::{self, BufRead, Write};

use super::command::{GoParams, StartPosition, UciCommand};

/// The name we give in answer to `uci`.
const ENGINE_NAME: &str = "chessplayx";
/// The author line we give in answer to `uci`.
const ENGINE_AUTHOR: &str = "chessplayx developers";

/// What the session needs from whoever holds the position: the lead's
/// rules-backed implementation in the binary, a recording double in tests.
///
/// Methods report failures as [`UciBackend::Error`]; the loop prints them
/// as `info string <error>` and carries on, because a GUI must never see the
/// engine die over one bad command.
pub trait UciBackend {
    /// Why a command could not be carried out (bad FEN, illegal move,
    /// unknown option value...). Its `Display` is what the GUI reads.
    type Error: std::error::Error;

    /// The options to advertise after the `id` lines, in order.
    fn options(&self) -> Vec<UciOption>;

    /// `setoption name <name> [value <value>]`.
    ///
    /// # Errors
    ///
    /// Unknown option, or a value the option does not accept.
    fn set_option(&mut self, name: &str, value: Option<&str>) -> Result<(), Self::Error>;

    /// `ucinewgame`: forget anything kept between positions of one game.
    ///
    /// # Errors
    ///
    /// Whatever the backend cannot reset.
    fn new_game(&mut self) -> Result<(), Self::Error>;

    /// `position ...`: set the current position. The moves are unchecked
    /// strings; the backend checks their syntax and legality.
    ///
    /// # Errors
    ///
    /// An invalid FEN, or a malformed or illegal move (the error should say
    /// at which ply).
    fn set_position(&mut self, start: &StartPosition, moves: &[String]) -> Result<(), Self::Error>;

    /// `go ...`: count (`perft`) or search, writing every output line
    /// (`move: count`, `info ...`, `bestmove ...`) through `reply`.
    ///
    /// # Errors
    ///
    /// Parameters the backend does not support, or no position to search.
    /// After the error the loop itself prints the line that ends a `go`
    /// (`bestmove (none)`, or `Nodes searched: 0` for `go perft`), so a
    /// GUI or test tool reading up to it is not left hanging.
    fn go(&mut self, params: &GoParams, reply: &mut Reply<'_>) -> Result<(), Self::Error>;

    /// `d`: describe the current position for a person (board, FEN, ...).
    ///
    /// # Errors
    ///
    /// Whatever keeps the backend from describing its position.
    fn display(&mut self, reply: &mut Reply<'_>) -> Result<(), Self::Error>;

    /// `eval`: print the current position's static evaluation.
    ///
    /// # Errors
    ///
    /// Whatever keeps the backend from evaluating its position.
    fn eval(&mut self, reply: &mut Reply<'_>) -> Result<(), Self::Error>;

    /// `stop`. The loop runs `go` to completion before reading the next
    /// line, so a synchronous backend has nothing to stop; a backend that
    /// searches on another thread overrides this.
    fn stop(&mut self) {}
}

/// The backend's way to print lines. Output errors are kept here rather
/// than mixed into the backend's own error type; the loop checks them after
/// each command and ends the session on the first one (the GUI is gone).
pub struct Reply<'a> {
    out: &'a mut dyn Write,
    error: Option<io::Error>,
}

impl<'a> Reply<'a> {
    fn new(out: &'a mut dyn Write) -> Self {
        Self { out, error: None }
    }

    /// Writes one line (the line ending is added). After an output error
    /// further lines are dropped, since they could not reach anyone.
    pub fn line(&mut self, text: impl fmt::Display) {
        if self.error.is_none()
            && let Err(e) = writeln!(self.out, "{text}")
        {
            self.error = Some(e);
        }
    }

    /// Pushes buffered lines out now, for long searches whose `info` lines
    /// the GUI should see before `bestmove`. The loop flushes after every
    /// command anyway.
    pub fn flush(&mut self) {
        if self.error.is_none()
            && let Err(e) = self.out.flush()
        {
            self.error = Some(e);
        }
    }

    fn finish(mut self) -> io::Result<()> {
        self.flush();
        self.error.map_or(Ok(()), Err)
    }
}

impl fmt::Debug for Reply<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Reply")
            .field("error", &self.error)
            .finish_non_exhaustive()
    }
}

/// An option advertised in answer to `uci`. Built only through the checked
/// constructors, so the `option ...` line a GUI parses is always well formed
/// (a default inside its range or list, no keyword inside a name).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UciOption {
    name: String,
    kind: UciOptionKind,
}

/// The type of a [`UciOption`], with its default.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum UciOptionKind {
    /// `type check`: a boolean.
    Check {
        /// The default.
        default: bool,
    },
    /// `type spin`: an integer in `min..=max`.
    Spin {
        /// The default, inside the range.
        default: i64,
        /// The smallest value.
        min: i64,
        /// The largest value.
        max: i64,
    },
    /// `type combo`: one of a list of words.
    Combo {
        /// The default, one of `vars`.
        default: String,
        /// The accepted values.
        vars: Vec<String>,
    },
    /// `type button`: an action without a value.
    Button,
    /// `type string`: free text.
    String {
        /// The default.
        default: String,
    },
}

/// Why an option could not be built: each variant would make the `uci`
/// answer ambiguous or self-contradictory for a GUI.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum UciOptionError {
    /// The name is empty or only whitespace.
    #[error("an option needs a name")]
    EmptyName,
    /// A word of the name (or of a combo value) is one of the keywords
    /// that structure the `option` line, so a GUI could not tell where the
    /// name ends.
    #[error("{text:?} contains the keyword {keyword:?}")]
    Keyword {
        /// The offending name or value.
        text: String,
        /// The keyword found in it.
        keyword: &'static str,
    },
    /// A spin option whose default lies outside `min..=max`.
    #[error("default {default} is outside {min}..={max}")]
    SpinOutOfRange {
        /// The default.
        default: i64,
        /// The smallest value.
        min: i64,
        /// The largest value.
        max: i64,
    },
    /// A combo option whose default is not one of its values.
    #[error("default {default:?} is not one of the listed values")]
    ComboDefaultNotListed {
        /// The default.
        default: String,
    },
}

/// The words that structure an `option` line.
const OPTION_KEYWORDS: [&str; 7] = ["name", "type", "default", "min", "max", "var", "value"];

fn check_words(text: &str) -> Result<(), UciOptionError> {
    if let Some(keyword) = OPTION_KEYWORDS
        .into_iter()
        .find(|k| text.split_whitespace().any(|w| w == *k))
    {
        return Err(UciOptionError::Keyword {
            text: text.to_owned(),
            keyword,
        });
    }
    Ok(())
}

impl UciOption {
    fn build(name: &str, kind: UciOptionKind) -> Result<Self, UciOptionError> {
        if name.trim().is_empty() {
            return Err(UciOptionError::EmptyName);
        }
        check_words(name)?;
        Ok(Self {
            name: name.split_whitespace().collect::<Vec<_>>().join(" "),
            kind,
        })
    }

    /// A `check` option.
    ///
    /// # Errors
    ///
    /// An empty name, or a name containing an option-line keyword.
    pub fn check(name: &str, default: bool) -> Result<Self, UciOptionError> {
        Self::build(name, UciOptionKind::Check { default })
    }

    /// A `spin` option.
    ///
    /// # Errors
    ///
    /// A bad name, or `default` outside `min..=max`.
    pub fn spin(name: &str, default: i64, min: i64, max: i64) -> Result<Self, UciOptionError> {
        if !(min..=max).contains(&default) {
            return Err(UciOptionError::SpinOutOfRange { default, min, max });
        }
        Self::build(name, UciOptionKind::Spin { default, min, max })
    }

    /// A `combo` option.
    ///
    /// # Examples
    ///
    /// ```
    /// use chessplayx_engine::uci::UciOption;
    ///
    /// let variant = UciOption::combo("UCI_Variant", "chess", &["chess", "horde"])?;
    /// assert_eq!(
    ///     variant.to_string(),
    ///     "option name UCI_Variant type combo default chess var chess var horde"
    /// );
    /// # Ok::<_, chessplayx_engine::uci::UciOptionError>(())
    /// ```
    ///
    /// # Errors
    ///
    /// A bad name, a value containing a keyword or whitespace-only, or a
    /// default that is not one of `vars`.
    pub fn combo(name: &str, default: &str, vars: &[&str]) -> Result<Self, UciOptionError> {
        for var in vars {
            if var.trim().is_empty() {
                return Err(UciOptionError::EmptyName);
            }
            check_words(var)?;
        }
        if !vars.contains(&default) {
            return Err(UciOptionError::ComboDefaultNotListed {
                default: default.to_owned(),
            });
        }
        let kind = UciOptionKind::Combo {
            default: default.to_owned(),
            vars: vars.iter().map(|v| (*v).to_owned()).collect(),
        };
        Self::build(name, kind)
    }

    /// A `button` option.
    ///
    /// # Errors
    ///
    /// An empty name, or a name containing an option-line keyword.
    pub fn button(name: &str) -> Result<Self, UciOptionError> {
        Self::build(name, UciOptionKind::Button)
    }

    /// A `string` option. An empty default is written `<empty>`, as the UCI
    /// specification asks.
    ///
    /// # Errors
    ///
    /// An empty name, or a name containing an option-line keyword.
    pub fn string(name: &str, default: &str) -> Result<Self, UciOptionError> {
        Self::build(
            name,
            UciOptionKind::String {
                default: default.to_owned(),
            },
        )
    }

    /// The option's name, words joined by single spaces.
    #[must_use]
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The option's type and default.
    #[must_use]
    pub const fn kind(&self) -> &UciOptionKind {
        &self.kind
    }
}

/// The `option name ... type ...` line of the `uci` answer.
impl fmt::Display for UciOption {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "option name {} type ", self.name)?;
        match &self.kind {
            UciOptionKind::Check { default } => write!(f, "check default {default}"),
            UciOptionKind::Spin { default, min, max } => {
                write!(f, "spin default {default} min {min} max {max}")
            }
            UciOptionKind::Combo { default, vars } => {
                write!(f, "combo default {default}")?;
                vars.iter().try_for_each(|v| write!(f, " var {v}"))
            }
            UciOptionKind::Button => f.write_str("button"),
            UciOptionKind::String { default } if default.is_empty() => {
                f.write_str("string default <empty>")
            }
            UciOptionKind::String { default } => write!(f, "string default {default}"),
        }
    }
}

/// Runs a UCI session until `quit` or the end of `input`.
///
/// Each line is parsed into a [`UciCommand`]; protocol commands are
/// answered here, the others handed to `backend`. Malformed lines and
/// backend errors are reported as `info string ...` and the session goes
/// on. Output is flushed after every command.
///
/// # Errors
///
/// Only I/O errors end the session early: reading `input` failed, or
/// writing `output` failed (the GUI has gone away).
pub fn run<R: BufRead, W: Write>(
    mut input: R,
    mut output: W,
    backend: &mut impl UciBackend,
) -> io::Result<()> {
    let mut buf = Vec::new();
    loop {
        buf.clear();
        if input.read_until(b'\n', &mut buf)? == 0 {
            return Ok(());
        }
        let mut reply = Reply::new(&mut output);
        let flow = match core::str::from_utf8(&buf) {
            Ok(line) => dispatch(line, backend, &mut reply),
            Err(_) => {
                info_string(&mut reply, "input line is not valid UTF-8, ignored");
                Flow::Continue
            }
        };
        reply.finish()?;
        if let Flow::Quit = flow {
            return Ok(());
        }
    }
}

/// Whether the loop goes on after a command.
enum Flow {
    Continue,
    Quit,
}

fn dispatch(line: &str, backend: &mut impl UciBackend, reply: &mut Reply<'_>) -> Flow {
    let command = match UciCommand::parse(line) {
        Ok(command) => command,
        Err(e) => {
            info_string(reply, e);
            return Flow::Continue;
        }
    };
    let result = match command {
        UciCommand::Empty => Ok(()),
        UciCommand::Quit => return Flow::Quit,
        UciCommand::Uci => {
            reply.line(format_args!("id name {ENGINE_NAME}"));
            reply.line(format_args!("id author {ENGINE_AUTHOR}"));
            for option in backend.options() {
                reply.line(option);
            }
            reply.line("uciok");
            Ok(())
        }
        UciCommand::IsReady => {
            reply.line("readyok");
            Ok(())
        }
        UciCommand::UciNewGame => backend.new_game(),
        UciCommand::SetOption { name, value } => backend.set_option(&name, value.as_deref()),
        UciCommand::Position { start, moves } => backend.set_position(&start, &moves),
        UciCommand::Go(params) => {
            if let Err(e) = backend.go(&params, reply) {
                info_string(reply, e);
                // Clients read up to the line that ends a `go`; without it
                // they would wait forever for an answer that will not come.
                if params.perft.is_some() {
                    reply.line("");
                    reply.line("Nodes searched: 0");
                    reply.line("");
                } else {
                    reply.line("bestmove (none)");
                }
            }
            Ok(())
        }
        UciCommand::Display => backend.display(reply),
        UciCommand::Eval => backend.eval(reply),
        UciCommand::Stop => {
            backend.stop();
            Ok(())
        }
    };
    if let Err(e) = result {
        info_string(reply, e);
    }
    Flow::Continue
}

/// Prints a message as one `info string` line. Line breaks inside the
/// message would break the protocol's framing, so they become spaces.
fn info_string(reply: &mut Reply<'_>, message: impl fmt::Display) {
    let text = message.to_string().replace(['\r', '\n'], " ");
    reply.line(format_args!("info string {text}"));
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::uci::command::GoParams;

    /// A test double that records every call the loop dispatches to it and
    /// fails on demand, so the transcripts check the loop's routing and
    /// error reporting, not any chess.
    #[derive(Debug, Default)]
    struct Recorder {
        calls: Vec<String>,
    }

    #[derive(Debug, thiserror::Error)]
    #[error("backend refused: {0}")]
    struct Refused(String);

    impl UciBackend for Recorder {
        type Error = Refused;

        fn options(&self) -> Vec<UciOption> {
            vec![
                UciOption::combo("UCI_Variant", "chess", &["chess", "xiangqi"]).unwrap(),
                UciOption::spin("Hash", 16, 1, 1024).unwrap(),
            ]
        }

        fn set_option(&mut self, name: &str, value: Option<&str>) -> Result<(), Refused> {
            self.calls.push(format!("set_option {name:?} {value:?}"));
            if name == "Bad" {
                Err(Refused(format!("no option {name}")))
            } else {
                Ok(())
            }
        }

        fn new_game(&mut self) -> Result<(), Refused> {
            self.calls.push("new_game".into());
            Ok(())
        }

        fn set_position(&mut self, start: &StartPosition, moves: &[String]) -> Result<(), Refused> {
            self.calls.push(format!("set_position {start:?} {moves:?}"));
            match moves.iter().position(|m| m == "x") {
                Some(i) => Err(Refused(format!("illegal move x at ply {}", i + 1))),
                None => Ok(()),
            }
        }

        fn go(&mut self, params: &GoParams, reply: &mut Reply<'_>) -> Result<(), Refused> {
            self.calls.push(format!("go {params:?}"));
            match (params.perft, params.depth) {
                (Some(n), _) if n < 10 => {
                    reply.line(format_args!("a1a2: {n}"));
                    reply.line("");
                    reply.line(format_args!("Nodes searched: {n}"));
                    Ok(())
                }
                (Some(n), _) => Err(Refused(format!("perft {n} too deep"))),
                (None, Some(_)) => {
                    reply.line("bestmove a1a2");
                    Ok(())
                }
                (None, None) => Err(Refused("no\nsearch yet".into())),
            }
        }

        fn display(&mut self, reply: &mut Reply<'_>) -> Result<(), Refused> {
            self.calls.push("display".into());
            reply.line("Fen: test");
            Ok(())
        }

        fn eval(&mut self, reply: &mut Reply<'_>) -> Result<(), Refused> {
            self.calls.push("eval".into());
            reply.line("Final evaluation +0.00 (white side)");
            Ok(())
        }

        fn stop(&mut self) {
            self.calls.push("stop".into());
        }
    }

    /// Runs a transcript; returns the output lines and the recorded calls.
    fn transcript(input: &[u8]) -> (Vec<String>, Vec<String>) {
        let mut backend = Recorder::default();
        let mut out = Vec::new();
        run(input, &mut out, &mut backend).unwrap();
        let text = String::from_utf8(out).unwrap();
        (text.lines().map(str::to_owned).collect(), backend.calls)
    }

    #[test]
    fn uci_handshake_lists_the_backend_options() {
        let (out, calls) = transcript(b"uci\nisready\n");
        assert_eq!(
            out,
            [
                "id name chessplayx",
                "id author chessplayx developers",
                "option name UCI_Variant type combo default chess var chess var xiangqi",
                "option name Hash type spin default 16 min 1 max 1024",
                "uciok",
                "readyok",
            ]
        );
        assert!(calls.is_empty());
    }

    #[test]
    fn quit_ends_the_session_before_later_lines() {
        let (out, calls) = transcript(b"ucinewgame\nquit\nucinewgame\nisready\n");
        assert!(out.is_empty(), "{out:?}");
        assert_eq!(calls, ["new_game"]);
    }

    #[test]
    fn end_of_input_ends_the_session() {
        let (out, _) = transcript(b"isready");
        assert_eq!(out, ["readyok"]);
        let (out, calls) = transcript(b"");
        assert!(out.is_empty() && calls.is_empty());
    }

    #[test]
    fn blank_lines_and_crlf_are_quiet() {
        let (out, _) = transcript(b"\n\r\n  \t\nisready\r\n");
        assert_eq!(out, ["readyok"]);
    }

    #[test]
    fn malformed_lines_are_reported_and_the_session_goes_on() {
        let (out, calls) = transcript(b"flip\ngo depth x\nposition\nisready\n");
        assert_eq!(
            out,
            [
                "info string unknown command \"flip\"",
                "info string go depth: \"x\" is not a valid number (invalid digit found in string)",
                "info string position needs `startpos` or `fen <fen>`",
                "readyok",
            ]
        );
        assert!(
            calls.is_empty(),
            "nothing malformed reaches the backend: {calls:?}"
        );
    }

    #[test]
    fn invalid_utf8_is_reported_not_fatal() {
        let (out, _) = transcript(b"go \xff\xfe\nisready\n");
        assert_eq!(
            out,
            [
                "info string input line is not valid UTF-8, ignored",
                "readyok"
            ]
        );
    }

    #[test]
    fn setoption_position_go_and_d_reach_the_backend() {
        let (out, calls) = transcript(
            b"setoption name UCI_Variant value xiangqi\n\
              position fen 9/9 w - - 0 1 moves a1a2 b1b2\n\
              go perft 3\n\
              d\n\
              stop\n",
        );
        assert_eq!(out, ["a1a2: 3", "", "Nodes searched: 3", "Fen: test"]);
        assert_eq!(
            calls,
            [
                "set_option \"UCI_Variant\" Some(\"xiangqi\")".to_owned(),
                "set_position Fen(\"9/9 w - - 0 1\") [\"a1a2\", \"b1b2\"]".to_owned(),
                format!(
                    "go {:?}",
                    GoParams {
                        perft: Some(3),
                        ..GoParams::default()
                    }
                ),
                "display".to_owned(),
                "stop".to_owned(),
            ]
        );
    }

    #[test]
    fn backend_errors_become_info_strings() {
        let (out, calls) = transcript(
            b"setoption name Bad\nposition startpos moves e2e4 x\ngo perft 12\nisready\n",
        );
        assert_eq!(
            out,
            [
                "info string backend refused: no option Bad",
                "info string backend refused: illegal move x at ply 2",
                "info string backend refused: perft 12 too deep",
                "",
                "Nodes searched: 0",
                "",
                "readyok",
            ]
        );
        assert_eq!(calls.len(), 3);
    }

    #[test]
    fn a_failed_go_still_ends_with_its_closing_line() {
        let (out, _) = transcript(b"go\ngo depth 2\n");
        assert_eq!(
            out,
            [
                "info string backend refused: no search yet",
                "bestmove (none)",
                "bestmove a1a2"
            ]
        );
    }

    /// An output that accepts `budget` bytes and then fails, as a pipe
    /// whose reader has gone away does.
    #[derive(Debug)]
    struct Closing {
        budget: usize,
    }

    impl Write for Closing {
        fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
            if self.budget == 0 {
                return Err(io::Error::from(io::ErrorKind::BrokenPipe));
            }
            let n = buf.len().min(self.budget);
            self.budget -= n;
            Ok(n)
        }

        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }

    #[test]
    fn a_closed_output_ends_the_session_with_the_error() {
        let mut backend = Recorder::default();
        let err = run(
            &b"isready\nucinewgame\nisready\nucinewgame\n"[..],
            Closing { budget: 8 },
            &mut backend,
        )
        .unwrap_err();
        assert_eq!(err.kind(), io::ErrorKind::BrokenPipe);
        // The first `readyok` fit, the second did not; the session stopped
        // there instead of going on talking to nobody.
        assert_eq!(backend.calls, ["new_game"]);
    }

    #[test]
    fn option_constructors_refuse_ambiguous_lines() {
        assert_eq!(UciOption::check(" ", true), Err(UciOptionError::EmptyName));
        assert_eq!(
            UciOption::check("Use type hints", true),
            Err(UciOptionError::Keyword {
                text: "Use type hints".into(),
                keyword: "type"
            })
        );
        assert_eq!(
            UciOption::spin("Hash", 0, 1, 8),
            Err(UciOptionError::SpinOutOfRange {
                default: 0,
                min: 1,
                max: 8
            })
        );
        assert_eq!(
            UciOption::combo("UCI_Variant", "shogi", &["chess"]),
            Err(UciOptionError::ComboDefaultNotListed {
                default: "shogi".into()
            })
        );
        assert!(matches!(
            UciOption::combo("Style", "a", &["a", "b var c"]),
            Err(UciOptionError::Keyword { keyword: "var", .. })
        ));
    }

    #[test]
    fn option_lines_follow_the_uci_grammar() {
        let lines: Vec<String> = [
            UciOption::check("Ponder", false),
            UciOption::button("Clear   Hash"),
            UciOption::string("Book File", ""),
            UciOption::string("Name", "chessplayx"),
            UciOption::spin("Skill Level", -5, -20, 20),
        ]
        .into_iter()
        .map(|o| o.unwrap().to_string())
        .collect();
        assert_eq!(
            lines,
            [
                "option name Ponder type check default false",
                "option name Clear Hash type button",
                "option name Book File type string default <empty>",
                "option name Name type string default chessplayx",
                "option name Skill Level type spin default -5 min -20 max 20",
            ]
        );
        let hash = UciOption::spin("Hash", 16, 1, 64).unwrap();
        assert_eq!(hash.name(), "Hash");
        assert_eq!(
            hash.kind(),
            &UciOptionKind::Spin {
                default: 16,
                min: 1,
                max: 64
            }
        );
    }
}
