//! `GET /api/tournaments/{id}/desk`: the directors' desk (issue 20 §2).

use axum::extract::State;

use super::auth::AuthUser;
use super::error::ApiResult;
use super::extract::{Json, Path};
use crate::domain::tournaments::{self, DeskView};
use crate::domain::Domain;

#[utoipa::path(
    get,
    path = "/api/tournaments/{id}/desk",
    tag = "tournaments",
    params(("id" = i64, Path, description = "Tournament id")),
    security(("bearer" = []), ("session" = [])),
    responses((status = 200, description = "the directors' desk", body = DeskView))
)]
/// The directors' desk: games overdue or within a day of their deadline, draw offers
/// waiting for an answer, every result decision with its audit trail, the withdrawals
/// (the tournament's directors).
pub async fn desk(
    State(domain): State<Domain>,
    AuthUser(me): AuthUser,
    Path(id): Path<i64>,
) -> ApiResult<Json<DeskView>> {
    Ok(Json(tournaments::desk(&domain, &me, id).await?))
}
