//! A room's game as a text file: PGN for the 8×8 games, and for Xiangqi
//! the same layout with the moves in WXF (docs/protocol.md, "Export").
//!
//! One pure function, [`export`], from the rules' game record and what
//! only the room knows (players, clock, dates, how the game ended, where
//! it is), so that the format is tested without a server and every way
//! of ending a game is written the same way.
//!
//! The tag section follows the PGN standard's Seven Tag Roster (Event,
//! Site, Date, Round, White, Black, Result), then `Variant`, `FEN` and
//! `SetUp` when the game did not start from the variant's own position,
//! `Termination`, `TimeControl`, `UTCDate` and `UTCTime`, as lichess
//! writes them. Xiangqi's Red is the `White` tag, as in pychess's and
//! lichess's exports of Xiangqi.

use chessplayx_rules::{
    AnyGame, ByColor, Color,
    chess::{write_pgn_movetext, write_pgn_tag},
};

use crate::{config::PublicUrl, store::ClockConfig};

/// Who held a seat, as the `White` / `Black` tag names them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Player {
    /// A person: the server keeps no names.
    Anonymous,
    /// The server's engine at this level (1 to 8).
    Ai(u8),
}

impl Player {
    fn name(self) -> String {
        match self {
            Self::Anonymous => "Anonymous".to_owned(),
            Self::Ai(level) => format!("chessplayx level {level}"),
        }
    }
}

/// How a decided game ended, as the PGN `Termination` tag says it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Termination {
    /// On the board or by agreement: checkmate, the rules' draws,
    /// resignation, a draw offer accepted.
    Normal,
    /// A clock reached zero (a win, or a draw when the other side could
    /// not have mated).
    TimeForfeit,
    /// A player stayed away and the opponent claimed the win.
    Abandoned,
}

impl Termination {
    const fn tag(self) -> &'static str {
        match self {
            Self::Normal => "Normal",
            Self::TimeForfeit => "Time forfeit",
            Self::Abandoned => "Abandoned",
        }
    }
}

/// The end of a room's game, which may go beyond the record's own outcome
/// (resignation, time, agreement).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Ending {
    /// A result: the winner, or `None` for a draw.
    Decided {
        /// The winner; `None` is a draw.
        winner: Option<Color>,
        /// How it ended.
        termination: Termination,
    },
    /// Stopped without a result (aborted before both sides moved).
    Aborted,
}

/// What the room knows about its game besides the record.
#[derive(Clone, Debug)]
pub(crate) struct ExportInfo<'a> {
    /// The server's base URL, without a trailing `/` (see [`site_base`]).
    pub(crate) site: &'a str,
    /// The room's id (the `Site` is `{site}/r/{room_id}`).
    pub(crate) room_id: &'a str,
    /// When the room was created, in Unix milliseconds (the `Date`).
    pub(crate) created_ms: u64,
    /// The time control, if any.
    pub(crate) clock: Option<ClockConfig>,
    /// The seats.
    pub(crate) players: ByColor<Player>,
    /// The end, if the game has ended.
    pub(crate) ending: Option<Ending>,
}

/// The base URL of links in exports: `--public-url` when given, else the
/// request's `Host` over `http://` when it is a plain host name or
/// address with an optional port, else `fallback` (the listening
/// address), so that no header can put arbitrary text into a file.
pub(crate) fn site_base(public: Option<&PublicUrl>, host: Option<&str>, fallback: &str) -> String {
    if let Some(url) = public {
        return url.as_str().to_owned();
    }
    let plain = |h: &str| {
        !h.is_empty()
            && h.len() <= 255
            && h.chars()
                .all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | ':' | '[' | ']'))
    };
    match host {
        Some(h) if plain(h) => format!("http://{h}"),
        _ => format!("http://{fallback}"),
    }
}

/// The game as text, ending with a newline: PGN for chess, Horde and
/// Atomic; the same tags and layout with WXF moves for Xiangqi.
///
/// Moves are numbered from the start position's full-move number, with
/// `N...` before the first move when Black starts. A game the rules ended
/// has the reason as a comment after its last move (`{ checkmate }`).
pub(crate) fn export(game: &AnyGame, info: &ExportInfo<'_>) -> String {
    let variant = game.variant();
    let start_fen = game.start_fen();
    let (result, termination) = match (info.ending, game.outcome()) {
        (
            Some(Ending::Decided {
                winner,
                termination,
            }),
            _,
        ) => (result_token(winner), termination.tag()),
        (Some(Ending::Aborted), _) => ("*", "Unterminated"),
        // The record ended but the room did not say how: the rules did.
        (None, Some(o)) => (result_token(o.winner), Termination::Normal.tag()),
        (None, None) => ("*", "Unterminated"),
    };
    let (date, time) = utc_date_time(info.created_ms);
    let mut tags: Vec<(&str, String)> = vec![
        ("Event", format!("Casual {} game", variant.pgn_name())),
        ("Site", format!("{}/r/{}", info.site, info.room_id)),
        ("Date", date.clone()),
        ("Round", "-".to_owned()),
        ("White", info.players.white.name()),
        ("Black", info.players.black.name()),
        ("Result", result.to_owned()),
        ("Variant", variant.pgn_name().to_owned()),
    ];
    if start_fen != variant.start_fen() {
        tags.push(("FEN", start_fen.clone()));
        tags.push(("SetUp", "1".to_owned()));
    }
    tags.push(("Termination", termination.to_owned()));
    tags.push(("TimeControl", time_control(info.clock)));
    tags.push(("UTCDate", date));
    tags.push(("UTCTime", time));

    let mut out = String::new();
    for (name, value) in &tags {
        write_pgn_tag(&mut out, name, value);
    }
    out.push('\n');
    let (turn, number) = fen_turn_and_number(&start_fen);
    let sans: Vec<String> = game
        .history()
        .into_iter()
        .map(|played| played.san)
        .collect();
    let reason = game.outcome().map(|o| o.reason.to_string());
    write_pgn_movetext(&mut out, turn, number, &sans, reason.as_deref(), result);
    out
}

/// The PGN result of a winner (`None`: a draw).
const fn result_token(winner: Option<Color>) -> &'static str {
    match winner {
        Some(Color::White) => "1-0",
        Some(Color::Black) => "0-1",
        None => "1/2-1/2",
    }
}

/// `"300+3"` (seconds + increment seconds), or `"-"` without a clock.
/// The starting time is rounded to whole seconds, as the tag has no
/// fractions (the API takes minutes with decimals).
fn time_control(clock: Option<ClockConfig>) -> String {
    match clock {
        None => "-".to_owned(),
        Some(c) => format!(
            "{}+{}",
            c.initial.saturating_add(500) / 1000,
            c.increment / 1000
        ),
    }
}

/// The side to move and the full-move number of a FEN (its second and
/// sixth fields; both games' FENs have them). The rules wrote the FEN, so
/// a missing field only falls back to White and 1.
fn fen_turn_and_number(fen: &str) -> (Color, u32) {
    let fields: Vec<&str> = fen.split_whitespace().collect();
    let turn = match fields.get(1) {
        Some(&"b") => Color::Black,
        _ => Color::White,
    };
    let number = fields
        .get(5)
        .and_then(|n| n.parse::<u32>().ok())
        .filter(|&n| n > 0)
        .unwrap_or(1);
    (turn, number)
}

/// `("YYYY.MM.DD", "HH:MM:SS")` in UTC of a Unix time in milliseconds.
fn utc_date_time(unix_ms: u64) -> (String, String) {
    let secs = unix_ms / 1000;
    let days = secs / 86_400;
    let rest = secs % 86_400;
    let (year, month, day) = civil_from_days(days);
    (
        format!("{year:04}.{month:02}.{day:02}"),
        format!(
            "{:02}:{:02}:{:02}",
            rest / 3600,
            rest % 3600 / 60,
            rest % 60
        ),
    )
}

/// The proleptic Gregorian date of a day count since 1970-01-01, by
/// counting 400-year eras of 146,097 days from 0000-03-01 (so that the
/// leap day ends each year of the count).
fn civil_from_days(days: u64) -> (u64, u64, u64) {
    // Days since 0000-03-01.
    let z = days + 719_468;
    let era = z / 146_097;
    let doe = z % 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = era * 400 + yoe + u64::from(month <= 2);
    (year, month, day)
}

#[cfg(test)]
mod tests;
