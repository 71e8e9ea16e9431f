//! `GET /healthz` (liveness: the process serves) and `GET /readyz` (readiness: it reaches
//! its database). A supervisor restarts a process whose liveness fails; a load balancer
//! sends no traffic to one that is not ready.

use std::sync::Arc;

use axum::extract::State;

use super::availability::DatabaseHealth;
use super::error::{ApiError, ApiResult};
use crate::domain::DomainError;

#[utoipa::path(
    get,
    path = "/healthz",
    tag = "service",
    responses(
        (status = 200, description = "the process serves (whatever its database's state)", body = String, content_type = "text/plain")
    )
)]
/// Liveness: 200 "ok" while the process serves requests, even with its database down
/// (restarting the process would not bring the database back).
pub async fn healthz() -> &'static str {
    "ok"
}

#[utoipa::path(
    get,
    path = "/readyz",
    tag = "service",
    responses(
        (status = 200, description = "the database answers", body = String, content_type = "text/plain"),
        (status = 503, description = "the database is unreachable (with Retry-After), or the server is stopping (code `unavailable.stopping`)", body = super::openapi::Errors)
    )
)]
/// Readiness: 200 "ready" when the database answers a query now, 503 otherwise, and 503
/// at once from the moment the server is told to stop (a load balancer then drains it
/// while it still serves what it is sent).
pub async fn readyz(State(health): State<Arc<DatabaseHealth>>) -> ApiResult<&'static str> {
    if health.is_stopping() {
        return Err(ApiError::coded(
            axum::http::StatusCode::SERVICE_UNAVAILABLE,
            "unavailable.stopping",
            "the server is stopping",
        ));
    }
    // While the probe or the supervisor says the database is down, at once; otherwise
    // asked now.
    if health.is_up() && health.probe().await {
        Ok("ready")
    } else {
        Err(ApiError::from(DomainError::database_unavailable()))
    }
}
