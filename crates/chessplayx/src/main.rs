//! The `chessplayx` binary: the web server (default), the UCI engine, and
//! the command-line tools (`perft`, `status`, `bench`, `tune`, `loadtest`).
//!
//! This file only parses the command line and turns errors into exit
//! codes; each subcommand lives in its own module under `cli/`.

mod cli;
mod games;

use std::process::ExitCode;

use clap::Parser;

/// mimalloc instead of glibc's allocator: a move through the server
/// allocates and frees many small strings (notation, JSON) across the
/// async worker threads, and glibc's malloc spent about a tenth of the
/// workers' time in allocation and `malloc_consolidate` under load
/// (docs/performance-server.md).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

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
