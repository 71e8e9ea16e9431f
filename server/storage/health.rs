//! Whether the database is reachable: a probe every second, and the supervisor of the
//! embedded cluster's word when it saw the cluster die (`http::availability` answers 503
//! while it is down).

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

use sqlx::PgPool;

/// How long one probe may take before the database counts as unreachable.
const PROBE_TIMEOUT: Duration = Duration::from_secs(1);
/// A failure this quick is a dead connection of the pool, worth a second try.
const QUICK_FAILURE: Duration = Duration::from_millis(100);
/// Probes in a row without an answer before the database counts as down.
const UNANSWERED_BEFORE_DOWN: u32 = 3;
/// How often the probe runs.
pub const PROBE_INTERVAL: Duration = Duration::from_secs(1);

/// Whether the database answered the last probe.
#[derive(Debug)]
pub struct DatabaseHealth {
    up: AtomicBool,
    /// The server is stopping: not ready any more, whatever the database's state, so that
    /// a load balancer sends it nothing new (issue 40 §3).
    stopping: AtomicBool,
    /// Probes in a row that got no answer in time (a loaded machine, or a partition).
    unanswered: std::sync::atomic::AtomicU32,
    pool: PgPool,
}

impl DatabaseHealth {
    /// Health of the database behind `pool`, taken as up until a probe says otherwise.
    pub fn new(pool: PgPool) -> Arc<DatabaseHealth> {
        Arc::new(DatabaseHealth {
            up: AtomicBool::new(true),
            stopping: AtomicBool::new(false),
            unanswered: Default::default(),
            pool,
        })
    }

    /// Whether the last probe reached the database.
    pub fn is_up(&self) -> bool {
        self.up.load(Ordering::Relaxed)
    }

    /// The server stops: readiness answers 503 from now on.
    pub fn stop_readiness(&self) {
        self.stopping.store(true, Ordering::Relaxed);
    }

    /// Whether the server is stopping.
    pub fn is_stopping(&self) -> bool {
        self.stopping.load(Ordering::Relaxed)
    }

    /// Records that the database is down without asking (the supervisor saw the embedded
    /// cluster die: connections to its orphaned backends may still answer for a moment).
    pub fn mark_down(&self) {
        if self.up.swap(false, Ordering::Relaxed) {
            went_down();
        }
    }

    /// Asks the database once (twice when the first try fails at once: after a restart
    /// of PostgreSQL the pool's first connection may be a dead one, which the pool then
    /// drops; a slow failure is not tried again, so a probe takes about a second at most)
    /// and records the answer; logs the changes. A refusal counts at once; no answer in
    /// time counts after [`UNANSWERED_BEFORE_DOWN`] probes in a row.
    pub async fn probe(&self) -> bool {
        let started = std::time::Instant::now();
        let answer = match self.ask().await {
            Some(false) if started.elapsed() < QUICK_FAILURE => self.ask().await,
            answer => answer,
        };
        let up = match answer {
            Some(answered) => {
                self.unanswered.store(0, Ordering::Relaxed);
                answered
            }
            // A slow answer alone is a busy machine or pool, not an outage: the database
            // counts as down only after several unanswered probes in a row (a refused
            // connection, the usual outage, is told at once above).
            None => {
                let unanswered = self.unanswered.fetch_add(1, Ordering::Relaxed) + 1;
                unanswered < UNANSWERED_BEFORE_DOWN && self.is_up()
            }
        };
        let was_up = self.up.swap(up, Ordering::Relaxed);
        match (was_up, up) {
            (true, false) => went_down(),
            (false, true) => tracing::info!("the database is reachable again"),
            _ => {}
        }
        up
    }

    /// `Some(true)`: the database answered; `Some(false)`: it refused or the connection
    /// failed; `None`: no answer within [`PROBE_TIMEOUT`].
    async fn ask(&self) -> Option<bool> {
        let query = sqlx::query("select 1").execute(&self.pool);
        tokio::time::timeout(PROBE_TIMEOUT, query).await.ok().map(|answer| answer.is_ok())
    }

    /// Probes every [`PROBE_INTERVAL`] until `shutdown` changes.
    pub async fn run(self: Arc<Self>, shutdown: tokio::sync::watch::Receiver<bool>) {
        crate::tasks::named("database-probe", PROBE_INTERVAL, shutdown, || async {
            self.probe().await;
        })
        .await;
    }
}

/// The start of an outage: logged, and counted (a gauge alone misses an outage shorter than
/// the scrape interval).
fn went_down() {
    metrics::counter!("tavoliere_database_outages_total").increment(1);
    tracing::error!("the database is unreachable: answering 503 until it is back");
}
