//! The placement and position queries the advanced (check and chase) rules
//! build on: attackers, king attackers with the flying general, pins in the
//! §7.2 sense, screen squares, captures "if it were the other side's turn".

use chessplayx_rules::{
    Color, Game,
    xiangqi::{Bitboard, Board, Move, Piece, Role, Square, Xiangqi, crossed_river},
};

fn pos(fen: &str) -> Xiangqi {
    Xiangqi::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

fn sq(s: &str) -> Square {
    s.parse().unwrap_or_else(|e| panic!("{e}"))
}

fn set(names: &[&str]) -> Bitboard {
    names.iter().map(|s| sq(s)).collect()
}

fn mv(uci: &str) -> Move {
    let split = if uci.len() == 6 || uci[1..3] == *"10" {
        3
    } else {
        2
    };
    Move::new(sq(&uci[..split]), sq(&uci[split..]))
}

#[test]
fn flying_general_counts_as_an_attack_on_both_generals() {
    let p = pos("4k4/9/9/9/9/4C4/9/9/9/4K4 w - - 0 1");
    let mut b = p.board().clone();
    assert!(!b.generals_face());
    b.discard_piece_at(sq("e5"));
    assert!(b.generals_face());
    assert_eq!(b.king_attackers(Color::White), set(&["e10"]));
    assert_eq!(b.king_attackers(Color::Black), set(&["e1"]));
    // Placement queries answer for any placement, even generals swapped.
    let mut odd = Board::empty();
    odd.set_piece_at(sq("e10"), Piece::new(Color::White, Role::General));
    odd.set_piece_at(sq("e1"), Piece::new(Color::Black, Role::General));
    assert!(odd.generals_face());
    odd.set_piece_at(sq("e5"), Piece::new(Color::Black, Role::Cannon));
    assert!(!odd.generals_face());
    // The cannon is pinned by the flying-general rule: it may only slide on
    // the file.
    assert!(p.board().is_pinned(sq("e5")));
    assert_eq!(p.pinned(), set(&["e5"]));
    assert!(
        p.legal_moves_from(sq("e5"))
            .iter()
            .all(|m| m.to().file() == sq("e5").file())
    );
}

#[test]
fn pins_by_chariot_cannon_and_horse() {
    // Red general e1. The Black chariot e9 pins the Red horse e3; the Black
    // cannon a1 has two Red screens (b1, c1) before the general.
    let p = pos("3k5/4r4/9/9/9/9/9/4N4/9/cRB1K4 w - - 0 1");
    // e3 is the only piece between e1 and the chariot on e9.
    assert!(p.board().is_pinned(sq("e3")));
    // Moving either screen would leave exactly one: both are pinned.
    assert!(p.board().is_pinned(sq("b1")));
    assert!(p.board().is_pinned(sq("c1")));
    assert_eq!(p.pinned(), set(&["e3", "b1", "c1"]));
    assert!(!p.is_check());

    // A horse leg: the Black horse f3 aims at e1 through its leg f2, which
    // holds a Red chariot.
    let h = pos("3k5/9/9/9/9/9/9/5n3/5R3/4K4 w - - 0 1");
    assert!(h.board().is_pinned(sq("f2")));
    assert_eq!(h.pinned(), set(&["f2"]));
    // Every chariot move leaves the leg except capturing the horse.
    let moves: Vec<Move> = h.legal_moves_from(sq("f2"));
    assert_eq!(moves, vec![mv("f2f3")]);
}

#[test]
fn screen_squares_forbid_creating_a_cannon_check() {
    // Black cannon e7 faces the Red general e1 on an open file: any Red piece
    // arriving on e2..e6 would become a screen.
    let p = pos("3k5/9/9/4c4/9/9/9/9/9/R3K4 w - - 0 1");
    assert_eq!(p.screen_squares(), set(&["e2", "e3", "e4", "e5", "e6"]));
    // The general itself may step along the open file: the cannon has no
    // screen, so e2 is not attacked.
    assert!(p.is_legal(mv("e1e2")));
    // A Red horse arriving on the file would be the cannon's screen.
    let r = pos("3k5/9/9/4c4/9/9/9/9/6N2/4K4 w - - 0 1");
    assert!(r.screen_squares().contains(sq("e3")));
    assert!(!r.is_legal(mv("g2e3")), "horse would screen the cannon");
    assert!(r.is_legal(mv("g2f4")));
}

#[test]
fn attackers_to_follow_each_pattern() {
    let mut b = Board::empty();
    let put = |b: &mut Board, s: &str, c: Color, r: Role| b.set_piece_at(sq(s), Piece::new(c, r));
    put(&mut b, "e5", Color::White, Role::Soldier); // target
    put(&mut b, "g6", Color::Black, Role::Horse); // g6 -> e5, leg f6 empty
    put(&mut b, "e9", Color::Black, Role::Cannon); // screen e7
    put(&mut b, "e7", Color::Black, Role::Soldier);
    put(&mut b, "d5", Color::Black, Role::Soldier); // crossed black soldier attacks e5 sideways
    put(&mut b, "c7", Color::Black, Role::Elephant); // could reach e5 only across the river: no
    put(&mut b, "e6", Color::Black, Role::Chariot); // e6 -> e5 adjacent
    let att = b.attackers_to(sq("e5"), Color::Black, b.occupied());
    assert_eq!(att, set(&["g6", "e6", "d5"]));
    // Removing the chariot on e6 leaves e7 as the only screen: the cannon
    // now attacks e5.
    b.discard_piece_at(sq("e6"));
    let att = b.attackers_to(sq("e5"), Color::Black, b.occupied());
    assert_eq!(att, set(&["g6", "e9", "d5"]));
    // Blocking the horse leg removes the horse.
    put(&mut b, "f6", Color::White, Role::Chariot);
    let att = b.attackers_to(sq("e5"), Color::Black, b.occupied());
    assert_eq!(att, set(&["e9", "d5"]));
    assert_eq!(
        b.attacks_from(sq("g6")),
        Bitboard::EMPTY | set(&["h8", "f8", "i7", "i5", "h4", "f4"])
    );
    assert!(crossed_river(Color::Black, sq("d5")));
    assert!(!crossed_river(Color::Black, sq("e7")));
}

#[test]
fn captures_if_it_were_the_other_sides_turn() {
    // Red to move; Black's chariot a10 could take the Red horse a5, and its
    // cannon b8 could take b1 over the screen on b3.
    let p = pos("r2k5/9/1c7/9/9/N8/9/1C7/9/1R2K4 w - - 0 1");
    let swapped = p.swap_turn().unwrap_or_else(|| panic!("not in check"));
    assert_eq!(swapped.turn(), Color::Black);
    assert_ne!(swapped.zobrist(), p.zobrist());
    assert_eq!(swapped.zobrist(), swapped.zobrist_from_scratch());
    let mut caps: Vec<String> = p.opponent_captures().iter().map(|m| m.to_uci()).collect();
    caps.sort();
    assert_eq!(caps, vec!["a10a5", "b8b1"]);
    assert!(p.board().is_legal_move_for_owner(sq("a10"), sq("a5")));
    assert!(!p.board().is_legal_move_for_owner(sq("a10"), sq("a4")));
    // In check, swapping would leave the side not to move in check.
    let c = pos("4k4/4R4/9/9/9/9/9/9/9/3K5 b - - 0 1");
    assert!(c.swap_turn().is_none());
    assert!(c.opponent_captures().is_empty());
}

#[test]
fn capture_check_and_zobrist_queries() {
    let mut p = Xiangqi::start();
    assert!(p.is_capture(mv("b3b10")));
    assert_eq!(
        p.captured(mv("b3b10")),
        Some(Piece::new(Color::Black, Role::Horse))
    );
    assert!(!p.is_capture(mv("b3b4")));
    assert_eq!(p.captured(mv("b3b4")), None);
    // h3e3 then e3e7 (cannon takes the central soldier) gives check.
    let k0 = p.zobrist();
    for m in ["h3e3", "h10g8", "h1g3", "b10c8"] {
        let m = p.parse_uci(m).unwrap_or_else(|e| panic!("{e}"));
        p.play_unchecked(m);
    }
    // The same position by another move order has the same key.
    let mut q = Xiangqi::start();
    for m in ["h3e3", "b10c8", "h1g3", "h10g8"] {
        let m = q.parse_uci(m).unwrap_or_else(|e| panic!("{e}"));
        q.play_unchecked(m);
    }
    assert_eq!(p.zobrist(), q.zobrist());
    assert_ne!(p.zobrist(), k0);
    // Taking the central soldier is no check: no screen before e10.
    assert!(!p.gives_check(mv("e3e7")));
    assert_eq!(p.game_ply(), 4);
    assert!(p.play(mv("e3e9")).is_err());
    assert!(p.play(mv("e3e7")).is_ok());
    assert!(!p.is_check());
    let mut r = pos("3k5/9/9/9/9/9/9/9/9/R3K4 w - - 0 1");
    assert!(r.gives_check(mv("a1a10")));
    assert!(!r.gives_check(mv("a1a9")));
    assert!(r.play(mv("a1a10")).is_ok());
    assert!(r.is_check());
    assert_eq!(r.checkers(), set(&["a10"]));
}
