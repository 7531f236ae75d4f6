//! A UCI engine as the other side of [`super::spsa`]'s games: the
//! reference (Fairy-Stockfish) in the loop, so that what the tuner
//! rewards is play against it rather than against level 8 itself, which
//! session 23 found need not transfer. Only what a fixed-node game needs:
//! start, options, a new game, `position fen … moves …`, `go nodes N`.

use std::{
    io::{self, BufRead, BufReader, Write},
    process::{Child, ChildStdin, ChildStdout, Command, Stdio},
};

use chessplayx_rules::Variant;

/// A running UCI engine.
#[derive(Debug)]
pub struct UciEngine {
    child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
}

/// An engine that stopped answering or answered nonsense.
fn broken(what: impl Into<String>) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidData, what.into())
}

impl UciEngine {
    /// Starts `command` (split on whitespace: program, then arguments),
    /// sets `options` and the game, and waits until it is ready.
    ///
    /// # Errors
    ///
    /// When the program cannot start or does not speak UCI.
    pub fn start(
        command: &str,
        options: &[(String, String)],
        variant: Variant,
    ) -> io::Result<Self> {
        let mut words = command.split_whitespace();
        let program = words.next().ok_or_else(|| broken("empty engine command"))?;
        let mut child = Command::new(program)
            .args(words)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()?;
        let stdin = child.stdin.take().ok_or_else(|| broken("no stdin"))?;
        let stdout = BufReader::new(child.stdout.take().ok_or_else(|| broken("no stdout"))?);
        let mut engine = Self {
            child,
            stdin,
            stdout,
        };
        engine.send("uci")?;
        engine.wait_for("uciok")?;
        if variant != Variant::Chess {
            engine.send(&format!(
                "setoption name UCI_Variant value {}",
                variant.name()
            ))?;
        }
        for (name, value) in options {
            engine.send(&format!("setoption name {name} value {value}"))?;
        }
        engine.ready()?;
        Ok(engine)
    }

    fn send(&mut self, line: &str) -> io::Result<()> {
        writeln!(self.stdin, "{line}")?;
        self.stdin.flush()
    }

    /// Reads lines until one starts with `word`; returns that line.
    fn wait_for(&mut self, word: &str) -> io::Result<String> {
        let mut line = String::new();
        loop {
            line.clear();
            if self.stdout.read_line(&mut line)? == 0 {
                return Err(broken(format!(
                    "engine closed its output waiting for {word}"
                )));
            }
            if line.split_whitespace().next() == Some(word) {
                return Ok(line.trim_end().to_owned());
            }
        }
    }

    fn ready(&mut self) -> io::Result<()> {
        self.send("isready")?;
        self.wait_for("readyok").map(drop)
    }

    /// Forgets the last game (`ucinewgame`).
    ///
    /// # Errors
    ///
    /// When the engine does not answer.
    pub fn new_game(&mut self) -> io::Result<()> {
        self.send("ucinewgame")?;
        self.ready()
    }

    /// The engine's move (UCI text) after `moves` from `fen`, searching
    /// `nodes` nodes, with its last reported score (centipawns for the
    /// side to move, a mate as ±30,000) if it reported one.
    ///
    /// # Errors
    ///
    /// When the engine does not answer with a move.
    pub fn best_move(
        &mut self,
        fen: &str,
        moves: &[String],
        nodes: u64,
    ) -> io::Result<(String, Option<i32>)> {
        let mut cmd = format!("position fen {fen}");
        if !moves.is_empty() {
            cmd.push_str(" moves ");
            cmd.push_str(&moves.join(" "));
        }
        self.send(&cmd)?;
        self.send(&format!("go nodes {nodes}"))?;
        let mut score = None;
        let mut line = String::new();
        loop {
            line.clear();
            if self.stdout.read_line(&mut line)? == 0 {
                return Err(broken("engine closed its output during a search"));
            }
            let mut words = line.split_whitespace();
            match words.next() {
                Some("info") => score = info_score(&line).or(score),
                Some("bestmove") => {
                    let mv = words
                        .next()
                        .ok_or_else(|| broken(format!("no move in {:?}", line.trim_end())))?;
                    return Ok((mv.to_owned(), score));
                }
                _ => {}
            }
        }
    }
}

/// The score of an `info` line (`score cp N` or `score mate N`), if any.
fn info_score(line: &str) -> Option<i32> {
    let words: Vec<&str> = line.split_whitespace().collect();
    let at = words.iter().position(|&w| w == "score")?;
    let value: i32 = words.get(at + 2)?.parse().ok()?;
    match *words.get(at + 1)? {
        "cp" => Some(value),
        "mate" if value > 0 => Some(super::MATE_CP),
        "mate" => Some(-super::MATE_CP),
        _ => None,
    }
}

impl Drop for UciEngine {
    fn drop(&mut self) {
        // Best effort: an engine that ignores `quit` is killed.
        let _ = self.send("quit");
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

#[cfg(test)]
mod tests {
    use super::info_score;

    #[test]
    fn scores_are_read_from_info_lines_and_nonsense_is_none() {
        assert_eq!(
            info_score("info depth 9 score cp -35 nodes 100 pv e2e4"),
            Some(-35)
        );
        assert_eq!(
            info_score("info depth 9 score mate 3 pv a1a8"),
            Some(30_000)
        );
        assert_eq!(info_score("info depth 9 score mate -2"), Some(-30_000));
        assert_eq!(info_score("info string hello"), None);
        assert_eq!(info_score("info score cp"), None);
        assert_eq!(info_score("info score cp x"), None);
        assert_eq!(info_score("info score wdl 1 2 3"), None);
    }
}
