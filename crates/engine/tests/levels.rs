//! Levels and the library API: every answer is a legal move, a fixed seed
//! gives a fixed game, and level 8 beats level 1. No test here depends on
//! time: all searches are bounded by depth or nodes.

use std::{
    collections::HashMap,
    sync::{
        Arc,
        atomic::{AtomicBool, Ordering},
    },
    time::{Duration, Instant},
};

use chessplayx_engine::{
    EngineGame, EnginePosition, EngineSearcher, Level, Rng, SearchLimits, SearchOptions, think,
};
use chessplayx_rules::{Color, Variant};

const VARIANTS: [Variant; 4] = [
    Variant::Chess,
    Variant::Horde,
    Variant::Atomic,
    Variant::Xiangqi,
];

/// Positions reached by random play from the start, with their games.
fn random_games(variant: Variant, seed: u64, count: usize) -> Vec<EngineGame> {
    let mut rng = Rng::new(seed);
    let mut out = Vec::new();
    while out.len() < count {
        let mut g = EngineGame::new(EnginePosition::start(variant));
        let plies = rng.below(60);
        for _ in 0..plies {
            let moves = g.position().legal_moves_uci();
            if moves.is_empty() || g.position().outcome().is_some() {
                break;
            }
            let m = &moves[rng.below(moves.len() as u32) as usize];
            g.play_uci(m).unwrap_or_else(|e| panic!("{m}: {e}"));
        }
        if g.position().outcome().is_none() {
            out.push(g);
        }
    }
    out
}

#[test]
fn every_level_answers_with_a_legal_move() {
    for variant in VARIANTS {
        for (i, g) in random_games(variant, 11, 12).iter().enumerate() {
            let level = Level::ALL[i % 8];
            let mut s = EngineSearcher::new(1);
            let r = s.search(
                g,
                &SearchLimits::nodes(3_000),
                SearchOptions {
                    level,
                    seed: i as u64,
                    ..SearchOptions::default()
                },
                &mut |_| {},
            );
            let legal = g.position().legal_moves_uci();
            let mv = r
                .best_move
                .unwrap_or_else(|| panic!("no move: {}", g.position().fen()));
            assert!(
                legal.contains(&mv),
                "{mv} illegal in {}",
                g.position().fen()
            );
            assert!(
                r.pv.first() == Some(&mv),
                "the pv starts with the move played"
            );
        }
    }
}

#[test]
fn no_move_when_the_game_is_over() {
    // Fool's mate: White is mated.
    let mut g = EngineGame::new(EnginePosition::start(Variant::Chess));
    for m in ["f2f3", "e7e5", "g2g4", "d8h4"] {
        g.play_uci(m).unwrap_or_else(|e| panic!("{e}"));
    }
    let r = think(&g, Level::Eight, None, None, 0);
    assert_eq!(r.best_move, None);
}

#[test]
fn a_fixed_seed_gives_a_fixed_choice_and_seeds_vary_it() {
    let games = random_games(Variant::Chess, 5, 6);
    let mut differs = false;
    for g in &games {
        let run = |seed| {
            let mut s = EngineSearcher::new(1);
            // `infinite` lifts the level's time cap, so only its depth and
            // node caps bound the search and the result cannot depend on
            // how busy the machine is.
            let limits = SearchLimits {
                infinite: true,
                ..SearchLimits::default()
            };
            let r = s.search(
                g,
                &limits,
                SearchOptions {
                    level: Level::Two,
                    seed,
                    ..SearchOptions::default()
                },
                &mut |_| {},
            );
            (r.best_move, r.nodes)
        };
        assert_eq!(run(1), run(1));
        differs |= (2..8).any(|seed| run(seed).0 != run(1).0);
    }
    assert!(differs, "level 2 plays the same move whatever the seed");
    // Full strength is deterministic too (depth-bounded).
    let g = &games[0];
    let run = || {
        let mut s = EngineSearcher::new(4);
        let r = s.search(
            g,
            &SearchLimits::depth(7),
            SearchOptions::default(),
            &mut |_| {},
        );
        (r.best_move, r.nodes, r.score)
    };
    assert_eq!(run(), run());
}

#[test]
fn stop_flag_ends_an_infinite_search_with_a_move() {
    let g = EngineGame::new(EnginePosition::start(Variant::Xiangqi));
    let stop = Arc::new(AtomicBool::new(false));
    let flag = Arc::clone(&stop);
    let handle = std::thread::spawn(move || {
        let mut s = EngineSearcher::new(4);
        s.search(
            &g,
            &SearchLimits {
                infinite: true,
                ..SearchLimits::default()
            },
            SearchOptions {
                stop: Some(flag),
                ..SearchOptions::default()
            },
            &mut |_| {},
        )
    });
    std::thread::sleep(Duration::from_millis(50));
    let t = Instant::now();
    stop.store(true, Ordering::Relaxed);
    let r = handle
        .join()
        .unwrap_or_else(|_| panic!("search thread panicked"));
    assert!(t.elapsed() < Duration::from_secs(2), "stopped late");
    assert!(r.best_move.is_some() && r.depth >= 1);
}

/// Plays one game between two levels with node-bounded searches; returns
/// White's score (1, ½, 0).
fn play(variant: Variant, white: Level, black: Level, seed: u64) -> f64 {
    let mut g = EngineGame::new(EnginePosition::start(variant));
    let mut searchers = [EngineSearcher::new(2), EngineSearcher::new(2)];
    let mut seen: HashMap<String, u32> = HashMap::new();
    let mut quiet: u32 = 0;
    for ply in 0..240u64 {
        if let Some(o) = g.position().outcome() {
            return match o.winner {
                Some(Color::White) => 1.0,
                Some(Color::Black) => 0.0,
                None => 0.5,
            };
        }
        let fen = g.position().fen();
        let key: Vec<&str> = fen.split(' ').take(4).collect();
        let n = seen.entry(key.join(" ")).or_insert(0);
        *n += 1;
        if *n >= 3 || quiet >= 100 {
            return 0.5;
        }
        let white_to_move = fen.split(' ').nth(1) == Some("w");
        let (level, s) = if white_to_move {
            (white, &mut searchers[0])
        } else {
            (black, &mut searchers[1])
        };
        let r = s.search(
            &g,
            &SearchLimits::nodes(4_000),
            SearchOptions {
                level,
                seed: seed.wrapping_mul(1000) + ply,
                ..SearchOptions::default()
            },
            &mut |_| {},
        );
        let mv = r.best_move.unwrap_or_else(|| panic!("no move in {fen}"));
        g.play_uci(&mv).unwrap_or_else(|e| panic!("{e}"));
        // The FEN's halfmove field: plies since the last capture (or pawn
        // move), which the fifty-move rule counts.
        quiet = g
            .position()
            .fen()
            .split(' ')
            .nth(4)
            .and_then(|h| h.parse().ok())
            .unwrap_or(0);
    }
    0.5
}

#[test]
fn level_eight_beats_level_one() {
    for variant in VARIANTS {
        let mut score = 0.0;
        let games = 4;
        for i in 0..games {
            // Colours alternate; level 1's seeded noise varies the games.
            let (w, b) = if i % 2 == 0 {
                (Level::Eight, Level::One)
            } else {
                (Level::One, Level::Eight)
            };
            let s = play(variant, w, b, i);
            score += if i % 2 == 0 { s } else { 1.0 - s };
        }
        assert!(
            score >= 3.0,
            "{variant:?}: level 8 scored {score}/{games} against level 1"
        );
    }
}
