//! The embedded cluster is supervised (issue #19 §2): when its postmaster dies (a crash,
//! an out-of-memory kill, an operator's `kill -9`) the server starts it again in place,
//! with backoff, logging why; when it cannot, it says so and the server exits non-zero so
//! that its own supervisor (systemd, the container runtime) restarts everything.
//! Meanwhile requests are answered 503 (`http::availability`).

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use tokio::sync::watch;

use super::embedded::{EmbeddedPostgres, Postmaster};
use super::health::DatabaseHealth;

/// How often the postmaster is looked at: a file read, a signal 0 and a read of
/// `/proc`, cheap enough to do four times a second, so that a death is answered 503
/// within about a quarter of a second (README "Outages").
const CHECK_EVERY: Duration = Duration::from_millis(250);
/// The waits before the restarts of one outage; after the last fails, the server gives up.
const BACKOFF: [Duration; 5] = [
    Duration::from_millis(500),
    Duration::from_secs(1),
    Duration::from_secs(2),
    Duration::from_secs(4),
    Duration::from_secs(8),
];
/// How many lines of the cluster's log go into the error message.
const LOG_LINES: usize = 5;

/// Watches `cluster` until `shutdown` changes; restarts it when it died. When the restarts
/// fail, sends the reason on `fatal` (the server then shuts down and exits non-zero) and
/// returns.
pub async fn run(
    cluster: Arc<Mutex<EmbeddedPostgres>>,
    health: Arc<DatabaseHealth>,
    fatal: watch::Sender<Option<String>>,
    shutdown: watch::Receiver<bool>,
) {
    let stop = shutdown.clone();
    crate::tasks::named("supervise-postgres", CHECK_EVERY, shutdown, || {
        let cluster = Arc::clone(&cluster);
        let health = Arc::clone(&health);
        let fatal = fatal.clone();
        let stop = stop.clone();
        async move {
            if fatal.borrow().is_some() || *stop.borrow() {
                return;
            }
            let state = lock(&cluster).postmaster_state();
            match state {
                Postmaster::Running => {
                    switch_to_password_when_alone(&cluster).await;
                    return;
                }
                // Not a death: nothing is done on a guess (issue 36 §1).
                Postmaster::Unknown(reason) => {
                    tracing::warn!(%reason, "cannot tell whether the private PostgreSQL cluster runs; looking again in a second");
                    return;
                }
                Postmaster::Gone => {}
            }
            health.mark_down();
            let tail = lock(&cluster).log_tail(LOG_LINES);
            tracing::error!(log = %tail, "the private PostgreSQL cluster died; restarting it");
            let restarted = restart(&cluster, &stop).await;
            if restarted.is_ok() {
                health.probe().await;
            }
            if let Err(reason) = restarted {
                if !*stop.borrow() {
                    tracing::error!(%reason, "the private PostgreSQL cluster cannot be restarted; stopping the server");
                    let _ = fatal.send(Some(reason));
                }
            }
        }
    })
    .await;
}

/// A cluster of an older release that still trusts local users asks for its password as
/// soon as no older process uses it any more (`EmbeddedPostgres::require_password_when_alone`).
async fn switch_to_password_when_alone(cluster: &Arc<Mutex<EmbeddedPostgres>>) {
    if !lock(cluster).awaits_password_switch() {
        return;
    }
    let cluster = Arc::clone(cluster);
    let switched = tokio::task::spawn_blocking(move || lock(&cluster).require_password_when_alone()).await;
    if let Ok(Err(error)) = switched {
        tracing::warn!(error = %format!("{error:#}"), "switching the private cluster to password authentication failed; trying again");
    }
}

/// Restarts the cluster, waiting [`BACKOFF`] before each try (the dead postmaster's
/// children may hold its shared memory for a moment).
async fn restart(cluster: &Arc<Mutex<EmbeddedPostgres>>, stop: &watch::Receiver<bool>) -> Result<(), String> {
    let started = Instant::now();
    let mut last_error = String::new();
    for (attempt, wait) in BACKOFF.iter().enumerate() {
        tokio::time::sleep(*wait).await;
        if *stop.borrow() {
            return Err("shutting down".to_owned());
        }
        let cluster = Arc::clone(cluster);
        let tried = tokio::task::spawn_blocking(move || lock(&cluster).restart()).await;
        match tried {
            Ok(Ok(())) => {
                tracing::info!(
                    attempt = attempt + 1,
                    seconds = started.elapsed().as_secs_f64(),
                    "the private PostgreSQL cluster is running again"
                );
                return Ok(());
            }
            Ok(Err(error)) => {
                tracing::warn!(attempt = attempt + 1, error = %format!("{error:#}"), "restarting the private PostgreSQL cluster failed");
                last_error = format!("{error:#}");
            }
            Err(error) => last_error = error.to_string(),
        }
    }
    Err(format!(
        "the private PostgreSQL cluster died and {} restarts failed; the last: {last_error}",
        BACKOFF.len()
    ))
}

fn lock(cluster: &Mutex<EmbeddedPostgres>) -> std::sync::MutexGuard<'_, EmbeddedPostgres> {
    // A panic while holding the lock leaves the cluster's state as it was.
    cluster.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}
