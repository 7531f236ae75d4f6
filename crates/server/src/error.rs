//! The HTTP API's one error type and its mapping to status codes and the
//! `{"error": {"code", "message"}}` body of docs/protocol.md.

use axum::{
    Json,
    http::{HeaderValue, StatusCode, header},
    response::{IntoResponse, Response},
};

use crate::store::StoreError;

/// Why an API request failed. User errors carry a message for the client;
/// server errors are logged and answered with a generic body.
#[derive(Debug, thiserror::Error)]
pub enum ApiError {
    /// The body is not the expected JSON, or a field is out of range.
    #[error("{0}")]
    BadRequest(String),
    /// The FEN is not a legal position of the variant.
    #[error("{0}")]
    BadFen(String),
    /// A move of the list is malformed, illegal or after the end.
    #[error("{0}")]
    BadMove(String),
    /// An imported text is not a readable PGN (the message says where).
    #[error("{0}")]
    BadPgn(String),
    /// The position has ended, so there is nothing to do.
    #[error("{0}")]
    GameOver(String),
    /// No such room (or no such API path).
    #[error("not found")]
    NotFound,
    /// The path exists but not with this method (`PUT /api/health`).
    #[error("method not allowed here")]
    MethodNotAllowed,
    /// The body is larger than the server reads (64 KiB).
    #[error("the body is larger than {} bytes", crate::http::MAX_BODY)]
    PayloadTooLarge,
    /// A JSON endpoint was sent a body without
    /// `Content-Type: application/json`.
    #[error("expected a body with Content-Type: application/json")]
    UnsupportedMediaType,
    /// A browser page of another site asked for a WebSocket.
    #[error("cross-origin WebSocket refused")]
    CrossOrigin,
    /// Too many requests from this address; retry after this many seconds.
    #[error("too many rooms created from this address; retry in {0} s")]
    RateLimited(u64),
    /// The AI pool could not take the search before its deadline.
    #[error("the engine is busy; try again")]
    Unavailable,
    /// Storage failed.
    #[error(transparent)]
    Store(#[from] StoreError),
    /// Anything else that is the server's fault.
    #[error("{0}")]
    Internal(String),
}

impl ApiError {
    /// The `code` of the error body.
    #[must_use]
    pub const fn code(&self) -> &'static str {
        match self {
            Self::BadRequest(_) => "bad_request",
            Self::BadFen(_) => "bad_fen",
            Self::BadMove(_) => "bad_move",
            Self::BadPgn(_) => "bad_pgn",
            Self::GameOver(_) => "game_over",
            Self::NotFound => "not_found",
            Self::MethodNotAllowed => "method_not_allowed",
            Self::PayloadTooLarge => "payload_too_large",
            Self::UnsupportedMediaType => "unsupported_media_type",
            Self::CrossOrigin => "forbidden",
            Self::RateLimited(_) => "rate_limited",
            Self::Unavailable => "unavailable",
            Self::Store(_) | Self::Internal(_) => "internal",
        }
    }

    /// The HTTP status.
    #[must_use]
    pub const fn status(&self) -> StatusCode {
        match self {
            Self::BadRequest(_) | Self::BadFen(_) | Self::BadMove(_) | Self::BadPgn(_) => {
                StatusCode::BAD_REQUEST
            }
            Self::GameOver(_) => StatusCode::CONFLICT,
            Self::NotFound => StatusCode::NOT_FOUND,
            Self::MethodNotAllowed => StatusCode::METHOD_NOT_ALLOWED,
            Self::PayloadTooLarge => StatusCode::PAYLOAD_TOO_LARGE,
            Self::UnsupportedMediaType => StatusCode::UNSUPPORTED_MEDIA_TYPE,
            Self::CrossOrigin => StatusCode::FORBIDDEN,
            Self::RateLimited(_) => StatusCode::TOO_MANY_REQUESTS,
            Self::Unavailable => StatusCode::SERVICE_UNAVAILABLE,
            Self::Store(_) | Self::Internal(_) => StatusCode::INTERNAL_SERVER_ERROR,
        }
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let status = self.status();
        let message = if status.is_server_error() {
            tracing::error!(error = %self, "request failed");
            "internal error (logged on the server)".to_owned()
        } else {
            self.to_string()
        };
        let body = serde_json::json!({"error": {"code": self.code(), "message": message}});
        let mut response = (status, Json(body)).into_response();
        if let Self::RateLimited(secs) = self
            && let Ok(v) = HeaderValue::from_str(&secs.to_string())
        {
            response.headers_mut().insert(header::RETRY_AFTER, v);
        }
        response
    }
}

/// A JSON body axum could not take: too large (413), not declared as JSON
/// (415), or not the expected JSON (400, with axum's reason, which names
/// the field and position).
impl From<axum::extract::rejection::JsonRejection> for ApiError {
    fn from(rejection: axum::extract::rejection::JsonRejection) -> Self {
        match rejection.status() {
            StatusCode::PAYLOAD_TOO_LARGE => Self::PayloadTooLarge,
            StatusCode::UNSUPPORTED_MEDIA_TYPE => Self::UnsupportedMediaType,
            _ => Self::BadRequest(rejection.body_text()),
        }
    }
}

/// An import that failed: its syntax (`bad_pgn`), its position
/// (`bad_fen`) or a move (`bad_move`), the message saying where.
impl From<crate::analysis::ImportError> for ApiError {
    fn from(e: crate::analysis::ImportError) -> Self {
        use crate::analysis::ImportError as E;
        match e {
            E::Fen(_) => Self::BadFen(e.to_string()),
            E::Move(_) => Self::BadMove(e.to_string()),
            E::Empty | E::Pgn(_) | E::UnknownVariant(_) | E::XiangqiPgn => {
                Self::BadPgn(e.to_string())
            }
        }
    }
}

/// Too many analyses running: the pool is saturated (503).
impl From<crate::analysis::StartError> for ApiError {
    fn from(e: crate::analysis::StartError) -> Self {
        match e {
            crate::analysis::StartError::Busy => Self::Unavailable,
        }
    }
}

/// A request to a WebSocket endpoint that is not a WebSocket handshake.
impl From<axum::extract::ws::rejection::WebSocketUpgradeRejection> for ApiError {
    fn from(rejection: axum::extract::ws::rejection::WebSocketUpgradeRejection) -> Self {
        match rejection.status() {
            StatusCode::METHOD_NOT_ALLOWED => Self::MethodNotAllowed,
            _ => Self::BadRequest(rejection.body_text()),
        }
    }
}

/// A query string that does not parse (`/ws/room/{id}?v=abc`).
impl From<axum::extract::rejection::QueryRejection> for ApiError {
    fn from(rejection: axum::extract::rejection::QueryRejection) -> Self {
        Self::BadRequest(rejection.body_text())
    }
}

/// The answer for a path that exists without the request's method (the
/// router's one fallback for every route).
pub(crate) async fn method_not_allowed() -> ApiError {
    ApiError::MethodNotAllowed
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_and_statuses_are_distinct_per_kind() {
        let all = [
            ApiError::BadRequest(String::new()),
            ApiError::BadFen(String::new()),
            ApiError::BadMove(String::new()),
            ApiError::BadPgn(String::new()),
            ApiError::GameOver(String::new()),
            ApiError::NotFound,
            ApiError::MethodNotAllowed,
            ApiError::PayloadTooLarge,
            ApiError::UnsupportedMediaType,
            ApiError::CrossOrigin,
            ApiError::RateLimited(3),
            ApiError::Unavailable,
            ApiError::Internal(String::new()),
        ];
        for e in &all {
            assert!(e.status().is_client_error() || e.status().is_server_error());
            let same_code: Vec<_> = all.iter().filter(|o| o.code() == e.code()).collect();
            // Codes shared only by errors of one status.
            assert!(same_code.iter().all(|o| o.status() == e.status()), "{e:?}");
        }
    }
}
