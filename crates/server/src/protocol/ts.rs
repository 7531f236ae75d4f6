//! The web app's copy of the protocol, generated from the Rust types:
//! `web/src/protocol.gen.ts` is this function's output, and the test
//! `tests/protocol_ts.rs` fails while the checked-in file differs (run it
//! with `CHESSPLAYX_WRITE_TS=1` to rewrite the file). The closed
//! vocabularies are written here from their `ALL` lists; every message
//! shape is declared by `ts-rs` from the serde types themselves, so the
//! web app's decoders stop type-checking when a field changes on the
//! server.

use std::fmt::Write as _;

use chessplayx_rules::{
    ByColor, ChaseJson, Claim, Color, EndReason as RulesReason, GameStatus, MoveInfo,
    MoveWarningInfo, Outcome, SideStreaks, StreakJson, Variant, XiangqiStatus, xiangqi::Counters,
};
use ts_rs::{Config, TS};

use super::{
    AckMsg, ClientMsg, ClockJson, EndEvent, EndReason, ErrorCode, ErrorMsg, Event, HistoryMove,
    JoinedEvent, LobbyCounters, LobbySnapshot, MoveEvent, OfferEvent, OfferKind, Offers,
    PlayerJson, PositionReply, PresenceSide, RawAs, RematchEvent, RoomOutcome, SeatMsg, ServerMsg,
    StateMsg, TakebackEvent,
};
use crate::{
    lobby::Listing,
    store::{ClockConfig, RoomState},
};

/// Appends `export type ...` for `T`, as ts-rs declares it. Integers of
/// 64 bits are plain numbers: every one the server sends (milliseconds,
/// event numbers, timestamps) stays below 2^53.
fn declare<T: TS + ?Sized>(out: &mut String, cfg: &Config) {
    let _infallible = writeln!(out, "export {}\n", T::decl(cfg));
}

/// The message shapes, rules' JSON types first.
fn shapes(out: &mut String) {
    let cfg = Config::new().with_large_int("number");
    let cfg = &cfg;
    declare::<Color>(out, cfg);
    declare::<ByColor<u8>>(out, cfg);
    declare::<Variant>(out, cfg);
    declare::<RulesReason>(out, cfg);
    declare::<Outcome>(out, cfg);
    declare::<Claim>(out, cfg);
    declare::<MoveInfo>(out, cfg);
    declare::<MoveWarningInfo>(out, cfg);
    declare::<StreakJson>(out, cfg);
    declare::<ChaseJson>(out, cfg);
    declare::<SideStreaks>(out, cfg);
    declare::<Counters>(out, cfg);
    declare::<XiangqiStatus>(out, cfg);
    declare::<GameStatus>(out, cfg);
    declare::<RoomState>(out, cfg);
    declare::<ClockConfig>(out, cfg);
    declare::<RoomOutcome>(out, cfg);
    declare::<ClockJson>(out, cfg);
    declare::<PlayerJson>(out, cfg);
    declare::<PresenceSide>(out, cfg);
    declare::<Offers>(out, cfg);
    declare::<OfferKind>(out, cfg);
    declare::<HistoryMove>(out, cfg);
    declare::<PositionReply>(out, cfg);
    declare::<StateMsg<'static>>(out, cfg);
    declare::<MoveEvent<'static>>(out, cfg);
    declare::<EndEvent>(out, cfg);
    declare::<TakebackEvent<'static>>(out, cfg);
    declare::<OfferEvent>(out, cfg);
    declare::<JoinedEvent>(out, cfg);
    declare::<RematchEvent<'static>>(out, cfg);
    declare::<SeatMsg<'static>>(out, cfg);
    declare::<AckMsg>(out, cfg);
    declare::<ErrorMsg<'static>>(out, cfg);
    declare::<Listing>(out, cfg);
    declare::<LobbyCounters>(out, cfg);
    declare::<LobbySnapshot<'static>>(out, cfg);
    declare::<ServerMsg<'static>>(out, cfg);
    declare::<Event<'static>>(out, cfg);
    declare::<ClientMsg>(out, cfg);
    declare::<RawAs>(out, cfg);
    out.push_str(
        "/** A game's state: the common fields, and Xiangqi's (present only in Xiangqi). */\n\
         export type GameStatus = GameStatusCore & Partial<XiangqiStatus>;\n\n\
         /** A room event as sent: its message and its number (`v`). */\n\
         export type NumberedEvent = Event & { v: number };\n\n\
         /** A client frame: the message and, for a two-seat connection, which seat acts. */\n\
         export type ClientFrame = ClientMsg & ClientSeat;\n\n",
    );
}

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
    let rules: Vec<String> = EndReason::ALL
        .iter()
        .filter(|r| !r.is_room_reason())
        .map(|r| format!("  \"{}\",", r.name()))
        .collect();
    let _infallible = writeln!(
        out,
        "/** Every RulesEndReason (the rules' own), in the server's order. */\n\
         export const RULES_END_REASONS: readonly RulesEndReason[] = [\n{}\n];\n",
        rules.join("\n")
    );
    shapes(&mut out);
    out.truncate(out.trim_end().len());
    out.push('\n');
    out
}
