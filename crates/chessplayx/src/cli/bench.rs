//! `chessplayx bench [search|perft]`: speed measurements, run on a
//! `--release` build. `bench` alone is the search benchmark: fixed
//! positions of every variant searched to a fixed depth, whose node total
//! is a signature of the search.

use std::{
    io::{self, Write},
    time::{Duration, Instant},
};

use chessplayx_rules::{Game, GameVisitor, OpenError, Variant};

/// Arguments of `bench`.
#[derive(Debug, clap::Args)]
pub(crate) struct BenchArgs {
    #[command(subcommand)]
    which: Option<BenchCommand>,
}

#[derive(Debug, clap::Subcommand)]
enum BenchCommand {
    /// Search speed and signature (the default): the engine's bench
    /// positions searched to a fixed depth.
    Search(SearchBenchArgs),
    /// Perft speed on one thread, counting the last ply without playing it.
    Perft(PerftBenchArgs),
}

/// Arguments of `bench search`.
#[derive(Debug, Default, clap::Args)]
struct SearchBenchArgs {
    /// Depth of every search (default: the engine's bench depth).
    #[arg(long)]
    depth: Option<u32>,
}

/// Arguments of `bench perft`.
#[derive(Debug, Default, clap::Args)]
struct PerftBenchArgs {
    /// Only these variants (repeat the flag for several; default: all).
    #[arg(long)]
    variant: Vec<Variant>,
    /// Depth for every variant (default: the reference depth of each
    /// variant's start position: chess 6, horde 7, atomic 6, xiangqi 5).
    #[arg(long)]
    depth: Option<u32>,
    /// Start from this FEN instead of the start position (needs exactly one
    /// --variant).
    #[arg(long, requires = "variant")]
    fen: Option<String>,
}

/// Why a benchmark failed.
#[derive(Debug, thiserror::Error)]
pub(crate) enum BenchError {
    /// A position could not be set up.
    #[error(transparent)]
    Open(#[from] OpenError),
    /// `--fen` given with more than one variant.
    #[error("--fen needs exactly one --variant, got {count}")]
    FenNeedsOneVariant {
        /// How many variants were given.
        count: usize,
    },
    /// Standard output failed.
    #[error("writing output: {0}")]
    Output(#[from] io::Error),
}

/// The depth at which the issues quote reference speeds for each start
/// position, so our figures compare directly with them.
const fn reference_depth(variant: Variant) -> u32 {
    match variant {
        Variant::Chess | Variant::Atomic => 6,
        Variant::Horde => 7,
        Variant::Xiangqi => 5,
    }
}

/// Times `Game::perft` alone (setting up the position is outside the
/// measurement).
struct TimedPerft {
    depth: u32,
}

impl GameVisitor for TimedPerft {
    type Output = (u64, Duration);

    fn visit<G: Game>(self, game: G) -> (u64, Duration) {
        let start = Instant::now();
        let nodes = game.perft(self.depth);
        (nodes, start.elapsed())
    }
}

/// One row of the report.
#[derive(Debug, PartialEq)]
struct Row {
    variant: Variant,
    depth: u32,
    nodes: u64,
    elapsed: Duration,
}

impl Row {
    fn mnps(&self) -> f64 {
        let secs = self.elapsed.as_secs_f64();
        if secs > 0.0 {
            self.nodes as f64 / secs / 1e6
        } else {
            f64::INFINITY
        }
    }
}

/// Runs the benchmark and prints one row per variant as it finishes.
///
/// # Errors
///
/// An invalid FEN or variant, or a failed write.
pub(crate) fn run(args: &BenchArgs, out: &mut impl Write) -> Result<(), BenchError> {
    let perft = match &args.which {
        Some(BenchCommand::Perft(perft)) => perft,
        Some(BenchCommand::Search(search)) => return run_search(search, out),
        None => return run_search(&SearchBenchArgs::default(), out),
    };
    if perft.fen.is_some() && perft.variant.len() != 1 {
        return Err(BenchError::FenNeedsOneVariant {
            count: perft.variant.len(),
        });
    }
    let variants = if perft.variant.is_empty() {
        Variant::ALL.to_vec()
    } else {
        perft.variant.clone()
    };
    writeln!(out, "{}", header())?;
    for variant in variants {
        let depth = perft.depth.unwrap_or(reference_depth(variant));
        let (nodes, elapsed) = variant.visit(perft.fen.as_deref(), TimedPerft { depth })?;
        writeln!(
            out,
            "{}",
            row_line(&Row {
                variant,
                depth,
                nodes,
                elapsed
            })
        )?;
        out.flush()?;
    }
    Ok(())
}

/// The search benchmark: one line per position, then the totals in
/// Stockfish's words (`Nodes searched`, `Nodes/second`), which tools
/// compare across commits.
fn run_search(args: &SearchBenchArgs, out: &mut impl Write) -> Result<(), BenchError> {
    let depth = args.depth.unwrap_or(chessplayx_engine::BENCH_DEPTH);
    let report = chessplayx_engine::bench_depth(depth);
    writeln!(
        out,
        "{:<8} {:>10} {:>9} {:>9}  {:<6} fen",
        "variant", "nodes", "ms", "knps", "best"
    )?;
    for e in &report.entries {
        let micros = e.time.as_micros().max(1);
        writeln!(
            out,
            "{:<8} {:>10} {:>9.1} {:>9}  {:<6} {}",
            e.variant.name(),
            e.nodes,
            e.time.as_secs_f64() * 1000.0,
            u128::from(e.nodes) * 1000 / micros,
            e.best_move.as_deref().unwrap_or("-"),
            e.fen
        )?;
    }
    writeln!(out, "Depth: {depth}")?;
    writeln!(out, "Total time (ms): {}", report.time.as_millis())?;
    writeln!(out, "Nodes searched: {}", report.nodes)?;
    writeln!(out, "Nodes/second: {}", report.nps())?;
    Ok(())
}

fn header() -> String {
    format!(
        "{:<8} {:>5} {:>14} {:>9} {:>9}",
        "variant", "depth", "nodes", "seconds", "Mnps"
    )
}

fn row_line(row: &Row) -> String {
    format!(
        "{:<8} {:>5} {:>14} {:>9.3} {:>9.1}",
        row.variant.name(),
        row.depth,
        row.nodes,
        row.elapsed.as_secs_f64(),
        row.mnps()
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::tests::nim;

    #[test]
    fn timed_perft_counts_like_perft() {
        let (nodes, _) = TimedPerft { depth: 5 }.visit(nim(12));
        assert_eq!(nodes, nim(12).perft(5));
    }

    #[test]
    fn rows_line_up_under_the_header() {
        let row = Row {
            variant: Variant::Xiangqi,
            depth: 5,
            nodes: 133_312_995,
            elapsed: Duration::from_millis(2500),
        };
        let line = row_line(&row);
        assert_eq!(line, "xiangqi      5      133312995     2.500      53.3");
        assert_eq!(line.len(), header().len());
    }
}
