//! `/api/challenges`: create, list, show, accept, decline, cancel.

use axum::extract::{RawQuery, State};
use axum::http::StatusCode;
use axum::response::Response;
use serde::{Deserialize, Serialize};

use super::auth::{AuthUser, MaybeAuthUser};
use super::error::ApiResult;
use super::extract::{Json, Path, Query};
use crate::domain::challenges::{self, ChallengeQuery, ChallengeView, NewChallenge};
use crate::domain::{Domain, DomainError};

#[utoipa::path(
    post,
    path = "/api/challenges",
    operation_id = "create_challenge",
    tag = "challenges",
    request_body = NewChallenge,
    security(("bearer" = []), ("session" = [])),
    responses((status = 201, description = "created", body = ChallengeView))
)]
/// Creates a challenge.
#[tracing::instrument(skip_all)]
pub async fn create(
    State(domain): State<Domain>,
    AuthUser(me): AuthUser,
    Json(body): Json<ChallengeRequest>,
) -> ApiResult<(StatusCode, Json<ChallengeView>)> {
    let challenge = body.into_new_challenge()?;
    Ok((StatusCode::CREATED, Json(challenges::create(&domain, me.id, challenge).await?)))
}

/// A new challenge as sent: [`NewChallenge`], whose number of seats may also be given as
/// `seat_count`, the name the challenge's view answers with (a client sending that name
/// back must not see it ignored: the variant judges it like `seats`).
#[derive(Deserialize)]
pub struct ChallengeRequest {
    #[serde(flatten)]
    challenge: NewChallenge,
    seat_count: Option<i32>,
}

impl ChallengeRequest {
    fn into_new_challenge(self) -> Result<NewChallenge, DomainError> {
        let mut challenge = self.challenge;
        match (challenge.seats, self.seat_count) {
            (Some(seats), Some(seat_count)) if seats != seat_count => {
                return Err(DomainError::Invalid(format!(
                    "seats ({seats}) and seat_count ({seat_count}) differ: give one of them"
                )));
            }
            (None, Some(seat_count)) => challenge.seats = Some(seat_count),
            _ => {}
        }
        Ok(challenge)
    }
}

#[utoipa::path(
    get,
    path = "/api/challenges",
    operation_id = "list_challenges",
    tag = "challenges",
    params(ChallengeQuery),
    security((), ("bearer" = []), ("session" = [])),
    responses((
        status = 200,
        description = "open challenges, newest first, a page at a time: those addressed to nobody, and \
                       for a signed-in player also those addressed to or made by them",
        body = Vec<ChallengeView>,
        headers(
            ("Link" = String, description = "`<...&cursor=...>; rel=\"next\"`: the next page, same filters"),
            ("X-Next-Cursor" = String, description = "the `cursor` of the next page (absent on the last)"),
        )
    ))
)]
/// Open challenges the caller may accept or has made (a visitor: the lobby's), filtered,
/// a page at a time.
pub async fn list(
    State(domain): State<Domain>,
    MaybeAuthUser(me): MaybeAuthUser,
    Query(query): Query<ChallengeQuery>,
    RawQuery(raw): RawQuery,
) -> ApiResult<Response> {
    let page = challenges::list_page(&domain, me.map(|me| me.id), &query).await?;
    super::paging::paged(page.items, "/api/challenges", raw.as_deref(), page.next)
}

#[utoipa::path(
    get,
    path = "/api/challenges/{id}",
    operation_id = "show_challenge",
    tag = "challenges",
    params(("id" = i64, Path, description = "Challenge id")),
    security((), ("bearer" = []), ("session" = [])),
    responses(
        (status = 200, description = "the challenge: an open one to anybody, one addressed to an opponent to its two parties only", body = ChallengeView),
        (status = 404, description = "no such challenge, or one addressed to others")
    )
)]
/// One challenge. A challenge addressed to an opponent is the business of its parties
/// (its two players, or every player seated in a game of more seats): to anybody else it does not exist (404, as for an unknown id, so that its
/// existence is not revealed either).
pub async fn show(
    State(domain): State<Domain>,
    MaybeAuthUser(me): MaybeAuthUser,
    Path(id): Path<i64>,
) -> ApiResult<Json<ChallengeView>> {
    let challenge = challenges::get(&domain, id).await?;
    if let Some(opponent) = &challenge.opponent {
        // The parties: the challenger, the opponent, and whoever took a seat of a game of
        // more seats (the last to accept is stored as its opponent).
        let party =
            me.is_some_and(|me| me.username == *opponent || challenge.entrants.contains(&me.username));
        if !party {
            return Err(DomainError::NotFound(format!("no challenge {id}")).into());
        }
    }
    Ok(Json(challenge))
}

/// What accepting a challenge did: the game it started, or (games of more than two seats)
/// the seat taken while others are still open.
#[derive(Serialize, utoipa::ToSchema)]
pub struct Accepted {
    /// The new game, once every seat is taken.
    game_id: Option<i64>,
    /// Seats taken, the challenger's included.
    seats_taken: i32,
    /// Seats in all.
    seat_count: i32,
}

#[utoipa::path(
    post,
    path = "/api/challenges/{id}/accept",
    tag = "challenges",
    params(("id" = i64, Path, description = "Challenge id")),
    security(("bearer" = []), ("session" = [])),
    responses(
        (status = 201, description = "the game created", body = Accepted),
        (status = 200, description = "a seat taken; the game starts when every seat is", body = Accepted)
    )
)]
/// Accepts a challenge (takes a seat) → the new game's id when the last seat is taken.
#[tracing::instrument(skip_all, fields(challenge.id = id))]
pub async fn accept(
    State(domain): State<Domain>,
    AuthUser(me): AuthUser,
    Path(id): Path<i64>,
) -> ApiResult<(StatusCode, Json<Accepted>)> {
    Ok(match challenges::accept(&domain, id, me.id).await? {
        challenges::Accepted::Game { game_id, seat_count } => (
            StatusCode::CREATED,
            Json(Accepted { game_id: Some(game_id), seats_taken: seat_count, seat_count }),
        ),
        challenges::Accepted::Seated { taken, seat_count } => {
            (StatusCode::OK, Json(Accepted { game_id: None, seats_taken: taken, seat_count }))
        }
    })
}

#[utoipa::path(
    post,
    path = "/api/challenges/{id}/decline",
    tag = "challenges",
    params(("id" = i64, Path, description = "Challenge id")),
    security(("bearer" = []), ("session" = [])),
    responses((status = 200, description = "the challenge", body = ChallengeView))
)]
/// Declines a challenge addressed to the caller.
pub async fn decline(
    State(domain): State<Domain>,
    AuthUser(me): AuthUser,
    Path(id): Path<i64>,
) -> ApiResult<Json<ChallengeView>> {
    Ok(Json(challenges::decline(&domain, id, me.id).await?))
}

#[utoipa::path(
    post,
    path = "/api/challenges/{id}/leave",
    tag = "challenges",
    params(("id" = i64, Path, description = "Challenge id")),
    security(("bearer" = []), ("session" = [])),
    responses((status = 200, description = "the challenge, without the caller's seat", body = ChallengeView))
)]
/// Gives up the caller's seat in an open challenge of more than two seats.
pub async fn leave(
    State(domain): State<Domain>,
    AuthUser(me): AuthUser,
    Path(id): Path<i64>,
) -> ApiResult<Json<ChallengeView>> {
    Ok(Json(challenges::leave(&domain, id, me.id).await?))
}

#[utoipa::path(
    post,
    path = "/api/challenges/{id}/cancel",
    tag = "challenges",
    params(("id" = i64, Path, description = "Challenge id")),
    security(("bearer" = []), ("session" = [])),
    responses((status = 200, description = "the challenge", body = ChallengeView))
)]
/// Cancels the caller's challenge.
pub async fn cancel(
    State(domain): State<Domain>,
    AuthUser(me): AuthUser,
    Path(id): Path<i64>,
) -> ApiResult<Json<ChallengeView>> {
    Ok(Json(challenges::cancel(&domain, id, me.id).await?))
}
