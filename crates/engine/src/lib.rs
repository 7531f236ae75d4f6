//! The chessplayx engine: one search for standard chess, Horde, Atomic
//! and Xiangqi, eight playing levels, and a UCI front end.
//!
//! ```
//! use chessplayx_engine::{EngineGame, EnginePosition, Level, think};
//! use chessplayx_rules::Variant;
//!
//! let mut game = EngineGame::new(EnginePosition::start(Variant::Chess));
//! game.play_uci("e2e4")?;
//! let result = think(&game, Level::Three, None, None, 7);
//! let reply = result.best_move.expect("the game goes on");
//! assert!(game.position().legal_moves_uci().contains(&reply));
//! # Ok::<_, Box<dyn std::error::Error>>(())
//! ```

mod bench;
mod eval;
mod level;
mod limits;
pub mod nnue;
mod position;
mod rng;
mod score;
mod search;
mod tt;
pub mod tune;
pub mod uci;
mod worker;

pub use bench::{BENCH_DEPTH, BenchEntry, BenchReport, bench, bench_depth};
pub use eval::Evaluate;
pub use level::{Level, LevelError, LevelParams, ParseRowError};
pub use limits::{Clock, SearchLimits};
pub use position::{
    EngineGame, EngineInfo, EnginePosition, EngineSearcher, PositionFenError, think,
};
pub use rng::Rng;
pub use score::Score;
pub use search::params::{ParamSpec, ParamsError, SPECS as SEARCH_PARAM_SPECS, SearchParams};
pub use search::{PositionHistory, RootLine, SearchInfo, SearchOptions, SearchResult, Searcher};
pub use worker::{BackgroundSearch, SearchJob};
