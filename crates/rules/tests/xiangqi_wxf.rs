//! WXF notation: the examples of the rules page and of Fairy-Stockfish,
//! tandem pieces, and the typed errors of the two parsing steps.

use chessplayx_rules::{
    Game, MoveError,
    xiangqi::{IllegalWxfError, Move, Square, Wxf, WxfDirection, WxfPosition, Xiangqi},
};

fn pos(fen: &str) -> Xiangqi {
    Xiangqi::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

fn mv(uci: &str) -> Move {
    let from: Square = uci[..2].parse().unwrap_or_else(|e| panic!("{e}"));
    let to: Square = uci[2..].parse().unwrap_or_else(|e| panic!("{e}"));
    Move::new(from, to)
}

fn wxf(text: &str) -> Wxf {
    text.parse().unwrap_or_else(|e| panic!("{e}"))
}

#[test]
fn opening_moves_as_fairy_stockfish_writes_them() {
    // pyffish.get_san_moves(..., NOTATION_XIANGQI_WXF) for this line.
    let mut p = Xiangqi::start();
    for (uci, text) in [
        ("h3e3", "C2=5"),
        ("h10g8", "H8+7"),
        ("h1g3", "H2+3"),
        ("b10c8", "H2+3"),
    ] {
        let m = p.parse_uci(uci).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(p.wxf(m), text);
        assert_eq!(wxf(text).to_move(&p), Ok(m));
        p.play_unchecked(m);
    }
}

#[test]
fn tandem_pieces() {
    let p = pos("3k5/9/9/9/9/9/9/4C4/4C4/4K4 w - - 0 1");
    assert_eq!(p.wxf(mv("e3d3")), "C+=6");
    assert_eq!(p.wxf(mv("e2d2")), "C-=6");
    // The file alone is ambiguous here: both cannons can go sideways.
    assert!(matches!(
        wxf("C5=6").to_move(&p),
        Err(IllegalWxfError::Ambiguous { candidates, .. }) if candidates.len() == 2
    ));
    // The official prefix form is accepted too.
    assert_eq!(wxf("+C=6").to_move(&p), Ok(mv("e3d3")));
    assert_eq!(wxf("-C.6").to_move(&p), Ok(mv("e2d2")));

    // Black counts files from its own right and "front" is towards Red.
    let b = pos("3k5/9/4n4/9/4n4/9/9/9/9/4K4 b - - 0 1");
    assert_eq!(b.wxf(mv("e6d4")), "H++4");
    assert_eq!(b.wxf(mv("e8d6")), "H-+4");
    assert_eq!(b.wxf(mv("e6d8")), "H+-4");

    // Soldiers: two on a file use +/-, three or more (or two files with
    // two) use place-and-file digits.
    let two = pos("3k5/9/9/4P4/4P4/9/9/9/9/4K4 w - - 0 1");
    assert_eq!(two.wxf(mv("e7d7")), "P+=6");
    assert_eq!(two.wxf(mv("e6d6")), "P-=6");
    let three = pos("3k5/9/4P4/4P4/4P4/9/9/9/9/4K4 w - - 0 1");
    assert_eq!(three.wxf(mv("e8d8")), "15=6");
    assert_eq!(three.wxf(mv("e7d7")), "25=6");
    assert_eq!(three.wxf(mv("e6d6")), "35=6");
    assert_eq!(wxf("25=6").to_move(&three), Ok(mv("e7d7")));
    assert_eq!(
        wxf("25=6"),
        Wxf {
            role: chessplayx_rules::xiangqi::Role::Soldier,
            position: WxfPosition::Nth { index: 2, file: 5 },
            direction: WxfDirection::Sideways,
            number: 6
        }
    );
    // Advisors on one file never need the marks.
    let adv = pos("3k5/9/9/9/9/9/9/3A5/9/3AK4 w - - 0 1");
    assert_eq!(adv.wxf(mv("d1e2")), "A6+5");
    assert_eq!(adv.wxf(mv("d3e2")), "A6-5");
    assert_eq!(wxf("A6-5").to_move(&adv), Ok(mv("d3e2")));
}

#[test]
fn straight_and_diagonal_numbers() {
    let p = Xiangqi::start();
    assert_eq!(p.wxf(mv("h3h10")), "C2+7");
    assert_eq!(p.wxf(mv("i1i3")), "R1+2");
    assert_eq!(p.wxf(mv("c1e3")), "E7+5");
    assert_eq!(p.wxf(mv("f1e2")), "A4+5");
    assert_eq!(p.wxf(mv("e1e2")), "K5+1");
    assert_eq!(p.wxf(mv("e4e5")), "P5+1");
}

#[test]
fn errors_of_both_steps() {
    let p = Xiangqi::start();
    for bad in ["", "C2", "C2=10", "Q2=5", "C2x5", "C2=5+"] {
        assert!(bad.parse::<Wxf>().is_err(), "{bad}");
    }
    assert!(matches!(
        wxf("C5=4").to_move(&p),
        Err(IllegalWxfError::NoPiece { .. })
    ));
    assert!(matches!(
        wxf("C2+9").to_move(&p),
        Err(IllegalWxfError::Illegal { .. })
    ));
    assert!(matches!(
        wxf("H2=3").to_move(&p),
        Err(IllegalWxfError::Illegal { .. })
    ));
    assert!(matches!(
        wxf("R+=6").to_move(&p),
        Err(IllegalWxfError::NoPiece { .. })
    ));
    // UCI through the Game trait keeps the two steps apart.
    assert_eq!(
        p.parse_uci("h3z3"),
        Err(MoveError::Syntax {
            text: "h3z3".into()
        })
    );
    assert_eq!(
        p.parse_uci("h3h2h"),
        Err(MoveError::Syntax {
            text: "h3h2h".into()
        })
    );
    assert_eq!(
        p.parse_uci("e1f1"),
        Err(MoveError::Illegal {
            text: "e1f1".into()
        })
    );
    assert_eq!(
        p.parse_uci("b10c8"),
        Err(MoveError::Illegal {
            text: "b10c8".into()
        })
    );
    assert_eq!(
        p.parse_uci("b1c3").map(|m| p.move_to_uci(m)),
        Ok("b1c3".into())
    );
}
