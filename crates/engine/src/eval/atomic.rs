//! Atomic: a capture explodes every piece but pawns around it. The king
//! dies in an explosion, so what matters is which of its neighbours the
//! enemy can capture (each is a fuse), enemy pieces aimed at the squares
//! around it, and king proximity (touching kings cannot be checked).

use chessplayx_rules::{
    Color,
    chess::{Atomic, AtomicChess, Bitboard, Board, Move, Role, Rules, king_attacks},
};

use super::{
    Params, Tapered,
    chess8::{self, Eval8, Weights},
    visit_tapered,
};

/// Material of an explosion, by role; the king is the game.
const VALUE: [i32; 6] = [100, 270, 300, 440, 880, 20_000];

/// Everything Atomic's evaluation weighs.
#[derive(Copy, Clone, Debug)]
pub(crate) struct AtomicParams {
    w: Weights,
    tempo: i32,
    /// Per unit of enemy pressure on the squares around the king.
    pressure: Tapered,
    /// One fuse against the side to move; two or more.
    fuse1: i32,
    fuse2: i32,
}

/// Fitted by `scripts/strength/tune atomic` (Texel's method on 1,500
/// self-play games; docs/strength.md, "Tuning"), which beat the hand-set
/// weights by +76 ± 48 Elo over 200 games. Against the hand-set start
/// (minor pieces below their chess values, since they are blown up in
/// bunches) the fit made pieces cheap in the middle game and dear in the
/// end game, and found mobility, open files and pressure on the squares
/// around the king worth several times what was guessed.
const PARAMS: AtomicParams = AtomicParams {
    w: Weights {
        material: [
            Tapered { mg: 72, eg: 162 },
            Tapered { mg: 142, eg: 397 },
            Tapered { mg: 190, eg: 374 },
            Tapered { mg: 282, eg: 544 },
            Tapered { mg: 976, eg: 480 },
            Tapered { mg: 0, eg: 0 },
        ],
        pst_scale: 16,
        mobility: [
            Tapered { mg: 17, eg: 15 },
            Tapered { mg: 21, eg: 7 },
            Tapered { mg: 15, eg: 15 },
            Tapered { mg: 17, eg: -41 },
        ],
        passed_scale: 38,
        doubled: Tapered { mg: -5, eg: -10 },
        isolated: Tapered { mg: 5, eg: -2 },
        supported: Tapered { mg: 14, eg: 12 },
        phalanx: Tapered { mg: 3, eg: 17 },
        rook_open: Tapered { mg: 108, eg: 32 },
        rook_semi_open: Tapered { mg: -36, eg: -34 },
        bishop_pair: Tapered { mg: -6, eg: 46 },
    },
    tempo: 16,
    pressure: Tapered { mg: 26, eg: -4 },
    fuse1: -14,
    fuse2: 499,
};

impl Params for AtomicParams {
    fn visit(&mut self, f: &mut dyn FnMut(&str, &mut i32)) {
        self.w.visit("", f);
        f("tempo", &mut self.tempo);
        visit_tapered("pressure", &mut self.pressure, f);
        f("fuse1", &mut self.fuse1);
        f("fuse2", &mut self.fuse2);
    }
}

/// Squares next to `us`'s king holding `us`'s pieces that the enemy can
/// capture without blowing up its own king: each is a way to win at once.
fn fuses(board: &Board, us: Color) -> i32 {
    let them = us.other();
    let Some(k) = board.king_of(us) else {
        return 0;
    };
    let their_king_zone = board.king_of(them).map_or(Bitboard::EMPTY, |tk| {
        king_attacks(tk) | Bitboard::from_square(tk)
    });
    let occ = board.occupied();
    let mut n = 0;
    for sq in king_attacks(k) & board.by_color(us) {
        if their_king_zone.contains(sq) {
            continue;
        }
        if board
            .attackers_to(sq, them, occ)
            .without(board.kings())
            .any()
        {
            n += 1;
        }
    }
    n
}

/// Enemy pieces aimed at the squares around `us`'s king.
fn king_pressure(board: &Board, us: Color) -> i32 {
    let them = us.other();
    let Some(k) = board.king_of(us) else {
        return 0;
    };
    let zone = king_attacks(k);
    let occ = board.occupied();
    let mut units = 0;
    for sq in zone {
        let att = board
            .attackers_to(sq, them, occ)
            .without(board.kings() | board.pawns());
        for a in att {
            units += match board.role_at(a) {
                Some(Role::Queen) => 4,
                Some(Role::Rook) => 3,
                _ => 2,
            };
        }
    }
    units
}

fn side(board: &Board, us: Color, p: &AtomicParams) -> Tapered {
    let (s, _) = chess8::side_terms(board, us, &p.w);
    let pressure = king_pressure(board, us);
    s - Tapered::new(
        (pressure * p.pressure.mg).min(300),
        (pressure * p.pressure.eg).min(200),
    )
}

impl Eval8 for Atomic {
    type Params = AtomicParams;
    const PARAMS: AtomicParams = PARAMS;

    fn evaluate_with(pos: &AtomicChess, p: &AtomicParams) -> i32 {
        let b = pos.board();
        let us = pos.turn();
        let s = side(b, Color::White, p) - side(b, Color::Black, p);
        let mut v = s.blend(chess8::phase(b));
        if us == Color::Black {
            v = -v;
        }
        // Fuses against the side to move: it can defuse one, rarely two.
        // (Fuses against the other side are captures the quiescence
        // search tries at once.)
        v -= match fuses(b, us) {
            0 => 0,
            1 => p.fuse1,
            _ => p.fuse2,
        };
        // Touching kings cannot be checked or blown up through each other:
        // the side behind holds on that way.
        if let (Some(a), Some(c)) = (b.king_of(Color::White), b.king_of(Color::Black))
            && king_attacks(a).contains(c)
        {
            v = v * 3 / 4;
        }
        v + p.tempo
    }

    /// Atomic's correction net (docs/strength-nnue.md, session 7).
    fn net() -> Option<&'static crate::nnue::Network> {
        crate::nnue::atomic()
    }

    /// The explosion's balance: what it destroys of the enemy's minus what
    /// it destroys of ours (the capturer always dies).
    fn gain(pos: &AtomicChess, mv: Move) -> i32 {
        if !pos.is_capture(mv) {
            return mv.promotion().map_or(0, |r| VALUE[r as usize] - VALUE[0]);
        }
        let b = pos.board();
        let us = pos.turn();
        let to = mv.to();
        let victim = pos.captured(mv).map_or(0, |r| VALUE[r as usize]);
        let blast = king_attacks(to) & b.occupied() & !b.pawns();
        let mut g = victim - VALUE[mv.role() as usize];
        for sq in blast {
            if sq == mv.from() {
                continue;
            }
            let v = b.role_at(sq).map_or(0, |r| VALUE[r as usize]);
            if b.by_color(us).contains(sq) {
                g -= v
            } else {
                g += v
            }
        }
        g
    }

    fn mover_value(_pos: &AtomicChess, _mv: Move) -> i32 {
        // The capturer dies in any case: already counted in `gain`.
        0
    }

    /// Exchanges are not sequences on one square here: the explosion's
    /// balance is the whole story.
    fn see_ge(pos: &AtomicChess, mv: Move, threshold: i32) -> bool {
        Self::gain(pos, mv) >= threshold
    }

    /// The king exploded.
    fn lost(pos: &AtomicChess) -> bool {
        pos.board().king_of(pos.turn()).is_none()
    }

    fn dead_draw(pos: &AtomicChess) -> bool {
        Self::insufficient_material(pos.board())
    }

    /// Only with pieces besides pawns, and not while a neighbour of the
    /// king can be captured (passing would lose at once, and the null
    /// search would spend nodes proving it).
    fn null_move(pos: &AtomicChess) -> Option<AtomicChess> {
        let b = pos.board();
        if chess8::has_pieces(b, pos.turn()) && fuses(b, pos.turn()) == 0 {
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

    fn pos(fen: &str) -> AtomicChess {
        AtomicChess::from_fen(fen).unwrap_or_else(|e| unreachable!("{fen}: {e}"))
    }

    #[test]
    fn explosion_gain_counts_both_sides() {
        // Nxf7 blows up the f7 pawn's neighbours: the king on e8 (a win).
        let p = pos("rnbqkbnr/pppppppp/8/6N1/8/8/PPPPPPPP/RNBQKB1R w KQkq - 0 1");
        let p = {
            let mut q = p;
            let m = q
                .legal_moves()
                .into_iter()
                .find(|m| m.to().to_string() == "f7")
                .unwrap_or_else(|| unreachable!("Nxf7 legal"));
            assert!(q.gain(m) > 10_000);
            q.play(m);
            q
        };
        assert!(p.lost());
    }

    #[test]
    fn two_fuses_next_to_the_king_are_bad() {
        // White's knights on d2 and e2 can be taken by the black rook and
        // bishop: either capture explodes the white king, and White can
        // defuse only one. Same material without the lines. (One fuse the
        // side to move can defuse: the tuned weight for it is near 0.)
        let fused = pos("3rk3/8/8/1b6/8/8/3NN3/4K3 w - - 0 1").evaluate();
        let safe = pos("r3k3/8/8/8/8/8/3NN3/b3K3 w - - 0 1").evaluate();
        assert!(fused < safe - 200, "{fused} vs {safe}");
    }
}
