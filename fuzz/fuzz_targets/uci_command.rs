//! Any line a GUI could send: `UciCommand::parse` must never panic, and
//! only the words matter, not the whitespace between them.

#![no_main]

use chessplayx_engine::uci::UciCommand;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    // The session rejects non-UTF-8 lines before parsing; lossy decoding
    // still lets every byte pattern reach the parser.
    let line = String::from_utf8_lossy(data);
    let parsed = UciCommand::parse(&line);

    let normalised = line.split_whitespace().collect::<Vec<_>>().join(" ");
    assert_eq!(
        parsed,
        UciCommand::parse(&normalised),
        "whitespace changed the meaning of {line:?}"
    );
});
