//! The server builds a move's status and legal-move list from one move
//! generation (`status_and_moves`); it must say exactly what the two
//! separate views say, in every game and every position of a game.

use chessplayx_rules::{AnyGame, Variant};

/// A small deterministic generator, so a failure replays.
struct Lcg(u64);

impl Lcg {
    fn below(&mut self, n: usize) -> usize {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        usize::try_from(self.0 >> 33).unwrap() % n
    }
}

#[test]
fn one_generation_gives_the_same_status_and_moves() {
    let mut rng = Lcg(7);
    for variant in [
        Variant::Chess,
        Variant::Horde,
        Variant::Atomic,
        Variant::Xiangqi,
    ] {
        for game_no in 0..6 {
            let mut game = AnyGame::new(variant, None).unwrap();
            for ply in 0..160 {
                let (status, moves) = game.status_and_moves();
                assert_eq!(
                    status,
                    game.status(),
                    "{variant:?} game {game_no} ply {ply}"
                );
                assert_eq!(
                    moves,
                    game.legal_moves(),
                    "{variant:?} game {game_no} ply {ply}"
                );
                let ucis: Vec<&str> = moves.iter().map(|m| m.uci.as_str()).collect();
                let listed: Vec<&str> = status.legal_moves.iter().map(|m| m.as_str()).collect();
                assert_eq!(ucis, listed);
                if moves.is_empty() {
                    break;
                }
                let pick = moves[rng.below(moves.len())].uci;
                game.play_uci(&pick).unwrap();
            }
        }
    }
}
