//! Any text as a PGN game: reading never panics, and whatever is read
//! replays under each 8×8 game's rules without a panic; a game that
//! replays has exactly the moves that were read.

#![no_main]

use chessplayx_rules::chess::{Atomic, Horde, PgnGame, Rules, Standard};
use libfuzzer_sys::fuzz_target;

fn replay<R: Rules>(parsed: &PgnGame) {
    if let Ok(game) = parsed.replay::<R>() {
        assert_eq!(game.moves().len(), parsed.moves().len());
    }
}

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    if let Ok(parsed) = PgnGame::parse(&text) {
        replay::<Standard>(&parsed);
        replay::<Horde>(&parsed);
        replay::<Atomic>(&parsed);
    }
});
