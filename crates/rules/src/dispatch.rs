//! The one switch over the four games: [`with_variant!`](crate::with_variant)
//! names, for a [`Variant`] chosen at run time, the concrete position type
//! that plays it, and hands that type to generic code.
//!
//! Code that picks the game at run time (the engine's UCI session and
//! server searches, the binary's `perft` and `uci`, the server's AI) writes
//! its work once, generic over the position type, and reaches the four
//! games through this module rather than through an enum of its own. A
//! fifth game is then added here (and in [`AnyGame`]) and nowhere else.
//!
//! Two ways in:
//!
//! - [`GameVisitor`] with [`Variant::visit`], when the work needs only what
//!   [`VariantPosition`] (and so [`Game`]) offers;
//! - the [`with_variant!`](crate::with_variant) macro itself, when the work
//!   needs a trait of another crate that the four position types implement
//!   (the engine's evaluation): inside its body the type is concrete, so
//!   any trait it implements can be used.

use crate::chess::{AtomicChess, Chess, HordeChess};
use crate::xiangqi::Xiangqi;
use crate::{AnyGame, Game, OpenError, Variant};

/// The position type of one of the four games: what generic code needs
/// beyond [`Game`] to set a position up and to read it out of a game
/// record.
pub trait VariantPosition: Game + PartialEq + Eq {
    /// The game this type plays.
    const VARIANT: Variant;

    /// The variant's start position.
    fn start() -> Self;

    /// The variant's start position (`fen` `None`) or the position `fen`
    /// describes.
    ///
    /// # Errors
    ///
    /// The FEN is malformed or not a legal position of this game.
    fn open(fen: Option<&str>) -> Result<Self, OpenError> {
        Ok(match fen {
            Some(fen) => Self::from_fen_text(fen)?,
            None => Self::start(),
        })
    }

    /// The position `fen` describes.
    ///
    /// # Errors
    ///
    /// The FEN is malformed or not a legal position of this game.
    fn from_fen_text(fen: &str) -> Result<Self, OpenError>;

    /// The start position and the moves played of `game`, when it is a
    /// game of this type; `None` for a game of another variant. Playing
    /// the moves on the start position gives the game's current position
    /// without parsing any text: what a search that needs the game's
    /// history (for repetitions) starts from.
    fn line(game: &AnyGame) -> Option<(&Self, &[Self::Move])>;
}

/// Runs `$body` with `$G` naming the concrete position type of `$variant`
/// (a [`Variant`](crate::Variant)): [`Chess`](crate::chess::Chess),
/// [`HordeChess`](crate::chess::HordeChess),
/// [`AtomicChess`](crate::chess::AtomicChess) or
/// [`Xiangqi`](crate::xiangqi::Xiangqi). The one place outside the rules'
/// own records that names the four types; every type it names implements
/// [`VariantPosition`](crate::VariantPosition).
///
/// The body is expanded once per game, so it is compiled for each type:
/// generic code called from it is monomorphised (perft and search run at
/// full speed), and it may use any trait the four types implement.
///
/// ```
/// use chessplayx_rules::{Game, Variant, VariantPosition, with_variant};
///
/// let count = |variant: Variant| -> u64 {
///     with_variant!(variant, G => G::open(None).map_or(0, |p| p.perft(1)))
/// };
/// assert_eq!(count(Variant::Chess), 20);
/// assert_eq!(count(Variant::Xiangqi), 44);
/// ```
#[macro_export]
macro_rules! with_variant {
    ($variant:expr, $G:ident => $body:expr) => {
        match $variant {
            $crate::Variant::Chess => {
                type $G = $crate::chess::Chess;
                $body
            }
            $crate::Variant::Horde => {
                type $G = $crate::chess::HordeChess;
                $body
            }
            $crate::Variant::Atomic => {
                type $G = $crate::chess::AtomicChess;
                $body
            }
            $crate::Variant::Xiangqi => {
                type $G = $crate::xiangqi::Xiangqi;
                $body
            }
        }
    };
}

/// Work that runs on a position of any game. [`Variant::visit`] calls
/// [`GameVisitor::visit`] with the concrete position of the variant at
/// hand.
pub trait GameVisitor {
    /// What the work produces.
    type Output;

    /// Runs the work on `position`. Bound by [`Game`] alone, so the work
    /// can be tested on a toy game too.
    fn visit<G: Game>(self, position: G) -> Self::Output;
}

impl Variant {
    /// Sets up this game's position from `fen` (the start position when
    /// `None`) and runs `visitor` on it.
    ///
    /// # Errors
    ///
    /// The FEN is malformed or not a legal position of this game.
    pub fn visit<V: GameVisitor>(
        self,
        fen: Option<&str>,
        visitor: V,
    ) -> Result<V::Output, OpenError> {
        with_variant!(self, G => Ok(visitor.visit(G::open(fen)?)))
    }
}

/// [`VariantPosition`] for an 8×8 position type, whose game record is
/// `AnyGame::$record`.
macro_rules! chess_position {
    ($ty:ty, $variant:ident) => {
        impl VariantPosition for $ty {
            const VARIANT: Variant = Variant::$variant;

            fn start() -> Self {
                Self::start()
            }

            fn from_fen_text(fen: &str) -> Result<Self, OpenError> {
                Ok(Self::from_fen(fen)?)
            }

            fn line(game: &AnyGame) -> Option<(&Self, &[Self::Move])> {
                match game {
                    AnyGame::$variant(g) => Some((g.start(), g.moves())),
                    _ => None,
                }
            }
        }
    };
}

chess_position!(Chess, Chess);
chess_position!(HordeChess, Horde);
chess_position!(AtomicChess, Atomic);

impl VariantPosition for Xiangqi {
    const VARIANT: Variant = Variant::Xiangqi;

    fn start() -> Self {
        Self::start()
    }

    fn from_fen_text(fen: &str) -> Result<Self, OpenError> {
        Ok(Self::from_fen(fen)?)
    }

    fn line(game: &AnyGame) -> Option<(&Self, &[Self::Move])> {
        match game {
            AnyGame::Xiangqi(x) => Some((x.start_position(), x.moves())),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Reports what the dispatch handed over: the position's variant and
    /// its FEN.
    struct Probe;

    impl GameVisitor for Probe {
        type Output = (Variant, String);

        fn visit<G: Game>(self, position: G) -> Self::Output {
            (position.variant(), position.fen())
        }
    }

    #[test]
    fn each_variant_gets_its_own_type_and_start() {
        for v in Variant::ALL {
            assert_eq!(v.visit(None, Probe), Ok((v, v.start_fen().to_owned())));
            assert_eq!(with_variant!(v, G => G::VARIANT), v);
        }
    }

    #[test]
    fn a_fen_reaches_the_visitor_and_a_bad_one_is_refused() {
        let fen = "4k3/8/8/8/8/8/8/4K2R w K - 0 1";
        for v in [Variant::Chess, Variant::Atomic] {
            assert_eq!(v.visit(Some(fen), Probe), Ok((v, fen.to_owned())));
        }
        // An 8×8 FEN is no Xiangqi position.
        assert!(matches!(
            Variant::Xiangqi.visit(Some(fen), Probe),
            Err(OpenError::XiangqiFen(_))
        ));
        assert!(matches!(
            Variant::Chess.visit(Some("not a fen"), Probe),
            Err(OpenError::ChessFen(_))
        ));
    }

    /// Replays `G::line` of `game` and returns the FEN it reaches, `None`
    /// when the game is not of type `G`.
    fn replayed<G: VariantPosition>(game: &AnyGame) -> Option<String> {
        let (start, moves) = G::line(game)?;
        let mut position = start.clone();
        for &mv in moves {
            position.play(mv);
        }
        Some(position.fen())
    }

    #[test]
    fn the_line_of_a_game_replays_to_its_position_and_only_for_its_type() {
        let games = [
            AnyGame::replay(Variant::Chess, None, &["e2e4", "e7e5", "g1f3"]),
            AnyGame::replay(Variant::Horde, None, &["e4e5", "d7d6"]),
            AnyGame::replay(Variant::Atomic, None, &["g1f3", "d7d5", "f3e5"]),
            AnyGame::replay(
                Variant::Xiangqi,
                Some("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR b - - 0 1"),
                &["h8e8", "h3e3"],
            ),
        ];
        for game in games {
            let game = game.unwrap_or_else(|e| panic!("{e}"));
            let fen = game.fen();
            let mine = with_variant!(game.variant(), G => replayed::<G>(&game));
            assert_eq!(mine.as_ref(), Some(&fen), "{}", game.variant());
            // Every other type sees no line in this game.
            for other in Variant::ALL.into_iter().filter(|&v| v != game.variant()) {
                assert_eq!(with_variant!(other, G => replayed::<G>(&game)), None);
            }
        }
    }
}
