//! FEN: every parse and validation error is reachable, output matches
//! Fairy-Stockfish, and no input makes the parser panic.

mod common;

use chessplayx_rules::{
    Color,
    xiangqi::{FenError, ParseFenError, PositionError, Role, Setup, Square, Xiangqi},
};

fn parse_err(fen: &str) -> ParseFenError {
    match Setup::from_fen(fen) {
        Err(e) => e,
        Ok(s) => panic!("{fen} parsed as {s}"),
    }
}

fn pos_err(fen: &str) -> PositionError {
    match Xiangqi::from_fen(fen) {
        Err(FenError::Position(e)) => e,
        other => panic!("{fen}: expected a position error, got {other:?}"),
    }
}

fn sq(s: &str) -> Square {
    s.parse().unwrap_or_else(|e| panic!("{e}"))
}

const START: &str = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";

#[test]
fn every_parse_error_is_reachable() {
    assert_eq!(parse_err("   "), ParseFenError::Empty);
    assert_eq!(
        parse_err("9/9/9 w"),
        ParseFenError::WrongRankCount { found: 3 }
    );
    assert_eq!(
        parse_err("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR/9 w"),
        ParseFenError::WrongRankCount { found: 11 }
    );
    assert_eq!(
        parse_err("rnbakabnrr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w"),
        ParseFenError::RankTooLong { rank: 10 }
    );
    assert_eq!(
        parse_err("rnbakabnr/9/1c5c1/p1p1p1p1p/9/55/P1P1P1P1P/1C5C1/9/RNBAKABNR w"),
        ParseFenError::RankTooLong { rank: 5 }
    );
    assert_eq!(
        parse_err("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABN w"),
        ParseFenError::RankTooShort { rank: 1, files: 8 }
    );
    assert_eq!(
        parse_err("rnbqkabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w"),
        ParseFenError::InvalidPiece { found: 'q' }
    );
    assert_eq!(
        parse_err("rnbakabnr/9/1c5c1/p1p1p1p1p/9/0/P1P1P1P1P/1C5C1/9/RNBAKABNR w"),
        ParseFenError::InvalidPiece { found: '0' }
    );
    assert_eq!(
        parse_err("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR[P] w"),
        ParseFenError::InvalidHoldings {
            found: "[P]".into()
        }
    );
    assert_eq!(
        parse_err("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR"),
        ParseFenError::MissingTurn
    );
    assert_eq!(
        parse_err("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR x"),
        ParseFenError::InvalidTurn { found: "x".into() }
    );
    assert_eq!(
        parse_err("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - -1 1"),
        ParseFenError::InvalidHalfmoves { found: "-1".into() }
    );
    assert_eq!(
        parse_err("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 0"),
        ParseFenError::InvalidFullmoves { found: "0".into() }
    );
    assert_eq!(
        parse_err("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 x"),
        ParseFenError::InvalidFullmoves { found: "x".into() }
    );
    assert_eq!(
        parse_err("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1 7"),
        ParseFenError::TrailingFields { found: "7".into() }
    );
}

/// A table of cases, one per error variant (over 100 lines for that).
#[test]
fn every_position_error_is_reachable() {
    assert_eq!(
        pos_err("9/9/9/9/9/9/9/9/9/4K4 w - - 0 1"),
        PositionError::MissingGeneral {
            color: Color::Black
        }
    );
    assert_eq!(
        pos_err("3k5/9/9/9/9/9/9/9/9/9 w - - 0 1"),
        PositionError::MissingGeneral {
            color: Color::White
        }
    );
    assert_eq!(
        pos_err("3k5/9/9/9/9/9/9/9/9/4KK3 w - - 0 1"),
        PositionError::TooManyPieces {
            color: Color::White,
            role: Role::General,
            count: 2,
            max: 1
        }
    );
    assert_eq!(
        pos_err("3k5/9/9/9/9/9/9/9/9/rrr1K4 w - - 0 1"),
        PositionError::TooManyPieces {
            color: Color::Black,
            role: Role::Chariot,
            count: 3,
            max: 2
        }
    );
    assert_eq!(
        pos_err("3k5/9/9/9/P1P1P1P1P/P8/9/9/9/4K4 w - - 0 1"),
        PositionError::TooManyPieces {
            color: Color::White,
            role: Role::Soldier,
            count: 6,
            max: 5
        }
    );
    assert_eq!(
        pos_err("4K4/9/9/9/9/9/9/9/9/4k4 w - - 0 1"),
        PositionError::GeneralOutsidePalace { square: sq("e1") }
    );
    assert_eq!(
        pos_err("3k5/9/9/9/9/9/9/9/9/K8 w - - 0 1"),
        PositionError::GeneralOutsidePalace { square: sq("a1") }
    );
    assert_eq!(
        pos_err("3k5/9/9/9/9/9/9/9/A8/4K4 w - - 0 1"),
        PositionError::AdvisorOffPoint { square: sq("a2") }
    );
    assert_eq!(
        pos_err("3k5/3a5/9/9/9/9/9/9/9/4K4 w - - 0 1"),
        PositionError::AdvisorOffPoint { square: sq("d9") }
    );
    assert_eq!(
        pos_err("3k5/9/9/9/9/9/9/9/4B4/4K4 w - - 0 1"),
        PositionError::ElephantOffPoint { square: sq("e2") }
    );
    assert_eq!(
        pos_err("3k5/9/9/9/4b4/9/9/9/9/4K4 w - - 0 1"),
        PositionError::ElephantOffPoint { square: sq("e6") }
    );
    assert_eq!(
        pos_err("3k5/9/9/9/9/9/2b6/9/9/4K4 w - - 0 1"),
        PositionError::ElephantOffPoint { square: sq("c4") }
    );
    assert_eq!(
        pos_err("3k5/9/9/9/9/9/9/4P4/9/4K4 w - - 0 1"),
        PositionError::SoldierBehindStart { square: sq("e3") }
    );
    assert_eq!(
        pos_err("3k5/9/4p4/9/9/9/9/9/9/4K4 w - - 0 1"),
        PositionError::SoldierBehindStart { square: sq("e8") }
    );
    assert_eq!(
        pos_err("4k4/9/9/9/9/9/9/9/9/4K4 w - - 0 1"),
        PositionError::GeneralsFacing
    );
    assert_eq!(
        pos_err("4k4/9/9/9/9/9/9/9/9/4K4 b - - 0 1"),
        PositionError::GeneralsFacing
    );
    assert_eq!(
        pos_err("4k4/4R4/9/9/9/9/9/9/9/3K5 w - - 0 1"),
        PositionError::OppositeCheck {
            color: Color::Black
        }
    );
    // The same position with Black to move is legal: Black is in check.
    let pos =
        Xiangqi::from_fen("4k4/4R4/9/9/9/9/9/9/9/3K5 b - - 0 1").unwrap_or_else(|e| panic!("{e}"));
    assert!(pos.is_check());
    // Cannon check through one screen of the side not to move.
    assert_eq!(
        pos_err("3k5/9/9/9/9/4c4/9/4B4/9/4K4 b - - 0 1"),
        PositionError::OppositeCheck {
            color: Color::White
        }
    );
}

#[test]
fn rules_page_invalid_fens_are_rejected() {
    let path = common::data_dir().join("rules/xiangqi-cases.json");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut n = 0;
    for chunk in text.split("\"name\":").skip(1) {
        if !chunk.contains("\"fen_valid\": false") {
            continue;
        }
        let key = "\"fen\": \"";
        let start = chunk.find(key).unwrap_or_else(|| panic!("no fen")) + key.len();
        let fen = &chunk[start..start + chunk[start..].find('"').unwrap_or(0)];
        assert!(Xiangqi::from_fen(fen).is_err(), "{fen} accepted");
        n += 1;
    }
    assert_eq!(n, 6);
}

#[test]
fn output_matches_fairy_stockfish() {
    // Aliases, holdings and odd castling/ep fields are normalised away
    // (pyffish.get_fen gives exactly these strings).
    let cases = [
        (START, START),
        (
            "rheakaehr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RHEAKAEHR[] w KQ e3 7 12",
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 7 12",
        ),
        (
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w",
            START,
        ),
    ];
    for (input, output) in cases {
        let pos = Xiangqi::from_fen(input).unwrap_or_else(|e| panic!("{input}: {e}"));
        assert_eq!(pos.fen(), output);
        assert_eq!(
            Setup::from_fen(input).map(|s| s.to_fen()),
            Ok(output.to_owned())
        );
    }
    // Counters after moves, as pyffish.get_fen reports them: the halfmove
    // field counts plies since a capture, fullmove grows after Black.
    let mut pos = Xiangqi::start();
    for (uci, fen) in [
        (
            "h3e3",
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 1 1",
        ),
        (
            "h10g8",
            "rnbakab1r/9/1c4nc1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR w - - 2 2",
        ),
        (
            "e3e7",
            "rnbakab1r/9/1c4nc1/p1p1C1p1p/9/9/P1P1P1P1P/1C7/9/RNBAKABNR b - - 0 2",
        ),
    ] {
        let mv = chessplayx_rules::Game::parse_uci(&pos, uci).unwrap_or_else(|e| panic!("{e}"));
        pos.play_unchecked(mv);
        assert_eq!(pos.fen(), fen);
    }
}

/// xorshift64*.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

#[test]
fn mutated_and_random_strings_never_panic() {
    let alphabet: Vec<char> = "rnbakcpRNBAKCPehEH0123456789/ -wb[]x\u{e9}\u{4e2d}\t"
        .chars()
        .collect();
    let seeds = [
        START,
        "4kcP1N/8n/3rb4/9/9/9/9/3p1A3/4K4/5CB2 w - - 0 1",
        "1rbaka2R/5r3/6n2/2p1p1p2/4P1bP1/PpC3Bc1/1nPR2P2/2N2AN2/1c2K1p2/2BAC4 w - - 0 1",
    ];
    let mut rng = Rng(0x1234_5678_9ABC_DEF1);
    let mut accepted = 0;
    for i in 0..30_000 {
        let mut chars: Vec<char> = seeds[i % seeds.len()].chars().collect();
        for _ in 0..1 + rng.below(4) {
            let c = alphabet[rng.below(alphabet.len())];
            let at = rng.below(chars.len() + 1);
            match rng.below(3) {
                0 if at < chars.len() => chars[at] = c,
                1 if at < chars.len() => {
                    chars.remove(at);
                }
                _ => chars.insert(at, c),
            }
        }
        let text: String = chars.into_iter().collect();
        if let Ok(pos) = Xiangqi::from_fen(&text) {
            accepted += 1;
            // Whatever is accepted is a legal position that round-trips.
            let again = Xiangqi::from_fen(&pos.fen()).unwrap_or_else(|e| panic!("{text}: {e}"));
            assert_eq!(again, pos);
            assert!(!pos.board().is_in_check(!pos.turn()));
            let _ = pos.perft(2);
        }
    }
    assert!(accepted > 100, "mutations too destructive: {accepted}");
    for _ in 0..20_000 {
        let len = rng.below(100);
        let text: String = (0..len)
            .map(|_| alphabet[rng.below(alphabet.len())])
            .collect();
        let _ = Xiangqi::from_fen(&text);
        let bytes: Vec<u8> = (0..len).map(|_| rng.next() as u8).collect();
        let _ = Xiangqi::from_fen(&String::from_utf8_lossy(&bytes));
    }
}
