//! Tracing setup: `RUST_LOG` filter (default `info`), plain text to stderr.

use tracing_subscriber::EnvFilter;

/// Installs the global subscriber (once).
pub fn init() {
    let filter = EnvFilter::try_from_default_env()
        .unwrap_or_else(|_| EnvFilter::new("info,sqlx=warn,tower_sessions=warn"));
    let _ = tracing_subscriber::fmt().with_env_filter(filter).with_writer(std::io::stderr).try_init();
}
