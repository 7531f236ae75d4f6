//! [`AnyGame`]: one game record whatever the variant, for code that picks
//! the variant at run time (the server, the `status` command).
//!
//! The concrete records ([`ChessGame`], [`XiangqiGame`]) stay the place where
//! rules live; this module only dispatches and shapes their answers into
//! the JSON-ready [`GameStatus`] that every client reads, so the command
//! line and the server cannot drift apart.

use crate::chess::{self, Atomic, ChessGame, Horde, PgnTags, PlayUciError, Rules, Standard};
use crate::xiangqi::{self, Counters, StreakInfo, Streaks, XiangqiGame, XiangqiPlayError};
use crate::{ByColor, Claim, Color, EndReason, Game, MoveError, Notation, Outcome, Variant};

/// A game of any variant: its start, its moves, its position and its end.
#[derive(Clone, Debug)]
pub enum AnyGame {
    /// Standard chess.
    Chess(ChessGame<Standard>),
    /// Horde.
    Horde(ChessGame<Horde>),
    /// Atomic.
    Atomic(ChessGame<Atomic>),
    /// Xiangqi under the Asian rules (boxed: its record carries piece ids,
    /// streaks and threat maps, several times an 8×8 record's size).
    Xiangqi(Box<XiangqiGame>),
}

/// Why a game could not be set up.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum OpenError {
    /// The FEN is not a legal position of an 8×8 game.
    #[error("invalid FEN: {0}")]
    ChessFen(#[from] chess::FenError),
    /// The FEN is not a legal Xiangqi position.
    #[error("invalid FEN: {0}")]
    XiangqiFen(#[from] xiangqi::FenError),
}

/// Why a move could not be played in a game.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum AnyPlayError {
    /// The text is no move, or the move is not legal here.
    #[error(transparent)]
    Move(#[from] MoveError),
    /// The game has already ended.
    #[error("the game is already over ({})", outcome.reason)]
    GameOver {
        /// How it ended.
        outcome: Outcome,
    },
}

/// Why a draw claim was refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum AnyClaimError {
    /// The 8×8 rules do not allow this claim now.
    #[error(transparent)]
    Chess(#[from] chess::ClaimError),
    /// Xiangqi has no claimable draws: its counters end games by themselves.
    #[error("xiangqi has no draw claims")]
    NotInXiangqi,
}

/// A move just played, in both notations a client needs.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct PlayedMove {
    /// UCI coordinates.
    pub uci: String,
    /// SAN for the 8×8 games, WXF for Xiangqi.
    pub san: String,
}

/// A legal move with what a board needs to show it.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct MoveInfo {
    /// UCI coordinates.
    #[cfg_attr(feature = "ts", ts(type = "string"))]
    pub uci: Notation,
    /// SAN for the 8×8 games, WXF for Xiangqi.
    #[cfg_attr(feature = "ts", ts(type = "string"))]
    pub san: Notation,
    /// Origin square (`e2`, `b10`).
    #[cfg_attr(feature = "ts", ts(type = "string"))]
    pub from: Notation,
    /// Destination square (castling: the king's destination).
    #[cfg_attr(feature = "ts", ts(type = "string"))]
    pub to: Notation,
    /// Promotion piece letter (`q`, `r`, `b`, `n`), if any.
    pub promotion: Option<char>,
}

/// A Xiangqi move that would lose by the advanced rules or extend a
/// streak, so a client can warn before it is played.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct MoveWarningInfo {
    /// The move, in UCI coordinates.
    pub uci: String,
    /// `true` when playing it loses the game for the mover.
    pub loses: bool,
    /// `true` when the configuration refuses the move instead (the
    /// "forbid" violation mode).
    pub forbidden: bool,
    /// The end of the game the move would bring, if any.
    pub outcome: Option<Outcome>,
    /// The check streak the move would extend.
    pub check: Option<StreakJson>,
    /// The chase streaks the move would extend.
    pub chases: Vec<ChaseJson>,
}

/// The state of a game as clients read it: the JSON of `chessplayx status`
/// and of the server's position service. Field names are a public interface.
/// Serialized by hand (below): with `#[serde(flatten)]` serde writes the
/// whole struct through its slower map path, and the server encodes a
/// status after every move.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Deserialize))]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[cfg_attr(feature = "ts", ts(rename = "GameStatusCore"))]
pub struct GameStatus {
    /// `chess`, `horde`, `atomic` or `xiangqi`.
    pub variant: Variant,
    /// The current position in Fairy-Stockfish's FEN.
    pub fen: String,
    /// The side to move (Red is `white`).
    pub turn: Color,
    /// Whether the side to move is in check.
    pub check: bool,
    /// Every legal move in UCI notation (empty once the game is over).
    #[cfg_attr(feature = "ts", ts(type = "Array<string>"))]
    pub legal_moves: Vec<Notation>,
    /// The last move in SAN (WXF in Xiangqi); `null` before the first move.
    pub san: Option<String>,
    /// `null` while the game goes on.
    pub outcome: Option<Outcome>,
    /// The draws the side to move may claim now.
    pub claimable: Vec<Claim>,
    /// Xiangqi's extra fields, present only for Xiangqi. (ts-rs cannot
    /// flatten an `Option`: the server's TypeScript generator declares
    /// `GameStatus` as this type's other fields and `Partial<XiangqiStatus>`,
    /// and names that type where a message carries a status.)
    #[cfg_attr(feature = "serde", serde(flatten))]
    #[cfg_attr(feature = "ts", ts(skip))]
    pub xiangqi: Option<XiangqiStatus>,
}

#[cfg(feature = "serde")]
impl serde::Serialize for GameStatus {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct as _;
        let fields = if self.xiangqi.is_some() { 11 } else { 8 };
        let mut st = s.serialize_struct("GameStatus", fields)?;
        st.serialize_field("variant", &self.variant)?;
        st.serialize_field("fen", &self.fen)?;
        st.serialize_field("turn", &self.turn)?;
        st.serialize_field("check", &self.check)?;
        st.serialize_field("legal_moves", &self.legal_moves)?;
        st.serialize_field("san", &self.san)?;
        st.serialize_field("outcome", &self.outcome)?;
        st.serialize_field("claimable", &self.claimable)?;
        if let Some(x) = &self.xiangqi {
            st.serialize_field("wxf", &x.wxf)?;
            st.serialize_field("counters", &x.counters)?;
            st.serialize_field("streaks", &x.streaks)?;
        }
        st.end()
    }
}

/// The fields [`GameStatus`] adds for Xiangqi.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct XiangqiStatus {
    /// The last move in WXF notation; `null` before the first move.
    pub wxf: Option<String>,
    /// The three draw counters of the Asian rules, in plies.
    pub counters: Counters,
    /// Each side's running check and chase streaks, so a client can show
    /// how close a side is to losing by the perpetual rules.
    pub streaks: ByColor<SideStreaks>,
}

/// One side's running streaks, squares in UCI coordinates.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct SideStreaks {
    /// The current run of consecutive checks (`len` 0 when none).
    pub check: StreakJson,
    /// The current runs of chases, one per chased piece.
    pub chases: Vec<ChaseJson>,
}

/// A run of consecutive checks or chases.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct StreakJson {
    /// Consecutive own moves in the run.
    pub len: u32,
    /// The longest run allowed with this many pieces.
    pub limit: u32,
    /// The squares of the pieces that took part.
    pub pieces: Vec<String>,
}

/// A run of chases of one piece.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct ChaseJson {
    /// The square of the chased piece.
    pub target: String,
    /// The run.
    #[cfg_attr(feature = "serde", serde(flatten))]
    pub streak: StreakJson,
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

/// Runs `$body` with `$g` bound to the 8×8 record, whatever its rules, or
/// `$x` for Xiangqi.
macro_rules! dispatch {
    ($self:expr, $g:ident => $chess:expr, $x:ident => $xiangqi:expr) => {
        match $self {
            AnyGame::Chess($g) => $chess,
            AnyGame::Horde($g) => $chess,
            AnyGame::Atomic($g) => $chess,
            AnyGame::Xiangqi($x) => $xiangqi,
        }
    };
}

fn open_chess<R: Rules>(fen: Option<&str>) -> Result<ChessGame<R>, OpenError> {
    Ok(match fen {
        Some(fen) => ChessGame::from_fen(fen)?,
        None => ChessGame::new(),
    })
}

fn chess_play<R: Rules>(game: &mut ChessGame<R>, text: &str) -> Result<PlayedMove, AnyPlayError> {
    let text_err = |illegal: bool| {
        let text = text.to_owned();
        AnyPlayError::Move(if illegal {
            MoveError::Illegal { text }
        } else {
            MoveError::Syntax { text }
        })
    };
    match game.play_uci(text) {
        Ok(mv) => Ok(PlayedMove {
            uci: mv.to_uci().to_string(),
            san: game.last_san().unwrap_or_default(),
        }),
        Err(PlayUciError::GameOver { outcome }) => Err(AnyPlayError::GameOver { outcome }),
        Err(PlayUciError::Syntax(_)) => Err(text_err(false)),
        Err(PlayUciError::Illegal(_)) => Err(text_err(true)),
    }
}

fn chess_moves<R: Rules>(game: &ChessGame<R>) -> Vec<MoveInfo> {
    let pos = game.position();
    let legal = game.legal_moves();
    legal
        .iter()
        .map(|&mv| {
            let uci = Notation::of(mv.to_uci());
            MoveInfo {
                san: Notation::of(chess::SanPlus::from_move_among(pos, mv, &legal)),
                from: Notation::from_text(mv.from().name()),
                // The UCI destination: the king's square when castling.
                to: Notation::from_text(uci.get(2..4).unwrap_or_default()),
                uci,
                promotion: mv.promotion().map(|r| r.char()),
            }
        })
        .collect()
}

fn xiangqi_export(game: &XiangqiGame) -> String {
    let mut pos = game.start_position().clone();
    let mut out = String::new();
    out.push_str(&format!("[Variant \"Xiangqi\"]\n[FEN \"{}\"]\n", pos.fen()));
    let result = match game.outcome() {
        None => "*".to_owned(),
        Some(o) => match o.winner {
            Some(Color::White) => "1-0".to_owned(),
            Some(Color::Black) => "0-1".to_owned(),
            None => "1/2-1/2".to_owned(),
        },
    };
    out.push_str(&format!("[Result \"{result}\"]\n"));
    if let Some(o) = game.outcome() {
        out.push_str(&format!("[Termination \"{}\"]\n", o.reason));
    }
    out.push('\n');
    let mut line = String::new();
    for (i, &mv) in game.moves().iter().enumerate() {
        let ply = pos.game_ply();
        let token = if pos.turn() == Color::White || i == 0 {
            let number = ply / 2 + 1;
            let dots = if pos.turn() == Color::White {
                "."
            } else {
                "..."
            };
            format!("{number}{dots} {}", pos.wxf(mv))
        } else {
            pos.wxf(mv)
        };
        if !line.is_empty() && line.len() + 1 + token.len() > 79 {
            out.push_str(&line);
            out.push('\n');
            line.clear();
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(&token);
        pos.play_unchecked(mv);
    }
    if !line.is_empty() && line.len() + 1 + result.len() > 79 {
        out.push_str(&line);
        out.push('\n');
        line.clear();
    }
    if !line.is_empty() {
        line.push(' ');
    }
    line.push_str(&result);
    out.push_str(&line);
    out.push('\n');
    out
}

impl AnyGame {
    /// A new game of `variant` from `fen`, or from the start when `None`.
    ///
    /// # Errors
    ///
    /// The FEN is malformed or not a legal position of this variant.
    pub fn new(variant: Variant, fen: Option<&str>) -> Result<Self, OpenError> {
        Ok(match variant {
            Variant::Chess => Self::Chess(open_chess(fen)?),
            Variant::Horde => Self::Horde(open_chess(fen)?),
            Variant::Atomic => Self::Atomic(open_chess(fen)?),
            Variant::Xiangqi => Self::Xiangqi(Box::new(match fen {
                Some(fen) => XiangqiGame::from_fen(fen)?,
                None => XiangqiGame::start(),
            })),
        })
    }

    /// A game of `variant` from `fen` with `moves` (UCI) played.
    ///
    /// # Errors
    ///
    /// A bad FEN, or the first move that cannot be played with its
    /// 1-based index.
    pub fn replay<S: AsRef<str>>(
        variant: Variant,
        fen: Option<&str>,
        moves: &[S],
    ) -> Result<Self, ReplayError> {
        let mut game = Self::new(variant, fen)?;
        for (i, text) in moves.iter().enumerate() {
            let text = text.as_ref();
            game.play_uci(text).map_err(|source| ReplayError::Move {
                ply: i + 1,
                text: text.to_owned(),
                source,
            })?;
        }
        Ok(game)
    }

    /// Which game this is.
    #[must_use]
    pub const fn variant(&self) -> Variant {
        match self {
            Self::Chess(_) => Variant::Chess,
            Self::Horde(_) => Variant::Horde,
            Self::Atomic(_) => Variant::Atomic,
            Self::Xiangqi(_) => Variant::Xiangqi,
        }
    }

    /// The side to move.
    #[must_use]
    pub fn turn(&self) -> Color {
        dispatch!(self, g => g.position().turn(), x => x.turn())
    }

    /// The current position's FEN.
    #[must_use]
    pub fn fen(&self) -> String {
        dispatch!(self, g => g.position().fen(), x => x.position().fen())
    }

    /// The start position's FEN.
    #[must_use]
    pub fn start_fen(&self) -> String {
        dispatch!(self, g => g.start_fen(), x => x.start_position().fen())
    }

    /// The moves played, in UCI.
    #[must_use]
    pub fn moves_uci(&self) -> Vec<String> {
        dispatch!(self,
            g => g.moves().iter().map(|m| m.to_uci().to_string()).collect(),
            x => x.moves().iter().map(|m| m.to_uci()).collect())
    }

    /// The number of plies played.
    #[must_use]
    pub fn ply(&self) -> usize {
        dispatch!(self, g => g.moves().len(), x => x.moves().len())
    }

    /// The UCI of the move of ply `index` (0 the first move), if played.
    #[must_use]
    pub fn uci_at(&self, index: usize) -> Option<String> {
        dispatch!(self,
            g => g.moves().get(index).map(|m| m.to_uci().to_string()),
            x => x.moves().get(index).map(|m| m.to_uci()))
    }

    /// The last move played in both notations, as [`AnyGame::play_uci`]
    /// returned it; `None` before the first move.
    #[must_use]
    pub fn last_played(&self) -> Option<PlayedMove> {
        dispatch!(self,
        g => Some(PlayedMove {
            uci: g.last_move()?.to_uci().to_string(),
            san: g.last_san()?,
        }),
        x => Some(PlayedMove {
            uci: x.last_move()?.to_uci(),
            san: x.last_move_wxf()?,
        }))
    }

    /// Every move played in both notations, as [`AnyGame::play_uci`]
    /// returned them. The records keep moves, not their text: the SAN is
    /// rendered from the 8×8 record's values, the WXF of Xiangqi by
    /// replaying the positions.
    #[must_use]
    pub fn history(&self) -> Vec<PlayedMove> {
        dispatch!(self,
        g => g
            .moves()
            .iter()
            .zip(g.san_moves())
            .map(|(m, san)| PlayedMove {
                uci: m.to_uci().to_string(),
                san: san.to_string(),
            })
            .collect(),
        x => {
            let mut pos = x.start_position().clone();
            x.moves()
                .iter()
                .map(|&mv| {
                    let san = pos.wxf(mv);
                    pos.play_unchecked(mv);
                    PlayedMove { uci: mv.to_uci(), san }
                })
                .collect()
        })
    }

    /// The end of the game, if it has ended (by the rules; resignation and
    /// time belong to whoever runs the game).
    #[must_use]
    pub fn outcome(&self) -> Option<Outcome> {
        dispatch!(self, g => g.outcome(), x => x.outcome())
    }

    /// Plays a UCI move.
    ///
    /// # Errors
    ///
    /// Malformed or illegal text, or a game that is over.
    pub fn play_uci(&mut self, text: &str) -> Result<PlayedMove, AnyPlayError> {
        match self {
            Self::Chess(g) => chess_play(g, text),
            Self::Horde(g) => chess_play(g, text),
            Self::Atomic(g) => chess_play(g, text),
            Self::Xiangqi(x) => {
                if let Some(outcome) = x.outcome() {
                    return Err(AnyPlayError::GameOver { outcome });
                }
                let mv = x.position().parse_uci(text)?;
                let wxf = x.position().wxf(mv);
                match x.play(mv) {
                    Ok(_) => Ok(PlayedMove {
                        uci: mv.to_uci(),
                        san: wxf,
                    }),
                    Err(XiangqiPlayError::GameOver { outcome }) => {
                        Err(AnyPlayError::GameOver { outcome })
                    }
                    Err(XiangqiPlayError::Illegal { .. } | XiangqiPlayError::Forbidden { .. }) => {
                        Err(MoveError::Illegal {
                            text: text.to_owned(),
                        }
                        .into())
                    }
                }
            }
        }
    }

    /// Every legal move with its notation and squares (empty once over).
    #[must_use]
    pub fn legal_moves(&self) -> Vec<MoveInfo> {
        match self {
            Self::Chess(g) => chess_moves(g),
            Self::Horde(g) => chess_moves(g),
            Self::Atomic(g) => chess_moves(g),
            Self::Xiangqi(x) => x
                .legal_moves()
                .into_iter()
                .map(|mv| MoveInfo {
                    uci: xiangqi_uci(mv),
                    san: x
                        .position()
                        .wxf_move(mv)
                        .map_or_else(|| xiangqi_uci(mv), Notation::of),
                    from: Notation::of(mv.from()),
                    to: Notation::of(mv.to()),
                    promotion: None,
                })
                .collect(),
        }
    }

    /// The draws the side to move may claim now.
    #[must_use]
    pub fn claimable(&self) -> Vec<Claim> {
        dispatch!(self, g => g.claimable(), _x => Vec::new())
    }

    /// Claims a draw; on success the game is over.
    ///
    /// # Errors
    ///
    /// The claim is not valid now.
    pub fn claim(&mut self, claim: Claim) -> Result<Outcome, AnyClaimError> {
        dispatch!(self, g => Ok(g.claim(claim)?), _x => Err(AnyClaimError::NotInXiangqi))
    }

    /// Takes back the last move; `false` when there is none.
    pub fn undo(&mut self) -> bool {
        match self {
            Self::Chess(g) => g.undo().is_some(),
            Self::Horde(g) => g.undo().is_some(),
            Self::Atomic(g) => g.undo().is_some(),
            Self::Xiangqi(x) => {
                // The Xiangqi record keeps streaks and counters that are
                // cheap to rebuild and costly to unwind, so replay.
                let moves = x.moves().to_vec();
                let Some((_, keep)) = moves.split_last() else {
                    return false;
                };
                let mut fresh = XiangqiGame::with_config(x.start_position().clone(), *x.config());
                for &mv in keep {
                    if fresh.play(mv).is_err() {
                        return false;
                    }
                }
                **x = fresh;
                true
            }
        }
    }

    /// The game as text: PGN with the `Variant` tag for the 8×8 games, a
    /// WXF move list with PGN-style tags for Xiangqi.
    #[must_use]
    pub fn export(&self) -> String {
        dispatch!(self, g => g.pgn(&PgnTags::new()), x => xiangqi_export(x))
    }

    /// For Xiangqi, the legal moves that would lose by the advanced rules
    /// or extend a check or chase streak; empty for the other games.
    #[must_use]
    pub fn move_warnings(&self) -> Vec<MoveWarningInfo> {
        let Self::Xiangqi(x) = self else {
            return Vec::new();
        };
        let mover = x.turn();
        x.move_warnings()
            .into_iter()
            .filter(|w| {
                w.outcome.is_some() || w.forbidden || w.check.is_some() || !w.chases.is_empty()
            })
            .map(|w| MoveWarningInfo {
                uci: w.mv.to_uci(),
                loses: w.loses(mover),
                forbidden: w.forbidden,
                outcome: w.outcome,
                check: w.check.as_ref().map(streak_json),
                chases: w
                    .chases
                    .iter()
                    .map(|c| ChaseJson {
                        target: c.target.to_string(),
                        streak: streak_json(&c.streak),
                    })
                    .collect(),
            })
            .collect()
    }

    /// Whether `color` could still win by some legal sequence of moves,
    /// the opponent's help allowed, judging by the material on the board
    /// (lichess's rule for a time-out: when the side whose clock ran out
    /// faces an opponent who cannot win this way, the game is a draw).
    ///
    /// - Chess: no with a bare king; with a king and one knight while the
    ///   opponent has only king and queens (nothing that could hem its own
    ///   king in); with a king and bishops while no pawn or knight is left
    ///   and every bishop on the board stands on one colour of square.
    /// - Atomic: no with a bare king. Against a king with other pieces, yes
    ///   (one of them can explode next to its own king) unless only kings
    ///   and bishops are left and the two sides' bishops stand on different
    ///   colours of square. Against a bare king (which no explosion can
    ///   reach without a capture next to it, and which may stand next to
    ///   the other king), no with a single knight, bishop or rook, or with
    ///   two knights at most and nothing else.
    /// - Horde: always yes (kept simple: either side can in principle
    ///   still reach its goal while the game runs).
    /// - Xiangqi: yes only with a chariot, horse, cannon or soldier; a
    ///   general with advisors and elephants alone cannot attack (wins by
    ///   stalemating a helpless opponent are not considered).
    #[must_use]
    pub fn can_still_win(&self, color: Color) -> bool {
        use crate::chess::Rules as _;
        match self {
            Self::Chess(g) => crate::chess::Standard::can_still_win(g.position().board(), color),
            Self::Atomic(g) => crate::chess::Atomic::can_still_win(g.position().board(), color),
            Self::Horde(g) => crate::chess::Horde::can_still_win(g.position().board(), color),
            Self::Xiangqi(x) => x.position().can_still_win(color),
        }
    }

    /// The state clients read.
    #[must_use]
    pub fn status(&self) -> GameStatus {
        let legal = match self {
            Self::Chess(g) => chess_ucis(g),
            Self::Horde(g) => chess_ucis(g),
            Self::Atomic(g) => chess_ucis(g),
            Self::Xiangqi(x) => x.legal_moves().into_iter().map(xiangqi_uci).collect(),
        };
        self.status_with(legal)
    }

    /// [`Self::status`] and [`Self::legal_moves`] from one move
    /// generation: the server sends both after every move.
    #[must_use]
    pub fn status_and_moves(&self) -> (GameStatus, Vec<MoveInfo>) {
        let moves = self.legal_moves();
        let status = self.status_with(moves.iter().map(|m| m.uci).collect());
        (status, moves)
    }

    fn status_with(&self, legal_moves: Vec<Notation>) -> GameStatus {
        match self {
            Self::Chess(g) => chess_status(g, legal_moves),
            Self::Horde(g) => chess_status(g, legal_moves),
            Self::Atomic(g) => chess_status(g, legal_moves),
            Self::Xiangqi(x) => {
                let wxf = x.last_move_wxf();
                GameStatus {
                    variant: Variant::Xiangqi,
                    fen: x.position().fen(),
                    turn: x.turn(),
                    check: x.is_check(),
                    legal_moves,
                    san: wxf.clone(),
                    outcome: x.outcome(),
                    claimable: Vec::new(),
                    xiangqi: Some(XiangqiStatus {
                        wxf,
                        counters: x.counters(),
                        streaks: ByColor::new(
                            side_streaks(&x.streaks(Color::White)),
                            side_streaks(&x.streaks(Color::Black)),
                        ),
                    }),
                }
            }
        }
    }
}

fn xiangqi_uci(mv: xiangqi::Move) -> Notation {
    Notation::of(format_args!("{}{}", mv.from(), mv.to()))
}

fn chess_ucis<R: Rules>(g: &ChessGame<R>) -> Vec<Notation> {
    g.legal_moves()
        .into_iter()
        .map(|m| Notation::of(m.to_uci()))
        .collect()
}

fn chess_status<R: Rules>(g: &ChessGame<R>, legal_moves: Vec<Notation>) -> GameStatus {
    let pos = g.position();
    GameStatus {
        variant: pos.variant(),
        fen: pos.fen(),
        turn: pos.turn(),
        check: pos.is_check(),
        legal_moves,
        san: g.last_san(),
        outcome: g.outcome(),
        claimable: g.claimable(),
        xiangqi: None,
    }
}

/// Why a game could not be rebuilt from a FEN and a move list.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ReplayError {
    /// The start position could not be set up.
    #[error(transparent)]
    Open(#[from] OpenError),
    /// A move of the list could not be played.
    #[error("move {ply} ({text}): {source}")]
    Move {
        /// The 1-based index of the move in the list.
        ply: usize,
        /// The move as given.
        text: String,
        /// Why it could not be played.
        source: AnyPlayError,
    },
}

impl ReplayError {
    /// The reason the game had ended, when a move came after the end.
    #[must_use]
    pub fn after_end(&self) -> Option<EndReason> {
        match self {
            Self::Move {
                source: AnyPlayError::GameOver { outcome },
                ..
            } => Some(outcome.reason),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests;
