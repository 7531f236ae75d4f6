//! Syntax of the UCI commands a GUI or a test tool sends us.
//!
//! Parsing is purely syntactic: a FEN is kept as text and moves as strings,
//! because whether they make sense depends on the variant and the position,
//! which only the backend knows. Every malformed line becomes a typed
//! [`UciParseError`]; nothing here panics, whatever the input.

use core::{fmt, iter::Peekable, num::ParseIntError, str::FromStr};

/// One line of UCI input, understood.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum UciCommand {
    /// `uci`: the GUI asks who we are and which options we have.
    Uci,
    /// `isready`: the GUI waits for us to be idle.
    IsReady,
    /// `ucinewgame`: the next position belongs to a new game.
    UciNewGame,
    /// `setoption name <name> [value <value>]`.
    SetOption {
        /// The option's name; words are joined by single spaces.
        name: String,
        /// The value, words joined by single spaces; `None` for buttons.
        value: Option<String>,
    },
    /// `position startpos|fen <fields> [moves <m1> <m2> ...]`.
    Position {
        /// Where the game starts.
        start: StartPosition,
        /// The moves played since, unchecked (legality depends on the
        /// position, so the backend checks them).
        moves: Vec<String>,
    },
    /// `go ...`: search or count.
    Go(GoParams),
    /// `stop`: end the current search as soon as possible.
    Stop,
    /// `quit`: leave the session.
    Quit,
    /// `d`: print the current position (a Fairy-Stockfish/Stockfish
    /// debugging command that test tools rely on).
    Display,
    /// `eval`: print the current position's static evaluation
    /// (Fairy-Stockfish's debugging command, for comparing evaluations).
    Eval,
    /// A blank line, which UCI says to ignore.
    Empty,
}

/// The start of a `position` command.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StartPosition {
    /// `startpos`: the current variant's start position.
    StartPos,
    /// `fen <fields>`: one to six FEN fields, joined by single spaces, not
    /// yet validated.
    Fen(String),
}

/// The parameters of a `go` command. Each is optional because GUIs send any
/// combination; which combinations make sense is the backend's decision.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GoParams {
    /// `perft N`: count the leaves of the legal move tree (Fairy-Stockfish's
    /// extension), instead of searching.
    pub perft: Option<u32>,
    /// `depth N`: search N plies.
    pub depth: Option<u32>,
    /// `nodes N`: search at most N nodes.
    pub nodes: Option<u64>,
    /// `movetime N`: search exactly N milliseconds.
    pub movetime: Option<u64>,
    /// `wtime N`: White's remaining clock in milliseconds. Signed because
    /// some GUIs send a negative time once a clock has overrun.
    pub wtime: Option<i64>,
    /// `btime N`: Black's remaining clock in milliseconds (signed, as
    /// `wtime`).
    pub btime: Option<i64>,
    /// `winc N`: White's increment per move in milliseconds.
    pub winc: Option<u64>,
    /// `binc N`: Black's increment per move in milliseconds.
    pub binc: Option<u64>,
    /// `movestogo N`: moves until the next time control.
    pub movestogo: Option<u32>,
    /// `mate N`: look for a mate in N moves.
    pub mate: Option<u32>,
    /// `infinite`: search until `stop`.
    pub infinite: bool,
    /// `ponder`: search in the opponent's time.
    pub ponder: bool,
    /// `searchmoves m1 m2 ...`: restrict the search to these moves
    /// (unchecked strings, as in `position`).
    pub searchmoves: Option<Vec<String>>,
}

/// A parameter of `go`, named in errors so the message says which one was
/// wrong.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum GoParam {
    /// `perft`.
    Perft,
    /// `depth`.
    Depth,
    /// `nodes`.
    Nodes,
    /// `movetime`.
    MoveTime,
    /// `wtime`.
    WTime,
    /// `btime`.
    BTime,
    /// `winc`.
    WInc,
    /// `binc`.
    BInc,
    /// `movestogo`.
    MovesToGo,
    /// `mate`.
    Mate,
    /// `infinite`.
    Infinite,
    /// `ponder`.
    Ponder,
    /// `searchmoves`.
    SearchMoves,
}

impl GoParam {
    /// Every parameter, for lookups by keyword.
    const ALL: [Self; 13] = [
        Self::Perft,
        Self::Depth,
        Self::Nodes,
        Self::MoveTime,
        Self::WTime,
        Self::BTime,
        Self::WInc,
        Self::BInc,
        Self::MovesToGo,
        Self::Mate,
        Self::Infinite,
        Self::Ponder,
        Self::SearchMoves,
    ];

    /// The keyword as written on the `go` line.
    #[must_use]
    pub const fn keyword(self) -> &'static str {
        match self {
            Self::Perft => "perft",
            Self::Depth => "depth",
            Self::Nodes => "nodes",
            Self::MoveTime => "movetime",
            Self::WTime => "wtime",
            Self::BTime => "btime",
            Self::WInc => "winc",
            Self::BInc => "binc",
            Self::MovesToGo => "movestogo",
            Self::Mate => "mate",
            Self::Infinite => "infinite",
            Self::Ponder => "ponder",
            Self::SearchMoves => "searchmoves",
        }
    }

    fn from_keyword(token: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|p| p.keyword() == token)
    }
}

impl fmt::Display for GoParam {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.keyword())
    }
}

/// Why a line is not a UCI command we understand. The session prints it as
/// `info string <message>` and carries on, so each message says what was
/// wrong in words a person at a terminal can act on.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum UciParseError {
    /// The first word is no command we know.
    #[error("unknown command {command:?}")]
    UnknownCommand {
        /// The first word of the line.
        command: String,
    },
    /// A command that takes no arguments was given some.
    #[error("{command} takes no arguments, got {argument:?}")]
    UnexpectedArgument {
        /// The command.
        command: &'static str,
        /// The first extra word.
        argument: String,
    },
    /// `setoption` without `name <name>`, or with an empty name.
    #[error("setoption needs `name <option name>`")]
    SetOptionMissingName,
    /// `setoption` followed by something other than `name`.
    #[error("setoption expects `name`, got {token:?}")]
    SetOptionExpectedName {
        /// The word found instead of `name`.
        token: String,
    },
    /// `setoption name <name> value` with nothing after `value`.
    #[error("setoption name {name}: `value` is not followed by a value")]
    SetOptionMissingValue {
        /// The option's name.
        name: String,
    },
    /// `position` alone.
    #[error("position needs `startpos` or `fen <fen>`")]
    PositionMissingStart,
    /// `position` followed by neither `startpos` nor `fen`.
    #[error("position expects `startpos` or `fen`, got {token:?}")]
    PositionUnknownStart {
        /// The word found instead.
        token: String,
    },
    /// `position fen` with no FEN field before `moves` or the end.
    #[error("position fen: no FEN given")]
    FenMissing,
    /// More than six words between `fen` and `moves`.
    #[error("position fen: {count} fields before `moves`, a FEN has at most 6")]
    FenTooManyFields {
        /// How many words were found.
        count: usize,
    },
    /// Something other than `moves` after `startpos`.
    #[error("position: expected `moves` after the start position, got {token:?}")]
    PositionExpectedMoves {
        /// The word found instead of `moves`.
        token: String,
    },
    /// A `go` parameter that needs a value is the last word, or is
    /// followed by another keyword.
    #[error("go {param} needs a value")]
    GoMissingValue {
        /// The parameter.
        param: GoParam,
    },
    /// A `go` parameter's value is not a number in its range.
    #[error("go {param}: {text:?} is not a valid number ({source})")]
    GoInvalidNumber {
        /// The parameter.
        param: GoParam,
        /// The value as given.
        text: String,
        /// Why the number did not parse (sign, digits, range).
        source: ParseIntError,
    },
    /// The same `go` parameter twice, which would leave us guessing which
    /// one the GUI meant.
    #[error("go {param} given twice")]
    GoDuplicate {
        /// The repeated parameter.
        param: GoParam,
    },
    /// A word on the `go` line that is no parameter.
    #[error("go: unknown parameter {token:?}")]
    GoUnknownParam {
        /// The word.
        token: String,
    },
}

impl UciCommand {
    /// Parses one line of UCI input (with or without its line ending).
    /// Words may be separated by any run of whitespace, tabs included.
    ///
    /// # Errors
    ///
    /// A [`UciParseError`] variant per kind of mistake: unknown command,
    /// missing or malformed argument, repeated `go` parameter...
    ///
    /// # Examples
    ///
    /// ```
    /// use chessplayx_engine::uci::{GoParams, StartPosition, UciCommand};
    ///
    /// let cmd = UciCommand::parse("position startpos moves e2e4 e7e5")?;
    /// assert_eq!(
    ///     cmd,
    ///     UciCommand::Position {
    ///         start: StartPosition::StartPos,
    ///         moves: vec!["e2e4".into(), "e7e5".into()],
    ///     }
    /// );
    /// let go = UciCommand::parse("go perft 3")?;
    /// assert_eq!(go, UciCommand::Go(GoParams { perft: Some(3), ..GoParams::default() }));
    /// assert!(UciCommand::parse("go perft three").is_err());
    /// # Ok::<_, chessplayx_engine::uci::UciParseError>(())
    /// ```
    pub fn parse(line: &str) -> Result<Self, UciParseError> {
        let mut words = line.split_whitespace();
        let Some(head) = words.next() else {
            return Ok(Self::Empty);
        };
        match head {
            "uci" => no_arguments(Self::Uci, "uci", words),
            "isready" => no_arguments(Self::IsReady, "isready", words),
            "ucinewgame" => no_arguments(Self::UciNewGame, "ucinewgame", words),
            "stop" => no_arguments(Self::Stop, "stop", words),
            "quit" => no_arguments(Self::Quit, "quit", words),
            "d" => no_arguments(Self::Display, "d", words),
            "eval" => no_arguments(Self::Eval, "eval", words),
            "setoption" => parse_setoption(words),
            "position" => parse_position(words),
            "go" => GoParams::parse(words).map(Self::Go),
            _ => Err(UciParseError::UnknownCommand {
                command: head.to_owned(),
            }),
        }
    }
}

impl FromStr for UciCommand {
    type Err = UciParseError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Self::parse(s)
    }
}

fn no_arguments<'a>(
    command: UciCommand,
    name: &'static str,
    mut rest: impl Iterator<Item = &'a str>,
) -> Result<UciCommand, UciParseError> {
    match rest.next() {
        None => Ok(command),
        Some(extra) => Err(UciParseError::UnexpectedArgument {
            command: name,
            argument: extra.to_owned(),
        }),
    }
}

fn parse_setoption<'a>(
    mut words: impl Iterator<Item = &'a str>,
) -> Result<UciCommand, UciParseError> {
    match words.next() {
        None => return Err(UciParseError::SetOptionMissingName),
        Some("name") => {}
        Some(other) => {
            return Err(UciParseError::SetOptionExpectedName {
                token: other.to_owned(),
            });
        }
    }
    let mut name_words = Vec::new();
    let mut has_value = false;
    for word in words.by_ref() {
        if word == "value" {
            has_value = true;
            break;
        }
        name_words.push(word);
    }
    if name_words.is_empty() {
        return Err(UciParseError::SetOptionMissingName);
    }
    let name = name_words.join(" ");
    if !has_value {
        return Ok(UciCommand::SetOption { name, value: None });
    }
    // Words are rejoined with single spaces, so `Skill \t Level` and
    // `Skill Level` are the same text.
    let value = words.collect::<Vec<_>>().join(" ");
    if value.is_empty() {
        return Err(UciParseError::SetOptionMissingValue { name });
    }
    Ok(UciCommand::SetOption {
        name,
        value: Some(value),
    })
}

fn parse_position<'a>(
    mut words: impl Iterator<Item = &'a str>,
) -> Result<UciCommand, UciParseError> {
    let start = match words.next() {
        None => return Err(UciParseError::PositionMissingStart),
        Some("startpos") => match words.next() {
            None | Some("moves") => StartPosition::StartPos,
            Some(other) => {
                return Err(UciParseError::PositionExpectedMoves {
                    token: other.to_owned(),
                });
            }
        },
        Some("fen") => {
            let fields: Vec<&str> = words.by_ref().take_while(|w| *w != "moves").collect();
            if fields.is_empty() {
                return Err(UciParseError::FenMissing);
            }
            if fields.len() > 6 {
                return Err(UciParseError::FenTooManyFields {
                    count: fields.len(),
                });
            }
            StartPosition::Fen(fields.join(" "))
        }
        Some(other) => {
            return Err(UciParseError::PositionUnknownStart {
                token: other.to_owned(),
            });
        }
    };
    Ok(UciCommand::Position {
        start,
        moves: words.map(str::to_owned).collect(),
    })
}

impl GoParams {
    fn parse<'a>(words: impl Iterator<Item = &'a str>) -> Result<Self, UciParseError> {
        let mut params = Self::default();
        let mut words = words.peekable();
        while let Some(word) = words.next() {
            let Some(param) = GoParam::from_keyword(word) else {
                return Err(UciParseError::GoUnknownParam {
                    token: word.to_owned(),
                });
            };
            if params.is_set(param) {
                return Err(UciParseError::GoDuplicate { param });
            }
            match param {
                GoParam::Perft => params.perft = Some(number(param, &mut words)?),
                GoParam::Depth => params.depth = Some(number(param, &mut words)?),
                GoParam::Nodes => params.nodes = Some(number(param, &mut words)?),
                GoParam::MoveTime => params.movetime = Some(number(param, &mut words)?),
                GoParam::WTime => params.wtime = Some(number(param, &mut words)?),
                GoParam::BTime => params.btime = Some(number(param, &mut words)?),
                GoParam::WInc => params.winc = Some(number(param, &mut words)?),
                GoParam::BInc => params.binc = Some(number(param, &mut words)?),
                GoParam::MovesToGo => params.movestogo = Some(number(param, &mut words)?),
                GoParam::Mate => params.mate = Some(number(param, &mut words)?),
                GoParam::Infinite => params.infinite = true,
                GoParam::Ponder => params.ponder = true,
                GoParam::SearchMoves => {
                    let mut moves = Vec::new();
                    while let Some(mv) = words.next_if(|w| GoParam::from_keyword(w).is_none()) {
                        moves.push(mv.to_owned());
                    }
                    if moves.is_empty() {
                        return Err(UciParseError::GoMissingValue { param });
                    }
                    params.searchmoves = Some(moves);
                }
            }
        }
        Ok(params)
    }

    const fn is_set(&self, param: GoParam) -> bool {
        match param {
            GoParam::Perft => self.perft.is_some(),
            GoParam::Depth => self.depth.is_some(),
            GoParam::Nodes => self.nodes.is_some(),
            GoParam::MoveTime => self.movetime.is_some(),
            GoParam::WTime => self.wtime.is_some(),
            GoParam::BTime => self.btime.is_some(),
            GoParam::WInc => self.winc.is_some(),
            GoParam::BInc => self.binc.is_some(),
            GoParam::MovesToGo => self.movestogo.is_some(),
            GoParam::Mate => self.mate.is_some(),
            GoParam::Infinite => self.infinite,
            GoParam::Ponder => self.ponder,
            GoParam::SearchMoves => self.searchmoves.is_some(),
        }
    }
}

/// Takes the value of `param` from the words. The value is the next word
/// unless that word is itself a keyword, so `go depth infinite` reports the
/// missing depth rather than a bad number "infinite".
fn number<'a, T: FromStr<Err = ParseIntError>>(
    param: GoParam,
    words: &mut Peekable<impl Iterator<Item = &'a str>>,
) -> Result<T, UciParseError> {
    let text = words
        .next_if(|w| GoParam::from_keyword(w).is_none())
        .ok_or(UciParseError::GoMissingValue { param })?;
    text.parse()
        .map_err(|source| UciParseError::GoInvalidNumber {
            param,
            text: text.to_owned(),
            source,
        })
}

#[cfg(test)]
mod tests;
