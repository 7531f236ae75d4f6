//! `chessplayx uci`: the UCI session on stdin/stdout, with a backend that
//! keeps the variant and the position, answers `go perft` and `d`, and
//! searches on a background thread so that `isready` and `stop` are
//! answered while it thinks.

use std::{
    io::{self, BufRead, Write},
    sync::Arc,
    time::Duration,
};

use chessplayx_engine::{
    BackgroundSearch, Clock, EngineGame, EngineInfo, EnginePosition, Level, LevelParams,
    ParseRowError, SearchJob, SearchLimits, SearchOptions, SearchResult,
    uci::{self, GoParams, Reply, StartPosition, UciBackend, UciOption},
};
use chessplayx_rules::{Color, Game, GameVisitor, OpenError, ParseVariantError, Variant};

use crate::games::{Divide, ReplayError, describe, replay};

/// The option that selects the game, named as Fairy-Stockfish names it so
/// the same tools drive both engines.
const VARIANT_OPTION: &str = "UCI_Variant";

/// The playing strength option (1–8, 8 = full strength).
const LEVEL_OPTION: &str = "Level";
/// Transposition table size in MiB.
const HASH_OPTION: &str = "Hash";
/// Search threads: one (advertised so GUIs that set it are satisfied).
const THREADS_OPTION: &str = "Threads";
/// Number of lines reported.
const MULTIPV_OPTION: &str = "MultiPV";
/// A level row played instead of `Level`'s own (`depth=5 nodes=80000
/// noise=75 …`, see `LevelParams`'s `FromStr`; empty for none): candidate
/// rows of the ladder are matched through it without a build.
const LEVEL_ROW_OPTION: &str = "LevelRow";
/// Largest `Hash` accepted.
const MAX_HASH_MB: i64 = 4096;
/// Default `Hash`.
const DEFAULT_HASH_MB: usize = 16;
/// Largest `MultiPV` accepted.
const MAX_MULTIPV: i64 = 64;

/// Where the search thread's lines go. The session's own answers and the
/// search's lines must reach the same output a whole line at a time.
type LineSink = Arc<dyn Fn(&str) + Send + Sync>;

/// Writes each line to standard output in one locked write, so lines from
/// the session and the search thread never mix.
fn stdout_sink() -> LineSink {
    Arc::new(|line: &str| {
        let mut out = io::stdout();
        // A closed stdout means the GUI is gone; the session will notice
        // on its next write and end.
        let _ = writeln!(out, "{line}").and_then(|()| out.flush());
    })
}

/// Runs a UCI session until `quit` or the end of input.
///
/// The output is standard output itself (not a lock on it), because the
/// search thread writes its `info` and `bestmove` lines there while the
/// session answers other commands.
///
/// # Errors
///
/// Only I/O errors on `input` or `output`.
pub(crate) fn run(input: impl BufRead) -> io::Result<()> {
    let mut engine = Engine::new(stdout_sink());
    let result = uci::run(input, io::stdout(), &mut engine);
    engine.finish();
    result
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
struct Engine {
    variant: Variant,
    /// `None` after a `position` whose FEN was invalid, so a later `go`
    /// reports that instead of silently using an older position.
    position: Option<PositionSpec>,
    level: Level,
    /// `LevelRow`, when set.
    row: Option<LevelParams>,
    multipv: usize,
    /// Number of searches started: with the position's key, the seed of
    /// the levels' random choices (reproducible from one session to the
    /// next).
    searches: u64,
    worker: BackgroundSearch,
    sink: LineSink,
}

impl core::fmt::Debug for Engine {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Engine")
            .field("variant", &self.variant)
            .field("position", &self.position)
            .field("level", &self.level)
            .field("row", &self.row)
            .field("multipv", &self.multipv)
            .field("searching", &self.worker.is_running())
            .finish_non_exhaustive()
    }
}

impl Engine {
    fn new(sink: LineSink) -> Self {
        Self {
            variant: Variant::Chess,
            position: Some(PositionSpec::default()),
            level: Level::default(),
            row: None,
            multipv: 1,
            searches: 0,
            worker: BackgroundSearch::new(DEFAULT_HASH_MB),
            sink,
        }
    }

    /// At the end of the session: a search that would never end
    /// (`go infinite`) is stopped; any other is let finish, so piped
    /// scripts get their `bestmove`.
    fn finish(&mut self) {
        self.worker.wait_or_stop_infinite();
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
    /// An option value that is not a number in the option's range.
    #[error("option {name} takes a whole number from {min} to {max}, not {value:?}")]
    OptionRange {
        /// The option.
        name: &'static str,
        /// The value given.
        value: String,
        /// The smallest value.
        min: i64,
        /// The largest value.
        max: i64,
    },
    /// The position could not be set up for the search (it was accepted
    /// before, so this means a rules mismatch).
    #[error("cannot search this position: {0}")]
    Search(String),
    /// `go searchmoves` is not supported.
    #[error("searchmoves is not supported; searching all moves")]
    SearchMoves,
    /// `LevelRow` with a row that does not parse.
    #[error("option LevelRow: {0}")]
    Row(#[from] ParseRowError),
    /// The search thread could not be started.
    #[error("cannot start the search thread: {0}")]
    Thread(io::Error),
}

impl Engine {
    fn position(&self) -> Result<&PositionSpec, EngineError> {
        self.position.as_ref().ok_or(EngineError::NoPosition)
    }

    /// The current position as a game the engine can search.
    fn game(&self) -> Result<EngineGame, EngineError> {
        let spec = self.position()?;
        let start = match &spec.fen {
            Some(fen) => EnginePosition::from_fen(self.variant, fen)
                .map_err(|e| EngineError::Search(e.to_string()))?,
            None => EnginePosition::start(self.variant),
        };
        let mut game = EngineGame::new(start);
        for m in &spec.moves {
            game.play_uci(m)
                .map_err(|e| EngineError::Search(e.to_string()))?;
        }
        Ok(game)
    }

    /// Starts a search for `params` on the background thread.
    fn search(&mut self, params: &GoParams) -> Result<(), EngineError> {
        let game = self.game()?;
        let limits = limits(params, game.position().turn());
        self.searches += 1;
        let options = SearchOptions {
            level: self.level,
            seed: self.searches,
            multipv: self.multipv,
            row: self.row,
            ..SearchOptions::default()
        };
        let shown = self.multipv as u32;
        let info_sink = Arc::clone(&self.sink);
        let done_sink = Arc::clone(&self.sink);
        self.worker
            .start(
                SearchJob {
                    game,
                    limits,
                    options,
                },
                move |info| {
                    if info.multipv <= shown {
                        info_sink(&info_line(info));
                    }
                },
                move |result| done_sink(&bestmove_line(&result)),
            )
            .map_err(EngineError::Thread)
    }
}

/// The search limits of a `go` command for the side to move `turn`.
fn limits(params: &GoParams, turn: Color) -> SearchLimits {
    let (time, inc) = match turn {
        Color::White => (params.wtime, params.winc),
        Color::Black => (params.btime, params.binc),
    };
    let clock = time.map(|t| Clock {
        time: Duration::from_millis(t.max(0).unsigned_abs()),
        increment: Duration::from_millis(inc.unwrap_or(0)),
        moves_to_go: params.movestogo,
    });
    SearchLimits {
        // A mate in N moves lies 2N - 1 plies deep.
        depth: params.depth.or(params
            .mate
            .map(|n| n.saturating_mul(2).saturating_sub(1).max(1))),
        nodes: params.nodes,
        movetime: params.movetime.map(Duration::from_millis),
        clock,
        // Pondering is searching until told otherwise.
        infinite: params.infinite || params.ponder,
    }
}

/// `info depth … score … nodes … nps … pv …`.
fn info_line(info: &EngineInfo<'_>) -> String {
    format!(
        "info depth {} seldepth {} multipv {} score {} nodes {} nps {} hashfull {} time {} pv {}",
        info.depth,
        info.seldepth,
        info.multipv,
        info.score,
        info.nodes,
        info.nps(),
        info.hashfull,
        info.time.as_millis(),
        info.pv.join(" ")
    )
}

/// `bestmove <move> [ponder <move>]`, or `bestmove (none)` when the game
/// is over.
fn bestmove_line(result: &SearchResult<String>) -> String {
    match (&result.best_move, result.pv.get(1)) {
        (Some(best), Some(ponder)) if result.pv.first() == Some(best) => {
            format!("bestmove {best} ponder {ponder}")
        }
        (Some(best), _) => format!("bestmove {best}"),
        (None, _) => "bestmove (none)".to_owned(),
    }
}

/// Parses a spin option's value.
fn spin(name: &'static str, value: Option<&str>, min: i64, max: i64) -> Result<i64, EngineError> {
    let value = value.ok_or(EngineError::MissingValue { name })?;
    value
        .trim()
        .parse::<i64>()
        .ok()
        .filter(|v| (min..=max).contains(v))
        .ok_or_else(|| EngineError::OptionRange {
            name,
            value: value.to_owned(),
            min,
            max,
        })
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
        [
            UciOption::combo(VARIANT_OPTION, Variant::Chess.name(), &names),
            UciOption::spin(LEVEL_OPTION, 8, 1, 8),
            UciOption::spin(HASH_OPTION, DEFAULT_HASH_MB as i64, 1, MAX_HASH_MB),
            UciOption::spin(THREADS_OPTION, 1, 1, 1),
            UciOption::spin(MULTIPV_OPTION, 1, 1, MAX_MULTIPV),
            UciOption::string(LEVEL_ROW_OPTION, ""),
        ]
        .into_iter()
        .map(|o| o.expect("fixed option names without keywords, defaults inside their ranges"))
        .collect()
    }

    fn set_option(&mut self, name: &str, value: Option<&str>) -> Result<(), EngineError> {
        // UCI option names are case-insensitive. Options change nothing
        // of a search already running; UCI sends them between searches.
        if name.eq_ignore_ascii_case(VARIANT_OPTION) {
            let value = value.ok_or(EngineError::MissingValue {
                name: VARIANT_OPTION,
            })?;
            self.variant = value.parse()?;
            // A position of another game means nothing in this one.
            self.position = Some(PositionSpec::default());
        } else if name.eq_ignore_ascii_case(LEVEL_OPTION) {
            let n = spin(LEVEL_OPTION, value, 1, 8)?;
            self.level = u8::try_from(n)
                .ok()
                .and_then(|n| Level::new(n).ok())
                .unwrap_or_default();
        } else if name.eq_ignore_ascii_case(HASH_OPTION) {
            let mb = spin(HASH_OPTION, value, 1, MAX_HASH_MB)?;
            self.worker
                .set_hash(usize::try_from(mb).unwrap_or(DEFAULT_HASH_MB));
        } else if name.eq_ignore_ascii_case(THREADS_OPTION) {
            spin(THREADS_OPTION, value, 1, 1)?;
        } else if name.eq_ignore_ascii_case(LEVEL_ROW_OPTION) {
            let text = value.unwrap_or_default().trim();
            self.row = if text.is_empty() || text == "<empty>" {
                None
            } else {
                Some(text.parse()?)
            };
        } else if name.eq_ignore_ascii_case(MULTIPV_OPTION) {
            let n = spin(MULTIPV_OPTION, value, 1, MAX_MULTIPV)?;
            self.multipv = usize::try_from(n).unwrap_or(1);
        } else {
            return Err(EngineError::UnknownOption {
                name: name.to_owned(),
            });
        }
        Ok(())
    }

    fn new_game(&mut self) -> Result<(), EngineError> {
        self.position = Some(PositionSpec::default());
        self.worker.searcher().clear();
        Ok(())
    }

    fn set_position(&mut self, start: &StartPosition, moves: &[String]) -> Result<(), EngineError> {
        let fen = match start {
            StartPosition::StartPos => None,
            StartPosition::Fen(fen) => Some(fen.clone()),
        };
        self.position = None;
        let checked = self.variant.visit(fen.as_deref(), Validate { moves })?;
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
            if params.searchmoves.is_some() {
                reply.line(format_args!("info string {}", EngineError::SearchMoves));
            }
            return self.search(params);
        };
        // One command at a time: a perft waits for any search to end.
        self.worker.stop();
        let position = self.position()?;
        let visitor = PerftAfter {
            moves: &position.moves,
            depth,
        };
        let divide = self.variant.visit(position.fen.as_deref(), visitor)??;
        for line in divide.fairy_lines() {
            reply.line(line);
        }
        Ok(())
    }

    fn stop(&mut self) {
        self.worker.stop();
    }

    /// The reference's last line of `eval`, so that one script reads
    /// both: pawns from White's point of view, or `none (in check)`.
    fn eval(&mut self, reply: &mut Reply<'_>) -> Result<(), EngineError> {
        let game = self.game()?;
        let position = game.position();
        match position.static_eval() {
            Some(cp) => {
                let white = if position.turn() == Color::White {
                    cp
                } else {
                    -cp
                };
                reply.line(format_args!(
                    "Final evaluation {:+.2} (white side)",
                    f64::from(white) / 100.0
                ));
            }
            None => reply.line("Final evaluation: none (in check)"),
        }
        Ok(())
    }

    fn display(&mut self, reply: &mut Reply<'_>) -> Result<(), EngineError> {
        let position = self.position()?;
        let visitor = DescribeAfter {
            moves: &position.moves,
        };
        for line in self.variant.visit(position.fen.as_deref(), visitor)?? {
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

    use std::sync::Mutex;

    /// Lines from the session and from the search thread, in the order
    /// they were written.
    type Lines = Arc<Mutex<Vec<String>>>;

    fn collector() -> (Lines, LineSink) {
        let lines: Lines = Arc::default();
        let into = Arc::clone(&lines);
        let sink: LineSink = Arc::new(move |l: &str| {
            into.lock().unwrap().push(l.to_owned());
        });
        (lines, sink)
    }

    /// The session's output, cut into lines for the same sink as the
    /// search thread's, so their order is the order seen by a GUI.
    struct SinkWriter {
        sink: LineSink,
        buf: Vec<u8>,
    }

    impl Write for SinkWriter {
        fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
            self.buf.extend_from_slice(bytes);
            while let Some(i) = self.buf.iter().position(|&b| b == b'\n') {
                let line: Vec<u8> = self.buf.drain(..=i).collect();
                (self.sink)(String::from_utf8_lossy(&line[..i]).as_ref());
            }
            Ok(bytes.len())
        }

        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }

    /// Runs a transcript to its end (letting a bounded search finish, as
    /// the binary does) and returns every line written.
    fn transcript(input: &str) -> (Vec<String>, Engine) {
        let (lines, sink) = collector();
        let mut engine = Engine::new(Arc::clone(&sink));
        let out = SinkWriter {
            sink,
            buf: Vec::new(),
        };
        uci::run(input.as_bytes(), out, &mut engine).unwrap();
        engine.finish();
        let lines = lines.lock().unwrap().clone();
        (lines, engine)
    }

    fn legal_after(variant: Variant, moves: &[&str]) -> Vec<String> {
        let mut game = EngineGame::new(EnginePosition::start(variant));
        for m in moves {
            game.play_uci(m).unwrap();
        }
        game.position().legal_moves_uci()
    }

    /// `eval` speaks for White whoever is to move, as the reference
    /// does, and refuses a position in check.
    #[test]
    fn eval_is_white_s_static_evaluation_like_the_reference() {
        let final_pawns = |input: &str| -> Vec<String> {
            let (out, _) = transcript(input);
            out.into_iter()
                .filter(|l| l.starts_with("Final evaluation"))
                .collect()
        };
        // White has an extra queen; the same board with either side to move.
        for side in ["w", "b"] {
            let lines = final_pawns(&format!(
                "position fen 4k3/8/8/8/8/8/8/3QK3 {side} - - 0 1\neval\n"
            ));
            assert_eq!(lines.len(), 1, "{lines:?}");
            let pawns: f64 = lines[0]
                .split_whitespace()
                .nth(2)
                .and_then(|w| w.parse().ok())
                .expect("a number of pawns");
            assert!(pawns > 5.0, "{side} to move: {lines:?}");
        }
        let check = final_pawns("position fen 4k3/8/8/8/8/8/8/4QK2 b - - 0 1\neval\n");
        assert_eq!(check, ["Final evaluation: none (in check)"]);
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
        let (_, sink) = collector();
        let mut engine = Engine::new(sink);
        engine.position = None;
        engine.set_option("uci_variant", Some("Xiangqi")).unwrap();
        assert_eq!(engine.variant, Variant::Xiangqi);
        assert_eq!(engine.position, Some(PositionSpec::default()));
    }

    #[test]
    fn bad_options_are_reported_and_change_nothing() {
        let (out, engine) = transcript(
            "setoption name UCI_Variant value shogi\n\
             setoption name UCI_Variant\n\
             setoption name Contempt value 64\n",
        );
        assert_eq!(
            out,
            [
                "info string unknown variant \"shogi\" (expected chess, horde, atomic or xiangqi)",
                "info string option UCI_Variant needs a value",
                "info string no such option \"Contempt\"",
            ]
        );
        assert_eq!(engine.variant, Variant::Chess);
    }

    #[test]
    fn go_depth_reports_each_iteration_then_a_legal_bestmove() {
        let (out, _) = transcript("position startpos moves e2e4\ngo depth 4\n");
        assert_eq!(out.len(), 5, "{out:?}");
        for (i, line) in out[..4].iter().enumerate() {
            let words: Vec<&str> = line.split(' ').collect();
            assert_eq!(
                words[..3],
                ["info", "depth", &(i + 1).to_string()],
                "{line}"
            );
            for key in ["seldepth", "multipv", "score", "nodes", "nps", "time", "pv"] {
                assert!(words.contains(&key), "{key} missing in {line}");
            }
        }
        let words: Vec<&str> = out[4].split(' ').collect();
        assert_eq!(words[0], "bestmove");
        assert!(legal_after(Variant::Chess, &["e2e4"]).contains(&words[1].to_owned()));
    }

    #[test]
    fn every_variant_searches_with_its_own_rules() {
        for variant in Variant::ALL {
            let (out, _) = transcript(&format!(
                "setoption name UCI_Variant value {}\nposition startpos\ngo nodes 2000\n",
                variant.name()
            ));
            let best = out
                .last()
                .and_then(|l| l.strip_prefix("bestmove "))
                .map(|l| l.split(' ').next().unwrap_or_default().to_owned())
                .unwrap_or_else(|| panic!("{variant:?}: {out:?}"));
            assert!(
                legal_after(variant, &[]).contains(&best),
                "{variant:?}: {best}"
            );
        }
    }

    #[test]
    fn isready_is_answered_while_searching_and_stop_ends_the_search() {
        let (out, _) = transcript("go infinite\nisready\nstop\nisready\n");
        let ready: Vec<usize> = out
            .iter()
            .enumerate()
            .filter(|(_, l)| *l == "readyok")
            .map(|(i, _)| i)
            .collect();
        let best = out
            .iter()
            .position(|l| l.starts_with("bestmove "))
            .unwrap_or_else(|| panic!("{out:?}"));
        assert_eq!(ready.len(), 2, "{out:?}");
        // The first readyok came while the search ran, before its
        // bestmove; the second after stop had ended it.
        assert!(ready[0] < best && best < ready[1], "{out:?}");
        assert_eq!(out.iter().filter(|l| l.starts_with("bestmove")).count(), 1);
    }

    #[test]
    fn a_mated_side_answers_bestmove_none() {
        let (out, _) = transcript("position startpos moves f2f3 e7e5 g2g4 d8h4\ngo depth 3\n");
        assert_eq!(out, ["bestmove (none)"]);
    }

    #[test]
    fn level_hash_threads_and_multipv_options() {
        let (out, engine) = transcript(
            "setoption name Level value 3\n\
             setoption name level value 9\n\
             setoption name Hash value 8\n\
             setoption name Threads value 2\n\
             setoption name MultiPV value 3\n",
        );
        assert_eq!(
            out,
            [
                "info string option Level takes a whole number from 1 to 8, not \"9\"",
                "info string option Threads takes a whole number from 1 to 1, not \"2\"",
            ]
        );
        assert_eq!(engine.level, Level::Three);
        assert_eq!(engine.multipv, 3);
        let (out, _) = transcript("setoption name MultiPV value 3\ngo depth 2\n");
        let lines: Vec<&String> = out
            .iter()
            .filter(|l| l.starts_with("info depth 2 "))
            .collect();
        assert_eq!(lines.len(), 3, "{out:?}");
        assert!(lines[2].contains(" multipv 3 "), "{}", lines[2]);
    }

    #[test]
    fn level_row_replaces_the_levels_row_until_cleared() {
        let (out, engine) = transcript(
            "setoption name LevelRow value depth=2 multipv=0 noise=500\n\
             setoption name LevelRow value depth=2 skill=3\n\
             go depth 9\n",
        );
        assert_eq!(
            out[0],
            "info string option LevelRow: unknown key \"skill\" (expected depth, nodes, ms, multipv, noise, blunder, hash, engine, switches or tune)"
        );
        // The row's depth cap binds below the go's, and a bad row kept
        // the good one before it.
        assert!(
            out.iter().any(|l| l.starts_with("info depth 2 ")),
            "{out:?}"
        );
        assert!(
            !out.iter().any(|l| l.starts_with("info depth 3 ")),
            "{out:?}"
        );
        assert_eq!(engine.row.map(|r| r.noise_cp), Some(500));
        let (_, engine) = transcript(
            "setoption name LevelRow value depth=2\nsetoption name LevelRow value <empty>\n",
        );
        assert_eq!(engine.row, None);
    }

    #[test]
    fn clock_limits_follow_the_side_to_move() {
        let params = GoParams {
            wtime: Some(60_000),
            btime: Some(-5),
            winc: Some(1000),
            movestogo: Some(20),
            ..GoParams::default()
        };
        let white = limits(&params, Color::White);
        assert_eq!(
            white.clock,
            Some(Clock {
                time: Duration::from_secs(60),
                increment: Duration::from_secs(1),
                moves_to_go: Some(20)
            })
        );
        // An overrun (negative) clock is no time at all, not a panic.
        let black = limits(&params, Color::Black);
        assert_eq!(black.clock.map(|c| c.time), Some(Duration::ZERO));
        let mate = limits(
            &GoParams {
                mate: Some(3),
                ..GoParams::default()
            },
            Color::White,
        );
        assert_eq!(mate.depth, Some(5));
        assert!(
            limits(
                &GoParams {
                    ponder: true,
                    ..GoParams::default()
                },
                Color::White
            )
            .infinite
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
