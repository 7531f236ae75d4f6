//! The chessplayx engine: one search for standard chess, Horde, Atomic
//! and Xiangqi, eight playing levels, and a UCI front end.

mod eval;
mod limits;
mod rng;
mod score;
mod search;
mod tt;

pub use eval::Evaluate;
pub use limits::{Clock, SearchLimits};
pub use rng::Rng;
pub use score::Score;
pub use search::{PositionHistory, RootLine, SearchInfo, SearchOptions, SearchResult, Searcher};
