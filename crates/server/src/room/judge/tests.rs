//! Unit tests of the judge: every command, every refusal of
//! docs/protocol.md it can give, and a randomized property test over
//! command sequences.

use std::time::Duration;

use chessplayx_rules::Variant;

use super::*;
use crate::{room::offers::OfferMsg, store::ClockConfig};

mod property;

const BOTH: ByColor<bool> = ByColor {
    white: true,
    black: true,
};

fn seat(token: &str) -> SeatRecord {
    SeatRecord {
        token_hash: Some(token.to_owned()),
        ai_level: None,
    }
}

/// A standard game, both seats taken, optionally with a clock.
fn core_with(fen: Option<&str>, clock: Option<ClockConfig>) -> RoomCore {
    RoomCore {
        id: "room0001".to_owned(),
        game: AnyGame::new(Variant::Chess, fen).unwrap(),
        move_v: Vec::new(),
        seats: ByColor::new(seat("w"), seat("b")),
        invite_hash: None,
        lobby_invite: None,
        clock: clock.map(Clocks::new),
        state: RoomState::Playing,
        outcome: None,
        offers: Offers::default(),
        v: 0,
        variant: Variant::Chess,
        start_fen: fen.map(str::to_owned),
        rematch_id: None,
    }
}

fn core() -> RoomCore {
    core_with(None, None)
}

fn at(t0: Instant, ms: u64) -> Now {
    Now {
        at: t0 + Duration::from_millis(ms),
        unix_ms: 1_700_000_000_000 + ms,
    }
}

fn mv(me: Color, uci: &str, ply: u32) -> Command<'_> {
    Command::Move {
        me,
        held: BOTH,
        uci,
        ply: Some(ply),
    }
}

/// Everything the core holds, to check that nothing changed.
fn snapshot(c: &RoomCore) -> String {
    format!("{c:?}")
}

/// Decides `cmd`, checks that deciding changed nothing, applies it.
fn step(c: &mut RoomCore, cmd: Command<'_>, now: Now) -> Result<Transition, Refusal> {
    let before = snapshot(c);
    let decided = c.decide(cmd, now);
    assert_eq!(snapshot(c), before, "deciding changed the state");
    decided.map(|t| c.apply(t))
}

fn offer(me: Color, msg: OfferMsg) -> Command<'static> {
    Command::Offer {
        me,
        msg,
        new_room: "rematch1",
    }
}

fn play_all(c: &mut RoomCore, moves: &[&str], now: Now) {
    for uci in moves {
        let me = c.game.turn();
        let ply = u32_of(c.game.ply());
        step(c, mv(me, uci, ply), now).unwrap();
    }
}

fn refused(c: &RoomCore, cmd: Command<'_>, now: Now) -> ErrorCode {
    let before = snapshot(c);
    let code = c.decide(cmd, now).unwrap_err().code;
    assert_eq!(snapshot(c), before);
    code
}

#[test]
fn a_move_is_written_acknowledged_and_announced_then_applied() {
    let t0 = Instant::now();
    let mut c = core();
    let t = c.decide(mv(Color::White, "e2e4", 0), at(t0, 5)).unwrap();
    assert_eq!(c.game.ply(), 0, "decide changed nothing");
    assert!(matches!(
        t.ops.as_slice(),
        [WriteOp::Move { record, .. }] if record.uci == "e2e4" && record.v == 1 && record.played_at == 1_700_000_000_005
    ));
    assert_eq!(t.out[0], Out::Ack { ply: 0, v: 1 });
    assert!(
        matches!(&t.out[1], Out::Move { v: 1, ply: 0, san, by: Color::White, .. } if san == "e4")
    );
    assert_eq!(t.ai, AiWork::Start);
    let t = c.apply(t);
    assert_eq!(t.out.len(), 2);
    assert_eq!((c.game.ply(), c.v, c.move_v.clone()), (1, 1, vec![1]));
}

#[test]
fn move_refusals() {
    let t0 = Instant::now();
    let now = at(t0, 0);
    let mut c = core();
    assert_eq!(
        refused(&c, mv(Color::White, "zz", 0), now),
        ErrorCode::BadMove
    );
    assert_eq!(
        refused(&c, mv(Color::White, "e2e5", 0), now),
        ErrorCode::IllegalMove
    );
    assert_eq!(
        refused(&c, mv(Color::Black, "e7e5", 0), now),
        ErrorCode::NotYourTurn
    );
    assert_eq!(
        refused(&c, mv(Color::White, "e2e4", 1), now),
        ErrorCode::Stale
    );
    play_all(&mut c, &["e2e4"], now);
    // Ply 0 again with another move: the client is behind.
    assert_eq!(
        refused(&c, mv(Color::White, "d2d4", 0), now),
        ErrorCode::Stale
    );
    let mut waiting = core();
    waiting.state = RoomState::Waiting;
    assert_eq!(
        refused(&waiting, mv(Color::White, "e2e4", 0), now),
        ErrorCode::NotStarted
    );
}

#[test]
fn a_resent_move_is_acknowledged_again_by_its_seat_only() {
    let now = at(Instant::now(), 0);
    let mut c = core();
    play_all(&mut c, &["e2e4", "e7e5"], now);
    let before = snapshot(&c);
    let t = step(&mut c, mv(Color::White, "e2e4", 0), now).unwrap();
    assert!(t.ops.is_empty());
    assert_eq!(t.out, vec![Out::Ack { ply: 0, v: 1 }]);
    assert_eq!(snapshot(&c), before, "a duplicate changes nothing");
    let black_only = Command::Move {
        me: Color::Black,
        held: ByColor::new(false, true),
        uci: "e2e4",
        ply: Some(0),
    };
    assert_eq!(refused(&c, black_only, now), ErrorCode::Stale);
}

#[test]
fn a_mating_move_ends_the_game_in_the_same_write() {
    let now = at(Instant::now(), 0);
    let mut c = core();
    play_all(&mut c, &["f2f3", "e7e5", "g2g4"], now);
    let t = step(&mut c, mv(Color::Black, "d8h4", 3), now).unwrap();
    assert!(matches!(
        t.ops.as_slice(),
        [WriteOp::Move { .. }, WriteOp::Finish { v: 5, result, .. }] if result.reason == "checkmate"
    ));
    assert!(matches!(t.out.last(), Some(Out::End { v: 5, .. })));
    assert_eq!(t.ai, AiWork::Stop);
    assert_eq!(c.state, RoomState::Finished);
    assert_eq!(c.outcome.map(|o| o.winner), Some(Some(Color::Black)));
    assert_eq!(c.v, 5);
    assert_eq!(
        refused(&c, mv(Color::White, "a2a3", 4), now),
        ErrorCode::GameOver
    );
}

const CLOCK: ClockConfig = ClockConfig {
    initial: 10_000,
    increment: 1_000,
};

#[test]
fn clocks_run_after_both_moved_and_add_the_increment() {
    let t0 = Instant::now();
    let mut c = core_with(None, Some(CLOCK));
    play_all(&mut c, &["e2e4"], at(t0, 3_000));
    play_all(&mut c, &["e7e5"], at(t0, 6_000));
    let clock = c.clock.clone().unwrap();
    assert_eq!(clock.running(), Some(Color::White));
    assert_eq!(clock.stored(at(t0, 6_000).at), ByColor::new(10_000, 10_000));
    play_all(&mut c, &["g1f3"], at(t0, 8_000));
    let clock = c.clock.clone().unwrap();
    assert_eq!(clock.stored(at(t0, 8_000).at), ByColor::new(9_000, 10_000));
}

#[test]
fn a_move_after_the_flag_fell_ends_the_game_and_tells_the_mover() {
    let t0 = Instant::now();
    let mut c = core_with(None, Some(CLOCK));
    play_all(&mut c, &["e2e4", "e7e5"], at(t0, 0));
    let t = step(&mut c, mv(Color::White, "g1f3", 2), at(t0, 10_001)).unwrap();
    assert!(matches!(t.ops.as_slice(), [WriteOp::Finish { v: 3, .. }]));
    let Out::End { outcome, clock, .. } = &t.out[0] else {
        panic!("{:?}", t.out)
    };
    assert_eq!(outcome.reason, EndReason::Timeout);
    assert_eq!(outcome.winner, Some(Color::Black));
    assert_eq!(clock.map(|c| (c.white, c.running)), Some((0, None)));
    assert!(matches!(&t.out[1], Out::Refused(r) if r.code == ErrorCode::GameOver));
    assert_eq!(c.game.ply(), 2, "the late move was not played");
}

#[test]
fn the_flag_timer_ends_the_game_and_a_lone_king_cannot_win_on_time() {
    let t0 = Instant::now();
    let mut c = core_with(Some("4k3/8/8/8/8/8/8/4K2Q w - - 0 1"), Some(CLOCK));
    assert_eq!(
        refused(&c, Command::Flag, at(t0, 0)),
        ErrorCode::CannotClaim
    );
    c.clock.as_mut().unwrap().start(Color::White, t0);
    assert_eq!(
        refused(&c, Command::Flag, at(t0, 9_999)),
        ErrorCode::CannotClaim
    );
    let t = step(&mut c, Command::Flag, at(t0, 10_000)).unwrap();
    assert!(matches!(
        t.out.as_slice(),
        [Out::End {
            outcome: RoomOutcome {
                winner: None,
                reason: EndReason::TimeoutVsInsufficientMaterial
            },
            ..
        }]
    ));
    assert_eq!(
        refused(&c, Command::Flag, at(t0, 20_000)),
        ErrorCode::CannotClaim
    );
}

#[test]
fn resign_ends_for_the_other_side_once() {
    let now = at(Instant::now(), 0);
    let mut c = core();
    c.offers.draw = Some(Color::White);
    c.invite_hash = Some("h".to_owned());
    let t = step(&mut c, Command::Resign { me: Color::White }, now).unwrap();
    assert!(matches!(
        t.ops.as_slice(),
        [WriteOp::Finish { v: 1, result, .. }] if result.reason == "resignation" && result.winner == Some(Color::Black)
    ));
    assert_eq!(c.offers, Offers::default(), "offers lapse at the end");
    assert_eq!(c.invite_hash, None, "so do invites");
    assert_eq!(
        refused(&c, Command::Resign { me: Color::Black }, now),
        ErrorCode::GameOver
    );
    let mut waiting = core();
    waiting.state = RoomState::Waiting;
    assert_eq!(
        refused(&waiting, Command::Resign { me: Color::White }, now),
        ErrorCode::NotStarted
    );
}

#[test]
fn abort_only_before_both_sides_moved() {
    let now = at(Instant::now(), 0);
    let mut c = core();
    play_all(&mut c, &["e2e4"], now);
    let mut late = c.clone();
    let t = step(&mut c, Command::Abort, now).unwrap();
    assert!(
        matches!(&t.out[0], Out::End { v: 2, outcome, .. } if outcome.reason == EndReason::Aborted)
    );
    assert_eq!(refused(&c, Command::Abort, now), ErrorCode::GameOver);
    play_all(&mut late, &["e7e5"], now);
    assert_eq!(refused(&late, Command::Abort, now), ErrorCode::CannotAbort);
}

#[test]
fn claims_need_the_turn_and_the_rules() {
    let now = at(Instant::now(), 0);
    let mut c = core();
    let three = Command::Claim {
        me: Color::White,
        claim: Claim::ThreefoldRepetition,
    };
    assert_eq!(refused(&c, three, now), ErrorCode::CannotClaim);
    play_all(
        &mut c,
        &[
            "g1f3", "g8f6", "f3g1", "f6g8", "g1f3", "g8f6", "f3g1", "f6g8",
        ],
        now,
    );
    let black = Command::Claim {
        me: Color::Black,
        claim: Claim::ThreefoldRepetition,
    };
    assert_eq!(refused(&c, black, now), ErrorCode::NotYourTurn);
    let fifty = Command::Claim {
        me: Color::White,
        claim: Claim::FiftyMoves,
    };
    assert_eq!(refused(&c, fifty, now), ErrorCode::CannotClaim);
    let t = step(&mut c, three, now).unwrap();
    assert!(
        matches!(&t.out[0], Out::End { outcome, .. } if outcome.reason == EndReason::ThreefoldRepetition && outcome.winner.is_none())
    );
}

#[test]
fn claim_victory_needs_the_opponent_gone() {
    let now = at(Instant::now(), 0);
    let mut c = core();
    let early = Command::ClaimVictory {
        me: Color::White,
        opponent_gone: false,
    };
    assert_eq!(refused(&c, early, now), ErrorCode::CannotClaim);
    let gone = Command::ClaimVictory {
        me: Color::White,
        opponent_gone: true,
    };
    let t = step(&mut c, gone, now).unwrap();
    assert!(
        matches!(&t.out[0], Out::End { outcome, .. } if outcome.reason == EndReason::Abandoned && outcome.winner == Some(Color::White))
    );
    assert_eq!(refused(&c, gone, now), ErrorCode::GameOver);
}

#[test]
fn draw_agreement_ends_drawn() {
    let now = at(Instant::now(), 0);
    let mut c = core();
    let accept = offer(Color::White, OfferMsg::Accept(OfferKind::Draw));
    assert_eq!(refused(&c, accept, now), ErrorCode::NoOffer);
    let t = step(
        &mut c,
        offer(Color::Black, OfferMsg::Offer(OfferKind::Draw)),
        now,
    )
    .unwrap();
    assert!(matches!(t.ops.as_slice(), [WriteOp::Event { v: 1, offers, .. }] if offers == "d:b"));
    assert_eq!(c.offers.draw, Some(Color::Black));
    let t = step(&mut c, accept, now).unwrap();
    assert!(
        matches!(&t.out[0], Out::End { v: 2, outcome, .. } if outcome.reason == EndReason::DrawAgreement && outcome.winner.is_none())
    );
    assert_eq!(refused(&c, accept, now), ErrorCode::GameOver);
}

#[test]
fn a_takeback_undoes_the_own_last_move_and_the_reply() {
    let t0 = Instant::now();
    let mut c = core_with(None, Some(CLOCK));
    // Black accepts White's standing offer: White's last move is undone.
    let white = offer(Color::Black, OfferMsg::Accept(OfferKind::Takeback));
    c.offers.takeback = Some(Color::White);
    assert_eq!(refused(&c, white, at(t0, 0)), ErrorCode::CannotTakeback);
    play_all(&mut c, &["e2e4", "e7e5", "g1f3"], at(t0, 0));
    c.offers.draw = Some(Color::Black);
    c.offers.takeback = Some(Color::White);
    // Black to move: White's g1f3 is one ply back.
    let t = step(&mut c, white, at(t0, 1_000)).unwrap();
    assert!(matches!(
        t.ops.as_slice(),
        [WriteOp::Takeback { keep: 2, v: 4, .. }]
    ));
    assert!(matches!(
        t.out.as_slice(),
        [Out::Takeback {
            v: 4,
            undone: 1,
            ply: 2,
            ..
        }]
    ));
    assert_eq!(t.ai, AiWork::Restart);
    assert_eq!((c.game.ply(), c.move_v.clone()), (2, vec![1, 2]));
    assert_eq!(c.offers.draw, None);
    assert_eq!(c.clock.as_ref().unwrap().running(), Some(Color::White));
    assert_eq!(c.offers.takeback, None, "the offer was used");
    // White to move: White's own e2e4 is two plies back; the clocks
    // stop when fewer than two plies remain.
    c.offers.takeback = Some(Color::White);
    let t = step(&mut c, white, at(t0, 2_000)).unwrap();
    assert!(matches!(
        t.out.as_slice(),
        [Out::Takeback {
            v: 5,
            undone: 2,
            ply: 0,
            ..
        }]
    ));
    assert_eq!(c.clock.as_ref().unwrap().running(), None);
    assert_eq!(
        c.game.fen(),
        AnyGame::new(Variant::Chess, None).unwrap().fen()
    );
    play_all(&mut c, &["e2e4"], at(t0, 3_000));
    step(&mut c, Command::Resign { me: Color::Black }, at(t0, 3_000)).unwrap();
    c.offers.takeback = Some(Color::White);
    assert_eq!(refused(&c, white, at(t0, 3_000)), ErrorCode::GameOver);
    // The judge refuses it itself, whatever the offers decide.
    let taken = c.decide_takeback(Color::White, at(t0, 3_000).at);
    assert_eq!(taken.unwrap_err().code, ErrorCode::GameOver);
}

#[test]
fn offers_are_announced_declined_and_lapse_with_a_move() {
    let now = at(Instant::now(), 0);
    let mut c = core();
    let decline = offer(Color::White, OfferMsg::Decline(OfferKind::Draw));
    assert_eq!(refused(&c, decline, now), ErrorCode::NoOffer);
    let takeback = offer(Color::White, OfferMsg::Offer(OfferKind::Takeback));
    assert_eq!(refused(&c, takeback, now), ErrorCode::CannotTakeback);
    let rematch = offer(Color::White, OfferMsg::Offer(OfferKind::Rematch));
    assert_eq!(refused(&c, rematch, now), ErrorCode::NotFinished);
    let draw = offer(Color::Black, OfferMsg::Offer(OfferKind::Draw));
    step(&mut c, draw, now).unwrap();
    let t = step(&mut c, draw, now).unwrap();
    assert!(
        t.ops.is_empty() && t.out.is_empty(),
        "a repeated offer does nothing"
    );
    let t = step(&mut c, decline, now).unwrap();
    assert!(matches!(
        t.out.as_slice(),
        [Out::Offer {
            v: 2,
            decline: true,
            kind: OfferKind::Draw,
            by: Color::White
        }]
    ));
    assert_eq!((c.offers, c.v), (Offers::default(), 2));
    step(&mut c, draw, now).unwrap();
    play_all(&mut c, &["e2e4"], now);
    assert_eq!(c.offers.draw, None, "a move ends the offer");
    let mut waiting = core();
    waiting.state = RoomState::Waiting;
    assert_eq!(refused(&waiting, draw, now), ErrorCode::NotStarted);
}

#[test]
fn the_ai_declines_a_draw_in_one_write_and_grants_a_takeback() {
    let now = at(Instant::now(), 0);
    let mut c = core();
    c.seats.black = SeatRecord {
        token_hash: None,
        ai_level: Some(3),
    };
    let t = step(
        &mut c,
        offer(Color::White, OfferMsg::Offer(OfferKind::Draw)),
        now,
    )
    .unwrap();
    assert_eq!(t.ops.len(), 2);
    assert!(matches!(
        t.out.as_slice(),
        [
            Out::Offer {
                v: 1,
                decline: false,
                by: Color::White,
                ..
            },
            Out::Offer {
                v: 2,
                decline: true,
                by: Color::Black,
                ..
            },
        ]
    ));
    assert_eq!((c.offers, c.v), (Offers::default(), 2));
    play_all(&mut c, &["e2e4", "e7e5"], now);
    let t = step(
        &mut c,
        offer(Color::White, OfferMsg::Offer(OfferKind::Takeback)),
        now,
    )
    .unwrap();
    assert!(matches!(
        t.out.as_slice(),
        [Out::Takeback {
            undone: 2,
            ply: 0,
            ..
        }]
    ));
}

#[test]
fn a_rematch_creates_the_room_with_colours_swapped_once() {
    let now = at(Instant::now(), 0);
    let mut c = core_with(None, Some(CLOCK));
    step(&mut c, Command::Resign { me: Color::White }, now).unwrap();
    let ask = offer(Color::White, OfferMsg::Offer(OfferKind::Rematch));
    let accept = offer(Color::Black, OfferMsg::Accept(OfferKind::Rematch));
    assert_eq!(refused(&c, accept, now), ErrorCode::NoOffer);
    step(&mut c, ask, now).unwrap();
    let t = step(&mut c, accept, now).unwrap();
    let [
        WriteOp::CreateRoom(record),
        WriteOp::Rematch {
            v: 3, rematch_id, ..
        },
    ] = t.ops.as_slice()
    else {
        panic!("{:?}", t.ops)
    };
    assert_eq!(
        (record.id.as_str(), rematch_id.as_str()),
        ("rematch1", "rematch1")
    );
    assert_eq!(record.seats.white.token_hash.as_deref(), Some("b"));
    assert_eq!(record.clock, Some(CLOCK));
    assert!(matches!(t.out.as_slice(), [Out::Rematch { v: 3, .. }]));
    assert_eq!(c.rematch_id.as_deref(), Some("rematch1"));
    assert_eq!(c.offers.rematch, None);
    assert_eq!(refused(&c, ask, now), ErrorCode::NoOffer);
}

#[test]
fn an_invite_takes_the_free_seat_once() {
    let now = at(Instant::now(), 0);
    let mut c = core();
    c.seats.black = SeatRecord::default();
    c.state = RoomState::Waiting;
    c.invite_hash = Some("inv".to_owned());
    c.lobby_invite = Some("lobby".to_owned());
    let wrong = Command::ClaimSeat {
        invite_hash: "other",
        token_hash: "t",
    };
    assert_eq!(refused(&c, wrong, now), ErrorCode::InviteUsed);
    let claim = Command::ClaimSeat {
        invite_hash: "inv",
        token_hash: "t",
    };
    let t = step(&mut c, claim, now).unwrap();
    assert!(matches!(
        t.ops.as_slice(),
        [WriteOp::ClaimSeat {
            color: Color::Black,
            v: 1,
            ..
        }]
    ));
    assert_eq!(
        t.out,
        vec![Out::Joined {
            v: 1,
            color: Color::Black
        }]
    );
    assert_eq!(t.ai, AiWork::Start);
    assert_eq!(c.seats.black.token_hash.as_deref(), Some("t"));
    assert_eq!(
        (c.state, c.invite_hash.clone(), c.lobby_invite.clone()),
        (RoomState::Playing, None, None)
    );
    assert_eq!(refused(&c, claim, now), ErrorCode::InviteUsed);
}

#[test]
fn the_acting_seat_is_named_held_or_on_turn() {
    let now = at(Instant::now(), 0);
    let mut c = core();
    let black = ByColor::new(false, true);
    let none = ByColor::new(false, false);
    assert_eq!(c.acting_seat(black, None), Ok(Some(Color::Black)));
    assert_eq!(c.acting_seat(none, None), Ok(None), "a spectator");
    assert_eq!(
        c.acting_seat(black, Some(Color::White)).unwrap_err().code,
        ErrorCode::NotAPlayer
    );
    assert_eq!(
        c.acting_seat(BOTH, Some(Color::Black)),
        Ok(Some(Color::Black))
    );
    assert_eq!(c.acting_seat(BOTH, None), Ok(Some(Color::White)));
    play_all(&mut c, &["e2e4"], now);
    assert_eq!(
        c.acting_seat(BOTH, None),
        Ok(Some(Color::Black)),
        "the side to move"
    );
    step(&mut c, Command::Resign { me: Color::Black }, now).unwrap();
    assert_eq!(
        c.acting_seat(BOTH, None),
        Ok(Some(Color::White)),
        "White after the end"
    );
}

#[test]
fn the_ai_move_is_neither_acknowledged_nor_played_after_the_end() {
    let now = at(Instant::now(), 0);
    let mut c = core();
    let ai = |uci| Command::Move {
        me: Color::White,
        held: ByColor::new(false, false),
        uci,
        ply: None,
    };
    let t = step(&mut c, ai("e2e4"), now).unwrap();
    assert!(
        matches!(t.out.as_slice(), [Out::Move { v: 1, .. }]),
        "no ack"
    );
    assert_eq!(refused(&c, ai("e7e5"), now), ErrorCode::NotYourTurn);
    step(&mut c, Command::Resign { me: Color::Black }, now).unwrap();
    let black = Command::Move {
        me: Color::Black,
        held: ByColor::new(false, false),
        uci: "e7e5",
        ply: None,
    };
    assert_eq!(refused(&c, black, now), ErrorCode::GameOver);
}
