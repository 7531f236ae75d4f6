//! The room actor's handling of client commands: seats, moves, ends,
//! offers, takebacks and rematches, each committed before it is announced.

use super::*;

impl RoomActor {
    /// The seat a message acts for: the one `as` names (it must be held),
    /// else the only seat held, else for a connection holding both the
    /// side to move (White once the game is over); `None` for spectators.
    pub(super) fn acting_seat(
        &self,
        held: Held,
        named: Option<Color>,
    ) -> Result<Option<Color>, Refusal> {
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

    /// Takes the free seat with an invite: a new seat token, committed
    /// before anyone hears of it.
    pub(super) async fn claim_invite(&mut self, invite: &str) -> Result<(Color, String), Refusal> {
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
            v,
            &Event::Joined(JoinedEvent {
                color: seat,
                players,
            }),
        );
        self.tell_lobby();
        self.maybe_start_ai();
        Ok((seat, token))
    }

    pub(super) async fn client(
        &mut self,
        sub: u64,
        held: Held,
        acting: Option<Color>,
        msg: ClientMsg,
    ) -> Acted {
        match msg {
            ClientMsg::Ping => {
                self.send_to(sub, pong());
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
            ClientMsg::DrawOffer
            | ClientMsg::DrawAccept
            | ClientMsg::DrawDecline
            | ClientMsg::TakebackOffer
            | ClientMsg::TakebackAccept
            | ClientMsg::TakebackDecline
            | ClientMsg::RematchOffer
            | ClientMsg::RematchAccept
            | ClientMsg::RematchDecline => self.offer_cmd(me, msg).await,
            ClientMsg::Ping | ClientMsg::Sync { .. } => Ok(()),
        }
    }

    /// The draw, takeback and rematch offers of seat `me`: decided by
    /// [`offers::decide`] without changing anything, then committed and
    /// applied.
    async fn offer_cmd(&mut self, me: Color, msg: ClientMsg) -> Acted {
        use offers::{Decision, OfferMsg, Phase};
        let msg = match msg {
            ClientMsg::DrawOffer => OfferMsg::Offer(OfferKind::Draw),
            ClientMsg::DrawAccept => OfferMsg::Accept(OfferKind::Draw),
            ClientMsg::DrawDecline => OfferMsg::Decline(OfferKind::Draw),
            ClientMsg::TakebackOffer => OfferMsg::Offer(OfferKind::Takeback),
            ClientMsg::TakebackAccept => OfferMsg::Accept(OfferKind::Takeback),
            ClientMsg::TakebackDecline => OfferMsg::Decline(OfferKind::Takeback),
            ClientMsg::RematchOffer => OfferMsg::Offer(OfferKind::Rematch),
            ClientMsg::RematchAccept => OfferMsg::Accept(OfferKind::Rematch),
            ClientMsg::RematchDecline => OfferMsg::Decline(OfferKind::Rematch),
            _ => return Ok(()),
        };
        let phase = match (self.outcome, self.state) {
            (Some(_), _) => Phase::Finished {
                rematch_agreed: self.rematch_id.is_some(),
            },
            (None, RoomState::Waiting) => Phase::Waiting,
            (None, _) => Phase::Playing,
        };
        let ctx = offers::Context {
            phase,
            opponent_is_ai: self.ai_seat(!me).is_some(),
            can_take_back: self.plies_to_undo(me).is_some(),
            opponent_can_take_back: self.plies_to_undo(!me).is_some(),
        };
        let decision =
            offers::decide(self.offers, ctx, me, msg).map_err(|(code, text)| refuse(code, text))?;
        match decision {
            Decision::Nothing => Ok(()),
            Decision::Announce {
                decline,
                kind,
                by,
                after,
            } => {
                let make = if decline {
                    Event::Decline
                } else {
                    Event::Offer
                };
                self.offer_event(make, kind, by, after).await
            }
            Decision::AiDeclinesDraw => {
                let offers = self.offers;
                self.offer_event(Event::Offer, OfferKind::Draw, me, offers)
                    .await?;
                self.offer_event(Event::Decline, OfferKind::Draw, !me, offers)
                    .await
            }
            Decision::DrawAgreed => self.draw_agreed().await,
            Decision::Takeback { who } => self.takeback_for(who).await,
            Decision::Rematch => self.rematch().await,
        }
    }

    pub(super) fn require_playing(&self) -> Acted {
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

    pub(super) fn ai_seat(&self, color: Color) -> Option<u8> {
        self.seats.get(color).ai_level
    }

    pub(super) async fn client_move(
        &mut self,
        sub: u64,
        held: Held,
        me: Color,
        uci: &str,
        ply: u32,
    ) -> Acted {
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
                let ack = encode(&ServerMsg::Ack(AckMsg { ply, v }));
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
    pub(super) fn game_first_mover(&self) -> Color {
        if self.game.ply().is_multiple_of(2) {
            self.game.turn()
        } else {
            !self.game.turn()
        }
    }

    /// Plays `uci` for `me`, commits it, then acknowledges it to the mover
    /// (`ack`) and broadcasts it.
    pub(super) async fn play(&mut self, ack: Option<(u64, u32)>, me: Color, uci: &str) -> Acted {
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
            self.send_to(sub, encode(&ServerMsg::Ack(AckMsg { ply, v })));
        }
        let clock = self.clock_json(now);
        let ply = u32::try_from(ply).unwrap_or(u32::MAX);
        let msg = encode_event(
            v,
            &Event::Move(MoveEvent {
                ply,
                uci: &played.uci,
                san: &played.san,
                by: me,
                status: &view.status,
                moves: &view.moves,
                warnings: &view.warnings,
                clock,
            }),
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

    /// Ends the game for a reason the room decides (resignation, time,
    /// agreement, abort, abandonment, a claimed draw).
    pub(super) async fn finish(&mut self, outcome: RoomOutcome) -> Acted {
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
    pub(super) fn ended(&mut self, outcome: RoomOutcome, v: u64, now: Instant) {
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
        self.emit(v, &Event::End(EndEvent { outcome, clock }));
        self.tell_lobby();
    }

    pub(super) async fn draw_agreed(&mut self) -> Acted {
        self.finish(RoomOutcome {
            winner: None,
            reason: EndReason::DrawAgreement,
        })
        .await
    }

    /// Commits and broadcasts an `offer` / `decline` event leaving
    /// `offers` standing.
    pub(super) async fn offer_event(
        &mut self,
        make: fn(OfferEvent) -> Event<'static>,
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
        self.emit(v, &make(OfferEvent { kind, by }));
        Ok(())
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

    /// Takes back `who`'s last move (and the reply to it).
    pub(super) async fn takeback_for(&mut self, who: Color) -> Acted {
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
        let msg = encode_event(
            v,
            &Event::Takeback(TakebackEvent {
                undone,
                ply,
                status: &view.status,
                moves: &view.moves,
                warnings: &view.warnings,
                clock,
            }),
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
    pub(super) async fn rematch(&mut self) -> Acted {
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
        if let Err(e) = crate::room::Registry::spawn(&self.shared, record) {
            tracing::error!(room = %id, error = %e, "starting the rematch room");
        }
        self.rematch_id = Some(id.clone());
        self.offers.rematch = None;
        self.emit(v, &Event::Rematch(RematchEvent { id: &id }));
        Ok(())
    }
}
