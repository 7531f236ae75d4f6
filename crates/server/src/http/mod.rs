//! The HTTP side: the JSON API (one router per resource) and the web
//! app's static files.

mod api;
mod rooms;
mod web;

use axum::Router;

use crate::AppState;

/// The API routes, merged; unknown `/api/...` paths are JSON 404s rather
/// than the web app's page.
pub(crate) fn router(state: &AppState) -> Router<AppState> {
    Router::new()
        .merge(api::router())
        .merge(rooms::router())
        .merge(web::router(&state.0.config.web_dir))
}
