//! Prints the legal moves (perft divide) of a position, for debugging
//! move generation against another engine: `cargo run --example
//! chess_divide -- <variant> <depth> <fen>`.

use chessplayx_rules::chess::{AtomicChess, Chess, HordeChess};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let (Some(variant), Some(depth), Some(fen)) = (args.get(1), args.get(2), args.get(3)) else {
        eprintln!("usage: chess_divide <chess|horde|atomic> <depth> <fen>");
        std::process::exit(2);
    };
    let depth: u32 = depth.parse().unwrap_or(1);
    let result: Result<Vec<(String, u64)>, String> = match variant.as_str() {
        "horde" => HordeChess::from_fen(fen)
            .map(|p| {
                p.divide(depth)
                    .into_iter()
                    .map(|(m, n)| (m.to_string(), n))
                    .collect()
            })
            .map_err(|e| e.to_string()),
        "atomic" => AtomicChess::from_fen(fen)
            .map(|p| {
                p.divide(depth)
                    .into_iter()
                    .map(|(m, n)| (m.to_string(), n))
                    .collect()
            })
            .map_err(|e| e.to_string()),
        _ => Chess::from_fen(fen)
            .map(|p| {
                p.divide(depth)
                    .into_iter()
                    .map(|(m, n)| (m.to_string(), n))
                    .collect()
            })
            .map_err(|e| e.to_string()),
    };
    match result {
        Ok(mut moves) => {
            moves.sort();
            let total: u64 = moves.iter().map(|(_, n)| n).sum();
            for (m, n) in moves {
                println!("{m} {n}");
            }
            println!("total {total}");
        }
        Err(e) => {
            eprintln!("{e}");
            std::process::exit(1);
        }
    }
}
