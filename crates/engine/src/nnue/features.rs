//! What a network's inputs are, per board shape: the one-hot "piece of
//! this relative colour and role on this square, seen from this side"
//! features of the 8×8 games ([`Board8`]) and of Xiangqi ([`Xiangqi90`]).
//! The network, its accumulators and its trainer are generic over
//! [`Features`], so a new board shape adds a feature set, not a copy of
//! the inference or training code.

use chessplayx_rules::{Color, chess, xiangqi};

use super::{Accumulator, Cache};

/// A board shape's feature set.
pub trait Features: Sized + 'static {
    /// Input features (rows of the first layer).
    const INPUTS: usize;
    /// The board the search hands over.
    type Board;
    /// What the accumulators remember of the board they were computed
    /// for, to update from it: the pieces by colour and role, as sets.
    type Pieces: Copy;

    /// The pieces of `board`.
    fn pieces(board: &Self::Board) -> Self::Pieces;

    /// Calls `f(white_feature, black_feature)` for every piece.
    fn for_each_feature(pieces: &Self::Pieces, f: impl FnMut(usize, usize));

    /// Calls `f(added, white_feature, black_feature)` for every piece on
    /// `old` not on `new` (`added` false) and on `new` not on `old`;
    /// returns `false` without calling it when more than `max` differ (a
    /// refresh is then cheaper).
    fn for_each_change(
        old: &Self::Pieces,
        new: &Self::Pieces,
        max: u32,
        f: impl FnMut(bool, usize, usize),
    ) -> bool;

    /// The feature of the left-right mirror image: the trainer's second
    /// training position for free where the game is symmetric.
    fn mirror(feature: usize) -> usize;

    /// This shape's accumulators in the search's [`Accumulator`].
    fn cache(acc: &mut Accumulator) -> &mut Cache<Self>;
}

/// A set of squares as both shapes' bitboards are: what
/// [`apply_changes`] needs of them.
trait SquareSet: Copy + Default {
    /// The squares of `self` not in `other`.
    fn minus(self, other: Self) -> Self;
    /// How many squares.
    fn len(self) -> u32;
    /// The squares' indices.
    fn indices(self) -> impl Iterator<Item = usize>;
}

impl SquareSet for chess::Bitboard {
    #[inline]
    fn minus(self, other: Self) -> Self {
        self & !other
    }
    #[inline]
    fn len(self) -> u32 {
        self.count()
    }
    #[inline]
    fn indices(self) -> impl Iterator<Item = usize> {
        self.into_iter().map(|sq| sq.index())
    }
}

impl SquareSet for xiangqi::Bitboard {
    #[inline]
    fn minus(self, other: Self) -> Self {
        self - other
    }
    #[inline]
    fn len(self) -> u32 {
        self.count()
    }
    #[inline]
    fn indices(self) -> impl Iterator<Item = usize> {
        self.map(|sq| usize::from(sq.index()))
    }
}

/// Applies the differences between two positions' piece sets (by colour,
/// then role index), shared by both shapes: counts first, then applies,
/// so a large difference costs only the count. `feature(perspective,
/// colour, role, square)` names a feature.
#[inline]
fn apply_changes<B: SquareSet, const R: usize>(
    old: &[[B; R]; 2],
    new: &[[B; R]; 2],
    max: u32,
    feature: impl Fn(Color, Color, usize, usize) -> usize,
    mut f: impl FnMut(bool, usize, usize),
) -> bool {
    let mut changes = [[(B::default(), B::default()); R]; 2];
    let mut changed = 0;
    for c in 0..2 {
        for r in 0..R {
            let (gone, came) = (old[c][r].minus(new[c][r]), new[c][r].minus(old[c][r]));
            changed += gone.len() + came.len();
            changes[c][r] = (gone, came);
        }
    }
    if changed > max {
        return false;
    }
    for (color, by_role) in Color::ALL.into_iter().zip(&changes) {
        for (role, &(gone, came)) in by_role.iter().enumerate() {
            for (added, set) in [(false, gone), (true, came)] {
                for s in set.indices() {
                    f(
                        added,
                        feature(Color::White, color, role, s),
                        feature(Color::Black, color, role, s),
                    );
                }
            }
        }
    }
    true
}

/// The 8×8 games: 2 relative colours × 6 roles × 64 squares (768).
#[derive(Clone, Copy, Debug)]
pub struct Board8;

impl Board8 {
    /// The feature of a `color` piece of role index `role` on square
    /// index `sq` (a1 = 0) as `perspective` sees it: its own pieces
    /// first, ranks flipped for Black so both sides see the board from
    /// their own side.
    #[inline]
    #[must_use]
    pub fn feature(perspective: Color, color: Color, role: usize, sq: usize) -> usize {
        let rel = usize::from(color != perspective);
        let sq = if perspective == Color::White {
            sq
        } else {
            sq ^ 56
        };
        rel * 384 + role * 64 + sq
    }
}

impl Features for Board8 {
    const INPUTS: usize = 768;
    type Board = chess::Board;
    type Pieces = chess::Board;

    #[inline]
    fn pieces(board: &chess::Board) -> chess::Board {
        *board
    }

    #[inline]
    fn for_each_feature(board: &chess::Board, mut f: impl FnMut(usize, usize)) {
        for color in Color::ALL {
            for role in chess::Role::ALL {
                for sq in board.by_color(color) & board.by_role(role) {
                    let (r, s) = (role as usize, sq.index());
                    f(
                        Self::feature(Color::White, color, r, s),
                        Self::feature(Color::Black, color, r, s),
                    );
                }
            }
        }
    }

    #[inline]
    fn for_each_change(
        old: &chess::Board,
        new: &chess::Board,
        max: u32,
        f: impl FnMut(bool, usize, usize),
    ) -> bool {
        let sets = |b: &chess::Board| {
            Color::ALL.map(|c| chess::Role::ALL.map(|r| b.by_color(c) & b.by_role(r)))
        };
        apply_changes(&sets(old), &sets(new), max, Self::feature, f)
    }

    #[inline]
    fn mirror(feature: usize) -> usize {
        feature ^ 7
    }

    #[inline]
    fn cache(acc: &mut Accumulator) -> &mut Cache<Self> {
        &mut acc.board8
    }
}

/// Xiangqi: 2 relative colours × 7 roles × 90 points (1,260).
#[derive(Clone, Copy, Debug)]
pub struct Xiangqi90;

/// Xiangqi's pieces as sets, by colour (White = Red) and role index.
pub type XiangqiPieces = [[xiangqi::Bitboard; 7]; 2];

impl Xiangqi90 {
    /// The feature of a `color` piece of role index `role` on point index
    /// `sq` (`a1` = 0, `rank * 9 + file`) as `perspective` sees it: its
    /// own pieces first, ranks flipped for Black (Red's rank 1 is Black's
    /// rank 10), so both sides see the board from their own side.
    #[inline]
    #[must_use]
    pub fn feature(perspective: Color, color: Color, role: usize, sq: usize) -> usize {
        let rel = usize::from(color != perspective);
        let sq = if perspective == Color::White {
            sq
        } else {
            (9 - sq / 9) * 9 + sq % 9
        };
        rel * 630 + role * 90 + sq
    }
}

impl Features for Xiangqi90 {
    const INPUTS: usize = 1260;
    type Board = xiangqi::Board;
    type Pieces = XiangqiPieces;

    #[inline]
    fn pieces(board: &xiangqi::Board) -> XiangqiPieces {
        Color::ALL.map(|c| xiangqi::Role::ALL.map(|r| board.by_piece(xiangqi::Piece::new(c, r))))
    }

    #[inline]
    fn for_each_feature(pieces: &XiangqiPieces, mut f: impl FnMut(usize, usize)) {
        for (color, by_role) in Color::ALL.into_iter().zip(pieces) {
            for (role, &set) in by_role.iter().enumerate() {
                for sq in set {
                    let s = usize::from(sq.index());
                    f(
                        Self::feature(Color::White, color, role, s),
                        Self::feature(Color::Black, color, role, s),
                    );
                }
            }
        }
    }

    #[inline]
    fn for_each_change(
        old: &XiangqiPieces,
        new: &XiangqiPieces,
        max: u32,
        f: impl FnMut(bool, usize, usize),
    ) -> bool {
        apply_changes(old, new, max, Self::feature, f)
    }

    #[inline]
    fn mirror(feature: usize) -> usize {
        let (head, sq) = (feature - feature % 90, feature % 90);
        head + sq - sq % 9 + (8 - sq % 9)
    }

    #[inline]
    fn cache(acc: &mut Accumulator) -> &mut Cache<Self> {
        &mut acc.xiangqi
    }
}
