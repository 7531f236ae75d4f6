//! `chessplayx status --variant V [--fen F] [--moves "m1 m2 ..."]`: one
//! position's state as a single JSON object, the interface the conformance
//! tools (`diffcheck.py`, `casecheck.py`) read.

use std::io::{self, Write};

use chessplayx_rules::chess::{Atomic, ChessGame, Horde, PlayUciError, Position, Rules, Standard};
use chessplayx_rules::xiangqi::{StreakInfo, Streaks, XiangqiGame, XiangqiPlayError};
use chessplayx_rules::{ByColor, Claim, Color, EndReason, Game, MoveError, Outcome, Variant};
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
    /// Each side's running check and chase streaks (§7.5), so a client can
    /// show how close a side is to losing by the perpetual rules.
    pub(crate) streaks: ByColor<SideStreaks>,
}

/// One side's running streaks, with squares in UCI coordinates.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub(crate) struct SideStreaks {
    /// The current run of consecutive checks (`len` 0 when none).
    pub(crate) check: StreakJson,
    /// The current runs of chases, one per chased piece.
    pub(crate) chases: Vec<ChaseJson>,
}

/// A run of consecutive checks or chases.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub(crate) struct StreakJson {
    /// Consecutive own moves in the run.
    pub(crate) len: u32,
    /// The longest run allowed with this many pieces.
    pub(crate) limit: u32,
    /// The squares of the pieces that took part.
    pub(crate) pieces: Vec<String>,
}

/// A run of chases of one piece.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub(crate) struct ChaseJson {
    /// The square of the chased piece.
    pub(crate) target: String,
    /// The run.
    #[serde(flatten)]
    pub(crate) streak: StreakJson,
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
    /// A move of `--moves` comes after the game has ended.
    #[error("move {ply} ({text}): the game is already over ({reason})")]
    AfterEnd {
        /// The 1-based index of the move in the list.
        ply: usize,
        /// The move as given.
        text: String,
        /// How the game ended.
        reason: EndReason,
    },
    /// Standard output failed.
    #[error("writing output: {0}")]
    Output(#[from] io::Error),
}

/// The state after playing `moves` from `fen` (the start position when
/// `None`), judged by the game record of the variant so that history-based
/// endings (repetition, move counters, Xiangqi's perpetual rules) count.
///
/// # Errors
///
/// An invalid FEN, a bad move (with its ply), or a move after the end.
pub(crate) fn status(
    variant: Variant,
    fen: Option<&str>,
    moves: &[&str],
) -> Result<Status, StatusError> {
    match variant {
        Variant::Chess => chess_status::<Standard>(fen, moves),
        Variant::Horde => chess_status::<Horde>(fen, moves),
        Variant::Atomic => chess_status::<Atomic>(fen, moves),
        Variant::Xiangqi => xiangqi_status(fen, moves),
    }
}

fn chess_status<R: Rules>(fen: Option<&str>, moves: &[&str]) -> Result<Status, StatusError>
where
    Position<R>: Game<Move = chessplayx_rules::chess::Move>,
{
    let mut game = match fen {
        Some(fen) => ChessGame::<R>::from_fen(fen).map_err(OpenError::from)?,
        None => ChessGame::<R>::new(),
    };
    for (i, &text) in moves.iter().enumerate() {
        let replay = |source| ReplayError {
            ply: i + 1,
            text: text.to_owned(),
            source,
        };
        match game.play_uci(text) {
            Ok(_) => {}
            Err(PlayUciError::GameOver { outcome }) => {
                return Err(StatusError::AfterEnd {
                    ply: i + 1,
                    text: text.to_owned(),
                    reason: outcome.reason,
                });
            }
            Err(PlayUciError::Syntax(_)) => {
                return Err(replay(MoveError::Syntax {
                    text: text.to_owned(),
                })
                .into());
            }
            Err(PlayUciError::Illegal(_)) => {
                return Err(replay(MoveError::Illegal {
                    text: text.to_owned(),
                })
                .into());
            }
        }
    }
    let pos = game.position();
    Ok(Status {
        variant: pos.variant(),
        fen: pos.fen(),
        turn: pos.turn(),
        check: pos.is_check(),
        legal_moves: game
            .legal_moves()
            .into_iter()
            .map(|m| pos.move_to_uci(m))
            .collect(),
        san: game.last_san().map(str::to_owned),
        outcome: game.outcome(),
        claimable: game.claimable(),
        xiangqi: None,
    })
}

fn xiangqi_status(fen: Option<&str>, moves: &[&str]) -> Result<Status, StatusError> {
    let mut game = match fen {
        Some(fen) => XiangqiGame::from_fen(fen).map_err(OpenError::from)?,
        None => XiangqiGame::start(),
    };
    for (i, &text) in moves.iter().enumerate() {
        let after_end = |reason| StatusError::AfterEnd {
            ply: i + 1,
            text: text.to_owned(),
            reason,
        };
        if let Some(outcome) = game.outcome() {
            return Err(after_end(outcome.reason));
        }
        let mv = game
            .position()
            .parse_uci(text)
            .map_err(|source| ReplayError {
                ply: i + 1,
                text: text.to_owned(),
                source,
            })?;
        match game.play(mv) {
            Ok(_) => {}
            Err(XiangqiPlayError::GameOver { outcome }) => return Err(after_end(outcome.reason)),
            Err(XiangqiPlayError::Illegal { .. } | XiangqiPlayError::Forbidden { .. }) => {
                let source = MoveError::Illegal {
                    text: text.to_owned(),
                };
                return Err(ReplayError {
                    ply: i + 1,
                    text: text.to_owned(),
                    source,
                }
                .into());
            }
        }
    }
    let pos = game.position();
    let counters = game.counters();
    let wxf = game.last_move_wxf();
    Ok(Status {
        variant: Variant::Xiangqi,
        fen: pos.fen(),
        turn: pos.turn(),
        check: game.is_check(),
        legal_moves: game.legal_moves().into_iter().map(|m| m.to_uci()).collect(),
        san: wxf.clone(),
        outcome: game.outcome(),
        claimable: Vec::new(),
        xiangqi: Some(XiangqiStatus {
            wxf,
            counters: Counters {
                total_plies: counters.total_plies,
                progress_plies: counters.progress_plies,
                effective_plies: counters.effective_plies,
            },
            streaks: ByColor::new(
                side_streaks(&game.streaks(Color::White)),
                side_streaks(&game.streaks(Color::Black)),
            ),
        }),
    })
}

fn streak_json(info: &StreakInfo) -> StreakJson {
    StreakJson {
        len: info.len,
        limit: info.limit,
        pieces: info.pieces.into_iter().map(|sq| sq.to_string()).collect(),
    }
}

fn side_streaks(streaks: &Streaks) -> SideStreaks {
    SideStreaks {
        check: streak_json(&streaks.check),
        chases: streaks
            .chases
            .iter()
            .map(|c| ChaseJson {
                target: c.target.to_string(),
                streak: streak_json(&c.streak),
            })
            .collect(),
    }
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
                streaks: ByColor::default(),
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
        assert_eq!(keys.len(), 11, "{keys:?}");
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
                streaks: ByColor::default(),
            }),
            ..chess_status()
        };
        let value = serde_json::to_value(status).unwrap();
        assert_eq!(value.get("wxf"), Some(&serde_json::Value::Null));
    }

    #[test]
    fn fools_mate_is_checkmate_with_the_mate_sign() {
        let st = status(Variant::Chess, None, &["f2f3", "e7e5", "g2g4", "d8h4"]).unwrap();
        assert_eq!(st.san.as_deref(), Some("Qh4#"));
        assert_eq!(
            st.outcome,
            Some(Outcome::win(Color::Black, EndReason::Checkmate))
        );
        assert!(st.check);
        assert!(st.legal_moves.is_empty());
    }

    #[test]
    fn a_move_after_the_end_names_its_ply() {
        let err = status(
            Variant::Chess,
            None,
            &["f2f3", "e7e5", "g2g4", "d8h4", "a2a3"],
        )
        .unwrap_err();
        assert!(matches!(err, StatusError::AfterEnd { ply: 5, .. }), "{err}");
    }

    #[test]
    fn knight_shuffle_offers_the_threefold_claim() {
        let shuffle = ["g1f3", "g8f6", "f3g1", "f6g8"];
        let twice: Vec<&str> = shuffle.iter().chain(shuffle.iter()).copied().collect();
        let st = status(Variant::Chess, None, &twice).unwrap();
        assert_eq!(st.claimable, vec![Claim::ThreefoldRepetition]);
        assert_eq!(st.outcome, None);
    }

    #[test]
    fn xiangqi_perpetual_check_loses_for_the_checker() {
        // The rules page's worked example: Red checks with one chariot; the
        // seventh check of the run is one too many.
        let fen = "5k3/7R1/5a3/9/9/9/9/9/9/4K4 w - - 0 1";
        let cycle = ["h9h10", "f10f9", "h10h9", "f9f10"];
        let moves: Vec<&str> = cycle.iter().cycle().take(13).copied().collect();
        let st = status(Variant::Xiangqi, Some(fen), &moves).unwrap();
        assert_eq!(
            st.outcome,
            Some(Outcome::win(Color::Black, EndReason::PerpetualCheck))
        );
        let before = status(Variant::Xiangqi, Some(fen), &moves[..11]).unwrap();
        assert_eq!(before.outcome, None);
        let xq = before.xiangqi.unwrap();
        assert_eq!(
            (xq.streaks.white.check.len, xq.streaks.white.check.limit),
            (6, 6)
        );
    }
}
