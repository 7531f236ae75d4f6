//! The room actor's handling of client commands: seats, moves, ends,
//! offers, takebacks and rematches, each committed before it is announced.

use super::*;

impl RoomActor {
    /// Takes the free seat with an invite: a new seat token, committed
    /// before anyone hears of it.
    pub(super) async fn claim_invite(&mut self, invite: &str) -> Result<(Color, String), Refusal> {
        let token = new_token();
        let token_hash = hash_token(&token);
        let invite_hash = hash_token(invite);
        let cmd = Command::ClaimSeat {
            invite_hash: &invite_hash,
            token_hash: &token_hash,
        };
        let t = self.core.decide(cmd, Now::current())?;
        let seat = t.out.iter().find_map(|o| match o {
            Out::Joined { color, .. } => Some(*color),
            _ => None,
        });
        self.commit(None, t).await?;
        match seat {
            Some(seat) => Ok((seat, token)),
            None => Err(refuse(ErrorCode::Internal, "no seat was taken")),
        }
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
        let cmd = match msg {
            ClientMsg::Move { uci, ply } => {
                let cmd = Command::Move {
                    me,
                    held: held.0,
                    uci: &uci,
                    ply: Some(ply),
                };
                return self.decide_and_commit(Some(sub), cmd).await;
            }
            ClientMsg::Resign => Command::Resign { me },
            ClientMsg::Abort => Command::Abort,
            ClientMsg::Claim { claim } => Command::Claim { me, claim },
            ClientMsg::ClaimVictory => {
                let expired = self.countdown.get(!me).is_some_and(|cd| cd.expired);
                Command::ClaimVictory {
                    me,
                    opponent_gone: expired && *self.conns.get(!me) == 0,
                }
            }
            ClientMsg::DrawOffer
            | ClientMsg::DrawAccept
            | ClientMsg::DrawDecline
            | ClientMsg::TakebackOffer
            | ClientMsg::TakebackAccept
            | ClientMsg::TakebackDecline
            | ClientMsg::RematchOffer
            | ClientMsg::RematchAccept
            | ClientMsg::RematchDecline => return self.offer_cmd(me, msg).await,
            ClientMsg::Ping | ClientMsg::Sync { .. } => return Ok(()),
        };
        self.decide_and_commit(Some(sub), cmd).await
    }

    /// The draw, takeback and rematch offers of seat `me`.
    async fn offer_cmd(&mut self, me: Color, msg: ClientMsg) -> Acted {
        use offers::OfferMsg;
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
        // Only a rematch needs the id; drawing one costs nanoseconds.
        let new_room = new_room_id();
        let cmd = Command::Offer {
            me,
            msg,
            new_room: &new_room,
        };
        self.decide_and_commit(None, cmd).await
    }

    /// Decides `cmd` now, commits it and applies it; `sub` is told of
    /// its `ack` or of a refusal.
    pub(super) async fn decide_and_commit(&mut self, sub: Option<u64>, cmd: Command<'_>) -> Acted {
        let t = self.core.decide(cmd, Now::current())?;
        self.commit(sub, t).await
    }

    /// Writes a decided transition, applies it once committed, then sends
    /// what it announces and starts or stops the AI.
    pub(super) async fn commit(&mut self, sub: Option<u64>, mut t: Transition) -> Acted {
        let ops = std::mem::take(&mut t.ops);
        if !ops.is_empty() {
            let ops = self.fenced(ops);
            if let Err(e) = self.shared.store.write(ops).await {
                return Err(self.write_failed(&e));
            }
        }
        let t = self.core.apply(t);
        let mut refused = None;
        for out in t.out {
            match out {
                Out::Ack { ply, v } => {
                    if let Some(sub) = sub {
                        self.send_to(sub, encode(&ServerMsg::Ack(AckMsg { ply, v })));
                    }
                }
                Out::Refused(r) => refused = Some(r),
                out => self.announce(out),
            }
        }
        match t.ai {
            AiWork::Keep => {}
            AiWork::Start => self.maybe_start_ai(),
            AiWork::Stop => self.stop_ai(),
            AiWork::Restart => {
                self.stop_ai();
                self.maybe_start_ai();
            }
        }
        refused.map_or(Ok(()), Err)
    }

    /// Broadcasts one event of an applied transition.
    fn announce(&mut self, out: Out) {
        match out {
            Out::Move {
                v,
                ply,
                uci,
                san,
                by,
                clock,
            } => {
                let view = View::of(&self.core.game);
                let msg = encode_event(
                    v,
                    &Event::Move(MoveEvent {
                        ply,
                        uci: &uci,
                        san: &san,
                        by,
                        status: &view.status,
                        moves: &view.moves,
                        warnings: &view.warnings,
                        clock,
                    }),
                );
                self.push_event(v, &msg, Logged::Move { ply, by, clock });
            }
            Out::End { v, outcome, clock } => {
                self.emit(v, &Event::End(EndEvent { outcome, clock }));
                self.tell_lobby();
            }
            Out::Takeback {
                v,
                undone,
                ply,
                clock,
            } => {
                let view = View::of(&self.core.game);
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
                // The logged moves past `ply` are gone from the history: a
                // client behind this takeback gets a `state`.
                self.log.clear();
                self.push_event(v, &msg, Logged::Takeback { undone, ply, clock });
            }
            Out::Offer {
                v,
                decline,
                kind,
                by,
            } => {
                let make = if decline {
                    Event::Decline
                } else {
                    Event::Offer
                };
                self.emit(v, &make(OfferEvent { kind, by }));
            }
            Out::Rematch { v, record } => {
                let id = record.id.clone();
                if let Err(e) = crate::room::Registry::adopt(&self.shared, *record) {
                    tracing::error!(room = %id, error = %e, "starting the rematch room");
                }
                self.emit(v, &Event::Rematch(RematchEvent { id: &id }));
            }
            Out::Joined { v, color } => {
                let players = self.players();
                self.emit(v, &Event::Joined(JoinedEvent { color, players }));
                self.tell_lobby();
            }
            Out::Ack { .. } | Out::Refused(_) => {}
        }
    }
}
