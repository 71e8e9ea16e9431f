//! `/api/vacation`: leave status, start, end.

use axum::extract::State;
use serde::Deserialize;

use super::auth::AuthUser;
use super::error::ApiResult;
use super::extract::Json;
use crate::domain::vacation::{self, VacationStatus};
use crate::domain::Domain;

#[utoipa::path(
    get,
    path = "/api/vacation",
    operation_id = "show_vacation",
    tag = "vacation",
    security(("bearer" = []), ("session" = [])),
    responses((status = 200, description = "the leave status", body = VacationStatus))
)]
/// The caller's leave.
pub async fn show(State(domain): State<Domain>, AuthUser(me): AuthUser) -> ApiResult<Json<VacationStatus>> {
    Ok(Json(vacation::status(&domain, me.id).await?))
}

/// A leave request.
#[derive(Deserialize, utoipa::ToSchema)]
pub struct StartLeave {
    /// Length of the leave in days: 1 to 366 (`MAX_LEAVE_DAYS`), and no more than the
    /// allowance left in each year it touches.
    #[schema(minimum = 1, maximum = 366)]
    days: u32,
}

#[utoipa::path(
    post,
    path = "/api/vacation",
    operation_id = "start_vacation",
    tag = "vacation",
    request_body = StartLeave,
    security(("bearer" = []), ("session" = [])),
    responses((status = 200, description = "the leave status", body = VacationStatus))
)]
/// Starts a leave now.
pub async fn start(
    State(domain): State<Domain>,
    AuthUser(me): AuthUser,
    Json(body): Json<StartLeave>,
) -> ApiResult<Json<VacationStatus>> {
    Ok(Json(vacation::start(&domain, me.id, body.days).await?))
}

#[utoipa::path(
    post,
    path = "/api/vacation/end",
    tag = "vacation",
    security(("bearer" = []), ("session" = [])),
    responses((status = 200, description = "the leave status", body = VacationStatus))
)]
/// Ends the current leave.
pub async fn end(State(domain): State<Domain>, AuthUser(me): AuthUser) -> ApiResult<Json<VacationStatus>> {
    Ok(Json(vacation::end(&domain, me.id).await?))
}
