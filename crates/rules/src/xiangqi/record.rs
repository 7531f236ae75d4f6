//! The game record with full adjudication: [`XiangqiGame`].
//!
//! A [`Xiangqi`] position knows only what one position can tell (legal
//! moves, check, mate). The Asian rules also judge the course of the game:
//! perpetual check and chase (§7 of the rules page) and the three MEP draw
//! counters (§6). Both need the history, so they live here, applied in the
//! order of §8 after every ply.

use super::{
    Chase, ChaseStreak, Counters, FenError, Move, MoveWarning, PieceId, PieceIds, PlyReport, Role,
    StreakInfo, Streaks, Threats, Xiangqi, XiangqiConfig, XiangqiPlayError, config::ViolationMode,
};
use crate::{Color, EndReason, Outcome};

/// One side's streak state: lengths and the id sets of §7.5.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
struct SideStreaks {
    check_len: u32,
    check_pieces: u32,
    /// Ids of the targets with a running chase streak.
    chase_targets: u32,
    /// Per target id: (length, attacker id set).
    chase: [(u32, u32); 32],
}

impl SideStreaks {
    fn chases(&self) -> impl Iterator<Item = (u8, u32, u32)> + '_ {
        BitIter(self.chase_targets).map(|id| {
            let (len, pcs) = self.chase[id as usize];
            (id, len, pcs)
        })
    }
}

/// The set bits of a 32-bit id set.
struct BitIter(u32);

impl Iterator for BitIter {
    type Item = u8;
    fn next(&mut self) -> Option<u8> {
        if self.0 == 0 {
            return None;
        }
        let i = self.0.trailing_zeros() as u8;
        self.0 &= self.0 - 1;
        Some(i)
    }
}

/// A violation found by the judgement of §7.6.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Kind {
    Check,
    Chase,
}

/// Everything the adjudication needs about the game so far; small enough
/// to copy for each candidate move.
#[derive(Clone, Debug)]
struct State {
    pos: Xiangqi,
    ids: PieceIds,
    streaks: [SideStreaks; 2],
    counters: Counters,
    last_forcing: bool,
    /// `Threatened(pos, side to move)`: the "before" of the next ply.
    threats: Threats,
}

/// The result of classifying a move from a state.
#[derive(Debug)]
struct Advance {
    state: State,
    report: PlyReport,
    /// The §7.6 verdict on the mover, before the other checks of §8.
    violation: Option<Outcome>,
}

impl State {
    fn new(pos: Xiangqi, config: &XiangqiConfig) -> Self {
        let ids = PieceIds::new(&pos);
        let threats = Threats::new(pos.board(), pos.turn(), config);
        let counters = Counters {
            // Saturate: a FEN fullmove number beyond 2^31 is already far past
            // the moves rule, so the exact figure no longer matters.
            total_plies: u32::try_from(pos.game_ply()).unwrap_or(u32::MAX),
            progress_plies: pos.halfmoves(),
            effective_plies: 0,
        };
        Self {
            pos,
            ids,
            streaks: [SideStreaks::default(); 2],
            counters,
            last_forcing: false,
            threats,
        }
    }

    fn is_progress(&self, mv: Move, config: &XiangqiConfig) -> bool {
        if self.pos.captured(mv).is_some() {
            return true;
        }
        let Some(p) = self.pos.piece_at(mv.from()) else {
            return false;
        };
        if p.role != Role::Soldier {
            return false;
        }
        let (from, to) = (mv.from(), mv.to());
        let forward = match p.color {
            Color::White => to.rank() > from.rank(),
            Color::Black => to.rank() < from.rank(),
        };
        forward
            && (!from.is_own_half(p.color)
                || config.crossing_step_is_progress && !to.is_own_half(p.color))
    }

    /// Classifies `mv` (legal here) and returns the state after it, with
    /// streaks, counters and the verdict of §7.6 for the mover. The next
    /// side's threat map is left empty (see [`State::finish`]).
    fn advance(&self, mv: Move, ply: u32, config: &XiangqiConfig, keys: &[u64]) -> Advance {
        let s = self.pos.turn();
        let y = !s;
        let progress = self.is_progress(mv, config);
        let mut pos = self.pos.clone();
        pos.play_unchecked(mv);
        let mut ids = self.ids.clone();
        ids.play(mv);

        let checkers = pos.board().king_attackers(y);
        let check = checkers.any();
        let after = Threats::new(pos.board(), s, config);
        let before_ids = self.ids.ids(self.threats.targets());
        let mut chased = Vec::new();
        let mut chase_ids: [(u8, u32); 16] = [(0, 0); 16];
        let mut n_chase = 0;
        for (target, attackers) in after.iter() {
            let Some(tid) = ids.get(target) else { continue };
            if before_ids & tid.bit() != 0 {
                continue;
            }
            chased.push(Chase { target, attackers });
            if n_chase < chase_ids.len() {
                chase_ids[n_chase] = (tid.index(), ids.ids(attackers));
                n_chase += 1;
            }
        }
        let forcing = check || !chased.is_empty();
        let effective = !forcing && !self.last_forcing;

        let mut counters = self.counters;
        counters.total_plies = counters.total_plies.saturating_add(1);
        counters.progress_plies = if progress {
            0
        } else {
            counters.progress_plies.saturating_add(1)
        };
        counters.effective_plies += u32::from(effective);

        let mut streaks = self.streaks;
        if progress {
            streaks = [SideStreaks::default(); 2];
        } else {
            let old = streaks[s as usize];
            let mut st = SideStreaks::default();
            if check {
                st.check_len = old.check_len + 1;
                st.check_pieces = old.check_pieces | ids.ids(checkers);
            }
            for &(tid, attackers) in &chase_ids[..n_chase] {
                let (len, pcs) = if old.chase_targets >> tid & 1 != 0 {
                    old.chase[tid as usize & 31]
                } else {
                    (0, 0)
                };
                st.chase_targets |= 1 << (tid & 31);
                st.chase[tid as usize & 31] = (len + 1, pcs | attackers);
            }
            streaks[s as usize] = st;
        }

        let state = Self {
            pos,
            ids,
            streaks,
            counters,
            last_forcing: forcing,
            threats: Threats::default(),
        };
        let violation = state.judge(s, config, keys);
        Advance {
            report: PlyReport {
                ply,
                mv,
                check,
                checkers,
                chased,
                progress,
                effective,
                outcome: None,
            },
            state,
            violation,
        }
    }

    /// §7.6 for the side `s` that just moved.
    fn judge(&self, s: Color, config: &XiangqiConfig, keys: &[u64]) -> Option<Outcome> {
        let limit = |pieces: u32| config.limit(pieces.count_ones());
        let st = &self.streaks[s as usize];
        let (kind_s, k) = if st.check_len > limit(st.check_pieces) {
            (Kind::Check, st.check_len)
        } else {
            let k = st
                .chases()
                .filter(|&(_, len, pcs)| len > limit(pcs))
                .map(|(_, len, _)| len)
                .max()?;
            (Kind::Chase, k)
        };
        if config.require_repetition {
            // The window reaches back to the position before the first
            // move of the streak; `keys[i]` is the position after ply i.
            let p = keys.len();
            let start = (p + 1).saturating_sub(2 * k as usize);
            let key = self.pos.zobrist();
            if !keys[start.min(p)..].contains(&key) {
                return None;
            }
        }
        let yt = &self.streaks[!s as usize];
        let need = k - 1;
        let kind_y = if yt.check_len >= need {
            Some(Kind::Check)
        } else if yt.chases().any(|(_, len, _)| len >= need) {
            Some(Kind::Chase)
        } else {
            None
        };
        Some(match (kind_s, kind_y) {
            (Kind::Check, None) => Outcome::win(!s, EndReason::PerpetualCheck),
            (Kind::Chase, None) => Outcome::win(!s, EndReason::PerpetualChase),
            (Kind::Check, Some(Kind::Check)) => Outcome::draw(EndReason::MutualPerpetualCheck),
            (Kind::Chase, Some(Kind::Chase)) => Outcome::draw(EndReason::MutualPerpetualChase),
            (Kind::Check, Some(Kind::Chase)) => Outcome::win(!s, EndReason::PerpetualCheckVsChase),
            (Kind::Chase, Some(Kind::Check)) => Outcome::win(s, EndReason::PerpetualCheckVsChase),
        })
    }

    /// Computes the next side's threat map, needed as the "before" of the
    /// next ply.
    fn finish(&mut self, config: &XiangqiConfig) {
        self.threats = Threats::new(self.pos.board(), self.pos.turn(), config);
    }

    /// `true` when the side to move has a move the game accepts: any legal
    /// move, or in [`ViolationMode::Forbid`] one that does not lose by the
    /// perpetual rules.
    fn has_allowed_move(&self, config: &XiangqiConfig, keys: &[u64]) -> bool {
        match config.violation_mode {
            ViolationMode::Lose => self.pos.has_legal_moves(),
            ViolationMode::Forbid => {
                let mover = self.pos.turn();
                self.pos.legal_moves().into_iter().any(|mv| {
                    let adv = self.advance(mv, 0, config, keys);
                    !loses(adv.violation, mover)
                })
            }
        }
    }

    /// The end of the game after a ply by `s` whose verdict is `violation`
    /// (§8: no legal move, then the advanced rules, then draws).
    fn adjudicate(
        &self,
        s: Color,
        violation: Option<Outcome>,
        config: &XiangqiConfig,
        keys: &[u64],
    ) -> Option<Outcome> {
        if !self.has_allowed_move(config, keys) {
            let reason = if self.pos.is_check() {
                EndReason::Checkmate
            } else {
                EndReason::Stalemate
            };
            return Some(Outcome::win(s, reason));
        }
        if violation.is_some() {
            return violation;
        }
        if config.insufficient_material_draw && insufficient_material(&self.pos) {
            return Some(Outcome::draw(EndReason::InsufficientMaterial));
        }
        let c = &self.counters;
        if c.total_plies >= config.moves_rule_plies() {
            Some(Outcome::draw(EndReason::MovesRule))
        } else if c.progress_plies >= config.progress_rule_plies() {
            Some(Outcome::draw(EndReason::ProgressRule))
        } else if c.effective_plies >= config.effective_rule_plies() {
            Some(Outcome::draw(EndReason::EffectiveRule))
        } else {
            None
        }
    }

    fn streak_info(&self, len: u32, pieces: u32, config: &XiangqiConfig) -> StreakInfo {
        StreakInfo {
            len,
            pieces: self.ids.squares(pieces),
            limit: config.limit(pieces.count_ones()),
        }
    }

    fn streaks_of(&self, side: Color, config: &XiangqiConfig) -> Streaks {
        let st = &self.streaks[side as usize];
        Streaks {
            check: self.streak_info(st.check_len, st.check_pieces, config),
            chases: self.chase_streaks(st, config),
        }
    }

    fn chase_streaks(&self, st: &SideStreaks, config: &XiangqiConfig) -> Vec<ChaseStreak> {
        let mut out: Vec<ChaseStreak> = st
            .chases()
            .filter_map(|(tid, len, pcs)| {
                let target = self.ids.square(PieceId::from_index(tid))?;
                Some(ChaseStreak {
                    target,
                    streak: self.streak_info(len, pcs, config),
                })
            })
            .collect();
        out.sort_by_key(|c| c.target);
        out
    }
}

/// `true` when `verdict` makes `mover` lose.
fn loses(verdict: Option<Outcome>, mover: Color) -> bool {
    verdict.is_some_and(|o| o.winner == Some(!mover))
}

/// Knob K5: neither side has a piece that can ever give mate (a chariot,
/// horse, cannon or soldier), as Fairy-Stockfish's table says.
fn insufficient_material(pos: &Xiangqi) -> bool {
    let b = pos.board();
    (b.by_role(Role::Chariot) | b.by_role(Role::Horse) | b.by_role(Role::Cannon)).is_empty()
        && b.by_role(Role::Soldier).is_empty()
}

/// A Xiangqi game: the start position, the moves, and everything the Asian
/// rules judge along the way (piece identities, check and chase streaks,
/// draw counters, the per-ply classification) with the result.
///
/// ```
/// use chessplayx_rules::{EndReason, xiangqi::{UciMove, XiangqiGame}};
///
/// let mut game = XiangqiGame::from_fen("5k3/7R1/5a3/9/9/9/9/9/9/4K4 w - - 0 1")?;
/// for (i, uci) in ["h9h10", "f10f9", "h10h9", "f9f10"].iter().cycle().take(13).enumerate() {
///     let mv = UciMove::from_ascii(uci.as_bytes())?.to_move(game.position())?;
///     let report = game.play(mv)?;
///     assert_eq!(report.check, i % 2 == 0);
/// }
/// // The 7th check by one chariot exceeds the limit of 6: Red loses.
/// assert_eq!(game.outcome().map(|o| o.reason), Some(EndReason::PerpetualCheck));
/// assert_eq!(game.end_ply(), Some(13));
/// # Ok::<_, Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug)]
pub struct XiangqiGame {
    config: XiangqiConfig,
    start: Xiangqi,
    state: State,
    moves: Vec<Move>,
    /// Zobrist keys after each ply, `keys[0]` the start; kept only for
    /// knob K1.
    keys: Vec<u64>,
    /// The position the last move was played in, for its notation.
    before_last: Option<Xiangqi>,
    outcome: Option<Outcome>,
    end_ply: Option<u32>,
}

impl XiangqiGame {
    /// A game from `start` under the rules page's defaults. The start
    /// position is adjudicated at once: with no legal move it is over at
    /// ply 0.
    #[must_use]
    pub fn new(start: Xiangqi) -> Self {
        Self::with_config(start, XiangqiConfig::default())
    }

    /// A game from `start` under `config`.
    #[must_use]
    pub fn with_config(start: Xiangqi, config: XiangqiConfig) -> Self {
        let state = State::new(start.clone(), &config);
        let keys = if config.require_repetition {
            vec![start.zobrist()]
        } else {
            Vec::new()
        };
        let outcome = if !state.pos.has_legal_moves() {
            start.outcome()
        } else if config.insufficient_material_draw && insufficient_material(&start) {
            Some(Outcome::draw(EndReason::InsufficientMaterial))
        } else {
            None
        };
        Self {
            config,
            start,
            state,
            moves: Vec::new(),
            keys,
            before_last: None,
            end_ply: outcome.map(|_| 0),
            outcome,
        }
    }

    /// A game from a FEN under the defaults.
    ///
    /// # Errors
    ///
    /// [`FenError`] when the FEN is unreadable or illegal.
    pub fn from_fen(fen: &str) -> Result<Self, FenError> {
        Ok(Self::new(Xiangqi::from_fen(fen)?))
    }

    /// The standard start position under the defaults.
    #[must_use]
    pub fn start() -> Self {
        Self::new(Xiangqi::start())
    }

    /// The rules in force.
    #[must_use]
    pub fn config(&self) -> &XiangqiConfig {
        &self.config
    }

    /// The position before the first move.
    #[must_use]
    pub fn start_position(&self) -> &Xiangqi {
        &self.start
    }

    /// The current position.
    #[must_use]
    pub fn position(&self) -> &Xiangqi {
        &self.state.pos
    }

    /// The side to move.
    #[must_use]
    pub fn turn(&self) -> Color {
        self.state.pos.turn()
    }

    /// The moves played, in order.
    #[must_use]
    pub fn moves(&self) -> &[Move] {
        &self.moves
    }

    /// The classification of every ply played, in order.
    ///
    /// The record does not keep them (a report per ply, with its chased
    /// pieces, would be most of a long game's record): they are computed
    /// again by replaying the moves from the start under the same rules,
    /// which classifies every ply exactly as when it was played.
    #[must_use]
    pub fn plies(&self) -> Vec<PlyReport> {
        let mut replay = Self::with_config(self.start.clone(), self.config);
        self.moves
            .iter()
            .map_while(|&mv| replay.play(mv).ok())
            .collect()
    }

    /// The last move, if any.
    #[must_use]
    pub fn last_move(&self) -> Option<Move> {
        self.moves.last().copied()
    }

    /// The position the last move was played in (`None` before the first
    /// move), e.g. to write that move in WXF with [`Xiangqi::wxf`].
    #[must_use]
    pub fn position_before_last_move(&self) -> Option<&Xiangqi> {
        self.before_last.as_ref()
    }

    /// The last move in WXF notation (`C2=5`), as the status output shows
    /// it.
    #[must_use]
    pub fn last_move_wxf(&self) -> Option<String> {
        Some(self.before_last.as_ref()?.wxf(self.last_move()?))
    }

    /// The result, once the game is over.
    #[must_use]
    pub fn outcome(&self) -> Option<Outcome> {
        self.outcome
    }

    /// The ply the game ended on (0 = the start position itself).
    #[must_use]
    pub fn end_ply(&self) -> Option<u32> {
        self.end_ply
    }

    /// `true` when the side to move is in check.
    #[must_use]
    pub fn is_check(&self) -> bool {
        self.state.pos.is_check()
    }

    /// The draw counters after the last ply.
    #[must_use]
    pub fn counters(&self) -> Counters {
        self.state.counters
    }

    /// The running streaks of `side`.
    #[must_use]
    pub fn streaks(&self, side: Color) -> Streaks {
        self.state.streaks_of(side, &self.config)
    }

    /// Which piece stands where.
    #[must_use]
    pub fn piece_ids(&self) -> &PieceIds {
        &self.state.ids
    }

    /// `Threatened(position, side to move)` of §7.3: what the side to move
    /// threatens now (a move keeping these threats chases nothing new).
    #[must_use]
    pub fn threats(&self) -> &Threats {
        &self.state.threats
    }

    /// The moves the game accepts: none once it is over; the position's
    /// legal moves otherwise, without the refused ones in
    /// [`ViolationMode::Forbid`].
    #[must_use]
    pub fn legal_moves(&self) -> Vec<Move> {
        if self.outcome.is_some() {
            return Vec::new();
        }
        let moves = self.state.pos.legal_moves();
        match self.config.violation_mode {
            ViolationMode::Lose => moves,
            ViolationMode::Forbid => {
                let mover = self.turn();
                moves
                    .into_iter()
                    .filter(|&mv| !loses(self.advance(mv).violation, mover))
                    .collect()
            }
        }
    }

    fn advance(&self, mv: Move) -> Advance {
        self.state
            .advance(mv, self.ply_count() + 1, &self.config, &self.keys)
    }

    /// Plies played in this record.
    #[must_use]
    pub fn ply_count(&self) -> u32 {
        self.moves.len() as u32
    }

    /// Plays `mv`, classifies it and adjudicates the game (§8).
    ///
    /// # Errors
    ///
    /// [`XiangqiPlayError::GameOver`] after the end,
    /// [`XiangqiPlayError::Illegal`] for a move the position does not
    /// allow, [`XiangqiPlayError::Forbidden`] for a refused perpetual in
    /// [`ViolationMode::Forbid`]. The game is unchanged on error.
    pub fn play(&mut self, mv: Move) -> Result<PlyReport, XiangqiPlayError> {
        if let Some(outcome) = self.outcome {
            return Err(XiangqiPlayError::GameOver { outcome });
        }
        if !self.state.pos.is_legal(mv) {
            return Err(XiangqiPlayError::Illegal { mv });
        }
        let s = self.turn();
        let Advance {
            mut state,
            mut report,
            violation,
        } = self.advance(mv);
        if self.config.violation_mode == ViolationMode::Forbid
            && let Some(outcome) = violation.filter(|_| loses(violation, s))
        {
            return Err(XiangqiPlayError::Forbidden { mv, outcome });
        }
        state.finish(&self.config);
        if self.config.require_repetition {
            self.keys.push(state.pos.zobrist());
        }
        let outcome = state.adjudicate(s, violation, &self.config, &self.keys);
        report.outcome = outcome;
        let before = core::mem::replace(&mut self.state, state);
        self.before_last = Some(before.pos);
        self.moves.push(mv);
        if outcome.is_some() {
            self.outcome = outcome;
            self.end_ply = Some(self.ply_count());
        }
        Ok(report)
    }

    /// What `mv` would do, without playing it.
    ///
    /// # Errors
    ///
    /// As [`XiangqiGame::play`], except that a refused move is reported
    /// with [`MoveWarning::forbidden`] rather than as an error.
    pub fn warning(&self, mv: Move) -> Result<MoveWarning, XiangqiPlayError> {
        if let Some(outcome) = self.outcome {
            return Err(XiangqiPlayError::GameOver { outcome });
        }
        if !self.state.pos.is_legal(mv) {
            return Err(XiangqiPlayError::Illegal { mv });
        }
        Ok(self.warning_unchecked(mv))
    }

    fn warning_unchecked(&self, mv: Move) -> MoveWarning {
        let s = self.turn();
        let adv = self.advance(mv);
        let forbidden =
            self.config.violation_mode == ViolationMode::Forbid && loses(adv.violation, s);
        let outcome = if forbidden {
            adv.violation
        } else if self.config.violation_mode == ViolationMode::Forbid
            || self.config.require_repetition
        {
            // The full adjudication needs the next side's threat map (to
            // refuse its moves) or the key history.
            let mut state = adv.state.clone();
            state.finish(&self.config);
            let mut keys = self.keys.clone();
            if self.config.require_repetition {
                keys.push(state.pos.zobrist());
            }
            state.adjudicate(s, adv.violation, &self.config, &keys)
        } else {
            adv.state
                .adjudicate(s, adv.violation, &self.config, &self.keys)
        };
        let st = &adv.state.streaks[s as usize];
        MoveWarning {
            mv,
            outcome,
            forbidden,
            check: (st.check_len > 0).then(|| {
                adv.state
                    .streak_info(st.check_len, st.check_pieces, &self.config)
            }),
            chases: adv.state.chase_streaks(st, &self.config),
        }
    }

    /// For every legal move of the position (refused ones included, marked
    /// [`MoveWarning::forbidden`]): the end it would bring and the check
    /// and chase streaks it would extend. Empty once the game is over.
    #[must_use]
    pub fn move_warnings(&self) -> Vec<MoveWarning> {
        if self.outcome.is_some() {
            return Vec::new();
        }
        self.state
            .pos
            .legal_moves()
            .into_iter()
            .map(|mv| self.warning_unchecked(mv))
            .collect()
    }
}

impl Default for XiangqiGame {
    fn default() -> Self {
        Self::start()
    }
}
