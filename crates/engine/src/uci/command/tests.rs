//! Unit tests of the parent module (kept apart so that the module
//! itself stays short).

use super::*;

fn parse(line: &str) -> Result<UciCommand, UciParseError> {
    UciCommand::parse(line)
}

fn go(line: &str) -> GoParams {
    match parse(line) {
        Ok(UciCommand::Go(params)) => params,
        other => panic!("{line:?} parsed as {other:?}"),
    }
}

fn startpos(moves: &[&str]) -> UciCommand {
    UciCommand::Position {
        start: StartPosition::StartPos,
        moves: moves.iter().map(|m| (*m).to_owned()).collect(),
    }
}

#[test]
fn commands_without_arguments() {
    assert_eq!(parse("uci"), Ok(UciCommand::Uci));
    assert_eq!(parse("isready"), Ok(UciCommand::IsReady));
    assert_eq!(parse("ucinewgame"), Ok(UciCommand::UciNewGame));
    assert_eq!(parse("stop"), Ok(UciCommand::Stop));
    assert_eq!(parse("quit"), Ok(UciCommand::Quit));
    assert_eq!(parse("d"), Ok(UciCommand::Display));
}

#[test]
fn blank_lines_are_empty_commands() {
    for line in ["", "\n", "\r\n", "   ", "\t \t", " \u{a0} "] {
        assert_eq!(parse(line), Ok(UciCommand::Empty), "{line:?}");
    }
}

#[test]
fn surrounding_whitespace_and_line_endings_are_ignored() {
    assert_eq!(parse("  isready \r\n"), Ok(UciCommand::IsReady));
    assert_eq!(parse("\tquit\t"), Ok(UciCommand::Quit));
}

#[test]
fn commands_are_case_sensitive_like_the_protocol() {
    assert_eq!(
        parse("UCI"),
        Err(UciParseError::UnknownCommand {
            command: "UCI".into()
        })
    );
}

#[test]
fn unknown_command_names_the_first_word() {
    assert_eq!(
        parse("  flip board"),
        Err(UciParseError::UnknownCommand {
            command: "flip".into()
        })
    );
    let message = parse("debug on").unwrap_err().to_string();
    assert_eq!(message, "unknown command \"debug\"");
}

#[test]
fn arguments_to_argumentless_commands_are_errors() {
    assert_eq!(
        parse("isready now"),
        Err(UciParseError::UnexpectedArgument {
            command: "isready",
            argument: "now".into()
        })
    );
    assert_eq!(
        parse("d\tboard"),
        Err(UciParseError::UnexpectedArgument {
            command: "d",
            argument: "board".into()
        })
    );
}

#[test]
fn setoption_with_multi_word_name_and_value() {
    assert_eq!(
        parse("setoption name UCI_Variant value xiangqi"),
        Ok(UciCommand::SetOption {
            name: "UCI_Variant".into(),
            value: Some("xiangqi".into())
        })
    );
    assert_eq!(
        parse("setoption  name Skill \t Level   value  some  long\tvalue "),
        Ok(UciCommand::SetOption {
            name: "Skill Level".into(),
            value: Some("some long value".into())
        })
    );
}

#[test]
fn setoption_without_value_is_a_button_press() {
    assert_eq!(
        parse("setoption name Clear Hash"),
        Ok(UciCommand::SetOption {
            name: "Clear Hash".into(),
            value: None
        })
    );
}

#[test]
fn setoption_errors() {
    assert_eq!(parse("setoption"), Err(UciParseError::SetOptionMissingName));
    assert_eq!(
        parse("setoption name"),
        Err(UciParseError::SetOptionMissingName)
    );
    assert_eq!(
        parse("setoption name value 3"),
        Err(UciParseError::SetOptionMissingName)
    );
    assert_eq!(
        parse("setoption Hash value 3"),
        Err(UciParseError::SetOptionExpectedName {
            token: "Hash".into()
        })
    );
    assert_eq!(
        parse("setoption name Hash value"),
        Err(UciParseError::SetOptionMissingValue {
            name: "Hash".into()
        })
    );
    assert_eq!(
        parse("setoption name Hash value \t "),
        Err(UciParseError::SetOptionMissingValue {
            name: "Hash".into()
        })
    );
}

#[test]
fn setoption_value_may_contain_the_word_value() {
    assert_eq!(
        parse("setoption name Book value value.bin"),
        Ok(UciCommand::SetOption {
            name: "Book".into(),
            value: Some("value.bin".into())
        })
    );
    assert_eq!(
        parse("setoption name Greeting value a value here"),
        Ok(UciCommand::SetOption {
            name: "Greeting".into(),
            value: Some("a value here".into())
        })
    );
}

#[test]
fn position_startpos() {
    assert_eq!(parse("position startpos"), Ok(startpos(&[])));
    assert_eq!(parse("position startpos moves"), Ok(startpos(&[])));
    assert_eq!(
        parse("position\tstartpos  moves e2e4\te7e5 g1f3"),
        Ok(startpos(&["e2e4", "e7e5", "g1f3"]))
    );
}

#[test]
fn position_moves_are_kept_unchecked() {
    // Legality and even syntax depend on the variant: b10c8 is Xiangqi,
    // e7e8q is chess; both are the backend's business.
    assert_eq!(
        parse("position startpos moves b10c8 e7e8q zz9"),
        Ok(startpos(&["b10c8", "e7e8q", "zz9"]))
    );
}

#[test]
fn position_fen_with_all_fields_and_moves() {
    let fen = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";
    assert_eq!(
        parse(&format!("position fen {fen} moves h3e3 h10g8")),
        Ok(UciCommand::Position {
            start: StartPosition::Fen(fen.into()),
            moves: vec!["h3e3".into(), "h10g8".into()],
        })
    );
}

#[test]
fn position_fen_fields_are_rejoined_with_single_spaces() {
    assert_eq!(
        parse("position fen  8/8/8/8/8/8/8/K6k \t w  -   -"),
        Ok(UciCommand::Position {
            start: StartPosition::Fen("8/8/8/8/8/8/8/K6k w - -".into()),
            moves: vec![],
        })
    );
}

#[test]
fn position_fen_accepts_one_to_six_fields() {
    for n in 1..=6 {
        let fields: Vec<String> = (0..n).map(|i| format!("f{i}")).collect();
        let line = format!("position fen {} moves a1a2", fields.join(" "));
        assert_eq!(
            parse(&line),
            Ok(UciCommand::Position {
                start: StartPosition::Fen(fields.join(" ")),
                moves: vec!["a1a2".into()],
            }),
            "{line}"
        );
    }
}

#[test]
fn position_errors() {
    assert_eq!(parse("position"), Err(UciParseError::PositionMissingStart));
    assert_eq!(
        parse("position start"),
        Err(UciParseError::PositionUnknownStart {
            token: "start".into()
        })
    );
    assert_eq!(parse("position fen"), Err(UciParseError::FenMissing));
    assert_eq!(
        parse("position fen moves e2e4"),
        Err(UciParseError::FenMissing)
    );
    assert_eq!(
        parse("position fen a b c d e f g"),
        Err(UciParseError::FenTooManyFields { count: 7 })
    );
    assert_eq!(
        parse("position startpos e2e4"),
        Err(UciParseError::PositionExpectedMoves {
            token: "e2e4".into()
        })
    );
}

#[test]
fn go_without_parameters() {
    assert_eq!(go("go"), GoParams::default());
}

#[test]
fn go_each_numeric_parameter() {
    assert_eq!(go("go perft 5").perft, Some(5));
    assert_eq!(go("go depth 12").depth, Some(12));
    assert_eq!(go("go nodes 123456789012").nodes, Some(123_456_789_012));
    assert_eq!(go("go movetime 1500").movetime, Some(1500));
    assert_eq!(go("go wtime 60000").wtime, Some(60_000));
    assert_eq!(go("go btime 59000").btime, Some(59_000));
    assert_eq!(go("go winc 2000").winc, Some(2000));
    assert_eq!(go("go binc 1000").binc, Some(1000));
    assert_eq!(go("go movestogo 40").movestogo, Some(40));
    assert_eq!(go("go mate 3").mate, Some(3));
}

#[test]
fn go_flags() {
    assert!(go("go infinite").infinite);
    assert!(go("go ponder wtime 1 btime 1").ponder);
    assert!(!go("go depth 1").infinite);
}

#[test]
fn go_full_clock_line() {
    assert_eq!(
        go("go wtime 300000 btime 299000\twinc 2000 binc 2000 movestogo 30"),
        GoParams {
            wtime: Some(300_000),
            btime: Some(299_000),
            winc: Some(2000),
            binc: Some(2000),
            movestogo: Some(30),
            ..GoParams::default()
        }
    );
}

#[test]
fn go_searchmoves_runs_until_the_next_keyword() {
    let params = go("go searchmoves e2e4 d2d4 depth 3");
    assert_eq!(params.searchmoves, Some(vec!["e2e4".into(), "d2d4".into()]));
    assert_eq!(params.depth, Some(3));
    assert_eq!(
        parse("go searchmoves depth 3"),
        Err(UciParseError::GoMissingValue {
            param: GoParam::SearchMoves
        })
    );
    assert_eq!(
        parse("go searchmoves"),
        Err(UciParseError::GoMissingValue {
            param: GoParam::SearchMoves
        })
    );
}

#[test]
fn clock_times_may_be_negative_but_counts_may_not() {
    assert_eq!(go("go wtime -250 btime 1000").wtime, Some(-250));
    assert_eq!(go("go btime -1").btime, Some(-1));
    for (line, param) in [
        ("go depth -1", GoParam::Depth),
        ("go perft -3", GoParam::Perft),
        ("go nodes -5", GoParam::Nodes),
        ("go movetime -10", GoParam::MoveTime),
        ("go winc -1", GoParam::WInc),
        ("go mate -2", GoParam::Mate),
    ] {
        assert!(
            matches!(parse(line), Err(UciParseError::GoInvalidNumber { param: p, .. }) if p == param),
            "{line}: {:?}",
            parse(line)
        );
    }
}

#[test]
fn huge_numbers_are_range_errors_not_wraps() {
    let err = parse("go perft 99999999999999999999999").unwrap_err();
    match &err {
        UciParseError::GoInvalidNumber {
            param,
            text,
            source,
        } => {
            assert_eq!(*param, GoParam::Perft);
            assert_eq!(text, "99999999999999999999999");
            assert_eq!(source.kind(), &core::num::IntErrorKind::PosOverflow);
        }
        other => panic!("{other:?}"),
    }
    assert!(
        err.to_string()
            .starts_with("go perft: \"99999999999999999999999\"")
    );
    // The largest value of each type still parses.
    assert_eq!(go("go nodes 18446744073709551615").nodes, Some(u64::MAX));
    assert_eq!(go("go depth 4294967295").depth, Some(u32::MAX));
    assert_eq!(go("go wtime -9223372036854775808").wtime, Some(i64::MIN));
    assert!(parse("go depth 4294967296").is_err());
    assert!(parse("go wtime -9223372036854775809").is_err());
}

#[test]
fn go_value_errors() {
    assert_eq!(
        parse("go perft"),
        Err(UciParseError::GoMissingValue {
            param: GoParam::Perft
        })
    );
    assert_eq!(
        parse("go depth infinite"),
        Err(UciParseError::GoMissingValue {
            param: GoParam::Depth
        })
    );
    assert!(matches!(
        parse("go movetime 1.5"),
        Err(UciParseError::GoInvalidNumber {
            param: GoParam::MoveTime,
            ..
        })
    ));
    assert!(matches!(
        parse("go depth ten"),
        Err(UciParseError::GoInvalidNumber {
            param: GoParam::Depth,
            ..
        })
    ));
    assert!(matches!(
        parse("go nodes 1e6"),
        Err(UciParseError::GoInvalidNumber {
            param: GoParam::Nodes,
            ..
        })
    ));
}

#[test]
fn go_duplicates_and_unknown_words() {
    assert_eq!(
        parse("go depth 3 depth 4"),
        Err(UciParseError::GoDuplicate {
            param: GoParam::Depth
        })
    );
    assert_eq!(
        parse("go infinite infinite"),
        Err(UciParseError::GoDuplicate {
            param: GoParam::Infinite
        })
    );
    assert_eq!(
        parse("go depth 3 fast"),
        Err(UciParseError::GoUnknownParam {
            token: "fast".into()
        })
    );
    assert_eq!(
        parse("go 3"),
        Err(UciParseError::GoUnknownParam { token: "3".into() })
    );
}

#[test]
fn every_go_keyword_round_trips() {
    for param in GoParam::ALL {
        assert_eq!(GoParam::from_keyword(param.keyword()), Some(param));
        assert_eq!(param.to_string(), param.keyword());
    }
    assert_eq!(GoParam::from_keyword("Depth"), None);
}

#[test]
fn from_str_matches_parse() {
    assert_eq!("go perft 2".parse::<UciCommand>(), parse("go perft 2"));
    assert_eq!("nonsense".parse::<UciCommand>(), parse("nonsense"));
}

#[test]
fn error_messages_say_what_was_wrong() {
    let cases = [
        (
            "position fen a b c d e f g h",
            "position fen: 8 fields before `moves`, a FEN has at most 6",
        ),
        ("go depth 3 depth 4", "go depth given twice"),
        ("go mate", "go mate needs a value"),
        (
            "setoption name Hash value",
            "setoption name Hash: `value` is not followed by a value",
        ),
        ("quit now", "quit takes no arguments, got \"now\""),
    ];
    for (line, message) in cases {
        assert_eq!(parse(line).unwrap_err().to_string(), message, "{line}");
    }
}

#[test]
fn random_word_salad_never_panics() {
    // A small deterministic sweep over awkward inputs; the fuzz target
    // `uci_command` covers the rest.
    let words = [
        "go",
        "position",
        "fen",
        "moves",
        "setoption",
        "name",
        "value",
        "perft",
        "-",
        "0",
        "\u{0}",
        "é",
        "\u{200b}",
        "99999999999999999999",
        "searchmoves",
        "startpos",
        "",
    ];
    let mut seed = 0x2545_f491_4f6c_dd1d_u64;
    for _ in 0..20_000 {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        let len = (seed % 7) as usize;
        let line: Vec<&str> = (0..len)
            .map(|i| words[((seed >> (i * 5)) % words.len() as u64) as usize])
            .collect();
        let _ = parse(&line.join(" "));
    }
}
