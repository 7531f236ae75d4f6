//! `chessplayx tune gen|fit`: the evaluation tuning of docs/strength.md.
//! `gen` plays self-play games and writes quiet positions with their
//! results; `fit` fits the evaluation weights to such a file and prints
//! the new weights (a Rust literal for the game's `PARAMS`); `train-net`
//! trains a game's network on positions written by `gen --with-score`.

use std::{
    fs,
    io::{self, BufWriter, Write},
    path::PathBuf,
};

use chessplayx_engine::{
    SEARCH_PARAM_SPECS, SearchParams,
    nnue::train::{self, TrainError, TrainOptions},
    tune::{
        self, FitOptions, GenOptions, TuneError,
        spsa::{Reference, SpsaOptions, SpsaReport},
    },
};
use chessplayx_rules::Variant;

/// Arguments of `tune`.
#[derive(Debug, clap::Args)]
pub(crate) struct TuneArgs {
    #[command(subcommand)]
    which: TuneCommand,
}

#[derive(Debug, clap::Subcommand)]
enum TuneCommand {
    /// Play self-play games and write their quiet positions with the result.
    Gen(GenArgs),
    /// Fit the evaluation weights to positions written by `gen`.
    Fit(FitArgs),
    /// Train a game's network on positions written by `gen --with-score`.
    TrainNet(TrainArgs),
    /// Tune level 8's search constants together by self-play game pairs
    /// (SPSA); prints the tuned set as `LevelRow`'s `tune=` text.
    Spsa(SpsaArgs),
}

#[derive(Debug, clap::Args)]
struct SpsaArgs {
    /// The game.
    #[arg(long)]
    variant: Variant,
    /// Game pairs to play.
    #[arg(long, default_value_t = 1000)]
    pairs: u32,
    /// Node budget per move.
    #[arg(long, default_value_t = 12000)]
    nodes: u64,
    /// Games played at once.
    #[arg(long, default_value_t = 2)]
    threads: usize,
    /// Seed of the openings and directions.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Random moves at the start of each game.
    #[arg(long, default_value_t = 8)]
    random_plies: u32,
    /// Plies after which a game is called a draw.
    #[arg(long, default_value_t = 300)]
    max_plies: u32,
    /// Learning rate (a pair moves a constant by rate × step × result).
    #[arg(long, default_value_t = 0.02)]
    rate: f64,
    /// Scale of the perturbations.
    #[arg(long, default_value_t = 1.0)]
    step_scale: f64,
    /// Only these constants (repeatable; all when none is given).
    #[arg(long)]
    only: Vec<String>,
    /// Start from this set (`name:value,…`) instead of the defaults.
    #[arg(long, default_value = "")]
    start: SearchParams,
    /// Print the constants every this many pairs.
    #[arg(long, default_value_t = 20)]
    every: u32,
    /// Play each perturbed set against this UCI engine (program and
    /// arguments) instead of against the other set.
    #[arg(long)]
    reference: Option<String>,
    /// A `setoption` for the reference, `name=value` (repeatable).
    #[arg(long = "ref-opt")]
    ref_opts: Vec<String>,
}

#[derive(Debug, clap::Args)]
struct TrainArgs {
    /// The game (chess or horde).
    #[arg(long)]
    variant: Variant,
    /// Files written by `tune gen --with-score` (concatenated).
    #[arg(long, required = true)]
    data: Vec<PathBuf>,
    /// Where to write the weight file.
    #[arg(long)]
    out: PathBuf,
    /// Passes over the data.
    #[arg(long, default_value_t = 20)]
    epochs: u32,
    /// Positions per step.
    #[arg(long, default_value_t = 4096)]
    batch: usize,
    /// Adam's step size.
    #[arg(long, default_value_t = 1e-3)]
    lr: f32,
    /// Weight of the search score in the target (the rest: the result).
    #[arg(long, default_value_t = 0.75)]
    lambda: f32,
    /// Factor on every score before it becomes a target (a reference
    /// whose centipawns run on another scale than ours).
    #[arg(long, default_value_t = 1.0)]
    score_scale: f32,
    /// Threads.
    #[arg(long, default_value_t = 1)]
    threads: usize,
    /// Seed of the initial weights and the shuffling.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Do not add left-right mirrored copies of positions without
    /// castling rights.
    #[arg(long)]
    no_mirror: bool,
}

#[derive(Debug, clap::Args)]
struct GenArgs {
    /// The game.
    #[arg(long)]
    variant: Variant,
    /// Games to play.
    #[arg(long, default_value_t = 1000)]
    games: u32,
    /// Node budget per move.
    #[arg(long, default_value_t = 3000)]
    nodes: u64,
    /// Random moves at the start of each game.
    #[arg(long, default_value_t = 8)]
    random_plies: u32,
    /// Plies after which a game is called a draw.
    #[arg(long, default_value_t = 400)]
    max_plies: u32,
    /// Seed of the random openings.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Write each position's search score (centipawns, White's view)
    /// too, as `<fen>;<score>;<result>`, for `tune train-net`.
    #[arg(long)]
    with_score: bool,
    /// Search with the game's network instead of the hand-set evaluation
    /// (the documented data recipe does not).
    #[arg(long)]
    with_net: bool,
    /// Output file (standard output if not given).
    #[arg(long)]
    out: Option<PathBuf>,
}

#[derive(Debug, clap::Args)]
struct FitArgs {
    /// The game.
    #[arg(long)]
    variant: Variant,
    /// Files written by `tune gen` (several are concatenated).
    #[arg(long, required = true)]
    data: Vec<PathBuf>,
    /// First step of the local search (halved down to 1).
    #[arg(long, default_value_t = 8)]
    step: i32,
    /// Most passes over the weights per step size.
    #[arg(long, default_value_t = 12)]
    max_passes: u32,
    /// Only weights whose names start with this (repeatable).
    #[arg(long)]
    only: Vec<String>,
    /// Threads for the error computation.
    #[arg(long, default_value_t = 1)]
    threads: usize,
    /// Fit level 8's weights (with the terms only it weighs) instead of
    /// levels 1–7's: for labels from the reference (`label-fsf.py`).
    #[arg(long)]
    top: bool,
    /// The logistic scale to fit with (1 for the reference's centipawns
    /// through the labels' own curve) instead of the best for the start.
    #[arg(long)]
    k: Option<f64>,
    /// Stop the passes after this many seconds and report the best so far.
    #[arg(long)]
    max_seconds: Option<f64>,
}

/// Why `tune` failed.
#[derive(Debug, thiserror::Error)]
pub(crate) enum TuneCliError {
    /// Reading or writing a file.
    #[error("{path}: {source}")]
    File {
        /// The file.
        path: PathBuf,
        /// What went wrong.
        source: io::Error,
    },
    /// Generating or fitting failed.
    #[error(transparent)]
    Tune(#[from] TuneError),
    /// Training the network failed.
    #[error(transparent)]
    Train(#[from] TrainError),
    /// `--only` names no search constant.
    #[error("no search constant is called {0:?}")]
    NoSuchConstant(String),
    /// Writing the report failed.
    #[error("writing output: {0}")]
    Output(io::Error),
}

/// Runs `tune`; progress goes to standard error, the result to `out`.
pub(crate) fn run(args: &TuneArgs, out: &mut dyn Write) -> Result<(), TuneCliError> {
    match &args.which {
        TuneCommand::Gen(a) => {
            let opts = GenOptions {
                games: a.games,
                nodes: a.nodes,
                random_plies: a.random_plies,
                max_plies: a.max_plies,
                seed: a.seed,
                with_score: a.with_score,
                with_net: a.with_net,
            };
            let mut progress = |r: &tune::GenReport| {
                if r.games.is_multiple_of(50) {
                    eprintln!(
                        "{} games (+{} ={} -{}), {} positions",
                        r.games, r.results[0], r.results[1], r.results[2], r.positions
                    );
                }
            };
            let report = match &a.out {
                Some(path) => {
                    let file = fs::File::create(path).map_err(|source| TuneCliError::File {
                        path: path.clone(),
                        source,
                    })?;
                    tune::generate(a.variant, &opts, &mut BufWriter::new(file), &mut progress)?
                }
                None => tune::generate(a.variant, &opts, out, &mut progress)?,
            };
            eprintln!(
                "done: {} games (+{} ={} -{}), {} positions",
                report.games,
                report.results[0],
                report.results[1],
                report.results[2],
                report.positions
            );
            Ok(())
        }
        TuneCommand::Fit(a) => {
            let data = read_all(&a.data)?;
            let opts = FitOptions {
                step: a.step,
                max_passes: a.max_passes,
                only: a.only.clone(),
                threads: a.threads,
                top: a.top,
                k: a.k,
                max_seconds: a.max_seconds,
                ..FitOptions::default()
            };
            let report = tune::fit(a.variant, &data, &opts, &mut |line| eprintln!("{line}"))?;
            write!(out, "{}", report.render()).map_err(TuneCliError::Output)
        }
        TuneCommand::TrainNet(a) => train_net(a, out),
        TuneCommand::Spsa(a) => spsa(a, out),
    }
}

/// `tune spsa`: tunes, reporting on standard error, and prints the set.
fn spsa(a: &SpsaArgs, out: &mut dyn Write) -> Result<(), TuneCliError> {
    let tuned = if a.only.is_empty() {
        (0..SEARCH_PARAM_SPECS.len()).collect()
    } else {
        a.only
            .iter()
            .map(|name| {
                SEARCH_PARAM_SPECS
                    .iter()
                    .position(|s| s.name == name)
                    .ok_or_else(|| TuneCliError::NoSuchConstant(name.clone()))
            })
            .collect::<Result<Vec<_>, _>>()?
    };
    let opts = SpsaOptions {
        pairs: a.pairs,
        nodes: a.nodes,
        threads: a.threads,
        seed: a.seed,
        random_plies: a.random_plies,
        max_plies: a.max_plies,
        rate: a.rate,
        step_scale: a.step_scale,
        tuned,
        start: a.start,
        reference: a.reference.as_ref().map(|command| Reference {
            command: command.clone(),
            options: a
                .ref_opts
                .iter()
                .map(|o| match o.split_once('=') {
                    Some((n, v)) => (n.to_owned(), v.to_owned()),
                    None => (o.clone(), String::new()),
                })
                .collect(),
        }),
    };
    let every = a.every.max(1);
    let mut progress = |r: &SpsaReport| {
        if r.pairs.is_multiple_of(every) {
            let raw: Vec<String> = SEARCH_PARAM_SPECS
                .iter()
                .zip(r.theta)
                .map(|(s, t)| format!("{}={t:.1}", s.name))
                .collect();
            eprintln!(
                "{} pairs (+{} ={} -{}): {}",
                r.pairs,
                r.results[0],
                r.results[1],
                r.results[2],
                raw.join(" ")
            );
        }
    };
    let report = tune::spsa::spsa(a.variant, &opts, &mut progress)?;
    writeln!(out, "tune={}", report.params()).map_err(TuneCliError::Output)
}

/// `tune train-net`: reads the data, trains, writes the weight file.
fn train_net(a: &TrainArgs, out: &mut dyn Write) -> Result<(), TuneCliError> {
    let data = read_all(&a.data)?;
    let opts = TrainOptions {
        epochs: a.epochs,
        batch: a.batch,
        lr: a.lr,
        lambda: a.lambda,
        score_scale: a.score_scale,
        threads: a.threads,
        seed: a.seed,
        mirror: !a.no_mirror,
    };
    let trained = train::train(a.variant, &data, &opts, &mut |r| eprintln!("{r}"))?;
    fs::write(&a.out, &trained.file).map_err(|source| TuneCliError::File {
        path: a.out.clone(),
        source,
    })?;
    let last = trained
        .epochs
        .get(trained.best_epoch.saturating_sub(1) as usize);
    writeln!(
        out,
        "{} positions trained on, {} held out; kept epoch {}, validation loss {:.6} (hand-set evaluation alone: {:.6}); wrote {} ({} bytes)",
        trained.sizes.0,
        trained.sizes.1,
        trained.best_epoch,
        last.map_or(f64::NAN, |r| r.valid_loss),
        trained.handset_valid_loss,
        a.out.display(),
        trained.file.len()
    )
    .map_err(TuneCliError::Output)
}

/// The files concatenated.
fn read_all(paths: &[PathBuf]) -> Result<String, TuneCliError> {
    let mut data = String::new();
    for path in paths {
        let text = fs::read_to_string(path).map_err(|source| TuneCliError::File {
            path: path.clone(),
            source,
        })?;
        data.push_str(&text);
        data.push('\n');
    }
    Ok(data)
}
