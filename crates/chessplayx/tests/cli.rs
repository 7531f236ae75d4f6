//! The binary as a user or a test tool runs it: exit codes, the version
//! line, argument errors and the UCI handshake over real pipes.

use std::{
    io::Write,
    process::{Command, Output, Stdio},
};

fn chessplayx(args: &[&str], stdin: &str) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_chessplayx"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the test binary starts");
    child
        .stdin
        .take()
        .expect("stdin is piped")
        .write_all(stdin.as_bytes())
        .expect("stdin accepts input");
    child.wait_with_output().expect("the binary finishes")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

#[test]
fn version_names_the_crate_version_and_the_commit() {
    for flag in ["--version", "-V"] {
        let out = chessplayx(&[flag], "");
        assert!(out.status.success());
        let stdout = text(&out.stdout);
        let prefix = format!("chessplayx {} · ", env!("CARGO_PKG_VERSION"));
        assert!(stdout.starts_with(&prefix), "{stdout:?}");
        assert_eq!(stdout.lines().count(), 1);
    }
}

#[test]
fn serving_is_the_default_and_a_busy_address_is_an_error() {
    // Hold the default address (or find it held by someone else): either
    // way the server cannot bind it and must say so, not hang.
    let _held = std::net::TcpListener::bind("127.0.0.1:8080");
    let dir = std::env::temp_dir().join(format!("chessplayx-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for args in [&[][..], &["serve"][..]] {
        let out = Command::new(env!("CARGO_BIN_EXE_chessplayx"))
            .args(args)
            .current_dir(&dir)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(1), "{args:?}");
        assert!(
            text(&out.stderr).contains("listening on 127.0.0.1:8080"),
            "{}",
            text(&out.stderr)
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn unknown_variants_and_missing_arguments_are_usage_errors() {
    let out = chessplayx(&["status", "--variant", "shogi"], "");
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("unknown variant \"shogi\""),
        "{}",
        text(&out.stderr)
    );

    let out = chessplayx(&["perft", "--variant", "chess"], "");
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("--depth"),
        "{}",
        text(&out.stderr)
    );
}

#[test]
fn uci_handshake_over_pipes() {
    let out = chessplayx(&["uci"], "uci\nisready\nhello\nquit\nisready\n");
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(
        text(&out.stdout).lines().collect::<Vec<_>>(),
        [
            "id name chessplayx",
            "id author chessplayx developers",
            "option name UCI_Variant type combo default chess var chess var horde var atomic var xiangqi",
            "option name Level type spin default 8 min 1 max 8",
            "option name Hash type spin default 16 min 1 max 4096",
            "option name Threads type spin default 1 min 1 max 1",
            "option name MultiPV type spin default 1 min 1 max 64",
            "option name LevelRow type string default <empty>",
            "uciok",
            "readyok",
            "info string unknown command \"hello\"",
        ]
    );
}

#[test]
fn uci_session_ends_at_end_of_input() {
    let out = chessplayx(&["uci"], "isready\n");
    assert!(out.status.success());
    assert_eq!(text(&out.stdout), "readyok\n");
}

#[test]
fn uci_search_over_pipes_answers_bestmove_at_end_of_input() {
    let out = chessplayx(
        &["uci"],
        "setoption name UCI_Variant value xiangqi\nposition startpos moves h3e3\ngo depth 3\n",
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines.len(), 4, "{stdout}");
    assert!(lines[2].starts_with("info depth 3 "), "{stdout}");
    assert!(lines[3].starts_with("bestmove "), "{stdout}");
}

#[test]
fn bench_prints_a_node_signature() {
    let out = chessplayx(&["bench", "search", "--depth", "2"], "");
    assert!(out.status.success(), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    let nodes = |s: &str| {
        s.lines()
            .find_map(|l| l.strip_prefix("Nodes searched: "))
            .and_then(|n| n.parse::<u64>().ok())
    };
    let first = nodes(&stdout).unwrap_or_else(|| panic!("{stdout}"));
    assert!(first > 0);
    let again = chessplayx(&["bench", "search", "--depth", "2"], "");
    assert_eq!(
        nodes(&text(&again.stdout)),
        Some(first),
        "the signature is stable"
    );
}

#[test]
fn spsa_plays_a_reference_over_uci_and_refuses_a_missing_one() {
    // The binary itself, at level 8, stands in for the reference: the
    // games run over real pipes, and the set printed is one the row
    // parser reads back.
    let reference = format!("{} uci", env!("CARGO_BIN_EXE_chessplayx"));
    let args = [
        "tune",
        "spsa",
        "--variant",
        "chess",
        "--pairs",
        "2",
        "--nodes",
        "400",
        "--threads",
        "1",
        "--max-plies",
        "40",
        "--every",
        "1",
        "--reference",
        &reference,
        "--ref-opt",
        "Level=8",
    ];
    let out = chessplayx(&args, "");
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    assert!(stdout.starts_with("tune="), "{stdout}");
    let row = format!("engine=full {}", stdout.trim());
    assert!(
        row.parse::<chessplayx_engine::LevelParams>().is_ok(),
        "{row}"
    );
    // Two steps, each both sets with both colours: four games a step.
    assert!(
        text(&out.stderr).contains("2 pairs ("),
        "{}",
        text(&out.stderr)
    );
    let games: u32 = text(&out.stderr)
        .lines()
        .last()
        .and_then(|l| l.split_once('(').map(|(_, r)| r.to_owned()))
        .map(|r| {
            r.split(')')
                .next()
                .unwrap_or_default()
                .split_whitespace()
                .filter_map(|w| w.trim_start_matches(['+', '=', '-']).parse::<u32>().ok())
                .sum()
        })
        .unwrap_or(0);
    assert_eq!(games, 8, "{}", text(&out.stderr));

    let out = chessplayx(
        &[
            "tune",
            "spsa",
            "--variant",
            "chess",
            "--pairs",
            "1",
            "--reference",
            "/nonexistent/engine",
        ],
        "",
    );
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stderr).contains("reference engine:"),
        "{}",
        text(&out.stderr)
    );
}
