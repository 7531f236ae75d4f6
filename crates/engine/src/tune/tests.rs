//! Unit tests of the parent module (kept apart so that the module
//! itself stays short).

use super::*;

pub(super) fn small_data(variant: Variant, games: u32) -> String {
    let mut out = Vec::new();
    let opts = GenOptions {
        games,
        nodes: 300,
        random_plies: 8,
        max_plies: 200,
        seed: 5,
        with_score: false,
        with_net: false,
    };
    let report =
        generate(variant, &opts, &mut out, &mut |_| {}).unwrap_or_else(|e| unreachable!("{e}"));
    assert_eq!(report.games, games);
    assert_eq!(report.results.iter().sum::<u32>(), games);
    let text = String::from_utf8(out).unwrap_or_else(|e| unreachable!("{e}"));
    assert_eq!(text.lines().count() as u64, report.positions);
    text
}

#[test]
fn generated_games_are_reproducible_and_well_formed() {
    for variant in Variant::ALL {
        let a = small_data(variant, 2);
        assert_eq!(a, small_data(variant, 2), "{variant:?}");
        assert!(a.lines().count() > 10, "{variant:?}: {a}");
        for line in a.lines() {
            let (fen, result) = line
                .rsplit_once(';')
                .unwrap_or_else(|| unreachable!("{line}"));
            assert!(["0", "0.5", "1"].contains(&result), "{line}");
            assert!(
                crate::EnginePosition::from_fen(variant, fen).is_ok(),
                "{line}"
            );
        }
    }
}

/// Labels drawn from a known evaluation (a knight worth 420 instead of
/// 330) must pull the fitted knight value towards it.
#[test]
fn fit_recovers_a_changed_weight() {
    let data = small_data(Variant::Chess, 6);
    let (samples, _) = load::<Chess>(&data).unwrap_or_else(|e| unreachable!("{e}"));
    let names = values(&Chess::PARAMS);
    let knight = names
        .iter()
        .position(|(n, _)| n == "material.knight.mg")
        .unwrap_or_else(|| unreachable!("{names:?}"));
    let start_value = names[knight].1;
    let truth = nudged(&nudged(&Chess::PARAMS, knight, 90), knight + 1, 90);
    let mut labelled = String::new();
    for s in &samples {
        let p = sigmoid(1.0, white_eval(&s.pos, &truth));
        let _ = writeln!(labelled, "{};{p}", s.pos.fen());
    }
    let opts = FitOptions {
        step: 16,
        only: vec!["material.knight".into()],
        holdout_every: 0,
        keep_scale: false,
        ..FitOptions::default()
    };
    let report =
        fit(Variant::Chess, &labelled, &opts, &mut |_| {}).unwrap_or_else(|e| unreachable!("{e}"));
    let fitted = report.weights[knight].2;
    assert!(
        (fitted - (start_value + 90)).abs() <= 30,
        "{start_value} -> {fitted}: {}",
        report.render()
    );
    assert!(
        report.train_error.1 < report.train_error.0 / 2.0,
        "{}",
        report.render()
    );
    // Only the chosen weights move.
    for (i, (name, b, a)) in report.weights.iter().enumerate() {
        if i != knight && i != knight + 1 {
            assert_eq!(b, a, "{name}");
        }
    }
    assert!(
        report.literal.contains("StandardParams"),
        "{}",
        report.literal
    );
}

/// A fit out of time at once keeps the starting weights and says so,
/// rather than running on past the budget.
#[test]
fn a_spent_time_limit_keeps_the_start() {
    let data = small_data(Variant::Chess, 2);
    let opts = FitOptions {
        max_seconds: Some(0.0),
        keep_scale: false,
        ..FitOptions::default()
    };
    let report =
        fit(Variant::Chess, &data, &opts, &mut |_| {}).unwrap_or_else(|e| unreachable!("{e}"));
    assert!(report.out_of_time, "{}", report.render());
    assert!(report.weights.iter().all(|(_, b, a)| b == a));
    assert!(report.render().contains("time limit"));
}

#[test]
fn bad_data_is_a_typed_error() {
    let opts = FitOptions::default();
    for (data, line) in [
        ("nonsense", 1),
        ("\n8/8/8/8/8/8/8/8 w - - 0 1;1", 2),
        ("4k3/8/8/8/8/8/8/4K2R w K - 0 1;2", 1),
        ("4k3/8/8/8/8/8/8/4K2R w K - 0 1;draw", 1),
    ] {
        match fit(Variant::Chess, data, &opts, &mut |_| {}) {
            Err(TuneError::BadLine { line: l, .. }) => assert_eq!(l, line, "{data}"),
            other => unreachable!("{data}: {other:?}"),
        }
    }
    assert!(matches!(
        fit(Variant::Chess, "# nothing\n", &opts, &mut |_| {}),
        Err(TuneError::NoData)
    ));
    let one = "4k3/8/8/8/8/8/8/4K2R w K - 0 1;1\n".repeat(3);
    let only = FitOptions {
        only: vec!["no_such".into()],
        holdout_every: 0,
        ..FitOptions::default()
    };
    assert!(matches!(
        fit(Variant::Chess, &one, &only, &mut |_| {}),
        Err(TuneError::NoSuchWeight(_))
    ));
}

/// Mangled data lines (bytes replaced, cut, duplicated) give a typed
/// error or a sample, never a panic, in every game.
#[test]
fn mangled_lines_never_panic() {
    let lines = [
        "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4;0.5",
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1;1",
    ];
    let alphabet = b"pnbrqkPNBRQKacehACEH/0123456789 -;.wbe10x";
    let mut rng = Rng::new(11);
    for i in 0..2000 {
        let mut bytes = lines[i % 2].as_bytes().to_vec();
        for _ in 0..=rng.below(4) {
            let at = rng.below(bytes.len() as u32) as usize;
            match rng.below(3) {
                0 => bytes[at] = alphabet[rng.below(alphabet.len() as u32) as usize],
                1 => bytes.truncate(at),
                _ => bytes.insert(at, alphabet[rng.below(alphabet.len() as u32) as usize]),
            }
            if bytes.is_empty() {
                break;
            }
        }
        let text = String::from_utf8_lossy(&bytes);
        for variant in Variant::ALL {
            let _ = match variant {
                Variant::Chess => load::<Chess>(&text).map(|r| r.1),
                Variant::Horde => load::<HordeChess>(&text).map(|r| r.1),
                Variant::Atomic => load::<AtomicChess>(&text).map(|r| r.1),
                Variant::Xiangqi => load::<Xiangqi>(&text).map(|r| r.1),
            };
        }
    }
}

#[test]
fn every_game_names_its_weights_uniquely() {
    fn check<P: Params>(p: &P) {
        let names = values(p);
        let mut sorted: Vec<&String> = names.iter().map(|(n, _)| n).collect();
        sorted.sort();
        sorted.dedup();
        assert_eq!(sorted.len(), names.len());
        // Nudging each weight changes exactly that weight.
        for i in 0..names.len() {
            let after = values(&nudged(p, i, 3));
            for (j, ((_, a), (_, b))) in names.iter().zip(&after).enumerate() {
                assert_eq!(*b, *a + if i == j { 3 } else { 0 });
            }
        }
    }
    check(&Chess::PARAMS);
    check(&HordeChess::PARAMS);
    check(&AtomicChess::PARAMS);
    check(&Xiangqi::PARAMS);
}

/// With `top`, the fit starts from level 8's weights (Horde's chains,
/// which levels 1–7 weigh at zero) and moves them towards labels drawn
/// from a changed copy; without it, it starts from levels 1–7's.
#[test]
fn top_fits_level_8s_weights() {
    let data = small_data(Variant::Horde, 3);
    let (samples, _) = load::<HordeChess>(&data).unwrap_or_else(|e| unreachable!("{e}"));
    let top = <HordeChess as FromFen>::TOP;
    let names = values(&top);
    let at = |name: &str| {
        names
            .iter()
            .position(|(n, _)| n == name)
            .unwrap_or_else(|| unreachable!("{names:?}"))
    };
    let (tempo, chain4) = (at("tempo"), at("chain.4"));
    assert_ne!(names[chain4].1, values(&HordeChess::PARAMS)[chain4].1);
    // Level 8's network corrects Horde's evaluation, and the fit of its
    // weights includes that.
    assert!(samples.iter().any(|s| s.pos.net_offset() != 0));
    let truth = nudged(&top, tempo, 40);
    let mut labelled = String::new();
    for s in &samples {
        // Level 8 adds the network's correction: the labels do too.
        let p = sigmoid(
            1.0,
            white_eval(&s.pos, &truth) + f64::from(s.pos.net_offset()),
        );
        let _ = writeln!(labelled, "{};{p}", s.pos.fen());
    }
    let opts = FitOptions {
        step: 16,
        only: vec!["tempo".into()],
        holdout_every: 0,
        keep_scale: false,
        top: true,
        k: Some(1.0),
        ..FitOptions::default()
    };
    let report =
        fit(Variant::Horde, &labelled, &opts, &mut |_| {}).unwrap_or_else(|e| unreachable!("{e}"));
    for (i, (name, before, after)) in report.weights.iter().enumerate() {
        assert_eq!(*before, names[i].1, "{name}");
        if i != tempo {
            assert_eq!(before, after, "{name}");
        }
    }
    assert!((report.k - 1.0).abs() < 1e-12, "{}", report.render());
    let (_, before, after) = &report.weights[tempo];
    assert!((after - (before + 40)).abs() <= 12, "{}", report.render());
    // Without `top`, the same fit starts from levels 1-7's weights.
    let low = fit(
        Variant::Horde,
        &labelled,
        &FitOptions { top: false, ..opts },
        &mut |_| {},
    )
    .unwrap_or_else(|e| unreachable!("{e}"));
    assert_eq!(low.weights[chain4].1, values(&HordeChess::PARAMS)[chain4].1);
}

/// Not a test but the way to run a fit of level 8's weights (the CLI's
/// `tune fit` fits levels 1–7's):
/// `FIT_DATA=FILE [FIT_VARIANT=horde] [FIT_ONLY=a,b] [FIT_THREADS=2] [FIT_KEEP_SCALE=0] [FIT_K=1]
/// cargo test --release -p chessplayx-engine fit_top_from_file -- --ignored --nocapture`.
#[test]
#[ignore = "a tool, run by hand with FIT_DATA set"]
fn fit_top_from_file() {
    let env = |k: &str| std::env::var(k).unwrap_or_default();
    let data = std::fs::read_to_string(env("FIT_DATA")).unwrap_or_else(|e| unreachable!("{e}"));
    let variant = match env("FIT_VARIANT").as_str() {
        "chess" => Variant::Chess,
        "atomic" => Variant::Atomic,
        "xiangqi" => Variant::Xiangqi,
        _ => Variant::Horde,
    };
    let opts = FitOptions {
        only: env("FIT_ONLY")
            .split(',')
            .filter(|s| !s.is_empty())
            .map(str::to_owned)
            .collect(),
        threads: env("FIT_THREADS").parse().unwrap_or(1),
        keep_scale: env("FIT_KEEP_SCALE") != "0",
        top: true,
        k: env("FIT_K").parse().ok(),
        max_seconds: env("FIT_SECONDS").parse().ok(),
        ..FitOptions::default()
    };
    let report = fit(variant, &data, &opts, &mut |l| eprintln!("{l}"))
        .unwrap_or_else(|e| unreachable!("{e}"));
    println!("{}", report.render());
}
