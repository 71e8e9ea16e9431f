//! `/api/games`: show, list, moves (and dry runs), resign, draw offers, abort.

use axum::extract::{RawQuery, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use serde::Deserialize;

use super::auth::{AuthUser, MaybeAuthUser};
use super::error::ApiResult;
use super::extract::{GameJson, Json, Path, Query};
use crate::domain::archive::{self, ArchiveQuery};
use crate::domain::games::{self, GameStatus, GameSummary, GameView, MoveCheck, Rematch, SeriesOptions};
use crate::domain::{preferences, Domain, DomainError};

#[utoipa::path(
    get,
    path = "/api/games/{id}",
    operation_id = "show_game",
    tag = "games",
    params(("id" = i64, Path, description = "Game id"), ShowQuery),
    responses((status = 200, description = "the game", body = GameView))
)]
/// The game's full state, its moves' `display` in the reader's notation: `?notation=`,
/// else the signed-in reader's preference for the game's family, else the variant's own
/// (WXF, western).
#[tracing::instrument(skip_all, fields(game.id = id))]
pub async fn show(
    State(domain): State<Domain>,
    MaybeAuthUser(me): MaybeAuthUser,
    Path(id): Path<i64>,
    Query(query): Query<ShowQuery>,
) -> ApiResult<GameJson> {
    let mut view = games::view(&domain, id).await?;
    let variant = crate::domain::rules_adapter::parse_variant(&view.variant)?;
    let notation = match (&query.notation, &me) {
        (Some(name), _) => Some(preferences::notation_named(variant, name)?),
        (None, Some(me)) => Some(preferences::of_account(&domain.pool, me.id).await?.notation_for(variant)),
        (None, None) => None,
    };
    if let Some(notation) = notation {
        preferences::show_in(&mut view, notation)?;
    }
    Ok(GameJson(view))
}

/// The notation of a game's view.
#[derive(Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
pub struct ShowQuery {
    /// `wxf`, `iccs`, `fix` or `chinese` (Xiangqi); `western`, `usi` or `aise` (Shogi,
    /// MiniShogi); default: the reader's preference.
    notation: Option<String>,
}

/// A game's status as the list filters it (schema only).
#[derive(utoipa::ToSchema)]
#[schema(rename_all = "lowercase")]
pub enum GameStatusName {
    /// Being played.
    Active,
    /// Ended with a result.
    Finished,
    /// Stopped without one.
    Aborted,
}

/// The status filter of the game list.
#[derive(Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
pub struct ListQuery {
    /// Only games with this status (`active`, `finished`, `aborted`).
    #[param(value_type = Option<GameStatusName>, inline)]
    status: Option<String>,
}

#[utoipa::path(
    get,
    path = "/api/games",
    operation_id = "list_games",
    tag = "games",
    params(ListQuery, ArchiveQuery),
    security((), ("bearer" = []), ("session" = [])),
    responses((
        status = 200,
        description = "the games: a player's games, their turn first; with `status=finished` or any \
                       filter of the archive (opponent, variant, result, reason, from, to, tournament, \
                       rated, cursor, limit) the archive's finished games, newest first, a page at a \
                       time",
        body = Vec<GameSummary>,
        headers(
            ("Link" = String, description = "`<...&cursor=...>; rel=\"next\"`: the next page of an archive search"),
            ("X-Next-Cursor" = String, description = "the `cursor` of the next page of an archive search"),
        )
    ))
)]
/// A player's games (default: the caller's), their turn first; or a page of the archive
/// of finished games (every game when neither a player is named nor anyone signed in).
pub async fn list(
    State(domain): State<Domain>,
    MaybeAuthUser(me): MaybeAuthUser,
    Query(query): Query<ListQuery>,
    Query(mut search): Query<ArchiveQuery>,
    RawQuery(raw): RawQuery,
) -> ApiResult<Response> {
    let status = match query.status.as_deref().map(str::parse::<GameStatus>) {
        None => None,
        Some(Ok(status)) => Some(status),
        Some(Err(_)) => {
            let known = "known: active, finished, aborted";
            let s = query.status.unwrap_or_default();
            return Err(DomainError::Invalid(format!("unknown status {s:?} ({known})")).into());
        }
    };
    let named = search.player.as_deref().map(str::trim).filter(|p| !p.is_empty()).map(str::to_owned);
    let player = named.or_else(|| me.map(|me| me.username));
    if search.is_search() || status == Some(GameStatus::Finished) {
        if status.is_some_and(|s| s != GameStatus::Finished) {
            let detail = "the archive's filters search finished games: leave out status or ask for finished";
            return Err(DomainError::Invalid(detail.to_owned()).into());
        }
        search.player = player;
        let page = archive::search(&domain, &search).await?;
        return super::paging::paged(page.games, "/api/games", raw.as_deref(), page.next);
    }
    let Some(player) = player else {
        return Err(DomainError::Invalid("name a player: ?player=<username>".to_owned()).into());
    };
    Ok(Json(games::list_for_player(&domain, &player, status).await?).into_response())
}

/// A move submission.
#[derive(Deserialize, utoipa::ToSchema)]
pub struct MoveRequest {
    /// The move in any supported notation.
    #[serde(rename = "move")]
    text: String,
    /// The ply the client believes the game is at (number of moves played).
    ply: i32,
}

#[utoipa::path(
    post,
    path = "/api/games/{id}/moves",
    tag = "games",
    params(("id" = i64, Path, description = "Game id")),
    request_body = MoveRequest,
    security(("bearer" = []), ("session" = [])),
    responses((status = 201, description = "the game", body = GameView))
)]
/// Plays a move → 201 with the new state.
#[tracing::instrument(skip_all, fields(game.id = id))]
pub async fn submit_move(
    State(domain): State<Domain>,
    AuthUser(me): AuthUser,
    Path(id): Path<i64>,
    Json(body): Json<MoveRequest>,
) -> ApiResult<(StatusCode, GameJson)> {
    let view = games::submit_move(&domain, id, me.id, &body.text, body.ply).await?;
    Ok((StatusCode::CREATED, GameJson(view)))
}

/// A dry-run request.
#[derive(Deserialize, utoipa::ToSchema)]
pub struct CheckRequest {
    /// The move in any supported notation.
    #[serde(rename = "move")]
    text: String,
}

#[utoipa::path(
    post,
    path = "/api/games/{id}/moves/check",
    tag = "games",
    params(("id" = i64, Path, description = "Game id")),
    request_body = CheckRequest,
    security(("bearer" = []), ("session" = [])),
    responses((status = 200, description = "the game", body = MoveCheck))
)]
/// What a move would do, without playing it.
#[tracing::instrument(skip_all, fields(game.id = id))]
pub async fn check_move(
    State(domain): State<Domain>,
    AuthUser(me): AuthUser,
    Path(id): Path<i64>,
    Json(body): Json<CheckRequest>,
) -> ApiResult<Json<MoveCheck>> {
    Ok(Json(games::check_move(&domain, id, me.id, &body.text, None).await?))
}

#[utoipa::path(
    post,
    path = "/api/games/{id}/resign",
    tag = "games",
    params(("id" = i64, Path, description = "Game id")),
    security(("bearer" = []), ("session" = [])),
    responses((status = 200, description = "the game", body = GameView))
)]
/// Resigns.
#[tracing::instrument(skip_all, fields(game.id = id))]
pub async fn resign(
    State(domain): State<Domain>,
    AuthUser(me): AuthUser,
    Path(id): Path<i64>,
) -> ApiResult<GameJson> {
    Ok(GameJson(games::resign(&domain, id, me.id).await?))
}

#[utoipa::path(
    post,
    path = "/api/games/{id}/draw/offer",
    tag = "games",
    params(("id" = i64, Path, description = "Game id")),
    security(("bearer" = []), ("session" = [])),
    responses((status = 200, description = "the game", body = GameView))
)]
/// Offers a draw.
#[tracing::instrument(skip_all, fields(game.id = id))]
pub async fn offer_draw(
    State(domain): State<Domain>,
    AuthUser(me): AuthUser,
    Path(id): Path<i64>,
) -> ApiResult<GameJson> {
    Ok(GameJson(games::offer_draw(&domain, id, me.id).await?))
}

#[utoipa::path(
    post,
    path = "/api/games/{id}/draw/accept",
    tag = "games",
    params(("id" = i64, Path, description = "Game id")),
    security(("bearer" = []), ("session" = [])),
    responses((status = 200, description = "the game", body = GameView))
)]
/// Accepts the opponent's draw offer.
#[tracing::instrument(skip_all, fields(game.id = id))]
pub async fn accept_draw(
    State(domain): State<Domain>,
    AuthUser(me): AuthUser,
    Path(id): Path<i64>,
) -> ApiResult<GameJson> {
    Ok(GameJson(games::accept_draw(&domain, id, me.id).await?))
}

#[utoipa::path(
    post,
    path = "/api/games/{id}/draw/decline",
    tag = "games",
    params(("id" = i64, Path, description = "Game id")),
    security(("bearer" = []), ("session" = [])),
    responses((status = 200, description = "the game", body = GameView))
)]
/// Declines the opponent's draw offer.
#[tracing::instrument(skip_all, fields(game.id = id))]
pub async fn decline_draw(
    State(domain): State<Domain>,
    AuthUser(me): AuthUser,
    Path(id): Path<i64>,
) -> ApiResult<GameJson> {
    Ok(GameJson(games::decline_draw(&domain, id, me.id).await?))
}

#[utoipa::path(
    post,
    path = "/api/games/{id}/abort",
    tag = "games",
    params(("id" = i64, Path, description = "Game id")),
    security(("bearer" = []), ("session" = [])),
    responses((status = 200, description = "the game", body = GameView))
)]
/// Aborts a game before every side has moved.
#[tracing::instrument(skip_all, fields(game.id = id))]
pub async fn abort(
    State(domain): State<Domain>,
    AuthUser(me): AuthUser,
    Path(id): Path<i64>,
) -> ApiResult<GameJson> {
    Ok(GameJson(games::abort(&domain, id, me.id).await?))
}

#[utoipa::path(
    post,
    path = "/api/games/{id}/claim",
    tag = "games",
    params(("id" = i64, Path, description = "Game id")),
    security(("bearer" = []), ("session" = [])),
    responses((status = 200, description = "the game", body = GameView))
)]
/// Makes the claim the rules allow (Shogi impasse declaration).
#[tracing::instrument(skip_all, fields(game.id = id))]
pub async fn claim(
    State(domain): State<Domain>,
    AuthUser(me): AuthUser,
    Path(id): Path<i64>,
) -> ApiResult<GameJson> {
    Ok(GameJson(games::claim(&domain, id, me.id).await?))
}

#[utoipa::path(
    post,
    path = "/api/games/{id}/rematch",
    tag = "games",
    params(("id" = i64, Path, description = "Game id")),
    security(("bearer" = []), ("session" = [])),
    responses((status = 200, description = "the rematch offered, or started", body = Rematch))
)]
/// After a game of two players: offers the other player a rematch (the game's settings,
/// the colours swapped), or accepts theirs.
#[tracing::instrument(skip_all, fields(game.id = id))]
pub async fn rematch(
    State(domain): State<Domain>,
    AuthUser(me): AuthUser,
    Path(id): Path<i64>,
) -> ApiResult<Json<Rematch>> {
    Ok(Json(games::rematch(&domain, id, me.id).await?))
}

/// The series built so far.
#[derive(Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
pub struct SeriesQuery {
    /// The moves of the series so far, coordinates separated by commas (`e2e4,f1c4`);
    /// empty or absent for the first move.
    #[serde(default)]
    prefix: String,
}

#[utoipa::path(
    get,
    path = "/api/games/{id}/series",
    tag = "games",
    params(("id" = i64, Path, description = "Game id"), SeriesQuery),
    responses((status = 200, description = "the legal next moves of the series", body = SeriesOptions))
)]
/// Flickering chess: the legal next moves of a series being built, and whether it may end.
pub async fn series(
    State(domain): State<Domain>,
    Path(id): Path<i64>,
    Query(query): Query<SeriesQuery>,
) -> ApiResult<Json<SeriesOptions>> {
    Ok(Json(games::series_options(&domain, id, &query.prefix).await?))
}
