//! SAN of the 8×8 games: every legal move of many positions survives
//! SAN out and back, and our SAN equals python-chess's for a fixture of
//! positions (tests/data/gen_san_fixture.py wrote it).

use std::collections::HashSet;

use chessplayx_rules::chess::{
    Atomic, Chess, Horde, Move, ParseSanError, Position, Rules, San, SanError, SanPlus, Standard,
    Suffix,
};

const FIXTURE: &str = include_str!("data/san_python_chess.txt");

/// A small seeded generator (splitmix64) so playouts are the same on
/// every run.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// Checks SAN out and back for every legal move of `pos`; returns how
/// many moves it checked.
fn round_trip_all<R: Rules>(pos: &Position<R>) -> usize {
    let moves = pos.legal_moves();
    let mut seen = HashSet::new();
    for &mv in &moves {
        let text = pos.san(mv);
        assert!(seen.insert(text.clone()), "{text} twice in {pos:?}");
        let plus: SanPlus = text
            .parse()
            .unwrap_or_else(|e| panic!("{text} in {pos:?}: {e}"));
        assert_eq!(plus.to_string(), text);
        assert_eq!(
            plus.san.to_move(pos),
            Ok(mv),
            "{text} in {pos:?} does not name {mv}"
        );
        assert_eq!(plus, SanPlus::from_move(pos, mv));
        // The sign says what the position after the move is.
        let after = pos.played(mv);
        let won = after.outcome().and_then(|o| o.winner) == Some(pos.turn());
        match plus.suffix {
            Some(Suffix::Mate) => assert!(won, "{text} in {pos:?}"),
            Some(Suffix::Check) => assert!(!won && after.is_check(), "{text} in {pos:?}"),
            None => assert!(!won && !after.is_check(), "{text} in {pos:?}"),
        }
        assert_eq!(plus.san.is_capture(), pos.is_capture(mv), "{text}");
    }
    moves.len()
}

/// Random games from `start`; SAN round trip at every position.
fn playouts<R: Rules>(start: Position<R>, games: usize, rng: &mut Rng) -> usize {
    let mut checked = 0;
    for _ in 0..games {
        let mut pos = start;
        for _ in 0..300 {
            checked += round_trip_all(&pos);
            if pos.outcome().is_some() {
                break;
            }
            let moves = pos.legal_moves();
            pos.play(moves[rng.below(moves.len())]);
        }
    }
    checked
}

#[test]
fn san_round_trip_in_random_games() {
    let mut rng = Rng(0x5a4e_2024);
    let chess = playouts(Position::<Standard>::start(), 12, &mut rng)
        + playouts(
            Position::<Standard>::from_fen(
                "r3k2r/pppq1ppp/2n5/8/8/2N5/PPPQ1PPP/R3K2R w KQkq - 0 1",
            )
            .unwrap(),
            6,
            &mut rng,
        );
    let horde = playouts(Position::<Horde>::start(), 8, &mut rng);
    let atomic = playouts(Position::<Atomic>::start(), 30, &mut rng);
    // Enough moves that rare cases (promotions, ambiguities) come up.
    assert!(chess > 50_000, "{chess}");
    assert!(horde > 20_000, "{horde}");
    assert!(atomic > 20_000, "{atomic}");
}

fn check_fixture_line<R: Rules>(fen: &str, pairs: &str) -> usize {
    let pos = Position::<R>::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
    let mut expected: Vec<(&str, &str)> = pairs
        .split(',')
        .map(|p| {
            p.split_once(' ')
                .unwrap_or_else(|| panic!("bad pair {p:?}"))
        })
        .collect();
    expected.sort_unstable();
    let mut ours: Vec<(String, String)> = pos
        .legal_moves()
        .into_iter()
        .map(|m| (m.to_string(), pos.san(m)))
        .collect();
    ours.sort();
    let ours_ucis: Vec<&str> = ours.iter().map(|(u, _)| u.as_str()).collect();
    let expected_ucis: Vec<&str> = expected.iter().map(|(u, _)| *u).collect();
    assert_eq!(ours_ucis, expected_ucis, "legal moves differ in {fen}");
    for ((uci, san), (_, want)) in ours.iter().zip(&expected) {
        assert_eq!(san, want, "{uci} in {fen}");
        let mv = want
            .parse::<San>()
            .unwrap_or_else(|e| panic!("{want}: {e}"))
            .to_move(&pos)
            .unwrap_or_else(|e| panic!("{want} in {fen}: {e}"));
        assert_eq!(&mv.to_string(), uci, "{want} in {fen}");
    }
    ours.len()
}

#[test]
fn san_matches_python_chess() {
    let mut moves = 0;
    let mut per_variant = [0usize; 3];
    for line in FIXTURE.lines().filter(|l| !l.is_empty()) {
        let mut fields = line.split(';');
        let (Some(variant), Some(fen), Some(pairs)) = (fields.next(), fields.next(), fields.next())
        else {
            panic!("bad fixture line {line:?}");
        };
        let (n, slot) = match variant {
            "chess" => (check_fixture_line::<Standard>(fen, pairs), 0),
            "horde" => (check_fixture_line::<Horde>(fen, pairs), 1),
            "atomic" => (check_fixture_line::<Atomic>(fen, pairs), 2),
            other => panic!("unknown variant {other}"),
        };
        moves += n;
        per_variant[slot] += 1;
    }
    assert!(per_variant.iter().all(|&n| n >= 50), "{per_variant:?}");
    assert!(moves > 10_000, "{moves}");
    // The fixture has the cases that matter.
    for needle in ["#", "=Q", "=N", "O-O-O", "Qe4d3", "R7a5", "Nf5d4"] {
        assert!(FIXTURE.contains(needle), "fixture lacks {needle}");
    }
}

fn chess(fen: &str) -> Chess {
    Chess::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

fn san_to_move(pos: &Chess, text: &str) -> Result<Move, SanError> {
    text.parse::<San>()
        .unwrap_or_else(|e| panic!("{text}: {e}"))
        .to_move(pos)
}

#[test]
fn ambiguous_and_illegal_moves_are_errors() {
    // Knights on b3 and f3 both reach d4; the f5 knight reaches d4 too.
    let pos = chess("k7/8/8/5N2/8/1N3N2/8/K7 w - - 0 1");
    match san_to_move(&pos, "Nd4") {
        Err(SanError::Ambiguous { candidates, .. }) => {
            let mut c: Vec<String> = candidates.iter().map(ToString::to_string).collect();
            c.sort();
            assert_eq!(c, ["b3d4", "f3d4", "f5d4"]);
        }
        other => panic!("{other:?}"),
    }
    // A file is not enough for the two f knights, a rank is not enough
    // for the two on the third rank.
    assert!(matches!(
        san_to_move(&pos, "Nfd4"),
        Err(SanError::Ambiguous { .. })
    ));
    assert!(matches!(
        san_to_move(&pos, "N3d4"),
        Err(SanError::Ambiguous { .. })
    ));
    assert_eq!(
        san_to_move(&pos, "Nbd4").map(|m| m.to_string()),
        Ok("b3d4".into())
    );
    assert_eq!(
        san_to_move(&pos, "N5d4").map(|m| m.to_string()),
        Ok("f5d4".into())
    );
    assert_eq!(
        san_to_move(&pos, "Nf3d4").map(|m| m.to_string()),
        Ok("f3d4".into())
    );
    assert!(matches!(
        san_to_move(&pos, "Nd5"),
        Err(SanError::Illegal { .. })
    ));
    assert!(matches!(
        san_to_move(&pos, "O-O"),
        Err(SanError::Illegal { .. })
    ));

    // A pinned knight takes no part in disambiguation.
    let pos = chess("4k3/8/8/8/4r3/8/2N1N3/4K3 w - - 0 1");
    let mv = san_to_move(&pos, "Nd4").unwrap();
    assert_eq!(pos.san(mv), "Nd4");

    // Promotion must be named; a pawn without a file only pushes.
    let pos = chess("1r2k3/P7/8/8/8/8/8/4K3 w - - 0 1");
    assert!(matches!(
        san_to_move(&pos, "a8"),
        Err(SanError::Illegal { .. })
    ));
    assert!(matches!(
        san_to_move(&pos, "b8=Q"),
        Err(SanError::Illegal { .. })
    ));
    assert_eq!(
        san_to_move(&pos, "axb8=N").map(|m| m.to_string()),
        Ok("a7b8n".into())
    );

    // The king's two-square move is written and read only as castling.
    let pos = chess("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    assert!(matches!(
        san_to_move(&pos, "Kg1"),
        Err(SanError::Illegal { .. })
    ));
    let castle = san_to_move(&pos, "0-0-0").unwrap();
    assert_eq!(castle.to_string(), "e1c1");
    assert_eq!(pos.san(castle), "O-O-O");
}

#[test]
fn signs_and_annotations_are_tolerated_on_input() {
    let pos = Chess::start();
    for text in [
        "Nf3", "Nf3+", "Nf3#", "Nf3!", "Nf3?!", "Nf3+!?", "Ng1f3", "Ng1-f3",
    ] {
        assert_eq!(
            san_to_move(&pos, text).map(|m| m.to_string()),
            Ok("g1f3".into()),
            "{text}"
        );
    }
    // Surrounding whitespace is the caller's business.
    assert!(matches!(
        "Nf3 ".parse::<San>(),
        Err(ParseSanError::InvalidDestination { .. })
    ));
    assert!(matches!(
        " Nf3".parse::<San>(),
        Err(ParseSanError::UnexpectedCharacter { .. })
    ));
}

/// The server names every legal move through `AnyGame::legal_moves`,
/// which generates the moves once for the whole list: its SAN must be
/// the position's own SAN of each move, in random games of the three
/// 8×8 games.
#[test]
fn the_move_list_names_moves_as_the_position_does() {
    use chessplayx_rules::{AnyGame, Variant};
    fn check<R: Rules>(variant: Variant, rng: &mut Rng) -> usize {
        let mut named = 0;
        for _ in 0..6 {
            let mut game = AnyGame::replay(variant, None, &[] as &[String]).unwrap();
            for _ in 0..200 {
                let infos = game.legal_moves();
                if infos.is_empty() {
                    break;
                }
                let pos = Position::<R>::from_fen(&game.status().fen).unwrap();
                for info in &infos {
                    let mv = pos
                        .legal_moves()
                        .into_iter()
                        .find(|m| m.to_uci().to_string() == info.uci)
                        .unwrap_or_else(|| panic!("{} not legal", info.uci));
                    assert_eq!(
                        info.san,
                        pos.san(mv),
                        "{} in {}",
                        info.uci,
                        game.status().fen
                    );
                    assert_eq!(info.from, mv.from().to_string());
                    assert_eq!(info.to, info.uci[2..4]);
                }
                named += infos.len();
                let pick = infos[rng.below(infos.len())].uci;
                game.play_uci(&pick).unwrap();
            }
        }
        named
    }
    let mut rng = Rng(0xa11_5a4);
    assert!(check::<Standard>(Variant::Chess, &mut rng) > 10_000);
    assert!(check::<Horde>(Variant::Horde, &mut rng) > 10_000);
    assert!(check::<Atomic>(Variant::Atomic, &mut rng) > 5_000);
}
