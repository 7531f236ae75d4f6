//! Any text as a level row (UCI's `LevelRow` option): parsing never
//! panics, and a row that parses writes text that reads back to the same
//! row, so the figures of a ladder match name exactly the row played.

#![no_main]

use chessplayx_engine::LevelParams;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    if let Ok(row) = text.parse::<LevelParams>() {
        let written = row.to_string();
        assert_eq!(
            written.parse::<LevelParams>(),
            Ok(row),
            "{text:?} wrote {written:?}"
        );
    }
});
