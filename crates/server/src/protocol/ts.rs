//! The web app's copy of the protocol's vocabularies, generated from the
//! Rust types: `web/src/protocol.gen.ts` is this function's output, and
//! the test `tests/protocol_ts.rs` fails while the checked-in file differs
//! (run it with `CHESSPLAYX_WRITE_TS=1` to rewrite the file).

use std::fmt::Write as _;

use super::{EndReason, ErrorCode};

/// Writes `export type NAME = "a" | "b";` and the matching constant list.
fn union(out: &mut String, doc: &str, name: &str, list: &str, names: &[&str]) {
    let quoted: Vec<String> = names.iter().map(|n| format!("\"{n}\"")).collect();
    let _infallible = writeln!(out, "/** {doc} */");
    let _infallible = writeln!(out, "export type {name} =");
    for (i, q) in quoted.iter().enumerate() {
        let end = if i + 1 == quoted.len() { ";" } else { "" };
        let _infallible = writeln!(out, "  | {q}{end}");
    }
    let _infallible = writeln!(out, "/** Every {name}, in the server's order. */");
    let _infallible = writeln!(out, "export const {list}: readonly {name}[] = [");
    for q in &quoted {
        let _infallible = writeln!(out, "  {q},");
    }
    let _infallible = writeln!(out, "];\n");
}

/// The TypeScript text of `web/src/protocol.gen.ts`.
#[must_use]
pub fn typescript() -> String {
    let mut out = String::from(
        "// Generated from the server's protocol types (crates/server/src/protocol);\n\
         // do not edit. Regenerate: CHESSPLAYX_WRITE_TS=1 cargo test -p chessplayx-server --test protocol_ts\n\n",
    );
    let codes: Vec<&str> = ErrorCode::ALL.iter().map(|c| c.name()).collect();
    union(
        &mut out,
        "The `code` of a WebSocket `error` message.",
        "ErrorCode",
        "ERROR_CODES",
        &codes,
    );
    let reasons: Vec<&str> = EndReason::ALL.iter().map(|r| r.name()).collect();
    union(
        &mut out,
        "Why a game ended: the rules' reasons and the room's.",
        "EndReason",
        "END_REASONS",
        &reasons,
    );
    let room: Vec<&str> = EndReason::ALL
        .iter()
        .filter(|r| r.is_room_reason())
        .map(|r| r.name())
        .collect();
    union(
        &mut out,
        "The end reasons the room decides (not the rules).",
        "RoomEndReason",
        "ROOM_END_REASONS",
        &room,
    );
    out.truncate(out.trim_end().len());
    out.push('\n');
    out
}
