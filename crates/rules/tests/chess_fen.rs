//! FEN parsing, validation and writing.

mod common;

use std::path::PathBuf;

use chessplayx_rules::{
    Color,
    chess::{
        Atomic, AtomicChess, CastlingSide, Chess, FenError, FenField, Horde, HordeChess,
        ParseFenError, Position, PositionError, Rules, Setup, Square, Standard,
    },
};

/// The perft suites kept beside the tests.
fn perft_dir() -> PathBuf {
    common::data_dir().join("perft")
}

fn suite_fens(name: &str) -> Vec<String> {
    let path = perft_dir().join(format!("{name}.public.epd"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| l.split(';').next().unwrap_or_default().trim().to_owned())
        .collect()
}

fn round_trip<R: Rules>(name: &str) {
    let fens = suite_fens(name);
    assert!(fens.len() >= 20);
    for fen in fens {
        let pos = Position::<R>::from_fen(&fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
        // pyffish writes every suite FEN back unchanged, and so must we.
        assert_eq!(pos.fen(), fen);
        assert_eq!(Setup::from_fen(&fen).unwrap().fen(), fen);
        assert_eq!(Position::<R>::from_fen(&pos.fen()).unwrap(), pos);
    }
}

#[test]
fn suite_fens_round_trip() {
    round_trip::<Standard>("chess");
    round_trip::<Horde>("horde");
    round_trip::<Atomic>("atomic");
}

#[test]
fn start_positions_match_variant_fens() {
    use chessplayx_rules::Variant;
    assert_eq!(Chess::start().fen(), Variant::Chess.start_fen());
    assert_eq!(HordeChess::start().fen(), Variant::Horde.start_fen());
    assert_eq!(AtomicChess::start().fen(), Variant::Atomic.start_fen());
    assert_eq!(
        HordeChess::from_fen(Variant::Horde.start_fen()).unwrap(),
        HordeChess::start()
    );
}

const EMPTY_BOARD: &str = "8/8/8/8/8/8/8/8";

fn parse_err(fen: &str) -> ParseFenError {
    Setup::from_fen(fen).expect_err(fen)
}

/// A table of cases, one per error variant (over 100 lines for that).
#[test]
fn every_parse_error_is_reachable() {
    assert_eq!(parse_err(""), ParseFenError::Empty);
    assert_eq!(parse_err("   "), ParseFenError::Empty);
    assert_eq!(
        parse_err(EMPTY_BOARD),
        ParseFenError::MissingField {
            field: FenField::Turn
        }
    );
    assert_eq!(
        parse_err(&format!("{EMPTY_BOARD} w")),
        ParseFenError::MissingField {
            field: FenField::Castling
        }
    );
    assert_eq!(
        parse_err(&format!("{EMPTY_BOARD} w -")),
        ParseFenError::MissingField {
            field: FenField::EnPassant
        }
    );
    assert_eq!(
        parse_err(&format!("{EMPTY_BOARD} w - - 0 1 x")),
        ParseFenError::TooManyFields { extra: "x".into() }
    );
    assert_eq!(
        parse_err("8/8/8 w - - 0 1"),
        ParseFenError::WrongRankCount { found: 3 }
    );
    assert_eq!(
        parse_err("8/8/8/8/8/8/8/8/8 w - - 0 1"),
        ParseFenError::WrongRankCount { found: 9 }
    );
    assert_eq!(
        parse_err("7/8/8/8/8/8/8/8 w - - 0 1"),
        ParseFenError::WrongRankLength {
            rank: 8,
            squares: 7
        }
    );
    assert_eq!(
        parse_err("8/8/8/8/8/8/8/ppppppppp w - - 0 1"),
        ParseFenError::WrongRankLength {
            rank: 1,
            squares: 9
        }
    );
    assert_eq!(
        parse_err("8/8/8/8/44p/8/8/8 w - - 0 1"),
        ParseFenError::WrongRankLength {
            rank: 4,
            squares: 9
        }
    );
    assert_eq!(
        parse_err("8/8/8/8/8/8/8/ w - - 0 1"),
        ParseFenError::WrongRankLength {
            rank: 1,
            squares: 0
        }
    );
    assert_eq!(
        parse_err("8/8/x7/8/8/8/8/8 w - - 0 1"),
        ParseFenError::UnknownPiece {
            rank: 6,
            found: 'x'
        }
    );
    assert_eq!(
        parse_err("8/8/8/8/8/8/8/07 w - - 0 1"),
        ParseFenError::UnknownPiece {
            rank: 1,
            found: '0'
        }
    );
    assert_eq!(
        parse_err(&format!("{EMPTY_BOARD} W - - 0 1")),
        ParseFenError::InvalidTurn { found: "W".into() }
    );
    for castling in ["KX", "kK", "KK", "Kk-"] {
        assert_eq!(
            parse_err(&format!("{EMPTY_BOARD} w {castling} - 0 1")),
            ParseFenError::InvalidCastling {
                found: castling.into()
            }
        );
    }
    for ep in ["e4", "e9", "i3", "e", "e33"] {
        assert_eq!(
            parse_err(&format!("{EMPTY_BOARD} w - {ep} 0 1")),
            ParseFenError::InvalidEnPassant { found: ep.into() }
        );
    }
    for half in ["-1", "+1", "x", "99999999999"] {
        assert_eq!(
            parse_err(&format!("{EMPTY_BOARD} w - - {half} 1")),
            ParseFenError::InvalidHalfmoveClock { found: half.into() }
        );
    }
    for full in ["0", "-3", "1.5"] {
        assert_eq!(
            parse_err(&format!("{EMPTY_BOARD} w - - 0 {full}")),
            ParseFenError::InvalidFullmoveNumber { found: full.into() }
        );
    }
}

#[test]
fn counters_may_be_omitted() {
    let pos = Chess::from_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -").unwrap();
    assert_eq!(pos, Chess::start());
    let pos = Chess::from_fen("4k3/8/8/8/8/8/8/4K3 b - - 17 42").unwrap();
    assert_eq!(
        (pos.halfmoves(), pos.fullmoves(), pos.turn()),
        (17, 42, Color::Black)
    );
}

fn position_err<R: Rules>(fen: &str) -> PositionError {
    match Position::<R>::from_fen(fen) {
        Err(FenError::Position(e)) => e,
        other => panic!("{fen}: expected a position error, got {other:?}"),
    }
}

/// A table of cases, one per error variant (over 100 lines for that).
#[test]
fn every_position_error_is_reachable() {
    use PositionError::*;
    assert_eq!(
        position_err::<Standard>("8/8/8/8/8/8/8/4K3 w - - 0 1"),
        MissingKing {
            color: Color::Black
        }
    );
    assert_eq!(
        position_err::<Standard>("4k3/8/8/8/8/8/8/8 b - - 0 1"),
        MissingKing {
            color: Color::White
        }
    );
    assert_eq!(
        position_err::<Standard>("4k3/8/8/8/8/8/8/K3K3 w - - 0 1"),
        TooManyKings {
            color: Color::White
        }
    );
    // Horde: White has no king, Black must have one.
    assert_eq!(
        position_err::<Horde>("4k3/8/8/8/8/8/8/4K3 w - - 0 1"),
        TooManyKings {
            color: Color::White
        }
    );
    assert_eq!(
        position_err::<Horde>("8/8/8/8/8/8/8/4P3 w - - 0 1"),
        MissingKing {
            color: Color::Black
        }
    );
    // Atomic: the side to move may have lost its king, the other may not.
    assert!(AtomicChess::from_fen("8/8/8/8/8/8/8/4K3 b - - 0 1").is_ok());
    assert_eq!(
        position_err::<Atomic>("8/8/8/8/8/8/8/4K3 w - - 0 1"),
        MissingKing {
            color: Color::Black
        }
    );
    assert_eq!(
        position_err::<Standard>("4k3/8/8/8/8/8/8/P3K3 w - - 0 1"),
        PawnOnBackRank {
            color: Color::White,
            square: Square::A1
        }
    );
    assert_eq!(
        position_err::<Standard>("3pk3/8/8/8/8/8/8/4K3 w - - 0 1"),
        PawnOnBackRank {
            color: Color::Black,
            square: Square::D8
        }
    );
    assert!(HordeChess::from_fen("4k3/8/8/8/8/8/8/P7 w - - 0 1").is_ok());
    assert_eq!(
        position_err::<Horde>("P3k3/8/8/8/8/8/8/8 w - - 0 1"),
        PawnOnBackRank {
            color: Color::White,
            square: Square::A8
        }
    );
    assert_eq!(
        position_err::<Horde>("4k3/8/8/8/8/8/8/P6p w - - 0 1"),
        PawnOnBackRank {
            color: Color::Black,
            square: Square::H1
        }
    );
    // No pawn in front of the square, or the pawn's origin occupied.
    assert_eq!(
        position_err::<Standard>("4k3/8/8/8/8/8/8/4K3 w - e6 0 1"),
        InvalidEnPassant { square: Square::E6 }
    );
    assert_eq!(
        position_err::<Standard>("4k3/4p3/8/4p3/8/8/8/4K3 w - e6 0 1"),
        InvalidEnPassant { square: Square::E6 }
    );
    assert_eq!(
        position_err::<Standard>("4k3/8/8/8/4P3/8/8/4K3 w - e3 0 1"),
        InvalidEnPassant { square: Square::E3 }
    );
    assert_eq!(
        position_err::<Standard>("4k3/8/8/8/8/8/8/4K3 w K - 0 1"),
        InvalidCastlingRights {
            color: Color::White,
            side: CastlingSide::KingSide
        }
    );
    assert_eq!(
        position_err::<Standard>("1r2k3/8/8/8/8/8/8/4K3 w q - 0 1"),
        InvalidCastlingRights {
            color: Color::Black,
            side: CastlingSide::QueenSide
        }
    );
    assert!(Chess::from_fen("r3k3/8/8/8/8/8/8/4K3 w q - 0 1").is_ok());
    assert_eq!(
        position_err::<Horde>("r3k3/8/8/8/8/8/8/R3P3 b Qq - 0 1"),
        InvalidCastlingRights {
            color: Color::White,
            side: CastlingSide::QueenSide
        }
    );
    assert_eq!(
        position_err::<Standard>("4k3/8/8/8/8/8/8/4K2r b - - 0 1"),
        OppositeCheck {
            color: Color::White
        }
    );
    assert_eq!(
        position_err::<Horde>("4k3/3P4/8/8/8/8/8/8 w - - 0 1"),
        OppositeCheck {
            color: Color::Black
        }
    );
    // Touching kings: check in chess, never in Atomic.
    assert_eq!(
        position_err::<Standard>("8/8/8/3kK3/8/8/8/8 w - - 0 1"),
        OppositeCheck {
            color: Color::Black
        }
    );
    assert!(AtomicChess::from_fen("8/8/8/3kK3/8/8/8/R6r w - - 0 1").is_ok());
    assert_eq!(
        position_err::<Atomic>("4k3/8/8/8/8/8/8/4K2r b - - 0 1"),
        OppositeCheck {
            color: Color::White
        }
    );
}

#[test]
fn en_passant_square_follows_fairy_stockfish() {
    // Written only when a pawn of the side to move attacks it.
    let mut pos = Chess::start();
    pos.play_uci("e2e4").unwrap();
    assert_eq!(pos.ep_square(), None);
    assert!(pos.fen().contains(" b KQkq - "));
    for m in ["a7a6", "e4e5", "d7d5"] {
        pos.play_uci(m).unwrap();
    }
    assert_eq!(
        pos.fen(),
        "rnbqkbnr/1pp1pppp/p7/3pP3/8/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 3"
    );
    // Even when the capture would be illegal (the pawn is pinned).
    let mut pos = Chess::from_fen("7k/2p5/8/KP5r/8/8/8/8 b - - 0 1").unwrap();
    pos.play_uci("c7c5").unwrap();
    assert_eq!(pos.fen(), "7k/8/8/KPp4r/8/8/8/8 w - c6 0 2");
    assert!(pos.legal_moves().iter().all(|m| !m.is_en_passant()));
    // A FEN's square that no pawn attacks is dropped.
    let pos = Chess::from_fen("4k3/8/8/8/4P3/8/8/4K3 b - e3 0 1").unwrap();
    assert_eq!(pos.fen(), "4k3/8/8/8/4P3/8/8/4K3 b - - 0 1");
    // Horde: no en passant after a double step from rank 1.
    let mut pos = HordeChess::from_fen("4k3/8/8/8/8/1p6/8/P7 w - - 0 1").unwrap();
    pos.play_uci("a1a3").unwrap();
    assert_eq!(pos.ep_square(), None);
    let mut pos = HordeChess::from_fen("4k3/8/8/8/1p6/8/P7/8 w - - 0 1").unwrap();
    pos.play_uci("a2a4").unwrap();
    assert_eq!(pos.ep_square(), Some(Square::A3));
}

struct XorShift(u64);
impl XorShift {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
}

/// Mutated FENs must give a value or an error, never a panic; the
/// positions that pass validation must be usable.
#[test]
fn mutated_fens_never_panic() {
    let mut seeds: Vec<String> = ["chess", "horde", "atomic"]
        .iter()
        .flat_map(|v| suite_fens(v))
        .collect();
    seeds.push(String::new());
    let alphabet: &[u8] = b"pnbrqkPNBRQK12345678/ -wbKQkqe36a0x9~\xc3\xa9\x00";
    let mut rng = XorShift(0x1234_5678_9abc_def1);
    let mut accepted = 0;
    for round in 0..40_000 {
        let mut bytes = seeds[round % seeds.len()].clone().into_bytes();
        for _ in 0..=(rng.next() % 4) {
            let pos = if bytes.is_empty() {
                0
            } else {
                (rng.next() % bytes.len() as u64) as usize
            };
            let byte = if rng.next().is_multiple_of(4) {
                rng.next() as u8
            } else {
                alphabet[(rng.next() % alphabet.len() as u64) as usize]
            };
            let other = if bytes.is_empty() {
                0
            } else {
                (rng.next() % bytes.len() as u64) as usize
            };
            match rng.next() % 5 {
                // Swapping two characters keeps many FENs well formed but
                // moves pieces to odd places.
                3 | 4 if !bytes.is_empty() => bytes.swap(pos, other),
                0 if !bytes.is_empty() => bytes[pos] = byte,
                1 if !bytes.is_empty() => {
                    bytes.remove(pos);
                }
                _ => bytes.insert(pos, byte),
            }
        }
        let text = String::from_utf8_lossy(&bytes);
        let _ = Setup::from_fen(&text);
        accepted += usable::<Standard>(&text) + usable::<Horde>(&text) + usable::<Atomic>(&text);
    }
    eprintln!("{accepted} mutated FENs were legal");
    assert!(accepted > 1000, "only {accepted} mutated FENs were legal");
}

fn usable<R: Rules>(text: &str) -> usize {
    let Ok(pos) = Position::<R>::from_fen(text) else {
        return 0;
    };
    let moves = pos.legal_moves();
    assert_eq!(pos.count_legal_moves(), moves.len() as u64);
    let _ = pos.outcome();
    for m in moves.into_iter().take(8) {
        let next = pos.played(m);
        assert_eq!(next.zobrist(), next.compute_key());
        let _ = next.legal_moves();
    }
    assert_eq!(
        Position::<R>::from_fen(&pos.fen()).as_ref(),
        Ok(&pos),
        "{text}"
    );
    1
}
