//! A property test over random command sequences at random times: the
//! judge's invariants hold after every step, whatever the clients send.
//! Seeded, so a failure names the seed that reproduces it.

use rand::{Rng, SeedableRng, rngs::StdRng};

use super::*;

/// A random command for the current state: usually a legal move at the
/// right ply, sometimes a stale, duplicate, illegal or out-of-turn one,
/// or any other command.
fn random_command<'a>(c: &RoomCore, rng: &mut StdRng, uci: &'a str) -> Command<'a> {
    let me = if rng.random_bool(0.5) {
        Color::White
    } else {
        Color::Black
    };
    let ply = u32_of(c.game.ply());
    let standing = [
        (OfferKind::Draw, c.offers.draw),
        (OfferKind::Takeback, c.offers.takeback),
        (OfferKind::Rematch, c.offers.rematch),
    ];
    // A standing offer is often answered at once, so that agreed draws,
    // takebacks and rematches happen.
    if let Some((kind, Some(by))) = standing.into_iter().find(|(_, by)| by.is_some())
        && rng.random_bool(0.5)
    {
        let msg = if rng.random_bool(0.8) {
            OfferMsg::Accept(kind)
        } else {
            OfferMsg::Decline(kind)
        };
        return Command::Offer {
            me: !by,
            msg,
            new_room: "rematch1",
        };
    }
    match rng.random_range(0..100) {
        0..62 => {
            let ply = match rng.random_range(0..10) {
                0 => ply.saturating_sub(1),
                1 => ply + 1,
                _ => ply,
            };
            let mover = if rng.random_bool(0.9) {
                c.game.turn()
            } else {
                me
            };
            Command::Move {
                me: mover,
                held: ByColor::new(rng.random_bool(0.8), rng.random_bool(0.8)),
                uci,
                ply: (!rng.random_bool(0.1)).then_some(ply),
            }
        }
        62..82 => {
            let kind = [
                OfferKind::Draw,
                OfferKind::Takeback,
                OfferKind::Takeback,
                OfferKind::Rematch,
            ][rng.random_range(0..4)];
            let msg = match rng.random_range(0..3) {
                0 => OfferMsg::Offer(kind),
                1 => OfferMsg::Accept(kind),
                _ => OfferMsg::Decline(kind),
            };
            Command::Offer {
                me,
                msg,
                new_room: "rematch1",
            }
        }
        82..86 => Command::Flag,
        86..87 => Command::Resign { me },
        87..89 => Command::Abort,
        89..95 => Command::Claim {
            me,
            claim: if rng.random_bool(0.5) {
                Claim::ThreefoldRepetition
            } else {
                Claim::FiftyMoves
            },
        },
        95..97 => Command::ClaimVictory {
            me,
            opponent_gone: rng.random_bool(0.3),
        },
        _ => Command::Flag,
    }
}

/// A move text: usually a legal move, sometimes a bad or illegal one.
fn random_uci(c: &RoomCore, rng: &mut StdRng) -> String {
    let legal = c.game.legal_moves();
    match legal.get(rng.random_range(0..legal.len().max(1))) {
        Some(m) if rng.random_bool(0.9) => m.uci.to_string(),
        _ => ["e2e5", "zz", "a7a5", "e2e4"][rng.random_range(0..4)].to_owned(),
    }
}

/// The event numbers of a transition's events.
fn event_numbers(t: &Transition) -> Vec<u64> {
    t.out
        .iter()
        .filter_map(|o| match o {
            Out::Move { v, .. }
            | Out::End { v, .. }
            | Out::Takeback { v, .. }
            | Out::Offer { v, .. }
            | Out::Rematch { v, .. }
            | Out::Joined { v, .. } => Some(*v),
            Out::Ack { .. } | Out::Refused(_) => None,
        })
        .collect()
}

/// The invariants of a core at `now`.
fn check_invariants(c: &RoomCore, now: Instant, seed: u64) {
    assert_eq!(
        c.move_v.len(),
        c.game.ply(),
        "seed {seed}: a number per move"
    );
    assert!(
        c.move_v.windows(2).all(|w| w[0] < w[1]) && c.move_v.last().is_none_or(|&v| v <= c.v),
        "seed {seed}: move numbers increase up to the room's"
    );
    assert_eq!(
        c.outcome.is_some(),
        c.state == RoomState::Finished,
        "seed {seed}: an outcome exactly when finished"
    );
    if let Some(o) = c.game.outcome() {
        assert_eq!(
            c.outcome.map(|r| r.reason),
            Some(EndReason::from(o.reason)),
            "seed {seed}: an end by the rules is the room's end"
        );
    }
    let replayed = AnyGame::replay(Variant::Chess, None, &c.game.moves_uci()).unwrap();
    assert_eq!(
        replayed.fen(),
        c.game.fen(),
        "seed {seed}: history gives the position"
    );
    if let Some(clock) = &c.clock {
        for side in Color::ALL {
            if clock.running() != Some(side) {
                assert!(
                    clock.remaining(side, now) >= 0,
                    "seed {seed}: a stopped clock is never negative"
                );
            }
        }
        if c.outcome.is_some() {
            assert_eq!(clock.running(), None, "seed {seed}: clocks stop at the end");
        }
    }
}

/// How often each kind of event occurred over the sequences: the test
/// must reach ends, takebacks and offers, not only refusals.
#[derive(Default)]
struct Seen {
    moves: usize,
    ends: usize,
    takebacks: usize,
    offers: usize,
    refusals: usize,
}

fn run_sequence(seed: u64, seen: &mut Seen) {
    let mut rng = StdRng::seed_from_u64(seed);
    let t0 = Instant::now();
    let mut elapsed = 0_u64;
    let clock = rng.random_bool(0.7).then_some(ClockConfig {
        initial: rng.random_range(1_000..20_000),
        increment: rng.random_range(0..2_000),
    });
    let mut c = core_with(None, clock);
    for _ in 0..80 {
        elapsed += rng.random_range(0..1_500);
        let now = at(t0, elapsed);
        let uci = random_uci(&c, &mut rng);
        let cmd = random_command(&c, &mut rng, &uci);
        let before = snapshot(&c);
        let v_before = c.v;
        let finished = c.outcome.is_some();
        let decided = c.decide(cmd, now);
        assert_eq!(
            snapshot(&c),
            before,
            "seed {seed}: deciding changed the state"
        );
        let Ok(t) = decided else {
            seen.refusals += 1;
            continue;
        };
        for o in &t.out {
            match o {
                Out::Move { .. } => seen.moves += 1,
                Out::End { .. } => seen.ends += 1,
                Out::Takeback { .. } => seen.takebacks += 1,
                Out::Offer { .. } => seen.offers += 1,
                _ => {}
            }
        }
        let numbers = event_numbers(&t);
        let expected: Vec<u64> = (v_before + 1..).take(numbers.len()).collect();
        assert_eq!(
            numbers, expected,
            "seed {seed}: events numbered without gaps"
        );
        if finished && matches!(cmd, Command::Move { .. }) {
            assert!(
                t.ops.is_empty() && numbers.is_empty(),
                "seed {seed}: a finished game takes no move"
            );
        }
        let has_next = t.next.is_some();
        c.apply(t);
        if !has_next {
            assert_eq!(
                snapshot(&c),
                before,
                "seed {seed}: a reply alone changes nothing"
            );
        }
        assert_eq!(
            c.v,
            numbers.last().copied().unwrap_or(v_before),
            "seed {seed}"
        );
        check_invariants(&c, now.at, seed);
    }
}

#[test]
fn random_command_sequences_keep_the_invariants() {
    let mut seen = Seen::default();
    for seed in 0..300 {
        run_sequence(seed, &mut seen);
    }
    assert!(
        seen.moves > 3_000
            && seen.ends > 200
            && seen.takebacks > 100
            && seen.offers > 300
            && seen.refusals > 1_000,
        "the sequences reach every kind of transition: {} moves, {} ends, {} takebacks, {} offers, {} refusals",
        seen.moves,
        seen.ends,
        seen.takebacks,
        seen.offers,
        seen.refusals
    );
}
