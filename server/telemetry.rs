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
