//! Level 8's king danger in chess, and the attack sets it shares with
//! the threat terms ([`super::chess_terms`]). Level 8 lost its games
//! against Fairy-Stockfish by mate (docs/strength-chess.md): the levels'
//! common king attack counts attack units of any kind and stops at a cap,
//! so it cannot tell a knight and a queen next to the king from two rooks
//! far away, nor see that a check is coming. Here the danger grows with
//! who attacks, how many squares around the king only the king guards,
//! and which checks the attacker has that cannot be answered by taking
//! the checker; its square is the penalty, so one attacker costs little
//! and a storm costs a lot.

use chessplayx_rules::{
    Color,
    chess::{
        Bitboard, Board, File, Rank, Role, Square, between, bishop_attacks, king_attacks,
        knight_attacks, queen_attacks, rook_attacks,
    },
};

use super::{Tapered, chess_terms::ChessTerms, chess8::pawn_attack_set};

/// What one side's pieces attack, by kind of attacker, computed once per
/// evaluation for every term that needs it.
pub(crate) struct Attacks {
    pub(crate) pawns: Bitboard,
    pub(crate) knights: Bitboard,
    pub(crate) bishops: Bitboard,
    pub(crate) rooks: Bitboard,
    pub(crate) queens: Bitboard,
    pub(crate) king: Bitboard,
    pub(crate) all: Bitboard,
    /// Squares attacked at least twice.
    pub(crate) twice: Bitboard,
    /// Pieces attacking the enemy king's ring, by kind (knight, bishop,
    /// rook, queen), and pawn attacks on the ring.
    pub(crate) ring_attackers: [i32; 4],
    pub(crate) ring_pawns: i32,
    /// Attacks on the squares next to the enemy king, counted per piece.
    pub(crate) king_hits: i32,
    /// The pieces' mobility score ([`mobility`]).
    pub(crate) mobility: Tapered,
}

impl Attacks {
    /// Squares our knights or bishops attack.
    pub(crate) fn minors(&self) -> Bitboard {
        self.knights | self.bishops
    }
}

/// The squares the king of `color` on `k` must watch: its neighbours and
/// its own square, moved in from the edge so that a king in the corner
/// still has nine (an attack on g3 matters to a king on h1).
pub(crate) fn king_ring(k: Square) -> Bitboard {
    let file = (k.file() as u32).clamp(1, 6);
    let rank = (k.rank() as u32).clamp(1, 6);
    let centre = match (File::new(file), Rank::new(rank)) {
        (Some(f), Some(r)) => Square::from_coords(f, r),
        _ => k,
    };
    king_attacks(centre) | Bitboard::from_square(centre)
}

/// Where `color`'s pieces' moves count as mobility: not squares enemy
/// pawns attack, nor those of our king, our queens (a minor piece does
/// not gain by defending them) and our pawns that are blocked or not yet
/// moved past the third rank (they will not make room soon).
fn mobility_area(board: &Board, color: Color) -> Bitboard {
    let occ = board.occupied().0;
    let own = board.by_color(color);
    let pawns = (board.pawns() & own).0;
    let (blocked, low) = match color {
        Color::White => (
            pawns & (occ >> 8),
            Bitboard::rank(Rank::Second).0 | Bitboard::rank(Rank::Third).0,
        ),
        Color::Black => (
            pawns & (occ << 8),
            Bitboard::rank(Rank::Seventh).0 | Bitboard::rank(Rank::Sixth).0,
        ),
    };
    let stuck = Bitboard(blocked | (pawns & low));
    let kings_and_queens = (board.kings() | board.by_role(Role::Queen)) & own;
    !(stuck | kings_and_queens | pawn_attack_set(board, color.other()))
}

/// The mobility score of a piece of kind `i` (knight, bishop, rook,
/// queen) with `n` squares to go to: a slope around an average count,
/// half as steep past a knee (the tenth square matters less than the
/// third), and a penalty for a piece with fewer than two (nearly
/// trapped).
pub(crate) fn mobility(n: i32, i: usize, t: &ChessTerms) -> Tapered {
    let knee = t.mob_knee[i];
    let slope = t.mob_slope[i];
    slope * (n.min(knee) - t.mob_zero[i]) + slope * (n - knee).max(0) / 2
        - t.mob_trapped[i] * (2 - n).max(0)
}

/// Everything `color` attacks, with the counts the enemy king's danger
/// needs and the pieces' mobility.
pub(crate) fn attacks(board: &Board, color: Color, t: &ChessTerms) -> Attacks {
    let occ = board.occupied();
    let own = board.by_color(color);
    let area = mobility_area(board, color);
    let mut mob = Tapered::default();
    let not_a = !Bitboard::file(File::A).0;
    let not_h = !Bitboard::file(File::H).0;
    let p = (board.pawns() & own).0;
    let (west, east) = match color {
        Color::White => ((p & not_a) << 7, (p & not_h) << 9),
        Color::Black => ((p & not_a) >> 9, (p & not_h) >> 7),
    };
    let pawns = Bitboard(west | east);
    let mut all = pawns;
    let mut twice = Bitboard(west & east);
    let enemy_king = board.king_of(color.other());
    let ring = enemy_king.map_or(Bitboard::EMPTY, king_ring);
    let next = enemy_king.map_or(Bitboard::EMPTY, king_attacks);
    let mut by_kind = [Bitboard::EMPTY; 4];
    let mut ring_attackers = [0; 4];
    let mut king_hits = 0;
    for (i, role) in [Role::Knight, Role::Bishop, Role::Rook, Role::Queen]
        .into_iter()
        .enumerate()
    {
        for sq in board.by_role(role) & own {
            let att = match role {
                Role::Knight => knight_attacks(sq),
                Role::Bishop => bishop_attacks(sq, occ),
                Role::Rook => rook_attacks(sq, occ),
                _ => queen_attacks(sq, occ),
            };
            twice |= all & att;
            all |= att;
            by_kind[i] |= att;
            mob += mobility((att & area).count() as i32, i, t);
            if (att & ring).any() {
                ring_attackers[i] += 1;
                king_hits += (att & next).count() as i32;
            }
        }
    }
    let king = board.king_of(color).map_or(Bitboard::EMPTY, king_attacks);
    twice |= all & king;
    all |= king;
    Attacks {
        pawns,
        knights: by_kind[0],
        bishops: by_kind[1],
        rooks: by_kind[2],
        queens: by_kind[3],
        king,
        all,
        twice,
        ring_attackers,
        ring_pawns: (pawns & ring).count() as i32,
        king_hits,
        mobility: mob,
    }
}

/// How much danger the king of `us` is in: the enemy's attackers of its
/// ring weighted by kind, their attacks next to it, the ring squares only
/// our king or queen defends, and the checks the enemy can give. Before
/// squaring; 0 when there is no king.
pub(crate) fn danger(
    board: &Board,
    us: Color,
    ours: &Attacks,
    theirs: &Attacks,
    t: &ChessTerms,
) -> i32 {
    let Some(k) = board.king_of(us) else {
        return 0;
    };
    let them = us.other();
    let attackers: i32 = theirs.ring_attackers.iter().sum::<i32>() + theirs.ring_pawns;
    let weight: i32 = theirs
        .ring_attackers
        .iter()
        .zip(&t.king_weight)
        .map(|(n, w)| n * w)
        .sum();
    // Attacked by them, not twice by us, and defended by nothing but our
    // king or queen: the king cannot hold these squares for long.
    let weak = theirs.all & !ours.twice & (!ours.all | ours.king | ours.queens);
    // A check from here costs the attacker nothing: we cannot take the
    // checker, or we can only once where they attack twice.
    let safe = !board.by_color(them) & (!ours.all | (weak & theirs.twice));
    let occ = board.occupied();
    let on_file = rook_attacks(k, occ);
    let on_diagonal = bishop_attacks(k, occ);
    let from_knight = knight_attacks(k);
    let rook_checks = on_file & theirs.rooks & safe;
    let queen_checks = (on_file | on_diagonal) & theirs.queens & safe & !ours.queens & !rook_checks;
    let bishop_checks = on_diagonal & theirs.bishops & safe & !queen_checks;
    let knight_checks = from_knight & theirs.knights & safe;
    let unsafe_checks = ((on_file & theirs.rooks)
        | (on_diagonal & theirs.bishops)
        | (from_knight & theirs.knights))
        & !safe;
    let mut d = attackers * weight
        + t.king_hits * theirs.king_hits
        + t.king_weak * (king_ring(k) & weak).count() as i32
        + t.unsafe_check * unsafe_checks.count() as i32
        + t.king_offset;
    for (checks, w) in [knight_checks, bishop_checks, rook_checks, queen_checks]
        .into_iter()
        .zip(&t.safe_check)
    {
        if checks.any() {
            d += *w;
        }
    }
    if (board.by_role(Role::Queen) & board.by_color(them)).is_empty() {
        d -= t.no_queen;
    }
    d += wing_danger(board, us, k, ours, theirs, t);
    if (ours.knights & ours.king).any() {
        d -= t.knight_defender;
    }
    d
}

/// The squares a king on `file` shelters behind (Stockfish's idea of a
/// king's flank), on our five ranks: files a–c for a king on a, a–d on b
/// or c, c–f on d or e, e–h on f or g, f–h on h.
fn flank(us: Color, file: File) -> Bitboard {
    let files = |lo: u32, hi: u32| {
        (lo..=hi)
            .filter_map(File::new)
            .fold(Bitboard::EMPTY, |b, f| b | Bitboard::file(f))
    };
    let wing = match file as u32 {
        0 => files(0, 2),
        1 | 2 => files(0, 3),
        3 | 4 => files(2, 5),
        5 | 6 => files(4, 7),
        _ => files(5, 7),
    };
    let camp = match us {
        Color::White => Bitboard(0x0000_00FF_FFFF_FFFF),
        Color::Black => Bitboard(0xFFFF_FFFF_FF00_0000),
    };
    wing & camp
}

/// The danger terms beyond the ring: the attack on the king's whole wing,
/// pins and discoveries aimed at it, the attacker's mobility, and open
/// files in front of it. Zero weights cost one branch.
fn wing_danger(
    board: &Board,
    us: Color,
    k: Square,
    ours: &Attacks,
    theirs: &Attacks,
    t: &ChessTerms,
) -> i32 {
    if t.flank_attack == 0
        && t.flank_defense == 0
        && t.blockers == 0
        && t.mobility_danger == 0
        && t.bare_danger == 0
    {
        return 0;
    }
    let wing = flank(us, k.file());
    let hit = (theirs.all & wing).count() as i32 + (theirs.twice & wing).count() as i32;
    let held = (ours.all & wing).count() as i32;
    let mut d = t.flank_attack * hit * hit / 8 - t.flank_defense * held;
    d += t.blockers * blockers(board, us, k).count() as i32;
    d += t.mobility_danger * (theirs.mobility.mg - ours.mobility.mg) / 8;
    d += t.bare_danger * bare_files(board, us, k);
    d
}

/// Pieces of either side that are the only piece between an enemy slider
/// and the king of `us` on `k`.
fn blockers(board: &Board, us: Color, k: Square) -> Bitboard {
    let them = board.by_color(us.other());
    let diagonal = (board.by_role(Role::Bishop) | board.by_role(Role::Queen)) & them;
    let straight = (board.by_role(Role::Rook) | board.by_role(Role::Queen)) & them;
    let snipers = (bishop_attacks(k, Bitboard::EMPTY) & diagonal)
        | (rook_attacks(k, Bitboard::EMPTY) & straight);
    let occ = board.occupied();
    let mut out = Bitboard::EMPTY;
    for s in snipers {
        let inside = between(k, s) & occ;
        if inside.any() && !inside.more_than_one() {
            out |= inside;
        }
    }
    out
}

/// Files at the king of `us` on `k` (its own and both neighbours, moved
/// in from the edge) with no pawn of ours in front of the king.
pub(crate) fn bare_files(board: &Board, us: Color, k: Square) -> i32 {
    let ours = board.pawns() & board.by_color(us);
    let centre = (k.file() as u32).clamp(1, 6);
    let king_rank = k.rank() as i32;
    let ahead = |sq: Square| match us {
        Color::White => sq.rank() as i32 > king_rank,
        Color::Black => (sq.rank() as i32) < king_rank,
    };
    (centre - 1..=centre + 1)
        .filter_map(File::new)
        .filter(|&f| !(ours & Bitboard::file(f)).into_iter().any(ahead))
        .count() as i32
}

/// The penalty the king of `us` takes for its danger: danger² in the
/// middle game, linear in the end game, nothing below a threshold.
pub(crate) fn penalty(danger: i32, t: &ChessTerms) -> Tapered {
    if danger <= t.king_threshold {
        return Tapered::default();
    }
    let d = danger.min(t.king_cap);
    Tapered::new(d * d / t.king_divisor[0], d / t.king_divisor[1])
}

/// King danger of White minus Black's, from White's point of view (each
/// king's penalty counts against its owner).
pub(crate) fn king_danger(
    board: &Board,
    white: &Attacks,
    black: &Attacks,
    t: &ChessTerms,
) -> Tapered {
    let w = penalty(danger(board, Color::White, white, black, t), t);
    let b = penalty(danger(board, Color::Black, black, white, t), t);
    b - w
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::chess_terms::TERMS;
    use chessplayx_rules::chess::Chess;

    fn board(fen: &str) -> Board {
        *Chess::from_fen(fen)
            .unwrap_or_else(|e| unreachable!("{fen}: {e}"))
            .board()
    }

    fn danger_of(fen: &str, us: Color) -> i32 {
        let b = board(fen);
        let (w, bl) = (
            attacks(&b, Color::White, &TERMS),
            attacks(&b, Color::Black, &TERMS),
        );
        match us {
            Color::White => danger(&b, us, &w, &bl, &TERMS),
            Color::Black => danger(&b, us, &bl, &w, &TERMS),
        }
    }

    #[test]
    fn a_pinned_piece_and_a_discovery_both_block() {
        // White's king on e1: the knight on e2 is pinned by the rook on e8;
        // Black's own bishop on d2 stands between the queen on a5 and the
        // king (a discovered check waits). The pawn f2 is behind nothing.
        let b = board("4r1k1/8/8/q7/8/8/3bNP2/4K3 w - - 0 1");
        let e1 = Square::from_coords(File::E, Rank::First);
        let got = blockers(&b, Color::White, e1);
        let e2 = Square::from_coords(File::E, Rank::Second);
        let d2 = Square::from_coords(File::D, Rank::Second);
        assert_eq!(got, Bitboard::from_square(e2) | Bitboard::from_square(d2));
        // Two pieces on the line: neither alone blocks.
        let b = board("4r1k1/8/8/8/4P3/8/4N3/4K3 w - - 0 1");
        assert!(blockers(&b, Color::White, e1).is_empty());
    }

    #[test]
    fn bare_files_count_the_open_lines_in_front_of_the_king() {
        let g1 = Square::from_coords(File::G, Rank::First);
        let h1 = Square::from_coords(File::H, Rank::First);
        let full = board("6k1/5ppp/8/8/8/8/5PPP/6K1 w - - 0 1");
        assert_eq!(bare_files(&full, Color::White, g1), 0);
        let h_open = board("6k1/5ppp/8/8/8/8/5PP1/6K1 w - - 0 1");
        assert_eq!(bare_files(&h_open, Color::White, g1), 1);
        // A king in the corner watches the f-, g- and h-files.
        let f_open = board("6k1/5ppp/8/8/8/8/6PP/7K w - - 0 1");
        assert_eq!(bare_files(&f_open, Color::White, h1), 1);
        // Black's pawns are in front of Black's king, from its side.
        let g8 = Square::from_coords(File::G, Rank::Eighth);
        assert_eq!(bare_files(&full, Color::Black, g8), 0);
        assert_eq!(
            bare_files(
                &board("6k1/5pp1/8/8/8/8/5PPP/6K1 w - - 0 1"),
                Color::Black,
                g8
            ),
            1
        );
    }

    #[test]
    fn the_wing_terms_raise_the_danger_of_a_storm_on_the_king_s_side() {
        // Black's queen and rooks bear on White's castled king's wing; the
        // same pieces on the queen's side.
        let storm = "1k6/8/8/8/6q1/6rr/5PPP/6K1 w - - 0 1";
        let calm = "1k6/8/8/8/q7/rr6/5PPP/6K1 w - - 0 1";
        let wing = ChessTerms {
            flank_attack: 3,
            flank_defense: 4,
            blockers: 98,
            mobility_danger: 8,
            bare_danger: 100,
            ..TERMS
        };
        let with = |fen: &str, t: &ChessTerms| {
            let b = board(fen);
            let (w, bl) = (attacks(&b, Color::White, t), attacks(&b, Color::Black, t));
            danger(&b, Color::White, &w, &bl, t)
        };
        let gained = with(storm, &wing) - with(storm, &TERMS);
        let gained_calm = with(calm, &wing) - with(calm, &TERMS);
        assert!(gained > gained_calm + 100, "{gained} {gained_calm}");
        assert_eq!(
            danger_of(storm, Color::White),
            with(storm, &TERMS),
            "zero weights add nothing"
        );
    }

    #[test]
    fn the_ring_of_a_king_in_the_corner_has_nine_squares() {
        let ring = king_ring(Square::from_coords(File::H, Rank::First));
        assert_eq!(ring.count(), 9);
        assert!(ring.contains(Square::from_coords(File::F, Rank::Third)));
        assert!(!ring.contains(Square::from_coords(File::H, Rank::Fourth)));
    }

    #[test]
    fn attacks_twice_and_per_kind() {
        // Two white rooks on the d-file both hit d5; the knight on f3
        // hits d4 only once (d4 is also the first rook's: twice).
        let b = board("4k3/8/8/8/8/3R1N2/8/3RK3 w - - 0 1");
        let a = attacks(&b, Color::White, &TERMS);
        let d4 = Square::from_coords(File::D, Rank::Fourth);
        let d2 = Square::from_coords(File::D, Rank::Second);
        let h4 = Square::from_coords(File::H, Rank::Fourth);
        assert!(a.twice.contains(d4), "rook d3 and knight f3");
        assert!(a.twice.contains(d2), "both rooks and the king");
        assert!(a.knights.contains(h4) && !a.twice.contains(h4));
        assert!(a.rooks.contains(d4) && !a.rooks.contains(h4));
    }

    #[test]
    fn a_queen_and_knight_at_the_king_are_worse_than_far_away() {
        // Black's queen on h4 and knight on g4 against White's castled
        // king, then the same pieces on a5 and b4.
        let near = "4k3/8/8/8/6nq/8/5PPP/6K1 w - - 0 1";
        let far = "4k3/8/8/q7/1n6/8/5PPP/6K1 w - - 0 1";
        let (n, f) = (danger_of(near, Color::White), danger_of(far, Color::White));
        assert!(n > f + 500, "{n} {f}");
        let b = board(near);
        let (w, bl) = (
            attacks(&b, Color::White, &TERMS),
            attacks(&b, Color::Black, &TERMS),
        );
        let s = king_danger(&b, &w, &bl, &TERMS);
        assert!(s.mg < -100, "{s:?}");
    }

    #[test]
    fn without_the_queen_the_attack_is_much_weaker() {
        // The same knight and rook aimed at the king, with and without a
        // black queen far away on a8.
        let queen = "q3k3/8/8/8/6n1/8/5PPr/6K1 w - - 0 1";
        let none = "4k3/8/8/8/6n1/8/5PPr/6K1 w - - 0 1";
        let (q, n) = (
            danger_of(queen, Color::White),
            danger_of(none, Color::White),
        );
        assert!(q >= n + TERMS.no_queen, "{q} {n}");
    }

    #[test]
    fn a_safe_check_adds_danger() {
        // A black rook on a3 can check on a1 (nothing of White's covers
        // it); with a white knight on c2 guarding a1 the check is not safe.
        let check = "4k3/8/8/8/8/r7/5PPP/6K1 w - - 0 1";
        let guarded = "4k3/8/8/8/8/r7/2N2PPP/6K1 w - - 0 1";
        let (c, g) = (
            danger_of(check, Color::White),
            danger_of(guarded, Color::White),
        );
        assert_eq!(c - g, TERMS.safe_check[2] - TERMS.unsafe_check, "{c} {g}");
    }

    #[test]
    fn the_mobility_area_leaves_out_pawn_guarded_and_stuck_squares() {
        // White: a blocked e4 pawn, an unmoved d2 pawn, a queen on d1;
        // Black: a pawn on c6 guarding b5 and d5.
        let b = board("4k3/8/2p5/4p3/4P3/8/3P4/3QK3 w - - 0 1");
        let area = mobility_area(&b, Color::White);
        let sq = |f, r| Square::from_coords(f, r);
        assert!(!area.contains(sq(File::E, Rank::Fourth)), "blocked pawn");
        assert!(!area.contains(sq(File::D, Rank::Second)), "unmoved pawn");
        assert!(!area.contains(sq(File::D, Rank::First)), "queen");
        assert!(!area.contains(sq(File::D, Rank::Fifth)), "pawn-guarded");
        assert!(area.contains(sq(File::C, Rank::Fifth)));
        assert!(area.contains(sq(File::C, Rank::Sixth)), "enemy pawns count");
    }

    #[test]
    fn mobility_grows_and_a_trapped_piece_pays() {
        let m = |n| mobility(n, 1, &TERMS);
        assert!(m(1).mg < m(2).mg - TERMS.mob_slope[1].mg, "trapped");
        assert!(m(7).mg > m(5).mg);
        // Past the knee each square is worth half.
        let knee = TERMS.mob_knee[1];
        assert_eq!(m(knee + 2).eg - m(knee).eg, TERMS.mob_slope[1].eg);
        // A bishop shut in on a1 against one in the centre.
        let shut = board("4k3/8/8/8/8/1P6/PP6/B3K3 w - - 0 1");
        let free = board("4k3/8/8/8/3B4/1P6/PP6/4K3 w - - 0 1");
        let mob = |b: &Board| attacks(b, Color::White, &TERMS).mobility;
        assert!(
            mob(&free).mg > mob(&shut).mg + 50,
            "{:?} {:?}",
            mob(&free),
            mob(&shut)
        );
    }

    #[test]
    fn danger_is_colour_symmetric() {
        let fen = "r1bq1rk1/ppp2ppp/2n5/3np3/2B5/5N2/PPPP1PPP/RNBQR1K1 w - - 0 8";
        let mirror = "rnbqr1k1/pppp1ppp/5n2/2b5/3NP3/2N5/PPP2PPP/R1BQ1RK1 b - - 0 8";
        assert_eq!(
            danger_of(fen, Color::White),
            danger_of(mirror, Color::Black)
        );
        assert_eq!(
            danger_of(fen, Color::Black),
            danger_of(mirror, Color::White)
        );
    }
}
