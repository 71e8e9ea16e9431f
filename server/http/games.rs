//! `/api/games`: show, list, moves (and dry runs), resign, draw offers, abort.

use axum::extract::State;
use axum::http::StatusCode;
use serde::Deserialize;

use super::auth::{AuthUser, MaybeAuthUser};
use super::error::ApiResult;
use super::extract::{Json, Path, Query};
use crate::domain::games::{self, GameSummary, GameView, MoveCheck};
use crate::domain::{Domain, DomainError};

/// The game's full state.
#[tracing::instrument(skip_all, fields(game.id = id))]
pub async fn show(State(domain): State<Domain>, Path(id): Path<i64>) -> ApiResult<Json<GameView>> {
    Ok(Json(games::view(&domain, id).await?))
}

/// Filters of the game list.
#[derive(Deserialize)]
pub struct ListQuery {
    player: Option<String>,
    status: Option<String>,
}

/// A player's games (default: the caller's), their turn first.
pub async fn list(
    State(domain): State<Domain>,
    MaybeAuthUser(me): MaybeAuthUser,
    Query(query): Query<ListQuery>,
) -> ApiResult<Json<Vec<GameSummary>>> {
    let player = match (query.player, me) {
        (Some(player), _) => player,
        (None, Some(me)) => me.username,
        (None, None) => {
            return Err(DomainError::Invalid("name a player: ?player=<username>".to_owned()).into())
        }
    };
    Ok(Json(games::list_for_player(&domain, &player, query.status.as_deref()).await?))
}

/// A move submission.
#[derive(Deserialize)]
pub struct MoveRequest {
    /// The move in any supported notation.
    #[serde(rename = "move")]
    text: String,
    /// The ply the client believes the game is at (number of moves played).
    ply: i32,
}

/// Plays a move → 201 with the new state.
#[tracing::instrument(skip_all, fields(game.id = id))]
pub async fn submit_move(
    State(domain): State<Domain>,
    AuthUser(me): AuthUser,
    Path(id): Path<i64>,
    Json(body): Json<MoveRequest>,
) -> ApiResult<(StatusCode, Json<GameView>)> {
    let view = games::submit_move(&domain, id, me.id, &body.text, body.ply).await?;
    Ok((StatusCode::CREATED, Json(view)))
}

/// A dry-run request.
#[derive(Deserialize)]
pub struct CheckRequest {
    #[serde(rename = "move")]
    text: String,
}

/// What a move would do, without playing it.
#[tracing::instrument(skip_all, fields(game.id = id))]
pub async fn check_move(
    State(domain): State<Domain>,
    AuthUser(me): AuthUser,
    Path(id): Path<i64>,
    Json(body): Json<CheckRequest>,
) -> ApiResult<Json<MoveCheck>> {
    Ok(Json(games::check_move(&domain, id, me.id, &body.text).await?))
}

/// Resigns.
#[tracing::instrument(skip_all, fields(game.id = id))]
pub async fn resign(
    State(domain): State<Domain>,
    AuthUser(me): AuthUser,
    Path(id): Path<i64>,
) -> ApiResult<Json<GameView>> {
    Ok(Json(games::resign(&domain, id, me.id).await?))
}

/// Offers a draw.
#[tracing::instrument(skip_all, fields(game.id = id))]
pub async fn offer_draw(
    State(domain): State<Domain>,
    AuthUser(me): AuthUser,
    Path(id): Path<i64>,
) -> ApiResult<Json<GameView>> {
    Ok(Json(games::offer_draw(&domain, id, me.id).await?))
}

/// Accepts the opponent's draw offer.
#[tracing::instrument(skip_all, fields(game.id = id))]
pub async fn accept_draw(
    State(domain): State<Domain>,
    AuthUser(me): AuthUser,
    Path(id): Path<i64>,
) -> ApiResult<Json<GameView>> {
    Ok(Json(games::accept_draw(&domain, id, me.id).await?))
}

/// Declines the opponent's draw offer.
#[tracing::instrument(skip_all, fields(game.id = id))]
pub async fn decline_draw(
    State(domain): State<Domain>,
    AuthUser(me): AuthUser,
    Path(id): Path<i64>,
) -> ApiResult<Json<GameView>> {
    Ok(Json(games::decline_draw(&domain, id, me.id).await?))
}

/// Aborts a game before every side has moved.
#[tracing::instrument(skip_all, fields(game.id = id))]
pub async fn abort(
    State(domain): State<Domain>,
    AuthUser(me): AuthUser,
    Path(id): Path<i64>,
) -> ApiResult<Json<GameView>> {
    Ok(Json(games::abort(&domain, id, me.id).await?))
}

/// Makes the claim the rules allow (Shogi impasse declaration).
#[tracing::instrument(skip_all, fields(game.id = id))]
pub async fn claim(
    State(domain): State<Domain>,
    AuthUser(me): AuthUser,
    Path(id): Path<i64>,
) -> ApiResult<Json<GameView>> {
    Ok(Json(games::claim(&domain, id, me.id).await?))
}
