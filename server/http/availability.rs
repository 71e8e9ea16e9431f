//! Clean outages (issue #19 §2): while the database is unreachable every request is
//! answered at once with 503, the one JSON error shape and `Retry-After` (an HTML page for
//! browsers), instead of each waiting for a connection and failing with a 500.
//!
//! The probe of [`DatabaseHealth`] asks the database every second; the layer
//! [`refuse_while_down`] sits outside the session layer (whose store is the database too)
//! and answers for every route but the liveness, readiness and metrics endpoints and the
//! static files. Between an outage's start and the next probe a request may still fail on
//! its own: the database errors that mean "unreachable" become the same 503 in the error
//! mapping (`storage::is_unavailable`).

use std::sync::Arc;

use axum::extract::{Request, State};
use axum::http::header::{ACCEPT, CONTENT_TYPE, RETRY_AFTER};
use axum::http::{HeaderName, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

use super::error::{ApiError, DATABASE_RETRY_AFTER_SECONDS};
use crate::domain::DomainError;
pub use crate::storage::health::DatabaseHealth;

/// The paths answered whatever the database's state: liveness, readiness, metrics, and the
/// static files (built into the binary).
fn answered_while_down(path: &str) -> bool {
    matches!(path, "/healthz" | "/readyz" | "/metrics") || path.starts_with("/static/")
}

/// The layer: 503 at once while the last probe failed.
pub async fn refuse_while_down(
    State(health): State<Arc<DatabaseHealth>>,
    request: Request,
    next: Next,
) -> Response {
    if health.is_up() || answered_while_down(request.uri().path()) {
        return next.run(request).await;
    }
    let wants_html = request
        .headers()
        .get(ACCEPT)
        .and_then(|accept| accept.to_str().ok())
        .is_some_and(|accept| accept.contains("text/html"));
    if wants_html {
        return busy_page();
    }
    ApiError::from(DomainError::database_unavailable()).into_response()
}

/// The page a browser gets during an outage: it says what happened and reloads itself
/// (a `Refresh` header: the content security policy forbids inline scripts).
pub(crate) fn busy_page() -> Response {
    let page = "<!doctype html>\n<html>\n<head><meta charset=\"utf-8\"><title>Tavoliere: back in a \
                moment</title></head>\n<body>\n<h1>Back in a moment</h1>\n<p>The server cannot \
                reach its database just now, so nothing can be shown or changed. This page \
                tries again by itself every few seconds; a move you sent and saw confirmed is \
                safe.</p>\n<p lang=\"it\">Il server non raggiunge il database in questo momento: \
                la pagina riprova da sola tra pochi secondi. Una mossa già confermata è \
                salva.</p>\n</body>\n</html>\n";
    let seconds = DATABASE_RETRY_AFTER_SECONDS.to_string();
    (
        StatusCode::SERVICE_UNAVAILABLE,
        [
            (CONTENT_TYPE, "text/html; charset=utf-8"),
            (RETRY_AFTER, seconds.as_str()),
            (HeaderName::from_static("refresh"), seconds.as_str()),
        ],
        page,
    )
        .into_response()
}
