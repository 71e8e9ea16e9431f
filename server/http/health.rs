//! `GET /healthz`: the server runs and reaches its database.

use axum::extract::State;
use axum::http::StatusCode;

use super::error::{ApiError, ApiResult};
use crate::domain::Domain;

#[utoipa::path(
    get,
    path = "/healthz",
    tag = "service",
    responses(
        (
            status = 200,
            description = "the database answers",
            body = String,
            content_type = "text/plain"
        )
    )
)]
/// 200 "ok" when the database answers, 503 otherwise.
pub async fn healthz(State(domain): State<Domain>) -> ApiResult<&'static str> {
    sqlx::query("select 1")
        .execute(&domain.pool)
        .await
        .map_err(|_| ApiError::new(StatusCode::SERVICE_UNAVAILABLE, "database unavailable"))?;
    Ok("ok")
}
