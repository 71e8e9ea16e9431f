//! `/api/games/{id}/conditional-moves`: the caller's conditional lines of a game (#17 §3):
//! list, enter, delete. Private to their owner; the reply itself is played by the one
//! move submission (`domain::games::submit_move`).

use axum::extract::State;
use axum::http::StatusCode;
use serde::Deserialize;

use super::auth::AuthUser;
use super::error::ApiResult;
use super::extract::{Json, Path, Query};
use crate::domain::games::{self, ConditionalLine, LineNext};
use crate::domain::Domain;

/// A new conditional line.
#[derive(Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub struct LineRequest {
    /// The moves in any notation of the variant (a Flickering series with commas), the
    /// opponent's first, then alternating: `["h9g7", "h2e2"]` reads "if the opponent
    /// plays h9g7, I reply h2e2"; more pairs continue the line.
    moves: Vec<String>,
    /// The ply the client believes the game is at (optional: when given, a game that
    /// moved on refuses the line with 409 `move.stale-ply`).
    #[serde(default)]
    ply: Option<i32>,
}

#[utoipa::path(
    get,
    path = "/api/games/{id}/conditional-moves",
    operation_id = "list_conditional_moves",
    tag = "games",
    params(("id" = i64, Path, description = "Game id")),
    security(("bearer" = []), ("session" = [])),
    responses(
        (status = 200, description = "the caller's lines for the current position", body = Vec<ConditionalLine>),
        (status = 403, description = "not a player of the game")
    )
)]
/// The caller's conditional lines in the game (empty once it is over).
#[tracing::instrument(skip_all, fields(game.id = id))]
pub async fn list(
    State(domain): State<Domain>,
    AuthUser(me): AuthUser,
    Path(id): Path<i64>,
) -> ApiResult<Json<Vec<ConditionalLine>>> {
    Ok(Json(games::list_lines(&domain, id, me.id).await?))
}

#[utoipa::path(
    post,
    path = "/api/games/{id}/conditional-moves",
    operation_id = "create_conditional_moves",
    tag = "games",
    params(("id" = i64, Path, description = "Game id")),
    request_body = LineRequest,
    security(("bearer" = []), ("session" = [])),
    responses(
        (status = 201, description = "the line, validated and stored", body = ConditionalLine),
        (status = 403, description = "not a player of the game"),
        (status = 409, description = "game over, stale ply, your move, or a line answering a move differently"),
        (status = 422, description = "a move the rules refuse, or a reply that would end the game but by your win")
    )
)]
/// Enters a conditional line for the current position, while the opponent is to move.
#[tracing::instrument(skip_all, fields(game.id = id))]
pub async fn create(
    State(domain): State<Domain>,
    AuthUser(me): AuthUser,
    Path(id): Path<i64>,
    Json(body): Json<LineRequest>,
) -> ApiResult<(StatusCode, Json<ConditionalLine>)> {
    let line = games::create_line(&domain, id, me.id, &body.moves, body.ply).await?;
    Ok((StatusCode::CREATED, Json(line)))
}

#[utoipa::path(
    delete,
    path = "/api/games/{id}/conditional-moves",
    tag = "games",
    params(("id" = i64, Path, description = "Game id")),
    security(("bearer" = []), ("session" = [])),
    responses((status = 204, description = "every line of the caller's deleted"), (status = 403, description = "not a player of the game"))
)]
/// Deletes all the caller's conditional lines in the game.
#[tracing::instrument(skip_all, fields(game.id = id))]
pub async fn delete_all(
    State(domain): State<Domain>,
    AuthUser(me): AuthUser,
    Path(id): Path<i64>,
) -> ApiResult<StatusCode> {
    games::delete_lines(&domain, id, me.id, None).await?;
    Ok(StatusCode::NO_CONTENT)
}

#[utoipa::path(
    delete,
    path = "/api/games/{id}/conditional-moves/{line}",
    tag = "games",
    params(("id" = i64, Path, description = "Game id"), ("line" = i64, Path, description = "Line id")),
    security(("bearer" = []), ("session" = [])),
    responses((status = 204, description = "deleted"), (status = 404, description = "not a line of the caller's"))
)]
/// Deletes one of the caller's conditional lines.
#[tracing::instrument(skip_all, fields(game.id = id))]
pub async fn delete_one(
    State(domain): State<Domain>,
    AuthUser(me): AuthUser,
    Path((id, line)): Path<(i64, i64)>,
) -> ApiResult<StatusCode> {
    games::delete_lines(&domain, id, me.id, Some(line)).await?;
    Ok(StatusCode::NO_CONTENT)
}

/// A line being entered.
#[derive(Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
pub struct NextQuery {
    /// The moves so far in any notation of the variant, separated by spaces (empty: the
    /// opponent's possible moves now).
    #[serde(default)]
    line: String,
}

#[utoipa::path(
    get,
    path = "/api/games/{id}/conditional-moves/next",
    tag = "games",
    params(("id" = i64, Path, description = "Game id"), NextQuery),
    security(("bearer" = []), ("session" = [])),
    responses(
        (status = 200, description = "the legal next moves of the line", body = LineNext),
        (status = 409, description = "game over, or the caller is to move"),
        (status = 422, description = "a move of the line the rules refuse")
    )
)]
/// The legal next moves of a conditional line being entered (click-to-enter on the board).
#[tracing::instrument(skip_all, fields(game.id = id))]
pub async fn next(
    State(domain): State<Domain>,
    AuthUser(me): AuthUser,
    Path(id): Path<i64>,
    Query(query): Query<NextQuery>,
) -> ApiResult<Json<LineNext>> {
    let prefix: Vec<String> = query.line.split_whitespace().map(str::to_owned).collect();
    Ok(Json(games::line_continuations(&domain, id, me.id, &prefix).await?))
}
