//! Analysis, the analysis board's live line, and import
//! (docs/protocol.md, "Analysis"): thin handlers over `crate::analysis`.

use std::time::Duration;

use axum::{
    Json, Router,
    extract::{Path, State, rejection::JsonRejection},
    http::StatusCode,
    routing::{get, post},
};
use chessplayx_rules::{AnyGame, GameStatus, Variant};
use serde::{Deserialize, Serialize};

use super::api::{PositionRequest, replay};
use crate::{
    AppState,
    analysis::{self, PositionEval},
    bot::{AiError, Priority},
    error::ApiError,
    util::is_room_id,
};

/// How long `/api/eval` waits for a search slot before answering 503: the
/// analysis board asks again on the next move, so waiting long helps no one.
const EVAL_QUEUE_WAIT: Duration = Duration::from_millis(1_500);

/// The thinking time `/api/eval` allows, in milliseconds, and its default.
const EVAL_MS: std::ops::RangeInclusive<u64> = 50..=2_000;
const EVAL_MS_DEFAULT: u64 = 300;

pub(super) fn router() -> Router<AppState> {
    Router::new()
        .route("/api/analysis", post(start))
        .route("/api/analysis/{id}", get(status))
        .route("/api/eval", post(eval))
        .route("/api/import", post(import))
}

#[derive(Debug, Deserialize)]
struct RoomRef {
    room: String,
}

/// The game of a request: `{"room": id}` or a position request.
async fn requested_game(app: &AppState, body: serde_json::Value) -> Result<AnyGame, ApiError> {
    let bad = |e: serde_json::Error| ApiError::BadRequest(e.to_string());
    if body.get("room").is_none() {
        return replay(serde_json::from_value::<PositionRequest>(body).map_err(bad)?).await;
    }
    let RoomRef { room } = serde_json::from_value(body).map_err(bad)?;
    if !is_room_id(&room) {
        return Err(ApiError::NotFound);
    }
    let record = app
        .0
        .store
        .load_room(&room)
        .await?
        .ok_or(ApiError::NotFound)?;
    let moves: Vec<String> = record.moves.into_iter().map(|m| m.uci).collect();
    let req =
        serde_json::json!({"variant": record.variant, "fen": record.start_fen, "moves": moves});
    replay(serde_json::from_value(req).map_err(bad)?).await
}

async fn start(
    State(app): State<AppState>,
    body: Result<Json<serde_json::Value>, JsonRejection>,
) -> Result<(StatusCode, Json<analysis::Started>), ApiError> {
    let Json(body) = body?;
    let game = requested_game(&app, body).await?;
    let started = app.0.analyses.start(&app.0.ai, game).await?;
    Ok((StatusCode::ACCEPTED, Json(started)))
}

async fn status(
    State(app): State<AppState>,
    Path(id): Path<String>,
) -> Result<Json<analysis::AnalysisJson>, ApiError> {
    app.0.analyses.get(&id).map(Json).ok_or(ApiError::NotFound)
}

#[derive(Debug, Deserialize)]
struct EvalRequest {
    #[serde(flatten)]
    position: PositionRequest,
    #[serde(default)]
    ms: Option<u64>,
}

async fn eval(
    State(app): State<AppState>,
    body: Result<Json<EvalRequest>, JsonRejection>,
) -> Result<Json<PositionEval>, ApiError> {
    let Json(req) = body?;
    let ms = req.ms.unwrap_or(EVAL_MS_DEFAULT);
    if !EVAL_MS.contains(&ms) {
        return Err(ApiError::BadRequest(format!(
            "ms {ms} is not between {} and {}",
            EVAL_MS.start(),
            EVAL_MS.end()
        )));
    }
    let game = replay(req.position).await?;
    let deadline = tokio::time::Instant::now() + EVAL_QUEUE_WAIT;
    let think = Duration::from_millis(ms);
    app.0
        .ai
        .run(Priority::Interactive, Some(deadline), move || {
            analysis::evaluate(&game, think)
        })
        .await
        .map(Json)
        .map_err(|e| match e {
            AiError::Busy => ApiError::Unavailable,
            AiError::NoMove | AiError::Failed => ApiError::Internal(e.to_string()),
        })
}

#[derive(Debug, Deserialize)]
struct ImportRequest {
    text: String,
    #[serde(default)]
    variant: Option<Variant>,
}

#[derive(Debug, Serialize)]
struct ImportResponse {
    variant: Variant,
    fen: Option<String>,
    moves: Vec<String>,
    sans: Vec<String>,
    headers: serde_json::Map<String, serde_json::Value>,
    status: GameStatus,
}

async fn import(
    body: Result<Json<ImportRequest>, JsonRejection>,
) -> Result<Json<ImportResponse>, ApiError> {
    let Json(req) = body?;
    let imported = tokio::task::spawn_blocking(move || analysis::import(&req.text, req.variant))
        .await
        .map_err(|e| ApiError::Internal(e.to_string()))??;
    let history = imported.game.history();
    Ok(Json(ImportResponse {
        variant: imported.game.variant(),
        fen: imported.fen,
        moves: history.iter().map(|m| m.uci.clone()).collect(),
        sans: history.into_iter().map(|m| m.san).collect(),
        headers: imported
            .headers
            .into_iter()
            .map(|(k, v)| (k, serde_json::Value::String(v)))
            .collect(),
        status: imported.game.status(),
    }))
}
