//! The HTTP side: the JSON API (one router per resource) and the web
//! app's static files.

mod analysis;
mod api;
mod rooms;
mod web;

use axum::{Router, extract::DefaultBodyLimit};

use crate::AppState;

/// The largest request body the API reads; a larger one is answered 413
/// `payload_too_large`. The largest real request, a position of 1,000
/// moves, is about 10 KB.
pub(crate) const MAX_BODY: usize = 64 * 1024;

/// The API routes, merged; unknown `/api/...` paths are JSON 404s rather
/// than the web app's page.
pub(crate) fn router(state: &AppState) -> Router<AppState> {
    Router::new()
        .merge(analysis::router())
        .merge(api::router())
        .merge(rooms::router())
        .merge(web::router(&state.0.config.web_dir))
        .layer(DefaultBodyLimit::max(MAX_BODY))
}
