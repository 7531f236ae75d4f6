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
    /// The position has ended, so there is nothing to do.
    #[error("{0}")]
    GameOver(String),
    /// No such room (or no such API path).
    #[error("not found")]
    NotFound,
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
            Self::GameOver(_) => "game_over",
            Self::NotFound => "not_found",
            Self::RateLimited(_) => "rate_limited",
            Self::Unavailable => "unavailable",
            Self::Store(_) | Self::Internal(_) => "internal",
        }
    }

    /// The HTTP status.
    #[must_use]
    pub const fn status(&self) -> StatusCode {
        match self {
            Self::BadRequest(_) | Self::BadFen(_) | Self::BadMove(_) => StatusCode::BAD_REQUEST,
            Self::GameOver(_) => StatusCode::CONFLICT,
            Self::NotFound => StatusCode::NOT_FOUND,
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

impl From<axum::extract::rejection::JsonRejection> for ApiError {
    fn from(rejection: axum::extract::rejection::JsonRejection) -> Self {
        Self::BadRequest(rejection.body_text())
    }
}
