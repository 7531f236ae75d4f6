//! The configuration knobs of the rules page (§11): every interpretation
//! the sources leave open is one typed field here, with the page's choice
//! as the default, so a server can follow another federation's reading
//! without touching the adjudication code.

/// How many plies one "move" of the draw counters is (knob K2). The seed
/// counts moves by each side, so a "move" is a ply pair by default.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub enum MoveUnit {
    /// A move is a ply pair: draws at 600 / 60 / 240 plies (default).
    #[default]
    PlyPair,
    /// A move is one ply: draws at 300 / 30 / 120 plies.
    Ply,
}

impl MoveUnit {
    /// Plies per counted move.
    #[must_use]
    pub const fn plies(self) -> u32 {
        match self {
            Self::PlyPair => 2,
            Self::Ply => 1,
        }
    }
}

/// How the perpetual limit grows with the number of pieces taking part
/// (knob K8). The seed gives 6 / 12 / 18 for 1 / 2 / 3 pieces and says
/// nothing beyond three.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub enum LimitCap {
    /// `6 * min(n, 3)`: at most 18 consecutive moves (default).
    #[default]
    Eighteen,
    /// `6 * n`, without a cap.
    Linear,
}

/// What happens to the move that exceeds a perpetual limit and loses
/// (knob K7).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub enum ViolationMode {
    /// The move is played and the violator loses at once (default, CXQ).
    #[default]
    Lose,
    /// The move is refused (xiangqi.com): it is not among the game's legal
    /// moves, and a side whose every move is refused has no legal move and
    /// loses. Verdicts that do not make the mover lose (mutual perpetual
    /// draws, check against chase where the opponent checks) still end the
    /// game as in [`ViolationMode::Lose`].
    Forbid,
}

/// The knobs of §11 of the rules page. [`Default`] is the page's rule set.
///
/// K4 (`repetition_draw`, a plain threefold repetition as a draw) is not
/// offered: the shared [`crate::EndReason`] has no reason to report it with.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct XiangqiConfig {
    /// K1: a violation also needs the position after the triggering ply
    /// (placement and side to move) to have occurred earlier in the streak
    /// window, as the AXF and Fairy-Stockfish judge only cycles. Default
    /// `false`: the move counts alone decide.
    pub require_repetition: bool,
    /// K2: plies per counted move of the draw counters.
    pub move_unit: MoveUnit,
    /// K3: the soldier's step across the river is progress too. Default
    /// `false`: only forward steps of a soldier already across count.
    pub crossing_step_is_progress: bool,
    /// K5: draw as soon as neither side has a chariot, horse, cannon or
    /// soldier (Fairy-Stockfish's table). Default `false`: the progress rule
    /// ends such games.
    pub insufficient_material_draw: bool,
    /// K6: an elephant or advisor attacking a chariot, cannon or horse
    /// chases it even when it is protected (Fairy-Stockfish / Pikafish).
    /// Default `false`: only a horse or cannon on a chariot ignores
    /// protection.
    pub minor_on_major_always_chase: bool,
    /// K7: lose by the violating move, or have it refused.
    pub violation_mode: ViolationMode,
    /// K8: the perpetual limit for more than three pieces.
    pub limit_cap: LimitCap,
}

impl XiangqiConfig {
    /// The number of consecutive checks or chases allowed to `pieces`
    /// distinct pieces: `6 * min(n, 3)` by default (§7.6).
    #[must_use]
    pub const fn limit(&self, pieces: u32) -> u32 {
        let n = match self.limit_cap {
            LimitCap::Eighteen => {
                if pieces > 3 {
                    3
                } else {
                    pieces
                }
            }
            LimitCap::Linear => pieces,
        };
        6 * n
    }

    /// Total plies at which the game is drawn by the Moves rule (600).
    #[must_use]
    pub const fn moves_rule_plies(&self) -> u32 {
        300 * self.move_unit.plies()
    }

    /// Plies without progress at which the game is drawn by the Progress
    /// rule (60).
    #[must_use]
    pub const fn progress_rule_plies(&self) -> u32 {
        30 * self.move_unit.plies()
    }

    /// Effective plies at which the game is drawn by the Effective rule
    /// (240).
    #[must_use]
    pub const fn effective_rule_plies(&self) -> u32 {
        120 * self.move_unit.plies()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_follow_the_rules_page() {
        let c = XiangqiConfig::default();
        assert_eq!(
            (c.limit(1), c.limit(2), c.limit(3), c.limit(5)),
            (6, 12, 18, 18)
        );
        assert_eq!(
            (
                c.moves_rule_plies(),
                c.progress_rule_plies(),
                c.effective_rule_plies()
            ),
            (600, 60, 240)
        );
        let alt = XiangqiConfig {
            move_unit: MoveUnit::Ply,
            limit_cap: LimitCap::Linear,
            ..c
        };
        assert_eq!(alt.limit(5), 30);
        assert_eq!(
            (
                alt.moves_rule_plies(),
                alt.progress_rule_plies(),
                alt.effective_rule_plies()
            ),
            (300, 30, 120)
        );
    }
}
