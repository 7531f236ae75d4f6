//! Property test: the move generator and `play` agree with a slow,
//! independent reference written here from the rules page, on random
//! playouts from every perft-suite position.
//!
//! The reference keeps its own mailbox board, castling rights and
//! en-passant square (tracked from the moves, not read back from the
//! position), generates pseudo-legal moves naively and keeps those after
//! which the mover's king cannot be captured (Atomic: the mover's king did
//! not explode, and the enemy king exploded or the mover's king cannot be
//! captured while the kings do not touch).

mod common;

use std::{collections::BTreeSet, path::PathBuf};

use chessplayx_rules::{
    Color,
    chess::{Atomic, Horde, Move, Piece, Position, Role, Rules, Square, Standard},
};

fn shared_dir() -> PathBuf {
    common::shared_dir().join("perft")
}

fn suite_fens(name: &str) -> Vec<String> {
    let path = shared_dir().join(format!("{name}.public.epd"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| l.split(';').next().unwrap_or_default().trim().to_owned())
        .collect()
}

struct XorShift(u64);
impl XorShift {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

#[derive(Copy, Clone, PartialEq, Eq, Debug)]
enum Game {
    Standard,
    Horde,
    Atomic,
}

/// The reference state.
#[derive(Clone, PartialEq, Eq, Debug)]
struct Ref {
    game: Game,
    squares: [Option<Piece>; 64],
    turn: Color,
    /// `[white king side, white queen side, black king side, black queen side]`.
    rights: [bool; 4],
    ep: Option<usize>,
}

#[derive(Copy, Clone, PartialEq, Eq, PartialOrd, Ord, Debug)]
struct RefMove {
    from: usize,
    to: usize,
    promotion: Option<char>,
}

impl RefMove {
    fn uci(self) -> String {
        let name = |i: usize| format!("{}{}", (b'a' + (i % 8) as u8) as char, i / 8 + 1);
        let mut s = format!("{}{}", name(self.from), name(self.to));
        if let Some(p) = self.promotion {
            s.push(p);
        }
        s
    }
}

fn fr(i: usize) -> (i32, i32) {
    ((i % 8) as i32, (i / 8) as i32)
}

fn at(f: i32, r: i32) -> Option<usize> {
    if (0..8).contains(&f) && (0..8).contains(&r) {
        Some((r * 8 + f) as usize)
    } else {
        None
    }
}

const KNIGHT: [(i32, i32); 8] = [
    (1, 2),
    (2, 1),
    (2, -1),
    (1, -2),
    (-1, -2),
    (-2, -1),
    (-2, 1),
    (-1, 2),
];
const KING: [(i32, i32); 8] = [
    (1, 0),
    (1, 1),
    (0, 1),
    (-1, 1),
    (-1, 0),
    (-1, -1),
    (0, -1),
    (1, -1),
];
const ROOK: [(i32, i32); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];
const BISHOP: [(i32, i32); 4] = [(1, 1), (1, -1), (-1, 1), (-1, -1)];

impl Ref {
    fn from_position<R: Rules>(pos: &Position<R>, game: Game) -> Self {
        let mut squares = [None; 64];
        for sq in Square::ALL {
            squares[sq.index()] = pos.piece_at(sq);
        }
        let c = pos.castling();
        use chessplayx_rules::chess::CastlingSide::{KingSide, QueenSide};
        Self {
            game,
            squares,
            turn: pos.turn(),
            rights: [
                c.has(Color::White, KingSide),
                c.has(Color::White, QueenSide),
                c.has(Color::Black, KingSide),
                c.has(Color::Black, QueenSide),
            ],
            ep: pos.ep_square().map(Square::index),
        }
    }

    fn king(&self, color: Color) -> Option<usize> {
        (0..64).find(|&i| {
            self.squares[i]
                == Some(Piece {
                    color,
                    role: Role::King,
                })
        })
    }

    /// Squares the piece on `from` could capture on (its attack squares).
    fn attacks_from(&self, from: usize) -> Vec<usize> {
        let Some(p) = self.squares[from] else {
            return vec![];
        };
        let (f, r) = fr(from);
        let mut out = vec![];
        let steps = |deltas: &[(i32, i32)], out: &mut Vec<usize>| {
            for &(df, dr) in deltas {
                if let Some(t) = at(f + df, r + dr) {
                    out.push(t);
                }
            }
        };
        let slides = |dirs: &[(i32, i32)], out: &mut Vec<usize>| {
            for &(df, dr) in dirs {
                let (mut x, mut y) = (f + df, r + dr);
                while let Some(t) = at(x, y) {
                    out.push(t);
                    if self.squares[t].is_some() {
                        break;
                    }
                    x += df;
                    y += dr;
                }
            }
        };
        match p.role {
            Role::Pawn => {
                let dr = if p.color == Color::White { 1 } else { -1 };
                steps(&[(-1, dr), (1, dr)], &mut out);
            }
            Role::Knight => steps(&KNIGHT, &mut out),
            Role::King => steps(&KING, &mut out),
            Role::Bishop => slides(&BISHOP, &mut out),
            Role::Rook => slides(&ROOK, &mut out),
            Role::Queen => {
                slides(&BISHOP, &mut out);
                slides(&ROOK, &mut out);
            }
        }
        out
    }

    /// Can `by` capture on `sq` (kings excluded in Atomic, where kings
    /// never capture)?
    fn attacked(&self, sq: usize, by: Color) -> bool {
        (0..64).any(|i| {
            self.squares[i].is_some_and(|p| {
                p.color == by
                    && !(self.game == Game::Atomic && p.role == Role::King)
                    && self.attacks_from(i).contains(&sq)
            })
        })
    }

    fn kings_touch(&self) -> bool {
        match (self.king(Color::White), self.king(Color::Black)) {
            (Some(a), Some(b)) => {
                let ((af, ar), (bf, br)) = (fr(a), fr(b));
                (af - bf).abs() <= 1 && (ar - br).abs() <= 1
            }
            _ => false,
        }
    }

    /// The side's king can be captured (the variant's meaning of check).
    fn in_check(&self, color: Color) -> bool {
        let Some(k) = self.king(color) else {
            return false;
        };
        if self.game == Game::Atomic && self.kings_touch() {
            return false;
        }
        self.attacked(k, color.other())
    }

    fn pseudo_moves(&self) -> Vec<RefMove> {
        let us = self.turn;
        let mut out = vec![];
        for from in 0..64 {
            let Some(p) = self.squares[from] else {
                continue;
            };
            if p.color != us {
                continue;
            }
            let (f, r) = fr(from);
            if p.role == Role::Pawn {
                let dr = if us == Color::White { 1 } else { -1 };
                let last = if us == Color::White { 7 } else { 0 };
                let add = |to: usize, out: &mut Vec<RefMove>| {
                    if fr(to).1 == last {
                        for c in ['q', 'r', 'b', 'n'] {
                            out.push(RefMove {
                                from,
                                to,
                                promotion: Some(c),
                            });
                        }
                    } else {
                        out.push(RefMove {
                            from,
                            to,
                            promotion: None,
                        });
                    }
                };
                if let Some(one) = at(f, r + dr)
                    && self.squares[one].is_none()
                {
                    add(one, &mut out);
                    let start = if us == Color::White {
                        r == 1 || (self.game == Game::Horde && r == 0)
                    } else {
                        r == 6
                    };
                    if start
                        && let Some(two) = at(f, r + 2 * dr)
                        && self.squares[two].is_none()
                    {
                        add(two, &mut out);
                    }
                }
                for df in [-1, 1] {
                    if let Some(t) = at(f + df, r + dr)
                        && (self.squares[t].is_some_and(|q| q.color != us) || self.ep == Some(t))
                    {
                        add(t, &mut out);
                    }
                }
                continue;
            }
            for to in self.attacks_from(from) {
                match self.squares[to] {
                    None => out.push(RefMove {
                        from,
                        to,
                        promotion: None,
                    }),
                    Some(q)
                        if q.color != us
                            && !(self.game == Game::Atomic && p.role == Role::King) =>
                    {
                        out.push(RefMove {
                            from,
                            to,
                            promotion: None,
                        });
                    }
                    _ => {}
                }
            }
            if p.role == Role::King {
                let rank = if us == Color::White { 0 } else { 56 };
                let base = if us == Color::White { 0 } else { 2 };
                if from == rank + 4 {
                    if self.rights[base] && (5..7).all(|f| self.squares[rank + f].is_none()) {
                        out.push(RefMove {
                            from,
                            to: rank + 6,
                            promotion: None,
                        });
                    }
                    if self.rights[base + 1] && (1..4).all(|f| self.squares[rank + f].is_none()) {
                        out.push(RefMove {
                            from,
                            to: rank + 2,
                            promotion: None,
                        });
                    }
                }
            }
        }
        out
    }

    fn is_castle(&self, m: RefMove) -> bool {
        self.squares[m.from].is_some_and(|p| p.role == Role::King)
            && (fr(m.from).0 - fr(m.to).0).abs() == 2
    }

    fn make(&self, m: RefMove) -> Self {
        let mut next = self.clone();
        let us = self.turn;
        let Some(p) = self.squares[m.from] else {
            return next;
        };
        let is_ep =
            p.role == Role::Pawn && fr(m.from).0 != fr(m.to).0 && self.squares[m.to].is_none();
        let capture = self.squares[m.to].is_some() || is_ep;
        next.squares[m.from] = None;
        if is_ep {
            let victim = if us == Color::White {
                m.to - 8
            } else {
                m.to + 8
            };
            next.squares[victim] = None;
        }
        if self.is_castle(m) {
            let rank = m.from - m.from % 8;
            let (rf, rt) = if m.to % 8 == 6 {
                (rank + 7, rank + 5)
            } else {
                (rank, rank + 3)
            };
            next.squares[rt] = next.squares[rf].take();
        }
        let role = match m.promotion {
            Some(c) => Role::from_char(c).unwrap_or(Role::Queen),
            None => p.role,
        };
        next.squares[m.to] = Some(Piece { color: us, role });
        if self.game == Game::Atomic && capture {
            next.squares[m.to] = None;
            let (f, r) = fr(m.to);
            for (df, dr) in KING {
                if let Some(t) = at(f + df, r + dr)
                    && next.squares[t].is_some_and(|q| q.role != Role::Pawn)
                {
                    next.squares[t] = None;
                }
            }
        }
        // A right is lost once its king or rook square changes.
        for (i, (k, rk)) in [(4, 7), (4, 0), (60, 63), (60, 56)].into_iter().enumerate() {
            if next.squares[k] != self.squares[k] || next.squares[rk] != self.squares[rk] {
                next.rights[i] = false;
            }
        }
        next.ep = None;
        if p.role == Role::Pawn && (fr(m.to).1 - fr(m.from).1).abs() == 2 {
            let from_first = us == Color::White && fr(m.from).1 == 0;
            let mid = (m.from + m.to) / 2;
            // Fairy-Stockfish's convention: only when an enemy pawn attacks it.
            let (f, r) = fr(mid);
            let dr = if us == Color::White { 1 } else { -1 };
            let attacked = [-1, 1].iter().any(|df| {
                at(f + df, r + dr).is_some_and(|t| {
                    next.squares[t]
                        == Some(Piece {
                            color: us.other(),
                            role: Role::Pawn,
                        })
                })
            });
            if !from_first && attacked {
                next.ep = Some(mid);
            }
        }
        next.turn = us.other();
        next
    }

    fn legal(&self, m: RefMove) -> bool {
        let us = self.turn;
        let next = self.make(m);
        if self.is_castle(m) {
            if self.in_check(us) {
                return false;
            }
            // The squares the king crosses and reaches, each with the king
            // standing there alone (rook still home), then the final position.
            let step = if m.to > m.from { 1 } else { -1 };
            let mut sq = m.from as i32 + step;
            while sq != m.to as i32 {
                let mut probe = self.clone();
                probe.squares[sq as usize] = probe.squares[m.from].take();
                if probe.in_check(us) {
                    return false;
                }
                sq += step;
            }
            return !next.in_check(us);
        }
        if self.game == Game::Atomic {
            if next.king(us).is_none() {
                return false;
            }
            if next.king(us.other()).is_none() {
                return true;
            }
        }
        !next.in_check(us)
    }

    fn legal_moves(&self) -> BTreeSet<String> {
        if self.game == Game::Atomic
            && (self.king(Color::White).is_none() || self.king(Color::Black).is_none())
        {
            return BTreeSet::new();
        }
        self.pseudo_moves()
            .into_iter()
            .filter(|&m| self.legal(m))
            .map(RefMove::uci)
            .collect()
    }

    fn find(&self, uci: &str) -> Option<RefMove> {
        self.pseudo_moves().into_iter().find(|m| m.uci() == uci)
    }
}

fn check_playouts<R: Rules>(suite: &str, game: Game, playouts: usize, plies: usize) -> usize {
    let mut rng = XorShift(0x9e37_79b9_7f4a_7c15 ^ suite.len() as u64);
    let mut nodes = 0;
    for fen in suite_fens(suite) {
        let root = Position::<R>::from_fen(&fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
        for _ in 0..playouts {
            let mut pos = root;
            let mut reference = Ref::from_position(&pos, game);
            for _ in 0..plies {
                nodes += 1;
                let ours: Vec<Move> = pos.legal_moves();
                let our_set: BTreeSet<String> = ours.iter().map(ToString::to_string).collect();
                assert_eq!(
                    our_set.len(),
                    ours.len(),
                    "duplicate moves in {}",
                    pos.fen()
                );
                assert_eq!(
                    our_set,
                    reference.legal_moves(),
                    "legal moves of {}",
                    pos.fen()
                );
                assert_eq!(
                    pos.count_legal_moves(),
                    ours.len() as u64,
                    "count of {}",
                    pos.fen()
                );
                assert_eq!(
                    pos.is_check(),
                    reference.in_check(pos.turn()),
                    "check in {}",
                    pos.fen()
                );
                for &m in &ours {
                    let after = pos.played(m);
                    let rm = reference
                        .find(&m.to_string())
                        .unwrap_or_else(|| panic!("{m} in {}", pos.fen()));
                    let expected = reference.make(rm);
                    let got = Ref::from_position(&after, game);
                    assert_eq!(got, expected, "{m} played in {}", pos.fen());
                    assert_eq!(
                        after.zobrist(),
                        after.compute_key(),
                        "key after {m} in {}",
                        pos.fen()
                    );
                    let mover = pos.turn();
                    match game {
                        Game::Atomic => assert!(
                            got.king(mover).is_some()
                                && (got.king(!mover).is_none() || !got.in_check(mover)),
                            "{m} leaves the king en prise in {}",
                            pos.fen()
                        ),
                        _ => assert!(
                            !got.in_check(mover),
                            "{m} leaves the king en prise in {}",
                            pos.fen()
                        ),
                    }
                }
                let reparsed = Position::<R>::from_fen(&pos.fen())
                    .unwrap_or_else(|e| panic!("{}: {e}", pos.fen()));
                assert_eq!(reparsed, pos, "fen round trip of {}", pos.fen());
                if ours.is_empty() {
                    assert!(
                        pos.outcome().is_some(),
                        "no move but no outcome in {}",
                        pos.fen()
                    );
                    break;
                }
                let m = ours[rng.below(ours.len())];
                let rm = reference
                    .find(&m.to_string())
                    .unwrap_or_else(|| panic!("{m}"));
                reference = reference.make(rm);
                pos.play(m);
            }
        }
    }
    nodes
}

#[test]
fn chess_matches_reference() {
    assert!(check_playouts::<Standard>("chess", Game::Standard, 6, 80) > 2000);
}

#[test]
fn horde_matches_reference() {
    assert!(check_playouts::<Horde>("horde", Game::Horde, 6, 80) > 2000);
}

#[test]
fn atomic_matches_reference() {
    assert!(check_playouts::<Atomic>("atomic", Game::Atomic, 6, 80) > 2000);
}
