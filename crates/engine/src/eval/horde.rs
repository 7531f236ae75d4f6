//! Horde: White's 36 pawns against Black's army. White wins by mating,
//! Black by taking every white piece. What counts: the pawn mass holding
//! together (chains, no isolated pawns), passed pawns and pawns breaking
//! through near promotion, Black's piece activity, and White's pawns
//! storming the black king.

use chessplayx_rules::{
    Color,
    chess::{Bitboard, Board, File, Horde, HordeChess, Rank, Role},
};

use super::{
    Params, Tapered,
    chess8::{self, Eval8, Weights},
    standard, visit_tapered,
};

/// The horde's weights: pawns are the army, so a pawn is worth a little
/// more than in chess, isolated pawns (easy prey) cost more, doubled pawns
/// (common and less harmful in the horde) less, and chains count.
const WHITE: Weights = Weights {
    material: [
        Tapered::new(100, 128),
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
    passed_scale: 26,
    doubled: Tapered::new(-3, -6),
    isolated: Tapered::new(-14, -22),
    supported: Tapered::new(5, 6),
    phalanx: Tapered::new(2, 4),
    rook_open: Tapered::new(0, 0),
    rook_semi_open: Tapered::new(0, 0),
    bishop_pair: Tapered::new(28, 48),
};

/// Black's weights: mobility matters more (the pieces must find targets
/// in the pawn mass), and Black's own passed pawns run against no king.
const BLACK: Weights = Weights {
    mobility: [
        Tapered::new(6, 6),
        Tapered::new(7, 7),
        Tapered::new(4, 6),
        Tapered::new(2, 3),
    ],
    passed_scale: 22,
    ..standard::WEIGHTS
};

/// Everything Horde's evaluation weighs.
#[derive(Copy, Clone, Debug)]
pub(crate) struct HordeParams {
    white: Weights,
    black: Weights,
    tempo: i32,
    /// Per white pawn storming the black king.
    storm: Tapered,
    /// Attack on the black king: units² × this / 32.
    king_attack: i32,
    /// A blocked white pawn on the seventh rank, on the sixth.
    break7: Tapered,
    break6: Tapered,
    /// Per missing pawn below twelve in a pieceless horde.
    thin: i32,
    /// Per file the horde occupies.
    width: i32,
}

/// Hand-set: the Texel fit could not be used for Horde (docs/strength.md).
const PARAMS: HordeParams = HordeParams {
    white: WHITE,
    black: BLACK,
    tempo: 10,
    storm: Tapered::new(12, 4),
    king_attack: 16,
    break7: Tapered::new(30, 40),
    break6: Tapered::new(12, 18),
    thin: 18,
    width: 4,
};

impl Params for HordeParams {
    fn visit(&mut self, f: &mut dyn FnMut(&str, &mut i32)) {
        self.white.visit("white.", f);
        self.black.visit("black.", f);
        f("tempo", &mut self.tempo);
        visit_tapered("storm", &mut self.storm, f);
        f("king_attack", &mut self.king_attack);
        visit_tapered("break7", &mut self.break7, f);
        visit_tapered("break6", &mut self.break6, f);
        f("thin", &mut self.thin);
        f("width", &mut self.width);
    }
}

/// White pawns close in front of the black king (a storm) and white
/// pieces aiming at it.
fn black_king_danger(board: &Board, units: i32, p: &HordeParams) -> Tapered {
    let Some(k) = board.king_of(Color::Black) else {
        return Tapered::default();
    };
    let files = Bitboard(Bitboard::file(k.file()).0 | chess8::adjacent_files(k.file()).0);
    let r = k.rank() as usize;
    let mut ranks = 0u64;
    for dr in 1..=3 {
        if r >= dr {
            ranks |= Bitboard::rank(Rank::ALL[r - dr]).0;
        }
    }
    let storm = (board.pawns() & board.by_color(Color::White) & files & Bitboard(ranks)).count();
    let mut s = -(p.storm * storm as i32);
    s.mg -= (units * units * p.king_attack / 32).min(400);
    s
}

/// White pawns on the sixth and seventh ranks that are not passed still
/// threaten to break through; passed ones are in the pawn terms.
fn breakthrough(board: &Board, p: &HordeParams) -> Tapered {
    let white = board.pawns() & board.by_color(Color::White);
    let black_pawns = board.pawns() & board.by_color(Color::Black);
    let mut s = Tapered::default();
    for sq in white & Bitboard(Bitboard::rank(Rank::Sixth).0 | Bitboard::rank(Rank::Seventh).0) {
        if (chess8::front_span(Color::White, sq) & black_pawns).any() {
            s += if sq.rank() == Rank::Seventh {
                p.break7
            } else {
                p.break6
            };
        }
    }
    s
}

/// Few pawns left cannot hold Black's pieces off: the horde's value falls
/// faster than its material once it is thin.
fn thin_horde(board: &Board, p: &HordeParams) -> i32 {
    let white = board.by_color(Color::White);
    if (white & !board.pawns()).any() {
        return 0;
    }
    let n = white.count() as i32;
    if n < 12 { -(12 - n) * p.thin } else { 0 }
}

/// Pawns on the a- and h-files are weak links only when alone; the rest of
/// the horde gains from being many files wide.
fn width(board: &Board, p: &HordeParams) -> i32 {
    let white = board.pawns() & board.by_color(Color::White);
    let files = File::ALL
        .iter()
        .filter(|&&f| (Bitboard::file(f) & white).any())
        .count() as i32;
    files * p.width
}

impl Eval8 for Horde {
    type Params = HordeParams;
    const PARAMS: HordeParams = PARAMS;

    fn evaluate_with(pos: &HordeChess, p: &HordeParams) -> i32 {
        let b = pos.board();
        let (ws, wu) = chess8::side_terms(b, Color::White, &p.white);
        let (bs, _) = chess8::side_terms(b, Color::Black, &p.black);
        let s = ws - bs + black_king_danger(b, wu, p) + breakthrough(b, p);
        // Only Black has pieces at the start: its army alone is the full
        // middle game.
        let phase = (2 * chess8::phase(b)).min(24);
        let mut v = s.blend(phase) + thin_horde(b, p) + width(b, p);
        if b.by_role(Role::Pawn).count() == 0 {
            v = standard::endgame(b, v);
        }
        let v = if pos.turn() == Color::White { v } else { -v };
        v + p.tempo
    }

    fn net() -> Option<&'static crate::nnue::Network> {
        crate::nnue::horde()
    }

    /// The horde is destroyed.
    fn lost(pos: &HordeChess) -> bool {
        pos.turn() == Color::White && pos.board().by_color(Color::White).is_empty()
    }

    /// Insufficient material never ends Horde.
    fn dead_draw(_pos: &HordeChess) -> bool {
        false
    }

    /// Never for White: pawns cannot lose a tempo, so zugzwang is the
    /// rule rather than the exception.
    fn null_move(pos: &HordeChess) -> Option<HordeChess> {
        if pos.turn() == Color::Black && chess8::has_pieces(pos.board(), Color::Black) {
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
        HordeChess::from_fen(fen)
            .unwrap_or_else(|e| unreachable!("{fen}: {e}"))
            .evaluate()
    }

    #[test]
    fn start_is_roughly_balanced_and_terms_point_the_right_way() {
        let start =
            eval("rnbqkbnr/pppppppp/8/1PP2PP1/PPPPPPPP/PPPPPPPP/PPPPPPPP/PPPPPPPP w kq - 0 1");
        assert!(start.abs() < 150, "{start}");
        // Losing a chunk of the horde is bad for White.
        let thin = eval("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/8 w kq - 0 1");
        assert!(thin < -400, "{thin}");
        // A white pawn about to promote with nothing in front is good.
        let runner = eval("rnbqkbn1/1pppppp1/P7/8/8/8/8/8 w q - 0 1");
        let stuck = eval("rnbqkbn1/1pppppp1/8/8/8/8/P7/8 w q - 0 1");
        assert!(runner > stuck, "{runner} vs {stuck}");
    }
}
