//! Standard chess: material, piece-square tables, mobility, pawn
//! structure, rooks on open files, the bishop pair, king shelter and king
//! attack, and two end-game helpers (drawish material, driving a bare
//! king to the edge).

use chessplayx_rules::{
    Color,
    chess::{Board, Chess, Role, Rules, Standard},
};

use super::{
    Params, Tapered,
    chess_endgame::{self, EndgameTerms},
    chess_pst,
    chess_terms::{self, ChessTerms},
    chess8::{self, Eval8, PstTable, Weights},
};

/// Hand-set weights (see docs/strength.md for how they were checked).
pub(crate) const WEIGHTS: Weights = Weights {
    material: [
        Tapered::new(90, 115),
        Tapered::new(330, 310),
        Tapered::new(345, 330),
        Tapered::new(480, 550),
        Tapered::new(990, 1020),
        Tapered::new(0, 0),
    ],
    pst_scale: 16,
    mobility: [
        Tapered::new(4, 4),
        Tapered::new(5, 5),
        Tapered::new(2, 4),
        Tapered::new(1, 2),
    ],
    passed_scale: 16,
    doubled: Tapered::new(-8, -18),
    isolated: Tapered::new(-10, -14),
    supported: Tapered::new(6, 8),
    phalanx: Tapered::new(4, 6),
    rook_open: Tapered::new(26, 10),
    rook_semi_open: Tapered::new(12, 6),
    bishop_pair: Tapered::new(28, 48),
};

/// Everything chess's evaluation weighs: the common terms and its own.
#[derive(Copy, Clone, Debug)]
pub(crate) struct StandardParams {
    pub(crate) w: Weights,
    /// Bonus for having the move.
    pub(crate) tempo: i32,
    /// Per shelter pawn in front of a king at home (up to three).
    pub(crate) shelter: i32,
    /// King attack: units² × this / 32 (with the enemy queen on).
    pub(crate) king_attack: i32,
    /// Threats, outposts and the kings' race to a passer
    /// ([`chess_terms`]): level 8 only.
    pub(crate) terms: Option<ChessTerms>,
    /// Play with the fitted piece-square tables of
    /// [`chess_pst::TOP_PST`] (level 8 only; `w.pst_scale` is then
    /// unused) instead of the shared shapes, which levels 1–7 were
    /// calibrated with.
    pub(crate) own_pst: bool,
    /// End-game scaling, the initiative, bad bishops and backward pawns
    /// ([`chess_endgame`]): level 8 only.
    pub(crate) endgame: Option<EndgameTerms>,
}

/// The weights chess is played with: hand-set; a Texel fit did not beat
/// them (docs/strength.md, "Tuning the evaluation").
pub(crate) const PARAMS: StandardParams = StandardParams {
    w: WEIGHTS,
    tempo: 14,
    shelter: 9,
    king_attack: 16,
    terms: None,
    own_pst: false,
    endgame: None,
};

/// Level 8's weights: [`PARAMS`] and chess's own terms. The threats,
/// outposts and passers' kings scored 58/80 at 10,000 nodes a move
/// against level 8 without them, and 85/122 (+144 ± 63 Elo) at 100 ms a
/// move; the king danger and the mobility area that replace the common
/// attack units and mobility for level 8 (chess_king.rs) scored 61.5/122
/// and 66/122 in turn at 100 ms (docs/strength-chess.md, session 9).
/// Session 11 refitted the weights (`tune fit` from these terms, the
/// common mobility left at zero) to Fairy-Stockfish's 5,000-node scores
/// of 72,000 self-play positions: the held-out error fell from 0.0247 to
/// 0.0183 (docs/strength-nnue.md, "Session 11").
pub(crate) const TOP_PARAMS: StandardParams = StandardParams {
    w: Weights {
        material: [
            Tapered::new(114, 71),
            Tapered::new(450, 297),
            Tapered::new(479, 323),
            Tapered::new(620, 525),
            Tapered::new(1237, 901),
            Tapered::new(0, 0),
        ],
        pst_scale: 14,
        mobility: [
            Tapered::new(0, 0),
            Tapered::new(0, 0),
            Tapered::new(0, 0),
            Tapered::new(0, 0),
        ],
        passed_scale: 10,
        doubled: Tapered::new(-10, 7),
        isolated: Tapered::new(-12, -12),
        supported: Tapered::new(4, 6),
        phalanx: Tapered::new(7, 8),
        rook_open: Tapered::new(83, -25),
        rook_semi_open: Tapered::new(33, -18),
        bishop_pair: Tapered::new(38, 54),
    },
    tempo: 44,
    shelter: 15,
    king_attack: 16,
    terms: Some(ChessTerms {
        by_pawn: Tapered::new(89, 12),
        by_minor: [
            Tapered::new(-4, 18),
            Tapered::new(29, 43),
            Tapered::new(48, 27),
            Tapered::new(72, 28),
            Tapered::new(91, 9),
        ],
        by_rook: [
            Tapered::new(6, 27),
            Tapered::new(28, 31),
            Tapered::new(29, 33),
            Tapered::new(-7, 9),
            Tapered::new(89, -19),
        ],
        hanging: Tapered::new(4, 54),
        outpost: [Tapered::new(46, 2), Tapered::new(13, -8)],
        king_weight: [35, 52, 32, 38],
        king_hits: 41,
        king_weak: 89,
        unsafe_check: 92,
        safe_check: [395, 298, 424, 340],
        no_queen: 878,
        knight_defender: 98,
        king_offset: 117,
        mob_slope: [
            Tapered::new(10, 4),
            Tapered::new(11, 5),
            Tapered::new(4, 5),
            Tapered::new(10, -3),
        ],
        mob_zero: [4, 6, 5, -29],
        mob_knee: [7, 5, 10, 9],
        mob_trapped: [
            Tapered::new(8, 12),
            Tapered::new(9, 29),
            Tapered::new(3, 90),
            Tapered::new(-23, -162),
        ],
        // The passers' kings did not move in the fit; the king danger's
        // threshold, cap and divisor were not among the fitted weights
        // then (cap and divisor are now), nor were the wing terms
        // (session 31: fitted with the rest of the king danger to the
        // reference's static evaluation they lost, z = −2.75, and to game
        // results gained nothing, z = −0.65; docs/strength-session-31.md),
        // which stay zero.
        ..chess_terms::TERMS
    }),
    // The fitted tables (session 14) scored 134/244 (+34 ± 43) at 100 ms
    // against the shared tables at equal time (docs/strength-chess.md,
    // "Session 14").
    own_pst: true,
    // Off: with them level 8 scored 30.5/76 (−69 ± 85) and, without the
    // few-pawns scale, 53/122 (−46 ± 64) against itself without them
    // (docs/strength-chess.md, "Session 15"). `Some(chess_endgame::TERMS)`
    // plays them.
    endgame: None,
};

impl Params for StandardParams {
    fn visit(&mut self, f: &mut dyn FnMut(&str, &mut i32)) {
        self.w.visit("", f);
        f("tempo", &mut self.tempo);
        f("shelter", &mut self.shelter);
        f("king_attack", &mut self.king_attack);
        if let Some(t) = &mut self.terms {
            t.visit("", f);
        }
    }
}

/// King shelter and the enemy's attack on the king zone.
pub(crate) fn king_safety(
    board: &Board,
    us: Color,
    enemy_units: i32,
    p: &StandardParams,
) -> Tapered {
    let Some(k) = board.king_of(us) else {
        return Tapered::default();
    };
    let mut s = Tapered::default();
    let home = chess8::relative(us, k).rank() as usize <= 1;
    if home {
        s.mg += p.shelter * chess8::shelter(board, us, k).min(3);
    }
    let enemy_queen = (board.by_role(Role::Queen) & board.by_color(us.other())).any();
    if enemy_queen && enemy_units > 0 {
        s.mg -= (enemy_units * enemy_units * p.king_attack / 32).min(500);
    }
    s
}

/// Non-pawn material of `color` in plain values.
pub(crate) fn piece_material(board: &Board, color: Color) -> i32 {
    let own = board.by_color(color);
    [Role::Knight, Role::Bishop, Role::Rook, Role::Queen]
        .iter()
        .map(|&r| (board.by_role(r) & own).count() as i32 * chess8::SEE_VALUE[r as usize])
        .sum()
}

/// End-game corrections, White's point of view: a side without pawns
/// needs more than a minor piece's edge to win; against a bare king,
/// drive it to the edge and bring the own king closer (the search alone
/// is too shallow to find the mate).
pub(crate) fn endgame(board: &Board, v: i32) -> i32 {
    let strong = if v >= 0 { Color::White } else { Color::Black };
    let weak = strong.other();
    let mut v = v;
    if drawish(board, v) {
        v /= 4;
    }
    let bare = board.by_color(weak) == board.kings() & board.by_color(weak);
    if bare
        && piece_material(board, strong) >= chess8::SEE_VALUE[Role::Rook as usize]
        && let (Some(wk), Some(sk)) = (board.king_of(weak), board.king_of(strong))
    {
        let shaping = 20 * chess8::centre_distance(wk) + 8 * (7 - chess8::distance(wk, sk));
        v += if strong == Color::White {
            shaping
        } else {
            -shaping
        };
    }
    v
}

/// Whether [`endgame`] quarters the blended score `v` (White's point of
/// view): the side ahead has no pawns and at most a minor piece's edge.
pub(crate) fn drawish(board: &Board, v: i32) -> bool {
    let strong = if v >= 0 { Color::White } else { Color::Black };
    let strong_pawns = (board.pawns() & board.by_color(strong)).count();
    let diff = piece_material(board, strong) - piece_material(board, strong.other());
    strong_pawns == 0 && diff <= chess8::SEE_VALUE[Role::Bishop as usize]
}

/// The tapered score before the phase blend, White's point of view, with
/// `table` in place of the shared piece-square tables when given.
fn tapered(b: &Board, p: &StandardParams, table: Option<&PstTable>) -> Tapered {
    let units = p.terms.is_none();
    let (ws, wu) = chess8::side_terms_with(b, Color::White, &p.w, table, units);
    let (bs, bu) = chess8::side_terms_with(b, Color::Black, &p.w, table, units);
    // Level 8's terms bring their own king danger, which replaces the
    // attack units (the shelter stays).
    let (terms, wu, bu) = match &p.terms {
        Some(t) => (chess_terms::terms(b, t), 0, 0),
        None => (Tapered::default(), wu, bu),
    };
    let structure = p
        .endgame
        .as_ref()
        .map_or(Tapered::default(), |e| chess_endgame::structure(b, e));
    ws - bs + king_safety(b, Color::White, bu, p) - king_safety(b, Color::Black, wu, p)
        + terms
        + structure
}

/// The phase blend of [`tapered`] (White's point of view, before
/// [`endgame`]) and the share of a change in the end-game half that
/// reaches it: 1 for levels 1–7; level 8 first adds the initiative to the
/// end-game half and then scales it by the winning chances
/// ([`chess_endgame::scale`]).
fn blended(b: &Board, p: &StandardParams, table: Option<&PstTable>) -> (i32, f64) {
    let t = tapered(b, p, table);
    let phase = chess8::phase(b);
    let Some(e) = &p.endgame else {
        return (t.blend(phase), 1.0);
    };
    let eg = t.eg + chess_endgame::initiative(b, t.eg, e);
    let strong = if eg >= 0 { Color::White } else { Color::Black };
    let sf = chess_endgame::scale(b, strong, e);
    let v = Tapered::new(t.mg, eg * sf / chess_endgame::FULL).blend(phase);
    (v, f64::from(sf) / f64::from(chess_endgame::FULL))
}

/// The evaluation (side to move) with `table` as the piece-square tables
/// (`None`: the shared ones scaled by `p.w.pst_scale`), whatever
/// `p.own_pst` says: the fit of the tables evaluates with candidates.
pub(crate) fn evaluate_table(pos: &Chess, p: &StandardParams, table: Option<&PstTable>) -> i32 {
    let b = pos.board();
    let v = endgame(b, blended(b, p, table).0);
    let v = if pos.turn() == Color::White { v } else { -v };
    v + p.tempo
}

/// The shared tables at `scale` (in 1/16) as a table of their own: what
/// [`evaluate_table`] with `None` uses, and where the fit starts.
pub(crate) fn scaled_pst(scale: i32) -> PstTable {
    let mut t = chess8::PST;
    for row in &mut t {
        for e in row.iter_mut() {
            *e = *e * scale / 16;
        }
    }
    t
}

/// How a position's evaluation (White's point of view) moves with the
/// piece-square table entries: by `mg` × the middle-game change plus
/// `eg` × the end-game change of each entry in `pieces`, signed +1 for a
/// White piece and −1 for a Black one. Exact up to the integer rounding
/// of the blend and the end-game quartering and scaling, as long as the
/// change does not flip which side is ahead in an ending (the scale
/// depends on it) or the initiative's clamp at zero.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct PstFeatures {
    pub(crate) mg: f64,
    pub(crate) eg: f64,
    /// `(role × 64 + square as seen by the piece's owner, sign)`.
    pub(crate) pieces: Vec<(u16, i8)>,
}

/// [`PstFeatures`] of `pos` under `p` and `table` (as in
/// [`evaluate_table`]).
pub(crate) fn pst_features(
    pos: &Chess,
    p: &StandardParams,
    table: Option<&PstTable>,
) -> PstFeatures {
    let b = pos.board();
    let phase = chess8::phase(b).min(24);
    let (v, eg_share) = blended(b, p, table);
    let scale = if drawish(b, v) { 0.25 } else { 1.0 };
    let mut pieces = Vec::with_capacity(32);
    for color in [Color::White, Color::Black] {
        let sign = if color == Color::White { 1 } else { -1 };
        for role in Role::ALL {
            for sq in b.by_role(role) & b.by_color(color) {
                let rel = chess8::relative(color, sq) as u16;
                pieces.push((role as u16 * 64 + rel, sign));
            }
        }
    }
    PstFeatures {
        mg: scale * f64::from(phase) / 24.0,
        eg: scale * eg_share * f64::from(24 - phase) / 24.0,
        pieces,
    }
}

impl Eval8 for Standard {
    type Params = StandardParams;
    const PARAMS: StandardParams = PARAMS;
    const TOP_PARAMS: StandardParams = TOP_PARAMS;

    fn evaluate_with(pos: &Chess, p: &StandardParams) -> i32 {
        evaluate_table(pos, p, p.own_pst.then_some(&chess_pst::TOP_PST))
    }

    fn dead_draw(pos: &Chess) -> bool {
        Self::insufficient_material(pos.board())
    }

    /// Chess's net is built in but not played. Session 20's (1.24M
    /// positions) gained +51 ± 48 at equal time, but with it level 8
    /// misses Morphy's mate in two of tests/tactics.rs at every depth
    /// tried, up to 32 (docs/strength-nnue-session-20.md). Return [`crate::nnue::chess`]
    /// to play it.
    fn net() -> Option<&'static crate::nnue::Network> {
        None
    }

    fn null_move(pos: &Chess) -> Option<Chess> {
        if chess8::has_pieces(pos.board(), pos.turn()) {
            chess8::pass(pos)
        } else {
            None
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::Evaluate;

    fn eval(fen: &str) -> i32 {
        Chess::from_fen(fen)
            .unwrap_or_else(|e| unreachable!("{fen}: {e}"))
            .evaluate()
    }

    /// Level 8 skips the pieces' attacks in the common terms (its
    /// mobility weights are zero and its own king danger replaces the
    /// units): the score must be the one the full terms give, in
    /// positions from random games.
    #[test]
    fn level_8_common_terms_lose_nothing_without_the_attacks() {
        let w = &TOP_PARAMS.w;
        let table = Some(&chess_pst::TOP_PST);
        let mut rng = crate::rng::Rng::new(28);
        let mut moves = Vec::new();
        let mut checked = 0;
        for _ in 0..20 {
            let mut pos = Chess::start();
            for _ in 0..80 {
                pos.legal_moves_into(&mut moves);
                if moves.is_empty() {
                    break;
                }
                pos.play(moves[rng.below(moves.len() as u32) as usize]);
                for c in [Color::White, Color::Black] {
                    let (full, units) = chess8::side_terms_with(pos.board(), c, w, table, true);
                    let (lean, none) = chess8::side_terms_with(pos.board(), c, w, table, false);
                    assert_eq!((full.mg, full.eg), (lean.mg, lean.eg), "{}", pos.fen());
                    assert_eq!(none, 0);
                    checked += usize::from(units > 0);
                }
            }
        }
        assert!(checked > 0, "some positions had attack units to drop");
    }

    #[test]
    fn symmetric_positions_differ_only_by_tempo() {
        assert_eq!(
            eval("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"),
            PARAMS.tempo
        );
        assert_eq!(
            eval("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3"),
            eval("rnbqkb1r/pppp1ppp/5n2/4p3/4P3/2N5/PPPP1PPP/R1BQKBNR b KQkq - 2 3")
        );
    }

    #[test]
    fn level_8_weighs_more_and_stays_symmetric() {
        let top = |fen: &str| {
            let pos = Chess::from_fen(fen).unwrap_or_else(|e| unreachable!("{fen}: {e}"));
            Standard::evaluate_with(&pos, &TOP_PARAMS)
        };
        let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
        assert_eq!(top(start), TOP_PARAMS.tempo);
        // A knight a pawn attacks: only level 8's weights see the threat.
        let fen = "4k3/pppp4/8/3n4/4P3/8/PPP5/4K3 w - - 0 1";
        assert!(top(fen) > eval(fen) + 50, "{} {}", top(fen), eval(fen));
    }

    /// The position with colours swapped and the board flipped (no
    /// castling rights or en-passant square in the FENs used).
    fn mirror(fen: &str) -> String {
        let parts: Vec<&str> = fen.split(' ').collect();
        let turn = if parts[1] == "w" { "b" } else { "w" };
        format!(
            "{} {turn} - - 0 1",
            crate::nnue::tests::flip_placement(parts[0])
        )
    }

    #[test]
    fn level_8_is_colour_symmetric_in_the_middle_game() {
        // King danger, mobility areas, shelter and threats on both sides
        // of real middle games: the mirrored position scores the same
        // for the side to move.
        let top = |fen: &str| {
            let pos = Chess::from_fen(fen).unwrap_or_else(|e| unreachable!("{fen}: {e}"));
            Standard::evaluate_with(&pos, &TOP_PARAMS)
        };
        for fen in [
            "r1b2rk1/pp1nqppp/2p1p3/3p4/2PP4/2NBPN2/PPQ2PPP/R4RK1 w - - 0 10",
            "r4rk1/ppp2ppp/2n5/3q4/3P2b1/2P2N2/P1Q2PPP/R1B2RK1 b - - 0 12",
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w - - 0 1",
            "2r3k1/pp3ppp/2n1b3/3p4/3P4/2PB1N2/P4PPP/4R1K1 w - - 0 20",
        ] {
            assert_eq!(top(fen), top(&mirror(fen)), "{fen}");
        }
    }

    #[test]
    fn material_and_structure_count() {
        // A knight up is a lot; the side to move's view flips the sign.
        let up = eval("4k3/pppp4/8/8/8/8/PPPP4/3NK3 w - - 0 1");
        assert!(up > 250, "{up}");
        assert!(eval("4k3/pppp4/8/8/8/8/PPPP4/3NK3 b - - 0 1") < -250);
        // A lone knight cannot win: scaled down.
        assert!(eval("4k3/8/8/8/8/8/8/3NK3 w - - 0 1") < 120);
        // A passed pawn on the sixth beats one on the third.
        assert!(eval("4k3/8/3P4/8/8/8/8/4K3 w - - 0 1") > eval("4k3/8/8/8/8/3P4/8/4K3 w - - 0 1"));
        // Doubled pawns are worse than healthy ones.
        assert!(
            eval("4k3/pp6/8/8/8/8/PP6/4K3 w - - 0 1") > eval("4k3/pp6/8/8/8/P7/P7/4K3 w - - 0 1")
        );
    }

    #[test]
    fn see_follows_the_exchange() {
        let pos = Chess::from_fen("4k3/8/3p4/4p3/8/5N2/8/4K3 w - - 0 1")
            .unwrap_or_else(|e| unreachable!("{e}"));
        let nxe5 = pos
            .legal_moves()
            .into_iter()
            .find(|m| m.to().to_string() == "e5")
            .unwrap_or_else(|| unreachable!("Nxe5 is legal"));
        // The pawn is defended: knight for pawn loses.
        assert!(!pos.see_ge(nxe5, 0));
        assert!(pos.see_ge(nxe5, -250));
        let pos = Chess::from_fen("4k3/8/8/4p3/8/5N2/8/4K3 w - - 0 1")
            .unwrap_or_else(|e| unreachable!("{e}"));
        let nxe5 = pos
            .legal_moves()
            .into_iter()
            .find(|m| m.to().to_string() == "e5")
            .unwrap_or_else(|| unreachable!("Nxe5 is legal"));
        assert!(pos.see_ge(nxe5, 100));
        assert!(!pos.see_ge(nxe5, 101));
    }
}
