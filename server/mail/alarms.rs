//! The task that queues the deadline alarms and the daily digests (#17 §2), by the
//! domain's clock (injectable: the tests move it). Their mails go out through the outbox
//! like every other notification.

use std::time::Duration;

use tokio::sync::watch;

use crate::config::MailSettings;
use crate::domain::error::DomainResult;
use crate::domain::Domain;
use crate::storage::alarms;

/// Queues what is due now: the deadline alarms, the digests, the ends of leave. Returns
/// (alarms, digests) queued.
///
/// # Errors
/// Database failure.
pub async fn queue_due(domain: &Domain, settings: &MailSettings) -> DomainResult<(u64, u64)> {
    let now = domain.clock.now();
    let alarms = alarms::queue_deadline_alarms(
        &domain.pool,
        now,
        settings.alarm_percent_used,
        settings.alarm_hours_before,
    )
    .await?;
    let digests = alarms::queue_digests(&domain.pool, now).await?;
    alarms::queue_vacation_endings(&domain.pool, now).await?;
    Ok((alarms, digests))
}

/// Runs [`queue_due`] every `every` until `shutdown` changes.
pub async fn run(domain: Domain, settings: MailSettings, every: Duration, shutdown: watch::Receiver<bool>) {
    crate::tasks::every(every, shutdown, || async {
        if let Err(error) = queue_due(&domain, &settings).await {
            tracing::error!(%error, "queueing deadline alarms and digests failed");
        }
    })
    .await;
}
