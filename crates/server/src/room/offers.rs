//! The standing offers: what an offer, accept or decline decides (a pure
//! function, [`decide`], that changes nothing: the actor commits what it
//! returns before applying it), and their compact stored form
//! (`d:w,t:b,r:w`), so offers survive a restart along with the event
//! number that announced them.

use chessplayx_rules::Color;

use crate::protocol::{ErrorCode, OfferKind, Offers};

/// Where the game is, as far as offers care.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(super) enum Phase {
    /// Nobody holds the other seat yet.
    Waiting,
    /// The game runs.
    Playing,
    /// The game is over; `rematch_agreed` once the rematch exists.
    Finished {
        /// A rematch room was created already.
        rematch_agreed: bool,
    },
}

/// One offer message of seat `me`.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(super) enum OfferMsg {
    /// `draw_offer`, `takeback_offer`, `rematch_offer`.
    Offer(OfferKind),
    /// `draw_accept`, `takeback_accept`, `rematch_accept`.
    Accept(OfferKind),
    /// `draw_decline`, `takeback_decline`, `rematch_decline`.
    Decline(OfferKind),
}

/// What the position says about the seats, for takebacks and AI seats.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(super) struct Context {
    /// The game's phase.
    pub(super) phase: Phase,
    /// The opponent of the acting seat is the AI (it declines draws, and
    /// grants takebacks and rematches at once).
    pub(super) opponent_is_ai: bool,
    /// The acting seat has a move of its own to take back.
    pub(super) can_take_back: bool,
    /// The opponent has a move of its own to take back.
    pub(super) opponent_can_take_back: bool,
}

/// What an offer message decides; nothing has changed yet.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(super) enum Decision {
    /// A repeated offer: nothing happens.
    Nothing,
    /// Commit and announce an `offer` (or, `decline: true`, a `decline`)
    /// event of `kind` by `by`, leaving `after` standing.
    Announce {
        /// A `decline` event rather than an `offer`.
        decline: bool,
        /// What about.
        kind: OfferKind,
        /// Who.
        by: Color,
        /// The offers standing afterwards.
        after: Offers,
    },
    /// A draw offered to the AI: the `offer` event, then the AI's
    /// `decline`.
    AiDeclinesDraw,
    /// The game ends drawn by agreement.
    DrawAgreed,
    /// Take back the last move of `who` (and the reply to it).
    Takeback {
        /// Whose move is undone.
        who: Color,
    },
    /// Create the rematch room.
    Rematch,
}

/// A refusal: the `error` code and its text.
pub(super) type Refused = (ErrorCode, &'static str);

fn standing(offers: Offers, kind: OfferKind) -> Option<Color> {
    match kind {
        OfferKind::Draw => offers.draw,
        OfferKind::Takeback => offers.takeback,
        OfferKind::Rematch => offers.rematch,
    }
}

fn with(offers: Offers, kind: OfferKind, by: Option<Color>) -> Offers {
    let mut out = offers;
    match kind {
        OfferKind::Draw => out.draw = by,
        OfferKind::Takeback => out.takeback = by,
        OfferKind::Rematch => out.rematch = by,
    }
    out
}

/// The phase an offer of `kind` needs: a running game for draws and
/// takebacks, a finished one (rematch not yet agreed) for rematches.
fn check_phase(kind: OfferKind, phase: Phase) -> Result<(), Refused> {
    match (kind, phase) {
        (
            OfferKind::Rematch,
            Phase::Finished {
                rematch_agreed: false,
            },
        ) => Ok(()),
        (
            OfferKind::Rematch,
            Phase::Finished {
                rematch_agreed: true,
            },
        ) => Err((ErrorCode::NoOffer, "the rematch is already agreed")),
        (OfferKind::Rematch, _) => Err((ErrorCode::NotFinished, "the game is not over")),
        (_, Phase::Playing) => Ok(()),
        (_, Phase::Finished { .. }) => Err((ErrorCode::GameOver, "the game is over")),
        (_, Phase::Waiting) => Err((ErrorCode::NotStarted, "nobody has taken the other seat yet")),
    }
}

/// Decides an offer message of seat `me` without changing anything.
///
/// # Errors
///
/// The refusals of docs/protocol.md: `not_started`, `game_over`,
/// `not_finished`, `no_offer` (nothing to accept or decline, or the
/// rematch already agreed), `cannot_takeback`.
pub(super) fn decide(
    offers: Offers,
    ctx: Context,
    me: Color,
    msg: OfferMsg,
) -> Result<Decision, Refused> {
    match msg {
        OfferMsg::Decline(kind) => {
            if standing(offers, kind) != Some(!me) {
                return Err((ErrorCode::NoOffer, "no offer to decline"));
            }
            Ok(Decision::Announce {
                decline: true,
                kind,
                by: me,
                after: with(offers, kind, None),
            })
        }
        OfferMsg::Accept(kind) => {
            check_phase(kind, ctx.phase)?;
            if standing(offers, kind) != Some(!me) {
                return Err((ErrorCode::NoOffer, "no offer to accept"));
            }
            Ok(match kind {
                OfferKind::Draw => Decision::DrawAgreed,
                OfferKind::Rematch => Decision::Rematch,
                OfferKind::Takeback if ctx.opponent_can_take_back => {
                    Decision::Takeback { who: !me }
                }
                OfferKind::Takeback => {
                    return Err((ErrorCode::CannotTakeback, "no move to take back"));
                }
            })
        }
        OfferMsg::Offer(kind) => offer(offers, ctx, me, kind),
    }
}

fn offer(offers: Offers, ctx: Context, me: Color, kind: OfferKind) -> Result<Decision, Refused> {
    check_phase(kind, ctx.phase)?;
    if kind == OfferKind::Takeback && !ctx.can_take_back {
        return Err((ErrorCode::CannotTakeback, "you have no move to take back"));
    }
    let theirs = standing(offers, kind) == Some(!me);
    match kind {
        OfferKind::Draw if theirs => return Ok(Decision::DrawAgreed),
        OfferKind::Draw if ctx.opponent_is_ai => return Ok(Decision::AiDeclinesDraw),
        OfferKind::Takeback if theirs || ctx.opponent_is_ai => {
            return Ok(Decision::Takeback { who: me });
        }
        OfferKind::Rematch if theirs || ctx.opponent_is_ai => return Ok(Decision::Rematch),
        _ => {}
    }
    if standing(offers, kind) == Some(me) {
        return Ok(Decision::Nothing);
    }
    Ok(Decision::Announce {
        decline: false,
        kind,
        by: me,
        after: with(offers, kind, Some(me)),
    })
}

/// The stored text of `offers` (empty when none stands).
pub(super) fn encode(offers: Offers) -> String {
    let mut parts = Vec::new();
    for (key, by) in [
        ('d', offers.draw),
        ('t', offers.takeback),
        ('r', offers.rematch),
    ] {
        if let Some(c) = by {
            parts.push(format!("{key}:{}", c.char()));
        }
    }
    parts.join(",")
}

/// Reads the stored text back; unknown parts are ignored (an offer is not
/// worth refusing to load a game).
pub(super) fn decode(text: &str) -> Offers {
    let mut offers = Offers::default();
    for part in text.split(',') {
        let mut chars = part.chars();
        let (Some(key), Some(':'), Some(c), None) =
            (chars.next(), chars.next(), chars.next(), chars.next())
        else {
            continue;
        };
        let Some(color) = Color::from_char(c) else {
            continue;
        };
        match key {
            'd' => offers.draw = Some(color),
            't' => offers.takeback = Some(color),
            'r' => offers.rematch = Some(color),
            _ => {}
        }
    }
    offers
}

#[cfg(test)]
mod tests {
    use super::*;

    const W: Color = Color::White;
    const B: Color = Color::Black;

    fn ctx(phase: Phase) -> Context {
        Context {
            phase,
            opponent_is_ai: false,
            can_take_back: true,
            opponent_can_take_back: true,
        }
    }

    const PLAYING: Phase = Phase::Playing;
    const OVER: Phase = Phase::Finished {
        rematch_agreed: false,
    };

    fn code(r: Result<Decision, Refused>) -> ErrorCode {
        r.expect_err("refused").0
    }

    #[test]
    fn offers_need_the_right_phase() {
        let none = Offers::default();
        for kind in [OfferKind::Draw, OfferKind::Takeback] {
            let offer = OfferMsg::Offer(kind);
            assert_eq!(
                code(decide(none, ctx(Phase::Waiting), W, offer)),
                ErrorCode::NotStarted
            );
            assert_eq!(code(decide(none, ctx(OVER), W, offer)), ErrorCode::GameOver);
        }
        let rematch = OfferMsg::Offer(OfferKind::Rematch);
        assert_eq!(
            code(decide(none, ctx(PLAYING), W, rematch)),
            ErrorCode::NotFinished
        );
        let agreed = Phase::Finished {
            rematch_agreed: true,
        };
        assert_eq!(
            code(decide(none, ctx(agreed), W, rematch)),
            ErrorCode::NoOffer
        );
    }

    #[test]
    fn an_offer_stands_once_and_the_other_side_answers_it() {
        let none = Offers::default();
        let d = decide(none, ctx(PLAYING), W, OfferMsg::Offer(OfferKind::Draw)).unwrap();
        let after = Offers {
            draw: Some(W),
            ..none
        };
        assert_eq!(
            d,
            Decision::Announce {
                decline: false,
                kind: OfferKind::Draw,
                by: W,
                after
            }
        );
        // Repeated: nothing; the offerer cannot accept its own offer.
        assert_eq!(
            decide(after, ctx(PLAYING), W, OfferMsg::Offer(OfferKind::Draw)),
            Ok(Decision::Nothing)
        );
        let accept = OfferMsg::Accept(OfferKind::Draw);
        assert_eq!(
            code(decide(after, ctx(PLAYING), W, accept)),
            ErrorCode::NoOffer
        );
        assert_eq!(
            decide(after, ctx(PLAYING), B, accept),
            Ok(Decision::DrawAgreed)
        );
        // Offering back is accepting.
        assert_eq!(
            decide(after, ctx(PLAYING), B, OfferMsg::Offer(OfferKind::Draw)),
            Ok(Decision::DrawAgreed)
        );
        let decline = OfferMsg::Decline(OfferKind::Draw);
        assert_eq!(
            code(decide(after, ctx(PLAYING), W, decline)),
            ErrorCode::NoOffer
        );
        assert_eq!(
            decide(after, ctx(PLAYING), B, decline),
            Ok(Decision::Announce {
                decline: true,
                kind: OfferKind::Draw,
                by: B,
                after: none
            })
        );
    }

    #[test]
    fn nothing_to_accept_or_decline_is_no_offer() {
        let none = Offers::default();
        for kind in [OfferKind::Draw, OfferKind::Takeback] {
            assert_eq!(
                code(decide(none, ctx(PLAYING), W, OfferMsg::Accept(kind))),
                ErrorCode::NoOffer
            );
            assert_eq!(
                code(decide(none, ctx(PLAYING), W, OfferMsg::Decline(kind))),
                ErrorCode::NoOffer
            );
        }
        let rematch = OfferKind::Rematch;
        assert_eq!(
            code(decide(none, ctx(OVER), B, OfferMsg::Accept(rematch))),
            ErrorCode::NoOffer
        );
        let standing = Offers {
            rematch: Some(W),
            ..none
        };
        assert_eq!(
            decide(standing, ctx(OVER), B, OfferMsg::Accept(rematch)),
            Ok(Decision::Rematch)
        );
    }

    #[test]
    fn takebacks_need_a_move_and_undo_the_askers() {
        let none = Offers::default();
        let offer = OfferMsg::Offer(OfferKind::Takeback);
        let no_move = Context {
            can_take_back: false,
            ..ctx(PLAYING)
        };
        assert_eq!(
            code(decide(none, no_move, W, offer)),
            ErrorCode::CannotTakeback
        );
        let asked = Offers {
            takeback: Some(W),
            ..none
        };
        assert_eq!(
            decide(
                asked,
                ctx(PLAYING),
                B,
                OfferMsg::Accept(OfferKind::Takeback)
            ),
            Ok(Decision::Takeback { who: W })
        );
        let gone = Context {
            opponent_can_take_back: false,
            ..ctx(PLAYING)
        };
        assert_eq!(
            code(decide(
                asked,
                gone,
                B,
                OfferMsg::Accept(OfferKind::Takeback)
            )),
            ErrorCode::CannotTakeback
        );
    }

    #[test]
    fn the_ai_declines_draws_and_grants_takebacks_and_rematches() {
        let none = Offers::default();
        let ai = Context {
            opponent_is_ai: true,
            ..ctx(PLAYING)
        };
        assert_eq!(
            decide(none, ai, W, OfferMsg::Offer(OfferKind::Draw)),
            Ok(Decision::AiDeclinesDraw)
        );
        assert_eq!(
            decide(none, ai, W, OfferMsg::Offer(OfferKind::Takeback)),
            Ok(Decision::Takeback { who: W })
        );
        let over = Context { phase: OVER, ..ai };
        assert_eq!(
            decide(none, over, W, OfferMsg::Offer(OfferKind::Rematch)),
            Ok(Decision::Rematch)
        );
    }

    #[test]
    fn offers_round_trip() {
        let all = Offers {
            draw: Some(Color::White),
            takeback: Some(Color::Black),
            rematch: Some(Color::White),
        };
        assert_eq!(encode(all), "d:w,t:b,r:w");
        assert_eq!(decode(&encode(all)), all);
        assert_eq!(encode(Offers::default()), "");
        assert_eq!(decode(""), Offers::default());
        assert_eq!(
            decode("x:w,d:q,t:b,garbage"),
            Offers {
                takeback: Some(Color::Black),
                ..Offers::default()
            }
        );
    }
}
