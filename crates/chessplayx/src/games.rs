//! The generic work the binary does on the rules library's positions
//! (perft with divide, replaying moves, describing a position).
//!
//! Everything here is generic over [`Game`]; the commands reach the
//! concrete position type of a variant through the rules crate's one
//! dispatch ([`chessplayx_rules::Variant::visit`] with a
//! [`chessplayx_rules::GameVisitor`]). Running the generic code on the
//! concrete type (rather than through a dynamic wrapper) keeps `perft`
//! monomorphised, so `chessplayx uci`'s `go perft` is as fast as the
//! library's own perft.

#[cfg(test)]
use chessplayx_rules::Variant;
use chessplayx_rules::{Game, MoveError};

/// A move of a move list that could not be played.
#[derive(Debug, PartialEq, Eq, thiserror::Error)]
#[error("move {ply} ({text}): {source}")]
pub(crate) struct ReplayError {
    /// The 1-based index of the move in the list.
    pub(crate) ply: usize,
    /// The move as given.
    pub(crate) text: String,
    /// Whether it was malformed or illegal.
    pub(crate) source: MoveError,
}

/// Plays UCI `moves` on `game` in order, stopping at the first one that is
/// malformed or illegal (the moves before it stay played, as
/// Fairy-Stockfish does with a `position ... moves` line).
///
/// # Errors
///
/// The first move that cannot be played, with its ply number.
pub(crate) fn replay<G: Game, S: AsRef<str>>(game: &mut G, moves: &[S]) -> Result<(), ReplayError> {
    for (i, text) in moves.iter().enumerate() {
        let text = text.as_ref();
        match game.parse_uci(text) {
            Ok(mv) => game.play(mv),
            Err(source) => {
                return Err(ReplayError {
                    ply: i + 1,
                    text: text.to_owned(),
                    source,
                });
            }
        }
    }
    Ok(())
}

/// A perft count split by first move, in move-generation order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Divide {
    /// Each legal move in UCI notation with the leaf count below it.
    pub(crate) moves: Vec<(String, u64)>,
    /// The sum of the counts: the perft number of the position. For depth 0
    /// it is 1 (the position itself) and `moves` is empty.
    pub(crate) total: u64,
}

impl Divide {
    /// The count for each first move of `game`, `depth` plies deep.
    pub(crate) fn of<G: Game>(game: &G, depth: u32) -> Self {
        if depth == 0 {
            return Self {
                moves: Vec::new(),
                total: 1,
            };
        }
        let mut legal = Vec::new();
        game.legal_moves_into(&mut legal);
        let moves: Vec<(String, u64)> = legal
            .into_iter()
            .map(|mv| {
                let mut child = game.clone();
                child.play(mv);
                (game.move_to_uci(mv), child.perft(depth - 1))
            })
            .collect();
        let total = moves.iter().map(|(_, n)| n).sum();
        Self { moves, total }
    }

    /// The lines Fairy-Stockfish prints for `go perft`: `move: count` for
    /// each move, a blank line, `Nodes searched: N`, a blank line. Test
    /// tools parse exactly this.
    pub(crate) fn fairy_lines(&self) -> Vec<String> {
        let mut lines: Vec<String> = self
            .moves
            .iter()
            .map(|(mv, n)| format!("{mv}: {n}"))
            .collect();
        lines.push(String::new());
        lines.push(format!("Nodes searched: {}", self.total));
        lines.push(String::new());
        lines
    }
}

/// Draws the board of a FEN the way Fairy-Stockfish's `d` does, a `*`
/// marking the side to move's edge, followed by the FEN and the key.
/// Works from the FEN text, so it fits any board size; a field it cannot
/// read is shown as empty squares rather than failing.
pub(crate) fn describe<G: Game>(game: &G) -> Vec<String> {
    let fen = game.fen();
    let mut fields = fen.split_whitespace();
    let board = fields.next().unwrap_or_default();
    let white_to_move = fields.next() != Some("b");
    let ranks: Vec<Vec<Option<char>>> = board.split('/').map(rank_squares).collect();
    let width = ranks.iter().map(Vec::len).max().unwrap_or(0);
    let border = format!(" {}+", "+---".repeat(width));
    let mut lines = vec![String::new(), border.clone()];
    for (i, rank) in ranks.iter().enumerate() {
        let mut row = String::from(" |");
        for file in 0..width {
            let piece = rank.get(file).copied().flatten().unwrap_or(' ');
            row.push_str(&format!(" {piece} |"));
        }
        let marker_here = if white_to_move {
            i + 1 == ranks.len()
        } else {
            i == 0
        };
        if marker_here {
            row.push_str(" *");
        }
        lines.push(row);
        lines.push(border.clone());
    }
    lines.push(String::new());
    lines.push(format!("Variant: {}", game.variant()));
    lines.push(format!("Fen: {fen}"));
    lines.push(format!("Key: {:016X}", game.zobrist()));
    lines.push(format!(
        "Check: {}",
        if game.is_check() { "yes" } else { "no" }
    ));
    lines
}

/// The squares of one FEN rank, `None` for empty ones. Runs of digits are
/// one number, so a 10-wide rank written `10` works too.
fn rank_squares(rank: &str) -> Vec<Option<char>> {
    let mut squares = Vec::new();
    let mut empty = 0usize;
    for c in rank.chars() {
        if let Some(d) = c.to_digit(10) {
            // Cap the run: a hostile FEN must not make us allocate much.
            empty = (empty * 10 + d as usize).min(64);
        } else {
            squares.extend(core::iter::repeat_n(None, empty));
            empty = 0;
            squares.push(Some(c));
        }
    }
    squares.extend(core::iter::repeat_n(None, empty));
    squares
}

#[cfg(test)]
pub(crate) mod tests {
    //! A toy game implementing [`Game`], so the generic code above is tested
    //! before (and independently of) the real rules families: counting and
    //! move replay must be right for any game.

    use chessplayx_rules::{Color, Outcome};

    use super::*;

    /// Subtraction game on a pile of tokens: a move takes 1, 2 or 3 tokens
    /// (never more than the pile). Its perft numbers are easy to derive by
    /// hand, which is what makes it a good oracle for the generic code.
    #[derive(Clone, Debug, PartialEq, Eq)]
    pub(crate) struct Nim {
        pub(crate) pile: u8,
        pub(crate) turn: Color,
    }

    impl Game for Nim {
        type Move = u8;

        fn variant(&self) -> Variant {
            Variant::Chess
        }
        fn turn(&self) -> Color {
            self.turn
        }
        fn is_check(&self) -> bool {
            self.pile == 1
        }
        fn legal_moves_into(&self, out: &mut Vec<u8>) {
            out.clear();
            out.extend((1..=3).filter(|n| *n <= self.pile));
        }
        fn play(&mut self, mv: u8) {
            self.pile = self.pile.saturating_sub(mv);
            self.turn = !self.turn;
        }
        fn zobrist(&self) -> u64 {
            u64::from(self.pile) << 1 | u64::from(!self.turn.is_white())
        }
        fn fen(&self) -> String {
            format!("{0}/p{0}P {1}", self.pile, self.turn.char())
        }
        fn move_to_uci(&self, mv: u8) -> String {
            format!("take{mv}")
        }
        fn parse_uci(&self, uci: &str) -> Result<u8, MoveError> {
            let n: u8 = uci
                .strip_prefix("take")
                .and_then(|n| n.parse().ok())
                .ok_or_else(|| MoveError::Syntax {
                    text: uci.to_owned(),
                })?;
            if (1..=3).contains(&n) && n <= self.pile {
                Ok(n)
            } else {
                Err(MoveError::Illegal {
                    text: uci.to_owned(),
                })
            }
        }
        fn is_capture(&self, _: u8) -> bool {
            false
        }
        fn outcome(&self) -> Option<Outcome> {
            None
        }
        fn perft(&self, depth: u32) -> u64 {
            if depth == 0 {
                return 1;
            }
            let mut moves = Vec::new();
            self.legal_moves_into(&mut moves);
            moves
                .into_iter()
                .map(|m| {
                    let mut c = self.clone();
                    c.play(m);
                    c.perft(depth - 1)
                })
                .sum()
        }
    }

    pub(crate) const fn nim(pile: u8) -> Nim {
        Nim {
            pile,
            turn: Color::White,
        }
    }

    #[test]
    fn divide_sums_to_perft_and_lists_moves_in_order() {
        // From a pile of 4: taking 1 leaves 3 (3 replies), taking 2 leaves
        // 2 (2 replies), taking 3 leaves 1 (1 reply).
        let d = Divide::of(&nim(4), 2);
        assert_eq!(
            d.moves,
            [
                ("take1".to_owned(), 3),
                ("take2".to_owned(), 2),
                ("take3".to_owned(), 1)
            ]
        );
        assert_eq!(d.total, 6);
        for depth in 1..6 {
            assert_eq!(Divide::of(&nim(9), depth).total, nim(9).perft(depth));
        }
    }

    #[test]
    fn divide_at_depth_zero_is_the_position_itself() {
        assert_eq!(
            Divide::of(&nim(4), 0),
            Divide {
                moves: vec![],
                total: 1
            }
        );
    }

    #[test]
    fn divide_with_no_legal_move_is_zero() {
        assert_eq!(
            Divide::of(&nim(0), 3),
            Divide {
                moves: vec![],
                total: 0
            }
        );
    }

    #[test]
    fn fairy_lines_match_fairy_stockfish_layout() {
        assert_eq!(
            Divide::of(&nim(2), 1).fairy_lines(),
            ["take1: 1", "take2: 1", "", "Nodes searched: 2", ""]
        );
    }

    #[test]
    fn replay_plays_until_the_first_bad_move() {
        let mut g = nim(10);
        assert_eq!(replay(&mut g, &["take3", "take2"]), Ok(()));
        assert_eq!(
            g,
            Nim {
                pile: 5,
                turn: Color::White
            }
        );

        let mut g = nim(10);
        let err = replay(&mut g, &["take3", "take9", "take1"]).unwrap_err();
        assert_eq!(
            err,
            ReplayError {
                ply: 2,
                text: "take9".into(),
                source: MoveError::Illegal {
                    text: "take9".into()
                }
            }
        );
        assert_eq!(err.to_string(), "move 2 (take9): illegal move take9");
        assert_eq!(g.pile, 7, "the moves before the bad one stay played");

        let err = replay(&mut nim(3), &["e2e4"]).unwrap_err();
        assert_eq!(
            err.source,
            MoveError::Syntax {
                text: "e2e4".into()
            }
        );
    }

    #[test]
    fn rank_squares_expands_digit_runs() {
        assert_eq!(rank_squares("r2k"), [Some('r'), None, None, Some('k')]);
        assert_eq!(rank_squares("10").len(), 10);
        assert_eq!(rank_squares("99999999999").len(), 64);
        assert!(rank_squares("").is_empty());
    }

    #[test]
    fn describe_draws_the_board_and_marks_the_side_to_move() {
        let lines = describe(&nim(2));
        // Board field "2/p2P": rank 1 is two empty squares, rank 2 is
        // p, empty, empty, P: four files wide.
        assert_eq!(lines[1], " +---+---+---+---+");
        assert_eq!(lines[2], " |   |   |   |   |");
        assert_eq!(lines[4], " | p |   |   | P | *");
        assert!(lines.contains(&"Fen: 2/p2P w".to_owned()));
        assert!(lines.contains(&"Key: 0000000000000004".to_owned()));
        let mut black = nim(1);
        black.turn = Color::Black;
        let lines = describe(&black);
        assert!(lines[2].ends_with('*'), "{lines:?}");
        assert!(lines.contains(&"Check: yes".to_owned()));
    }
}
