//! Legal move generation with check and pin masks.
//!
//! Moves are handed to a [`Sink`] in sets (one piece's targets, all pawn
//! pushes at once), so that perft can count them with one popcount per
//! set instead of materialising each move.

use super::{
    attacks::{
        between, bishop_attacks, bishop_rays, king_attacks, knight_attacks, line, pawn_attacks,
        queen_attacks, rook_attacks, rook_rays,
    },
    bitboard::Bitboard,
    board::Board,
    moves::{Move, MoveKind},
    position::Position,
    role::Role,
    rules::Rules,
    setup::CastlingSide,
    square::{File, Rank, Square},
};
use crate::Color;

/// Where generated moves go.
pub(crate) trait Sink {
    /// One move.
    fn push(&mut self, mv: Move);
    /// Moves of a piece to each of `tos`, none a promotion or special.
    fn piece(&mut self, role: Role, from: Square, tos: Bitboard);
    /// Pawn moves to each of `tos`, from `to - delta`, of one kind.
    fn pawns(&mut self, tos: Bitboard, delta: i32, kind: MoveKind);
    /// The four promotions to each of `tos`, from `to - delta`.
    fn promotions(&mut self, tos: Bitboard, delta: i32);
}

#[inline(always)]
fn from_of(to: Square, delta: i32) -> Square {
    Square::from_index_masked((to as i32 - delta) as u32)
}

impl Sink for Vec<Move> {
    #[inline(always)]
    fn push(&mut self, mv: Move) {
        Self::push(self, mv);
    }

    #[inline(always)]
    fn piece(&mut self, role: Role, from: Square, tos: Bitboard) {
        for to in tos {
            Self::push(self, Move::new(from, to, role, MoveKind::Normal));
        }
    }

    #[inline(always)]
    fn pawns(&mut self, tos: Bitboard, delta: i32, kind: MoveKind) {
        for to in tos {
            Self::push(self, Move::new(from_of(to, delta), to, Role::Pawn, kind));
        }
    }

    #[inline(always)]
    fn promotions(&mut self, tos: Bitboard, delta: i32) {
        for to in tos {
            let from = from_of(to, delta);
            for kind in MoveKind::PROMOTIONS {
                Self::push(self, Move::new(from, to, Role::Pawn, kind));
            }
        }
    }
}

/// Counts moves without building them (perft's last ply).
#[derive(Debug, Default)]
pub(crate) struct Counter(pub(crate) u64);

impl Sink for Counter {
    #[inline(always)]
    fn push(&mut self, _mv: Move) {
        self.0 += 1;
    }

    #[inline(always)]
    fn piece(&mut self, _role: Role, _from: Square, tos: Bitboard) {
        self.0 += u64::from(tos.count());
    }

    #[inline(always)]
    fn pawns(&mut self, tos: Bitboard, _delta: i32, _kind: MoveKind) {
        self.0 += u64::from(tos.count());
    }

    #[inline(always)]
    fn promotions(&mut self, tos: Bitboard, _delta: i32) {
        self.0 += 4 * u64::from(tos.count());
    }
}

/// Pawn geometry of one side.
#[derive(Copy, Clone)]
struct PawnDir {
    /// Index difference of a single push (+8 for White).
    push: i32,
    /// Index difference of a capture towards the a-file.
    west: i32,
    /// Index difference of a capture towards the h-file.
    east: i32,
    promo: Bitboard,
}

#[inline(always)]
const fn pawn_dir(color: Color) -> PawnDir {
    match color {
        Color::White => PawnDir {
            push: 8,
            west: 7,
            east: 9,
            promo: Bitboard::rank(Rank::Eighth),
        },
        Color::Black => PawnDir {
            push: -8,
            west: -9,
            east: -7,
            promo: Bitboard::rank(Rank::First),
        },
    }
}

#[inline(always)]
const fn shift(bb: Bitboard, delta: i32) -> Bitboard {
    if delta >= 0 {
        Bitboard(bb.0 << delta)
    } else {
        Bitboard(bb.0 >> -delta)
    }
}

const NOT_FILE_A: Bitboard = Bitboard(!0x0101_0101_0101_0101);
const NOT_FILE_H: Bitboard = Bitboard(!0x8080_8080_8080_8080);

/// Pawn pushes of `pawns` onto `push_target` and captures onto
/// `capture_target` (en passant apart).
#[inline(always)]
fn pawn_moves<R: Rules, S: Sink>(
    sink: &mut S,
    us: Color,
    pawns: Bitboard,
    empty: Bitboard,
    push_target: Bitboard,
    capture_target: Bitboard,
) {
    let d = pawn_dir(us);
    let single = shift(pawns, d.push) & empty;
    let double = shift(single & R::double_step_via(us), d.push) & empty & push_target;
    let single = single & push_target;
    sink.pawns(single.without(d.promo), d.push, MoveKind::Normal);
    sink.promotions(single & d.promo, d.push);
    sink.pawns(double, 2 * d.push, MoveKind::DoublePush);
    let west = shift(pawns & NOT_FILE_A, d.west) & capture_target;
    let east = shift(pawns & NOT_FILE_H, d.east) & capture_target;
    sink.pawns(west.without(d.promo), d.west, MoveKind::Normal);
    sink.promotions(west & d.promo, d.west);
    sink.pawns(east.without(d.promo), d.east, MoveKind::Normal);
    sink.promotions(east & d.promo, d.east);
}

/// Our pieces that stand alone between our king and an enemy slider.
#[inline(always)]
fn pinned(board: &Board, us: Color, king: Square, occ: Bitboard) -> Bitboard {
    let them = board.by_color(us.other());
    let snipers = ((rook_rays(king) & board.rooks_and_queens())
        | (bishop_rays(king) & board.bishops_and_queens()))
        & them;
    let mut pinned = Bitboard::EMPTY;
    for s in snipers {
        let b = between(king, s) & occ;
        if !b.more_than_one() {
            pinned |= b;
        }
    }
    pinned & board.by_color(us)
}

/// `true` when `by` attacks `sq` under blockers `occ`.
#[inline(always)]
fn attacked(board: &Board, sq: Square, by: Color, occ: Bitboard) -> bool {
    board.attackers_to(sq, by, occ).any()
}

/// The square the king leaves from and lands on, and the rook's squares.
#[inline(always)]
pub(crate) fn castling_squares(us: Color, side: CastlingSide) -> (Square, Square, Square, Square) {
    let rank = if us.is_white() {
        Rank::First
    } else {
        Rank::Eighth
    };
    (
        Square::from_coords(File::E, rank),
        Square::from_coords(side.king_to_file(), rank),
        Square::from_coords(side.rook_from_file(), rank),
        Square::from_coords(side.rook_to_file(), rank),
    )
}

/// Generates every legal move of `pos` into `sink`.
#[inline(always)]
pub(crate) fn generate<R: Rules, S: Sink>(pos: &Position<R>, sink: &mut S) {
    // One copy per side to move, so pawn directions and ranks are
    // constants.
    match (R::EXPLOSIONS, pos.turn()) {
        (true, Color::White) => generate_atomic::<R, S, true>(pos, sink),
        (true, Color::Black) => generate_atomic::<R, S, false>(pos, sink),
        (false, Color::White) => generate_standard::<R, S, true>(pos, sink),
        (false, Color::Black) => generate_standard::<R, S, false>(pos, sink),
    }
}

#[inline(always)]
fn generate_standard<R: Rules, S: Sink, const WHITE: bool>(pos: &Position<R>, sink: &mut S) {
    let board = pos.board();
    let us = if WHITE { Color::White } else { Color::Black };
    let them = us.other();
    let ours = board.by_color(us);
    let theirs = board.by_color(them);
    let occ = ours | theirs;
    let empty = !occ;

    let mut target = !ours;
    let mut pins = Bitboard::EMPTY;
    let king = board.king_of(us);
    if let Some(k) = king {
        let checkers = board.attackers_to(k, them, occ);
        let occ_without_king = occ ^ Bitboard::from_square(k);
        let mut king_tos = Bitboard::EMPTY;
        for to in king_attacks(k) & !ours {
            if !attacked(board, to, them, occ_without_king) {
                king_tos.add(to);
            }
        }
        sink.piece(Role::King, k, king_tos);
        if checkers.more_than_one() {
            return;
        }
        if let Some(c) = checkers.first() {
            target = between(k, c) | checkers;
        } else {
            castling(pos, sink, k, occ, |sq, occ| attacked(board, sq, them, occ));
        }
        pins = pinned(board, us, k, occ);
    }

    pieces(board, sink, ours, occ, target, pins, king);

    let pawns = ours & board.pawns();
    pawn_moves::<R, S>(
        sink,
        us,
        pawns.without(pins),
        empty,
        target,
        theirs & target,
    );
    if let Some(k) = king {
        for from in pawns & pins {
            let allowed = line(k, from) & target;
            pawn_moves::<R, S>(
                sink,
                us,
                Bitboard::from_square(from),
                empty,
                allowed,
                theirs & allowed,
            );
        }
        if let Some(ep) = pos.ep_square() {
            en_passant(board, sink, us, ep, |from, victim| {
                let occ2 = (occ ^ Bitboard::from_square(from) ^ Bitboard::from_square(victim))
                    | Bitboard::from_square(ep);
                board
                    .attackers_to(k, them, occ2)
                    .without(Bitboard::from_square(victim))
                    .is_empty()
            });
        }
    } else if let Some(ep) = pos.ep_square() {
        en_passant(board, sink, us, ep, |_, _| true);
    }
}

/// Knight, bishop, rook and queen moves onto `target`, pinned pieces kept
/// on their pin line.
#[inline(always)]
fn pieces<S: Sink>(
    board: &Board,
    sink: &mut S,
    ours: Bitboard,
    occ: Bitboard,
    target: Bitboard,
    pins: Bitboard,
    king: Option<Square>,
) {
    for from in (ours & board.knights()).without(pins) {
        sink.piece(Role::Knight, from, knight_attacks(from) & target);
    }
    let pin_mask = |from: Square| match king {
        Some(k) if pins.contains(from) => line(k, from),
        _ => Bitboard::FULL,
    };
    for from in ours & board.by_role(Role::Bishop) {
        sink.piece(
            Role::Bishop,
            from,
            bishop_attacks(from, occ) & target & pin_mask(from),
        );
    }
    for from in ours & board.by_role(Role::Rook) {
        sink.piece(
            Role::Rook,
            from,
            rook_attacks(from, occ) & target & pin_mask(from),
        );
    }
    for from in ours & board.by_role(Role::Queen) {
        sink.piece(
            Role::Queen,
            from,
            queen_attacks(from, occ) & target & pin_mask(from),
        );
    }
}

#[inline(always)]
fn en_passant<S: Sink>(
    board: &Board,
    sink: &mut S,
    us: Color,
    ep: Square,
    mut legal: impl FnMut(Square, Square) -> bool,
) {
    let d = pawn_dir(us);
    let victim = from_of(ep, d.push);
    for from in pawn_attacks(us.other(), ep) & board.pawns() & board.by_color(us) {
        if legal(from, victim) {
            sink.push(Move::new(from, ep, Role::Pawn, MoveKind::EnPassant));
        }
    }
}

/// Castling moves, when not in check. `attacked(sq, occ)` tells whether
/// the king would be attacked on `sq`.
#[inline(always)]
fn castling<R: Rules, S: Sink>(
    pos: &Position<R>,
    sink: &mut S,
    king: Square,
    occ: Bitboard,
    attacked: impl Fn(Square, Bitboard) -> bool,
) {
    let us = pos.turn();
    let rights = pos.castling();
    if !rights.has_any(us) {
        return;
    }
    for side in CastlingSide::ALL {
        if !rights.has(us, side) {
            continue;
        }
        let (k_from, k_to, r_from, r_to) = castling_squares(us, side);
        if k_from != king || (between(k_from, r_from) & occ).any() {
            continue;
        }
        // The squares the king passes are checked without the king on its
        // start square, and the destination with king and rook moved, as
        // Fairy-Stockfish does. It matters in Atomic, where the king may
        // stand attacked while it touches the enemy king.
        let occ_without_king = occ ^ Bitboard::from_square(k_from);
        if between(k_from, k_to)
            .into_iter()
            .any(|sq| attacked(sq, occ_without_king))
        {
            continue;
        }
        let after = occ_without_king
            ^ Bitboard::from_square(k_to)
            ^ Bitboard::from_square(r_from)
            ^ Bitboard::from_square(r_to);
        if attacked(k_to, after) {
            continue;
        }
        sink.push(Move::new(k_from, k_to, Role::King, MoveKind::Castle));
    }
}

/// What an atomic capture on `to` from `from` removes: the capturer, the
/// captured piece(s) and every non-pawn around `to`.
#[inline(always)]
fn blast(board: &Board, from: Square, to: Square) -> Bitboard {
    ((king_attacks(to) & board.occupied()).without(board.pawns()))
        | Bitboard::from_square(from)
        | Bitboard::from_square(to)
}

/// Whether an atomic capture is legal for `us`, whose king is on `k`
/// (the enemy king on `tk`); `extra` is the en-passant victim, if any.
#[inline(always)]
fn atomic_capture_legal(
    board: &Board,
    us: Color,
    k: Square,
    tk: Square,
    from: Square,
    to: Square,
    extra: Bitboard,
) -> bool {
    let boom = blast(board, from, to) | extra;
    if boom.contains(k) {
        return false;
    }
    if boom.contains(tk) || king_attacks(k).contains(tk) {
        return true;
    }
    let occ = board.occupied().without(boom);
    let them = board.by_color(us.other()).without(boom);
    (them
        & ((rook_attacks(k, occ) & board.rooks_and_queens())
            | (bishop_attacks(k, occ) & board.bishops_and_queens())
            | (knight_attacks(k) & board.knights())
            | (pawn_attacks(us, k) & board.pawns())))
    .is_empty()
}

/// Over 100 lines: Atomic's generation is the standard one with its
/// legality test replaced (explosions), kept in the same order as
/// `generate_standard` so that the two can be compared line by line.
#[inline(always)]
fn generate_atomic<R: Rules, S: Sink, const WHITE: bool>(pos: &Position<R>, sink: &mut S) {
    let board = pos.board();
    let us = if WHITE { Color::White } else { Color::Black };
    let them = us.other();
    let (Some(k), Some(tk)) = (board.king_of(us), board.king_of(them)) else {
        return;
    };
    let ours = board.by_color(us);
    let theirs = board.by_color(them);
    let occ = ours | theirs;
    let empty = !occ;
    let kings = board.kings();
    let near_tk = king_attacks(tk);
    let adjacent = near_tk.contains(k);
    let checkers = if adjacent {
        Bitboard::EMPTY
    } else {
        board.attackers_to(k, them, occ).without(kings)
    };
    // An enemy piece other than the king attacks `sq` and the enemy king
    // does not touch `sq` (touching kings are never in check).
    let unsafe_sq = |sq: Square, occ: Bitboard| {
        !near_tk.contains(sq) && board.attackers_to(sq, them, occ).without(kings).any()
    };

    // King steps: never captures.
    let occ_without_king = occ ^ Bitboard::from_square(k);
    let mut king_tos = Bitboard::EMPTY;
    for to in king_attacks(k) & empty {
        if !unsafe_sq(to, occ_without_king) {
            king_tos.add(to);
        }
    }
    sink.piece(Role::King, k, king_tos);

    // Quiet moves of the other pieces: the chess rules with the king
    // attacked only while the kings do not touch.
    if checkers.is_empty() {
        castling(pos, sink, k, occ, unsafe_sq);
    }
    let (quiet_target, pins) = if adjacent {
        (empty, Bitboard::EMPTY)
    } else if checkers.more_than_one() {
        (Bitboard::EMPTY, Bitboard::EMPTY)
    } else if let Some(c) = checkers.first() {
        (between(k, c), pinned(board, us, k, occ))
    } else {
        (empty, pinned(board, us, k, occ))
    };
    if quiet_target.any() {
        pieces(board, sink, ours, occ, quiet_target, pins, Some(k));
        let pawns = ours & board.pawns();
        pawn_moves::<R, S>(
            sink,
            us,
            pawns.without(pins),
            empty,
            quiet_target,
            Bitboard::EMPTY,
        );
        for from in pawns & pins {
            let allowed = line(k, from) & quiet_target;
            pawn_moves::<R, S>(
                sink,
                us,
                Bitboard::from_square(from),
                empty,
                allowed,
                Bitboard::EMPTY,
            );
        }
    }

    // Captures: each one checked by simulating its explosion.
    let legal = |from: Square, to: Square| {
        atomic_capture_legal(board, us, k, tk, from, to, Bitboard::EMPTY)
    };
    for from in ours & board.knights() {
        for to in knight_attacks(from) & theirs {
            if legal(from, to) {
                sink.push(Move::new(from, to, Role::Knight, MoveKind::Normal));
            }
        }
    }
    for from in ours & board.by_role(Role::Bishop) {
        for to in bishop_attacks(from, occ) & theirs {
            if legal(from, to) {
                sink.push(Move::new(from, to, Role::Bishop, MoveKind::Normal));
            }
        }
    }
    for from in ours & board.by_role(Role::Rook) {
        for to in rook_attacks(from, occ) & theirs {
            if legal(from, to) {
                sink.push(Move::new(from, to, Role::Rook, MoveKind::Normal));
            }
        }
    }
    for from in ours & board.by_role(Role::Queen) {
        for to in queen_attacks(from, occ) & theirs {
            if legal(from, to) {
                sink.push(Move::new(from, to, Role::Queen, MoveKind::Normal));
            }
        }
    }
    let d = pawn_dir(us);
    for from in ours & board.pawns() {
        for to in pawn_attacks(us, from) & theirs {
            if legal(from, to) {
                if d.promo.contains(to) {
                    sink.promotions(Bitboard::from_square(to), to as i32 - from as i32);
                } else {
                    sink.push(Move::new(from, to, Role::Pawn, MoveKind::Normal));
                }
            }
        }
    }
    if let Some(ep) = pos.ep_square() {
        en_passant(board, sink, us, ep, |from, victim| {
            atomic_capture_legal(board, us, k, tk, from, ep, Bitboard::from_square(victim))
        });
    }
}
