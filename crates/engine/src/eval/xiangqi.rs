//! Xiangqi: piece values that shift with the phase (cannons need screens,
//! so they fade as the board empties; horses grow), piece-square tables,
//! horse, cannon and chariot mobility (a horse with its legs blocked is
//! half a horse), palace safety (advisors and elephants against the
//! attackers that have crossed), central cannons, and crossed soldiers.

use chessplayx_rules::{
    Color,
    xiangqi::{
        Bitboard, Board, Move, Piece, Role, Square, Xiangqi, cannon_attacks, chariot_attacks,
        horse_attacks,
    },
};

use super::{Evaluate, Params, Tapered, Tuned, visit_tapered};

/// Material by role (general, advisor, elephant, horse, chariot, cannon,
/// soldier), before the tables.
const MATERIAL: [Tapered; 7] = [
    Tapered::new(0, 0),
    Tapered::new(190, 170),
    Tapered::new(195, 175),
    Tapered::new(420, 470),
    Tapered::new(920, 990),
    Tapered::new(470, 420),
    Tapered::new(80, 100),
];

/// Exchange values for ordering and quiescence pruning.
const VALUE: [i32; 7] = [20_000, 190, 195, 440, 950, 450, 90];

/// Everything Xiangqi's evaluation weighs.
#[derive(Copy, Clone, Debug)]
pub(crate) struct XiangqiParams {
    /// By role as [`MATERIAL`] (the general's entry is unused).
    material: [Tapered; 7],
    /// Multiplier (in 1/16) of the piece-square tables.
    pst_scale: i32,
    /// Per square a horse, a chariot reaches; per empty square on a
    /// cannon's lines; per enemy piece a cannon hits.
    horse_mobility: Tapered,
    chariot_mobility: Tapered,
    cannon_quiet: Tapered,
    cannon_hits: Tapered,
    /// Palace danger: attack weight × missing defenders × this.
    danger: Tapered,
    /// A cannon on the enemy general's file with a screen.
    central_cannon: Tapered,
    tempo: i32,
}

/// Hand-set: a Texel fit played worse (docs/strength.md, "Tuning").
const PARAMS: XiangqiParams = XiangqiParams {
    material: MATERIAL,
    pst_scale: 16,
    horse_mobility: Tapered::new(7, 8),
    chariot_mobility: Tapered::new(3, 4),
    cannon_quiet: Tapered::new(2, 1),
    cannon_hits: Tapered::new(8, 4),
    danger: Tapered::new(4, 2),
    central_cannon: Tapered::new(24, 8),
    tempo: 18,
};

impl Params for XiangqiParams {
    fn visit(&mut self, f: &mut dyn FnMut(&str, &mut i32)) {
        const ROLES: [&str; 7] = [
            "general", "advisor", "elephant", "horse", "chariot", "cannon", "soldier",
        ];
        for (name, t) in ROLES.iter().zip(&mut self.material).skip(1) {
            visit_tapered(&format!("material.{name}"), t, f);
        }
        f("pst_scale", &mut self.pst_scale);
        visit_tapered("horse_mobility", &mut self.horse_mobility, f);
        visit_tapered("chariot_mobility", &mut self.chariot_mobility, f);
        visit_tapered("cannon_quiet", &mut self.cannon_quiet, f);
        visit_tapered("cannon_hits", &mut self.cannon_hits, f);
        visit_tapered("danger", &mut self.danger, f);
        visit_tapered("central_cannon", &mut self.central_cannon, f);
        f("tempo", &mut self.tempo);
    }
}

/// Table entry for a piece of `role` on the square with index `rel` as
/// seen by its owner (rank 0 is its own back rank).
const fn pst(role: Role, rel: usize) -> Tapered {
    let f = (rel % 9) as i32;
    let r = (rel / 9) as i32;
    let fc = if f > 4 { f - 4 } else { 4 - f };
    match role {
        Role::Soldier => {
            if r <= 4 {
                // Not yet across the river: only the step before counts.
                let near = if r == 4 { 10 } else { 0 };
                let centre = if f == 4 { 6 } else { 0 };
                Tapered::new(near + centre, near)
            } else {
                let by_rank_mg = [0, 24, 44, 44, -10];
                let by_rank_eg = [0, 22, 34, 30, 0];
                let i = (r - 5) as usize;
                Tapered::new(
                    70 + by_rank_mg[i] + (4 - fc) * 8,
                    95 + by_rank_eg[i] + (4 - fc) * 6,
                )
            }
        }
        Role::Horse => {
            let adv = if r > 7 { 7 } else { r };
            let back = if r == 0 { -12 } else { 0 };
            let edge = if fc == 4 { -12 } else { 0 };
            Tapered::new(
                (4 - fc) * 6 + adv * 5 - 12 + back + edge,
                (4 - fc) * 5 + adv * 3,
            )
        }
        Role::Chariot => {
            let deep = if r == 6 || r == 7 { 18 } else { 0 };
            let central = if fc <= 1 { 6 } else { 0 };
            Tapered::new(deep + central, deep / 2)
        }
        Role::Cannon => {
            let central = if f == 4 { 22 } else { 0 };
            let deep = if r == 7 { 10 } else { 0 };
            Tapered::new(central + deep, 0)
        }
        Role::General => {
            let home = if r == 0 { 8 } else { -12 * r };
            let file = if f == 4 { 6 } else { 0 };
            Tapered::new(home + file, 0)
        }
        Role::Advisor => Tapered::new(if r == 1 && f == 4 { 10 } else { 0 }, 0),
        Role::Elephant => Tapered::new(if r == 2 && f == 4 { 10 } else { 0 }, 0),
    }
}

const fn build_pst() -> [[Tapered; 90]; 7] {
    let mut t = [[Tapered::new(0, 0); 90]; 7];
    let mut role = 0;
    while role < 7 {
        let mut sq = 0;
        while sq < 90 {
            t[role][sq] = pst(Role::ALL[role], sq);
            sq += 1;
        }
        role += 1;
    }
    t
}

static PST: [[Tapered; 90]; 7] = build_pst();

#[inline]
const fn relative(color: Color, sq: Square) -> usize {
    match color {
        Color::White => sq.index() as usize,
        Color::Black => sq.flip().index() as usize,
    }
}

/// Phase: 24 with all chariots, horses and cannons, 0 with none.
fn phase(board: &Board) -> i32 {
    let chariots = board.by_role(Role::Chariot).count() as i32;
    let minors = (board.by_role(Role::Horse) | board.by_role(Role::Cannon)).count() as i32;
    (chariots * 4 + minors).min(24)
}

/// Attack weight of `them`'s pieces that threaten `us`'s palace: chariots
/// anywhere, horses and cannons across the river, crossed soldiers.
fn attack_weight(board: &Board, us: Color) -> i32 {
    let them = !us;
    let mut w = 0;
    for (sq, p) in board.pieces() {
        if p.color != them {
            continue;
        }
        let crossed = sq.is_own_half(us);
        w += match p.role {
            Role::Chariot => 3,
            Role::Horse | Role::Cannon if crossed => 2,
            Role::Horse | Role::Cannon => 1,
            Role::Soldier if crossed => 1,
            _ => 0,
        };
    }
    w
}

fn side(board: &Board, us: Color, w: &XiangqiParams) -> Tapered {
    let them = !us;
    let occ = board.occupied();
    let own = board.by_color(us);
    let mut s = Tapered::default();
    for (sq, p) in board.pieces() {
        if p.color != us {
            continue;
        }
        s += w.material[p.role.index()];
        s += PST[p.role.index()][relative(us, sq)] * w.pst_scale / 16;
        match p.role {
            Role::Horse => {
                let n = (horse_attacks(sq, occ) & !own).count() as i32;
                s += w.horse_mobility * (n - 4);
            }
            Role::Chariot => {
                let n = (chariot_attacks(sq, occ) & !own).count() as i32;
                s += w.chariot_mobility * (n - 8);
            }
            Role::Cannon => {
                let quiet = (chariot_attacks(sq, occ) & !occ).count() as i32;
                let hits = (cannon_attacks(sq, occ) & board.by_color(them)).count() as i32;
                s += w.cannon_quiet * (quiet - 6) + w.cannon_hits * hits;
            }
            _ => {}
        }
    }
    // Palace safety: fewer defenders hurt more the more attackers there are.
    let defenders = (board.by_piece(Piece::new(us, Role::Advisor))
        | board.by_piece(Piece::new(us, Role::Elephant)))
    .count() as i32;
    let danger = attack_weight(board, us) * (5 - defenders);
    s -= w.danger * danger;
    // A cannon on the enemy general's file with two pieces in between is
    // one move from a check that pins down the defence.
    if let Some(g) = board.general(them) {
        for c in board.by_piece(Piece::new(us, Role::Cannon)) {
            if c.file() == g.file() {
                let between = chessplayx_rules::xiangqi::between(c, g) & occ;
                if between.count() >= 1 {
                    s += w.central_cannon;
                }
            }
        }
    }
    s
}

impl Tuned for Xiangqi {
    type Params = XiangqiParams;
    const PARAMS: XiangqiParams = PARAMS;

    fn evaluate_with(&self, p: &XiangqiParams) -> i32 {
        let b = self.board();
        let s = side(b, Color::White, p) - side(b, Color::Black, p);
        let v = s.blend(phase(b));
        let v = if self.turn() == Color::White { v } else { -v };
        v + p.tempo
    }
}

impl Evaluate for Xiangqi {
    const PERPETUAL_CHECK_LOSES: bool = true;

    fn cycle_chasers(&self, keys: &[u64]) -> Option<[bool; 2]> {
        crate::search::chase::chasers(self, keys)
    }

    #[inline]
    fn evaluate(&self) -> i32 {
        self.evaluate_with(&PARAMS)
    }

    fn gain(&self, mv: Move) -> i32 {
        self.captured(mv).map_or(0, |p| VALUE[p.role.index()])
    }

    fn mover_value(&self, mv: Move) -> i32 {
        self.board()
            .role_at(mv.from())
            .map_or(0, |r| VALUE[r.index()])
    }

    fn is_tactical(&self, mv: Move) -> bool {
        self.is_capture(mv)
    }

    fn move_code(mv: Move) -> u16 {
        mv.from().index() as u16 | (mv.to().index() as u16) << 7
    }

    fn history_slot(&self, mv: Move) -> usize {
        let role = self.board().role_at(mv.from()).map_or(0, Role::index);
        role * 90 + mv.to().index() as usize
    }

    /// Generals are never taken: the game ends by having no move.
    fn lost(&self) -> bool {
        false
    }

    /// Stalemate loses too.
    fn no_moves_loses(&self) -> bool {
        true
    }

    /// Nobody has a piece that can cross the river.
    fn dead_draw(&self) -> bool {
        let b = self.board();
        (b.by_role(Role::Chariot)
            | b.by_role(Role::Horse)
            | b.by_role(Role::Cannon)
            | b.by_role(Role::Soldier))
        .is_empty()
    }

    fn halfmoves(&self) -> u32 {
        Self::halfmoves(self)
    }

    /// With a chariot, horse or cannon to move, zugzwang is rare.
    fn null_move(&self) -> Option<Self> {
        let b = self.board();
        let us = self.turn();
        let pieces: Bitboard = b.by_piece(Piece::new(us, Role::Chariot))
            | b.by_piece(Piece::new(us, Role::Horse))
            | b.by_piece(Piece::new(us, Role::Cannon));
        if pieces.any() { self.swap_turn() } else { None }
    }
    /// Level 8: the hand-set evaluation plus Xiangqi's correction net
    /// (docs/strength-nnue.md, session 8).
    #[inline]
    fn net_evaluate(&self, acc: &mut crate::nnue::Accumulator) -> Option<i32> {
        net().map(|n| self.evaluate() + n.evaluate_cached(self.board(), self.turn(), acc))
    }
}

/// The network level 8 plays with, if any.
fn net() -> Option<&'static crate::nnue::Network<crate::nnue::Xiangqi90>> {
    crate::nnue::xiangqi()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn eval(fen: &str) -> i32 {
        Xiangqi::from_fen(fen)
            .unwrap_or_else(|e| unreachable!("{fen}: {e}"))
            .evaluate()
    }

    #[test]
    fn start_is_even_and_material_counts() {
        let start = eval("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1");
        assert_eq!(start, PARAMS.tempo);
        // Red without a chariot is much worse.
        let down = eval("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/1NBAKABNR w - - 0 1");
        assert!(down < -700, "{down}");
        // A soldier across the river is worth more than one at home.
        let crossed = eval("3k5/9/9/9/4P4/9/9/9/9/4K4 w - - 0 1");
        let home = eval("3k5/9/9/9/9/9/4P4/9/9/4K4 w - - 0 1");
        assert!(crossed > home + 50, "{crossed} vs {home}");
    }
}
