//! Command-line interface: the subcommands and their shared error type.

mod bench;
mod perft;
mod serve;
mod status;
mod tune;
mod uci;

use std::{
    io::{self, Write},
    process::ExitCode,
};

use clap::{Parser, Subcommand};

/// The version line: the crate version and the git commit the binary was
/// built from. The commit comes from `CHESSPLAYX_COMMIT`, which the
/// project's scripts export before building (no build script needed); a
/// plain `cargo build` says `unknown`.
pub(crate) fn version_line() -> String {
    let commit = match option_env!("CHESSPLAYX_COMMIT") {
        Some(commit) if !commit.trim().is_empty() => commit.trim(),
        _ => "unknown",
    };
    format!("chessplayx {} · {commit}", env!("CARGO_PKG_VERSION"))
}

/// The version as `/api/version` answers it: `0.1.0 · <commit>`, without
/// a "v" so that the web app's footer can write "Version 0.1.0 · …"
/// without doubling it.
fn api_version() -> String {
    version_line().replacen("chessplayx ", "", 1)
}

/// chessplayx: chess, Horde, Atomic and Xiangqi in the browser, with a UCI
/// engine and rules tools on the command line.
///
/// Without a subcommand, serves the web app.
#[derive(Debug, Parser)]
#[command(name = "chessplayx", disable_version_flag = true)]
pub(crate) struct Cli {
    /// Print the version and the git commit, then exit.
    #[arg(short = 'V', long)]
    version: bool,

    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Serve the web app and its API (the default).
    Serve(serve::ServeArgs),
    /// Load a running server with games of random moves over loopback and
    /// report moves per second and round-trip percentiles.
    Loadtest(serve::LoadArgs),
    /// Speak the UCI protocol on standard input and output.
    Uci,
    /// Count the leaf nodes of the legal move tree.
    Perft(perft::PerftArgs),
    /// Print one position's state (after optional moves) as JSON.
    Status(status::StatusArgs),
    /// Measure speed: `bench` (or `bench search`) the search, `bench perft`
    /// move generation.
    Bench(bench::BenchArgs),
    /// Tune the evaluation: `tune gen` plays self-play games, `tune fit`
    /// fits the weights to their positions (docs/strength.md).
    Tune(tune::TuneArgs),
}

/// Why a subcommand failed. Each message is printed after `chessplayx: `
/// on standard error.
#[derive(Debug, thiserror::Error)]
pub(crate) enum CliError {
    /// `perft` failed.
    #[error(transparent)]
    Perft(#[from] perft::PerftError),
    /// `status` failed.
    #[error(transparent)]
    Status(#[from] status::StatusError),
    /// `bench` failed.
    #[error(transparent)]
    Bench(#[from] bench::BenchError),
    /// `tune` failed.
    #[error(transparent)]
    Tune(#[from] tune::TuneCliError),
    /// `serve` or `loadtest` failed.
    #[error(transparent)]
    Serve(#[from] serve::ServeError),
    /// The UCI session's input or output failed.
    #[error("uci session: {0}")]
    Uci(io::Error),
    /// Writing to standard output failed.
    #[error("writing output: {0}")]
    Output(io::Error),
}

impl CliError {
    /// 1 for every failure.
    pub(crate) fn exit_code(&self) -> ExitCode {
        ExitCode::FAILURE
    }
}

/// Runs the parsed command line.
///
/// # Errors
///
/// Whatever the subcommand reports.
pub(crate) fn run(cli: Cli) -> Result<(), CliError> {
    if cli.version {
        let mut out = io::stdout().lock();
        return writeln!(out, "{}", version_line()).map_err(CliError::Output);
    }
    match cli
        .command
        .unwrap_or_else(|| Command::Serve(serve::ServeArgs::default()))
    {
        Command::Serve(args) => Ok(serve::run(&args, api_version())?),
        Command::Loadtest(args) => {
            let report = serve::loadtest(&args)?;
            let mut out = io::stdout().lock();
            write!(out, "{report}").map_err(CliError::Output)
        }
        Command::Uci => uci::run(io::stdin().lock()).map_err(CliError::Uci),
        Command::Perft(args) => Ok(perft::run(&args, &mut io::stdout().lock())?),
        Command::Status(args) => Ok(status::run(&args, &mut io::stdout().lock())?),
        Command::Bench(args) => Ok(bench::run(&args, &mut io::stdout().lock())?),
        Command::Tune(args) => Ok(tune::run(&args, &mut io::stdout().lock())?),
    }
}

#[cfg(test)]
mod tests {
    use clap::CommandFactory;

    use super::*;

    #[test]
    fn command_line_definition_is_consistent() {
        Cli::command().debug_assert();
    }

    #[test]
    fn no_subcommand_means_serve() {
        let cli = Cli::try_parse_from(["chessplayx"]).unwrap();
        assert!(cli.command.is_none() && !cli.version);
    }

    #[test]
    fn version_line_names_the_crate_version_and_a_commit() {
        let line = version_line();
        let rest = line.strip_prefix(&format!("chessplayx {} · ", env!("CARGO_PKG_VERSION")));
        assert!(
            rest.is_some_and(|c| !c.is_empty() && !c.contains(char::is_whitespace)),
            "{line}"
        );
    }

    #[test]
    fn the_api_version_has_no_v_prefix() {
        let api = api_version();
        assert!(
            api.starts_with(&format!("{} · ", env!("CARGO_PKG_VERSION"))),
            "{api}"
        );
    }
}
