//! Random legal Xiangqi games, checked ply by ply against the slow
//! reference of `chessplayx_reference::xiangqi`, and played through the
//! game record at the same time.
//!
//! Input: a start position, the record's rule knobs and FEN counters
//! (so the draw counters and the perpetual rules can end a short game),
//! then one byte per move (`byte % number of legal moves`).
//!
//! At every position: the generated moves are exactly the reference's
//! legal moves; `is_legal` agrees with the reference on every pseudo-legal
//! move; `legal_moves_from`, the move counter and `perft(1)` agree with the
//! list; check and checkers match the reference; the outcome is set
//! exactly when there is no legal move; and for every legal move the
//! incremental Zobrist key equals the one computed from scratch.
//!
//! The record: `XiangqiGame::play` never panics, accepts every legal move
//! while the game runs (a refused one in `Forbid` mode is not among its
//! legal moves and leaves the game unchanged), follows the same positions,
//! and once it has an outcome keeps it, refusing every further move.

#![no_main]

use chessplayx_fuzz::{Bytes, positions};
use chessplayx_reference::xiangqi::{RefMove, RefPos};
use chessplayx_rules::{
    Game,
    xiangqi::{
        LimitCap, Move, MoveUnit, Square, ViolationMode, Xiangqi, XiangqiConfig, XiangqiGame,
        XiangqiPlayError,
    },
};
use libfuzzer_sys::fuzz_target;

/// Longest walk (the Moves rule ends any record by 600 plies).
const MAX_PLIES: usize = 400;

fn ref_move(mv: Move) -> RefMove {
    RefMove {
        from: mv.from().index(),
        to: mv.to().index(),
    }
}

fn engine_move(m: RefMove) -> Option<Move> {
    Some(Move::new(Square::new(m.from)?, Square::new(m.to)?))
}

fn check_position(pos: &Xiangqi) -> Vec<Move> {
    let fen = pos.fen();
    let reference = RefPos::from_position(pos);
    let moves = pos.legal_moves();
    let mut ours: Vec<RefMove> = moves.iter().map(|&m| ref_move(m)).collect();
    ours.sort_unstable();
    let n = ours.len();
    ours.dedup();
    assert_eq!(ours.len(), n, "duplicate moves in {fen}");
    let expected = reference.legal_moves();
    if ours != expected {
        let extra: Vec<String> = ours
            .iter()
            .filter(|m| !expected.contains(m))
            .filter_map(|&m| engine_move(m).map(|m| m.to_uci()))
            .collect();
        let missing: Vec<String> = expected
            .iter()
            .filter(|m| !ours.contains(m))
            .filter_map(|&m| engine_move(m).map(|m| m.to_uci()))
            .collect();
        panic!("legal moves of {fen}: illegal {extra:?} generated, legal {missing:?} missing");
    }
    for m in reference.pseudo_moves() {
        let mv = engine_move(m).unwrap_or_else(|| unreachable!("{m:?} is on the board"));
        assert_eq!(
            pos.is_legal(mv),
            reference.is_legal(m),
            "is_legal({mv}) in {fen}"
        );
    }
    let mut by_origin = 0;
    for sq in Square::all() {
        let from = pos.legal_moves_from(sq);
        assert!(
            from.iter().all(|m| m.from() == sq && moves.contains(m)),
            "{sq} in {fen}"
        );
        by_origin += from.len();
    }
    assert_eq!(by_origin, n, "legal_moves_from in {fen}");
    assert_eq!(pos.count_legal_moves(), n as u64, "count in {fen}");
    assert_eq!(pos.perft(1), n as u64, "perft(1) in {fen}");
    assert_eq!(pos.has_legal_moves(), n > 0, "has_legal_moves in {fen}");
    let mut buffer: Vec<Move> = moves.iter().rev().chain(&moves).copied().collect();
    Game::legal_moves_into(pos, &mut buffer);
    assert_eq!(buffer, moves, "legal_moves_into in {fen}");
    assert_eq!(
        pos.is_check(),
        reference.in_check(pos.turn()),
        "check in {fen}"
    );
    let mut checkers: Vec<u8> = pos.checkers().map(Square::index).collect();
    checkers.sort_unstable();
    assert_eq!(checkers, reference.checkers(), "checkers in {fen}");
    assert_eq!(pos.outcome().is_some(), n == 0, "outcome of {fen}");
    assert_eq!(pos.zobrist(), pos.zobrist_from_scratch(), "key of {fen}");
    for &mv in &moves {
        let mut after = pos.clone();
        after.play_unchecked(mv);
        assert_eq!(
            after.zobrist(),
            after.zobrist_from_scratch(),
            "key after {mv} in {fen}"
        );
        assert_eq!(
            RefPos::from_position(&after),
            reference.make(ref_move(mv)),
            "{mv} played in {fen}"
        );
    }
    moves
}

fn config(bits: u8) -> XiangqiConfig {
    XiangqiConfig {
        require_repetition: bits & 1 != 0,
        move_unit: if bits & 2 != 0 {
            MoveUnit::Ply
        } else {
            MoveUnit::PlyPair
        },
        crossing_step_is_progress: bits & 4 != 0,
        insufficient_material_draw: bits & 8 != 0,
        minor_on_major_always_chase: bits & 16 != 0,
        violation_mode: if bits & 32 != 0 {
            ViolationMode::Forbid
        } else {
            ViolationMode::Lose
        },
        limit_cap: if bits & 64 != 0 {
            LimitCap::Linear
        } else {
            LimitCap::Eighteen
        },
    }
}

fuzz_target!(|data: &[u8]| {
    let mut input = Bytes::new(data);
    let fen = positions::XIANGQI[input.below(positions::XIANGQI.len())];
    let config = config(input.byte());
    let mut setup = Xiangqi::from_fen(fen)
        .unwrap_or_else(|e| panic!("{fen}: {e}"))
        .to_setup();
    // Counters near the draw limits, sometimes.
    let counters = input.byte();
    if counters & 0x80 != 0 {
        setup.halfmoves = u32::from(counters & 0x3f);
    }
    if counters & 0x40 != 0 {
        setup.fullmoves = 290 + u32::from(counters & 0x0f);
    }
    let mut pos = Xiangqi::from_setup(setup).unwrap_or_else(|e| panic!("{fen}: {e}"));
    let mut game = Some(XiangqiGame::with_config(pos.clone(), config));
    let mut ended: Option<(chessplayx_rules::Outcome, Option<u32>)> = None;

    for _ in 0..MAX_PLIES {
        let moves = check_position(&pos);
        if let Some(g) = &game {
            if ended.is_none() {
                // After the end the record stays put while the walk goes on.
                assert_eq!(g.position(), &pos, "the record left the walk");
            }
            let outcome = g.outcome();
            if let Some(kept) = ended {
                assert_eq!(Some(kept.0), outcome, "outcome changed after the end");
                assert_eq!(kept.1, g.end_ply(), "end ply changed after the end");
            }
            ended = outcome.map(|o| (o, g.end_ply()));
            let accepted = g.legal_moves();
            if outcome.is_some() {
                assert!(accepted.is_empty(), "moves after the end in {}", pos.fen());
            } else {
                assert!(accepted.iter().all(|m| moves.contains(m)), "{}", pos.fen());
                if config.violation_mode == ViolationMode::Lose {
                    assert_eq!(accepted, moves, "record's moves in {}", pos.fen());
                }
            }
        }
        let (Some(b), false) = (input.next_byte(), moves.is_empty()) else {
            return;
        };
        let mv = moves[usize::from(b) % moves.len()];
        if let Some(g) = &mut game {
            let plies = g.ply_count();
            match g.play(mv) {
                Ok(report) => {
                    assert!(ended.is_none(), "{mv} accepted after the end");
                    assert_eq!(report.outcome, g.outcome(), "report of {mv}");
                }
                Err(XiangqiPlayError::GameOver { outcome }) => {
                    assert_eq!(ended.map(|e| e.0), Some(outcome), "{mv}: game over?");
                    assert_eq!(g.ply_count(), plies, "a refused move was recorded");
                }
                Err(XiangqiPlayError::Forbidden { .. }) => {
                    assert_eq!(config.violation_mode, ViolationMode::Forbid, "{mv}");
                    assert!(!g.legal_moves().contains(&mv), "{mv} offered, then refused");
                    assert_eq!(g.ply_count(), plies, "a refused move was recorded");
                    // The walk goes on without the record.
                    game = None;
                }
                Err(XiangqiPlayError::Illegal { .. }) => {
                    panic!("the record refuses legal {mv} in {}", pos.fen());
                }
            }
        }
        pos.play_unchecked(mv);
    }
});
