//! The room actor: the only owner of a room's game and state.

mod ai;
mod commands;
mod lease;
mod output;

use std::{
    collections::VecDeque,
    sync::{
        Arc,
        atomic::{AtomicBool, Ordering},
    },
    time::Duration,
};

use axum::extract::ws::Utf8Bytes;
use chessplayx_rules::{AnyGame, ByColor, Color, GameStatus, MoveInfo, MoveWarningInfo};
use tokio::{
    sync::mpsc,
    time::{Instant, sleep_until},
};

use super::{
    Auth, JoinReply, Outgoing, RoomCmd, RoomHandle, RoomSummary,
    clock::Clocks,
    free_seat,
    judge::{AiWork, Command, Now, Out, Refusal, RoomCore, Transition, refuse},
    offers,
    registry::RoomLoadError,
};
use crate::{
    bot::{AiOutcome, AiRequest},
    lobby::{Listing, LobbyUpdate},
    protocol::{
        AckMsg, ClientMsg, ClockJson, EndEvent, EndReason, ErrorCode, Event, HistoryMove,
        JoinedEvent, MoveEvent, OfferEvent, OfferKind, PlayerJson, PresenceSide, RematchEvent,
        SeatMsg, ServerMsg, StateMsg, TakebackEvent, encode, encode_event, error_msg, pong,
    },
    state::Shared,
    store::{RoomRecord, RoomState},
    util::{hash_token, new_room_id, new_token},
};

/// The replay log of a room keeps this many events. Move and takeback
/// events are kept in a compact form (~50 bytes) and encoded again when
/// replayed, the others (small) as sent; a client that is further behind
/// gets a `state`.
const REPLAY_EVENTS: usize = 16;

type Acted = Result<(), Refusal>;

/// An event kept for replays. A `move` or `takeback` event is mostly the
/// position's legal moves (2-3 KiB encoded); keeping those bytes for every
/// room was the largest part of the server's memory during play, while
/// the room can recompute them exactly from its history when a client
/// asks for a replay (rare).
#[derive(Clone, Debug)]
enum Logged {
    /// Sent again as it was (offers, joins, ends, rematches: small).
    Encoded(Utf8Bytes),
    /// A `move` event: the move is the game's move `ply`, the position
    /// after it is the game after `ply + 1` plies.
    Move {
        ply: u32,
        by: Color,
        clock: Option<ClockJson>,
    },
    /// A `takeback` event leaving `ply` plies. The log is emptied before a
    /// takeback is logged, so every logged move and takeback lies on the
    /// current history.
    Takeback {
        undone: u32,
        ply: u32,
        clock: Option<ClockJson>,
    },
}

impl Logged {
    /// The plies of the position the event describes (`None`: none).
    fn plies(&self) -> Option<usize> {
        match self {
            Self::Encoded(_) => None,
            Self::Move { ply, .. } => usize::try_from(*ply).ok().map(|p| p + 1),
            Self::Takeback { ply, .. } => usize::try_from(*ply).ok(),
        }
    }
}

/// A connection subscribed to the room.
struct Sub {
    id: u64,
    tx: mpsc::Sender<Outgoing>,
    /// The seats it holds (both for a same-device connection).
    seats: Held,
}

/// The seats one connection holds.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
struct Held(ByColor<bool>);

impl Held {
    fn holds(self, c: Color) -> bool {
        *self.0.get(c)
    }

    /// The held colours, White first.
    fn list(self) -> Vec<Color> {
        Color::ALL.into_iter().filter(|&c| self.holds(c)).collect()
    }

    /// The seat when exactly one is held (`you` of `state`).
    fn single(self) -> Option<Color> {
        match (self.0.white, self.0.black) {
            (true, false) => Some(Color::White),
            (false, true) => Some(Color::Black),
            _ => None,
        }
    }
}

/// The derived views of the position for one message. Not kept between
/// messages: at ~7 KiB per room it would be most of an idle room's memory,
/// and recomputing costs microseconds.
struct View {
    status: GameStatus,
    moves: Vec<MoveInfo>,
    warnings: Vec<MoveWarningInfo>,
}

impl View {
    fn of(game: &AnyGame) -> Self {
        let (status, moves) = game.status_and_moves();
        Self {
            status,
            moves,
            warnings: game.move_warnings(),
        }
    }
}

/// A disconnect countdown of a player on turn.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
struct Countdown {
    until: Instant,
    expired: bool,
}

/// A running AI search.
struct AiJob {
    ply: usize,
    stop: Arc<AtomicBool>,
}

pub(super) struct RoomActor {
    shared: Arc<Shared>,
    rx: mpsc::Receiver<RoomCmd>,
    weak: mpsc::WeakSender<RoomCmd>,
    /// The judged state: game, seats, clocks, offers, outcome, event
    /// number.
    core: RoomCore,
    public: bool,
    created_at: u64,
    log: VecDeque<(u64, Logged)>,
    subs: Vec<Sub>,
    next_sub: u64,
    conns: ByColor<usize>,
    countdown: ByColor<Option<Countdown>>,
    sent_presence: Option<ByColor<(bool, Option<Countdown>)>>,
    ai: Option<AiJob>,
    idle_since: Instant,
    /// In a cluster, the epoch of the room's lease, carried by every
    /// write (`lease.rs`).
    epoch: Option<i64>,
    /// A write was fenced or the lease is gone: the room stops here.
    lost: bool,
}

impl RoomActor {
    /// Rebuilds a room from its record: replays the moves, restores the
    /// clocks from the last move (the downtime is not charged; a cluster's
    /// take-over charges it after, `lease.rs`) and starts the side to
    /// move's clock if the game runs.
    pub(super) fn new(
        shared: Arc<Shared>,
        record: RoomRecord,
        rx: mpsc::Receiver<RoomCmd>,
        weak: mpsc::WeakSender<RoomCmd>,
    ) -> Result<Self, RoomLoadError> {
        let (game, outcome) = super::registry::replay(&record)?;
        let move_v = record.moves.iter().map(|m| m.v).collect();
        let now = Instant::now();
        let clock = record.clock.map(|config| {
            let mut clocks = match record.moves.last().and_then(|m| m.clock) {
                Some(stored) => Clocks::restored(config, stored),
                None => Clocks::new(config),
            };
            if record.state == RoomState::Playing && outcome.is_none() && game.ply() >= 2 {
                clocks.start(game.turn(), now);
            }
            clocks
        });
        let actor = Self {
            core: RoomCore {
                id: record.id,
                game,
                move_v,
                seats: record.seats,
                invite_hash: record.invite_hash,
                lobby_invite: record.lobby_invite,
                clock,
                state: record.state,
                outcome,
                offers: offers::decode(&record.offers),
                v: record.v,
                variant: record.variant,
                start_fen: record.start_fen,
                rematch_id: record.rematch_id,
            },
            public: record.public,
            created_at: record.created_at,
            log: VecDeque::new(),
            subs: Vec::new(),
            next_sub: 0,
            conns: ByColor::default(),
            countdown: ByColor::default(),
            sent_presence: None,
            ai: None,
            idle_since: now,
            epoch: None,
            lost: false,
            shared,
            rx,
            weak,
        };
        actor.tell_lobby();
        Ok(actor)
    }

    pub(super) async fn run(mut self) {
        self.maybe_start_ai();
        loop {
            let deadline = self.next_deadline();
            tokio::select! {
                cmd = self.rx.recv() => {
                    let Some(cmd) = cmd else { break };
                    self.handle(cmd).await;
                    if self.lost {
                        self.stop_lost();
                        break;
                    }
                }
                () = sleep_until(deadline.unwrap_or_else(Instant::now)), if deadline.is_some() => {
                    if self.on_timer().await {
                        break;
                    }
                    if self.lost {
                        self.stop_lost();
                        break;
                    }
                }
            }
            self.flush_presence();
        }
        self.stop_ai();
    }

    // ----- timers -------------------------------------------------------

    /// A room with nobody connected leaves memory after a while unless
    /// something must happen without anyone: a running clock (its flag
    /// must fall) or an AI to move. It reloads from the store on the next
    /// visit.
    fn retirable(&self) -> bool {
        self.subs.is_empty()
            && self.ai.is_none()
            && self
                .core
                .clock
                .as_ref()
                .is_none_or(|c| c.running().is_none())
    }

    fn next_deadline(&self) -> Option<Instant> {
        let mut next: Option<Instant> = None;
        let mut consider = |t: Instant| next = Some(next.map_or(t, |n| n.min(t)));
        if self.core.outcome.is_none()
            && let Some(t) = self.core.clock.as_ref().and_then(Clocks::flag_at)
        {
            consider(t);
        }
        for c in Color::ALL {
            if let Some(cd) = self.countdown.get(c).filter(|cd| !cd.expired) {
                consider(cd.until);
            }
        }
        if self.retirable() {
            consider(self.idle_since + self.shared.config.idle_room);
        }
        next
    }

    /// Handles whatever came due; `true` when the actor should stop.
    async fn on_timer(&mut self) -> bool {
        let now = Instant::now();
        if self.core.outcome.is_none()
            && self
                .core
                .clock
                .as_ref()
                .is_some_and(|c| c.flagged(now).is_some())
        {
            // A refusal here (no flag after all) changes nothing.
            let _ignored = self.decide_and_commit(None, Command::Flag).await;
        }
        for c in Color::ALL {
            if let Some(cd) = self.countdown.get_mut(c)
                && cd.until <= now
            {
                cd.expired = true;
            }
        }
        if self.retirable() && now >= self.idle_since + self.shared.config.idle_room {
            self.retire();
            return true;
        }
        false
    }

    /// Leaves the registry, then answers what is still queued: joins are
    /// told to retry (they will load the room afresh), questions answered.
    fn retire(&mut self) {
        if let Some(tx) = self.weak.upgrade() {
            self.shared
                .registry
                .remove(&self.core.id, &RoomHandle { tx });
        }
        self.tell_lobby_playing(false);
        self.release_lease();
        self.rx.close();
        while let Ok(cmd) = self.rx.try_recv() {
            match cmd {
                RoomCmd::Join { reply, .. } => {
                    let _gone = reply.send(JoinReply::Retry);
                }
                RoomCmd::Summary { reply } => {
                    let _gone = reply.send(self.summary());
                }
                RoomCmd::Export { site, reply } => {
                    let _gone = reply.send(self.export(&site));
                }
                RoomCmd::Leave { .. }
                | RoomCmd::Client { .. }
                | RoomCmd::AiMove { .. }
                | RoomCmd::LeaseLost => {}
            }
        }
    }

    // ----- commands -----------------------------------------------------

    async fn handle(&mut self, cmd: RoomCmd) {
        match cmd {
            RoomCmd::Join { auth, v, tx, reply } => self.join(*auth, v, tx, reply).await,
            RoomCmd::Leave { sub } => self.leave(sub),
            RoomCmd::Client { sub, msg } => {
                let Some(held) = self.subs.iter().find(|s| s.id == sub).map(|s| s.seats) else {
                    return;
                };
                let acted = match self.core.acting_seat(held.0, msg.seat) {
                    Ok(acting) => self.client(sub, held, acting, msg.msg).await,
                    Err(r) => Err(r),
                };
                if let Err(r) = acted {
                    self.send_to(sub, error_msg(r.code, &r.message));
                    if r.code == ErrorCode::Stale {
                        let state = self.state_msg(held);
                        self.send_to(sub, state);
                    }
                }
            }
            RoomCmd::AiMove { ply, result } => self.ai_move(ply, result).await,
            RoomCmd::Summary { reply } => {
                let _gone = reply.send(self.summary());
            }
            RoomCmd::Export { site, reply } => {
                let _gone = reply.send(self.export(&site));
            }
            RoomCmd::LeaseLost => self.lost = true,
        }
    }

    fn seat_of_token(&self, token: &str) -> Option<Color> {
        let hash = hash_token(token);
        Color::ALL
            .into_iter()
            .find(|&c| self.core.seats.get(c).token_hash.as_deref() == Some(hash.as_str()))
    }

    async fn join(
        &mut self,
        auth: Auth,
        v: Option<u64>,
        tx: mpsc::Sender<Outgoing>,
        reply: tokio::sync::oneshot::Sender<JoinReply>,
    ) {
        let mut held = Held::default();
        for token in auth.token.as_deref().unwrap_or("").split(',') {
            if let Some(c) = self.seat_of_token(token) {
                *held.0.get_mut(c) = true;
            }
        }
        let mut personal = Vec::new();
        if held == Held::default()
            && let Some(invite) = auth.invite.as_deref()
        {
            match self.claim_invite(invite).await {
                Ok((seat, token)) => {
                    *held.0.get_mut(seat) = true;
                    personal.push(encode(&ServerMsg::Seat(SeatMsg {
                        color: seat,
                        token: &token,
                    })));
                }
                Err(r) => personal.push(error_msg(r.code, &r.message)),
            }
        }
        let id = self.next_sub;
        self.next_sub += 1;
        if reply.send(JoinReply::Joined { sub: id }).is_err() {
            return;
        }
        self.subs.push(Sub {
            id,
            tx,
            seats: held,
        });
        for c in held.list() {
            *self.conns.get_mut(c) += 1;
        }
        if self.subs.len() == 1 {
            self.tell_lobby();
        }
        for msg in personal {
            self.send_to(id, msg);
        }
        self.catch_up(id, held, v);
        // The newcomer always learns who is connected.
        let presence = self.presence_msg();
        self.send_to(id, presence);
    }

    fn leave(&mut self, sub: u64) {
        if let Some(i) = self.subs.iter().position(|s| s.id == sub) {
            self.drop_sub(i);
        }
    }

    fn drop_sub(&mut self, index: usize) {
        let sub = self.subs.swap_remove(index);
        for c in sub.seats.list() {
            let n = self.conns.get_mut(c);
            *n = n.saturating_sub(1);
        }
        if self.subs.is_empty() {
            self.idle_since = Instant::now();
            self.tell_lobby();
        }
    }
}
