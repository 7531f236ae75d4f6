//! Prints every node of the legal move tree to a depth, one line per
//! node: `fen|uci uci …`, for comparing move generation with another
//! engine: `cargo run --example chess_walk -- <variant> <depth> <fen>`.

use chessplayx_rules::chess::{AtomicChess, Chess, HordeChess, Position, Rules};

fn walk<R: Rules>(pos: &Position<R>, depth: u32) {
    let mut moves: Vec<String> = pos.legal_moves().iter().map(ToString::to_string).collect();
    moves.sort();
    println!("{}|{}", pos.fen(), moves.join(" "));
    if depth > 0 {
        for m in pos.legal_moves() {
            walk(&pos.played(m), depth - 1);
        }
    }
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let (Some(variant), Some(depth), Some(fen)) = (args.get(1), args.get(2), args.get(3)) else {
        eprintln!("usage: chess_walk <chess|horde|atomic> <depth> <fen>");
        std::process::exit(2);
    };
    let depth: u32 = depth.parse().unwrap_or(1);
    let result = match variant.as_str() {
        "horde" => HordeChess::from_fen(fen).map(|p| walk(&p, depth)),
        "atomic" => AtomicChess::from_fen(fen).map(|p| walk(&p, depth)),
        _ => Chess::from_fen(fen).map(|p| walk(&p, depth)),
    };
    if let Err(e) = result {
        eprintln!("{e}");
        std::process::exit(1);
    }
}
