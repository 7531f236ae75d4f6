//! Xiangqi's perpetual chase seen from inside the tree.
//!
//! The arbiter (Fairy-Stockfish's rules, and ours in
//! `chessplayx_rules::xiangqi::XiangqiGame`) makes the side that chases
//! the same piece with every move of a repeated cycle lose. A search that
//! scored every such cycle as a draw walked into those losses, or let the
//! opponent off when it was the one being chased. The rules crate's game
//! record judges by move streaks (six moves and more per piece), too long
//! and too costly to replay at a node, so the cycle is judged here with
//! the record's own notion of a chase (§7.3 of the rules page, through
//! [`Threats`]): a move chases the pieces its side threatens after it and
//! did not threaten before it, by identity (a piece is named by its square
//! at the start of the cycle, as the record's piece ids would).
//!
//! The search only stores the keys of the positions on its path, so the
//! cycle's moves are found again from the current position, which is the
//! cycle's first position too: the legal move whose result has the next
//! key. That costs a move generation per ply of the cycle, paid only when
//! a repetition without a perpetual check is found, and a small table
//! remembers the verdicts of the cycles already judged.

use chessplayx_rules::{
    Color, Game,
    xiangqi::{Bitboard, LimitCap, MoveUnit, Threats, ViolationMode, Xiangqi, XiangqiConfig},
};

/// Entries of the verdict table (a power of two).
pub(super) const CHASE_CACHE_SIZE: usize = 4096;

/// The chase reading of Fairy-Stockfish, the arbiter of our matches: an
/// elephant or advisor on a chariot, cannon or horse chases it even when
/// it is protected.
const CONFIG: XiangqiConfig = XiangqiConfig {
    require_repetition: true,
    move_unit: MoveUnit::PlyPair,
    crossing_step_is_progress: false,
    insufficient_material_draw: true,
    minor_on_major_always_chase: true,
    violation_mode: ViolationMode::Lose,
    limit_cap: LimitCap::Eighteen,
};

/// Which sides chase one piece with every one of their moves in the cycle
/// that starts and ends at `pos`; `keys` are the keys of the positions
/// after each ply of the cycle, the last one `pos`'s own. Indexed by
/// [`Color`]. `None` when a ply cannot be matched to a legal move (a key
/// collision): the caller then keeps its draw.
#[must_use]
pub(crate) fn chasers(pos: &Xiangqi, keys: &[u64]) -> Option<[bool; 2]> {
    let mut cur = pos.clone();
    // Square index -> the piece's square index at the cycle's start.
    let mut ids: [u8; 90] = std::array::from_fn(|i| i as u8);
    let id_set = |ids: &[u8; 90], b: Bitboard| -> u128 {
        b.into_iter()
            .fold(0, |acc, sq| acc | 1u128 << ids[sq.index() as usize])
    };
    // Per side, the ids of the pieces chased by every move so far.
    let mut common = [u128::MAX; 2];
    let mut moved = [false; 2];
    for &key in keys {
        let mover = cur.turn();
        let mv = cur.legal_moves().into_iter().find(|&mv| {
            let mut next = cur.clone();
            next.play_unchecked(mv);
            Game::zobrist(&next) == key
        })?;
        let before = id_set(&ids, Threats::new(cur.board(), mover, &CONFIG).targets());
        cur.play_unchecked(mv);
        ids[mv.to().index() as usize] = ids[mv.from().index() as usize];
        let after = id_set(&ids, Threats::new(cur.board(), mover, &CONFIG).targets());
        common[mover as usize] &= after & !before;
        moved[mover as usize] = true;
    }
    Some([
        moved[Color::White as usize] && common[Color::White as usize] != 0,
        moved[Color::Black as usize] && common[Color::Black as usize] != 0,
    ])
}

/// A hash of a cycle's keys for the verdict table; the order matters
/// (the same positions in another order are another cycle).
#[must_use]
pub(super) fn cycle_hash(keys: &[u64]) -> u64 {
    keys.iter().fold(0x9E37_79B9_7F4A_7C15, |h, &k| {
        (h.rotate_left(23) ^ k).wrapping_mul(0x2545_F491_4F6C_DD1D)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use chessplayx_rules::xiangqi::UciMove;

    /// The keys after each of `moves` played from `fen`, and the start.
    fn cycle(fen: &str, moves: &[&str]) -> (Xiangqi, Vec<u64>) {
        let start = Xiangqi::from_fen(fen).unwrap();
        let mut pos = start.clone();
        let mut keys = Vec::new();
        for m in moves {
            let mv = UciMove::from_ascii(m.as_bytes())
                .unwrap()
                .to_move(&pos)
                .unwrap();
            pos.play_unchecked(mv);
            keys.push(Game::zobrist(&pos));
        }
        assert_eq!(keys.last(), Some(&Game::zobrist(&start)), "not a cycle");
        (start, keys)
    }

    /// Red's chariot follows the unprotected cannon from file to file:
    /// every Red move attacks it anew, Black only flees.
    const CHASE: &str = "3k5/9/9/9/9/c8/9/9/9/1R2K4 w - - 0 1";

    #[test]
    fn a_chariot_following_a_cannon_chases_it() {
        let (pos, keys) = cycle(CHASE, &["b1a1", "a5b5", "a1b1", "b5a5"]);
        assert_eq!(chasers(&pos, &keys), Some([true, false]));
    }

    #[test]
    fn the_chased_side_repeating_from_its_own_turn_is_still_the_victim() {
        // The same cycle entered one ply later: Black to move at both ends.
        let start = {
            let mut p = Xiangqi::from_fen(CHASE).unwrap();
            let mv = UciMove::from_ascii(b"b1a1").unwrap().to_move(&p).unwrap();
            p.play_unchecked(mv);
            p.fen()
        };
        let (pos, keys) = cycle(&start, &["a5b5", "a1b1", "b5a5", "b1a1"]);
        assert_eq!(chasers(&pos, &keys), Some([true, false]));
    }

    #[test]
    fn shuffling_without_attacking_is_no_chase() {
        // The cannon on c5 is out of the chariot's reach on files a and b.
        let fen = "3k5/9/9/9/9/2c6/9/9/9/1R2K4 w - - 0 1";
        let (pos, keys) = cycle(fen, &["b1a1", "c5d5", "a1b1", "d5c5"]);
        assert_eq!(chasers(&pos, &keys), Some([false, false]));
    }

    #[test]
    fn the_search_will_not_chase_again() {
        // After one cycle of the chase, b1a1 attacks the cannon once more
        // and repeats: the chaser loses, so Red, a chariot up, plays
        // something else and keeps a winning score.
        use crate::{EngineGame, EnginePosition, EngineSearcher, SearchLimits, SearchOptions};
        let pos = EnginePosition::from_fen(chessplayx_rules::Variant::Xiangqi, CHASE).unwrap();
        let mut g = EngineGame::new(pos);
        for m in ["b1a1", "a5b5", "a1b1", "b5a5"] {
            g.play_uci(m).unwrap();
        }
        let mut s = EngineSearcher::new(8);
        let options = SearchOptions {
            multipv: 64,
            ..SearchOptions::default()
        };
        let r = s.search(&g, &SearchLimits::depth(5), options, &mut |_| {});
        let line = |mv: &str| r.lines.iter().find(|l| l.mv == mv).unwrap().score;
        assert!(line("b1a1").ordering_value() < -20_000, "{}", line("b1a1"));
        assert!(r.score.ordering_value() > 300, "{}", r.score);
        assert_ne!(r.best_move.as_deref(), Some("b1a1"));
    }

    #[test]
    fn unmatched_keys_give_no_verdict() {
        let pos = Xiangqi::from_fen(CHASE).unwrap();
        assert_eq!(chasers(&pos, &[1, 2, 3, 4]), None);
    }

    #[test]
    fn the_cycle_hash_depends_on_the_order() {
        assert_ne!(cycle_hash(&[1, 2, 3, 4]), cycle_hash(&[2, 1, 3, 4]));
        assert_eq!(cycle_hash(&[1, 2, 3, 4]), cycle_hash(&[1, 2, 3, 4]));
    }
}
