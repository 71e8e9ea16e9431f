//! The background tasks that end games whose deadline has passed: the correspondence
//! sweep and the live clocks' flag, one loop over the due games.
//!
//! Deadlines are stored timestamps computed from the clock state in the database, so a
//! restart gives nobody free time: the first sweep after it ends every game whose
//! deadline passed while the server was down, dated at the deadline. A game is ended by
//! `games::expire_if_overdue`, which locks the game row and checks that it is still
//! active, so when two instances find the same overdue game the second waits for the
//! first's commit, sees the game finished and does nothing.

use std::time::Duration;

use tokio::sync::watch;

use super::error::DomainResult;
use super::Domain;
use crate::storage::games::games_due;

/// Which due games a sweep looks at.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Due {
    /// Every game (the correspondence sweep), up to 1000 a sweep.
    All,
    /// Live time controls only (Fischer, byoyomi: the frequent flag task), up to 500.
    Live,
}

/// Ends every active game (of `due`) whose side to move has run out of time by the domain
/// clock (in games of more seats: removes every seat that has run out, one after the
/// other). Returns the ids of the games it ended or changed.
///
/// # Errors
/// Database failure.
pub async fn sweep_due(domain: &Domain, due: Due) -> DomainResult<Vec<i64>> {
    let now = domain.clock.now();
    let (live_only, limit) = match due {
        Due::All => (false, 1000),
        Due::Live => (true, 500),
    };
    let mut ended = Vec::new();
    for game_id in games_due(&domain.pool, now, live_only, limit).await? {
        if super::games::expire_if_overdue(domain, game_id, now).await? {
            ended.push(game_id);
        }
    }
    Ok(ended)
}

/// The correspondence sweep: [`sweep_due`] over every game.
///
/// # Errors
/// Database failure.
pub async fn sweep(domain: &Domain) -> DomainResult<Vec<i64>> {
    sweep_due(domain, Due::All).await
}

/// Runs [`sweep_due`] every `every` until `shutdown` changes.
pub async fn run(domain: Domain, due: Due, every: Duration, shutdown: watch::Receiver<bool>) {
    let name = match due {
        Due::Live => "live-flags",
        _ => "timeout-sweep",
    };
    crate::tasks::named(name, every, shutdown, || async {
        match sweep_due(&domain, due).await {
            // The outage is logged once by the database probe, not ten times a second here.
            Err(error) if error.kind() == super::ErrorKind::Unavailable => {
                tracing::debug!(%error, ?due, "timeout sweep skipped: database unreachable");
            }
            Err(error) => tracing::error!(%error, ?due, "timeout sweep failed"),
            Ok(_) => {}
        }
    })
    .await;
}
