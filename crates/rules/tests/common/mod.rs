//! What the integration tests share.

use std::path::PathBuf;

/// The project's `shared/` folder (perft suites, rules cases):
/// `$CHESSPLAYX_SHARED` when set (as `scripts/test` allows), else the first
/// `shared/` holding a `perft/` folder above this crate, which is
/// `../shared` seen from the repository root. A missing folder fails the
/// test rather than skipping it: these suites are the point of the tests.
pub(crate) fn shared_dir() -> PathBuf {
    if let Some(dir) = std::env::var_os("CHESSPLAYX_SHARED") {
        return PathBuf::from(dir);
    }
    let mut dir = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    loop {
        let candidate = dir.join("shared");
        if candidate.join("perft").is_dir() {
            return candidate;
        }
        assert!(
            dir.pop(),
            "no shared/perft above {} (set CHESSPLAYX_SHARED)",
            env!("CARGO_MANIFEST_DIR")
        );
    }
}
