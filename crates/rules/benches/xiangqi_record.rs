//! Cost of the full adjudication per played ply ([`XiangqiGame::play`]:
//! classification with two threat maps, streaks, judgement, counters, the
//! next side's threat map) and of [`XiangqiGame::move_warnings`], over a
//! 600-ply game that ends by the Moves rule.
//!
//! `cargo bench -p chessplayx-rules --bench xiangqi_record`
//!
//! The game is generated once from a seeded random walk that never plays a
//! move ending the game early: it captures or advances a crossed soldier
//! when the Progress rule comes near, and prefers checks and chases when
//! the Effective rule comes near. Its moves are then replayed and timed.

use std::{hint::black_box, time::Instant};

use chessplayx_rules::{
    EndReason,
    xiangqi::{Move, XiangqiGame},
};

/// xorshift64*: a dependency-free seeded generator.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    fn pick<T: Copy>(&mut self, items: &[T]) -> Option<T> {
        if items.is_empty() {
            None
        } else {
            Some(items[(self.next() % items.len() as u64) as usize])
        }
    }
}

/// A 600-ply game from the start position, or `None` if this seed's walk
/// got stuck.
fn generate(seed: u64) -> Option<Vec<Move>> {
    let mut rng = Rng(seed | 1);
    let mut game = XiangqiGame::start();
    let mut moves = Vec::new();
    while game.outcome().is_none() {
        let ply = game.ply_count();
        let mut quiet = Vec::new();
        let mut progress = Vec::new();
        let mut forcing = Vec::new();
        for w in game.move_warnings() {
            let ends_well = match w.outcome {
                None => true,
                Some(o) => o.reason == EndReason::MovesRule,
            };
            if !ends_well {
                continue;
            }
            let mut probe = game.clone();
            let report = probe.play(w.mv).ok()?;
            if report.progress {
                progress.push(w.mv);
            } else if report.is_forcing() {
                forcing.push(w.mv);
            } else {
                quiet.push(w.mv);
            }
        }
        let c = game.counters();
        let need_progress = c.progress_plies >= 40;
        let need_forcing = c.effective_plies * 5 >= ply * 2;
        let mv = if need_progress && !progress.is_empty() {
            rng.pick(&progress)
        } else if need_forcing && !forcing.is_empty() {
            rng.pick(&forcing)
        } else if rng.next().is_multiple_of(8) && !progress.is_empty() {
            rng.pick(&progress)
        } else {
            rng.pick(&quiet)
                .or_else(|| rng.pick(&forcing))
                .or_else(|| rng.pick(&progress))
        }?;
        game.play(mv).ok()?;
        moves.push(mv);
    }
    (game.outcome().map(|o| o.reason) == Some(EndReason::MovesRule) && moves.len() == 600)
        .then_some(moves)
}

fn main() {
    let t = Instant::now();
    let (seed, moves) = (1..200u64)
        .find_map(|seed| generate(seed).map(|m| (seed, m)))
        .unwrap_or_else(|| panic!("no seed gave a 600-ply game"));
    println!(
        "generated a {}-ply game (seed {seed}) in {:.1} s",
        moves.len(),
        t.elapsed().as_secs_f64()
    );

    const ROUNDS: u32 = 20;
    let mut total = 0.0f64;
    let mut max = 0.0f64;
    let mut warn_total = 0.0f64;
    let mut warn_max = 0.0f64;
    let mut warn_calls = 0u32;
    let mut forcing = 0;
    // Per ply, the best time over the rounds: the ply's own cost without
    // the scheduling noise of a shared machine.
    let mut best = vec![f64::INFINITY; moves.len()];
    for round in 0..ROUNDS {
        let mut game = XiangqiGame::start();
        for (i, &mv) in moves.iter().enumerate() {
            if round == 0 {
                let t = Instant::now();
                let w = black_box(&game).move_warnings();
                let dt = t.elapsed().as_secs_f64();
                black_box(w);
                warn_total += dt;
                warn_max = warn_max.max(dt);
                warn_calls += 1;
            }
            let t = Instant::now();
            let report = black_box(&mut game).play(black_box(mv));
            let dt = t.elapsed().as_secs_f64();
            total += dt;
            max = max.max(dt);
            best[i] = best[i].min(dt);
            if round == 0 && report.is_ok_and(|r| r.is_forcing()) {
                forcing += 1;
            }
        }
        assert_eq!(game.outcome().map(|o| o.reason), Some(EndReason::MovesRule));
        if round == 0 {
            let c = game.counters();
            println!(
                "game: {forcing} forcing plies, counters total {} progress {} effective {}",
                c.total_plies, c.progress_plies, c.effective_plies
            );
        }
    }
    let plies = f64::from(ROUNDS) * moves.len() as f64;
    println!(
        "play: mean {:.2} us/ply, max {:.2} us ({} plies)",
        total / plies * 1e6,
        max * 1e6,
        plies
    );
    let worst = best.iter().copied().fold(0.0, f64::max);
    println!(
        "play: slowest ply (best of {ROUNDS} rounds) {:.2} us",
        worst * 1e6
    );
    println!(
        "move_warnings: mean {:.2} us/position, max {:.2} us ({warn_calls} positions)",
        warn_total / f64::from(warn_calls) * 1e6,
        warn_max * 1e6
    );
}
