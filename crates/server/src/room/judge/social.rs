//! The judge's offers (draw, takeback, rematch) and seats: what
//! [`offers::decide`] decides, turned into a transition.

use chessplayx_rules::{ByColor, Color};

use super::{AiWork, Decided, Now, Out, RoomCore, Transition, refuse};
use crate::{
    protocol::{ErrorCode, OfferKind},
    room::{
        clock::Clocks,
        free_seat,
        offers::{self, Decision, OfferMsg, Phase},
    },
    store::{RoomRecord, RoomState, WriteOp},
};

impl RoomCore {
    /// Where the game is, as far as offers care.
    fn phase(&self) -> Phase {
        match (self.outcome, self.state) {
            (Some(_), _) => Phase::Finished {
                rematch_agreed: self.rematch_id.is_some(),
            },
            (None, RoomState::Waiting) => Phase::Waiting,
            (None, _) => Phase::Playing,
        }
    }

    /// An offer, accept or decline of seat `me`; `new_room` is the id the
    /// rematch room gets if one is created.
    pub(super) fn decide_offer(
        &self,
        me: Color,
        msg: OfferMsg,
        new_room: &str,
        now: Now,
    ) -> Decided {
        let ctx = offers::Context {
            phase: self.phase(),
            opponent_is_ai: self.ai_seat(!me).is_some(),
            can_take_back: self.plies_to_undo(me).is_some(),
            opponent_can_take_back: self.plies_to_undo(!me).is_some(),
        };
        let decision =
            offers::decide(self.offers, ctx, me, msg).map_err(|(code, text)| refuse(code, text))?;
        match decision {
            Decision::Nothing => Ok(Transition {
                ops: Vec::new(),
                out: Vec::new(),
                ai: AiWork::Keep,
                next: None,
            }),
            Decision::Announce {
                decline,
                kind,
                by,
                after,
            } => Ok(self.offer_events(&[(decline, kind, by)], after)),
            Decision::AiDeclinesDraw => Ok(self.offer_events(
                &[(false, OfferKind::Draw, me), (true, OfferKind::Draw, !me)],
                self.offers,
            )),
            Decision::DrawAgreed => self.finish(
                crate::protocol::RoomOutcome {
                    winner: None,
                    reason: crate::protocol::EndReason::DrawAgreement,
                },
                now.at,
            ),
            Decision::Takeback { who } => self.decide_takeback(who, now.at),
            Decision::Rematch => Ok(self.rematch(new_room, now)),
        }
    }

    /// `offer` / `decline` events (`(decline, kind, by)`), each written
    /// with the offers standing after it, `after` at the end.
    fn offer_events(
        &self,
        events: &[(bool, OfferKind, Color)],
        after: crate::protocol::Offers,
    ) -> Transition {
        let mut next = self.unchanged();
        let mut ops = Vec::new();
        let mut out = Vec::new();
        for &(decline, kind, by) in events {
            next.v += 1;
            ops.push(WriteOp::Event {
                room: self.id.clone(),
                offers: offers::encode(after),
                v: next.v,
            });
            out.push(Out::Offer {
                v: next.v,
                decline,
                kind,
                by,
            });
        }
        next.offers = after;
        Transition {
            ops,
            out,
            ai: AiWork::Keep,
            next: Some(next),
        }
    }

    /// The rematch room (colours swapped, the same seat tokens) as
    /// `new_room`, and its announcement.
    fn rematch(&self, new_room: &str, now: Now) -> Transition {
        let record = RoomRecord {
            id: new_room.to_owned(),
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
            created_at: now.unix_ms,
            moves: Vec::new(),
        };
        let v = self.v + 1;
        let mut next = self.unchanged();
        next.v = v;
        next.offers.rematch = None;
        next.rematch = Some(record.id.clone());
        Transition {
            ops: vec![
                WriteOp::CreateRoom(Box::new(record.clone())),
                WriteOp::Rematch {
                    room: self.id.clone(),
                    rematch_id: record.id.clone(),
                    v,
                },
            ],
            out: vec![Out::Rematch {
                v,
                record: Box::new(record),
            }],
            ai: AiWork::Keep,
            next: Some(next),
        }
    }

    /// Takes the free seat with an invite (`invite_hash`: the hash of the
    /// invite presented) under the new token hash `token_hash`.
    pub(super) fn decide_claim_seat(&self, invite_hash: &str, token_hash: &str) -> Decided {
        let valid = self.invite_hash.as_deref() == Some(invite_hash);
        let Some(seat) = free_seat(&self.seats).filter(|_| valid && self.outcome.is_none()) else {
            return Err(refuse(
                ErrorCode::InviteUsed,
                "this invite has been used; you are watching",
            ));
        };
        let v = self.v + 1;
        let mut next = self.unchanged();
        next.v = v;
        next.state = RoomState::Playing;
        next.clear_invites = true;
        next.claimed = Some((seat, token_hash.to_owned()));
        Ok(Transition {
            ops: vec![WriteOp::ClaimSeat {
                room: self.id.clone(),
                color: seat,
                token_hash: token_hash.to_owned(),
                v,
            }],
            out: vec![Out::Joined { v, color: seat }],
            ai: AiWork::Start,
            next: Some(next),
        })
    }
}
