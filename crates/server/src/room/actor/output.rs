//! What the room actor sends: events, replays, `state`, presence, and
//! its reports to the lobby, the summary and the export.

use super::*;

impl RoomActor {
    /// Queues `msg` for every subscriber; one whose queue is full (a
    /// client that does not read) is dropped, never waited for.
    fn broadcast(&mut self, msg: &Arc<Utf8Bytes>) {
        let mut i = 0;
        while i < self.subs.len() {
            if self.subs[i].tx.try_send(Arc::clone(msg)).is_err() {
                self.drop_sub(i);
            } else {
                i += 1;
            }
        }
    }

    // ----- output -------------------------------------------------------

    pub(super) fn internal(&self, e: &dyn std::fmt::Display) -> Refusal {
        tracing::error!(room = %self.core.id, error = %e, "store write failed");
        refuse(
            ErrorCode::Internal,
            "the server could not save this; try again",
        )
    }

    /// Sends to one subscriber; a full queue drops it (it must resync).
    pub(super) fn send_to(&mut self, sub: u64, msg: Utf8Bytes) {
        if let Some(i) = self.subs.iter().position(|s| s.id == sub)
            && self.subs[i].tx.try_send(Arc::new(msg)).is_err()
        {
            self.drop_sub(i);
        }
    }

    /// Keeps event `v` (as `logged`) for replays and sends it to everyone.
    pub(super) fn push_event(&mut self, v: u64, msg: &Utf8Bytes, logged: Logged) {
        while self.log.len() >= REPLAY_EVENTS {
            self.log.pop_front();
        }
        self.log.push_back((v, logged));
        self.broadcast(&Arc::new(msg.clone()));
    }

    pub(super) fn emit(&mut self, v: u64, event: &Event<'_>) {
        let msg = encode_event(v, event);
        let logged = Logged::Encoded(msg.clone());
        self.push_event(v, &msg, logged);
    }

    pub(super) fn clock_json(&self, now: Instant) -> Option<ClockJson> {
        self.core.clock.as_ref().map(|c| c.json(now))
    }

    pub(super) fn players(&self) -> ByColor<PlayerJson> {
        ByColor::new(self.player(Color::White), self.player(Color::Black))
    }

    pub(super) fn player(&self, c: Color) -> PlayerJson {
        let seat = self.core.seats.get(c);
        PlayerJson {
            seated: seat.token_hash.is_some() || seat.ai_level.is_some(),
            connected: seat.ai_level.is_some() || *self.conns.get(c) > 0,
            ai: seat.ai_level,
        }
    }

    pub(super) fn state_msg(&self, held: Held) -> Utf8Bytes {
        let history: Vec<HistoryMove> = self
            .core
            .game
            .history()
            .into_iter()
            .map(|p| HistoryMove {
                uci: p.uci,
                san: p.san,
            })
            .collect();
        let start_fen = self.core.game.start_fen();
        let view = View::of(&self.core.game);
        encode(&ServerMsg::State(StateMsg {
            v: self.core.v,
            id: &self.core.id,
            variant: self.core.variant,
            you: held.single(),
            seats: &held.list(),
            public: self.public,
            ai_level: self.ai_level(),
            state: self.core.state,
            start_fen,
            history: &history,
            status: &view.status,
            moves: &view.moves,
            warnings: &view.warnings,
            clock: self.clock_json(Instant::now()),
            players: self.players(),
            offers: self.core.offers,
            outcome: self.core.outcome,
            rematch: self.core.rematch_id.as_deref(),
            presence: self.presence(Instant::now()),
        }))
    }

    pub(super) fn ai_level(&self) -> Option<u8> {
        self.core
            .seats
            .white
            .ai_level
            .or(self.core.seats.black.ai_level)
    }

    // ----- presence -----------------------------------------------------

    /// Starts or cancels the disconnect countdowns: one runs only for a
    /// seated human with no connection whose turn it is in a running game.
    pub(super) fn refresh_countdowns(&mut self, now: Instant) {
        let grace = self.shared.config.disconnect_grace;
        for c in Color::ALL {
            let seat = self.core.seats.get(c);
            let should_run = self.core.state == RoomState::Playing
                && self.core.outcome.is_none()
                && seat.ai_level.is_none()
                && seat.token_hash.is_some()
                && *self.conns.get(c) == 0
                && self.core.game.turn() == c;
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

    pub(super) fn presence(&self, now: Instant) -> ByColor<PresenceSide> {
        let side = |c: Color| PresenceSide {
            connected: self.player(c).connected,
            claim_in: self.countdown.get(c).map(|cd| {
                u64::try_from(cd.until.saturating_duration_since(now).as_millis()).unwrap_or(0)
            }),
        };
        ByColor::new(side(Color::White), side(Color::Black))
    }

    pub(super) fn presence_msg(&self) -> Utf8Bytes {
        encode(&ServerMsg::Presence(self.presence(Instant::now())))
    }

    /// Sends `presence` to everyone when a connection status or countdown
    /// changed since the last one sent.
    pub(super) fn flush_presence(&mut self) {
        self.refresh_countdowns(Instant::now());
        let current = ByColor::new(
            (self.player(Color::White).connected, self.countdown.white),
            (self.player(Color::Black).connected, self.countdown.black),
        );
        if self.sent_presence == Some(current) {
            return;
        }
        self.sent_presence = Some(current);
        self.broadcast(&Arc::new(self.presence_msg()));
    }

    // ----- lobby, summary, export --------------------------------------

    /// A room counts among the games being played while its game runs and
    /// someone is connected to it: an AI room nobody opened, or a game
    /// both players left, is not being played.
    pub(super) fn tell_lobby(&self) {
        self.tell_lobby_playing(self.core.state == RoomState::Playing && !self.subs.is_empty());
    }

    /// Updates the lobby; `playing` says whether the room counts among the
    /// games being played (a room leaving memory no longer does).
    pub(super) fn tell_lobby_playing(&self, playing: bool) {
        let listing = match (&self.core.lobby_invite, free_seat(&self.core.seats)) {
            (Some(invite), Some(open_color))
                if self.public && self.core.state == RoomState::Waiting =>
            {
                Some(Listing {
                    id: self.core.id.clone(),
                    variant: self.core.variant,
                    clock: self.core.clock.as_ref().map(Clocks::config),
                    open_color,
                    created_at: self.created_at,
                    invite_url: format!("/r/{}?invite={invite}", self.core.id),
                })
            }
            _ => None,
        };
        self.shared.lobby.update(LobbyUpdate {
            id: self.core.id.clone(),
            listing,
            playing,
        });
    }

    pub(super) fn summary(&self) -> RoomSummary {
        RoomSummary {
            id: self.core.id.clone(),
            variant: self.core.variant,
            clock: self.core.clock.as_ref().map(Clocks::config),
            public: self.public,
            ai_level: self.ai_level(),
            state: self.core.state,
            players: self.players(),
            ply: self.core.game.ply(),
            fen: self.core.game.fen(),
            outcome: self.core.outcome,
            rematch: self.core.rematch_id.clone(),
            created_at: self.created_at,
            node: self
                .shared
                .config
                .node_id
                .as_ref()
                .map(|n| n.as_str().to_owned()),
        }
    }

    /// PGN (8×8) or the WXF list (Xiangqi), with the room's own ending
    /// (resignation, time, …) written as the result.
    /// The game as text (crate::export), with what only the room knows.
    pub(super) fn export(&self, site: &str) -> String {
        use crate::export::{Ending, ExportInfo, Player, Termination};
        let player = |c: Color| match self.core.seats.get(c).ai_level {
            Some(level) => Player::Ai(level),
            None => Player::Anonymous,
        };
        let ending = self.core.outcome.map(|o| {
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
            &self.core.game,
            &ExportInfo {
                site,
                room_id: &self.core.id,
                created_ms: self.created_at,
                clock: self.core.clock.as_ref().map(Clocks::config),
                players: ByColor::new(player(Color::White), player(Color::Black)),
                ending,
            },
        )
    }

    /// Sends `sub` the events after `v` if the log still has them all,
    /// otherwise (or without `v`) the full state.
    pub(super) fn catch_up(&mut self, sub: u64, held: Held, v: Option<u64>) {
        if let Some(v) = v {
            if v == self.core.v {
                return;
            }
            let oldest = self.log.front().map(|(n, _)| *n);
            if v < self.core.v
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
    pub(super) fn replay_after(&self, v: u64) -> Option<Vec<Utf8Bytes>> {
        let missed: Vec<&(u64, Logged)> = self.log.iter().filter(|(n, _)| *n > v).collect();
        let first_ply = missed.iter().filter_map(|(_, l)| l.plies()).min();
        let moves = self.core.game.moves_uci();
        let mut game = match first_ply {
            Some(plies) => Some(
                AnyGame::replay(
                    self.core.variant,
                    self.core.start_fen.as_deref(),
                    moves.get(..plies)?,
                )
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
                    encode_event(
                        *n,
                        &Event::Move(MoveEvent {
                            ply: *ply,
                            uci: &played.uci,
                            san: &played.san,
                            by: *by,
                            status: &view.status,
                            moves: &view.moves,
                            warnings: &view.warnings,
                            clock: *clock,
                        }),
                    )
                }
                (Logged::Takeback { undone, ply, clock }, Some(g)) => {
                    let view = View::of(g);
                    encode_event(
                        *n,
                        &Event::Takeback(TakebackEvent {
                            undone: *undone,
                            ply: *ply,
                            status: &view.status,
                            moves: &view.moves,
                            warnings: &view.warnings,
                            clock: *clock,
                        }),
                    )
                }
                (Logged::Move { .. } | Logged::Takeback { .. }, None) => return None,
            };
            out.push(msg);
        }
        Some(out)
    }
}
