//! `chessplayx status --variant V [--fen F] [--moves "m1 m2 ..."]`: one
//! position's state as a single JSON object, the interface the conformance
//! tools (`diffcheck.py`, `casecheck.py`) read.

use std::io::{self, Write};

use chessplayx_rules::{Claim, Color, Outcome, Variant};
use serde::Serialize;

use crate::games::{OpenError, ReplayError};

/// Arguments of `status`.
#[derive(Debug, clap::Args)]
pub(crate) struct StatusArgs {
    /// chess, horde, atomic or xiangqi.
    #[arg(long)]
    variant: Variant,
    /// Start from this FEN instead of the variant's start position.
    #[arg(long)]
    fen: Option<String>,
    /// UCI moves played from the start, separated by spaces; an empty
    /// string means none.
    #[arg(long, default_value = "")]
    moves: String,
}

/// The JSON `status` prints. Field names and value spellings are a public
/// interface (the conformance tools and, later, the web app read them).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub(crate) struct Status {
    /// `chess`, `horde`, `atomic` or `xiangqi`.
    pub(crate) variant: Variant,
    /// The position after the moves, in Fairy-Stockfish's FEN.
    pub(crate) fen: String,
    /// The side to move: `white` or `black` (Red is `white`).
    pub(crate) turn: Color,
    /// Whether the side to move is in check.
    pub(crate) check: bool,
    /// Every legal move in UCI notation (empty once the game is over).
    pub(crate) legal_moves: Vec<String>,
    /// The last move in SAN; `null` before the first move.
    pub(crate) san: Option<String>,
    /// `null` while the game goes on, else `{"winner": "white"|"black"|null,
    /// "reason": "<snake_case>"}`.
    pub(crate) outcome: Option<Outcome>,
    /// The draws the side to move may claim now (`threefold_repetition`,
    /// `fifty_moves`); empty when none.
    pub(crate) claimable: Vec<Claim>,
    /// Xiangqi's extra fields, present only for Xiangqi.
    #[serde(flatten)]
    pub(crate) xiangqi: Option<XiangqiStatus>,
}

/// The fields `status` adds for Xiangqi.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub(crate) struct XiangqiStatus {
    /// The last move in WXF notation (`C2=5`); `null` before the first move.
    pub(crate) wxf: Option<String>,
    /// The three draw counters of the Asian rules.
    pub(crate) counters: Counters,
    // LEAD (xiangqi): the perpetual check/chase streaks go here later.
}

/// Xiangqi's draw counters, in plies (the rules page counts moves of both
/// sides; the JSON keeps plies to stay exact).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize)]
pub(crate) struct Counters {
    /// Plies since the start of the game.
    pub(crate) total_plies: u32,
    /// Plies since the last capture or soldier advance.
    pub(crate) progress_plies: u32,
    /// Plies that count toward the effective-moves limit.
    pub(crate) effective_plies: u32,
}

/// Why `status` failed. Each message names the field or the ply at fault,
/// and the command exits non-zero.
#[derive(Debug, thiserror::Error)]
pub(crate) enum StatusError {
    /// The position could not be set up (bad FEN, or the variant is not
    /// built yet).
    #[error(transparent)]
    Open(#[from] OpenError),
    /// A move of `--moves` is malformed or illegal.
    #[error(transparent)]
    Replay(#[from] ReplayError),
    // LEAD: a move after the game has ended, e.g.
    // `#[error("move {ply} ({text}): the game is already over ({reason})")] AfterEnd { .. }`.
    /// Standard output failed.
    #[error("writing output: {0}")]
    Output(#[from] io::Error),
}

/// The state after playing `moves` from `fen` (the start position when
/// `None`).
///
/// LEAD: fill once the rules families land: set up the game record from
/// `variant`/`fen`, play the moves (stopping with [`ReplayError`] at the
/// first malformed or illegal one, and with an error for a move after the
/// end), then build [`Status`] (with [`XiangqiStatus`] for Xiangqi only)
/// and remove the `expect(dead_code)` on `mod games` in `main.rs`.
///
/// # Errors
///
/// An invalid FEN, a bad move (with its ply), or a move after the end.
pub(crate) fn status(
    variant: Variant,
    fen: Option<&str>,
    moves: &[&str],
) -> Result<Status, StatusError> {
    let _ = (fen, moves);
    Err(OpenError::NotBuilt { variant }.into())
}

/// Prints the status as one line of JSON.
///
/// # Errors
///
/// See [`status`]; also a failed write.
pub(crate) fn run(args: &StatusArgs, out: &mut impl Write) -> Result<(), StatusError> {
    let moves: Vec<&str> = args.moves.split_whitespace().collect();
    let status = status(args.variant, args.fen.as_deref(), &moves)?;
    serde_json::to_writer(&mut *out, &status).map_err(io::Error::from)?;
    writeln!(out)?;
    out.flush()?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use chessplayx_rules::EndReason;
    use serde_json::json;

    use super::*;

    fn chess_status() -> Status {
        Status {
            variant: Variant::Chess,
            fen: "rnbqkbnr/pppp1ppp/8/4p3/6P1/5P2/PPPPP2P/RNBQKBNR w KQkq - 0 3".into(),
            turn: Color::White,
            check: true,
            legal_moves: vec![],
            san: Some("Qh4#".into()),
            outcome: Some(Outcome::win(Color::Black, EndReason::Checkmate)),
            claimable: vec![],
            xiangqi: None,
        }
    }

    #[test]
    fn chess_status_has_exactly_the_documented_fields() {
        assert_eq!(
            serde_json::to_value(chess_status()).unwrap(),
            json!({
                "variant": "chess",
                "fen": "rnbqkbnr/pppp1ppp/8/4p3/6P1/5P2/PPPPP2P/RNBQKBNR w KQkq - 0 3",
                "turn": "white",
                "check": true,
                "legal_moves": [],
                "san": "Qh4#",
                "outcome": {"winner": "black", "reason": "checkmate"},
                "claimable": [],
            })
        );
    }

    #[test]
    fn game_in_progress_has_null_outcome_and_san_before_any_move() {
        let status = Status {
            variant: Variant::Horde,
            turn: Color::Black,
            check: false,
            legal_moves: vec!["e7e5".into(), "g8f6".into()],
            san: None,
            outcome: None,
            claimable: vec![Claim::ThreefoldRepetition, Claim::FiftyMoves],
            ..chess_status()
        };
        let value = serde_json::to_value(status).unwrap();
        assert_eq!(value["variant"], "horde");
        assert_eq!(value["turn"], "black");
        assert_eq!(value["san"], serde_json::Value::Null);
        assert_eq!(value["outcome"], serde_json::Value::Null);
        assert_eq!(value["legal_moves"], json!(["e7e5", "g8f6"]));
        assert_eq!(
            value["claimable"],
            json!(["threefold_repetition", "fifty_moves"])
        );
        assert!(value.get("wxf").is_none() && value.get("counters").is_none());
    }

    #[test]
    fn draw_has_null_winner() {
        let status = Status {
            outcome: Some(Outcome::draw(EndReason::InsufficientMaterial)),
            ..chess_status()
        };
        assert_eq!(
            serde_json::to_value(status).unwrap()["outcome"],
            json!({"winner": null, "reason": "insufficient_material"})
        );
    }

    #[test]
    fn xiangqi_status_adds_wxf_and_counters_at_top_level() {
        let status = Status {
            variant: Variant::Xiangqi,
            fen: "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 1 1".into(),
            turn: Color::Black,
            check: false,
            legal_moves: vec!["h8e8".into()],
            san: None,
            outcome: Some(Outcome::win(Color::White, EndReason::PerpetualChase)),
            claimable: vec![],
            xiangqi: Some(XiangqiStatus {
                wxf: Some("C2=5".into()),
                counters: Counters {
                    total_plies: 1,
                    progress_plies: 1,
                    effective_plies: 0,
                },
            }),
        };
        let value = serde_json::to_value(status).unwrap();
        assert_eq!(value["variant"], "xiangqi");
        assert_eq!(value["wxf"], "C2=5");
        assert_eq!(
            value["counters"],
            json!({"total_plies": 1, "progress_plies": 1, "effective_plies": 0})
        );
        assert_eq!(
            value["outcome"],
            json!({"winner": "white", "reason": "perpetual_chase"})
        );
        let keys: Vec<&str> = value
            .as_object()
            .unwrap()
            .keys()
            .map(String::as_str)
            .collect();
        assert_eq!(keys.len(), 10, "{keys:?}");
    }

    #[test]
    fn xiangqi_before_any_move_keeps_a_null_wxf() {
        let status = Status {
            variant: Variant::Xiangqi,
            xiangqi: Some(XiangqiStatus {
                wxf: None,
                counters: Counters {
                    total_plies: 0,
                    progress_plies: 0,
                    effective_plies: 0,
                },
            }),
            ..chess_status()
        };
        let value = serde_json::to_value(status).unwrap();
        assert_eq!(value.get("wxf"), Some(&serde_json::Value::Null));
    }
}
