//! Unit tests of the table fit (kept apart so that the module itself
//! stays short).

use chessplayx_rules::{Color, Variant};

use super::*;

use crate::eval::{CHESS_TOP_PST, Eval8, evaluate_table};

const FENS: [&str; 6] = [
    "r1b2rk1/pp1nqppp/2p1p3/3p4/2PP4/2NBPN2/PPQ2PPP/R4RK1 w - - 0 10",
    "r4rk1/ppp2ppp/2n5/3q4/3P2b1/2P2N2/P1Q2PPP/R1B2RK1 b - - 0 12",
    "2r3k1/pp3ppp/2n1b3/3p4/3P4/2PB1N2/P4PPP/4R1K1 w - - 0 20",
    "8/5pk1/6p1/8/3K4/8/5PP1/8 b - - 0 40",
    // Pawnless, a minor piece's edge: the end game quarters the score.
    "4k3/8/8/3b4/8/8/8/R3K3 w - - 0 1",
    "4k3/8/2n5/8/8/8/8/R3K3 b - - 0 1",
];

fn chess(fen: &str) -> Chess {
    Chess::from_fen(fen).unwrap_or_else(|e| unreachable!("{fen}: {e}"))
}

fn tempo_white(pos: &Chess, p: &StandardParams) -> f64 {
    f64::from(if pos.turn() == Color::White {
        p.tempo
    } else {
        -p.tempo
    })
}

/// The linear features predict the real evaluation's change when one
/// table entry changes: exactly for changes the blend (÷ 24) and the
/// end-game quartering (÷ 4) divide evenly, pushed the way the score
/// already leans (so no rounding toward zero changes side), and within
/// the rounding otherwise. A wrong phase weight or a missed end-game
/// scaling fails this.
#[test]
fn features_reproduce_the_evaluation() {
    let p = CHESS_TOP_PARAMS;
    let start = scaled_pst(p.w.pst_scale);
    let mut checked = 0;
    for fen in FENS {
        let pos = chess(fen);
        let before = white(&pos, &p, &start);
        let lean = (before - tempo_white(&pos, &p)).signum();
        assert!(lean != 0.0, "{fen}");
        let f = pst_features(&pos, &p, Some(&start));
        if fen.starts_with("4k3/8/8/3b4") {
            assert!(f.mg + f.eg < 0.26, "{fen}: {f:?}");
        }
        for &(entry, sign) in &f.pieces {
            for (dm, de) in [(96, 0), (0, 96), (96, 192), (7, -13)] {
                let push = lean * f64::from(sign);
                let (dm, de) = if push > 0.0 { (dm, de) } else { (-dm, -de) };
                let mut table = start;
                let e = usize::from(entry);
                table[e / 64][e % 64] += Tapered::new(dm, de);
                let mut delta = vec![0.0; ALL];
                delta[e * 2] = f64::from(dm);
                delta[e * 2 + 1] = f64::from(de);
                let row = Row {
                    base: before,
                    label: 0.5,
                    mg: f.mg,
                    eg: f.eg,
                    span: (0, f.pieces.len() as u32),
                };
                let set = Set {
                    rows: Vec::new(),
                    pieces: f.pieces.clone(),
                };
                let predicted = set.predict(&row, &delta);
                let real = white(&pos, &p, &table);
                if dm % 96 == 0 && de % 96 == 0 {
                    // Float weights: equal to the last bits' rounding.
                    assert!(
                        (real - predicted).abs() < 1e-9,
                        "{fen} entry {entry} ({dm}, {de}): {real} {predicted}"
                    );
                } else {
                    assert!((real - predicted).abs() < 2.0, "{fen} entry {entry}");
                }
                checked += 1;
            }
        }
    }
    assert!(checked > 100, "{checked}");
}

/// Levels 1–7 keep the shared tables at their scale (their calibration,
/// pinned in search/calibrated.rs), which a table of their own at that
/// scale reproduces exactly; level 8 plays with the fitted tables when
/// `own_pst` says so.
#[test]
fn only_level_8_uses_the_fitted_tables() {
    use chessplayx_rules::chess::Standard;
    let low = <Standard as Eval8>::PARAMS;
    assert!(!low.own_pst);
    let top = CHESS_TOP_PARAMS;
    for fen in FENS {
        let pos = chess(fen);
        let v = Standard::evaluate_with(&pos, &low);
        assert_eq!(v, evaluate_table(&pos, &low, None));
        let shared = scaled_pst(low.w.pst_scale);
        assert_eq!(v, evaluate_table(&pos, &low, Some(&shared)));
        let fitted = top.own_pst.then_some(&CHESS_TOP_PST);
        assert_eq!(
            Standard::evaluate_with(&pos, &top),
            evaluate_table(&pos, &top, fitted)
        );
    }
}

/// Labels drawn from changed tables (central knights worth 40 more in
/// the middle game, a pawn on the seventh 60 more in the end game) pull
/// the fit towards them and more than halve the error.
#[test]
fn the_fit_recovers_changed_tables() {
    let data = crate::tune::tests::small_data(Variant::Chess, 6);
    let p = CHESS_TOP_PARAMS;
    let mut truth = scaled_pst(p.w.pst_scale);
    for sq in [27, 28, 35, 36, 18, 21, 42, 45] {
        truth[Role::Knight as usize][sq].mg += 40;
    }
    for e in &mut truth[Role::Pawn as usize][48..56] {
        e.eg += 60;
    }
    let (samples, _) = load::<Chess>(&data).unwrap_or_else(|e| unreachable!("{e}"));
    let mut labelled = String::new();
    for s in &samples {
        let y = sigmoid(1.0, white(&s.pos, &p, &truth));
        let _ = writeln!(labelled, "{};{y}", s.pos.fen());
    }
    let opts = PstFitOptions {
        holdout_every: 0,
        l2: vec![0.0],
        steps: 400,
        rate: 2.0,
        keep_material: false,
    };
    let run =
        || fit_pst(&labelled, None, &opts, &mut |_| {}).unwrap_or_else(|e| unreachable!("{e}"));
    let report = run();
    let (before, after) = report.train_error;
    assert!(after < before / 2.0, "{}", report.summary());
    let knight = report.table[Role::Knight as usize][27].mg
        - scaled_pst(p.w.pst_scale)[Role::Knight as usize][27].mg;
    assert!(knight > 15, "{knight}: {}", report.summary());
    // Deterministic: the same tables and the same file again.
    let again = run();
    assert_eq!(report.table, again.table);
    assert_eq!(render(&report, "x"), render(&again, "x"));
    assert!(render(&report, "x").contains("pub(crate) static TOP_PST"));
    // Keeping the material: each role's average over its squares stays
    // the starting one (up to the rounding of each entry), and the error
    // still falls.
    let opts = PstFitOptions {
        keep_material: true,
        ..opts
    };
    let kept = fit_pst(&labelled, None, &opts, &mut |_| {}).unwrap_or_else(|e| unreachable!("{e}"));
    assert!(kept.train_error.1 < before, "{}", kept.summary());
    let start = scaled_pst(p.w.pst_scale);
    for role in 0..6 {
        let squares = if role == 0 { 8..56 } else { 0..64 };
        let n = squares.len() as f64;
        let mean = |t: &PstTable, mg: bool| -> f64 {
            let sum: i32 = squares
                .clone()
                .map(|sq| if mg { t[role][sq].mg } else { t[role][sq].eg })
                .sum();
            f64::from(sum) / n
        };
        for mg in [true, false] {
            let moved = mean(&kept.table, mg) - mean(&start, mg);
            assert!(moved.abs() <= 0.5, "role {role} mg {mg}: {moved}");
        }
    }
}

/// Not a test but the way to fit level 8's chess tables and write them
/// into eval/chess_pst.rs (then rebuild):
/// `PST_DATA=FILE [PST_TEST=FILE] [PST_OUT=src/eval/chess_pst.rs] [PST_STEPS=1500] [PST_L2=0,1e-8]
/// [PST_KEEP_MATERIAL=1]
/// cargo test --release -p chessplayx-engine fit_pst_from_file -- --ignored --nocapture`.
#[test]
#[ignore = "a tool, run by hand with PST_DATA set"]
fn fit_pst_from_file() {
    let env = |k: &str| std::env::var(k).unwrap_or_default();
    let read = |f: &str| std::fs::read_to_string(f).unwrap_or_else(|e| unreachable!("{f}: {e}"));
    let data = read(&env("PST_DATA"));
    let test = (!env("PST_TEST").is_empty()).then(|| read(&env("PST_TEST")));
    let mut opts = PstFitOptions {
        keep_material: env("PST_KEEP_MATERIAL") == "1",
        ..PstFitOptions::default()
    };
    if let Ok(n) = env("PST_STEPS").parse() {
        opts.steps = n;
    }
    if !env("PST_L2").is_empty() {
        opts.l2 = env("PST_L2")
            .split(',')
            .map(|x| x.parse().unwrap_or_else(|e| unreachable!("{x}: {e}")))
            .collect();
    }
    let report = fit_pst(&data, test.as_deref(), &opts, &mut |l| eprintln!("{l}"))
        .unwrap_or_else(|e| unreachable!("{e}"));
    println!("{}", report.summary());
    let name = |k: &str| {
        let v = env(k);
        std::path::Path::new(&v)
            .file_name()
            .map_or(v.clone(), |n| n.to_string_lossy().into_owned())
    };
    let command = format!(
        "PST_DATA={} PST_TEST={} PST_STEPS={} PST_L2={} PST_KEEP_MATERIAL={} fit_pst_from_file",
        name("PST_DATA"),
        name("PST_TEST"),
        opts.steps,
        opts.l2
            .iter()
            .map(|l| format!("{l:e}"))
            .collect::<Vec<_>>()
            .join(","),
        u8::from(opts.keep_material)
    );
    let out = match env("PST_OUT") {
        o if o.is_empty() => "src/eval/chess_pst.rs".to_owned(),
        o => o,
    };
    std::fs::write(&out, render(&report, &command)).unwrap_or_else(|e| unreachable!("{out}: {e}"));
    eprintln!("wrote {out}");
}
