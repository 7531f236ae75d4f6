//! The engine seen from a server or a UCI session that picks the game at
//! run time: a position of any of the four games, a game (position and
//! history), searchers for every game type, and [`think`].
//!
//! The engine has no switch over the games of its own: the rules crate's
//! [`with_variant!`] names the concrete position type once, where a
//! position is set up, and from there on the position lives behind a trait
//! object ([`DynPosition`]) whose one implementation is generic over the
//! game type. A search therefore runs monomorphised code, as the generic
//! [`Searcher`] does when called directly.

use core::{any::Any, fmt};
use std::{
    sync::{Arc, atomic::AtomicBool},
    time::{Duration, Instant},
};

use chessplayx_rules::{
    AnyGame, Color, MoveError, OpenError, Outcome, Variant, VariantPosition, with_variant,
};

use crate::{
    Evaluate, Level, PositionHistory, RootLine, SearchInfo, SearchLimits, SearchOptions,
    SearchResult, Searcher,
};

/// A FEN that is no legal position of the chosen game (the rules'
/// [`OpenError`]: a malformed or illegal 8×8 or Xiangqi FEN).
pub type PositionFenError = OpenError;

/// What the engine needs of a position type: the rules' view of it
/// ([`VariantPosition`]) and the evaluation. The four position types of
/// the rules crate are exactly the types [`with_variant!`] names.
trait EngineGameType: VariantPosition + Evaluate {}

impl<G: VariantPosition + Evaluate> EngineGameType for G {}

/// The position-dependent work of the engine, behind a trait object so
/// that [`EnginePosition`] is one type whatever the game. Its one
/// implementation, [`Typed`], is generic over the position type.
trait DynPosition: fmt::Debug + Send + Sync {
    fn variant(&self) -> Variant;
    fn fen(&self) -> String;
    fn turn(&self) -> Color;
    fn is_check(&self) -> bool;
    fn outcome(&self) -> Option<Outcome>;
    fn legal_moves_uci(&self) -> Vec<String>;
    fn static_eval(&self) -> Option<i32>;
    /// Plays `uci`; when `history` is given, records the position left
    /// there first. Nothing changes on an error.
    fn play_uci(
        &mut self,
        uci: &str,
        history: Option<&mut PositionHistory>,
    ) -> Result<(), MoveError>;
    fn search(
        &self,
        searchers: &mut EngineSearcher,
        history: &PositionHistory,
        limits: &SearchLimits,
        options: SearchOptions,
        on_info: &mut dyn FnMut(&EngineInfo<'_>),
    ) -> SearchResult<String>;
    fn clone_box(&self) -> Box<dyn DynPosition>;
    fn as_any(&self) -> &dyn Any;
}

/// A position of the game type `G`.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Typed<G>(G);

impl<G: EngineGameType> DynPosition for Typed<G> {
    fn variant(&self) -> Variant {
        G::VARIANT
    }

    fn fen(&self) -> String {
        self.0.fen()
    }

    fn turn(&self) -> Color {
        self.0.turn()
    }

    fn is_check(&self) -> bool {
        self.0.is_check()
    }

    fn outcome(&self) -> Option<Outcome> {
        self.0.outcome()
    }

    fn static_eval(&self) -> Option<i32> {
        (self.0.outcome().is_none() && !self.0.is_check()).then(|| {
            let mut acc = Box::<crate::nnue::Accumulator>::default();
            self.0
                .net_evaluate(&mut acc)
                .unwrap_or_else(|| self.0.evaluate())
        })
    }

    fn legal_moves_uci(&self) -> Vec<String> {
        let mut moves = Vec::new();
        self.0.legal_moves_into(&mut moves);
        moves.into_iter().map(|m| self.0.move_to_uci(m)).collect()
    }

    fn play_uci(
        &mut self,
        uci: &str,
        history: Option<&mut PositionHistory>,
    ) -> Result<(), MoveError> {
        let mv = self.0.parse_uci(uci)?;
        if let Some(history) = history {
            history.push(&self.0);
        }
        self.0.play(mv);
        Ok(())
    }

    fn search(
        &self,
        searchers: &mut EngineSearcher,
        history: &PositionHistory,
        limits: &SearchLimits,
        options: SearchOptions,
        on_info: &mut dyn FnMut(&EngineInfo<'_>),
    ) -> SearchResult<String> {
        run(
            searchers.searcher::<G>(),
            &self.0,
            history,
            limits,
            options,
            on_info,
        )
    }

    fn clone_box(&self) -> Box<dyn DynPosition> {
        Box::new(self.clone())
    }

    fn as_any(&self) -> &dyn Any {
        self
    }
}

/// A legal position of any of the four games, chosen at run time.
///
/// The server holds games of every variant side by side; this is the one
/// type it hands to the engine.
pub struct EnginePosition(Box<dyn DynPosition>);

impl EnginePosition {
    fn of<G: EngineGameType>(position: G) -> Self {
        Self(Box::new(Typed(position)))
    }

    /// The start position of `variant`.
    #[must_use]
    pub fn start(variant: Variant) -> Self {
        with_variant!(variant, G => Self::of(<G as VariantPosition>::start()))
    }

    /// Parses a FEN (Fairy-Stockfish's format) of `variant`.
    ///
    /// # Errors
    ///
    /// [`PositionFenError`] when the FEN is malformed or illegal there.
    pub fn from_fen(variant: Variant, fen: &str) -> Result<Self, PositionFenError> {
        with_variant!(variant, G => Ok(Self::of(G::open(Some(fen))?)))
    }

    /// Which game.
    #[must_use]
    pub fn variant(&self) -> Variant {
        self.0.variant()
    }

    /// The FEN.
    #[must_use]
    pub fn fen(&self) -> String {
        self.0.fen()
    }

    /// The side to move.
    #[must_use]
    pub fn turn(&self) -> Color {
        self.0.turn()
    }

    /// `true` when the side to move is in check.
    #[must_use]
    pub fn is_check(&self) -> bool {
        self.0.is_check()
    }

    /// The end decided by the position alone, if any.
    #[must_use]
    pub fn outcome(&self) -> Option<Outcome> {
        self.0.outcome()
    }

    /// Level 8's static evaluation in centipawns, from the side to move's
    /// point of view: its weights, plus the game's network where it has
    /// one (the lower levels weigh less). `None` in check or when the
    /// game is over, where nothing is evaluated. For comparing with the
    /// reference's `eval` (scripts/strength).
    #[must_use]
    pub fn static_eval(&self) -> Option<i32> {
        self.0.static_eval()
    }

    /// Every legal move in UCI notation.
    #[must_use]
    pub fn legal_moves_uci(&self) -> Vec<String> {
        self.0.legal_moves_uci()
    }

    /// Plays a move given in UCI notation.
    ///
    /// # Errors
    ///
    /// [`MoveError`] when it is malformed or illegal; the position is then
    /// unchanged.
    pub fn play_uci(&mut self, uci: &str) -> Result<(), MoveError> {
        self.0.play_uci(uci, None)
    }
}

impl Clone for EnginePosition {
    fn clone(&self) -> Self {
        Self(self.0.clone_box())
    }
}

impl fmt::Debug for EnginePosition {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

impl PartialEq for EnginePosition {
    /// Equal when both are of the same game and the positions are equal.
    fn eq(&self, other: &Self) -> bool {
        with_variant!(self.variant(), G => {
            let mine = self.0.as_any().downcast_ref::<Typed<G>>();
            mine.is_some() && mine == other.0.as_any().downcast_ref::<Typed<G>>()
        })
    }
}

impl Eq for EnginePosition {}

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

    /// The engine's copy of a rules game record: its current position with
    /// every earlier one as history. The record's moves are played on its
    /// start position as they are (already checked, not parsed from text
    /// again): what the server does for each AI move.
    #[must_use]
    pub fn from_game(game: &AnyGame) -> Self {
        with_variant!(game.variant(), G => Self::from_line::<G>(game))
    }

    fn from_line<G: EngineGameType>(game: &AnyGame) -> Self {
        // `with_variant!` chose `G` from the game's own variant.
        let Some((start, moves)) = G::line(game) else {
            unreachable!("a {} game has a line of its own type", game.variant())
        };
        let mut position = start.clone();
        let mut history = PositionHistory::new();
        for &mv in moves {
            history.push(&position);
            position.play(mv);
        }
        Self {
            position: EnginePosition::of(position),
            history,
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
        self.position.0.play_uci(uci, Some(&mut self.history))
    }
}

/// A [`Searcher`] of any game type, so [`EngineSearcher`] can keep one per
/// type without naming the types.
trait AnySearcher: fmt::Debug + Send {
    fn clear(&mut self);
    fn as_any_mut(&mut self) -> &mut dyn Any;
}

impl<G: Evaluate> AnySearcher for Searcher<G> {
    fn clear(&mut self) {
        Self::clear(self);
    }

    fn as_any_mut(&mut self) -> &mut dyn Any {
        self
    }
}

/// One searcher per game type, created on first use, with a shared hash
/// size: what a UCI session or a server's bot worker keeps between moves.
#[derive(Debug)]
pub struct EngineSearcher {
    hash_mb: usize,
    /// At most one searcher per game type, in the order first used.
    searchers: Vec<Box<dyn AnySearcher>>,
}

/// A progress report with moves in UCI notation.
pub type EngineInfo<'a> = SearchInfo<'a, String>;

impl EngineSearcher {
    /// Searchers with transposition tables of about `hash_mb` MiB.
    #[must_use]
    pub const fn new(hash_mb: usize) -> Self {
        Self {
            hash_mb,
            searchers: Vec::new(),
        }
    }

    /// Changes the hash size (dropping what was learnt).
    pub fn set_hash(&mut self, hash_mb: usize) {
        *self = Self::new(hash_mb);
    }

    /// Forgets everything learnt (a new game).
    pub fn clear(&mut self) {
        for s in &mut self.searchers {
            s.clear();
        }
    }

    /// The searcher of game type `G`, created on first use.
    fn searcher<G: Evaluate>(&mut self) -> &mut Searcher<G> {
        let index = match self
            .searchers
            .iter_mut()
            .position(|s| s.as_any_mut().is::<Searcher<G>>())
        {
            Some(i) => i,
            None => {
                self.searchers
                    .push(Box::new(Searcher::<G>::new(self.hash_mb)));
                self.searchers.len() - 1
            }
        };
        match self.searchers[index].as_any_mut().downcast_mut() {
            Some(searcher) => searcher,
            // Found by this very type above, or just pushed.
            None => unreachable!("searcher {index} is a Searcher<G>"),
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
        game.position
            .0
            .search(self, &game.history, limits, options, on_info)
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
            row: None,
            stop,
            deadline: Some(deadline),
        },
        &mut |_| {},
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions_compare_by_game_and_placement() {
        let chess = EnginePosition::start(Variant::Chess);
        let atomic = EnginePosition::start(Variant::Atomic);
        // Same placement and FEN, different games.
        assert_eq!(chess.fen(), atomic.fen());
        assert_ne!(chess, atomic);
        assert_eq!(chess, chess.clone());
        let mut moved = chess.clone();
        moved.play_uci("e2e4").unwrap_or_else(|e| panic!("{e}"));
        assert_ne!(chess, moved);
        for v in Variant::ALL {
            let p = EnginePosition::start(v);
            assert_eq!((p.variant(), p.fen()), (v, v.start_fen().to_owned()));
        }
    }

    /// The engine's copy of a rules game is the game replayed move by move
    /// from text: same position, same history (and so the same search).
    #[test]
    fn a_rules_game_becomes_the_same_engine_game_as_replayed_text() {
        let lines: [(Variant, &[&str]); 4] = [
            (Variant::Chess, &["g1f3", "g8f6", "f3g1", "f6g8", "e2e4"]),
            (Variant::Horde, &["e4e5", "d7d6", "e5d6"]),
            (Variant::Atomic, &["g1f3", "d7d5", "f3e5", "c8g4"]),
            (Variant::Xiangqi, &["h3e3", "h8e8", "e3e7"]),
        ];
        for (variant, moves) in lines {
            let record = AnyGame::replay(variant, None, moves).unwrap_or_else(|e| panic!("{e}"));
            let mut replayed = EngineGame::new(EnginePosition::start(variant));
            for uci in moves {
                replayed.play_uci(uci).unwrap_or_else(|e| panic!("{e}"));
            }
            let direct = EngineGame::from_game(&record);
            assert_eq!(direct, replayed, "{variant}");
            assert_eq!(direct.history().len(), moves.len());
            assert_eq!(direct.position().fen(), record.fen());
        }
    }

    #[test]
    fn a_bad_move_changes_nothing() {
        let mut game = EngineGame::new(EnginePosition::start(Variant::Xiangqi));
        let before = game.clone();
        assert!(matches!(
            game.play_uci("e2e4"),
            Err(MoveError::Illegal { .. })
        ));
        assert!(matches!(game.play_uci("zz"), Err(MoveError::Syntax { .. })));
        assert_eq!(game, before);
    }

    #[test]
    fn one_searcher_per_game_type_is_kept() {
        let mut searchers = EngineSearcher::new(1);
        for v in [Variant::Chess, Variant::Xiangqi, Variant::Chess] {
            let game = EngineGame::new(EnginePosition::start(v));
            let r = searchers.search(
                &game,
                &SearchLimits::depth(2),
                SearchOptions::default(),
                &mut |_| {},
            );
            let best = r.best_move.unwrap_or_default();
            assert!(game.position().legal_moves_uci().contains(&best), "{v}");
        }
        assert_eq!(searchers.searchers.len(), 2);
        searchers.clear();
        assert_eq!(searchers.searchers.len(), 2);
    }
}
