//! The background task that ends games whose deadline has passed.
//!
//! Deadlines are stored timestamps computed from the clock state in the database, so a
//! restart gives nobody free time: the first sweep after it ends every game whose
//! deadline passed while the server was down, dated at the deadline.

use std::time::Duration;

use tokio::sync::watch;

use super::error::DomainResult;
use super::Domain;

/// Ends every active game whose side to move has run out of time by the domain clock (in
/// games of more seats: removes every seat that has run out, one after the other).
/// Returns the ids of the games it ended or changed.
///
/// # Errors
/// Database failure.
pub async fn sweep(domain: &Domain) -> DomainResult<Vec<i64>> {
    let now = domain.clock.now();
    let due: Vec<i64> = sqlx::query_scalar(
        r#"select game_id from game where status = 'active' and deadline <= $1
           order by deadline limit 1000"#,
    )
    .bind(now)
    .fetch_all(&domain.pool)
    .await?;
    let mut ended = Vec::new();
    for game_id in due {
        if super::games::expire_if_overdue(domain, game_id, now).await? {
            ended.push(game_id);
        }
    }
    Ok(ended)
}

/// Runs [`sweep`] every `every` until `shutdown` changes.
pub async fn run(domain: Domain, every: Duration, mut shutdown: watch::Receiver<bool>) {
    let mut ticker = tokio::time::interval(every);
    ticker.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        tokio::select! {
            _ = ticker.tick() => {
                if let Err(error) = sweep(&domain).await {
                    tracing::error!(%error, "timeout sweep failed");
                }
            }
            _ = shutdown.changed() => break,
        }
    }
}
