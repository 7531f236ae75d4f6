//! The room actor: the only owner of a room's game and state.

use std::{
    collections::VecDeque,
    sync::{
        Arc,
        atomic::{AtomicBool, Ordering},
    },
    time::Duration,
};

use axum::extract::ws::Utf8Bytes;
use chessplayx_rules::{
    AnyGame, AnyPlayError, ByColor, Color, GameStatus, MoveError, MoveInfo, MoveWarningInfo,
    Variant,
};
use tokio::{
    sync::mpsc,
    time::{Instant, sleep_until},
};

use super::{
    Auth, JoinReply, Outgoing, RoomCmd, RoomHandle, RoomSummary, clock::Clocks, free_seat, offers,
    registry::RoomLoadError,
};
use crate::{
    bot::{AiOutcome, AiRequest},
    lobby::{Listing, LobbyUpdate},
    protocol::{
        AckMsg, ClientMsg, ClockJson, EndEvent, EndReason, ErrorCode, HistoryMove, JoinedEvent,
        MoveEvent, OfferEvent, OfferKind, Offers, PlayerJson, PresenceSide, RematchEvent,
        RoomOutcome, SeatMsg, StateMsg, TakebackEvent, encode, encode_bare, error_msg,
    },
    state::Shared,
    store::{MoveRecord, ResultRecord, RoomRecord, RoomState, SeatRecord, WriteOp},
    util::{hash_token, new_room_id, new_token, unix_ms},
};

/// The replay log of a room keeps this many events. Move and takeback
/// events are kept in a compact form (~50 bytes) and encoded again when
/// replayed, the others (small) as sent; a client that is further behind
/// gets a `state`.
const REPLAY_EVENTS: usize = 16;

/// A refusal sent back to the client as an `error` message.
struct Refusal {
    code: ErrorCode,
    message: String,
}

fn refuse(code: ErrorCode, message: impl Into<String>) -> Refusal {
    Refusal {
        code,
        message: message.into(),
    }
}

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
        Self {
            status: game.status(),
            moves: game.legal_moves(),
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
    id: String,
    variant: Variant,
    start_fen: Option<String>,
    public: bool,
    created_at: u64,
    game: AnyGame,
    /// The number of each played move's `move` event (to acknowledge a
    /// re-sent move again). The moves themselves and their notation come
    /// from `game`, which keeps them compactly: a room holds its history
    /// for its whole life, so nothing here is kept twice.
    move_v: Vec<u64>,
    seats: ByColor<SeatRecord>,
    invite_hash: Option<String>,
    lobby_invite: Option<String>,
    clock: Option<Clocks>,
    state: RoomState,
    outcome: Option<RoomOutcome>,
    offers: Offers,
    rematch_id: Option<String>,
    v: u64,
    log: VecDeque<(u64, Logged)>,
    subs: Vec<Sub>,
    next_sub: u64,
    conns: ByColor<usize>,
    countdown: ByColor<Option<Countdown>>,
    sent_presence: Option<ByColor<(bool, Option<Countdown>)>>,
    ai: Option<AiJob>,
    idle_since: Instant,
}

impl RoomActor {
    /// Rebuilds a room from its record: replays the moves, restores the
    /// clocks from the last move (the downtime is not charged) and starts
    /// the side to move's clock if the game runs.
    pub(super) fn new(
        shared: Arc<Shared>,
        record: RoomRecord,
        rx: mpsc::Receiver<RoomCmd>,
        weak: mpsc::WeakSender<RoomCmd>,
    ) -> Result<Self, RoomLoadError> {
        let replay_err = |reason: String| RoomLoadError::Replay {
            id: record.id.clone(),
            reason,
        };
        let mut game = AnyGame::new(record.variant, record.start_fen.as_deref())
            .map_err(|e| replay_err(e.to_string()))?;
        let mut move_v = Vec::with_capacity(record.moves.len());
        for m in &record.moves {
            game.play_uci(&m.uci)
                .map_err(|e| replay_err(format!("ply {}: {e}", m.ply)))?;
            move_v.push(m.v);
        }
        let now = Instant::now();
        let outcome = match &record.result {
            None => None,
            Some(r) => Some(RoomOutcome {
                winner: r.winner,
                reason: EndReason::parse(&r.reason)
                    .ok_or_else(|| replay_err(format!("end reason {:?}", r.reason)))?,
            }),
        };
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
            id: record.id,
            variant: record.variant,
            start_fen: record.start_fen,
            public: record.public,
            created_at: record.created_at,
            game,
            move_v,
            seats: record.seats,
            invite_hash: record.invite_hash,
            lobby_invite: record.lobby_invite,
            clock,
            state: record.state,
            outcome,
            offers: offers::decode(&record.offers),
            rematch_id: record.rematch_id,
            v: record.v,
            log: VecDeque::new(),
            subs: Vec::new(),
            next_sub: 0,
            conns: ByColor::default(),
            countdown: ByColor::default(),
            sent_presence: None,
            ai: None,
            idle_since: now,
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
                }
                () = sleep_until(deadline.unwrap_or_else(Instant::now)), if deadline.is_some() => {
                    if self.on_timer().await {
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
            && self.clock.as_ref().is_none_or(|c| c.running().is_none())
    }

    fn next_deadline(&self) -> Option<Instant> {
        let mut next: Option<Instant> = None;
        let mut consider = |t: Instant| next = Some(next.map_or(t, |n| n.min(t)));
        if self.outcome.is_none()
            && let Some(t) = self.clock.as_ref().and_then(Clocks::flag_at)
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
        if self.outcome.is_none()
            && let Some(flagged) = self.clock.as_ref().and_then(|c| c.flagged(now))
        {
            let _ignored = self.finish(self.flag_outcome(flagged)).await;
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
            self.shared.registry.remove(&self.id, &RoomHandle { tx });
        }
        self.tell_lobby_playing(false);
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
                RoomCmd::Leave { .. } | RoomCmd::Client { .. } | RoomCmd::AiMove { .. } => {}
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
                let acted = match self.acting_seat(held, msg.seat) {
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
        }
    }

    /// The seat a message acts for: the one `as` names (it must be held),
    /// else the only seat held, else for a connection holding both the
    /// side to move (White once the game is over); `None` for spectators.
    fn acting_seat(&self, held: Held, named: Option<Color>) -> Result<Option<Color>, Refusal> {
        if let Some(c) = named {
            return if held.holds(c) {
                Ok(Some(c))
            } else {
                Err(refuse(
                    ErrorCode::NotAPlayer,
                    format!("you do not hold the {c} seat"),
                ))
            };
        }
        Ok(match (held.holds(Color::White), held.holds(Color::Black)) {
            (true, true) if self.outcome.is_some() => Some(Color::White),
            (true, true) => Some(self.game.turn()),
            _ => held.single(),
        })
    }

    fn seat_of_token(&self, token: &str) -> Option<Color> {
        let hash = hash_token(token);
        Color::ALL
            .into_iter()
            .find(|&c| self.seats.get(c).token_hash.as_deref() == Some(hash.as_str()))
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
                    personal.push(encode(
                        "seat",
                        None,
                        &SeatMsg {
                            color: seat,
                            token: &token,
                        },
                    ));
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

    /// Takes the free seat with an invite: a new seat token, committed
    /// before anyone hears of it.
    async fn claim_invite(&mut self, invite: &str) -> Result<(Color, String), Refusal> {
        let valid = self.invite_hash.as_deref() == Some(hash_token(invite).as_str());
        let Some(seat) = free_seat(&self.seats).filter(|_| valid && self.outcome.is_none()) else {
            return Err(refuse(
                ErrorCode::InviteUsed,
                "this invite has been used; you are watching",
            ));
        };
        let token = new_token();
        let token_hash = hash_token(&token);
        let v = self.v + 1;
        self.shared
            .store
            .write(vec![WriteOp::ClaimSeat {
                room: self.id.clone(),
                color: seat,
                token_hash: token_hash.clone(),
                v,
            }])
            .await
            .map_err(|e| self.internal(&e))?;
        self.seats.get_mut(seat).token_hash = Some(token_hash);
        self.invite_hash = None;
        self.lobby_invite = None;
        self.state = RoomState::Playing;
        let players = self.players();
        self.emit(
            "joined",
            v,
            &JoinedEvent {
                color: seat,
                players,
            },
        );
        self.tell_lobby();
        self.maybe_start_ai();
        Ok((seat, token))
    }

    /// Sends `sub` the events after `v` if the log still has them all,
    /// otherwise (or without `v`) the full state.
    fn catch_up(&mut self, sub: u64, held: Held, v: Option<u64>) {
        if let Some(v) = v {
            if v == self.v {
                return;
            }
            let oldest = self.log.front().map(|(n, _)| *n);
            if v < self.v
                && oldest.is_some_and(|o| o <= v + 1)
                && let Some(missed) = self.replay_after(v)
            {
                for m in missed {
                    self.send_to(sub, m);
                }
                return;
            }
        }
        let state = self.state_msg(held);
        self.send_to(sub, state);
    }

    /// The logged events after `v`, encoded as they were sent: the moves
    /// and takebacks are encoded again from the game replayed to the ply
    /// they describe. `None` if the game cannot be replayed (it always
    /// can: these are the moves the room played).
    fn replay_after(&self, v: u64) -> Option<Vec<Utf8Bytes>> {
        let missed: Vec<&(u64, Logged)> = self.log.iter().filter(|(n, _)| *n > v).collect();
        let first_ply = missed.iter().filter_map(|(_, l)| l.plies()).min();
        let moves = self.game.moves_uci();
        let mut game = match first_ply {
            Some(plies) => Some(
                AnyGame::replay(self.variant, self.start_fen.as_deref(), moves.get(..plies)?)
                    .ok()?,
            ),
            None => None,
        };
        let mut out = Vec::with_capacity(missed.len());
        for (n, logged) in missed {
            if let (Some(plies), Some(g)) = (logged.plies(), game.as_mut()) {
                // Events lie on the current history in increasing plies.
                while g.ply() < plies {
                    g.play_uci(moves.get(g.ply())?).ok()?;
                }
            }
            let msg = match (logged, game.as_ref()) {
                (Logged::Encoded(m), _) => m.clone(),
                (Logged::Move { ply, by, clock }, Some(g)) => {
                    // `g` is at `ply + 1` plies: the move is its last.
                    let played = g.last_played()?;
                    let view = View::of(g);
                    encode(
                        "move",
                        Some(*n),
                        &MoveEvent {
                            ply: *ply,
                            uci: &played.uci,
                            san: &played.san,
                            by: *by,
                            status: &view.status,
                            moves: &view.moves,
                            warnings: &view.warnings,
                            clock: *clock,
                        },
                    )
                }
                (Logged::Takeback { undone, ply, clock }, Some(g)) => {
                    let view = View::of(g);
                    encode(
                        "takeback",
                        Some(*n),
                        &TakebackEvent {
                            undone: *undone,
                            ply: *ply,
                            status: &view.status,
                            moves: &view.moves,
                            warnings: &view.warnings,
                            clock: *clock,
                        },
                    )
                }
                (Logged::Move { .. } | Logged::Takeback { .. }, None) => return None,
            };
            out.push(msg);
        }
        Some(out)
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

    async fn client(
        &mut self,
        sub: u64,
        held: Held,
        acting: Option<Color>,
        msg: ClientMsg,
    ) -> Acted {
        match msg {
            ClientMsg::Ping => {
                self.send_to(sub, encode_bare("pong"));
                return Ok(());
            }
            ClientMsg::Sync { v } => {
                self.catch_up(sub, held, Some(v));
                return Ok(());
            }
            _ => {}
        }
        let Some(me) = acting else {
            return Err(refuse(ErrorCode::NotAPlayer, "spectators cannot act"));
        };
        match msg {
            ClientMsg::Move { uci, ply } => self.client_move(sub, held, me, &uci, ply).await,
            ClientMsg::Resign => {
                self.require_playing()?;
                self.finish(RoomOutcome {
                    winner: Some(!me),
                    reason: EndReason::Resignation,
                })
                .await
            }
            ClientMsg::Abort => {
                if self.outcome.is_some() {
                    return Err(refuse(ErrorCode::GameOver, "the game is over"));
                }
                if self.game.ply() >= 2 {
                    return Err(refuse(
                        ErrorCode::CannotAbort,
                        "both sides have moved; resign instead",
                    ));
                }
                self.finish(RoomOutcome {
                    winner: None,
                    reason: EndReason::Aborted,
                })
                .await
            }
            ClientMsg::DrawOffer => {
                self.require_playing()?;
                if self.offers.draw == Some(!me) {
                    return self.draw_agreed().await;
                }
                if self.ai_seat(!me).is_some() {
                    self.offer_event("offer", OfferKind::Draw, me, self.offers)
                        .await?;
                    return self
                        .offer_event("decline", OfferKind::Draw, !me, self.offers)
                        .await;
                }
                if self.offers.draw == Some(me) {
                    return Ok(());
                }
                let offers = Offers {
                    draw: Some(me),
                    ..self.offers
                };
                self.offer_event("offer", OfferKind::Draw, me, offers).await
            }
            ClientMsg::DrawAccept => {
                self.require_playing()?;
                if self.offers.draw != Some(!me) {
                    return Err(refuse(ErrorCode::NoOffer, "no draw offer to accept"));
                }
                self.draw_agreed().await
            }
            ClientMsg::DrawDecline => self.decline(me, OfferKind::Draw).await,
            ClientMsg::TakebackOffer => self.takeback_offer(me).await,
            ClientMsg::TakebackAccept => {
                self.require_playing()?;
                if self.offers.takeback != Some(!me) {
                    return Err(refuse(ErrorCode::NoOffer, "no takeback request to accept"));
                }
                self.takeback_for(!me).await
            }
            ClientMsg::TakebackDecline => self.decline(me, OfferKind::Takeback).await,
            ClientMsg::Claim { claim } => {
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
                self.finish(RoomOutcome {
                    winner: None,
                    reason: EndReason::from(claim.end_reason()),
                })
                .await
            }
            ClientMsg::ClaimVictory => {
                self.require_playing()?;
                let expired = self.countdown.get(!me).is_some_and(|cd| cd.expired);
                if !expired || *self.conns.get(!me) > 0 {
                    return Err(refuse(
                        ErrorCode::CannotClaim,
                        "the opponent's disconnect countdown has not run out",
                    ));
                }
                self.finish(RoomOutcome {
                    winner: Some(me),
                    reason: EndReason::Abandoned,
                })
                .await
            }
            ClientMsg::RematchOffer => {
                self.require_finished()?;
                if self.offers.rematch == Some(!me) || self.ai_seat(!me).is_some() {
                    return self.rematch().await;
                }
                if self.offers.rematch == Some(me) {
                    return Ok(());
                }
                let offers = Offers {
                    rematch: Some(me),
                    ..self.offers
                };
                self.offer_event("offer", OfferKind::Rematch, me, offers)
                    .await
            }
            ClientMsg::RematchAccept => {
                self.require_finished()?;
                if self.offers.rematch != Some(!me) {
                    return Err(refuse(ErrorCode::NoOffer, "no rematch offer to accept"));
                }
                self.rematch().await
            }
            ClientMsg::RematchDecline => self.decline(me, OfferKind::Rematch).await,
            ClientMsg::Ping | ClientMsg::Sync { .. } => Ok(()),
        }
    }

    fn require_playing(&self) -> Acted {
        if self.outcome.is_some() {
            return Err(refuse(ErrorCode::GameOver, "the game is over"));
        }
        if self.state == RoomState::Waiting {
            return Err(refuse(
                ErrorCode::NotStarted,
                "nobody has taken the other seat yet",
            ));
        }
        Ok(())
    }

    fn require_finished(&self) -> Acted {
        if self.outcome.is_none() {
            return Err(refuse(ErrorCode::NotFinished, "the game is not over"));
        }
        if self.rematch_id.is_some() {
            return Err(refuse(ErrorCode::NoOffer, "the rematch is already agreed"));
        }
        Ok(())
    }

    fn ai_seat(&self, color: Color) -> Option<u8> {
        self.seats.get(color).ai_level
    }

    async fn client_move(&mut self, sub: u64, held: Held, me: Color, uci: &str, ply: u32) -> Acted {
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
                && held.holds(mover)
            {
                let ack = encode("ack", None, &AckMsg { ply, v });
                self.send_to(sub, ack);
                return Ok(());
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
        self.play(Some((sub, ply)), me, uci).await
    }

    /// The side that made the game's first move (Black when the start FEN
    /// has Black to move).
    fn game_first_mover(&self) -> Color {
        if self.game.ply().is_multiple_of(2) {
            self.game.turn()
        } else {
            !self.game.turn()
        }
    }

    /// Plays `uci` for `me`, commits it, then acknowledges it to the mover
    /// (`ack`) and broadcasts it.
    async fn play(&mut self, ack: Option<(u64, u32)>, me: Color, uci: &str) -> Acted {
        let now = Instant::now();
        if let Some(flagged) = self.clock.as_ref().and_then(|c| c.flagged(now)) {
            self.finish(self.flag_outcome(flagged)).await?;
            return Err(refuse(ErrorCode::GameOver, "your time ran out"));
        }
        let clock_before = self.clock.clone();
        let played = self.game.play_uci(uci).map_err(|e| match e {
            AnyPlayError::Move(MoveError::Syntax { .. }) => {
                refuse(ErrorCode::BadMove, e.to_string())
            }
            AnyPlayError::Move(MoveError::Illegal { .. }) => {
                refuse(ErrorCode::IllegalMove, e.to_string())
            }
            AnyPlayError::GameOver { .. } => refuse(ErrorCode::GameOver, e.to_string()),
        })?;
        let ply = self.game.ply() - 1;
        let both_moved = self.game.ply() >= 2;
        if let Some(c) = self.clock.as_mut() {
            c.after_move(me, now, both_moved);
        }
        let v = self.v + 1;
        let record = MoveRecord {
            ply: u32::try_from(ply).unwrap_or(u32::MAX),
            uci: played.uci.clone(),
            clock: self.clock.as_ref().map(|c| c.stored(now)),
            played_at: unix_ms(),
            v,
        };
        let rules_end = self.game.outcome().map(|o| RoomOutcome {
            winner: o.winner,
            reason: EndReason::from(o.reason),
        });
        let mut ops = vec![WriteOp::Move {
            room: self.id.clone(),
            record,
        }];
        if let Some(o) = rules_end {
            ops.push(self.finish_op(o, v + 1));
        }
        if let Err(e) = self.shared.store.write(ops).await {
            self.game.undo();
            self.clock = clock_before;
            return Err(self.internal(&e));
        }
        self.move_v.push(v);
        self.offers.draw = None;
        self.offers.takeback = None;
        let view = View::of(&self.game);
        if let Some((sub, ply)) = ack {
            self.send_to(sub, encode("ack", None, &AckMsg { ply, v }));
        }
        let clock = self.clock_json(now);
        let ply = u32::try_from(ply).unwrap_or(u32::MAX);
        let msg = encode(
            "move",
            Some(v),
            &MoveEvent {
                ply,
                uci: &played.uci,
                san: &played.san,
                by: me,
                status: &view.status,
                moves: &view.moves,
                warnings: &view.warnings,
                clock,
            },
        );
        self.push_event(v, &msg, Logged::Move { ply, by: me, clock });
        if let Some(o) = rules_end {
            self.ended(o, v + 1, now);
        } else {
            self.maybe_start_ai();
        }
        Ok(())
    }

    /// The end when `flagged`'s time ran out: the opponent wins, unless it
    /// could not win by any legal sequence of moves (a bare king, …): then
    /// a draw, as on lichess.
    fn flag_outcome(&self, flagged: Color) -> RoomOutcome {
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

    fn finish_op(&self, outcome: RoomOutcome, v: u64) -> WriteOp {
        WriteOp::Finish {
            room: self.id.clone(),
            result: ResultRecord {
                winner: outcome.winner,
                reason: outcome.reason.name().to_owned(),
            },
            v,
        }
    }

    /// Ends the game for a reason the room decides (resignation, time,
    /// agreement, abort, abandonment, a claimed draw).
    async fn finish(&mut self, outcome: RoomOutcome) -> Acted {
        if self.outcome.is_some() {
            return Err(refuse(ErrorCode::GameOver, "the game is over"));
        }
        let v = self.v + 1;
        let op = self.finish_op(outcome, v);
        self.shared
            .store
            .write(vec![op])
            .await
            .map_err(|e| self.internal(&e))?;
        self.ended(outcome, v, Instant::now());
        Ok(())
    }

    /// The in-memory side of an end already committed as event `v`.
    fn ended(&mut self, outcome: RoomOutcome, v: u64, now: Instant) {
        if let Some(c) = self.clock.as_mut() {
            c.stop(now);
        }
        self.state = RoomState::Finished;
        self.outcome = Some(outcome);
        self.offers = Offers::default();
        self.invite_hash = None;
        self.lobby_invite = None;
        self.stop_ai();
        let clock = self.clock_json(now);
        self.emit("end", v, &EndEvent { outcome, clock });
        self.tell_lobby();
    }

    async fn draw_agreed(&mut self) -> Acted {
        self.finish(RoomOutcome {
            winner: None,
            reason: EndReason::DrawAgreement,
        })
        .await
    }

    async fn decline(&mut self, me: Color, kind: OfferKind) -> Acted {
        let standing = match kind {
            OfferKind::Draw => self.offers.draw,
            OfferKind::Takeback => self.offers.takeback,
            OfferKind::Rematch => self.offers.rematch,
        };
        if standing != Some(!me) {
            return Err(refuse(ErrorCode::NoOffer, "no offer to decline"));
        }
        let mut offers = self.offers;
        match kind {
            OfferKind::Draw => offers.draw = None,
            OfferKind::Takeback => offers.takeback = None,
            OfferKind::Rematch => offers.rematch = None,
        }
        self.offer_event("decline", kind, me, offers).await
    }

    /// Commits and broadcasts an `offer` / `decline` event leaving
    /// `offers` standing.
    async fn offer_event(
        &mut self,
        t: &'static str,
        kind: OfferKind,
        by: Color,
        offers: Offers,
    ) -> Acted {
        let v = self.v + 1;
        self.shared
            .store
            .write(vec![WriteOp::Event {
                room: self.id.clone(),
                offers: offers::encode(offers),
                v,
            }])
            .await
            .map_err(|e| self.internal(&e))?;
        self.offers = offers;
        self.emit(t, v, &OfferEvent { kind, by });
        Ok(())
    }

    async fn takeback_offer(&mut self, me: Color) -> Acted {
        self.require_playing()?;
        if self.plies_to_undo(me).is_none() {
            return Err(refuse(
                ErrorCode::CannotTakeback,
                "you have no move to take back",
            ));
        }
        if self.ai_seat(!me).is_some() || self.offers.takeback == Some(!me) {
            return self.takeback_for(me).await;
        }
        if self.offers.takeback == Some(me) {
            return Ok(());
        }
        let offers = Offers {
            takeback: Some(me),
            ..self.offers
        };
        self.offer_event("offer", OfferKind::Takeback, me, offers)
            .await
    }

    /// How many plies to remove so that `who`'s last move is undone and it
    /// is `who`'s turn again.
    fn plies_to_undo(&self, who: Color) -> Option<usize> {
        let n = if self.game.turn() == who { 2 } else { 1 };
        let first = self.game_first_mover();
        // `who` must have made a move among the last `n` plies.
        let ply = self.game.ply();
        (ply >= n && (ply - n) % 2 == usize::from(first != who)).then_some(n)
    }

    /// Takes back `who`'s last move (and the reply to it).
    async fn takeback_for(&mut self, who: Color) -> Acted {
        let Some(n) = self.plies_to_undo(who) else {
            return Err(refuse(ErrorCode::CannotTakeback, "no move to take back"));
        };
        let before = self.game.clone();
        for _ in 0..n {
            self.game.undo();
        }
        let keep = self.game.ply();
        let v = self.v + 1;
        if let Err(e) = self
            .shared
            .store
            .write(vec![WriteOp::Takeback {
                room: self.id.clone(),
                keep: u32::try_from(keep).unwrap_or(u32::MAX),
                v,
            }])
            .await
        {
            self.game = before;
            return Err(self.internal(&e));
        }
        self.stop_ai();
        self.move_v.truncate(keep);
        self.offers.draw = None;
        self.offers.takeback = None;
        let now = Instant::now();
        let turn = self.game.turn();
        if let Some(c) = self.clock.as_mut() {
            if keep >= 2 {
                c.start(turn, now);
            } else {
                c.stop(now);
            }
        }
        let view = View::of(&self.game);
        let clock = self.clock_json(now);
        let undone = u32::try_from(n).unwrap_or(0);
        let ply = u32::try_from(keep).unwrap_or(u32::MAX);
        let msg = encode(
            "takeback",
            Some(v),
            &TakebackEvent {
                undone,
                ply,
                status: &view.status,
                moves: &view.moves,
                warnings: &view.warnings,
                clock,
            },
        );
        // The logged moves past `keep` are gone from the history: a client
        // behind this takeback gets a `state`.
        self.log.clear();
        self.push_event(v, &msg, Logged::Takeback { undone, ply, clock });
        self.maybe_start_ai();
        Ok(())
    }

    /// Creates the rematch room (colours swapped, the same seat tokens)
    /// and announces it.
    async fn rematch(&mut self) -> Acted {
        let record = RoomRecord {
            id: new_room_id(),
            variant: self.variant,
            start_fen: self.start_fen.clone(),
            clock: self.clock.as_ref().map(Clocks::config),
            public: false,
            invite_hash: None,
            lobby_invite: None,
            seats: ByColor::new(self.seats.black.clone(), self.seats.white.clone()),
            state: RoomState::Playing,
            result: None,
            v: 0,
            offers: String::new(),
            rematch_id: None,
            created_at: unix_ms(),
            moves: Vec::new(),
        };
        let v = self.v + 1;
        self.shared
            .store
            .write(vec![
                WriteOp::CreateRoom(Box::new(record.clone())),
                WriteOp::Rematch {
                    room: self.id.clone(),
                    rematch_id: record.id.clone(),
                    v,
                },
            ])
            .await
            .map_err(|e| self.internal(&e))?;
        let id = record.id.clone();
        if let Err(e) = super::Registry::spawn(&self.shared, record) {
            tracing::error!(room = %id, error = %e, "starting the rematch room");
        }
        self.rematch_id = Some(id.clone());
        self.offers.rematch = None;
        self.emit("rematch", v, &RematchEvent { id: &id });
        Ok(())
    }

    // ----- AI -----------------------------------------------------------

    fn stop_ai(&mut self) {
        if let Some(job) = self.ai.take() {
            job.stop.store(true, Ordering::Relaxed);
        }
    }

    /// Starts a search when the side to move is the AI's and none runs
    /// for this ply.
    fn maybe_start_ai(&mut self) {
        self.start_ai_after(Duration::ZERO);
    }

    /// As [`Self::maybe_start_ai`], the search starting after `delay` (a
    /// retry after a failed search must not spin).
    fn start_ai_after(&mut self, delay: Duration) {
        if self.state != RoomState::Playing || self.outcome.is_some() {
            return;
        }
        let turn = self.game.turn();
        let Some(level) = self.ai_seat(turn) else {
            return;
        };
        let ply = self.game.ply();
        if self.ai.as_ref().is_some_and(|j| j.ply == ply) {
            return;
        }
        self.stop_ai();
        let stop = Arc::new(AtomicBool::new(false));
        // With a clock, spend at most a 30th of what is left (and 1 s).
        let think = self.clock.as_ref().map(|c| {
            let left = u64::try_from(c.remaining(turn, Instant::now()).max(0)).unwrap_or(0);
            Duration::from_millis((left / 30).clamp(10, 1_000))
        });
        let req = AiRequest {
            variant: self.variant,
            start_fen: self.start_fen.clone(),
            moves: self.game.moves_uci(),
            level,
        };
        let pool = self.shared.ai.clone();
        let weak = self.weak.clone();
        let flag = Arc::clone(&stop);
        tokio::spawn(async move {
            if !delay.is_zero() {
                tokio::time::sleep(delay).await;
            }
            let result = pool.best_move(req, think, None, flag).await;
            if let Some(tx) = weak.upgrade() {
                let _gone = tx.send(RoomCmd::AiMove { ply, result }).await;
            }
        });
        self.ai = Some(AiJob { ply, stop });
    }

    async fn ai_move(&mut self, ply: usize, result: AiOutcome) {
        if self.ai.as_ref().is_none_or(|j| j.ply != ply) || self.game.ply() != ply {
            return;
        }
        self.ai = None;
        let turn = self.game.turn();
        match result {
            Ok(uci) => {
                if let Err(r) = self.play(None, turn, &uci).await {
                    tracing::error!(room = %self.id, uci, code = %r.code, message = r.message, "AI move refused; searching again in 1 s");
                    self.start_ai_after(Duration::from_secs(1));
                }
            }
            Err(e) => {
                tracing::warn!(room = %self.id, error = %e, "AI search failed; retrying in 1 s");
                self.start_ai_after(Duration::from_secs(1));
            }
        }
    }

    // ----- output -------------------------------------------------------

    fn internal(&self, e: &dyn std::fmt::Display) -> Refusal {
        tracing::error!(room = %self.id, error = %e, "store write failed");
        refuse(
            ErrorCode::Internal,
            "the server could not save this; try again",
        )
    }

    /// Sends to one subscriber; a full queue drops it (it must resync).
    fn send_to(&mut self, sub: u64, msg: Utf8Bytes) {
        if let Some(i) = self.subs.iter().position(|s| s.id == sub)
            && self.subs[i].tx.try_send(Arc::new(msg)).is_err()
        {
            self.drop_sub(i);
        }
    }

    /// Keeps event `v` (as `logged`) for replays and sends it to everyone.
    fn push_event(&mut self, v: u64, msg: &Utf8Bytes, logged: Logged) {
        self.v = v;
        while self.log.len() >= REPLAY_EVENTS {
            self.log.pop_front();
        }
        self.log.push_back((v, logged));
        let msg = Arc::new(msg.clone());
        let mut i = 0;
        while i < self.subs.len() {
            if self.subs[i].tx.try_send(Arc::clone(&msg)).is_err() {
                self.drop_sub(i);
            } else {
                i += 1;
            }
        }
    }

    fn emit<T: serde::Serialize>(&mut self, t: &str, v: u64, d: &T) {
        let msg = encode(t, Some(v), d);
        let logged = Logged::Encoded(msg.clone());
        self.push_event(v, &msg, logged);
    }

    fn clock_json(&self, now: Instant) -> Option<ClockJson> {
        self.clock.as_ref().map(|c| c.json(now))
    }

    fn players(&self) -> ByColor<PlayerJson> {
        ByColor::new(self.player(Color::White), self.player(Color::Black))
    }

    fn player(&self, c: Color) -> PlayerJson {
        let seat = self.seats.get(c);
        PlayerJson {
            seated: seat.token_hash.is_some() || seat.ai_level.is_some(),
            connected: seat.ai_level.is_some() || *self.conns.get(c) > 0,
            ai: seat.ai_level,
        }
    }

    fn state_msg(&self, held: Held) -> Utf8Bytes {
        let history: Vec<HistoryMove> = self
            .game
            .history()
            .into_iter()
            .map(|p| HistoryMove {
                uci: p.uci,
                san: p.san,
            })
            .collect();
        let start_fen = self.game.start_fen();
        let view = View::of(&self.game);
        encode(
            "state",
            None,
            &StateMsg {
                v: self.v,
                id: &self.id,
                variant: self.variant,
                you: held.single(),
                seats: &held.list(),
                public: self.public,
                ai_level: self.ai_level(),
                state: self.state,
                start_fen,
                history: &history,
                status: &view.status,
                moves: &view.moves,
                warnings: &view.warnings,
                clock: self.clock_json(Instant::now()),
                players: self.players(),
                offers: self.offers,
                outcome: self.outcome,
                rematch: self.rematch_id.as_deref(),
                presence: self.presence(Instant::now()),
            },
        )
    }

    fn ai_level(&self) -> Option<u8> {
        self.seats.white.ai_level.or(self.seats.black.ai_level)
    }

    // ----- presence -----------------------------------------------------

    /// Starts or cancels the disconnect countdowns: one runs only for a
    /// seated human with no connection whose turn it is in a running game.
    fn refresh_countdowns(&mut self, now: Instant) {
        let grace = self.shared.config.disconnect_grace;
        for c in Color::ALL {
            let seat = self.seats.get(c);
            let should_run = self.state == RoomState::Playing
                && self.outcome.is_none()
                && seat.ai_level.is_none()
                && seat.token_hash.is_some()
                && *self.conns.get(c) == 0
                && self.game.turn() == c;
            let cd = self.countdown.get_mut(c);
            match (should_run, cd.is_some()) {
                (true, false) => {
                    *cd = Some(Countdown {
                        until: now + grace,
                        expired: false,
                    });
                }
                (false, true) => *cd = None,
                _ => {}
            }
        }
    }

    fn presence(&self, now: Instant) -> ByColor<PresenceSide> {
        let side = |c: Color| PresenceSide {
            connected: self.player(c).connected,
            claim_in: self.countdown.get(c).map(|cd| {
                u64::try_from(cd.until.saturating_duration_since(now).as_millis()).unwrap_or(0)
            }),
        };
        ByColor::new(side(Color::White), side(Color::Black))
    }

    fn presence_msg(&self) -> Utf8Bytes {
        encode("presence", None, &self.presence(Instant::now()))
    }

    /// Sends `presence` to everyone when a connection status or countdown
    /// changed since the last one sent.
    fn flush_presence(&mut self) {
        self.refresh_countdowns(Instant::now());
        let current = ByColor::new(
            (self.player(Color::White).connected, self.countdown.white),
            (self.player(Color::Black).connected, self.countdown.black),
        );
        if self.sent_presence == Some(current) {
            return;
        }
        self.sent_presence = Some(current);
        let msg = Arc::new(self.presence_msg());
        let mut i = 0;
        while i < self.subs.len() {
            if self.subs[i].tx.try_send(Arc::clone(&msg)).is_err() {
                self.drop_sub(i);
            } else {
                i += 1;
            }
        }
    }

    // ----- lobby, summary, export --------------------------------------

    /// A room counts among the games being played while its game runs and
    /// someone is connected to it: an AI room nobody opened, or a game
    /// both players left, is not being played.
    fn tell_lobby(&self) {
        self.tell_lobby_playing(self.state == RoomState::Playing && !self.subs.is_empty());
    }

    /// Updates the lobby; `playing` says whether the room counts among the
    /// games being played (a room leaving memory no longer does).
    fn tell_lobby_playing(&self, playing: bool) {
        let listing = match (&self.lobby_invite, free_seat(&self.seats)) {
            (Some(invite), Some(open_color)) if self.public && self.state == RoomState::Waiting => {
                Some(Listing {
                    id: self.id.clone(),
                    variant: self.variant,
                    clock: self.clock.as_ref().map(Clocks::config),
                    open_color,
                    created_at: self.created_at,
                    invite_url: format!("/r/{}?invite={invite}", self.id),
                })
            }
            _ => None,
        };
        self.shared.lobby.update(LobbyUpdate {
            id: self.id.clone(),
            listing,
            playing,
        });
    }

    fn summary(&self) -> RoomSummary {
        RoomSummary {
            id: self.id.clone(),
            variant: self.variant,
            clock: self.clock.as_ref().map(Clocks::config),
            public: self.public,
            ai_level: self.ai_level(),
            state: self.state,
            players: self.players(),
            ply: self.game.ply(),
            fen: self.game.fen(),
            outcome: self.outcome,
            rematch: self.rematch_id.clone(),
            created_at: self.created_at,
        }
    }

    /// PGN (8×8) or the WXF list (Xiangqi), with the room's own ending
    /// (resignation, time, …) written as the result.
    /// The game as text (crate::export), with what only the room knows.
    fn export(&self, site: &str) -> String {
        use crate::export::{Ending, ExportInfo, Player, Termination};
        let player = |c: Color| match self.seats.get(c).ai_level {
            Some(level) => Player::Ai(level),
            None => Player::Anonymous,
        };
        let ending = self.outcome.map(|o| {
            let termination = match o.reason {
                EndReason::Aborted => return Ending::Aborted,
                EndReason::Timeout | EndReason::TimeoutVsInsufficientMaterial => {
                    Termination::TimeForfeit
                }
                EndReason::Abandoned => Termination::Abandoned,
                _ => Termination::Normal,
            };
            Ending::Decided {
                winner: o.winner,
                termination,
            }
        });
        crate::export::export(
            &self.game,
            &ExportInfo {
                site,
                room_id: &self.id,
                created_ms: self.created_at,
                clock: self.clock.as_ref().map(Clocks::config),
                players: ByColor::new(player(Color::White), player(Color::Black)),
                ending,
            },
        )
    }
}
