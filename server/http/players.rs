//! `/api/players` and `/api/leaderboards`: the list of players, public profiles, rating histories and the
//! leaderboards (issue 18 §1, §3). Anyone may read them.

use axum::extract::{RawQuery, State};
use axum::response::Response;
use serde::Deserialize;

use super::error::ApiResult;
use super::extract::{Json, Path, Query};
use crate::domain::players::{self, HistoryPoint, Leaderboard, PlayerQuery, PlayerSummary, Profile};
use crate::domain::ratings::Pool;
use crate::domain::Domain;

#[utoipa::path(
    get,
    path = "/api/players",
    operation_id = "list_players",
    tag = "players",
    params(PlayerQuery),
    security((), ("bearer" = []), ("session" = [])),
    responses((
        status = 200,
        description = "the players, newest members first, a page at a time",
        body = Vec<PlayerSummary>,
        headers(
            ("Link" = String, description = "`<...&cursor=...>; rel=\"next\"`: the next page, same filters"),
            ("X-Next-Cursor" = String, description = "the `cursor` of the next page (absent on the last)"),
        )
    ))
)]
/// The players, filtered by name and rating, a page at a time.
pub async fn list(
    State(domain): State<Domain>,
    Query(query): Query<PlayerQuery>,
    RawQuery(raw): RawQuery,
) -> ApiResult<Response> {
    let page = players::list(&domain, &query).await?;
    super::paging::paged(page.items, "/api/players", raw.as_deref(), page.next)
}

#[utoipa::path(
    get,
    path = "/api/players/{username}",
    operation_id = "show_player",
    tag = "players",
    params(("username" = String, Path, description = "The player's name")),
    security((), ("bearer" = []), ("session" = [])),
    responses((status = 200, description = "the player's profile", body = Profile))
)]
/// A player's public profile: ratings per variant and pool, results, games, tournaments.
pub async fn show(State(domain): State<Domain>, Path(username): Path<String>) -> ApiResult<Json<Profile>> {
    Ok(Json(players::profile(&domain, &username).await?))
}

#[utoipa::path(
    get,
    path = "/api/players/{username}/ratings/{variant}/{pool}",
    tag = "players",
    params(
        ("username" = String, Path, description = "The player's name"),
        ("variant" = inline(super::openapi::RatedVariantName), Path, description = "xiangqi, shogi, minishogi or flickering"),
        ("pool" = Pool, Path, description = "correspondence or live"),
    ),
    security((), ("bearer" = []), ("session" = [])),
    responses((status = 200, description = "the rating after each rated game, oldest first", body = Vec<HistoryPoint>))
)]
/// A player's rating history in one variant and pool.
pub async fn history(
    State(domain): State<Domain>,
    Path((username, variant, pool)): Path<(String, String, String)>,
) -> ApiResult<Json<Vec<HistoryPoint>>> {
    let pool: Pool = pool.parse()?;
    Ok(Json(players::rating_history(&domain, &username, &variant, pool).await?))
}

/// How many lines of a leaderboard.
#[derive(Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
pub struct LeaderboardQuery {
    /// At most this many players (default 100, at most 200).
    limit: Option<usize>,
}

#[utoipa::path(
    get,
    path = "/api/leaderboards/{variant}/{pool}",
    tag = "players",
    params(
        ("variant" = inline(super::openapi::RatedVariantName), Path, description = "xiangqi, shogi, minishogi or flickering"),
        ("pool" = Pool, Path, description = "correspondence or live"),
        LeaderboardQuery,
    ),
    security((), ("bearer" = []), ("session" = [])),
    responses((status = 200, description = "the active players with a settled rating, best first", body = Leaderboard))
)]
/// The leaderboard of a variant and pool: players with a rated game in the configured
/// number of days whose rating is not provisional.
pub async fn leaderboard(
    State(domain): State<Domain>,
    Path((variant, pool)): Path<(String, String)>,
    Query(query): Query<LeaderboardQuery>,
) -> ApiResult<Json<Leaderboard>> {
    let pool: Pool = pool.parse()?;
    Ok(Json(players::leaderboard(&domain, &variant, pool, query.limit.unwrap_or(100)).await?))
}
