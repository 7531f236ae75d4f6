//! Terms only chess weighs, beyond the 8×8 games' shared ones: pieces
//! under threat, outposts for the minor pieces, and the kings' race to a
//! passed pawn's path. Level 8 lost almost every game to Fairy-Stockfish
//! in chess (docs/strength.md), and its losses were positional: pieces
//! left where a pawn could chase them, knights without a square, end
//! games where the kings were on the wrong side of a passer. Horde and
//! Atomic keep their own evaluations: their armies and their tactics
//! differ too much for these weights.

use chessplayx_rules::{
    Color,
    chess::{
        Bitboard, Board, File, Rank, Role, Square, bishop_attacks, king_attacks, knight_attacks,
        queen_attacks, rook_attacks,
    },
};

use super::{
    Tapered,
    chess8::{adjacent_files, distance, front_span, pawn_attack_set, relative},
    visit_tapered,
};

/// The weights of these terms, tuned with the rest of chess's
/// ([`super::Params`]); the starting values follow the usual proportions
/// of a classical evaluation, scaled to our pawn.
#[derive(Copy, Clone, Debug)]
pub(crate) struct ChessTerms {
    /// Per enemy piece (not pawn) a pawn of ours attacks.
    pub(crate) by_pawn: Tapered,
    /// Per enemy piece our knights or bishops attack, by the victim's
    /// role (pawn … queen), when it is weak or is a piece defended only
    /// by pawns.
    pub(crate) by_minor: [Tapered; 5],
    /// Per weak enemy piece our rooks attack, by the victim's role.
    pub(crate) by_rook: [Tapered; 5],
    /// Per enemy piece we attack that nothing defends.
    pub(crate) hanging: Tapered,
    /// A knight, then a bishop, on an outpost: the enemy half, defended
    /// by a pawn, and no enemy pawn left to chase it away.
    pub(crate) outpost: [Tapered; 2],
    /// End game: per square of distance from a passed pawn's next square,
    /// the enemy king (bonus) and our king (penalty), times the pawn's
    /// progress.
    pub(crate) passer_king: [i32; 2],
    /// King attack units for a safe check by a knight, bishop, rook or
    /// queen (each kind counted once).
    pub(crate) check_units: [i32; 4],
    /// Per enemy piece a safe pawn push would attack.
    pub(crate) by_push: Tapered,
    /// Space behind the pawns, in 1/16 of (safe central squares) ×
    /// (own pieces − 1)² / 16, while much material is on.
    pub(crate) space: i32,
}

/// The starting weights.
pub(crate) const TERMS: ChessTerms = ChessTerms {
    by_pawn: Tapered::new(90, 50),
    by_minor: [
        Tapered::new(4, 18),
        Tapered::new(41, 23),
        Tapered::new(55, 31),
        Tapered::new(63, 67),
        Tapered::new(55, 90),
    ],
    by_rook: [
        Tapered::new(2, 25),
        Tapered::new(27, 40),
        Tapered::new(27, 34),
        Tapered::new(0, 21),
        Tapered::new(36, 21),
    ],
    hanging: Tapered::new(48, 20),
    outpost: [Tapered::new(42, 24), Tapered::new(21, 12)],
    passer_king: [3, 1],
    check_units: [5, 4, 6, 6],
    by_push: Tapered::new(34, 22),
    space: 11,
};

impl ChessTerms {
    /// Visits every weight under `prefix`, for the tuner.
    pub(crate) fn visit(&mut self, prefix: &str, f: &mut dyn FnMut(&str, &mut i32)) {
        const VICTIMS: [&str; 5] = ["pawn", "knight", "bishop", "rook", "queen"];
        visit_tapered(&format!("{prefix}threat.by_pawn"), &mut self.by_pawn, f);
        for (name, t) in VICTIMS.iter().zip(&mut self.by_minor) {
            visit_tapered(&format!("{prefix}threat.by_minor.{name}"), t, f);
        }
        for (name, t) in VICTIMS.iter().zip(&mut self.by_rook) {
            visit_tapered(&format!("{prefix}threat.by_rook.{name}"), t, f);
        }
        visit_tapered(&format!("{prefix}threat.hanging"), &mut self.hanging, f);
        visit_tapered(&format!("{prefix}outpost.knight"), &mut self.outpost[0], f);
        visit_tapered(&format!("{prefix}outpost.bishop"), &mut self.outpost[1], f);
        f(
            &format!("{prefix}passer_king.them"),
            &mut self.passer_king[0],
        );
        f(&format!("{prefix}passer_king.us"), &mut self.passer_king[1]);
        for (name, u) in VICTIMS[1..].iter().zip(&mut self.check_units) {
            f(&format!("{prefix}check_units.{name}"), u);
        }
        visit_tapered(&format!("{prefix}threat.by_push"), &mut self.by_push, f);
        f(&format!("{prefix}space"), &mut self.space);
    }
}

/// What one side's pieces attack, by kind of attacker.
struct Attacks {
    pawns: Bitboard,
    knights: Bitboard,
    bishops: Bitboard,
    rooks: Bitboard,
    queens: Bitboard,
    all: Bitboard,
}

impl Attacks {
    fn minors(&self) -> Bitboard {
        self.knights | self.bishops
    }
}

fn attacks(board: &Board, color: Color) -> Attacks {
    let occ = board.occupied();
    let own = board.by_color(color);
    let union = |role: Role, f: &dyn Fn(Square) -> Bitboard| {
        let mut set = Bitboard::EMPTY;
        for sq in board.by_role(role) & own {
            set = set | f(sq);
        }
        set
    };
    let pawns = pawn_attack_set(board, color);
    let knights = union(Role::Knight, &knight_attacks);
    let bishops = union(Role::Bishop, &|sq| bishop_attacks(sq, occ));
    let rooks = union(Role::Rook, &|sq| rook_attacks(sq, occ));
    let queens = union(Role::Queen, &|sq| queen_attacks(sq, occ));
    let king = board.king_of(color).map_or(Bitboard::EMPTY, king_attacks);
    Attacks {
        pawns,
        knights,
        bishops,
        rooks,
        queens,
        all: pawns | knights | bishops | rooks | queens | king,
    }
}

/// Attack units (as [`super::standard::king_safety`] counts them) for
/// the checks `us` could give on squares the enemy does not guard: a
/// safe check is often the start of a mating attack that the attack on
/// the king's zone alone does not see.
fn safe_checks(board: &Board, us: Color, ours: &Attacks, theirs: &Attacks, t: &ChessTerms) -> i32 {
    let Some(king) = board.king_of(us.other()) else {
        return 0;
    };
    let occ = board.occupied();
    let safe = !(board.by_color(us) | theirs.all);
    let diagonal = bishop_attacks(king, occ);
    let straight = rook_attacks(king, occ);
    let kinds = [
        knight_attacks(king) & ours.knights,
        diagonal & ours.bishops,
        straight & ours.rooks,
        (diagonal | straight) & ours.queens,
    ];
    kinds
        .iter()
        .zip(t.check_units)
        .map(|(squares, units)| if (*squares & safe).any() { units } else { 0 })
        .sum()
}

/// Sum of `weights[role]` over the pieces of `targets`, pawn … queen.
fn by_victim(board: &Board, targets: Bitboard, weights: &[Tapered; 5]) -> Tapered {
    let mut s = Tapered::default();
    for (role, w) in Role::ALL.iter().zip(weights) {
        let n = (targets & board.by_role(*role)).count() as i32;
        s += *w * n;
    }
    s
}

/// Threats, outposts and passed-pawn king distances of White minus
/// Black's, as a tapered score from White's point of view; and the king
/// attack units of White's and Black's safe checks.
pub(crate) fn terms(board: &Board, t: &ChessTerms) -> (Tapered, [i32; 2]) {
    let white = attacks(board, Color::White);
    let black = attacks(board, Color::Black);
    let s =
        side(board, Color::White, &white, &black, t) - side(board, Color::Black, &black, &white, t);
    let checks = [
        safe_checks(board, Color::White, &white, &black, t),
        safe_checks(board, Color::Black, &black, &white, t),
    ];
    (s, checks)
}

fn side(board: &Board, us: Color, ours: &Attacks, theirs: &Attacks, t: &ChessTerms) -> Tapered {
    let them = us.other();
    let enemies = board.by_color(them) & !board.kings();
    let pieces = enemies & !board.pawns();
    let mut s = Tapered::default();

    // Threats: a piece a pawn attacks must move; a weak piece (attacked,
    // no pawn defends it) may be lost; one nothing defends hangs.
    s += t.by_pawn * (pieces & ours.pawns).count() as i32;
    let weak = enemies & !theirs.pawns & ours.all;
    let pawn_defended = pieces & theirs.pawns;
    s += by_victim(board, (weak | pawn_defended) & ours.minors(), &t.by_minor);
    s += by_victim(board, weak & ours.rooks, &t.by_rook);
    s += t.hanging * (weak & !theirs.all).count() as i32;
    s += t.by_push * (push_threats(board, us, ours, theirs) & pieces).count() as i32;
    s.mg += space(board, us, theirs) * t.space / 16;

    // Outposts.
    let own = board.by_color(us);
    let their_pawns = board.pawns() & board.by_color(them);
    for (i, role) in [Role::Knight, Role::Bishop].into_iter().enumerate() {
        for sq in board.by_role(role) & own {
            let rank = relative(us, sq).rank() as usize;
            let chasers = front_span(us, sq) & adjacent_files(sq.file()) & their_pawns;
            if (3..=5).contains(&rank) && ours.pawns.contains(sq) && chasers.is_empty() {
                s += t.outpost[i];
            }
        }
    }

    // Passed pawns in the end game: the kings' distances to the next
    // square, weighted by how far the pawn has come.
    if let (Some(our_king), Some(their_king)) = (board.king_of(us), board.king_of(them)) {
        for sq in board.pawns() & own {
            let rank = relative(us, sq).rank() as i32;
            if rank < 3 || (front_span(us, sq) & their_pawns).any() {
                continue;
            }
            let Some(stop) = step(us, sq) else { continue };
            let w = 5 * rank - 13;
            let near = t.passer_king[0] * distance(their_king, stop).min(5)
                - t.passer_king[1] * distance(our_king, stop).min(5);
            s.eg += near * w;
        }
    }
    s
}

/// The squares `us`'s pawns would attack after one safe push (one or two
/// squares from the start): a threat the opponent must meet.
fn push_threats(board: &Board, us: Color, ours: &Attacks, theirs: &Attacks) -> Bitboard {
    let empty = !board.occupied();
    let pawns = board.pawns() & board.by_color(us);
    let (one, third) = match us {
        Color::White => (pawns.shift_up(1) & empty, Bitboard::rank(Rank::Third)),
        Color::Black => (pawns.shift_down(1) & empty, Bitboard::rank(Rank::Sixth)),
    };
    let two = match us {
        Color::White => (one & third).shift_up(1) & empty,
        Color::Black => (one & third).shift_down(1) & empty,
    };
    let safe = (one | two) & !theirs.pawns & (!theirs.all | ours.all);
    pawn_attacks_of(safe, us)
}

/// Squares pawns of `color` on `set` would attack.
fn pawn_attacks_of(set: Bitboard, color: Color) -> Bitboard {
    let p = set.0;
    let not_a = !Bitboard::file(File::A).0;
    let not_h = !Bitboard::file(File::H).0;
    Bitboard(match color {
        Color::White => ((p & not_a) << 7) | ((p & not_h) << 9),
        Color::Black => ((p & not_a) >> 9) | ((p & not_h) >> 7),
    })
}

/// Safe squares in the centre files on our side (behind our pawns
/// counted twice), times the square of our piece count: room to manoeuvre
/// matters while the board is full. 0 once the queens and a few pieces
/// are off.
fn space(board: &Board, us: Color, theirs: &Attacks) -> i32 {
    let heavy = board.occupied() & !board.pawns() & !board.kings();
    if heavy.count() < 10 {
        return 0;
    }
    let centre = Bitboard::file(File::C)
        | Bitboard::file(File::D)
        | Bitboard::file(File::E)
        | Bitboard::file(File::F);
    let own = board.by_color(us);
    let pawns = board.pawns() & own;
    let (ranks, behind) = match us {
        Color::White => (
            Bitboard::rank(Rank::Second)
                | Bitboard::rank(Rank::Third)
                | Bitboard::rank(Rank::Fourth),
            pawns.shift_down(1) | pawns.shift_down(2) | pawns.shift_down(3),
        ),
        Color::Black => (
            Bitboard::rank(Rank::Seventh)
                | Bitboard::rank(Rank::Sixth)
                | Bitboard::rank(Rank::Fifth),
            pawns.shift_up(1) | pawns.shift_up(2) | pawns.shift_up(3),
        ),
    };
    let safe = centre & ranks & !pawns & !theirs.pawns;
    let bonus = safe.count() as i32 + (behind & safe & !theirs.all).count() as i32;
    let weight = own.count() as i32 - 1;
    bonus * weight * weight / 16
}

/// The square in front of a `color` pawn on `sq`.
fn step(color: Color, sq: Square) -> Option<Square> {
    match color {
        Color::White => sq.offset(8),
        Color::Black => sq.offset(-8),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use chessplayx_rules::chess::Chess;

    fn terms_of(fen: &str) -> Tapered {
        let pos = Chess::from_fen(fen).unwrap_or_else(|e| unreachable!("{fen}: {e}"));
        terms(pos.board(), &TERMS).0
    }

    #[test]
    fn a_safe_check_counts_a_guarded_one_does_not() {
        // The white rook on a1 can check on a8; in the second position a
        // black knight on b6 guards a8.
        let pos = |fen: &str| Chess::from_fen(fen).unwrap_or_else(|e| unreachable!("{fen}: {e}"));
        let safe = pos("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1");
        let guarded = pos("6k1/5ppp/1n6/8/8/8/8/R5K1 w - - 0 1");
        assert_eq!(terms(safe.board(), &TERMS).1, [TERMS.check_units[2], 0]);
        assert_eq!(terms(guarded.board(), &TERMS).1, [0, 0]);
    }

    #[test]
    fn a_piece_a_pawn_attacks_counts_against_it() {
        // The same black knight, on d5 attacked by the e4 pawn, or on a5.
        let hit = terms_of("4k3/8/8/3n4/4P3/8/8/4K3 w - - 0 1");
        let safe = terms_of("4k3/8/8/n7/4P3/8/8/4K3 w - - 0 1");
        assert!(hit.mg > safe.mg + 50, "{hit:?} {safe:?}");
    }

    #[test]
    fn an_undefended_piece_hangs() {
        // A white rook on d1 attacks a black bishop on d6, defended by
        // the king on e7 or not defended at all (king on h8).
        let defended = terms_of("8/4k3/3b4/8/8/8/8/3RK3 w - - 0 1");
        let hanging = terms_of("7k/8/3b4/8/8/8/8/3RK3 w - - 0 1");
        assert!(hanging.mg > defended.mg, "{hanging:?} {defended:?}");
    }

    #[test]
    fn a_knight_on_an_outpost_scores_and_a_chased_one_does_not() {
        // A knight on d4 defended by e3: no black c- or e-pawn can chase
        // it, then a black c7 pawn that can (out of the knight's reach;
        // its push c7-c5 also threatens the knight).
        let outpost = terms_of("4k3/8/8/8/3N4/4P3/8/4K3 w - - 0 1");
        let chased = terms_of("4k3/2p5/8/8/3N4/4P3/8/4K3 w - - 0 1");
        assert_eq!(
            outpost.mg - chased.mg,
            TERMS.outpost[0].mg + TERMS.by_push.mg
        );
    }

    #[test]
    fn a_pawn_push_that_would_fork_is_a_threat() {
        // e3-e4 would hit the knights on d5 and f5; with e4 blocked, no push.
        let threat = terms_of("4k3/8/8/3n1n2/8/4P3/8/4K3 w - - 0 1");
        let blocked = terms_of("4k3/8/8/3n1n2/4p3/4P3/8/4K3 w - - 0 1");
        assert!(
            threat.mg >= blocked.mg + 2 * TERMS.by_push.mg - 10,
            "{threat:?} {blocked:?}"
        );
    }

    #[test]
    fn space_behind_advanced_centre_pawns() {
        // All pieces on; White's centre pawns on d4/e4 or still at home.
        let ahead = terms_of("rnbqkbnr/pppppppp/8/8/3PP3/8/PPP2PPP/RNBQKBNR b KQkq - 0 1");
        let home = terms_of("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
        assert!(ahead.mg > home.mg, "{ahead:?} {home:?}");
        assert_eq!(home.mg, 0, "the start is symmetric");
    }

    #[test]
    fn the_kings_race_to_a_passed_pawn() {
        // A white passer on d6; the black king in front of it or far away.
        let near = terms_of("3k4/8/3P4/8/8/8/8/3K4 w - - 0 1");
        let far = terms_of("7k/8/3P4/8/8/8/8/3K4 w - - 0 1");
        assert!(far.eg > near.eg + 100, "{far:?} {near:?}");
        // Mirrored colours give the mirrored score.
        let mirrored = terms_of("3k4/8/8/8/8/3p4/8/7K b - - 0 1");
        assert_eq!(mirrored.eg, -far.eg);
    }
}
