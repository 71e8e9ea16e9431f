//! `/api/games/{id}/analysis`: a finished game's computer analysis (issue 41).

use axum::extract::State;
use axum::http::StatusCode;

use super::auth::AuthUser;
use super::error::ApiResult;
use super::extract::{Json, Path};
use super::AppState;
use crate::analysis::{self, AnalysisView};

#[utoipa::path(
    post,
    path = "/api/games/{id}/analysis",
    operation_id = "request_analysis",
    tag = "games",
    params(("id" = i64, Path, description = "Game id")),
    security(("bearer" = []), ("session" = [])),
    responses(
        (status = 202, description = "queued (a game requested already: its state, nothing changes)", body = AnalysisView),
        (status = 404, description = "no such game"),
        (status = 409, description = "the game is still being played (`analysis.game-active`): no engine help during a game"),
        (status = 422, description = "the engine cannot play the game's variant (`analysis.unsupported-variant`)"),
        (status = 429, description = "the account's analyses of the last 24 hours are used up (`analysis.daily-limit`); `Retry-After` says when there is room"),
        (status = 503, description = "no engine is installed on this server (`analysis.unavailable`)")
    )
)]
/// Asks for the computer analysis of a finished game → 202 with its state. The workers
/// analyse the queued games one at a time with Fairy-Stockfish; the result is stored once
/// and read with `GET`.
#[tracing::instrument(skip_all, fields(game.id = id))]
pub async fn request(
    State(state): State<AppState>,
    AuthUser(me): AuthUser,
    Path(id): Path<i64>,
) -> ApiResult<(StatusCode, Json<AnalysisView>)> {
    let view = analysis::request(&state.domain, state.analysis.as_ref(), id, me.id).await?;
    Ok((StatusCode::ACCEPTED, Json(view)))
}

#[utoipa::path(
    get,
    path = "/api/games/{id}/analysis",
    operation_id = "show_analysis",
    tag = "games",
    params(("id" = i64, Path, description = "Game id")),
    responses(
        (status = 200, description = "the analysis: its status, and once done every ply's score (from the first player's point of view), the engine's best move and the judgement", body = AnalysisView),
        (status = 404, description = "no analysis of this game was requested (`analysis.not-requested`)")
    )
)]
/// A game's computer analysis (anyone may look).
#[tracing::instrument(skip_all, fields(game.id = id))]
pub async fn show(State(state): State<AppState>, Path(id): Path<i64>) -> ApiResult<Json<AnalysisView>> {
    Ok(Json(analysis::show(&state.domain, id).await?))
}
