//! The engine seen from a server or a UCI session that picks the game at
//! run time: one enum over the four position types, a game (position and
//! history), a searcher per game type, and [`think`].

use std::{
    sync::{Arc, atomic::AtomicBool},
    time::{Duration, Instant},
};

use chessplayx_rules::{
    Game, MoveError, Outcome, Variant,
    chess::{self, AtomicChess, Chess, HordeChess},
    xiangqi::{self, Xiangqi},
};

use crate::{
    Evaluate, Level, PositionHistory, RootLine, SearchInfo, SearchLimits, SearchOptions,
    SearchResult, Searcher,
};

/// A FEN that is no legal position of the chosen game.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PositionFenError {
    /// An 8×8 game's FEN was rejected.
    #[error(transparent)]
    Chess(#[from] chess::FenError),
    /// A Xiangqi FEN was rejected.
    #[error(transparent)]
    Xiangqi(#[from] xiangqi::FenError),
}

/// A legal position of any of the four games, chosen at run time.
///
/// The server holds games of every variant side by side; this is the one
/// type it hands to the engine.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EnginePosition {
    /// Standard chess.
    Chess(Chess),
    /// Horde.
    Horde(HordeChess),
    /// Atomic.
    Atomic(AtomicChess),
    /// Xiangqi.
    Xiangqi(Xiangqi),
}

/// Runs `$body` with `$p` bound to the concrete position.
macro_rules! dispatch {
    ($self:expr, $p:ident => $body:expr) => {
        match $self {
            EnginePosition::Chess($p) => $body,
            EnginePosition::Horde($p) => $body,
            EnginePosition::Atomic($p) => $body,
            EnginePosition::Xiangqi($p) => $body,
        }
    };
}

impl EnginePosition {
    /// The start position of `variant`.
    #[must_use]
    pub fn start(variant: Variant) -> Self {
        match variant {
            Variant::Chess => Self::Chess(Chess::start()),
            Variant::Horde => Self::Horde(HordeChess::start()),
            Variant::Atomic => Self::Atomic(AtomicChess::start()),
            Variant::Xiangqi => Self::Xiangqi(Xiangqi::start()),
        }
    }

    /// Parses a FEN (Fairy-Stockfish's format) of `variant`.
    ///
    /// # Errors
    ///
    /// [`PositionFenError`] when the FEN is malformed or illegal there.
    pub fn from_fen(variant: Variant, fen: &str) -> Result<Self, PositionFenError> {
        Ok(match variant {
            Variant::Chess => Self::Chess(Chess::from_fen(fen)?),
            Variant::Horde => Self::Horde(HordeChess::from_fen(fen)?),
            Variant::Atomic => Self::Atomic(AtomicChess::from_fen(fen)?),
            Variant::Xiangqi => Self::Xiangqi(Xiangqi::from_fen(fen)?),
        })
    }

    /// Which game.
    #[must_use]
    pub fn variant(&self) -> Variant {
        dispatch!(self, p => p.variant())
    }

    /// The FEN.
    #[must_use]
    pub fn fen(&self) -> String {
        dispatch!(self, p => Game::fen(p))
    }

    /// The side to move.
    #[must_use]
    pub fn turn(&self) -> chessplayx_rules::Color {
        dispatch!(self, p => Game::turn(p))
    }

    /// `true` when the side to move is in check.
    #[must_use]
    pub fn is_check(&self) -> bool {
        dispatch!(self, p => Game::is_check(p))
    }

    /// The end decided by the position alone, if any.
    #[must_use]
    pub fn outcome(&self) -> Option<Outcome> {
        dispatch!(self, p => Game::outcome(p))
    }

    /// Every legal move in UCI notation.
    #[must_use]
    pub fn legal_moves_uci(&self) -> Vec<String> {
        dispatch!(self, p => {
            let mut moves = Vec::new();
            p.legal_moves_into(&mut moves);
            moves.into_iter().map(|m| p.move_to_uci(m)).collect()
        })
    }

    /// Plays a move given in UCI notation.
    ///
    /// # Errors
    ///
    /// [`MoveError`] when it is malformed or illegal; the position is then
    /// unchanged.
    pub fn play_uci(&mut self, uci: &str) -> Result<(), MoveError> {
        dispatch!(self, p => {
            let mv = p.parse_uci(uci)?;
            Game::play(p, mv);
            Ok(())
        })
    }

    fn push_to(&self, history: &mut PositionHistory) {
        dispatch!(self, p => history.push(p));
    }
}

/// A position with the positions that led to it, which the search needs
/// to see repetitions.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineGame {
    position: EnginePosition,
    history: PositionHistory,
}

impl EngineGame {
    /// A game starting at `position`, with no earlier positions known.
    #[must_use]
    pub const fn new(position: EnginePosition) -> Self {
        Self {
            position,
            history: PositionHistory::new(),
        }
    }

    /// The current position.
    #[must_use]
    pub const fn position(&self) -> &EnginePosition {
        &self.position
    }

    /// The earlier positions.
    #[must_use]
    pub const fn history(&self) -> &PositionHistory {
        &self.history
    }

    /// Plays a move in UCI notation, remembering the position it leaves.
    ///
    /// # Errors
    ///
    /// [`MoveError`] when it is malformed or illegal; nothing changes then.
    pub fn play_uci(&mut self, uci: &str) -> Result<(), MoveError> {
        let before = self.position.clone();
        self.position.play_uci(uci)?;
        before.push_to(&mut self.history);
        Ok(())
    }
}

/// One searcher per game type, created on first use, with a shared hash
/// size: what a UCI session or a server's bot worker keeps between moves.
#[derive(Debug)]
pub struct EngineSearcher {
    hash_mb: usize,
    chess: Option<Searcher<Chess>>,
    horde: Option<Searcher<HordeChess>>,
    atomic: Option<Searcher<AtomicChess>>,
    xiangqi: Option<Searcher<Xiangqi>>,
}

/// A progress report with moves in UCI notation.
pub type EngineInfo<'a> = SearchInfo<'a, String>;

impl EngineSearcher {
    /// Searchers with transposition tables of about `hash_mb` MiB.
    #[must_use]
    pub const fn new(hash_mb: usize) -> Self {
        Self {
            hash_mb,
            chess: None,
            horde: None,
            atomic: None,
            xiangqi: None,
        }
    }

    /// Changes the hash size (dropping what was learnt).
    pub fn set_hash(&mut self, hash_mb: usize) {
        *self = Self::new(hash_mb);
    }

    /// Forgets everything learnt (a new game).
    pub fn clear(&mut self) {
        if let Some(s) = &mut self.chess {
            s.clear();
        }
        if let Some(s) = &mut self.horde {
            s.clear();
        }
        if let Some(s) = &mut self.atomic {
            s.clear();
        }
        if let Some(s) = &mut self.xiangqi {
            s.clear();
        }
    }

    /// Searches `game` within `limits` (see [`Searcher::search`]); moves
    /// come back in UCI notation.
    pub fn search(
        &mut self,
        game: &EngineGame,
        limits: &SearchLimits,
        options: SearchOptions,
        on_info: &mut dyn FnMut(&EngineInfo<'_>),
    ) -> SearchResult<String> {
        let hash = self.hash_mb;
        let h = &game.history;
        match &game.position {
            EnginePosition::Chess(p) => run(
                self.chess.get_or_insert_with(|| Searcher::new(hash)),
                p,
                h,
                limits,
                options,
                on_info,
            ),
            EnginePosition::Horde(p) => run(
                self.horde.get_or_insert_with(|| Searcher::new(hash)),
                p,
                h,
                limits,
                options,
                on_info,
            ),
            EnginePosition::Atomic(p) => run(
                self.atomic.get_or_insert_with(|| Searcher::new(hash)),
                p,
                h,
                limits,
                options,
                on_info,
            ),
            EnginePosition::Xiangqi(p) => run(
                self.xiangqi.get_or_insert_with(|| Searcher::new(hash)),
                p,
                h,
                limits,
                options,
                on_info,
            ),
        }
    }
}

fn run<G: Evaluate>(
    searcher: &mut Searcher<G>,
    pos: &G,
    history: &PositionHistory,
    limits: &SearchLimits,
    options: SearchOptions,
    on_info: &mut dyn FnMut(&EngineInfo<'_>),
) -> SearchResult<String> {
    let uci = |m: &G::Move| pos.move_to_uci(*m);
    let mut forward = |info: &SearchInfo<'_, G::Move>| {
        let pv: Vec<String> = info.pv.iter().map(uci).collect();
        on_info(&SearchInfo {
            depth: info.depth,
            seldepth: info.seldepth,
            multipv: info.multipv,
            score: info.score,
            nodes: info.nodes,
            time: info.time,
            hashfull: info.hashfull,
            pv: &pv,
        });
    };
    let r = searcher.search(pos, history, limits, options, &mut forward);
    SearchResult {
        best_move: r.best_move.as_ref().map(uci),
        score: r.score,
        depth: r.depth,
        seldepth: r.seldepth,
        nodes: r.nodes,
        time: r.time,
        pv: r.pv.iter().map(uci).collect(),
        lines: r
            .lines
            .iter()
            .map(|l| RootLine {
                mv: uci(&l.mv),
                score: l.score,
                exact: l.exact,
                pv: l.pv.iter().map(uci).collect(),
            })
            .collect(),
    }
}

/// Default thinking time of a level when the caller sets no deadline:
/// lichess's move times for its AI levels 1–8.
const DEFAULT_MOVETIME_MS: [u64; 8] = [50, 100, 150, 200, 300, 400, 500, 1000];

/// Finds a move for the server's bot: searches `game` at `level` with a
/// fresh transposition table (so concurrent calls share nothing), until
/// the level's own limits, `deadline` (or, without one, the level's
/// default time: 50 ms at level 1 up to 1 s at level 8), or `stop` being
/// raised, whichever comes first. The same `seed` in the same game gives
/// the same move.
///
/// Blocking and CPU-bound: run it on a blocking thread pool.
#[must_use]
pub fn think(
    game: &EngineGame,
    level: Level,
    deadline: Option<Instant>,
    stop: Option<Arc<AtomicBool>>,
    seed: u64,
) -> SearchResult<String> {
    let deadline = deadline.unwrap_or_else(|| {
        Instant::now() + Duration::from_millis(DEFAULT_MOVETIME_MS[level.number() as usize - 1])
    });
    let mut searcher = EngineSearcher::new(level.params_in(game.position().variant()).hash_mb);
    searcher.search(
        game,
        &SearchLimits::default(),
        SearchOptions {
            level,
            seed,
            multipv: 1,
            stop,
            deadline: Some(deadline),
        },
        &mut |_| {},
    )
}
