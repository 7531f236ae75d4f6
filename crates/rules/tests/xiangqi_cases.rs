//! Every case of the rules page's `xiangqi-cases.json` (§12), run directly
//! against the library: results, reasons, end plies, check, legal moves,
//! counters, the per-ply classification, FEN rejection and perft.

mod common;

use std::collections::BTreeMap;

use chessplayx_rules::{
    Color, Outcome,
    xiangqi::{Move, PlyReport, UciMove, Xiangqi, XiangqiGame},
};
use serde_json::Value;

fn cases() -> Vec<Value> {
    let path = common::data_dir().join("rules/xiangqi-cases.json");
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    let v: Value = serde_json::from_str(&text).unwrap_or_else(|e| panic!("bad json: {e}"));
    let Value::Array(list) = v else {
        panic!("cases file is not an array")
    };
    assert!(list.len() >= 40, "only {} cases", list.len());
    list
}

fn result_string(outcome: Option<Outcome>) -> Option<&'static str> {
    outcome.map(|o| match o.winner {
        Some(Color::White) => "1-0",
        Some(Color::Black) => "0-1",
        None => "1/2-1/2",
    })
}

fn parse_move(pos: &Xiangqi, uci: &str) -> Move {
    UciMove::from_ascii(uci.as_bytes())
        .unwrap_or_else(|e| panic!("bad move {uci}: {e}"))
        .to_move(pos)
        .unwrap_or_else(|e| panic!("illegal move {uci} in {}: {e}", pos.fen()))
}

fn squares(bb: chessplayx_rules::xiangqi::Bitboard) -> Vec<String> {
    let mut v: Vec<String> = bb.map(|s| s.to_string()).collect();
    v.sort();
    v
}

fn str_list(v: &Value) -> Vec<String> {
    let mut out: Vec<String> = v
        .as_array()
        .unwrap_or_else(|| panic!("not an array: {v}"))
        .iter()
        .map(|s| {
            s.as_str()
                .unwrap_or_else(|| panic!("not a string: {s}"))
                .to_owned()
        })
        .collect();
    out.sort();
    out
}

fn check_ply(name: &str, report: &PlyReport, want: &Value) {
    let ctx = format!("{name} ply {}", report.ply);
    assert_eq!(Some(u64::from(report.ply)), want["ply"].as_u64(), "{ctx}");
    assert_eq!(
        report.mv.to_uci(),
        want["move"].as_str().unwrap_or(""),
        "{ctx}"
    );
    assert_eq!(Some(report.check), want["check"].as_bool(), "{ctx} check");
    assert_eq!(
        squares(report.checkers),
        str_list(&want["checkers"]),
        "{ctx} checkers"
    );
    let got: BTreeMap<String, Vec<String>> = report
        .chased
        .iter()
        .map(|c| (c.target.to_string(), squares(c.attackers)))
        .collect();
    let expected: BTreeMap<String, Vec<String>> = want["chased"]
        .as_object()
        .unwrap_or_else(|| panic!("{ctx}: chased not an object"))
        .iter()
        .map(|(k, v)| (k.clone(), str_list(v)))
        .collect();
    assert_eq!(got, expected, "{ctx} chased");
    assert_eq!(
        Some(report.progress),
        want["progress"].as_bool(),
        "{ctx} progress"
    );
    assert_eq!(
        Some(report.effective),
        want["effective"].as_bool(),
        "{ctx} effective"
    );
}

/// Over 100 lines: it checks every field a case file may state, in the
/// order the case format lists them.
fn run_game_case(case: &Value) {
    let name = case["name"].as_str().unwrap_or("?");
    let fen = case["fen"]
        .as_str()
        .unwrap_or_else(|| panic!("{name}: no fen"));
    let expect = &case["expect"];
    let mut game =
        XiangqiGame::from_fen(fen).unwrap_or_else(|e| panic!("{name}: fen rejected: {e}"));
    let moves = case["moves"].as_array().cloned().unwrap_or_default();
    for (i, m) in moves.iter().enumerate() {
        let uci = m.as_str().unwrap_or_else(|| panic!("{name}: bad move {m}"));
        assert!(
            game.outcome().is_none(),
            "{name}: game ended at ply {:?} ({:?}) before move {} {uci}",
            game.end_ply(),
            game.outcome(),
            i + 1
        );
        let mv = parse_move(game.position(), uci);
        game.play(mv)
            .unwrap_or_else(|e| panic!("{name}: move {} {uci} refused: {e}", i + 1));
    }

    assert_eq!(
        result_string(game.outcome()),
        expect["result"].as_str(),
        "{name}: result ({:?} at {:?})",
        game.outcome(),
        game.end_ply()
    );
    assert_eq!(
        game.outcome().map(|o| o.reason.name()),
        expect["reason"].as_str(),
        "{name}: reason"
    );
    assert_eq!(
        game.end_ply().map(u64::from),
        expect["end_ply"].as_u64(),
        "{name}: end_ply"
    );
    if let Some(end) = game.end_ply() {
        assert_eq!(
            end as usize,
            moves.len(),
            "{name}: the moves end at the end"
        );
    }
    if let Some(c) = expect["in_check"].as_bool() {
        assert_eq!(game.is_check(), c, "{name}: in_check");
    }
    let legal: Vec<String> = {
        let mut v: Vec<String> = game
            .position()
            .legal_moves()
            .iter()
            .map(|m| m.to_uci())
            .collect();
        v.sort();
        v
    };
    if let Some(n) = expect["legal_move_count"].as_u64() {
        assert_eq!(legal.len() as u64, n, "{name}: legal_move_count");
    }
    if !expect["legal_moves"].is_null() {
        assert_eq!(
            legal,
            str_list(&expect["legal_moves"]),
            "{name}: legal_moves"
        );
    }
    if !expect["legal_includes"].is_null() {
        for m in str_list(&expect["legal_includes"]) {
            assert!(legal.contains(&m), "{name}: {m} should be legal");
        }
    }
    if !expect["legal_excludes"].is_null() {
        for m in str_list(&expect["legal_excludes"]) {
            assert!(!legal.contains(&m), "{name}: {m} should be illegal");
        }
    }
    if let Some(c) = expect["counters"].as_object() {
        let got = game.counters();
        let n = |k: &str| {
            c.get(k)
                .and_then(Value::as_u64)
                .unwrap_or_else(|| panic!("{name}: counter {k}"))
        };
        assert_eq!(
            (
                u64::from(got.total_plies),
                u64::from(got.progress_plies),
                u64::from(got.effective_plies)
            ),
            (n("total_plies"), n("progress_plies"), n("effective_plies")),
            "{name}: counters (total, progress, effective)"
        );
    }
    if let Some(plies) = expect["plies"].as_array() {
        assert!(!plies.is_empty());
        let reports = game.plies();
        for want in plies {
            let i = want["ply"]
                .as_u64()
                .unwrap_or_else(|| panic!("{name}: ply")) as usize;
            let report = reports
                .get(i - 1)
                .unwrap_or_else(|| panic!("{name}: no report for ply {i}"));
            check_ply(name, report, want);
        }
    }
    if let Some(perft) = expect["perft"].as_object() {
        for (d, n) in perft {
            let d: u32 = d
                .parse()
                .unwrap_or_else(|e| panic!("{name}: depth {d}: {e}"));
            assert_eq!(
                Some(game.position().perft(d)),
                n.as_u64(),
                "{name}: perft {d}"
            );
        }
    }
}

#[test]
fn every_case_of_the_rules_page() {
    let mut by_category: BTreeMap<String, usize> = BTreeMap::new();
    for case in cases() {
        let name = case["name"].as_str().unwrap_or("?");
        let category = case["category"].as_str().unwrap_or("?").to_owned();
        if case["expect"]["fen_valid"] == Value::Bool(false) {
            let fen = case["fen"].as_str().unwrap_or("");
            assert!(
                Xiangqi::from_fen(fen).is_err(),
                "{name}: invalid FEN {fen} accepted"
            );
            assert!(XiangqiGame::from_fen(fen).is_err(), "{name}");
        } else {
            run_game_case(&case);
        }
        *by_category.entry(category).or_default() += 1;
    }
    for cat in [
        "movegen",
        "flying_general",
        "game_end",
        "perpetual_check",
        "perpetual_chase",
        "check_vs_chase",
        "draw_rules",
        "perft",
        "fen",
    ] {
        assert!(by_category.contains_key(cat), "no case of category {cat}");
    }
}
