//! `web/src/protocol.gen.ts` must be what the server's protocol types
//! generate: a change on one side fails here until the other follows.
//! `CHESSPLAYX_WRITE_TS=1` rewrites the file instead of comparing.

use std::path::PathBuf;

#[test]
fn the_web_protocol_file_matches_the_rust_types() {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../web/src/protocol.gen.ts");
    let generated = chessplayx_server::protocol_typescript();
    if std::env::var_os("CHESSPLAYX_WRITE_TS").is_some() {
        std::fs::write(&path, &generated).unwrap();
        return;
    }
    let on_disk = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        on_disk == generated,
        "{} differs from the protocol types; regenerate it with \
         CHESSPLAYX_WRITE_TS=1 cargo test -p chessplayx-server --test protocol_ts",
        path.display()
    );
    // The file names every code the server sends.
    for code in ["not_a_player", "stale", "internal"] {
        assert!(on_disk.contains(&format!("\"{code}\"")), "{code}");
    }
    assert!(on_disk.contains("\"timeout_vs_insufficient_material\""));
    // And the message shapes, in both directions.
    for shape in [
        "export type StateMsg = ",
        "export type ServerMsg = ",
        "export type ClientMsg = ",
        "export type NumberedEvent = ",
        "export type GameStatus = ",
    ] {
        assert!(on_disk.contains(shape), "{shape}");
    }
}
