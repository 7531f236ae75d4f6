//! What the integration tests share.

use std::path::PathBuf;

/// The test data kept beside the tests (`tests/data/`): the public perft
/// suites (`perft/<variant>.public.epd`, counts from engines this project
/// did not write) and the Xiangqi rules cases (`rules/xiangqi-cases.json`).
/// They are copies of the project's `../shared` material, kept in the
/// repository so that a fresh clone tests itself; `../shared` is only
/// needed by the longer conformance commands (`scripts/conformance`).
pub(crate) fn data_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data")
}
