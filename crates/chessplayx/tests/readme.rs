//! The README's shell examples must keep working: every script it names
//! exists and is executable, every `chessplayx` line parses (and the
//! self-contained ones run), every `cargo bench` and fuzz target exists.
//! A renamed flag or a moved script otherwise rots silently.

use std::{
    fs,
    os::unix::fs::PermissionsExt,
    path::{Path, PathBuf},
    process::Command,
};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// The command lines of the README's `sh` blocks, comments removed.
fn sh_lines() -> Vec<String> {
    let text = fs::read_to_string(root().join("README.md")).expect("README.md is readable");
    let mut out = Vec::new();
    let mut in_sh = false;
    for line in text.lines() {
        if let Some(lang) = line.strip_prefix("```") {
            in_sh = !in_sh && lang.trim() == "sh";
            continue;
        }
        if in_sh {
            let code = line.split(" #").next().unwrap_or("").trim();
            if !code.is_empty() && !code.starts_with('#') {
                out.push(code.to_owned());
            }
        }
    }
    out
}

/// `[--fen FEN]`-style optional parts and `...` are placeholders, not input.
fn without_placeholders(words: &[String]) -> Option<Vec<String>> {
    let mut out = Vec::new();
    let mut depth = 0usize;
    for w in words {
        if w == "..." {
            return None;
        }
        if w.starts_with('[') {
            depth += 1;
        }
        if depth == 0 {
            out.push(w.clone());
        }
        if w.ends_with(']') || w.ends_with("]...") {
            depth = depth.saturating_sub(1);
        }
    }
    Some(out)
}

fn chessplayx(args: &[String]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_chessplayx"))
        .args(args)
        .output()
        .expect("the binary runs")
}

fn check_script(path: &str, line: &str, executable: bool) {
    let p = root().join(path);
    let meta = fs::metadata(&p).unwrap_or_else(|e| panic!("README line `{line}`: {path}: {e}"));
    if executable {
        assert!(
            meta.permissions().mode() & 0o111 != 0,
            "README line `{line}`: {path} is not executable"
        );
    }
}

fn check_chessplayx(words: &[String], line: &str) {
    let sub = words.get(1).map_or("serve", String::as_str);
    if sub.starts_with("--") {
        let out = chessplayx(&words[1..]);
        assert!(out.status.success(), "README line `{line}` failed");
        return;
    }
    // Every subcommand shown (with its nested subcommand, as in
    // `tune gen`) must exist with the flags shown.
    let mut path: Vec<String> = words[1..]
        .iter()
        .take_while(|w| !w.starts_with('-') && !w.starts_with('[') && *w != "...")
        .take(2)
        .cloned()
        .collect();
    let sub = path.join(" ");
    path.push("--help".to_owned());
    let help = chessplayx(&path);
    assert!(
        help.status.success(),
        "README line `{line}`: `chessplayx {sub} --help` failed"
    );
    let help = String::from_utf8_lossy(&help.stdout);
    for flag in words.iter().filter(|w| w.starts_with("--")) {
        let flag = flag.trim_start_matches('[').trim_end_matches(']');
        let flag = flag.split('=').next().unwrap_or(flag);
        assert!(
            help.contains(flag),
            "README line `{line}`: `chessplayx {sub}` has no {flag}"
        );
    }
    // The quick, self-contained examples run as written.
    if matches!(sub.as_str(), "perft" | "status" | "tune gen")
        && let Some(args) = without_placeholders(&words[1..])
    {
        let out = chessplayx(&args);
        assert!(
            out.status.success(),
            "README line `{line}` failed: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
}

fn check_cargo(words: &[String], line: &str) {
    let arg_after = |flag: &str| {
        words
            .iter()
            .position(|w| w == flag)
            .and_then(|i| words.get(i + 1))
            .cloned()
    };
    match words.get(1).map(String::as_str) {
        Some("bench") => {
            let package = arg_after("-p").expect("cargo bench names a package");
            let bench = arg_after("--bench").expect("cargo bench names a bench");
            let dir = package.trim_start_matches("chessplayx-");
            let file = root().join(format!("crates/{dir}/benches/{bench}.rs"));
            assert!(
                file.is_file(),
                "README line `{line}`: no {}",
                file.display()
            );
        }
        Some("fuzz") => {
            let target = words
                .iter()
                .skip_while(|w| *w != "run")
                .nth(1)
                .expect("cargo fuzz run names a target");
            let file = root().join(format!("fuzz/fuzz_targets/{target}.rs"));
            assert!(
                file.is_file(),
                "README line `{line}`: no {}",
                file.display()
            );
        }
        _ => {}
    }
}

#[test]
fn every_readme_command_refers_to_something_that_exists_and_works() {
    let lines = sh_lines();
    assert!(lines.len() >= 10, "the README's examples were not found");
    let mut checked = 0;
    for line in &lines {
        let words =
            shlex::split(line).unwrap_or_else(|| panic!("README line `{line}` is not shell"));
        let words: Vec<String> = words
            .into_iter()
            .skip_while(|w| w.contains('=') && !w.starts_with('-'))
            .collect();
        let Some(first) = words.first() else { continue };
        match first.as_str() {
            s if s.starts_with("scripts/") || s.starts_with(".ci/") => {
                check_script(s, line, true);
            }
            "python3" => check_script(&words[1], line, false),
            "chessplayx" => check_chessplayx(&words, line),
            "cargo" => check_cargo(&words, line),
            other => panic!("README line `{line}`: `{other}` is not a command this test knows"),
        }
        checked += 1;
    }
    assert_eq!(checked, lines.len());
}

#[test]
fn placeholders_are_dropped_and_ellipses_skip_the_run() {
    let w = |s: &str| shlex::split(s).unwrap_or_default();
    assert_eq!(
        without_placeholders(&w(
            "perft --variant atomic --depth 4 [--fen FEN] [--divide]"
        )),
        Some(w("perft --variant atomic --depth 4"))
    );
    assert_eq!(
        without_placeholders(&w("bench perft [--variant V]... [--depth N]")),
        Some(w("bench perft"))
    );
    assert_eq!(without_placeholders(&w("loadtest ...")), None);
}
