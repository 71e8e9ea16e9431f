//! Tracing setup: `RUST_LOG` filter (default `info`), to stderr as plain text or, with
//! `[log] format = "json"`, one JSON object per line (for a log collector).

use tracing_subscriber::EnvFilter;

use crate::config::LogFormat;

/// Installs the global subscriber (once).
pub fn init(format: LogFormat) {
    let filter = EnvFilter::try_from_default_env()
        .unwrap_or_else(|_| EnvFilter::new("info,sqlx=warn,tower_sessions=warn"));
    let builder = tracing_subscriber::fmt().with_env_filter(filter).with_writer(std::io::stderr);
    let _ = match format {
        LogFormat::Text => builder.try_init(),
        LogFormat::Json => builder.json().flatten_event(true).with_current_span(true).try_init(),
    };
}

/// Counts a submitted move (every transport: REST, forms, WebSocket): accepted, or refused
/// with its error code (`tavoliere_moves_total{result, code}` on `/metrics`).
pub fn record_move<T>(outcome: &crate::domain::DomainResult<T>) {
    let (result, code) = match outcome {
        Ok(_) => ("accepted", "none"),
        Err(error) => ("refused", error.code()),
    };
    metrics::counter!("tavoliere_moves_total", "result" => result, "code" => code).increment(1);
}

/// Counts an accepted move by the way it was stored (`tavoliere_moves_by_path_total{path}`):
/// `copy`, one statement on the instance's copy of the game, or `locked`, under the game
/// row's lock (server/domain/games/moves.rs). Many `locked` moves mean the copies are
/// missing or out of date (moves spread over instances, a cache too small).
pub fn record_move_path(path: &'static str) {
    metrics::counter!("tavoliere_moves_by_path_total", "path" => path).increment(1);
}
