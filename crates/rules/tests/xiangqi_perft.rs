//! Perft against the public suite (`tests/data/perft`) and the perft cases of the rules
//! page's JSON.

mod common;

use chessplayx_rules::xiangqi::Xiangqi;

struct Line {
    fen: String,
    depths: Vec<(u32, u64)>,
}

fn suite() -> Vec<Line> {
    let path = common::data_dir().join("perft/xiangqi.public.epd");
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    let mut out = Vec::new();
    for raw in text.lines() {
        let raw = raw.trim();
        if raw.is_empty() || raw.starts_with('#') {
            continue;
        }
        let mut parts = raw.split(';').map(str::trim);
        let fen = parts.next().unwrap_or_default().to_owned();
        let depths = parts
            .filter(|p| !p.is_empty())
            .map(|p| {
                let (d, n) = p
                    .split_once(' ')
                    .unwrap_or_else(|| panic!("bad field {p:?}"));
                let d: u32 = d
                    .trim_start_matches('D')
                    .parse()
                    .unwrap_or_else(|e| panic!("{e}"));
                let n: u64 = n.trim().parse().unwrap_or_else(|e| panic!("{e}"));
                (d, n)
            })
            .collect();
        out.push(Line { fen, depths });
    }
    assert!(out.len() >= 30, "suite too small: {}", out.len());
    out
}

fn run(max_nodes: u64) -> usize {
    let mut checked = 0;
    for line in suite() {
        let pos = Xiangqi::from_fen(&line.fen)
            .unwrap_or_else(|e| panic!("suite fen {} rejected: {e}", line.fen));
        assert_eq!(pos.fen(), line.fen, "fen round trip");
        for &(depth, nodes) in &line.depths {
            if nodes > max_nodes {
                continue;
            }
            assert_eq!(pos.perft(depth), nodes, "{} depth {depth}", line.fen);
            checked += 1;
        }
    }
    checked
}

#[test]
fn public_suite_up_to_a_node_limit() {
    let checked = run(20_000_000);
    assert!(checked > 100, "only {checked} depths checked");
}

#[test]
#[ignore = "full suite: about 10 s in release mode"]
fn public_suite_full() {
    run(u64::MAX);
}

#[test]
fn rules_page_perft_cases() {
    let path = common::data_dir().join("rules/xiangqi-cases.json");
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    // A tiny purpose-built scan keeps the crate free of a JSON dependency:
    // each perft case has `"category": "perft"`, a `"fen"` and a
    // `"perft": {"1": n, ...}` object.
    let mut cases = 0;
    for chunk in text.split("\"name\":").skip(1) {
        if !chunk.contains("\"category\": \"perft\"") {
            continue;
        }
        let fen = field(chunk, "\"fen\": \"").unwrap_or_else(|| panic!("no fen in {chunk}"));
        let perft = field_obj(chunk, "\"perft\": {").unwrap_or_else(|| panic!("no perft"));
        let pos = Xiangqi::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
        for entry in perft.split(',') {
            let (d, n) = entry
                .split_once(':')
                .unwrap_or_else(|| panic!("bad {entry}"));
            let d: u32 = d
                .trim()
                .trim_matches('"')
                .parse()
                .unwrap_or_else(|e| panic!("{e}"));
            let n: u64 = n.trim().parse().unwrap_or_else(|e| panic!("{e}"));
            if n <= 20_000_000 {
                assert_eq!(pos.perft(d), n, "{fen} depth {d}");
            }
        }
        cases += 1;
    }
    assert_eq!(cases, 5, "expected the five perft cases of the rules page");
}

fn field<'a>(chunk: &'a str, key: &str) -> Option<&'a str> {
    let start = chunk.find(key)? + key.len();
    let len = chunk[start..].find('"')?;
    Some(&chunk[start..start + len])
}

fn field_obj<'a>(chunk: &'a str, key: &str) -> Option<&'a str> {
    let start = chunk.find(key)? + key.len();
    let len = chunk[start..].find('}')?;
    Some(&chunk[start..start + len])
}

#[test]
fn divide_sums_to_perft() {
    let pos = Xiangqi::start();
    let divide = pos.divide(3);
    assert_eq!(divide.len(), 44);
    assert_eq!(divide.iter().map(|&(_, n)| n).sum::<u64>(), 79_666);
}
