//! `chessplayx status --variant V [--fen F] [--moves "m1 m2 ..."]`: one
//! position's state as a single JSON object, the interface the conformance
//! tools (`diffcheck.py`, `casecheck.py`) read. The JSON is the rules
//! crate's [`GameStatus`], the same the server sends.

use std::io::{self, Write};

use chessplayx_rules::{AnyGame, GameStatus, ReplayError, Variant};

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

/// Why `status` failed. Each message names the field or the ply at fault,
/// and the command exits non-zero.
#[derive(Debug, thiserror::Error)]
pub(crate) enum StatusError {
    /// A bad FEN, or a move of `--moves` that is malformed, illegal or
    /// comes after the end of the game (with its 1-based ply).
    #[error(transparent)]
    Replay(#[from] ReplayError),
    /// Standard output failed.
    #[error("writing output: {0}")]
    Output(#[from] io::Error),
}

/// The state after playing `moves` from `fen` (the start position when
/// `None`), judged by the variant's game record so that history-based
/// endings (repetition, move counters, Xiangqi's perpetual rules) count.
///
/// # Errors
///
/// An invalid FEN, a bad move (with its ply), or a move after the end.
pub(crate) fn status(
    variant: Variant,
    fen: Option<&str>,
    moves: &[&str],
) -> Result<GameStatus, StatusError> {
    Ok(AnyGame::replay(variant, fen, moves)?.status())
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
    use chessplayx_rules::{Claim, Color, EndReason, Outcome};
    use serde_json::json;

    use super::*;

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
        let value = serde_json::to_value(&st).unwrap();
        assert_eq!(
            value["outcome"],
            json!({"winner": "black", "reason": "checkmate"})
        );
        assert_eq!(value["turn"], "white");
        assert!(
            value.get("counters").is_none(),
            "xiangqi fields only in xiangqi"
        );
    }

    #[test]
    fn a_move_after_the_end_names_its_ply() {
        let err = status(
            Variant::Chess,
            None,
            &["f2f3", "e7e5", "g2g4", "d8h4", "a2a3"],
        )
        .unwrap_err();
        assert!(err.to_string().starts_with("move 5 (a2a3)"), "{err}");
    }

    #[test]
    fn an_illegal_move_names_its_ply_and_a_bad_fen_its_field() {
        let err = status(Variant::Chess, None, &["e2e4", "e2e4"]).unwrap_err();
        assert!(err.to_string().starts_with("move 2 (e2e4)"), "{err}");
        let err = status(Variant::Horde, Some("8/8/8 w - - 0 1"), &[]).unwrap_err();
        assert!(err.to_string().contains("invalid FEN"), "{err}");
    }

    #[test]
    fn knight_shuffle_offers_the_threefold_claim() {
        let shuffle = ["g1f3", "g8f6", "f3g1", "f6g8"];
        let twice: Vec<&str> = shuffle.iter().chain(shuffle.iter()).copied().collect();
        let st = status(Variant::Chess, None, &twice).unwrap();
        assert_eq!(st.claimable, vec![Claim::ThreefoldRepetition]);
        assert_eq!(st.outcome, None);
        let value = serde_json::to_value(&st).unwrap();
        assert_eq!(value["claimable"], json!(["threefold_repetition"]));
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
        let value = serde_json::to_value(&before).unwrap();
        assert_eq!(value["wxf"], "R2-1"); // ply 11 is h10h9, the chariot stepping back
        assert_eq!(value["counters"]["total_plies"], 11);
        assert_eq!(value["streaks"]["white"]["check"]["len"], 6);
        assert_eq!(value["streaks"]["white"]["check"]["limit"], 6);
    }
}
