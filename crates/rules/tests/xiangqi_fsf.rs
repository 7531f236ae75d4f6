//! Agreement with Fairy-Stockfish: positions from seeded random playouts
//! recorded with pyffish (`src/xiangqi/testdata/gen_fsf_fixture.py`), each
//! with every legal move and its WXF text as Fairy-Stockfish writes it.

use std::collections::BTreeMap;

use chessplayx_rules::xiangqi::{UciMove, Wxf, Xiangqi};

const FIXTURE: &str = include_str!("../src/xiangqi/testdata/fsf_positions.txt");

#[test]
fn legal_moves_fen_and_wxf_match_fairy_stockfish() {
    let mut positions = 0;
    let mut moves = 0;
    for line in FIXTURE.lines().filter(|l| !l.is_empty()) {
        let (fen, list) = line
            .split_once(';')
            .unwrap_or_else(|| panic!("bad line {line}"));
        let pos = Xiangqi::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
        assert_eq!(pos.fen(), fen, "fen output");
        let fsf: BTreeMap<&str, &str> = list
            .split(',')
            .filter(|s| !s.is_empty())
            .map(|item| {
                item.split_once(' ')
                    .unwrap_or_else(|| panic!("bad item {item}"))
            })
            .collect();
        let ours: BTreeMap<String, String> = pos
            .legal_moves()
            .into_iter()
            .map(|m| (m.to_uci(), pos.wxf(m)))
            .collect();
        let ours_ref: BTreeMap<&str, &str> =
            ours.iter().map(|(u, w)| (u.as_str(), w.as_str())).collect();
        assert_eq!(ours_ref, fsf, "{fen}");
        for (uci, wxf) in &fsf {
            let mv = UciMove::from_ascii(uci.as_bytes())
                .unwrap_or_else(|e| panic!("{e}"))
                .to_move(&pos)
                .unwrap_or_else(|e| panic!("{fen} {uci}: {e}"));
            let parsed: Wxf = wxf.parse().unwrap_or_else(|e| panic!("{e}"));
            assert_eq!(parsed.to_move(&pos), Ok(mv), "{fen} {wxf}");
            moves += 1;
        }
        positions += 1;
    }
    assert!(
        positions > 500 && moves > 10_000,
        "{positions} positions, {moves} moves"
    );
}
