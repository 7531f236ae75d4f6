//! The web app's files, or a page saying how to build them.

use std::path::Path;

use axum::{
    Router,
    http::StatusCode,
    response::Html,
    routing::{get, get_service},
};
use tower_http::services::{ServeDir, ServeFile};

use crate::{AppState, error::method_not_allowed};

const NOT_BUILT: &str = "<!doctype html>
<html lang=\"en\"><head><meta charset=\"utf-8\"><title>chessplayx</title></head>
<body><h1>chessplayx</h1>
<p>The server is running, but the web app is not built.
Run <code>scripts/run</code> from the repository (it builds <code>web/</code>
with npm, then starts the server), or point <code>chessplayx serve --web-dir</code>
at a built copy.</p>
<p>The API answers at <a href=\"/api/health\">/api/health</a>.</p></body></html>
";

/// Serves `dir` with `index.html` for every path that is not a file (the
/// app's own routes such as `/r/{id}`), or the not-built page when `dir`
/// has no `index.html`. Pages are read with GET (and HEAD); any other
/// method gets the API's JSON 405 rather than an empty one.
pub(super) fn router(dir: &Path) -> Router<AppState> {
    let index = dir.join("index.html");
    if index.is_file() {
        let files = ServeDir::new(dir).fallback(ServeFile::new(index));
        Router::new().fallback_service(get_service(files).fallback(method_not_allowed))
    } else {
        Router::new().fallback_service(
            get(|| async { (StatusCode::OK, Html(NOT_BUILT)) }).fallback(method_not_allowed),
        )
    }
}
