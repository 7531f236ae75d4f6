//! Behaviour of positions: outcomes, variant rules, UCI moves, the
//! `Game` trait and Zobrist keys.

use chessplayx_rules::{
    Color, EndReason, Game, MoveError, Outcome, Variant,
    chess::{
        AtomicChess, CastlingSide, Chess, HordeChess, IllegalUciMoveError, ParseUciMoveError,
        Position, Role, Rules, Square, UciMove,
    },
};

fn after<R: Rules>(fen: &str, moves: &[&str]) -> Position<R> {
    let mut pos = Position::<R>::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
    for m in moves {
        pos.play_uci(m)
            .unwrap_or_else(|e| panic!("{m} in {}: {e}", pos.fen()));
    }
    pos
}

fn ucis<R: Rules>(pos: &Position<R>) -> Vec<String> {
    let mut v: Vec<String> = pos.legal_moves().iter().map(ToString::to_string).collect();
    v.sort();
    v
}

const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

#[test]
fn checkmate_and_stalemate() {
    let pos: Chess = after(START, &["f2f3", "e7e5", "g2g4", "d8h4"]);
    assert!(pos.is_check());
    assert_eq!(
        pos.outcome(),
        Some(Outcome::win(Color::Black, EndReason::Checkmate))
    );
    let pos = Chess::from_fen("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1").unwrap();
    assert!(!pos.is_check());
    assert_eq!(pos.outcome(), Some(Outcome::draw(EndReason::Stalemate)));
    assert_eq!(Chess::start().outcome(), None);
}

#[test]
fn insufficient_material_in_chess() {
    let draw = Some(Outcome::draw(EndReason::InsufficientMaterial));
    for fen in [
        "4k3/8/8/8/8/8/8/4K3 w - - 0 1",
        "4k3/8/8/8/8/8/8/4KN2 w - - 0 1",
        "4kb2/8/8/8/8/8/8/4K3 w - - 0 1",
    ] {
        assert_eq!(Chess::from_fen(fen).unwrap().outcome(), draw, "{fen}");
    }
    // Bishops all on dark squares (c1, e3, b8... a1 is dark).
    assert_eq!(
        Chess::from_fen("1b2k3/8/8/8/8/4B3/8/2B1K3 w - - 0 1")
            .unwrap()
            .outcome(),
        draw
    );
    for fen in [
        "4k3/8/8/8/8/8/8/2B1KB2 w - - 0 1", // c1 dark, f1 light
        "4k3/8/8/8/8/8/8/3NKN2 w - - 0 1",
        "4kn2/8/8/8/8/8/8/4KN2 w - - 0 1",
        "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1",
        "4k3/8/8/8/8/8/8/4K2R w - - 0 1",
    ] {
        assert_eq!(Chess::from_fen(fen).unwrap().outcome(), None, "{fen}");
    }
    // Never in Horde.
    assert_eq!(
        HordeChess::from_fen("4k3/8/8/8/8/8/8/4N3 w - - 0 1")
            .unwrap()
            .outcome(),
        None
    );
}

#[test]
fn horde_rules() {
    let start = HordeChess::start();
    assert_eq!(start.variant(), Variant::Horde);
    assert_eq!(start.castling().fen(), "kq");
    // Rank-1 pawns may double-step; White is never in check.
    let pos = HordeChess::from_fen("4k3/8/8/8/8/8/8/P6r w - - 0 1").unwrap();
    assert!(!pos.is_check());
    assert_eq!(ucis(&pos), ["a1a2", "a1a3"]);
    // Black wins when White has nothing left.
    let pos: HordeChess = after("4k3/8/8/8/8/8/8/4r2P b - - 0 1", &["e1h1"]);
    assert_eq!(
        pos.outcome(),
        Some(Outcome::win(Color::Black, EndReason::HordeDestroyed))
    );
    // Not while a promoted piece is left.
    let pos: HordeChess = after("4k3/8/8/8/8/8/8/Q3r2P b - - 0 1", &["e1h1"]);
    assert_eq!(pos.outcome(), None);
    // White stalemated: blocked pawns only.
    let pos = HordeChess::from_fen("4k3/8/8/8/8/p7/P7/8 w - - 0 1").unwrap();
    assert_eq!(pos.outcome(), Some(Outcome::draw(EndReason::Stalemate)));
    // White mates the black king.
    let pos: HordeChess = after("k7/8/1PP5/8/8/8/8/7Q w - - 0 1", &["h1h8"]);
    assert_eq!(
        pos.outcome(),
        Some(Outcome::win(Color::White, EndReason::Checkmate))
    );
}

#[test]
fn atomic_rules() {
    // Explosions: capturer, captured and non-pawns around go; pawns stay.
    let pos: AtomicChess = after("4k3/8/3n4/3pb3/3P4/8/8/4K3 w - - 0 1", &["d4e5"]);
    assert_eq!(pos.fen(), "4k3/8/8/3p4/8/8/8/4K3 b - - 0 1");
    // Exploding the enemy king wins, even from check.
    let pos = AtomicChess::from_fen("3k4/3p4/8/4r3/8/8/8/3RK3 w - - 0 1").unwrap();
    assert!(pos.is_check());
    let boom = "d1d7".parse::<UciMove>().unwrap().to_move(&pos).unwrap();
    assert!(pos.is_capture(boom));
    let next = pos.played(boom);
    assert_eq!(next.board().king_of(Color::Black), None);
    assert_eq!(
        next.outcome(),
        Some(Outcome::win(Color::White, EndReason::KingExploded))
    );
    assert!(next.legal_moves().is_empty());
    // Kings never capture; touching kings are never in check.
    let pos = AtomicChess::from_fen("8/8/8/3kp3/4K3/8/8/8 w - - 0 1").unwrap();
    assert!(!pos.is_check());
    assert!(!ucis(&pos).contains(&"e4e5".to_owned()));
    // A capture that would explode one's own king is illegal.
    let pos = AtomicChess::from_fen("4k3/8/8/8/8/8/3p4/2B1K3 w - - 0 1").unwrap();
    assert!(!ucis(&pos).contains(&"c1d2".to_owned()));
    // Moving next to the enemy king answers a check.
    let pos = AtomicChess::from_fen("8/8/8/3k4/8/4K3/8/4r3 w - - 0 1").unwrap();
    assert!(pos.is_check());
    assert!(ucis(&pos).contains(&"e3e4".to_owned()));
    // Only the two kings left: draw.
    let pos = AtomicChess::from_fen("8/8/8/3k4/8/8/8/4K3 w - - 0 1").unwrap();
    assert_eq!(
        pos.outcome(),
        Some(Outcome::draw(EndReason::InsufficientMaterial))
    );
}

#[test]
fn en_passant_edge_cases() {
    // Horizontal pin: taking en passant would open the rank to the king.
    let pos = Chess::from_fen("8/8/8/K2pP2r/8/8/8/7k w - d6 0 1").unwrap();
    assert!(!ucis(&pos).contains(&"e5d6".to_owned()));
    // Without the rook it is legal, and it removes the d5 pawn.
    let pos = Chess::from_fen("8/8/8/K2pP3/8/8/8/7k w - d6 0 1").unwrap();
    let next = after::<chessplayx_rules::chess::Standard>(&pos.fen(), &["e5d6"]);
    assert_eq!(next.piece_at(Square::D5), None);
    assert_eq!(next.halfmoves(), 0);
    // En passant that answers a check by the double-stepped pawn.
    let pos = Chess::from_fen("8/8/8/2k5/3Pp3/8/8/4K3 b - d3 0 1").unwrap();
    assert!(pos.is_check());
    assert!(ucis(&pos).contains(&"e4d3".to_owned()));
}

#[test]
fn castling() {
    let pos = Chess::from_fen("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1").unwrap();
    let moves = ucis(&pos);
    assert!(moves.contains(&"e1g1".to_owned()) && moves.contains(&"e1c1".to_owned()));
    let m = "e1c1".parse::<UciMove>().unwrap().to_move(&pos).unwrap();
    assert_eq!(m.castling_side(), Some(CastlingSide::QueenSide));
    let next = pos.played(m);
    assert_eq!(next.fen(), "r3k2r/8/8/8/8/8/8/2KR3R b kq - 1 1");
    // Through an attacked square: no.
    let pos = Chess::from_fen("r3k2r/8/8/8/8/8/5r2/R3K2R w KQkq - 0 1").unwrap();
    assert!(!ucis(&pos).contains(&"e1g1".to_owned()));
    assert!(ucis(&pos).contains(&"e1c1".to_owned()));
    // Losing rights: rook captured on its corner.
    let pos: Chess = after("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", &["a1a8"]);
    assert_eq!(pos.castling().fen(), "Kk");
}

#[test]
fn uci_in_two_steps() {
    let pos = Chess::start();
    let uci: UciMove = "e2e4".parse().unwrap();
    let m = uci.to_move(&pos).unwrap();
    assert_eq!(
        (m.from(), m.to(), m.role()),
        (Square::E2, Square::E4, Role::Pawn)
    );
    assert!(m.is_double_push());
    assert_eq!(m.to_uci(), uci);
    assert_eq!(m.to_string(), "e2e4");
    let err = "e2e5"
        .parse::<UciMove>()
        .unwrap()
        .to_move(&pos)
        .unwrap_err();
    assert_eq!(
        err,
        IllegalUciMoveError {
            uci: "e2e5".parse().unwrap(),
            fen: pos.fen()
        }
    );
    assert!(matches!(
        "e2".parse::<UciMove>(),
        Err(ParseUciMoveError::WrongLength { .. })
    ));
    // Promotions need their letter.
    let pos = Chess::from_fen("7k/P7/8/8/8/8/8/K7 w - - 0 1").unwrap();
    assert!("a7a8".parse::<UciMove>().unwrap().to_move(&pos).is_err());
    let q = "a7a8q".parse::<UciMove>().unwrap().to_move(&pos).unwrap();
    assert_eq!(q.promotion(), Some(Role::Queen));
    assert_eq!(pos.legal_moves_from(Square::A7).len(), 4);
    assert!(pos.gives_check(q));
    assert!(!pos.gives_check("a7a8n".parse::<UciMove>().unwrap().to_move(&pos).unwrap()));
}

#[test]
fn game_trait() {
    fn generic<G: Game>(mut g: G, good: &str) -> G {
        assert!(matches!(g.parse_uci("zz"), Err(MoveError::Syntax { .. })));
        assert!(matches!(
            g.parse_uci("a1a1"),
            Err(MoveError::Illegal { .. })
        ));
        let m = g.parse_uci(good).unwrap();
        assert_eq!(g.move_to_uci(m), good);
        let mut buf = Vec::new();
        g.legal_moves_into(&mut buf);
        assert!(buf.contains(&m));
        assert_eq!(g.perft(1), buf.len() as u64);
        g.play(m);
        g
    }
    let g = generic(Chess::start(), "g1f3");
    assert_eq!(Game::variant(&g), Variant::Chess);
    assert_eq!(Game::turn(&g), Color::Black);
    let g = generic(HordeChess::start(), "a4a5");
    assert_eq!(Game::variant(&g), Variant::Horde);
    let g = generic(AtomicChess::start(), "e2e4");
    assert_eq!(Game::variant(&g), Variant::Atomic);
    assert_eq!(Game::perft(&AtomicChess::start(), 3), 8902);
}

#[test]
fn zobrist_keys() {
    let start = Chess::start();
    let back: Chess = after(START, &["g1f3", "g8f6", "f3g1", "f6g8"]);
    assert_eq!(back.zobrist(), start.zobrist());
    assert_ne!(back.fen(), start.fen()); // the counters differ, not the key
    let moved: Chess = after(START, &["g1f3"]);
    assert_ne!(moved.zobrist(), start.zobrist());
    // Castling rights and side to move are part of the key.
    let a = Chess::from_fen("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1").unwrap();
    let b = Chess::from_fen("r3k2r/8/8/8/8/8/8/R3K2R w Kkq - 0 1").unwrap();
    let c = Chess::from_fen("r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1").unwrap();
    assert_ne!(a.zobrist(), b.zobrist());
    assert_ne!(a.zobrist(), c.zobrist());
    // The same position in another game hashes alike; keys are per game.
    assert_eq!(AtomicChess::start().zobrist(), start.zobrist());
    assert_eq!(start.zobrist(), start.compute_key());
}
