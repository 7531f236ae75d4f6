//! Health, version, the position service and the AI move for same-device
//! games, and the lobby snapshot.

use std::{
    sync::{Arc, atomic::AtomicBool},
    time::Duration,
};

use axum::{
    Json, Router,
    extract::{State, rejection::JsonRejection},
    http::header,
    response::IntoResponse,
    routing::{any, get, post},
};
use chessplayx_engine::Level;
use chessplayx_rules::{AnyGame, ReplayError, Variant};
use serde::{Deserialize, Serialize};

use crate::{
    AppState, bot::AiError, bot::AiRequest, config::NodeId, error::ApiError,
    protocol::PositionReply as PositionResponse,
};

/// The most moves a position request may carry.
const MAX_MOVES: usize = 1_000;

/// How long an AI request may wait for a free search slot.
const AI_QUEUE_WAIT: Duration = Duration::from_secs(10);

pub(super) fn router() -> Router<AppState> {
    Router::new()
        .route("/api/health", get(health))
        .route("/api/version", get(version))
        .route("/api/position", post(position))
        .route("/api/ai-move", post(ai_move))
        .route("/api/lobby", get(lobby))
        .route("/api/{*rest}", any(not_found))
}

async fn not_found() -> ApiError {
    ApiError::NotFound
}

async fn health(State(app): State<AppState>) -> impl IntoResponse {
    let store = app.0.store.stats();
    let ai = app.0.ai.stats();
    Json(serde_json::json!({
        "status": "ok",
        "node": app.0.config.node_id.as_ref().map(NodeId::as_str),
        "rooms": app.0.registry.len(),
        "connections": app.0.connections.load(std::sync::atomic::Ordering::Relaxed),
        "store": {"commits": store.batches, "writes": store.jobs},
        "ai": {
            "threads": ai.threads,
            "running": ai.running,
            "searches": ai.searches,
            "busy_ms": ai.busy_ms,
            "nice": ai.nice,
            "sched_idle": ai.sched_idle,
        },
    }))
}

async fn version(State(app): State<AppState>) -> impl IntoResponse {
    Json(serde_json::json!({ "version": app.0.config.version }))
}

async fn lobby(State(app): State<AppState>) -> impl IntoResponse {
    (
        [(header::CONTENT_TYPE, "application/json")],
        app.0.lobby.current().data,
    )
}

/// A position: a start (FEN or the variant's) and moves.
#[derive(Clone, Debug, Deserialize)]
pub(super) struct PositionRequest {
    variant: Variant,
    #[serde(default)]
    fen: Option<String>,
    #[serde(default)]
    moves: Vec<String>,
}

/// Replays a request's moves off the async workers (a long Xiangqi game
/// costs milliseconds).
pub(super) async fn replay(req: PositionRequest) -> Result<AnyGame, ApiError> {
    if req.moves.len() > MAX_MOVES {
        return Err(ApiError::BadRequest(format!(
            "at most {MAX_MOVES} moves, got {}",
            req.moves.len()
        )));
    }
    tokio::task::spawn_blocking(move || {
        AnyGame::replay(req.variant, req.fen.as_deref(), &req.moves).map_err(|e| match e {
            ReplayError::Open(e) => ApiError::BadFen(e.to_string()),
            e @ ReplayError::Move { .. } => ApiError::BadMove(e.to_string()),
        })
    })
    .await
    .map_err(|e| ApiError::Internal(e.to_string()))?
}

async fn position(
    body: Result<Json<PositionRequest>, JsonRejection>,
) -> Result<Json<PositionResponse>, ApiError> {
    let Json(req) = body?;
    let game = replay(req).await?;
    let (status, moves) = game.status_and_moves();
    Ok(Json(PositionResponse {
        status,
        moves,
        warnings: game.move_warnings(),
    }))
}

#[derive(Debug, Deserialize)]
struct AiMoveRequest {
    #[serde(flatten)]
    position: PositionRequest,
    #[serde(deserialize_with = "level")]
    level: Level,
}

/// Reads an AI level straight into the engine's [`Level`]: the one range
/// check (1–8) is `Level`'s own, and an out-of-range number is a
/// `bad_request` naming it.
pub(super) fn level<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Level, D::Error> {
    let n = u8::deserialize(d)?;
    Level::try_from(n).map_err(serde::de::Error::custom)
}

/// As [`level`], for an optional field (`null` or absent: `None`).
pub(super) fn optional_level<'de, D: serde::Deserializer<'de>>(
    d: D,
) -> Result<Option<Level>, D::Error> {
    Option::<u8>::deserialize(d)?
        .map(|n| Level::try_from(n).map_err(serde::de::Error::custom))
        .transpose()
}

#[derive(Debug, Serialize)]
struct AiMoveResponse {
    uci: String,
    san: String,
}

async fn ai_move(
    State(app): State<AppState>,
    body: Result<Json<AiMoveRequest>, JsonRejection>,
) -> Result<Json<AiMoveResponse>, ApiError> {
    let Json(req) = body?;
    let mut game = replay(req.position).await?;
    if let Some(o) = game.outcome() {
        return Err(ApiError::GameOver(format!(
            "the game is over ({})",
            o.reason
        )));
    }
    let deadline = tokio::time::Instant::now() + AI_QUEUE_WAIT;
    let uci = app
        .0
        .ai
        .best_move(
            AiRequest {
                game: game.clone(),
                level: req.level,
            },
            None,
            Some(deadline),
            Arc::new(AtomicBool::new(false)),
        )
        .await
        .map_err(|e| match e {
            AiError::Busy => ApiError::Unavailable,
            AiError::NoMove => ApiError::GameOver("no move to make".to_owned()),
            AiError::Failed => ApiError::Internal("the search failed".to_owned()),
        })?;
    let played = game
        .play_uci(&uci)
        .map_err(|e| ApiError::Internal(format!("the engine chose {uci}: {e}")))?;
    Ok(Json(AiMoveResponse {
        uci: played.uci,
        san: played.san,
    }))
}
