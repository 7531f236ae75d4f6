//! The game record of the 8×8 games: repetition and move-count rules,
//! claims, undo, game-ending positions, and PGN export checked against
//! python-chess (tests/data/gen_pgn_fixture.py wrote the fixture).

use chessplayx_rules::{
    Claim, Color, EndReason, Outcome,
    chess::{
        Atomic, AtomicGame, ChessGame, ClaimError, Horde, HordeGame, Move, PgnTags, PlayError,
        PlaySanError, PlayUciError, Position, Rules, SanError, Standard, StandardGame,
    },
};

fn play_all<R: Rules>(game: &mut ChessGame<R>, sans: &[&str]) {
    for san in sans {
        game.play_san(san)
            .unwrap_or_else(|e| panic!("{san} in {}: {e}", game.position().fen()));
    }
}

const SHUFFLE: [&str; 4] = ["Nf3", "Nf6", "Ng1", "Ng8"];

#[test]
fn threefold_is_claimable_exactly_at_the_third_occurrence() {
    let mut game = StandardGame::new();
    assert_eq!(game.repetitions(), 1);
    play_all(&mut game, &SHUFFLE);
    assert_eq!(game.repetitions(), 2);
    assert!(game.claimable().is_empty());
    // The positions inside the shuffle occur for the second time too.
    play_all(&mut game, &SHUFFLE[..3]);
    assert_eq!(game.repetitions(), 2);
    assert!(game.claimable().is_empty());
    assert_eq!(
        game.claim(Claim::ThreefoldRepetition),
        Err(ClaimError::NoThreefoldRepetition { occurrences: 2 })
    );
    play_all(&mut game, &SHUFFLE[3..]);
    assert_eq!(game.repetitions(), 3);
    assert_eq!(game.claimable(), vec![Claim::ThreefoldRepetition]);
    assert_eq!(game.outcome(), None, "threefold is never automatic");
    // Moving on to a position seen twice before: claimable again.
    play_all(&mut game, &["Nf3"]);
    assert_eq!(game.repetitions(), 3);
    assert_eq!(game.claimable(), vec![Claim::ThreefoldRepetition]);
    play_all(&mut game, &["e6"]);
    assert_eq!(game.repetitions(), 1);
    assert!(game.claimable().is_empty());
}

#[test]
fn claimed_threefold_ends_the_game() {
    let mut game = StandardGame::new();
    for _ in 0..2 {
        play_all(&mut game, &SHUFFLE);
    }
    let draw = Outcome::draw(EndReason::ThreefoldRepetition);
    assert_eq!(game.claim(Claim::ThreefoldRepetition), Ok(draw));
    assert_eq!(game.outcome(), Some(draw));
    assert!(game.claimable().is_empty());
    assert_eq!(
        game.claim(Claim::ThreefoldRepetition),
        Err(ClaimError::GameOver { outcome: draw })
    );
    assert_eq!(
        game.play_san("Nf3"),
        Err(PlaySanError::GameOver { outcome: draw })
    );
}

#[test]
fn en_passant_possibility_makes_positions_differ() {
    // 1. e4 lets d4xe3 en passant: that position is not the same as the
    // later ones with the same placement, where the right is gone.
    let mut game = StandardGame::from_fen("4k3/8/8/8/3p4/8/4P3/4K3 w - - 0 1").unwrap();
    play_all(&mut game, &["e4"]);
    assert_eq!(
        game.position().ep_square().map(|s| s.to_string()),
        Some("e3".into())
    );
    let kings = ["Kd8", "Kd1", "Ke8", "Ke1"];
    play_all(&mut game, &kings);
    assert_eq!(game.repetitions(), 1);
    play_all(&mut game, &kings);
    // The placement has now stood there three times, but with en passant
    // possible only the first time.
    assert_eq!(game.repetitions(), 2);
    assert!(game.claimable().is_empty());
    play_all(&mut game, &kings);
    assert_eq!(game.repetitions(), 3);
    assert_eq!(game.claimable(), vec![Claim::ThreefoldRepetition]);
}

#[test]
fn unusable_en_passant_square_does_not_make_positions_differ() {
    // After ...d7-d5 the e5 pawn attacks d6, but taking would expose the
    // king on h5 to the rook on a5: the position is the same as the later
    // ones without the en-passant square.
    let mut game = StandardGame::from_fen("4k3/3p4/8/r3P2K/8/8/8/8 b - - 0 1").unwrap();
    play_all(&mut game, &["d5"]);
    assert!(game.position().ep_square().is_some());
    let kings = ["Kh6", "Kd8", "Kh5", "Ke8"];
    play_all(&mut game, &kings);
    assert_eq!(game.repetitions(), 2);
    play_all(&mut game, &kings);
    assert_eq!(game.repetitions(), 3);
    assert_eq!(game.claimable(), vec![Claim::ThreefoldRepetition]);
}

#[test]
fn fivefold_repetition_ends_the_game() {
    let mut game = StandardGame::new();
    for _ in 0..3 {
        play_all(&mut game, &SHUFFLE);
    }
    assert_eq!(game.repetitions(), 4);
    assert_eq!(game.outcome(), None);
    assert_eq!(game.claimable(), vec![Claim::ThreefoldRepetition]);
    play_all(&mut game, &SHUFFLE);
    let draw = Outcome::draw(EndReason::FivefoldRepetition);
    assert_eq!(game.repetitions(), 5);
    assert_eq!(game.outcome(), Some(draw));
    assert!(
        game.claimable().is_empty(),
        "no claim once the game is over"
    );
    assert!(game.legal_moves().is_empty());
    assert_eq!(game.position().legal_moves().len(), 20);
    assert_eq!(
        game.play_uci("e2e4"),
        Err(PlayUciError::GameOver { outcome: draw })
    );
    // Undo goes back to the fourth occurrence of the previous position.
    assert_eq!(game.undo().map(|m| m.to_string()), Some("f6g8".into()));
    assert_eq!(game.outcome(), None);
    assert_eq!(game.repetitions(), 4);
    assert_eq!(game.claimable(), vec![Claim::ThreefoldRepetition]);
    assert_eq!(game.legal_moves(), game.position().legal_moves());
}

#[test]
fn seventy_five_move_rule_ends_the_game() {
    let mut game = StandardGame::from_fen("4k3/8/8/8/8/8/8/R3K3 w Q - 148 90").unwrap();
    assert_eq!(game.claimable(), vec![Claim::FiftyMoves]);
    play_all(&mut game, &["Ra2"]);
    assert_eq!(game.position().halfmoves(), 149);
    assert_eq!(game.outcome(), None);
    play_all(&mut game, &["Kd8"]);
    let draw = Outcome::draw(EndReason::SeventyFiveMoves);
    assert_eq!(game.outcome(), Some(draw));
    assert!(game.claimable().is_empty());
    assert_eq!(
        game.play_san("Ra8+"),
        Err(PlaySanError::GameOver { outcome: draw })
    );
    game.undo();
    assert_eq!(game.outcome(), None);
    // A capture or a pawn move resets the count.
    let mut game = StandardGame::from_fen("4k3/8/8/8/8/8/P7/R3K3 w Q - 149 90").unwrap();
    play_all(&mut game, &["a3"]);
    assert_eq!(game.position().halfmoves(), 0);
    assert_eq!(game.outcome(), None);
    assert!(game.claimable().is_empty());
}

#[test]
fn checkmate_on_the_150th_ply_is_checkmate() {
    let mut game = StandardGame::from_fen("6k1/5ppp/8/8/8/8/8/R5K1 w - - 149 100").unwrap();
    play_all(&mut game, &["Ra8#"]);
    assert_eq!(game.position().halfmoves(), 150);
    assert_eq!(
        game.outcome(),
        Some(Outcome::win(Color::White, EndReason::Checkmate))
    );
    assert_eq!(game.last_san().as_deref(), Some("Ra8#"));
    // Any other move reaching the 150th ply draws.
    game.undo();
    play_all(&mut game, &["Kf1"]);
    assert_eq!(
        game.outcome(),
        Some(Outcome::draw(EndReason::SeventyFiveMoves))
    );
}

#[test]
fn fifty_move_claim() {
    let mut game = StandardGame::from_fen("4k3/8/8/8/8/8/8/R3K3 w Q - 98 60").unwrap();
    play_all(&mut game, &["Ra2"]);
    assert!(game.claimable().is_empty());
    assert_eq!(
        game.claim(Claim::FiftyMoves),
        Err(ClaimError::NoFiftyMoves { halfmoves: 99 })
    );
    play_all(&mut game, &["Kd8"]);
    assert_eq!(game.claimable(), vec![Claim::FiftyMoves]);
    assert_eq!(game.outcome(), None, "the 50-move rule is never automatic");
    let draw = Outcome::draw(EndReason::FiftyMoves);
    assert_eq!(game.claim(Claim::FiftyMoves), Ok(draw));
    assert_eq!(game.outcome(), Some(draw));
    assert!(matches!(
        game.play_uci("a2a1"),
        Err(PlayUciError::GameOver { .. })
    ));
    // A takeback withdraws the claim along with the move.
    game.undo();
    assert_eq!(game.outcome(), None);
    assert!(game.claimable().is_empty());
    play_all(&mut game, &["Kf8"]);
    assert_eq!(game.claimable(), vec![Claim::FiftyMoves]);
}

#[test]
fn moves_after_the_end_and_illegal_moves_are_errors() {
    let mut game = StandardGame::new();
    play_all(&mut game, &["f3", "e5", "g4", "Qh4#"]);
    let mate = Outcome::win(Color::Black, EndReason::Checkmate);
    assert_eq!(game.outcome(), Some(mate));
    assert!(game.is_over());
    assert_eq!(game.sans(), ["f3", "e5", "g4", "Qh4#"]);
    let any: Move = Position::<Standard>::start().legal_moves()[0];
    assert_eq!(game.play(any), Err(PlayError::GameOver { outcome: mate }));
    assert_eq!(
        game.play_uci("a2a3"),
        Err(PlayUciError::GameOver { outcome: mate })
    );

    let mut game = StandardGame::new();
    let e4 = game.position().legal_moves()[0];
    play_all(&mut game, &["Nf3"]);
    // A move of another position is refused, not played.
    assert!(matches!(game.play(e4), Err(PlayError::Illegal { .. })));
    assert!(matches!(
        game.play_uci("e2e4"),
        Err(PlayUciError::Illegal(_))
    ));
    assert!(matches!(game.play_uci("e7"), Err(PlayUciError::Syntax(_))));
    assert!(matches!(
        game.play_san("Nxe4"),
        Err(PlaySanError::Illegal(_))
    ));
    assert!(matches!(game.play_san("N?"), Err(PlaySanError::Syntax(_))));
    assert_eq!(game.moves().len(), 1);
    assert_eq!(game.moves().len(), 1);
    let mut game = StandardGame::from_fen("k7/8/8/8/8/1N3N2/8/K7 w - - 0 1").unwrap();
    assert!(matches!(
        game.play_san("Nd4"),
        Err(PlaySanError::Illegal(SanError::Ambiguous { .. }))
    ));
    assert!(game.moves().is_empty());
    play_all(&mut game, &["Nfd4"]);
}

#[test]
fn undo_restores_position_claims_and_outcome() {
    let mut game = StandardGame::new();
    assert_eq!(game.undo(), None);
    for _ in 0..2 {
        play_all(&mut game, &SHUFFLE);
    }
    assert_eq!(game.claimable(), vec![Claim::ThreefoldRepetition]);
    let fen_before = game.positions().nth(7).unwrap().fen();
    game.undo();
    assert_eq!(game.position().fen(), fen_before);
    assert_eq!(game.repetitions(), 2);
    assert!(game.claimable().is_empty());
    assert_eq!(game.last_san().as_deref(), Some("Ng1"));
    play_all(&mut game, &["Ng8"]);
    assert_eq!(game.claimable(), vec![Claim::ThreefoldRepetition]);

    // Undo out of a mate.
    let mut game = StandardGame::new();
    play_all(&mut game, &["f3", "e5", "g4", "Qh4#"]);
    game.undo();
    assert_eq!(game.outcome(), None);
    assert_eq!(game.sans(), ["f3", "e5", "g4"]);
    assert_eq!(game.moves().len(), 3);
    assert_eq!(game.positions().len(), 4);
    play_all(&mut game, &["Qh4#"]);
    assert!(game.is_over());
}

#[test]
fn horde_destroyed() {
    let mut game = HordeGame::from_fen("4k3/8/8/8/8/8/3q4/4N3 b - - 0 1").unwrap();
    play_all(&mut game, &["Qxe1#"]);
    assert_eq!(
        game.outcome(),
        Some(Outcome::win(Color::Black, EndReason::HordeDestroyed))
    );
    // A Horde game from the start: White never castles, pawns on rank 1
    // may double-step.
    let mut game = HordeGame::new();
    play_all(&mut game, &["d5", "e6", "dxe6"]);
    assert_eq!(game.sans(), ["d5", "e6", "dxe6"]);
}

#[test]
fn atomic_king_exploded() {
    let mut game = AtomicGame::from_fen("4k3/4q3/8/8/8/8/4Q3/4K3 w - - 0 1").unwrap();
    play_all(&mut game, &["Qxe7#"]);
    assert_eq!(
        game.outcome(),
        Some(Outcome::win(Color::White, EndReason::KingExploded))
    );
    assert!(matches!(
        game.play_san("Kd8"),
        Err(PlaySanError::GameOver { .. })
    ));
}

#[test]
fn insufficient_material() {
    let draw = Some(Outcome::draw(EndReason::InsufficientMaterial));
    let mut game = StandardGame::from_fen("4k3/8/8/8/8/8/3r4/4K3 w - - 0 1").unwrap();
    play_all(&mut game, &["Kxd2"]);
    assert_eq!(game.outcome(), draw);
    // Atomic: the capture blows up both pieces, bare kings remain.
    let mut game = AtomicGame::from_fen("4k3/8/8/8/8/2n5/8/2R1K3 w - - 0 1").unwrap();
    play_all(&mut game, &["Rxc3"]);
    assert_eq!(game.outcome(), draw);
    // A knight is enough in Atomic (it can explode a king).
    let game = AtomicGame::from_fen("4k3/8/8/8/8/8/8/2N1K3 w - - 0 1").unwrap();
    assert_eq!(game.outcome(), None);
}

/// Occurrences of the current position counted the slow way: compare
/// placement, side to move, castling rights and the en-passant captures
/// actually available, over the whole game.
fn naive_repetitions<R: Rules>(game: &ChessGame<R>) -> u32 {
    let identity = |p: &Position<R>| {
        let mut ep: Vec<Move> = p.legal_moves();
        ep.retain(|m| m.is_en_passant());
        (*p.board(), p.turn(), p.castling(), ep)
    };
    let current = identity(game.position());
    game.positions().filter(|p| identity(p) == current).count() as u32
}

/// A seeded xorshift stream: the random games of this file.
fn xorshift(seed: u64) -> impl FnMut() -> u64 {
    let mut state = seed;
    move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    }
}

fn shuffle_games<R: Rules>(seed: u64, games: usize) -> u32 {
    let mut rand = xorshift(seed);
    let mut max_seen = 0;
    for _ in 0..games {
        let mut game = ChessGame::<R>::new();
        for _ in 0..160 {
            let naive = naive_repetitions(&game);
            assert_eq!(game.repetitions(), naive, "{:?}", game.sans());
            max_seen = max_seen.max(naive);
            let over = game.outcome();
            assert_eq!(
                naive >= 5,
                over == Some(Outcome::draw(EndReason::FivefoldRepetition)),
            );
            if over.is_some() {
                break;
            }
            // Mostly quiet piece moves, so that positions repeat.
            let pos = *game.position();
            let moves = pos.legal_moves();
            let quiet: Vec<Move> = moves
                .iter()
                .copied()
                .filter(|&m| !pos.is_capture(m) && m.promotion().is_none())
                .collect();
            let pool = if !rand().is_multiple_of(8) && !quiet.is_empty() {
                &quiet
            } else {
                &moves
            };
            // Half the time, take back the side's previous move when the
            // reverse is legal: that is how positions come back.
            let back = game.moves().len().checked_sub(2).and_then(|i| {
                let prev = game.moves()[i];
                moves
                    .iter()
                    .copied()
                    .find(|m| m.from() == prev.to() && m.to() == prev.from())
            });
            let mv = match back {
                Some(m) if rand().is_multiple_of(2) => m,
                _ => pool[(rand() % pool.len() as u64) as usize],
            };
            game.play(mv).unwrap();
            if rand().is_multiple_of(10) {
                game.undo();
            }
        }
    }
    max_seen
}

#[test]
fn repetition_counts_match_a_full_recount() {
    // The games reach fivefold repetition, so the automatic end is
    // checked against the recount too.
    assert_eq!(shuffle_games::<Standard>(0x1234_5678, 20), 5);
    assert!(shuffle_games::<Horde>(0x9abc_def0, 10) >= 3);
    assert_eq!(shuffle_games::<Atomic>(0x0f0f_1234, 20), 5);
}

/// Everything a record answers about its current state, to compare two
/// records.
#[derive(Debug, PartialEq)]
struct Snapshot {
    fen: String,
    repetitions: u32,
    outcome: Option<Outcome>,
    claimable: Vec<Claim>,
    legal_moves: Vec<Move>,
    sans: Vec<String>,
    positions: Vec<String>,
}

fn snapshot<R: Rules>(game: &ChessGame<R>) -> Snapshot {
    Snapshot {
        fen: game.position().fen(),
        repetitions: game.repetitions(),
        outcome: game.outcome(),
        claimable: game.claimable(),
        legal_moves: game.legal_moves(),
        sans: game.sans(),
        positions: game.positions().map(|p| p.fen()).collect(),
    }
}

/// Long random games (quiet moves and returning moves mostly, so they
/// reach repetitions and the move-count rules): after every move, the
/// positions the record replays are those the game went through, and
/// undoing any number of moves leaves the record equal to one that
/// played only the remaining moves.
fn undo_matches_replay<R: Rules>(seed: u64, games: usize) -> usize {
    let mut rand = xorshift(seed);
    let mut longest = 0;
    for _ in 0..games {
        let mut game = ChessGame::<R>::new();
        let mut seen = vec![*game.position()];
        while game.outcome().is_none() && game.moves().len() < 400 {
            let pos = *game.position();
            let moves = game.legal_moves();
            let quiet: Vec<Move> = moves
                .iter()
                .copied()
                .filter(|&m| !pos.is_capture(m) && m.promotion().is_none())
                .collect();
            let back = game.moves().len().checked_sub(2).and_then(|i| {
                let prev = game.moves()[i];
                moves
                    .iter()
                    .copied()
                    .find(|m| m.from() == prev.to() && m.to() == prev.from())
            });
            let pool = if !rand().is_multiple_of(16) && !quiet.is_empty() {
                &quiet
            } else {
                &moves
            };
            let mv = match back {
                Some(m) if rand().is_multiple_of(4) => m,
                _ => pool[(rand() % pool.len() as u64) as usize],
            };
            game.play(mv).unwrap();
            seen.push(*game.position());
            assert!(game.positions().eq(seen.iter().copied()));
            assert_eq!(game.positions().len(), seen.len());
        }
        longest = longest.max(game.moves().len());
        // Take back 1, 2, ... moves from the end, each time comparing with
        // a record that replayed the moves left.
        let all = game.moves().to_vec();
        let mut undone = game.clone();
        for keep in (0..all.len()).rev() {
            assert_eq!(undone.undo(), Some(all[keep]));
            let mut fresh = ChessGame::<R>::new();
            for &mv in &all[..keep] {
                fresh.play(mv).unwrap();
            }
            assert_eq!(snapshot(&undone), snapshot(&fresh), "keeping {keep} plies");
            // Only a few of the long prefixes: each comparison replays.
            if keep > 40 && keep % 7 != 0 {
                continue;
            }
            // Playing on from the undone record is the same as from the
            // fresh one.
            if let Some(&mv) = fresh.legal_moves().first() {
                let (mut a, mut b) = (undone.clone(), fresh.clone());
                a.play(mv).unwrap();
                b.play(mv).unwrap();
                assert_eq!(snapshot(&a), snapshot(&b));
            }
        }
        assert_eq!(undone.undo(), None);
    }
    longest
}

#[test]
fn undo_of_long_games_equals_replay() {
    // Some games end by the 75-move rule or fivefold repetition, after
    // more than 150 plies.
    assert!(undo_matches_replay::<Standard>(0x5eed_0001, 6) > 150);
    assert!(undo_matches_replay::<Horde>(0x5eed_0002, 3) > 100);
    assert!(undo_matches_replay::<Atomic>(0x5eed_0003, 6) > 40);
}

#[test]
fn undo_withdraws_a_claim_and_replays_the_halfmove_clock() {
    let mut game = StandardGame::from_fen("4k3/8/8/8/8/8/8/R3K3 w Q - 98 60").unwrap();
    play_all(&mut game, &["Ra2", "Kd8"]);
    assert_eq!(game.claimable(), vec![Claim::FiftyMoves]);
    game.claim(Claim::FiftyMoves).unwrap();
    assert!(game.is_over());
    assert_eq!(game.undo().map(|m| m.to_string()), Some("e8d8".to_owned()));
    assert_eq!(game.outcome(), None);
    assert_eq!(game.position().halfmoves(), 99);
    assert!(game.claimable().is_empty());
    // Ra2 gave up the queen-side castling right; undoing Kd8 keeps it lost.
    assert_eq!(game.position().fen(), "4k3/8/8/8/8/8/R7/4K3 b - - 99 60");
    game.undo();
    assert_eq!(game.position().fen(), "4k3/8/8/8/8/8/8/R3K3 w Q - 98 60");
}

const PGN_FIXTURE: &str = include_str!("data/pgn_python_chess.txt");

/// One game of the PGN fixture.
struct FixtureGame<'a> {
    variant: &'a str,
    fen: &'a str,
    moves: Vec<&'a str>,
    claim: Option<Claim>,
    tags: Vec<(&'a str, &'a str)>,
    outcome: Option<(&'a str, &'a str)>,
    pgn: String,
}

fn fixture_games() -> Vec<FixtureGame<'static>> {
    let mut games = Vec::new();
    let mut lines = PGN_FIXTURE.lines();
    let field = |line: Option<&'static str>, key: &str| -> &'static str {
        let line = line.unwrap_or_else(|| panic!("fixture ends before {key}"));
        line.strip_prefix(key)
            .and_then(|rest| rest.strip_prefix(' ').or(Some(rest)))
            .unwrap_or_else(|| panic!("expected {key}, got {line:?}"))
    };
    while let Some(first) = lines.next() {
        let variant = field(Some(first), "game");
        let fen = field(lines.next(), "fen");
        let moves = field(lines.next(), "moves").split_whitespace().collect();
        let claim = match field(lines.next(), "claim") {
            "-" => None,
            "threefold_repetition" => Some(Claim::ThreefoldRepetition),
            "fifty_moves" => Some(Claim::FiftyMoves),
            other => panic!("unknown claim {other}"),
        };
        let tags = match field(lines.next(), "tags") {
            "-" => Vec::new(),
            list => list
                .split(';')
                .map(|t| t.split_once('=').unwrap_or_else(|| panic!("bad tag {t}")))
                .collect(),
        };
        let outcome = match field(lines.next(), "outcome").split_once(' ') {
            Some(("none", "-")) => None,
            Some(pair) => Some(pair),
            None => panic!("bad outcome line"),
        };
        assert_eq!(lines.next(), Some("pgn"));
        let mut pgn = String::new();
        for line in lines.by_ref() {
            if line == "end" {
                break;
            }
            pgn.push_str(line);
            pgn.push('\n');
        }
        games.push(FixtureGame {
            variant,
            fen,
            moves,
            claim,
            tags,
            outcome,
            pgn,
        });
    }
    games
}

fn check_pgn_game<R: Rules>(g: &FixtureGame<'_>) {
    let mut game = ChessGame::<R>::from_fen(g.fen).unwrap_or_else(|e| panic!("{}: {e}", g.fen));
    for uci in &g.moves {
        game.play_uci(uci)
            .unwrap_or_else(|e| panic!("{uci} in {}: {e}", game.position().fen()));
    }
    if let Some(claim) = g.claim {
        game.claim(claim).unwrap();
    }
    let outcome = game.outcome().map(|o| {
        let winner = match o.winner {
            Some(Color::White) => "white",
            Some(Color::Black) => "black",
            None => "draw",
        };
        (winner, o.reason.name())
    });
    assert_eq!(outcome, g.outcome, "{} from {}", g.variant, g.fen);
    let mut tags = PgnTags::new();
    for (name, value) in &g.tags {
        tags.set(name, value).unwrap();
    }
    assert_eq!(game.pgn(&tags), g.pgn, "{} from {}", g.variant, g.fen);
}

#[test]
fn pgn_matches_python_chess_export() {
    let games = fixture_games();
    assert!(games.len() >= 20, "{}", games.len());
    for g in &games {
        match g.variant {
            "chess" => check_pgn_game::<Standard>(g),
            "horde" => check_pgn_game::<Horde>(g),
            "atomic" => check_pgn_game::<Atomic>(g),
            other => panic!("unknown variant {other}"),
        }
    }
    // The fixture covers what the export must get right.
    for needle in [
        "[Variant \"Standard\"]",
        "[Variant \"Horde\"]",
        "[Variant \"Atomic\"]",
        "[SetUp \"1\"]",
        "1... ",
        "{ seventy_five_moves }",
        "{ horde_destroyed }",
        "{ king_exploded }",
        "[Termination \"Unterminated\"]",
        "[TimeControl \"300+3\"]",
    ] {
        assert!(PGN_FIXTURE.contains(needle), "fixture lacks {needle}");
    }
}

#[test]
fn pgn_of_a_short_game() {
    let mut game = StandardGame::new();
    play_all(&mut game, &["f3", "e5", "g4", "Qh4#"]);
    let tags = PgnTags::new()
        .with("White", "Alice")
        .and_then(|t| t.with("Annotator", "chessplayx"))
        .unwrap();
    assert_eq!(
        game.pgn(&tags),
        "[Event \"?\"]\n[Site \"?\"]\n[Date \"????.??.??\"]\n[Round \"?\"]\n\
         [White \"Alice\"]\n[Black \"?\"]\n[Result \"0-1\"]\n[Variant \"Standard\"]\n\
         [Termination \"Normal\"]\n[Annotator \"chessplayx\"]\n\n\
         1. f3 e5 2. g4 Qh4# { checkmate } 0-1\n"
    );
}
