//! `chessplayx serve`: the web app. The server is a later issue; until it
//! exists the command says so plainly and exits with status 2.

/// Why the server cannot start.
#[derive(Debug, thiserror::Error)]
pub(crate) enum ServeError {
    /// The web server has not been written yet.
    #[error(
        "the web server is not built yet; for now use `chessplayx uci`, `perft`, `status` or `bench`"
    )]
    NotBuilt,
}

/// Would serve the web app at http://127.0.0.1:8080.
///
/// # Errors
///
/// Always [`ServeError::NotBuilt`] for now.
pub(crate) const fn run() -> Result<(), ServeError> {
    Err(ServeError::NotBuilt)
}
