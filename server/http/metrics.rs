//! Observability (issue #19 §3): Prometheus metrics and request ids.
//!
//! `GET /metrics` renders, in Prometheus's text format: requests by route, method and
//! status with a latency histogram; moves accepted and refused by code; live sockets;
//! the outbox's pending mails (the notification queue); the pool's connections; whether
//! the database answers; the background tasks' lag; the costly rules work running and
//! waiting (`tavoliere_rules_jobs`); the requests that panicked (`tavoliere_panics_total`).
//! It is served on the main port to a bearer of `[metrics] token`, or (no token) to clients on the loopback address only, or
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
        let handle = match builder.install_recorder() {
            Ok(handle) => handle,
            // Another recorder is installed (a test harness): render ours unregistered.
            Err(_) => PrometheusBuilder::new().build_recorder().handle(),
        };
        describe();
        handle
    })
}

/// Every metric the server records, with its kind and the `# HELP` line a scraper shows
/// (issue 40 §5). A metric recorded anywhere in `server/` must be listed here: a test
/// reads the sources.
pub const DESCRIPTIONS: &[(&str, Kind, &str)] = &[
    (
        "tavoliere_rules_jobs",
        Kind::Gauge,
        "Costly rules work (start positions' checks, imports' replays) running and waiting in the bounded pool, by state.",
    ),
    ("tavoliere_rules_jobs_max", Kind::Gauge, "How many costly rules jobs may run at once."),
    (
        "tavoliere_panics_total",
        Kind::Counter,
        "Requests whose handling panicked (answered 500 in the error shape and logged).",
    ),
    (
        "tavoliere_http_requests_total",
        Kind::Counter,
        "HTTP requests answered, by route pattern, method and status (503s of an outage included).",
    ),
    (
        "tavoliere_http_request_duration_seconds",
        Kind::Histogram,
        "Time to answer an HTTP request, by route pattern and method.",
    ),
    ("tavoliere_http_connections", Kind::Gauge, "HTTP connections open now, live sockets included."),
    (
        "tavoliere_http_connections_refused_total",
        Kind::Counter,
        "Connections closed at once: reason=address (the address's cap) or full (the cap, nothing idle).",
    ),
    (
        "tavoliere_http_connections_closed_total",
        Kind::Counter,
        "Idle connections closed to make room for a newcomer at the cap (reason=newcomer).",
    ),
    (
        "tavoliere_http_request_timeouts_total",
        Kind::Counter,
        "Requests answered 408 because they were not complete within application.request_timeout_seconds.",
    ),
    (
        "tavoliere_http_accept_errors_total",
        Kind::Counter,
        "Failed accepts for want of file descriptors or memory.",
    ),
    (
        "tavoliere_moves_total",
        Kind::Counter,
        "Moves submitted, by result (accepted or refused) and refusal code.",
    ),
    (
        "tavoliere_moves_by_path_total",
        Kind::Counter,
        "Moves stored, by path: on the instance's copy of the game (one statement) or under the row lock.",
    ),
    (
        "tavoliere_moves_written_total",
        Kind::Counter,
        "Moves stored by the fast path's statements: alone, or together with other games' moves.",
    ),
    ("tavoliere_move_writes_waiting", Kind::Gauge, "Moves waiting for a statement of the fast path."),
    (
        "tavoliere_game_cache_games",
        Kind::Gauge,
        "Games whose rules state this instance keeps for their next move.",
    ),
    ("tavoliere_live_sockets", Kind::Gauge, "Live (WebSocket) sockets open on this instance."),
    ("tavoliere_notification_queue_depth", Kind::Gauge, "Mails waiting in the outbox."),
    (
        "tavoliere_db_pool_connections",
        Kind::Gauge,
        "The database pool's connections, by state (idle, in_use).",
    ),
    (
        "tavoliere_db_pool_max_connections",
        Kind::Gauge,
        "The database pool's size (database.max_connections).",
    ),
    (
        "tavoliere_db_move_connections",
        Kind::Gauge,
        "The move fast path's own connections, by state (idle, in_use).",
    ),
    (
        "tavoliere_db_move_connections_max",
        Kind::Gauge,
        "The move fast path's connections at most (database.move_connections).",
    ),
    ("tavoliere_database_up", Kind::Gauge, "1 while the database answers the probe, 0 during an outage."),
    (
        "tavoliere_database_outages_total",
        Kind::Counter,
        "Outages of the database seen by the probe (each start of one).",
    ),
    ("tavoliere_task_lag_seconds", Kind::Gauge, "How late each background task's last run started, by task."),
    (
        "tavoliere_analysis_games_total",
        Kind::Counter,
        "Computer analyses ended by this instance's workers, by outcome (done, retried, failed).",
    ),
    ("tavoliere_analysis_searches_total", Kind::Counter, "Engine searches of the analysis workers."),
];

/// A metric's kind, for its description.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// Only goes up.
    Counter,
    /// Goes up and down.
    Gauge,
    /// A distribution in buckets.
    Histogram,
}

/// Gives the recorder every description of [`DESCRIPTIONS`].
fn describe() {
    for (name, kind, help) in DESCRIPTIONS {
        match kind {
            Kind::Counter => metrics::describe_counter!(*name, *help),
            Kind::Gauge => metrics::describe_gauge!(*name, *help),
            Kind::Histogram => metrics::describe_histogram!(*name, *help),
        }
    }
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

/// The request's span (the access log's line), for fields known only later: the
/// signed-in account is read by the handler's extractors, inside other spans (the
/// session layer's), so `Span::current()` there is not the request's.
#[derive(Clone, Debug)]
pub struct RequestSpan(pub tracing::Span);

/// The layer just inside the tracing layer: keeps the request's span in the request.
pub async fn remember_request_span(mut request: Request, next: Next) -> Response {
    request.extensions_mut().insert(RequestSpan(tracing::Span::current()));
    next.run(request).await
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

#[cfg(test)]
mod tests {
    use super::{Kind, DESCRIPTIONS};

    /// Every `metrics::counter!` / `gauge!` / `histogram!` of the sources, as (name, kind).
    fn recorded() -> Vec<(String, Kind, String)> {
        let mut found = Vec::new();
        let mut stack = vec![std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("server")];
        while let Some(dir) = stack.pop() {
            for entry in std::fs::read_dir(&dir).unwrap().flatten() {
                let path = entry.path();
                if path.is_dir() {
                    stack.push(path);
                    continue;
                }
                if path.extension().is_none_or(|ext| ext != "rs") {
                    continue;
                }
                let text = std::fs::read_to_string(&path).unwrap();
                for (macro_name, kind) in [
                    ("metrics::counter!(", Kind::Counter),
                    ("metrics::gauge!(", Kind::Gauge),
                    ("metrics::histogram!(", Kind::Histogram),
                ] {
                    for (at, _) in text.match_indices(macro_name) {
                        let rest = text[at + macro_name.len()..].trim_start();
                        let Some(quoted) = rest.strip_prefix('"') else { continue };
                        let name: String = quoted.chars().take_while(|c| *c != '"').collect();
                        // (This scan's own patterns are not metrics.)
                        if name.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_') {
                            found.push((name, kind, path.display().to_string()));
                        }
                    }
                }
            }
        }
        found
    }

    #[test]
    fn every_metric_recorded_is_described_and_every_description_is_recorded() {
        let recorded = recorded();
        assert!(recorded.len() > 15, "the scan finds the metrics: {recorded:?}");
        for (name, kind, file) in &recorded {
            let described = DESCRIPTIONS.iter().find(|(described, _, _)| described == name);
            match described {
                Some((_, described_kind, _)) => {
                    assert_eq!(described_kind, kind, "{name} ({file}) is described as another kind");
                }
                None => panic!("{name}, recorded in {file}, has no # HELP line: add it to DESCRIPTIONS"),
            }
        }
        for (name, _, help) in DESCRIPTIONS {
            assert!(
                recorded.iter().any(|(recorded, _, _)| recorded == name),
                "{name} is described but never recorded"
            );
            assert!(help.ends_with('.') && help.len() > 20, "{name}: say what it counts");
        }
    }
}
