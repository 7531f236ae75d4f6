//! `chessplayx perft --variant V [--fen F] --depth N [--divide]`.

use std::io::{self, Write};

use chessplayx_rules::{Game, GameVisitor, OpenError, Variant};

use crate::games::Divide;

/// Arguments of `perft`.
#[derive(Debug, clap::Args)]
pub(crate) struct PerftArgs {
    /// chess, horde, atomic or xiangqi.
    #[arg(long)]
    variant: Variant,
    /// Start from this FEN instead of the variant's start position.
    #[arg(long)]
    fen: Option<String>,
    /// How many plies deep to count.
    #[arg(long)]
    depth: u32,
    /// Print the count under each first move (`move: count`, then
    /// `Nodes searched: N`, as Fairy-Stockfish's `go perft` does).
    #[arg(long)]
    divide: bool,
}

/// Why `perft` failed.
#[derive(Debug, thiserror::Error)]
pub(crate) enum PerftError {
    /// The position could not be set up.
    #[error(transparent)]
    Open(#[from] OpenError),
    /// Standard output failed.
    #[error("writing output: {0}")]
    Output(#[from] io::Error),
}

/// Counts one position's divide.
struct PerftVisitor {
    depth: u32,
}

impl GameVisitor for PerftVisitor {
    type Output = Divide;

    fn visit<G: Game>(self, game: G) -> Divide {
        Divide::of(&game, self.depth)
    }
}

/// Prints the count (alone on a line), or the divide with `--divide`.
///
/// # Errors
///
/// An invalid FEN, or a failed write.
pub(crate) fn run(args: &PerftArgs, out: &mut impl Write) -> Result<(), PerftError> {
    let divide = args
        .variant
        .visit(args.fen.as_deref(), PerftVisitor { depth: args.depth })?;
    write_report(&divide, args.divide, out)?;
    Ok(())
}

fn write_report(divide: &Divide, with_moves: bool, out: &mut impl Write) -> io::Result<()> {
    if with_moves {
        for line in divide.fairy_lines() {
            writeln!(out, "{line}")?;
        }
    } else {
        writeln!(out, "{}", divide.total)?;
    }
    out.flush()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::tests::nim;

    fn report(pile: u8, depth: u32, with_moves: bool) -> String {
        let divide = PerftVisitor { depth }.visit(nim(pile));
        let mut out = Vec::new();
        write_report(&divide, with_moves, &mut out).unwrap();
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn plain_perft_prints_the_count_alone() {
        assert_eq!(report(4, 2, false), "6\n");
    }

    #[test]
    fn divide_prints_fairy_stockfish_lines() {
        assert_eq!(
            report(4, 2, true),
            "take1: 3\ntake2: 2\ntake3: 1\n\nNodes searched: 6\n\n"
        );
    }
}
