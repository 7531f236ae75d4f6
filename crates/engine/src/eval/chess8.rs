//! What the three 8×8 games share: move codes, static exchange
//! evaluation, the null move, piece-square tables and the usual pawn and
//! piece terms, all written once over `Position<R>`.

use chessplayx_rules::{
    Color,
    chess::{
        Bitboard, Board, File, Move, Position, Rank, Role, Rules, Square, bishop_attacks,
        king_attacks, knight_attacks, line, pawn_attacks, queen_attacks, rook_attacks,
    },
};

use super::{Evaluate, Params, Tapered, Tuned, visit_tapered};

/// The parts of the evaluation in which the three 8×8 games differ; the
/// rest of [`Evaluate`] (move codes, history slots, what counts as a
/// tactical move) is the same for all of them and written once below.
pub(crate) trait Eval8: Rules {
    /// [`Tuned::Params`].
    type Params: Params;
    /// [`Tuned::PARAMS`]: the weights levels 1–7 were calibrated with.
    const PARAMS: Self::Params;
    /// Level 8's weights: the same unless a game has terms that only the
    /// top level weighs (chess: docs/strength-chess.md), so that a
    /// stronger evaluation does not move the lower levels' calibration.
    const TOP_PARAMS: Self::Params = Self::PARAMS;
    /// [`Tuned::evaluate_with`].
    fn evaluate_with(pos: &Position<Self>, p: &Self::Params) -> i32;

    /// [`Evaluate::gain`]: the victim and a promotion's gain.
    fn gain(pos: &Position<Self>, mv: Move) -> i32 {
        plain_gain(pos, mv)
    }

    /// [`Evaluate::mover_value`].
    fn mover_value(_pos: &Position<Self>, mv: Move) -> i32 {
        SEE_VALUE[mv.role() as usize]
    }

    /// [`Evaluate::see_ge`]: a real exchange on the target square.
    fn see_ge(pos: &Position<Self>, mv: Move, threshold: i32) -> bool {
        see_ge(pos, mv, threshold)
    }

    /// [`Evaluate::lost`]: never, where only checkmate wins.
    fn lost(_pos: &Position<Self>) -> bool {
        false
    }

    /// [`Evaluate::dead_draw`].
    fn dead_draw(pos: &Position<Self>) -> bool;

    /// [`Evaluate::null_move`].
    fn null_move(pos: &Position<Self>) -> Option<Position<Self>>;

    /// The game's network, if it has one.
    fn net() -> Option<&'static crate::nnue::Network> {
        None
    }
}

impl<R: Eval8> Tuned for Position<R> {
    type Params = R::Params;
    const PARAMS: R::Params = R::PARAMS;

    #[inline]
    fn evaluate_with(&self, p: &R::Params) -> i32 {
        R::evaluate_with(self, p)
    }
}

impl<R: Eval8> Evaluate for Position<R> {
    #[inline]
    fn evaluate(&self) -> i32 {
        R::evaluate_with(self, &R::PARAMS)
    }

    #[inline]
    fn gain(&self, mv: Move) -> i32 {
        R::gain(self, mv)
    }

    #[inline]
    fn mover_value(&self, mv: Move) -> i32 {
        R::mover_value(self, mv)
    }

    /// Captures and queen promotions (under-promotions are quiet: they
    /// matter only when the search reaches them anyway).
    #[inline]
    fn is_tactical(&self, mv: Move) -> bool {
        self.is_capture(mv) || mv.promotion() == Some(Role::Queen)
    }

    #[inline]
    fn see_ge(&self, mv: Move, threshold: i32) -> bool {
        R::see_ge(self, mv, threshold)
    }

    #[inline]
    fn is_pawn_advance(&self, mv: Move) -> bool {
        is_pawn_advance(self.turn(), mv)
    }

    #[inline]
    fn move_code(mv: Move) -> u16 {
        move_code(mv)
    }

    #[inline]
    fn history_slot(&self, mv: Move) -> usize {
        history_slot(mv)
    }

    /// Decodes `move_code`: the mover stands on its from square; the
    /// move is quiet when its target is empty, it is no pawn's capture
    /// (en passant) and no queen promotion.
    fn quiet_slot_of_code(&self, code: u16) -> Option<usize> {
        let from = Square::new(u32::from(code & 63))?;
        let to = Square::new(u32::from(code >> 6 & 63))?;
        let role = self.piece_at(from)?.role;
        let promo = code >> 12;
        let quiet = self.piece_at(to).is_none()
            && !(role == Role::Pawn && from.file() != to.file())
            && promo != Role::Queen as u16;
        quiet.then(|| role_slot(role, to))
    }

    #[inline]
    fn lost(&self) -> bool {
        R::lost(self)
    }

    /// Checkmate loses; stalemate draws in all three games.
    #[inline]
    fn no_moves_loses(&self) -> bool {
        self.is_check()
    }

    #[inline]
    fn dead_draw(&self) -> bool {
        R::dead_draw(self)
    }

    #[inline]
    fn halfmoves(&self) -> u32 {
        Self::halfmoves(self)
    }

    fn null_move(&self) -> Option<Self> {
        R::null_move(self)
    }

    /// A direct check from the target square, or a move off a line
    /// through the enemy king (a discovered check, maybe); castling,
    /// promotion and en passant are left to the caller's test.
    #[inline]
    fn may_check(&self, mv: Move) -> bool {
        let b = self.board();
        let us = self.turn();
        let Some(king) = b.king_of(!us) else {
            return false;
        };
        if mv.castling_side().is_some() || mv.promotion().is_some() || mv.is_en_passant() {
            return true;
        }
        let (from, to) = (mv.from(), mv.to());
        let occ = (b.occupied() ^ Bitboard::from_square(from)) | Bitboard::from_square(to);
        let reach = match mv.role() {
            Role::Pawn => pawn_attacks(us, to),
            Role::Knight => knight_attacks(to),
            Role::Bishop => bishop_attacks(to, occ),
            Role::Rook => rook_attacks(to, occ),
            Role::Queen => queen_attacks(to, occ),
            Role::King => Bitboard::default(),
        };
        reach.contains(king) || line(from, king).any()
    }

    #[inline]
    fn pawn_key(&self) -> u64 {
        let b = self.board();
        let pawns = b.pawns();
        let white = (pawns & b.by_color(Color::White)).0;
        let black = (pawns & b.by_color(Color::Black)).0;
        // Multiply-and-fold: cheap, and every pawn moves the index bits.
        let h =
            white.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ black.wrapping_mul(0xC2B2_AE3D_27D4_EB4F);
        h ^ (h >> 29) ^ (h >> 47)
    }

    #[inline]
    fn piece_keys(&self) -> [u64; 2] {
        let b = self.board();
        let key = |c: Color| {
            let ours = b.by_color(c);
            // One odd multiplier per role, so that the same squares held
            // by other roles give another key.
            let h = (b.knights() & ours).0.wrapping_mul(0x9E37_79B9_7F4A_7C15)
                ^ (b.by_role(Role::Bishop) & ours)
                    .0
                    .wrapping_mul(0xC2B2_AE3D_27D4_EB4F)
                ^ (b.by_role(Role::Rook) & ours)
                    .0
                    .wrapping_mul(0x1656_67B1_9E37_79F9)
                ^ (b.by_role(Role::Queen) & ours)
                    .0
                    .wrapping_mul(0x27D4_EB2F_1656_67C5)
                ^ (b.kings() & ours).0.wrapping_mul(0x85EB_CA77_C2B2_AE63);
            h ^ (h >> 29) ^ (h >> 47)
        };
        [key(Color::White), key(Color::Black)]
    }

    /// Level 8's evaluation: `Eval8::TOP_PARAMS` (the game's level-8 weights), plus the network's
    /// correction in the games that have one.
    #[inline]
    fn net_evaluate(&self, acc: &mut crate::nnue::Accumulator) -> Option<i32> {
        let v = R::evaluate_with(self, &R::TOP_PARAMS);
        Some(R::net().map_or(v, |n| v + n.evaluate_cached(self.board(), self.turn(), acc)))
    }
}

/// Exchange values (centipawns) for SEE and move ordering: the plain
/// chess values; the king is "priceless".
pub(crate) const SEE_VALUE: [i32; 6] = [100, 320, 330, 500, 950, 20_000];

/// The TT code of an 8×8 move: from, to and the promotion (never 0: a
/// move's from and to differ).
#[inline]
pub(crate) fn move_code(mv: Move) -> u16 {
    let promo = mv.promotion().map_or(0, |r| r as u16);
    mv.from() as u16 | (mv.to() as u16) << 6 | promo << 12
}

/// A pawn push to the sixth rank or beyond (as seen by the mover).
#[inline]
pub(crate) fn is_pawn_advance(color: Color, mv: Move) -> bool {
    mv.role() == Role::Pawn && relative(color, mv.to()).rank() as usize >= 5
}

/// History slot: moving role × target square.
#[inline]
pub(crate) fn history_slot(mv: Move) -> usize {
    role_slot(mv.role(), mv.to())
}

/// The history slot of `role` moving to `to`, shared by a move and a
/// decoded table code.
#[inline]
const fn role_slot(role: Role, to: Square) -> usize {
    role as usize * 64 + to as usize
}

/// Material won at once by a normal (non-atomic) move: the victim plus a
/// promotion's gain.
#[inline]
pub(crate) fn plain_gain<R: Rules>(pos: &Position<R>, mv: Move) -> i32 {
    let victim = pos.captured(mv).map_or(0, |r| SEE_VALUE[r as usize]);
    let promo = mv
        .promotion()
        .map_or(0, |r| SEE_VALUE[r as usize] - SEE_VALUE[0]);
    victim + promo
}

/// The position with the other side to move, when the side to move is
/// not in check. Built through a setup: the position type offers no
/// cheaper way, and null moves are rare enough (one per interior node at
/// most) for it not to matter.
pub(crate) fn pass<R: Rules>(pos: &Position<R>) -> Option<Position<R>> {
    if pos.is_check() {
        return None;
    }
    let mut setup = pos.to_setup();
    setup.turn = setup.turn.other();
    setup.ep_square = None;
    Position::from_setup(setup).ok()
}

/// Non-pawn, non-king material of `color` (knights, bishops, rooks,
/// queens): null moves need some so that zugzwang is unlikely.
#[inline]
pub(crate) fn has_pieces(board: &Board, color: Color) -> bool {
    (board.by_color(color) & !(board.pawns() | board.kings())).any()
}

/// Both sides' pieces attacking `sq` with `occ` as blockers.
#[inline]
fn all_attackers(board: &Board, sq: Square, occ: Bitboard) -> Bitboard {
    board.attackers_to(sq, Color::White, occ) | board.attackers_to(sq, Color::Black, occ)
}

/// Static exchange evaluation (the swap algorithm): does `mv` keep at
/// least `threshold` after the best sequence of recaptures on its square?
/// For chess and Horde, where captures are plain.
pub(crate) fn see_ge<R: Rules>(pos: &Position<R>, mv: Move, threshold: i32) -> bool {
    if mv.castling_side().is_some() || mv.is_en_passant() || mv.promotion().is_some() {
        return plain_gain(pos, mv) >= threshold;
    }
    let board = pos.board();
    let (from, to) = (mv.from(), mv.to());
    let mut swap = pos.captured(mv).map_or(0, |r| SEE_VALUE[r as usize]) - threshold;
    if swap < 0 {
        return false;
    }
    swap = SEE_VALUE[mv.role() as usize] - swap;
    if swap <= 0 {
        return true;
    }
    let mut occ = board.occupied() ^ Bitboard::from_square(from) ^ Bitboard::from_square(to);
    let mut stm = pos.turn();
    let mut attackers = all_attackers(board, to, occ);
    let mut res = true;
    let diag = board.bishops_and_queens();
    let orth = board.rooks_and_queens();
    loop {
        stm = stm.other();
        attackers &= occ;
        let mine = attackers & board.by_color(stm);
        if mine.is_empty() {
            break;
        }
        res = !res;
        // Least valuable attacker.
        let mut found = None;
        for role in Role::ALL {
            let bb = mine & board.by_role(role);
            if let Some(sq) = bb.first() {
                found = Some((role, sq));
                break;
            }
        }
        let Some((role, sq)) = found else { break };
        if role == Role::King {
            // The king may take only if nothing defends.
            return if (attackers & board.by_color(stm.other())).any() {
                !res
            } else {
                res
            };
        }
        swap = SEE_VALUE[role as usize] - swap;
        if swap < i32::from(res) {
            break;
        }
        occ ^= Bitboard::from_square(sq);
        if matches!(role, Role::Pawn | Role::Bishop | Role::Queen) {
            attackers |= bishop_attacks(to, occ) & diag;
        }
        if matches!(role, Role::Rook | Role::Queen) {
            attackers |= rook_attacks(to, occ) & orth;
        }
    }
    res
}

/// The square as seen by `color` (its own first rank is rank 1).
#[inline]
pub(crate) const fn relative(color: Color, sq: Square) -> Square {
    match color {
        Color::White => sq,
        Color::Black => sq.flip_vertical(),
    }
}

/// Distance from the nearer edge: 0 on the rim, 3 in the centre.
const fn edge_distance(i: usize) -> i32 {
    let d = if i < 4 { i } else { 7 - i };
    d as i32
}

/// Piece-square tables from White's point of view, built from simple
/// shapes (centralisation, advancement, king shelter) rather than copied
/// numbers, so each entry can be explained.
const fn pst(role: Role, sq: usize) -> Tapered {
    let f = sq & 7;
    let r = sq >> 3;
    let fd = edge_distance(f);
    let rd = edge_distance(r);
    match role {
        Role::Pawn => {
            let adv_mg = [0, 0, 2, 6, 14, 28, 50, 0][r];
            let adv_eg = [0, 0, 4, 10, 22, 40, 70, 0][r];
            // Central pawns on ranks 3–5 hold the centre.
            let centre = if (f == 3 || f == 4) && r >= 2 && r <= 4 {
                12
            } else {
                0
            };
            // Unmoved wing pawns in front of the castled king are worth
            // keeping; rim pawns are slightly weaker.
            let rim = if f == 0 || f == 7 { -6 } else { 0 };
            Tapered::new(adv_mg + centre + rim, adv_eg)
        }
        Role::Knight => {
            let c = fd + rd;
            let back = if r == 0 { -10 } else { 0 };
            Tapered::new(c * 9 - 28 + back, c * 7 - 22)
        }
        Role::Bishop => {
            let c = fd + rd;
            let diag = if f == r || f + r == 7 { 8 } else { 0 };
            Tapered::new(c * 4 - 12 + diag, c * 4 - 12)
        }
        Role::Rook => {
            let seventh = if r == 6 { 18 } else { 0 };
            let central = if f >= 2 && f <= 5 { 5 } else { 0 };
            Tapered::new(seventh + central, if r == 6 { 12 } else { 0 })
        }
        Role::Queen => {
            let c = fd + rd;
            Tapered::new(c * 2 - 6, c * 5 - 15)
        }
        Role::King => {
            let mg = match r {
                0 => [18, 28, 8, -6, -6, 8, 28, 18][f],
                1 => [8, 6, -8, -20, -20, -8, 6, 8][f],
                _ => -25 - 12 * (r as i32),
            };
            let c = fd + rd;
            Tapered::new(mg, c * 12 - 36)
        }
    }
}

const fn build_pst() -> [[Tapered; 64]; 6] {
    let mut t = [[Tapered::new(0, 0); 64]; 6];
    let mut role = 0;
    while role < 6 {
        let mut sq = 0;
        while sq < 64 {
            t[role][sq] = pst(Role::ALL[role], sq);
            sq += 1;
        }
        role += 1;
    }
    t
}

/// The tables, indexed `[role][square as seen by the piece's owner]`.
pub(crate) static PST: [[Tapered; 64]; 6] = build_pst();

/// Passed-pawn bonus by relative rank.
pub(crate) const PASSED: [Tapered; 8] = [
    Tapered::new(0, 0),
    Tapered::new(4, 10),
    Tapered::new(6, 14),
    Tapered::new(12, 24),
    Tapered::new(24, 44),
    Tapered::new(42, 76),
    Tapered::new(64, 116),
    Tapered::new(0, 0),
];

/// Squares in front of a `color` pawn on `sq`, on its file and the
/// adjacent ones: where an enemy pawn would stop it or take it.
#[inline]
pub(crate) fn front_span(color: Color, sq: Square) -> Bitboard {
    let file = sq.file() as usize;
    let mut files = Bitboard::file(sq.file()).0;
    if file > 0 {
        files |= Bitboard::file(File::ALL[file - 1]).0;
    }
    if file < 7 {
        files |= Bitboard::file(File::ALL[file + 1]).0;
    }
    let r = sq.rank() as u32;
    let ahead = match color {
        Color::White => {
            if r >= 7 {
                0
            } else {
                !0u64 << (8 * (r + 1))
            }
        }
        Color::Black => {
            if r == 0 {
                0
            } else {
                !0u64 >> (8 * (8 - r))
            }
        }
    };
    Bitboard(files & ahead)
}

/// Files next to `file`.
#[inline]
pub(crate) fn adjacent_files(file: File) -> Bitboard {
    let f = file as usize;
    let mut bb = 0;
    if f > 0 {
        bb |= Bitboard::file(File::ALL[f - 1]).0;
    }
    if f < 7 {
        bb |= Bitboard::file(File::ALL[f + 1]).0;
    }
    Bitboard(bb)
}

/// Squares attacked by `color`'s pawns.
#[inline]
pub(crate) fn pawn_attack_set(board: &Board, color: Color) -> Bitboard {
    pawn_attacks_from(color, board.pawns() & board.by_color(color))
}

/// Squares `color`'s pawns would attack from `from`.
#[inline]
pub(crate) fn pawn_attacks_from(color: Color, from: Bitboard) -> Bitboard {
    let not_a = !Bitboard::file(File::A).0;
    let not_h = !Bitboard::file(File::H).0;
    let p = from.0;
    Bitboard(match color {
        Color::White => ((p & not_a) << 7) | ((p & not_h) << 9),
        Color::Black => ((p & not_a) >> 9) | ((p & not_h) >> 7),
    })
}

/// Weights of the common piece and pawn terms; each game sets its own.
#[derive(Copy, Clone, Debug)]
pub(crate) struct Weights {
    /// Material by role (the king's entry is unused).
    pub(crate) material: [Tapered; 6],
    /// Multiplier (in 1/16) of the piece-square tables.
    pub(crate) pst_scale: i32,
    /// Per reachable square, by role (knight, bishop, rook, queen).
    pub(crate) mobility: [Tapered; 4],
    /// Multiplier (in 1/16) of the passed-pawn table.
    pub(crate) passed_scale: i32,
    pub(crate) doubled: Tapered,
    pub(crate) isolated: Tapered,
    pub(crate) supported: Tapered,
    pub(crate) phalanx: Tapered,
    pub(crate) rook_open: Tapered,
    pub(crate) rook_semi_open: Tapered,
    pub(crate) bishop_pair: Tapered,
}

impl Weights {
    /// Visits every weight under `prefix` (the king's material, always
    /// 0, is left out).
    pub(crate) fn visit(&mut self, prefix: &str, f: &mut dyn FnMut(&str, &mut i32)) {
        const ROLES: [&str; 5] = ["pawn", "knight", "bishop", "rook", "queen"];
        for (name, t) in ROLES.iter().zip(&mut self.material) {
            visit_tapered(&format!("{prefix}material.{name}"), t, f);
        }
        f(&format!("{prefix}pst_scale"), &mut self.pst_scale);
        for (name, t) in ROLES[1..].iter().zip(&mut self.mobility) {
            visit_tapered(&format!("{prefix}mobility.{name}"), t, f);
        }
        f(&format!("{prefix}passed_scale"), &mut self.passed_scale);
        for (name, t) in [
            ("doubled", &mut self.doubled),
            ("isolated", &mut self.isolated),
            ("supported", &mut self.supported),
            ("phalanx", &mut self.phalanx),
            ("rook_open", &mut self.rook_open),
            ("rook_semi_open", &mut self.rook_semi_open),
            ("bishop_pair", &mut self.bishop_pair),
        ] {
            visit_tapered(&format!("{prefix}{name}"), t, f);
        }
    }
}

/// Mobility is counted from this many squares on, per role (knight,
/// bishop, rook, queen), so an average piece scores about zero.
const MOBILITY_ZERO: [i32; 4] = [4, 6, 6, 12];

/// The common terms for one side: material, tables, mobility, pawn
/// structure, rooks on files, bishop pair. Returns the score and the
/// number of attack units its pieces aim at the enemy king's zone.
pub(crate) fn side_terms(board: &Board, us: Color, w: &Weights) -> (Tapered, i32) {
    side_terms_with(board, us, w, None, true)
}

/// A game's own piece-square tables, indexed like [`PST`] but already at
/// their final size (no `pst_scale`): chess's level 8 plays with fitted
/// ones (eval/chess_pst.rs) while every other level and game keeps the
/// shared shapes.
pub(crate) type PstTable = [[Tapered; 64]; 6];

/// [`side_terms`] with `table` in place of the shared tables scaled by
/// `w.pst_scale`, when given. Without `units` (the caller scores the
/// king's danger its own way) and with every mobility weight zero, as
/// chess's level 8 has, the pieces' attacks would change nothing: they
/// are not generated (the units come back as 0).
#[inline]
pub(crate) fn side_terms_with(
    board: &Board,
    us: Color,
    w: &Weights,
    table: Option<&PstTable>,
    units: bool,
) -> (Tapered, i32) {
    let need_attacks = units || w.mobility.iter().any(|m| m.mg != 0 || m.eg != 0);
    let them = us.other();
    let occ = board.occupied();
    let own = board.by_color(us);
    let our_pawns = board.pawns() & own;
    let their_pawns = board.pawns() & board.by_color(them);
    let enemy_pawn_attacks = pawn_attack_set(board, them);
    let safe = !(own | enemy_pawn_attacks);
    let enemy_king_zone = board.king_of(them).map_or(Bitboard::EMPTY, |k| {
        king_attacks(k) | Bitboard::from_square(k)
    });

    let mut s = Tapered::default();
    let mut attack_units = 0;
    let mut attackers = 0;
    for role in Role::ALL {
        for sq in board.by_role(role) & own {
            let rel = relative(us, sq) as usize;
            s += w.material[role as usize];
            s += match table {
                Some(t) => t[role as usize][rel],
                None => PST[role as usize][rel] * w.pst_scale / 16,
            };
            if role == Role::Rook {
                let file = Bitboard::file(sq.file());
                if (file & our_pawns).is_empty() {
                    s += if (file & their_pawns).is_empty() {
                        w.rook_open
                    } else {
                        w.rook_semi_open
                    };
                }
            }
            if !need_attacks {
                continue;
            }
            let (att, unit) = match role {
                Role::Knight => (knight_attacks(sq), 2),
                Role::Bishop => (bishop_attacks(sq, occ), 2),
                Role::Rook => (rook_attacks(sq, occ), 3),
                Role::Queen => (queen_attacks(sq, occ), 5),
                _ => continue,
            };
            let i = role as usize - 1;
            let n = (att & safe).count() as i32 - MOBILITY_ZERO[i];
            s += w.mobility[i] * n;
            let hits = (att & enemy_king_zone).count() as i32;
            if hits > 0 {
                attackers += 1;
                attack_units += unit * hits;
            }
        }
    }
    if (board.by_role(Role::Bishop) & own).more_than_one() {
        s += w.bishop_pair;
    }
    s += pawn_terms(board, us, w);
    (s, if attackers >= 2 { attack_units } else { 0 })
}

/// Doubled, isolated, supported, phalanx and passed pawns of `us`.
pub(crate) fn pawn_terms(board: &Board, us: Color, w: &Weights) -> Tapered {
    let them = us.other();
    let our_pawns = board.pawns() & board.by_color(us);
    let their_pawns = board.pawns() & board.by_color(them);
    let support = pawn_attack_set(board, us);
    let occ = board.occupied();
    let mut s = Tapered::default();
    for sq in our_pawns {
        let file = Bitboard::file(sq.file());
        if ((file & our_pawns).0 & !(Bitboard::from_square(sq).0)) != 0 {
            s += w.doubled;
        }
        if (adjacent_files(sq.file()) & our_pawns).is_empty() {
            s += w.isolated;
        }
        if support.contains(sq) {
            s += w.supported;
        }
        let beside = Bitboard(adjacent_files(sq.file()).0 & Bitboard::rank(sq.rank()).0);
        if (beside & our_pawns).any() {
            s += w.phalanx;
        }
        if (front_span(us, sq) & their_pawns).is_empty() {
            let rr = relative(us, sq).rank() as usize;
            let mut bonus = PASSED[rr] * w.passed_scale / 16;
            // A blocked passer is worth much less.
            let stop = match us {
                Color::White => sq.offset(8),
                Color::Black => sq.offset(-8),
            };
            if stop.is_some_and(|t| occ.contains(t)) {
                bonus = bonus / 2;
            }
            s += bonus;
        }
    }
    s
}

/// Game phase from the pieces on the board: 24 with all minor and major
/// pieces, 0 with none.
#[inline]
pub(crate) fn phase(board: &Board) -> i32 {
    let minors = (board.knights() | board.by_role(Role::Bishop)).count() as i32;
    let rooks = board.by_role(Role::Rook).count() as i32;
    let queens = board.by_role(Role::Queen).count() as i32;
    (minors + 2 * rooks + 4 * queens).min(24)
}

/// Pawns of `color` in the three files around `king`, on the two ranks in
/// front of it: the king's shelter.
#[inline]
pub(crate) fn shelter(board: &Board, color: Color, king: Square) -> i32 {
    let files = Bitboard(Bitboard::file(king.file()).0 | adjacent_files(king.file()).0);
    let r = king.rank() as i32;
    let mut ranks = 0u64;
    for dr in 1..=2 {
        let rr = match color {
            Color::White => r + dr,
            Color::Black => r - dr,
        };
        if (0..8).contains(&rr) {
            ranks |= Bitboard::rank(Rank::ALL[rr as usize]).0;
        }
    }
    (board.pawns() & board.by_color(color) & files & Bitboard(ranks)).count() as i32
}

/// Chebyshev distance between two squares.
#[inline]
pub(crate) fn distance(a: Square, b: Square) -> i32 {
    let df = (a.file() as i32 - b.file() as i32).abs();
    let dr = (a.rank() as i32 - b.rank() as i32).abs();
    df.max(dr)
}

/// How far from the centre a square is: 0 in the four centre squares, 3
/// in the corners (Chebyshev).
#[inline]
pub(crate) fn centre_distance(sq: Square) -> i32 {
    let f = sq.file() as i32;
    let r = sq.rank() as i32;
    let df = if f < 4 { 3 - f } else { f - 4 };
    let dr = if r < 4 { 3 - r } else { r - 4 };
    df.max(dr)
}

#[cfg(test)]
mod tests {
    use chessplayx_rules::chess::{AtomicChess, Chess, HordeChess};

    use super::*;
    use crate::rng::Rng;

    /// Random games in `start`'s variant: every quiet move that checks
    /// passes `may_check` (it is a filter for the search, which must not
    /// lose a check), and most quiet moves are filtered out.
    fn may_check_never_misses_a_check<R: Eval8>(start: Position<R>, seed: u64) {
        let mut rng = Rng::new(seed);
        let (mut checks, mut filtered, mut quiet) = (0, 0, 0);
        for _ in 0..40 {
            let mut pos = start;
            let mut moves = Vec::new();
            for _ in 0..120 {
                pos.legal_moves_into(&mut moves);
                if moves.is_empty() || pos.lost() {
                    break;
                }
                for &mv in &moves {
                    if pos.is_tactical(mv) {
                        continue;
                    }
                    quiet += 1;
                    let gives = pos.played(mv).is_check();
                    checks += u32::from(gives);
                    filtered += u32::from(!pos.may_check(mv));
                    assert!(!gives || pos.may_check(mv), "{} {}", pos.fen(), mv.to_uci());
                }
                pos.play(moves[rng.below(moves.len() as u32) as usize]);
            }
        }
        assert!(checks > 0, "the games gave checks");
        assert!(filtered * 2 > quiet, "{filtered} of {quiet} filtered");
    }

    #[test]
    fn may_check_keeps_every_quiet_check() {
        may_check_never_misses_a_check(Chess::start(), 1);
        may_check_never_misses_a_check(AtomicChess::start(), 2);
        may_check_never_misses_a_check(HordeChess::start(), 3);
    }

    #[test]
    fn the_pawn_key_follows_the_pawns_only() {
        let a = Chess::from_fen("4k3/pp6/8/8/8/8/PP6/4K3 w - - 0 1")
            .unwrap_or_else(|e| unreachable!("{e}"));
        let b = Chess::from_fen("3k4/pp6/8/8/8/8/PP6/3K4 b - - 0 1")
            .unwrap_or_else(|e| unreachable!("{e}"));
        let c = Chess::from_fen("4k3/pp6/8/8/8/1P6/P7/4K3 w - - 0 1")
            .unwrap_or_else(|e| unreachable!("{e}"));
        let d = Chess::from_fen("4k3/pP6/8/8/8/8/Pp6/4K3 w - - 0 1")
            .unwrap_or_else(|e| unreachable!("{e}"));
        assert_eq!(a.pawn_key(), b.pawn_key());
        assert_ne!(a.pawn_key(), c.pawn_key());
        assert_ne!(a.pawn_key(), d.pawn_key(), "the colours of the pawns count");
    }

    #[test]
    fn each_sides_piece_key_follows_that_sides_pieces_only() {
        let fen = |f: &str| Chess::from_fen(f).unwrap_or_else(|e| unreachable!("{e}"));
        let a = fen("4k3/pp1n4/8/8/8/8/PP3B2/4K1R1 w - - 0 1");
        let pawns_moved = fen("4k3/p2n4/1p6/8/8/P7/1P3B2/4K1R1 b - - 0 1");
        let white_bishop_moved = fen("4k3/pp1n4/8/8/8/4B3/PP6/4K1R1 w - - 0 1");
        let white_rook_for_bishop = fen("4k3/pp1n4/8/8/8/8/PP3R2/4K1B1 w - - 0 1");
        let black_knight_moved = fen("4k3/pp6/8/2n5/8/8/PP3B2/4K1R1 w - - 0 1");
        let [w, b] = a.piece_keys();
        assert_eq!(
            pawns_moved.piece_keys(),
            [w, b],
            "pawns and side to move do not count"
        );
        assert_ne!(white_bishop_moved.piece_keys()[0], w);
        assert_eq!(white_bishop_moved.piece_keys()[1], b);
        assert_ne!(
            white_rook_for_bishop.piece_keys()[0],
            w,
            "which piece stands where counts"
        );
        assert_eq!(black_knight_moved.piece_keys()[0], w);
        assert_ne!(black_knight_moved.piece_keys()[1], b);
    }
}
