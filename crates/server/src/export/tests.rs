//! The export format: tags, move numbers, endings, and a round trip of
//! random games of the four variants through a reader that replays the
//! moves by their notation with the rules crate.

use chessplayx_rules::{AnyGame, ByColor, Color, EndReason, Variant};

use super::*;

const NOW_MS: u64 = 1_796_088_829_000; // 2026-12-01T01:33:49Z

fn info(ending: Option<Ending>) -> ExportInfo<'static> {
    ExportInfo {
        site: "http://play.example:8080",
        room_id: "abcd2345",
        created_ms: NOW_MS,
        clock: Some(ClockConfig {
            initial: 300_000,
            increment: 3_000,
        }),
        players: ByColor::new(Player::Anonymous, Player::Ai(3)),
        ending,
    }
}

fn replay(variant: Variant, fen: Option<&str>, moves: &[&str]) -> AnyGame {
    AnyGame::replay(variant, fen, moves).unwrap()
}

/// An export read back: its tags in order, the move tokens, the move
/// number tokens, the comment and the result.
#[derive(Debug)]
struct Read {
    tags: Vec<(String, String)>,
    moves: Vec<String>,
    numbers: Vec<String>,
    comment: Option<String>,
    result: String,
}

impl Read {
    fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }
}

fn read(text: &str) -> Read {
    let (head, body) = text
        .split_once("\n\n")
        .expect("a blank line after the tags");
    let tags = head
        .lines()
        .map(|line| {
            let inner = line
                .strip_prefix('[')
                .and_then(|l| l.strip_suffix("\"]"))
                .unwrap_or_else(|| panic!("not a tag line: {line:?}"));
            let (name, value) = inner.split_once(" \"").unwrap();
            (
                name.to_owned(),
                value.replace("\\\"", "\"").replace("\\\\", "\\"),
            )
        })
        .collect();
    let mut tokens: Vec<&str> = body.split_whitespace().collect();
    let result = tokens.pop().expect("a result").to_owned();
    let mut moves = Vec::new();
    let mut numbers = Vec::new();
    let mut comment = None;
    let mut tokens = tokens.into_iter();
    while let Some(t) = tokens.next() {
        if t == "{" {
            let words: Vec<&str> = tokens.by_ref().take_while(|w| *w != "}").collect();
            comment = Some(words.join(" "));
        } else if t.ends_with('.') && t.trim_end_matches('.').chars().all(|c| c.is_ascii_digit()) {
            numbers.push(t.to_owned());
        } else {
            moves.push(t.to_owned());
        }
    }
    Read {
        tags,
        moves,
        numbers,
        comment,
        result,
    }
}

/// Plays an export's moves again, each found among the legal moves by its
/// notation (SAN, or WXF for Xiangqi).
fn replay_export(text: &str) -> (AnyGame, Read) {
    let r = read(text);
    let variant = Variant::ALL
        .into_iter()
        .find(|v| Some(v.pgn_name()) == r.tag("Variant"))
        .expect("a known Variant tag");
    let mut game = AnyGame::new(variant, r.tag("FEN")).unwrap();
    for notation in &r.moves {
        let uci = game
            .legal_moves()
            .into_iter()
            .find(|m| &m.san == notation)
            .unwrap_or_else(|| panic!("{notation} is not legal in {}", game.fen()))
            .uci;
        game.play_uci(&uci).unwrap();
    }
    (game, r)
}

#[test]
fn a_standard_game_has_every_tag_in_order() {
    let game = replay(Variant::Chess, None, &["f2f3", "e7e5", "g2g4", "d8h4"]);
    let decided = Ending::Decided {
        winner: Some(Color::Black),
        termination: Termination::Normal,
    };
    let text = export(&game, &info(Some(decided)));
    let expected_head = "[Event \"Casual Standard game\"]\n\
        [Site \"http://play.example:8080/r/abcd2345\"]\n\
        [Date \"2026.12.01\"]\n\
        [Round \"-\"]\n\
        [White \"Anonymous\"]\n\
        [Black \"chessplayx level 3\"]\n\
        [Result \"0-1\"]\n\
        [Variant \"Standard\"]\n\
        [Termination \"Normal\"]\n\
        [TimeControl \"300+3\"]\n\
        [UTCDate \"2026.12.01\"]\n\
        [UTCTime \"01:33:49\"]\n\n";
    assert_eq!(
        text,
        format!("{expected_head}1. f3 e5 2. g4 Qh4# {{ checkmate }} 0-1\n")
    );
}

#[test]
fn a_start_position_gives_fen_setup_and_its_move_numbers() {
    // Black to move at move 23.
    let fen = "4k3/8/8/8/8/8/4P3/4K3 b - - 0 23";
    let game = replay(Variant::Chess, Some(fen), &["e8d7", "e2e4", "d7e6"]);
    let text = export(&game, &info(None));
    let r = read(&text);
    assert_eq!(r.tag("FEN"), Some(fen));
    assert_eq!(r.tag("SetUp"), Some("1"));
    assert_eq!(r.numbers, ["23...", "24."]);
    assert_eq!(r.moves, ["Kd7", "e4", "Ke6"]);
    assert!(text.contains("\n\n23... Kd7 24. e4 Ke6 *\n"), "{text}");
    // FEN and SetUp come after Variant and before Termination.
    let names: Vec<&str> = r.tags.iter().map(|(n, _)| n.as_str()).collect();
    let at = |n: &str| names.iter().position(|x| *x == n).unwrap();
    assert!(at("Variant") < at("FEN") && at("FEN") < at("SetUp"));
    assert!(at("SetUp") < at("Termination"));
    // White to move at move 7.
    let fen = "4k3/8/8/8/8/8/4P3/4K3 w - - 0 7";
    let game = replay(Variant::Chess, Some(fen), &["e2e4", "e8d7", "e1d2"]);
    assert_eq!(read(&export(&game, &info(None))).numbers, ["7.", "8."]);
}

#[test]
fn only_a_start_other_than_the_variants_own_is_written() {
    for variant in Variant::ALL {
        let game = AnyGame::new(variant, None).unwrap();
        let r = read(&export(&game, &info(None)));
        assert_eq!(r.tag("Variant"), Some(variant.pgn_name()));
        assert_eq!(r.tag("FEN"), None, "{variant:?}");
        assert_eq!(r.tag("SetUp"), None, "{variant:?}");
        assert_eq!(
            r.tag("Event"),
            Some(format!("Casual {} game", variant.pgn_name()).as_str())
        );
        assert_eq!(r.result, "*");
        assert_eq!(r.tag("Termination"), Some("Unterminated"));
    }
    // Atomic from the chess start is Atomic's own start; Horde from a
    // later Horde position is not.
    let fen = "rnbqkbnr/pppppppp/8/1PP2PP1/PPPPPPPP/PPPPPPPP/PPPPPPPP/PPPPPPP1 w kq - 0 1";
    let horde = AnyGame::new(Variant::Horde, Some(fen)).unwrap();
    let r = read(&export(&horde, &info(None)));
    assert_eq!(r.tag("FEN"), Some(fen));
}

#[test]
fn endings_set_result_and_termination() {
    let game = replay(Variant::Chess, None, &["e2e4", "e7e5"]);
    let cases = [
        (
            Some(Ending::Decided {
                winner: Some(Color::White),
                termination: Termination::Normal,
            }),
            "1-0",
            "Normal",
        ),
        (
            Some(Ending::Decided {
                winner: Some(Color::Black),
                termination: Termination::TimeForfeit,
            }),
            "0-1",
            "Time forfeit",
        ),
        (
            Some(Ending::Decided {
                winner: None,
                termination: Termination::TimeForfeit,
            }),
            "1/2-1/2",
            "Time forfeit",
        ),
        (
            Some(Ending::Decided {
                winner: Some(Color::White),
                termination: Termination::Abandoned,
            }),
            "1-0",
            "Abandoned",
        ),
        (Some(Ending::Aborted), "*", "Unterminated"),
        (None, "*", "Unterminated"),
    ];
    for (ending, result, termination) in cases {
        let r = read(&export(&game, &info(ending)));
        assert_eq!(r.tag("Result"), Some(result), "{ending:?}");
        assert_eq!(r.result, result, "{ending:?}");
        assert_eq!(r.tag("Termination"), Some(termination), "{ending:?}");
        // Not a rules ending: no comment.
        assert_eq!(r.comment, None);
    }
}

#[test]
fn a_rules_ending_the_room_did_not_describe_is_still_written() {
    let game = replay(Variant::Chess, None, &["f2f3", "e7e5", "g2g4", "d8h4"]);
    let r = read(&export(&game, &info(None)));
    assert_eq!(r.tag("Result"), Some("0-1"));
    assert_eq!(r.tag("Termination"), Some("Normal"));
    assert_eq!(r.comment.as_deref(), Some(EndReason::Checkmate.name()));
}

#[test]
fn players_clock_and_date_tags() {
    let game = AnyGame::new(Variant::Atomic, None).unwrap();
    let mut i = info(None);
    i.players = ByColor::new(Player::Ai(8), Player::Anonymous);
    i.clock = None;
    i.created_ms = 951_868_799_000; // 2000-02-29T23:59:59Z
    let r = read(&export(&game, &i));
    assert_eq!(r.tag("White"), Some("chessplayx level 8"));
    assert_eq!(r.tag("Black"), Some("Anonymous"));
    assert_eq!(r.tag("TimeControl"), Some("-"));
    assert_eq!(r.tag("Date"), Some("2000.02.29"));
    assert_eq!(r.tag("UTCTime"), Some("23:59:59"));
    // A 0.33-minute clock is 19.8 s: the tag has whole seconds.
    i.clock = Some(ClockConfig {
        initial: 19_800,
        increment: 0,
    });
    assert_eq!(read(&export(&game, &i)).tag("TimeControl"), Some("20+0"));
}

#[test]
fn dates_are_gregorian_utc() {
    let cases = [
        (0, "1970.01.01", "00:00:00"),
        (946_598_400_000, "1999.12.31", "00:00:00"),
        (951_868_799_000, "2000.02.29", "23:59:59"),
        (NOW_MS, "2026.12.01", "01:33:49"),
        (4_107_585_600_000, "2100.03.01", "12:00:00"),
    ];
    for (ms, date, time) in cases {
        assert_eq!(
            utc_date_time(ms),
            (date.to_owned(), time.to_owned()),
            "{ms}"
        );
    }
}

#[test]
fn xiangqi_is_the_same_layout_with_wxf_moves() {
    let game = replay(Variant::Xiangqi, None, &["h3e3", "h10g8", "h1g3"]);
    let text = export(&game, &info(None));
    let r = read(&text);
    assert_eq!(r.tag("Variant"), Some("Xiangqi"));
    assert_eq!(r.tag("Event"), Some("Casual Xiangqi game"));
    assert_eq!(r.tag("Site"), Some("http://play.example:8080/r/abcd2345"));
    assert_eq!(r.numbers, ["1.", "2."]);
    assert_eq!(r.moves, ["C2=5", "H8+7", "H2+3"]);
    let (again, _) = replay_export(&text);
    assert_eq!(again.moves_uci(), game.moves_uci());
}

#[test]
fn the_site_is_the_public_url_or_a_plain_host() {
    let public: PublicUrl = "https://chess.example.org/".parse().unwrap();
    assert_eq!(
        site_base(Some(&public), Some("evil"), "127.0.0.1:8080"),
        "https://chess.example.org"
    );
    assert_eq!(
        site_base(None, Some("localhost:8080"), "127.0.0.1:8080"),
        "http://localhost:8080"
    );
    assert_eq!(
        site_base(None, Some("[::1]:8080"), "127.0.0.1:8080"),
        "http://[::1]:8080"
    );
    for bad in ["", "a\"b", "a/b", "a b", "x]\n[Evil \"1"] {
        assert_eq!(
            site_base(None, Some(bad), "127.0.0.1:8080"),
            "http://127.0.0.1:8080",
            "{bad:?}"
        );
    }
    assert_eq!(site_base(None, None, "0.0.0.0:80"), "http://0.0.0.0:80");
}

/// xorshift64: random games without a dependency, the same every run.
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        usize::try_from(self.0 % n as u64).unwrap()
    }
}

#[test]
fn random_games_of_every_variant_read_back_to_the_same_moves() {
    let starts: [(Variant, Option<&str>); 7] = [
        (Variant::Chess, None),
        (
            Variant::Chess,
            Some("r3k2r/pppq1ppp/2n2n2/3pp3/3PP3/2N2N2/PPPQ1PPP/R3K2R b KQkq - 4 9"),
        ),
        (Variant::Horde, None),
        (Variant::Atomic, None),
        (Variant::Xiangqi, None),
        (
            Variant::Xiangqi,
            Some("rnbakab1r/9/1c4nc1/p1p1p1p1p/9/9/P1P1P1P1P/1C2B2C1/9/RN1AKABNR b - - 3 12"),
        ),
        (Variant::Atomic, Some("4k3/8/8/8/8/8/3PPP2/4K3 w - - 0 40")),
    ];
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    for round in 0..12 {
        for &(variant, fen) in &starts {
            let mut game = AnyGame::new(variant, fen).unwrap();
            let plies = 20 + rng.below(100);
            for _ in 0..plies {
                let legal = game.legal_moves();
                if legal.is_empty() || game.outcome().is_some() {
                    break;
                }
                let uci = legal[rng.below(legal.len())].uci;
                game.play_uci(&uci).unwrap();
            }
            let text = export(&game, &info(None));
            let (_, movetext) = text.split_once("\n\n").unwrap();
            for line in movetext.lines() {
                assert!(line.len() <= 79, "{line:?}");
            }
            let (again, r) = replay_export(&text);
            assert_eq!(again.moves_uci(), game.moves_uci(), "{round} {text}");
            assert_eq!(again.outcome(), game.outcome(), "{text}");
            assert_eq!(
                r.comment,
                game.outcome().map(|o| o.reason.name().to_owned()),
                "{text}"
            );
            let (turn, first) = fen_turn_and_number(&game.start_fen());
            let expected_first = match turn {
                Color::White => format!("{first}."),
                Color::Black => format!("{first}..."),
            };
            if game.ply() > 0 {
                assert_eq!(r.numbers[0], expected_first, "{text}");
                // One number per White move, plus the first when Black
                // starts.
                let white_moves = match turn {
                    Color::White => game.ply().div_ceil(2),
                    Color::Black => game.ply() / 2 + 1,
                };
                assert_eq!(r.numbers.len(), white_moves, "{text}");
            }
        }
    }
}
