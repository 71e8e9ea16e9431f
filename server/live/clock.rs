//! Live clocks: the task that flags a player whose live time ran out, whether or not
//! anybody is connected.
//!
//! Every instance runs it. A game is flagged by [`crate::domain::games`]'s
//! `expire_if_overdue`, which locks the game row (`select ... for update`) and checks that
//! the game is still active before ending it, so when two instances find the same overdue
//! game the second waits for the first's commit, sees the game finished and does nothing:
//! the clock is enforced once, not once per instance. The ending is announced by NOTIFY
//! like any other change, so every socket on every instance sees the result.

use std::time::Duration;

use tokio::sync::watch;

use crate::domain::Domain;
use crate::domain::{games, DomainResult};

/// Ends the live games whose side to move has run out of time by the domain clock.
/// Returns the ids of the games it ended. Correspondence games are left to the
/// correspondence sweep (`domain::timeouts`).
///
/// # Errors
/// Database failure.
pub async fn sweep_live(domain: &Domain) -> DomainResult<Vec<i64>> {
    let now = domain.clock.now();
    let due: Vec<i64> = sqlx::query_scalar(
        r#"select game_id from game
           where status = 'active' and deadline <= $1
             and time_control->>'kind' in ('live-fischer', 'byoyomi')
           order by deadline limit 500"#,
    )
    .bind(now)
    .fetch_all(&domain.pool)
    .await?;
    let mut ended = Vec::new();
    for game_id in due {
        if games::expire_if_overdue(domain, game_id, now).await? {
            ended.push(game_id);
        }
    }
    Ok(ended)
}

/// Runs [`sweep_live`] every `every` until `shutdown` changes.
pub async fn run(domain: Domain, every: Duration, mut shutdown: watch::Receiver<bool>) {
    let mut ticker = tokio::time::interval(every);
    ticker.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        tokio::select! {
            _ = ticker.tick() => {
                if let Err(error) = sweep_live(&domain).await {
                    tracing::error!(%error, "live clock sweep failed");
                }
            }
            _ = shutdown.changed() => break,
        }
    }
}
