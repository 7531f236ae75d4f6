//! Rooms over HTTP: create, summary, export.

use std::net::SocketAddr;

use axum::{
    Json, Router,
    extract::{ConnectInfo, Path, State, rejection::JsonRejection},
    http::{HeaderMap, StatusCode, header},
    response::{IntoResponse, Response},
    routing::{get, post},
};
use chessplayx_engine::Level;
use chessplayx_rules::{AnyGame, ByColor, Color, Variant};
use rand::Rng as _;
use serde::{Deserialize, Serialize};

use crate::{
    AppState,
    cluster::{Found, find, relay},
    error::ApiError,
    export::site_base,
    room::{Registry, RoomHandle, RoomLoadError, RoomSummary},
    store::{ClockConfig, RoomRecord, RoomState, SeatRecord, WriteOp},
    util::{hash_token, is_room_id, new_room_id, new_token, unix_ms},
};

pub(super) fn router() -> Router<AppState> {
    Router::new()
        .route("/api/rooms", post(create))
        .route("/api/rooms/{id}", get(summary))
        .route("/api/rooms/{id}/export", get(export))
}

#[derive(Copy, Clone, Debug, Deserialize)]
struct ClockRequest {
    minutes: f64,
    increment: u32,
}

#[derive(Copy, Clone, Debug, Default, Deserialize)]
#[serde(rename_all = "lowercase")]
enum ColorChoice {
    White,
    Black,
    #[default]
    Random,
}

#[derive(Clone, Debug, Deserialize)]
struct CreateRequest {
    variant: Variant,
    #[serde(default)]
    clock: Option<ClockRequest>,
    #[serde(default)]
    color: ColorChoice,
    #[serde(default)]
    public: bool,
    #[serde(default, deserialize_with = "super::api::optional_level")]
    ai_level: Option<Level>,
    #[serde(default)]
    fen: Option<String>,
    /// A same-device room: the creator holds both seats.
    #[serde(default)]
    local: bool,
}

#[derive(Debug, Serialize)]
struct CreateResponse {
    id: String,
    color: Color,
    seat_token: String,
    /// Both seats' tokens in a same-device room (`None` otherwise).
    seat_tokens: Option<ByColor<String>>,
    invite_url: Option<String>,
    spectate_url: String,
}

fn clock_config(clock: Option<ClockRequest>) -> Result<Option<ClockConfig>, ApiError> {
    let Some(c) = clock else { return Ok(None) };
    if !(c.minutes.is_finite() && (0.25..=180.0).contains(&c.minutes)) {
        return Err(ApiError::BadRequest(format!(
            "clock minutes must be 0.25 to 180, got {}",
            c.minutes
        )));
    }
    if c.increment > 60 {
        return Err(ApiError::BadRequest(format!(
            "clock increment must be 0 to 60 seconds, got {}",
            c.increment
        )));
    }
    // In range by the check above: at most 10,800,000 ms.
    #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
    let initial = (c.minutes * 60_000.0).round() as u64;
    Ok(Some(ClockConfig {
        initial,
        increment: u64::from(c.increment) * 1_000,
    }))
}

/// The request's checks beyond its JSON shape: the clock's ranges, the
/// combinations `local` forbids, and a start position that is legal and
/// not already over. Returns the clock.
fn check_request(req: &CreateRequest) -> Result<Option<ClockConfig>, ApiError> {
    let clock = clock_config(req.clock)?;
    if req.local && (req.ai_level.is_some() || req.public) {
        return Err(ApiError::BadRequest(
            "a same-device room (local) cannot have ai_level or be public".to_owned(),
        ));
    }
    if let Some(fen) = req.fen.as_deref() {
        let game =
            AnyGame::new(req.variant, Some(fen)).map_err(|e| ApiError::BadFen(e.to_string()))?;
        if let Some(o) = game.outcome() {
            return Err(ApiError::BadFen(format!(
                "the position is already over ({})",
                o.reason
            )));
        }
    }
    Ok(clock)
}

async fn create(
    State(app): State<AppState>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    body: Result<Json<CreateRequest>, JsonRejection>,
) -> Result<Response, ApiError> {
    let Json(req) = body?;
    let clock = check_request(&req)?;
    room_limit(&app, peer).await?;
    // In a same-device room `color` and `seat_token` are White's.
    let color = match req.color {
        _ if req.local => Color::White,
        ColorChoice::White => Color::White,
        ColorChoice::Black => Color::Black,
        ColorChoice::Random => {
            if rand::rng().random::<bool>() {
                Color::White
            } else {
                Color::Black
            }
        }
    };
    let seat_token = new_token();
    let mut seats = ByColor::<SeatRecord>::default();
    seats.get_mut(color).token_hash = Some(hash_token(&seat_token));
    let other_token = req.local.then(new_token);
    let (invite, state, public) = match req.ai_level {
        None if req.local => {
            seats.get_mut(!color).token_hash = other_token.as_deref().map(hash_token);
            (None, RoomState::Playing, false)
        }
        Some(level) => {
            seats.get_mut(!color).ai_level = Some(level.number());
            (None, RoomState::Playing, false)
        }
        None => (Some(new_token()), RoomState::Waiting, req.public),
    };
    let mut record = RoomRecord {
        id: new_room_id(),
        variant: req.variant,
        start_fen: req.fen,
        clock,
        public,
        invite_hash: invite.as_deref().map(hash_token),
        lobby_invite: invite.clone().filter(|_| public),
        seats,
        state,
        result: None,
        v: 0,
        offers: String::new(),
        rematch_id: None,
        created_at: unix_ms(),
        moves: Vec::new(),
    };
    // A new id on the (unlikely) collision with an existing room.
    let mut attempt = 0;
    loop {
        match app
            .0
            .store
            .write(vec![WriteOp::CreateRoom(Box::new(record.clone()))])
            .await
        {
            Ok(()) => break,
            Err(e) if e.is_duplicate_key() && attempt < 3 => {
                tracing::warn!(error = %e, "room id taken; drawing another");
                attempt += 1;
                record.id = new_room_id();
            }
            Err(e) => return Err(e.into()),
        }
    }
    let id = record.id.clone();
    if app.0.cluster.is_some() {
        // Taken here before the creator hears of it, so the first
        // connection finds it held.
        Registry::get(&app.0, &id)
            .await
            .map_err(|e| ApiError::Internal(e.to_string()))?;
    } else {
        Registry::adopt(&app.0, record).map_err(|e| ApiError::Internal(e.to_string()))?;
    }
    let seat_tokens = other_token.map(|other| {
        let mut tokens = ByColor::new(seat_token.clone(), seat_token.clone());
        *tokens.get_mut(!color) = other;
        tokens
    });
    let body = CreateResponse {
        seat_tokens,
        invite_url: invite.map(|i| format!("/r/{id}?invite={i}")),
        spectate_url: format!("/r/{id}"),
        id,
        color,
        seat_token,
    };
    Ok((StatusCode::CREATED, Json(body)).into_response())
}

/// The room-creation limit of `peer`'s address: in this process on a
/// single node, in the shared database in a cluster (so a burst through
/// several nodes meets one bucket).
async fn room_limit(app: &AppState, peer: SocketAddr) -> Result<(), ApiError> {
    let per_minute = app.0.config.room_rate_per_minute;
    let waited = if app.0.cluster.is_some() && per_minute > 0 {
        app.0
            .store
            .take_room_token(&peer.ip().to_string(), per_minute)
            .await?
            .map_err(|wait| wait.as_secs() + u64::from(wait.subsec_nanos() > 0))
    } else {
        app.0.room_limit.check(peer.ip()).map_err(|w| w.as_secs())
    };
    waited.map_err(|secs| ApiError::RateLimited(secs.max(1)))
}

async fn room(app: &AppState, id: &str) -> Result<RoomHandle, ApiError> {
    if !is_room_id(id) {
        return Err(ApiError::NotFound);
    }
    match Registry::get(&app.0, id).await {
        Ok(Some(handle)) => Ok(handle),
        Ok(None) => Err(ApiError::NotFound),
        Err(RoomLoadError::Store(e)) => Err(e.into()),
        Err(e) => Err(ApiError::Internal(e.to_string())),
    }
}

async fn summary(
    State(app): State<AppState>,
    Path(id): Path<String>,
) -> Result<Response, ApiError> {
    if app.0.cluster.is_some() {
        if !is_room_id(&id) {
            return Err(ApiError::NotFound);
        }
        // Never takes the room over: `node` is null while nobody holds it.
        return match crate::cluster::summary(&app.0, &id).await? {
            None => Err(ApiError::NotFound),
            Some(json) => Ok(Json(json).into_response()),
        };
    }
    local_summary(&app, &id)
        .await
        .map(|s| Json(s).into_response())
}

async fn local_summary(app: &AppState, id: &str) -> Result<RoomSummary, ApiError> {
    let app = app.clone();
    let id = id.to_owned();
    let handle = room(&app, &id).await?;
    // A room retiring at this instant: load it afresh once.
    match handle.summary().await {
        Ok(s) => Ok(s),
        Err(_) => room(&app, &id)
            .await?
            .summary()
            .await
            .map_err(|e| ApiError::Internal(e.to_string())),
    }
}

async fn export(
    State(app): State<AppState>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    let config = &app.0.config;
    let host = headers.get(header::HOST).and_then(|h| h.to_str().ok());
    let site = site_base(config.public_url.as_ref(), host, &config.addr.to_string());
    let handle = match &app.0.cluster {
        None => room(&app, &id).await?,
        Some(cluster) => {
            if !is_room_id(&id) {
                return Err(ApiError::NotFound);
            }
            let ask = |node: String| {
                let (id, site) = (&id, site.clone());
                async move { relay::export(cluster, &node, id, site).await }
            };
            match find(&app.0, &id, ask).await? {
                None => return Err(ApiError::NotFound),
                Some(Found::There(text)) => return Ok(export_response(&id, text)),
                Some(Found::Here(handle)) => handle,
            }
        }
    };
    let text = match handle.export(site.clone()).await {
        Ok(t) => t,
        Err(_) => room(&app, &id)
            .await?
            .export(site)
            .await
            .map_err(|e| ApiError::Internal(e.to_string()))?,
    };
    Ok(export_response(&id, text))
}

fn export_response(id: &str, text: String) -> Response {
    let disposition = format!("attachment; filename=\"chessplayx-{id}.pgn\"");
    (
        [
            (header::CONTENT_TYPE, "text/plain; charset=utf-8".to_owned()),
            (header::CONTENT_DISPOSITION, disposition),
        ],
        text,
    )
        .into_response()
}
