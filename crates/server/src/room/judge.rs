//! The room's judge: its state (game, seats, clocks, offers, outcome,
//! room state, event number) and [`RoomCore::decide`], which takes a
//! command and the time and returns a typed refusal or a [`Transition`]
//! without changing anything. The actor writes the transition's store
//! operations and calls [`RoomCore::apply`] only once they are committed,
//! so a failed write leaves nothing to roll back.

use chessplayx_rules::{AnyGame, AnyPlayError, ByColor, Claim, Color, MoveError, Variant};
use tokio::time::Instant;

use super::{clock::Clocks, offers::OfferMsg};
use crate::{
    protocol::{ClockJson, EndReason, ErrorCode, OfferKind, Offers, RoomOutcome},
    store::{MoveRecord, ResultRecord, RoomRecord, RoomState, SeatRecord, WriteOp},
};

mod social;
#[cfg(test)]
mod tests;

/// A refusal sent back to the client as an `error` message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Refusal {
    pub(super) code: ErrorCode,
    pub(super) message: String,
}

pub(super) fn refuse(code: ErrorCode, message: impl Into<String>) -> Refusal {
    Refusal {
        code,
        message: message.into(),
    }
}

/// The time of a command: the monotonic instant the clocks use and the
/// wall-clock time stored with a move.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(super) struct Now {
    pub(super) at: Instant,
    pub(super) unix_ms: u64,
}

impl Now {
    /// The current time.
    pub(super) fn current() -> Self {
        Self {
            at: Instant::now(),
            unix_ms: crate::util::unix_ms(),
        }
    }
}

/// The commands the judge decides.
#[derive(Copy, Clone, Debug)]
pub(super) enum Command<'a> {
    /// A move by seat `me`. `ply` is the client's ply (`None` for the
    /// AI's move, which is neither acknowledged nor checked for staleness);
    /// `held` the seats the sending connection holds (a re-sent move of
    /// one of them is acknowledged again).
    Move {
        me: Color,
        held: ByColor<bool>,
        uci: &'a str,
        ply: Option<u32>,
    },
    /// `resign` by `me`.
    Resign { me: Color },
    /// `abort`.
    Abort,
    /// A draw claim by `me`.
    Claim { me: Color, claim: Claim },
    /// `claim_victory` by `me`; `opponent_gone` when the opponent's
    /// disconnect countdown ran out and it has not come back.
    ClaimVictory { me: Color, opponent_gone: bool },
    /// The flag timer fired.
    Flag,
    /// An offer, accept or decline by `me`; `new_room` is the id a
    /// rematch room would get.
    Offer {
        me: Color,
        msg: OfferMsg,
        new_room: &'a str,
    },
    /// Take the free seat with an invite whose hash is `invite_hash`,
    /// under a new seat token whose hash is `token_hash`.
    ClaimSeat {
        invite_hash: &'a str,
        token_hash: &'a str,
    },
}

/// What the actor sends once a transition is applied, in this order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum Out {
    /// `ack` to the sender.
    Ack { ply: u32, v: u64 },
    /// An `error` to the sender (the command had an effect all the same,
    /// e.g. a move after the flag fell ends the game).
    Refused(Refusal),
    /// The `move` event `v` (the position is the game after `ply + 1`).
    Move {
        v: u64,
        ply: u32,
        uci: String,
        san: String,
        by: Color,
        clock: Option<ClockJson>,
    },
    /// The `end` event `v`.
    End {
        v: u64,
        outcome: RoomOutcome,
        clock: Option<ClockJson>,
    },
    /// The `offer` (or `decline`) event `v`.
    Offer {
        v: u64,
        decline: bool,
        kind: OfferKind,
        by: Color,
    },
    /// The `rematch` event `v`: the new room `record` was written.
    Rematch { v: u64, record: Box<RoomRecord> },
    /// The `joined` event `v`: `color`'s seat was taken.
    Joined { v: u64, color: Color },
    /// The `takeback` event `v`, leaving `ply` plies.
    Takeback {
        v: u64,
        undone: u32,
        ply: u32,
        clock: Option<ClockJson>,
    },
}

/// What the AI seat must do after a transition.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(super) enum AiWork {
    /// Nothing changes.
    Keep,
    /// Start a search if the side to move is the AI's.
    Start,
    /// Stop any search (the game ended).
    Stop,
    /// Stop any search, then start one if the side to move is the AI's.
    Restart,
}

/// How the list of move event numbers changes.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum MoveNumbers {
    Keep,
    Push(u64),
    Truncate(usize),
}

/// The state after a transition (only what a command may change).
#[derive(Clone, Debug)]
struct Next {
    game: Option<Box<AnyGame>>,
    move_v: MoveNumbers,
    clock: Option<Clocks>,
    offers: Offers,
    outcome: Option<RoomOutcome>,
    state: RoomState,
    v: u64,
    clear_invites: bool,
    /// The rematch room's id, once agreed.
    rematch: Option<String>,
    /// A seat taken, with its token hash.
    claimed: Option<(Color, String)>,
}

/// A decided command: commit `ops`, then [`RoomCore::apply`] it, then
/// send `out` and do `ai`.
#[derive(Clone, Debug)]
pub(super) struct Transition {
    pub(super) ops: Vec<WriteOp>,
    pub(super) out: Vec<Out>,
    pub(super) ai: AiWork,
    next: Option<Next>,
}

/// The room's state as far as judging goes.
#[derive(Clone, Debug)]
pub(super) struct RoomCore {
    pub(super) id: String,
    pub(super) game: AnyGame,
    /// The number of each played move's `move` event (to acknowledge a
    /// re-sent move again). The moves themselves and their notation come
    /// from `game`, which keeps them compactly: a room holds its history
    /// for its whole life, so nothing here is kept twice.
    pub(super) move_v: Vec<u64>,
    pub(super) seats: ByColor<SeatRecord>,
    pub(super) invite_hash: Option<String>,
    pub(super) lobby_invite: Option<String>,
    pub(super) clock: Option<Clocks>,
    pub(super) state: RoomState,
    pub(super) outcome: Option<RoomOutcome>,
    pub(super) offers: Offers,
    pub(super) v: u64,
    pub(super) variant: Variant,
    pub(super) start_fen: Option<String>,
    pub(super) rematch_id: Option<String>,
}

type Decided = Result<Transition, Refusal>;

fn game_over() -> Refusal {
    refuse(ErrorCode::GameOver, "the game is over")
}

fn play_error(e: &AnyPlayError) -> Refusal {
    match e {
        AnyPlayError::Move(MoveError::Syntax { .. }) => refuse(ErrorCode::BadMove, e.to_string()),
        AnyPlayError::Move(MoveError::Illegal { .. }) => {
            refuse(ErrorCode::IllegalMove, e.to_string())
        }
        AnyPlayError::GameOver { .. } => refuse(ErrorCode::GameOver, e.to_string()),
    }
}

fn u32_of(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}

impl RoomCore {
    /// Decides `cmd` at `now` without changing anything.
    pub(super) fn decide(&self, cmd: Command<'_>, now: Now) -> Decided {
        match cmd {
            Command::Move { me, held, uci, ply } => self.decide_move(me, held, uci, ply, now),
            Command::Resign { me } => {
                self.require_playing()?;
                self.finish(
                    RoomOutcome {
                        winner: Some(!me),
                        reason: EndReason::Resignation,
                    },
                    now.at,
                )
            }
            Command::Abort => {
                if self.outcome.is_some() {
                    return Err(game_over());
                }
                if self.game.ply() >= 2 {
                    return Err(refuse(
                        ErrorCode::CannotAbort,
                        "both sides have moved; resign instead",
                    ));
                }
                self.finish(
                    RoomOutcome {
                        winner: None,
                        reason: EndReason::Aborted,
                    },
                    now.at,
                )
            }
            Command::Claim { me, claim } => self.decide_claim(me, claim, now.at),
            Command::ClaimVictory { me, opponent_gone } => {
                self.require_playing()?;
                if !opponent_gone {
                    return Err(refuse(
                        ErrorCode::CannotClaim,
                        "the opponent's disconnect countdown has not run out",
                    ));
                }
                self.finish(
                    RoomOutcome {
                        winner: Some(me),
                        reason: EndReason::Abandoned,
                    },
                    now.at,
                )
            }
            Command::Flag => match self.clock.as_ref().and_then(|c| c.flagged(now.at)) {
                Some(flagged) if self.outcome.is_none() => {
                    self.finish(self.flag_outcome(flagged), now.at)
                }
                _ => Err(refuse(ErrorCode::CannotClaim, "no flag has fallen")),
            },
            Command::Offer { me, msg, new_room } => self.decide_offer(me, msg, new_room, now),
            Command::ClaimSeat {
                invite_hash,
                token_hash,
            } => self.decide_claim_seat(invite_hash, token_hash),
        }
    }

    /// Applies a transition whose store writes were committed.
    pub(super) fn apply(&mut self, t: Transition) -> Transition {
        let mut t = t;
        let Some(next) = t.next.take() else {
            return t;
        };
        if let Some(game) = next.game {
            self.game = *game;
        }
        match next.move_v {
            MoveNumbers::Keep => {}
            MoveNumbers::Push(v) => self.move_v.push(v),
            MoveNumbers::Truncate(n) => self.move_v.truncate(n),
        }
        self.clock = next.clock;
        self.offers = next.offers;
        self.outcome = next.outcome;
        self.state = next.state;
        self.v = next.v;
        if let Some(id) = next.rematch {
            self.rematch_id = Some(id);
        }
        if let Some((seat, hash)) = next.claimed {
            self.seats.get_mut(seat).token_hash = Some(hash);
        }
        if next.clear_invites {
            self.invite_hash = None;
            self.lobby_invite = None;
        }
        t
    }

    /// The state unchanged, as the start of a [`Next`].
    fn unchanged(&self) -> Next {
        Next {
            game: None,
            move_v: MoveNumbers::Keep,
            clock: self.clock.clone(),
            offers: self.offers,
            outcome: self.outcome,
            state: self.state,
            v: self.v,
            clear_invites: false,
            rematch: None,
            claimed: None,
        }
    }

    /// The seat a message acts for: the one `as` names (it must be held),
    /// else the only seat held, else for a connection holding both the
    /// side to move (White once the game is over); `None` for spectators.
    pub(super) fn acting_seat(
        &self,
        held: ByColor<bool>,
        named: Option<Color>,
    ) -> Result<Option<Color>, Refusal> {
        if let Some(c) = named {
            return if *held.get(c) {
                Ok(Some(c))
            } else {
                Err(refuse(
                    ErrorCode::NotAPlayer,
                    format!("you do not hold the {c} seat"),
                ))
            };
        }
        Ok(match (held.white, held.black) {
            (true, true) if self.outcome.is_some() => Some(Color::White),
            (true, true) => Some(self.game.turn()),
            (true, false) => Some(Color::White),
            (false, true) => Some(Color::Black),
            (false, false) => None,
        })
    }

    pub(super) fn require_playing(&self) -> Result<(), Refusal> {
        if self.outcome.is_some() {
            return Err(game_over());
        }
        if self.state == RoomState::Waiting {
            return Err(refuse(
                ErrorCode::NotStarted,
                "nobody has taken the other seat yet",
            ));
        }
        Ok(())
    }

    pub(super) fn ai_seat(&self, color: Color) -> Option<u8> {
        self.seats.get(color).ai_level
    }

    /// The side that made the game's first move (Black when the start FEN
    /// has Black to move).
    pub(super) fn game_first_mover(&self) -> Color {
        if self.game.ply().is_multiple_of(2) {
            self.game.turn()
        } else {
            !self.game.turn()
        }
    }

    /// How many plies to remove so that `who`'s last move is undone and it
    /// is `who`'s turn again.
    pub(super) fn plies_to_undo(&self, who: Color) -> Option<usize> {
        let n = if self.game.turn() == who { 2 } else { 1 };
        let first = self.game_first_mover();
        // `who` must have made a move among the last `n` plies.
        let ply = self.game.ply();
        (ply >= n && (ply - n) % 2 == usize::from(first != who)).then_some(n)
    }

    /// The end when `flagged`'s time ran out: the opponent wins, unless it
    /// could not win by any legal sequence of moves (a bare king, …): then
    /// a draw, as on lichess.
    pub(super) fn flag_outcome(&self, flagged: Color) -> RoomOutcome {
        if self.game.can_still_win(!flagged) {
            RoomOutcome {
                winner: Some(!flagged),
                reason: EndReason::Timeout,
            }
        } else {
            RoomOutcome {
                winner: None,
                reason: EndReason::TimeoutVsInsufficientMaterial,
            }
        }
    }

    pub(super) fn finish_op(&self, outcome: RoomOutcome, v: u64) -> WriteOp {
        WriteOp::Finish {
            room: self.id.clone(),
            result: ResultRecord {
                winner: outcome.winner,
                reason: outcome.reason.name().to_owned(),
            },
            v,
        }
    }

    /// `next` turned into the end `outcome` as event `v`: the clocks
    /// stop, the offers and invites lapse.
    fn end_into(next: &mut Next, outcome: RoomOutcome, v: u64, at: Instant) -> Out {
        if let Some(c) = next.clock.as_mut() {
            c.stop(at);
        }
        next.state = RoomState::Finished;
        next.outcome = Some(outcome);
        next.offers = Offers::default();
        next.clear_invites = true;
        next.v = v;
        Out::End {
            v,
            outcome,
            clock: next.clock.as_ref().map(|c| c.json(at)),
        }
    }

    /// Ends the game for a reason the room decides (resignation, time,
    /// agreement, abort, abandonment, a claimed draw).
    fn finish(&self, outcome: RoomOutcome, at: Instant) -> Decided {
        if self.outcome.is_some() {
            return Err(game_over());
        }
        let v = self.v + 1;
        let mut next = self.unchanged();
        let end = Self::end_into(&mut next, outcome, v, at);
        Ok(Transition {
            ops: vec![self.finish_op(outcome, v)],
            out: vec![end],
            ai: AiWork::Stop,
            next: Some(next),
        })
    }

    fn decide_claim(&self, me: Color, claim: Claim, at: Instant) -> Decided {
        self.require_playing()?;
        if self.game.turn() != me {
            return Err(refuse(ErrorCode::NotYourTurn, "claim on your turn"));
        }
        if !self.game.claimable().contains(&claim) {
            return Err(refuse(
                ErrorCode::CannotClaim,
                format!("{claim} cannot be claimed now"),
            ));
        }
        self.finish(
            RoomOutcome {
                winner: None,
                reason: EndReason::from(claim.end_reason()),
            },
            at,
        )
    }

    /// A client's move: a re-sent duplicate is acknowledged again, a stale
    /// ply refused, else it must be `me`'s turn in a running game.
    fn decide_move(
        &self,
        me: Color,
        held: ByColor<bool>,
        uci: &str,
        ply: Option<u32>,
        now: Now,
    ) -> Decided {
        let Some(ply) = ply else {
            // The AI's move: for the side to move, in a game not over.
            if self.outcome.is_some() {
                return Err(game_over());
            }
            if self.game.turn() != me {
                return Err(refuse(ErrorCode::NotYourTurn, "it is not your turn"));
            }
            return self.play(me, uci, None, now);
        };
        let current = self.game.ply();
        let ply_index = usize::try_from(ply).unwrap_or(usize::MAX);
        if ply_index < current {
            // Already played: the same move by a seat this connection
            // holds is a re-sent duplicate; anything else means the
            // client is behind.
            let mover = if ply_index % 2 == 0 {
                self.game_first_mover()
            } else {
                !self.game_first_mover()
            };
            if let Some(&v) = self.move_v.get(ply_index)
                && self.game.uci_at(ply_index).as_deref() == Some(uci)
                && *held.get(mover)
            {
                return Ok(Transition {
                    ops: Vec::new(),
                    out: vec![Out::Ack { ply, v }],
                    ai: AiWork::Keep,
                    next: None,
                });
            }
            return Err(refuse(
                ErrorCode::Stale,
                format!("ply {ply} has already been played"),
            ));
        }
        if ply_index > current {
            return Err(refuse(
                ErrorCode::Stale,
                format!("the game is at ply {current}, not {ply}"),
            ));
        }
        self.require_playing()?;
        if self.game.turn() != me {
            return Err(refuse(ErrorCode::NotYourTurn, "it is not your turn"));
        }
        self.play(me, uci, Some(ply), now)
    }

    /// Plays `uci` for `me` on a copy: the move (and the end it brings),
    /// acknowledged to the mover when `ack` names its ply. A flag that
    /// already fell ends the game instead, and the mover is told.
    fn play(&self, me: Color, uci: &str, ack: Option<u32>, now: Now) -> Decided {
        if let Some(flagged) = self.clock.as_ref().and_then(|c| c.flagged(now.at)) {
            let mut t = self.finish(self.flag_outcome(flagged), now.at)?;
            t.out.push(Out::Refused(refuse(
                ErrorCode::GameOver,
                "your time ran out",
            )));
            return Ok(t);
        }
        let mut game = self.game.clone();
        let played = game.play_uci(uci).map_err(|e| play_error(&e))?;
        let ply = game.ply() - 1;
        let mut next = self.unchanged();
        if let Some(c) = next.clock.as_mut() {
            c.after_move(me, now.at, game.ply() >= 2);
        }
        let v = self.v + 1;
        let record = MoveRecord {
            ply: u32_of(ply),
            uci: played.uci.clone(),
            clock: next.clock.as_ref().map(|c| c.stored(now.at)),
            played_at: now.unix_ms,
            v,
        };
        let rules_end = game.outcome().map(|o| RoomOutcome {
            winner: o.winner,
            reason: EndReason::from(o.reason),
        });
        let mut ops = vec![WriteOp::Move {
            room: self.id.clone(),
            record,
        }];
        let mut out: Vec<Out> = ack.map(|ply| Out::Ack { ply, v }).into_iter().collect();
        out.push(Out::Move {
            v,
            ply: u32_of(ply),
            uci: played.uci,
            san: played.san,
            by: me,
            clock: next.clock.as_ref().map(|c| c.json(now.at)),
        });
        next.game = Some(Box::new(game));
        next.move_v = MoveNumbers::Push(v);
        next.offers.draw = None;
        next.offers.takeback = None;
        next.v = v;
        let mut ai = AiWork::Start;
        if let Some(o) = rules_end {
            ops.push(self.finish_op(o, v + 1));
            out.push(Self::end_into(&mut next, o, v + 1, now.at));
            ai = AiWork::Stop;
        }
        Ok(Transition {
            ops,
            out,
            ai,
            next: Some(next),
        })
    }

    /// Takes back `who`'s last move (and the reply to it).
    fn decide_takeback(&self, who: Color, at: Instant) -> Decided {
        // The offers already ask for a running game; the judge does not
        // rely on it (a takeback after the end would restart the clocks).
        self.require_playing()?;
        let Some(n) = self.plies_to_undo(who) else {
            return Err(refuse(ErrorCode::CannotTakeback, "no move to take back"));
        };
        let mut game = self.game.clone();
        for _ in 0..n {
            game.undo();
        }
        let keep = game.ply();
        let v = self.v + 1;
        let mut next = self.unchanged();
        if let Some(c) = next.clock.as_mut() {
            if keep >= 2 {
                c.start(game.turn(), at);
            } else {
                c.stop(at);
            }
        }
        let out = Out::Takeback {
            v,
            undone: u32::try_from(n).unwrap_or(0),
            ply: u32_of(keep),
            clock: next.clock.as_ref().map(|c| c.json(at)),
        };
        next.game = Some(Box::new(game));
        next.move_v = MoveNumbers::Truncate(keep);
        next.offers.draw = None;
        next.offers.takeback = None;
        next.v = v;
        Ok(Transition {
            ops: vec![WriteOp::Takeback {
                room: self.id.clone(),
                keep: u32_of(keep),
                v,
            }],
            out: vec![out],
            ai: AiWork::Restart,
            next: Some(next),
        })
    }
}
