//! The WebSocket endpoints: `/ws/room/{id}` and `/ws/lobby`, with the
//! handshake checks (Origin, frame limits) before a connection starts.

mod connection;

use axum::{
    Router,
    extract::{
        Path, Query, State, WebSocketUpgrade, rejection::QueryRejection,
        ws::rejection::WebSocketUpgradeRejection,
    },
    http::{HeaderMap, header},
    response::{IntoResponse, Response},
    routing::get,
};
use serde::Deserialize;

pub(crate) use connection::{lobby_connection, room_connection};

use crate::{
    AppState,
    cluster::{Found, find, relay},
    error::ApiError,
    room::Registry,
    util::is_room_id,
};

/// The largest frame or message a client may send; larger ones close the
/// connection (docs/protocol.md).
pub(crate) const MAX_FRAME: usize = 8 * 1024;

/// The query of `/ws/room/{id}`.
#[derive(Clone, Debug, Default, Deserialize)]
pub(crate) struct RoomQuery {
    /// A seat token.
    pub(crate) token: Option<String>,
    /// An invite token.
    pub(crate) invite: Option<String>,
    /// The last event number the client applied.
    pub(crate) v: Option<u64>,
}

pub(crate) fn router() -> Router<AppState> {
    Router::new()
        .route("/ws/lobby", get(lobby_ws))
        .route("/ws/room/{id}", get(room_ws))
}

/// The read buffer of a connection, allocated for its whole life. Client
/// messages are tens of bytes (a move is ~50), and a larger frame (up to
/// [`MAX_FRAME`]) grows it when it comes; 10,000 connections with 4 KiB
/// each held 30 MiB more for nothing.
const READ_BUFFER: usize = 1024;

/// Small buffers: a game message is a few KiB at most, and 10,000 idle
/// connections must fit in little memory (tungstenite's defaults are
/// 128 KiB per buffer).
fn configure(ws: WebSocketUpgrade) -> WebSocketUpgrade {
    ws.max_frame_size(MAX_FRAME)
        .max_message_size(MAX_FRAME)
        .read_buffer_size(READ_BUFFER)
        .write_buffer_size(0)
        .max_write_buffer_size(1024 * 1024)
}

/// Accepts a handshake without `Origin` (not a browser), from the
/// server's own host, or from an allowed origin; a browser page of
/// another site cannot open a player's connection with its cookies or
/// tokens.
fn origin_allowed(headers: &HeaderMap, allowed: &[String]) -> bool {
    let Some(origin) = headers.get(header::ORIGIN) else {
        return true;
    };
    let Ok(origin) = origin.to_str() else {
        return false;
    };
    if allowed.iter().any(|a| a == origin) {
        return true;
    }
    let host = headers.get(header::HOST).and_then(|h| h.to_str().ok());
    let origin_host = origin
        .strip_prefix("http://")
        .or_else(|| origin.strip_prefix("https://"));
    matches!((origin_host, host), (Some(o), Some(h)) if o.eq_ignore_ascii_case(h))
}

/// Every refusal of a handshake is an [`ApiError`] with its JSON body, as
/// for the rest of the HTTP API (a plain GET without the upgrade headers
/// included).
async fn room_ws(
    State(app): State<AppState>,
    Path(id): Path<String>,
    query: Result<Query<RoomQuery>, QueryRejection>,
    headers: HeaderMap,
    ws: Result<WebSocketUpgrade, WebSocketUpgradeRejection>,
) -> Result<Response, ApiError> {
    let ws = ws?;
    let Query(query) = query?;
    if !origin_allowed(&headers, &app.0.config.allow_origins) {
        return Err(ApiError::CrossOrigin);
    }
    if !is_room_id(&id) {
        return Err(ApiError::NotFound);
    }
    let handle = match &app.0.cluster {
        None => match Registry::get(&app.0, &id).await {
            Ok(Some(handle)) => handle,
            Ok(None) => return Err(ApiError::NotFound),
            Err(e) => return Err(ApiError::Internal(e.to_string())),
        },
        // Another node may run the room: relay to it.
        Some(cluster) => {
            let open = |node: String| {
                let (id, query) = (&id, &query);
                async move { relay::open(cluster, &node, id, query).await }
            };
            match find(&app.0, &id, open).await? {
                None => return Err(ApiError::NotFound),
                Some(Found::Here(handle)) => handle,
                Some(Found::There(opened)) => {
                    let timeout = app.0.config.write_timeout;
                    return Ok(configure(ws)
                        .on_upgrade(move |socket| relay::pump(socket, opened, timeout))
                        .into_response());
                }
            }
        }
    };
    Ok(configure(ws)
        .on_upgrade(move |socket| room_connection(socket, app, id, handle, query))
        .into_response())
}

async fn lobby_ws(
    State(app): State<AppState>,
    headers: HeaderMap,
    ws: Result<WebSocketUpgrade, WebSocketUpgradeRejection>,
) -> Result<Response, ApiError> {
    let ws = ws?;
    if !origin_allowed(&headers, &app.0.config.allow_origins) {
        return Err(ApiError::CrossOrigin);
    }
    Ok(configure(ws)
        .on_upgrade(move |socket| lobby_connection(socket, app))
        .into_response())
}

#[cfg(test)]
mod tests {
    use axum::http::HeaderValue;

    use super::*;

    fn headers(origin: Option<&str>, host: &str) -> HeaderMap {
        let mut h = HeaderMap::new();
        h.insert(header::HOST, HeaderValue::from_str(host).unwrap());
        if let Some(o) = origin {
            h.insert(header::ORIGIN, HeaderValue::from_str(o).unwrap());
        }
        h
    }

    #[test]
    fn origin_must_be_absent_same_host_or_allowed() {
        assert!(origin_allowed(&headers(None, "a:1"), &[]));
        assert!(origin_allowed(&headers(Some("http://a:1"), "a:1"), &[]));
        assert!(origin_allowed(&headers(Some("https://A:1"), "a:1"), &[]));
        assert!(!origin_allowed(&headers(Some("http://evil:1"), "a:1"), &[]));
        assert!(!origin_allowed(&headers(Some("http://a:2"), "a:1"), &[]));
        assert!(!origin_allowed(&headers(Some("null"), "a:1"), &[]));
        let allowed = vec!["http://localhost:5173".to_owned()];
        assert!(origin_allowed(
            &headers(Some("http://localhost:5173"), "a:1"),
            &allowed
        ));
    }
}
