//! Observability (issue #19 §3): Prometheus metrics and request ids.
//!
//! `GET /metrics` renders, in Prometheus's text format: requests by route, method and
//! status with a latency histogram; moves accepted and refused by code; live sockets;
//! the outbox's pending mails (the notification queue); the pool's connections; whether
//! the database answers; the background tasks' lag; the costly rules work running and
//! waiting (`tavoliere_rules_jobs`); the requests that panicked (`tavoliere_panics_total`). It is served on the main port to a
//! bearer of `[metrics] token`, or (no token) to clients on the loopback address only, or
//! on a listener of its own (`[metrics] listen`).
//!
//! Every request gets an id (`X-Request-Id`, taken from the request when a proxy set a
//! sane one): it is in the request's log span, in the answer's header and in every error
//! body (`request_id`), so a user's report of an error can be found in the logs.

use std::sync::OnceLock;
use std::time::Instant;

use axum::extract::{MatchedPath, Request, State};
use axum::http::header::{AUTHORIZATION, CONTENT_TYPE};
use axum::http::{HeaderValue, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use metrics_exporter_prometheus::{Matcher, PrometheusBuilder, PrometheusHandle};

use super::error::ApiError;
use super::extract::ClientAddress;
use super::AppState;

/// The request header and answer header carrying the request id.
pub const REQUEST_ID_HEADER: &str = "x-request-id";

tokio::task_local! {
    /// The id of the request this task serves (read by the error bodies).
    static REQUEST_ID: String;
}

/// The current request's id, when inside a request.
pub fn current_request_id() -> Option<String> {
    REQUEST_ID.try_with(Clone::clone).ok()
}

/// Latency buckets, in seconds: a move is milliseconds, a page some more.
const LATENCY_BUCKETS: [f64; 12] = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 10.0];

/// The process's recorder (one per process: several apps in one test process share it).
pub fn handle() -> &'static PrometheusHandle {
    static HANDLE: OnceLock<PrometheusHandle> = OnceLock::new();
    HANDLE.get_or_init(|| {
        let builder = PrometheusBuilder::new()
            .set_buckets_for_metric(Matcher::Suffix("_seconds".to_owned()), &LATENCY_BUCKETS)
            .expect("buckets are not empty");
        match builder.install_recorder() {
            Ok(handle) => handle,
            // Another recorder is installed (a test harness): render ours unregistered.
            Err(_) => PrometheusBuilder::new().build_recorder().handle(),
        }
    })
}

/// Drains the histograms' recorded samples into their buckets every few seconds until
/// `shutdown` changes. The recorder keeps every sample of a histogram until the next
/// upkeep, which only a scrape would run otherwise: a server nobody scrapes would keep
/// eight bytes per request forever.
pub async fn upkeep(shutdown: tokio::sync::watch::Receiver<bool>) {
    crate::tasks::every(std::time::Duration::from_secs(5), shutdown, || async {
        handle().run_upkeep();
    })
    .await;
}

/// The per-route layer: counts each request by its route (the pattern, never the ids in
/// the path) and times it.
pub async fn track(request: Request, next: Next) -> Response {
    let route = request.extensions().get::<MatchedPath>().map_or("unmatched", MatchedPath::as_str).to_owned();
    let method = request.method().to_string();
    let started = Instant::now();
    let response = next.run(request).await;
    let status = response.status().as_u16().to_string();
    metrics::counter!("tavoliere_http_requests_total", "route" => route.clone(), "method" => method.clone(), "status" => status)
        .increment(1);
    metrics::histogram!("tavoliere_http_request_duration_seconds", "route" => route, "method" => method)
        .record(started.elapsed().as_secs_f64());
    response
}

/// The outer layer: gives the request its id, for the span, the answer and error bodies.
pub async fn request_id(mut request: Request, next: Next) -> Response {
    let given = request
        .headers()
        .get(REQUEST_ID_HEADER)
        .and_then(|value| value.to_str().ok())
        .filter(|id| {
            !id.is_empty() && id.len() <= 64 && id.chars().all(|c| c.is_ascii_alphanumeric() || c == '-')
        })
        .map(str::to_owned);
    let id = given.unwrap_or_else(|| uuid::Uuid::new_v4().simple().to_string());
    let value = HeaderValue::from_str(&id).expect("letters, digits and dashes");
    request.headers_mut().insert(REQUEST_ID_HEADER, value.clone());
    let mut response = REQUEST_ID.scope(id, next.run(request)).await;
    response.headers_mut().insert(REQUEST_ID_HEADER, value);
    response
}

#[utoipa::path(
    get,
    path = "/metrics",
    tag = "service",
    security((), ("bearer" = [])),
    responses(
        (status = 200, description = "the metrics in Prometheus's text format", body = String, content_type = "text/plain"),
        (status = 404, description = "no token given (with `[metrics] token` set) or, without one, a client not on the loopback address", body = super::openapi::Errors)
    )
)]
/// `GET /metrics` on the main port: to the bearer of `[metrics] token`, or without a token
/// to loopback clients only.
pub async fn endpoint(State(state): State<AppState>, request: Request) -> Response {
    let allowed = match &state.metrics_token {
        Some(token) => request
            .headers()
            .get(AUTHORIZATION)
            .and_then(|value| value.to_str().ok())
            .and_then(|value| value.strip_prefix("Bearer "))
            .is_some_and(|given| constant_time_eq(given.as_bytes(), token.as_bytes())),
        None => {
            let (parts, _) = request.into_parts();
            ClientAddress::of(&parts, &state).0.is_loopback()
        }
    };
    if !allowed {
        return ApiError::not_found().into_response();
    }
    render(&state).await
}

/// The metrics text, with the gauges read now.
pub async fn render(state: &AppState) -> Response {
    let pool = &state.domain.pool;
    metrics::gauge!("tavoliere_db_pool_connections", "state" => "idle").set(pool.num_idle() as f64);
    metrics::gauge!("tavoliere_db_pool_connections", "state" => "in_use")
        .set(pool.size().saturating_sub(pool.num_idle() as u32) as f64);
    metrics::gauge!("tavoliere_db_pool_max_connections").set(f64::from(pool.options().get_max_connections()));
    let (open, idle, max) = state.domain.moves.connections().status();
    metrics::gauge!("tavoliere_db_move_connections", "state" => "idle").set(idle as f64);
    metrics::gauge!("tavoliere_db_move_connections", "state" => "in_use")
        .set(open.saturating_sub(idle) as f64);
    metrics::gauge!("tavoliere_db_move_connections_max").set(max as f64);
    metrics::gauge!("tavoliere_move_writes_waiting").set(state.domain.moves.state().1 as f64);
    let up = state.database_health.is_up();
    metrics::gauge!("tavoliere_database_up").set(if up { 1.0 } else { 0.0 });
    metrics::gauge!("tavoliere_live_sockets").set(state.live.sockets().total() as f64);
    metrics::gauge!("tavoliere_game_cache_games").set(state.domain.games.kept_games() as f64);
    let rules = &state.domain.rules_work;
    metrics::gauge!("tavoliere_rules_jobs", "state" => "running").set(rules.running() as f64);
    metrics::gauge!("tavoliere_rules_jobs", "state" => "waiting").set(rules.waiting() as f64);
    metrics::gauge!("tavoliere_rules_jobs_max").set(rules.bound() as f64);
    if up {
        if let Ok(pending) = crate::storage::outbox::pending_count(pool).await {
            metrics::gauge!("tavoliere_notification_queue_depth").set(pending as f64);
        }
    }
    let handle = handle();
    handle.run_upkeep();
    (StatusCode::OK, [(CONTENT_TYPE, "text/plain; version=0.0.4; charset=utf-8")], handle.render())
        .into_response()
}

fn constant_time_eq(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && a.iter().zip(b).fold(0_u8, |acc, (x, y)| acc | (x ^ y)) == 0
}
