//! The `chessplayx` binary: the web server (default), the UCI engine, and
//! the command-line tools (`perft`, `status`, `bench`, `tune`, `loadtest`).
//!
//! This file only parses the command line and turns errors into exit
//! codes; each subcommand lives in its own module under `cli/`.

mod cli;
mod games;

use std::process::ExitCode;

use clap::Parser;

fn main() -> ExitCode {
    let args = cli::Cli::parse();
    match cli::run(args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("chessplayx: {e}");
            e.exit_code()
        }
    }
}
