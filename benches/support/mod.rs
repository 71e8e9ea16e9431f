//! What the server benchmarks share: a private durable cluster in a scratch directory,
//! and the built-in settings pointed at one of its databases.

use std::path::{Path, PathBuf};

use tavoliere::config::Settings;
use tavoliere::storage::embedded::EmbeddedPostgres;

/// A fresh scratch directory path for a private cluster named `prefix-<uuid>`: under
/// /var/tmp when run as root (the cluster then runs as `postgres`, which must reach it),
/// else in the temporary directory.
pub fn scratch_dir(prefix: &str) -> PathBuf {
    // SAFETY: geteuid has no preconditions.
    let base_dir =
        if unsafe { libc::geteuid() } == 0 { PathBuf::from("/var/tmp") } else { std::env::temp_dir() };
    base_dir.join(format!("{prefix}-{}", uuid::Uuid::new_v4().simple()))
}

/// The built-in local settings on `database` of `cluster` (created if missing) in `dir`:
/// any free port, no timeout sweep. Each benchmark changes what it measures further.
pub async fn settings_on(cluster: &EmbeddedPostgres, dir: &Path, database: &str) -> anyhow::Result<Settings> {
    tavoliere::storage::create_database_if_missing(&cluster.url("postgres"), database).await?;
    let mut settings = Settings::built_in("local");
    settings.application.port = 0;
    settings.database.url = Some(cluster.url(database).into());
    settings.database.embedded_data_dir = dir.to_path_buf();
    settings.clocks.sweep_interval_seconds = 0;
    Ok(settings)
}
