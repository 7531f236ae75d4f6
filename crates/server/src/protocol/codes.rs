//! The protocol's closed vocabularies, each declared once: the codes of
//! `error` messages ([`ErrorCode`]) and the reasons a game ends
//! ([`EndReason`]). The list of values (`ALL`), the wire names and serde
//! all come from the one declaration, so nothing is kept in sync by hand.

use chessplayx_rules::EndReason as RulesReason;

/// Declares a fieldless enum whose wire form is a snake_case name: the
/// enum, `ALL`, `name`, `parse`, and serde in both directions.
macro_rules! wire_names {
    (
        $(#[$meta:meta])*
        $vis:vis enum $name:ident {
            $( $(#[$vmeta:meta])* $variant:ident = $text:literal, )+
        }
    ) => {
        $(#[$meta])*
        #[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
        $vis enum $name {
            $( $(#[$vmeta])* $variant, )+
        }

        impl $name {
            /// Every value, in declaration order.
            pub const ALL: &'static [Self] = &[$(Self::$variant),+];

            /// The snake_case name on the wire and in the database.
            #[must_use]
            pub const fn name(self) -> &'static str {
                match self {
                    $( Self::$variant => $text, )+
                }
            }

            /// Reads a name back (`None` if it names no value).
            #[must_use]
            pub fn parse(name: &str) -> Option<Self> {
                Self::ALL.iter().copied().find(|v| v.name() == name)
            }
        }

        impl core::fmt::Display for $name {
            fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
                f.write_str(self.name())
            }
        }

        impl serde::Serialize for $name {
            fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                s.serialize_str(self.name())
            }
        }

        impl<'de> serde::Deserialize<'de> for $name {
            fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                let text = <std::borrow::Cow<'de, str>>::deserialize(d)?;
                Self::parse(&text).ok_or_else(|| {
                    serde::de::Error::custom(format!(
                        concat!("unknown ", stringify!($name), " {:?}"),
                        text
                    ))
                })
            }
        }
    };
}

wire_names! {
    /// The `code` of a WebSocket `error` message (docs/protocol.md).
    pub enum ErrorCode {
        /// Not JSON, no `t`, or bad fields.
        BadMessage = "bad_message",
        /// `t` names no message.
        UnknownType = "unknown_type",
        /// A malformed UCI move.
        BadMove = "bad_move",
        /// A move the rules forbid.
        IllegalMove = "illegal_move",
        /// The acting seat is not on turn.
        NotYourTurn = "not_your_turn",
        /// A spectator acted, or `as` named a seat not held.
        NotAPlayer = "not_a_player",
        /// The game has ended.
        GameOver = "game_over",
        /// Nobody holds the other seat yet.
        NotStarted = "not_started",
        /// A rematch before the end.
        NotFinished = "not_finished",
        /// A move for another ply than the current one (a `state` follows).
        Stale = "stale",
        /// Both sides have moved: too late to abort.
        CannotAbort = "cannot_abort",
        /// No own move to take back.
        CannotTakeback = "cannot_takeback",
        /// No standing offer to accept or decline.
        NoOffer = "no_offer",
        /// The claim is not available now.
        CannotClaim = "cannot_claim",
        /// The invite was used already: a spectator.
        InviteUsed = "invite_used",
        /// Too many messages.
        RateLimited = "rate_limited",
        /// The server could not save the action; nothing happened.
        Internal = "internal",
    }
}

wire_names! {
    /// Why a game ended: every reason of the rules and the room's own.
    pub enum EndReason {
        /// Rules: the side to move is mated.
        Checkmate = "checkmate",
        /// Rules: the side to move has no move and is not in check.
        Stalemate = "stalemate",
        /// Rules (atomic): a king exploded.
        KingExploded = "king_exploded",
        /// Rules (horde): White has no piece left.
        HordeDestroyed = "horde_destroyed",
        /// Rules: neither side can mate.
        InsufficientMaterial = "insufficient_material",
        /// Rules: fivefold repetition.
        FivefoldRepetition = "fivefold_repetition",
        /// Rules: 75 moves without capture or pawn move.
        SeventyFiveMoves = "seventy_five_moves",
        /// Rules: a claimed threefold repetition.
        ThreefoldRepetition = "threefold_repetition",
        /// Rules: a claimed 50-move draw.
        FiftyMoves = "fifty_moves",
        /// Rules (xiangqi): perpetual check.
        PerpetualCheck = "perpetual_check",
        /// Rules (xiangqi): perpetual chase.
        PerpetualChase = "perpetual_chase",
        /// Rules (xiangqi): both sides check perpetually.
        MutualPerpetualCheck = "mutual_perpetual_check",
        /// Rules (xiangqi): both sides chase perpetually.
        MutualPerpetualChase = "mutual_perpetual_chase",
        /// Rules (xiangqi): perpetual check against a perpetual chase.
        PerpetualCheckVsChase = "perpetual_check_vs_chase",
        /// Rules (xiangqi): the total-moves counter ran out.
        MovesRule = "moves_rule",
        /// Rules (xiangqi): the no-progress counter ran out.
        ProgressRule = "progress_rule",
        /// Rules (xiangqi): the effective-moves counter ran out.
        EffectiveRule = "effective_rule",
        /// Room: a player resigned.
        Resignation = "resignation",
        /// Room: a clock reached zero.
        Timeout = "timeout",
        /// Room: a clock reached zero but the opponent could not have won
        /// by any sequence of legal moves (lichess's rule): a draw.
        TimeoutVsInsufficientMaterial = "timeout_vs_insufficient_material",
        /// Room: a draw offer was accepted.
        DrawAgreement = "draw_agreement",
        /// Room: aborted before both sides moved.
        Aborted = "aborted",
        /// Room: the opponent stayed away past the countdown and the win
        /// was claimed.
        Abandoned = "abandoned",
    }
}

impl From<RulesReason> for EndReason {
    /// Every reason of the rules is one of the room's (the match is
    /// exhaustive: a new rules reason fails to compile until it is here).
    fn from(r: RulesReason) -> Self {
        match r {
            RulesReason::Checkmate => Self::Checkmate,
            RulesReason::Stalemate => Self::Stalemate,
            RulesReason::KingExploded => Self::KingExploded,
            RulesReason::HordeDestroyed => Self::HordeDestroyed,
            RulesReason::InsufficientMaterial => Self::InsufficientMaterial,
            RulesReason::FivefoldRepetition => Self::FivefoldRepetition,
            RulesReason::SeventyFiveMoves => Self::SeventyFiveMoves,
            RulesReason::ThreefoldRepetition => Self::ThreefoldRepetition,
            RulesReason::FiftyMoves => Self::FiftyMoves,
            RulesReason::PerpetualCheck => Self::PerpetualCheck,
            RulesReason::PerpetualChase => Self::PerpetualChase,
            RulesReason::MutualPerpetualCheck => Self::MutualPerpetualCheck,
            RulesReason::MutualPerpetualChase => Self::MutualPerpetualChase,
            RulesReason::PerpetualCheckVsChase => Self::PerpetualCheckVsChase,
            RulesReason::MovesRule => Self::MovesRule,
            RulesReason::ProgressRule => Self::ProgressRule,
            RulesReason::EffectiveRule => Self::EffectiveRule,
        }
    }
}

impl EndReason {
    /// Whether the room decided this end (resignation, time, agreement,
    /// abort, abandonment) rather than the rules.
    #[must_use]
    pub const fn is_room_reason(self) -> bool {
        matches!(
            self,
            Self::Resignation
                | Self::Timeout
                | Self::TimeoutVsInsufficientMaterial
                | Self::DrawAgreement
                | Self::Aborted
                | Self::Abandoned
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_name_reads_back_and_is_unique() {
        for &c in ErrorCode::ALL {
            assert_eq!(ErrorCode::parse(c.name()), Some(c));
            assert_eq!(serde_json::to_value(c).unwrap(), c.name());
        }
        for &r in EndReason::ALL {
            assert_eq!(EndReason::parse(r.name()), Some(r));
            let back: EndReason = serde_json::from_value(serde_json::to_value(r).unwrap()).unwrap();
            assert_eq!(back, r);
        }
        assert_eq!(EndReason::parse("boredom"), None);
        assert!(serde_json::from_str::<ErrorCode>("\"nope\"").is_err());
    }

    #[test]
    fn rules_reasons_keep_their_names() {
        // Every non-room reason comes from the rules under the same name.
        for &r in EndReason::ALL.iter().filter(|r| !r.is_room_reason()) {
            let rules = serde_json::from_value::<RulesReason>(serde_json::to_value(r).unwrap())
                .unwrap_or_else(|e| panic!("{r} is not a rules reason: {e}"));
            assert_eq!(EndReason::from(rules), r);
            assert_eq!(rules.name(), r.name());
        }
    }
}
