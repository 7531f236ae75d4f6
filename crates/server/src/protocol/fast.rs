//! The `move` event, the message a server sends most, written with its
//! legal-move list by hand.
//!
//! Why: through serde every legal move costs nine escaped strings (four
//! keys and four names, plus its UCI again in the status), and
//! `serde_json`'s string escaping was the largest single item of a move's
//! cost (18% of the server's instructions per move, `scripts/move-cost`).
//! The names the rules generate never need escaping, so this writes them
//! between quotes as they are, after checking that they need none; the
//! rest of the event goes through serde as before. The test below holds
//! the output byte for byte equal to serde's over random games of the
//! four variants, so the wire format has one definition: the types in
//! `protocol.rs`.

use super::MoveEvent;
use chessplayx_rules::{MoveInfo, Notation};

/// Appends `{"t":"move","d":{...}` (without the closing brace of the
/// whole message, which the caller writes with `"v"`) to `buf`, exactly as
/// serde would write `Event::Move(event)`.
///
/// # Errors
///
/// When serde fails on one of the parts (it cannot with our types).
pub(super) fn write_move_event(
    buf: &mut Vec<u8>,
    event: &MoveEvent<'_>,
) -> Result<(), serde_json::Error> {
    buf.extend_from_slice(b"{\"t\":\"move\",\"d\":{\"ply\":");
    serde_json::to_writer(&mut *buf, &event.ply)?;
    buf.extend_from_slice(b",\"uci\":");
    serde_json::to_writer(&mut *buf, event.uci)?;
    buf.extend_from_slice(b",\"san\":");
    serde_json::to_writer(&mut *buf, event.san)?;
    buf.extend_from_slice(b",\"by\":");
    serde_json::to_writer(&mut *buf, &event.by)?;
    buf.extend_from_slice(b",\"status\":");
    serde_json::to_writer(&mut *buf, event.status)?;
    buf.extend_from_slice(b",\"moves\":");
    write_moves(buf, event.moves)?;
    buf.extend_from_slice(b",\"warnings\":");
    serde_json::to_writer(&mut *buf, event.warnings)?;
    buf.extend_from_slice(b",\"clock\":");
    serde_json::to_writer(&mut *buf, &event.clock)?;
    buf.push(b'}');
    Ok(())
}

fn write_moves(buf: &mut Vec<u8>, moves: &[MoveInfo]) -> Result<(), serde_json::Error> {
    buf.push(b'[');
    for (i, m) in moves.iter().enumerate() {
        if i > 0 {
            buf.push(b',');
        }
        let plain = [m.uci, m.san, m.from, m.to].iter().all(needs_no_escape)
            && m.promotion.is_none_or(|c| c.is_ascii_alphanumeric());
        if !plain {
            serde_json::to_writer(&mut *buf, m)?;
            continue;
        }
        buf.extend_from_slice(b"{\"uci\":\"");
        buf.extend_from_slice(m.uci.as_str().as_bytes());
        buf.extend_from_slice(b"\",\"san\":\"");
        buf.extend_from_slice(m.san.as_str().as_bytes());
        buf.extend_from_slice(b"\",\"from\":\"");
        buf.extend_from_slice(m.from.as_str().as_bytes());
        buf.extend_from_slice(b"\",\"to\":\"");
        buf.extend_from_slice(m.to.as_str().as_bytes());
        match m.promotion {
            None => buf.extend_from_slice(b"\",\"promotion\":null}"),
            Some(c) => {
                buf.extend_from_slice(b"\",\"promotion\":\"");
                // Checked above: one ASCII byte.
                let mut one = [0; 4];
                buf.extend_from_slice(c.encode_utf8(&mut one).as_bytes());
                buf.extend_from_slice(b"\"}");
            }
        }
    }
    buf.push(b']');
    Ok(())
}

/// Whether JSON writes `n` between quotes unchanged: no quote, backslash
/// or control character (what `serde_json` escapes; it leaves every
/// other byte, multi-byte UTF-8 included, as it is).
fn needs_no_escape(n: &Notation) -> bool {
    n.as_str()
        .bytes()
        .all(|b| b >= 0x20 && b != b'"' && b != b'\\')
}

#[cfg(test)]
mod tests {
    use chessplayx_rules::{AnyGame, Color, Variant};
    use rand::{Rng as _, SeedableRng as _, rngs::StdRng};

    use super::super::{ClockJson, Event, MoveEvent};
    use super::*;

    fn serde_bytes(event: &MoveEvent<'_>) -> Vec<u8> {
        serde_json::to_vec(&Event::Move(event.clone())).unwrap()
    }

    fn fast_bytes(event: &MoveEvent<'_>) -> Vec<u8> {
        let mut buf = Vec::new();
        write_move_event(&mut buf, event).unwrap();
        buf.push(b'}');
        buf
    }

    /// Every position of random games in the four variants (promotions,
    /// castling, checks, mates, Xiangqi's warnings and counters), with and
    /// without a clock: the hand-written event equals serde's.
    #[test]
    fn the_move_event_is_byte_for_byte_what_serde_writes() {
        let mut rng = StdRng::seed_from_u64(20_261_201);
        let starts: [(Variant, Option<&str>); 6] = [
            (Variant::Chess, None),
            (Variant::Chess, Some("8/P5k1/8/8/8/8/6K1/8 w - - 0 1")),
            (Variant::Horde, None),
            (Variant::Atomic, None),
            (Variant::Xiangqi, None),
            (Variant::Atomic, Some("4k3/1P6/8/8/8/8/6p1/4K3 w - - 0 1")),
        ];
        let mut compared = 0;
        for (variant, fen) in starts {
            for game_no in 0..6_u64 {
                let mut game = AnyGame::new(variant, fen).unwrap();
                for ply in 0..160_u32 {
                    let moves = game.legal_moves();
                    if moves.is_empty() {
                        break;
                    }
                    let pick = &moves[rng.random_range(0..moves.len())];
                    let played = game.play_uci(pick.uci.as_str()).unwrap();
                    let (status, moves) = game.status_and_moves();
                    let warnings = game.move_warnings();
                    let clock = (game_no % 2 == 0).then(|| ClockJson {
                        white: rng.random_range(0..1_000_000),
                        black: rng.random_range(0..1_000_000),
                        running: status.outcome.is_none().then_some(status.turn),
                        initial: 300_000,
                        increment: 2_000,
                    });
                    let event = MoveEvent {
                        ply,
                        uci: &played.uci,
                        san: &played.san,
                        by: if status.turn == Color::White {
                            Color::Black
                        } else {
                            Color::White
                        },
                        status: &status,
                        moves: &moves,
                        warnings: &warnings,
                        clock,
                    };
                    assert_eq!(
                        String::from_utf8(fast_bytes(&event)).unwrap(),
                        String::from_utf8(serde_bytes(&event)).unwrap(),
                        "{variant:?} ply {ply}"
                    );
                    compared += 1;
                }
            }
        }
        assert!(compared > 2_000, "only {compared} positions compared");
    }

    /// A name that would need escaping (impossible from the rules, but
    /// `Notation` can be deserialized from anything) falls back to serde.
    #[test]
    fn a_name_that_needs_escaping_goes_through_serde() {
        let game = AnyGame::new(Variant::Chess, None).unwrap();
        let (status, mut moves) = game.status_and_moves();
        moves[0].san = serde_json::from_str(r#""N\"c3\\""#).unwrap();
        let event = MoveEvent {
            ply: 0,
            uci: "e2e4",
            san: "e4",
            by: Color::White,
            status: &status,
            moves: &moves,
            warnings: &[],
            clock: None,
        };
        let fast = fast_bytes(&event);
        assert_eq!(fast, serde_bytes(&event));
        let back: serde_json::Value = serde_json::from_slice(&fast).unwrap();
        assert_eq!(back["d"]["moves"][0]["san"], "N\"c3\\");
    }
}
