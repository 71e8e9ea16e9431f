//! Watcher counts over every instance: each instance keeps its number of sockets per game
//! in the table `live_presence` (`storage::presence`) and the count shown is the sum.
//!
//! A socket joining or leaving changes the local count at once (the local sockets hear
//! it within `live.watchers_interval_ms`) and marks the game for the presence task, which
//! writes the marked games' counts in one transaction, at most once per that interval,
//! and announces them on the watchers channel; every other instance watching those games
//! re-reads the sum. A heartbeat rewrites all of the
//! instance's rows with a fresh `seen_at`; rows not confirmed for three heartbeats (an
//! instance that died without cleaning up) no longer count and are pruned. At a graceful
//! shutdown the instance deletes its rows.

use std::collections::HashSet;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use tokio::sync::{watch, Notify};

use super::Hub;
use crate::storage::presence;

/// How many missed heartbeats make an instance's counts stale.
const HEARTBEATS_TO_LIVE: u32 = 3;

/// This instance's part in the watcher counts.
#[derive(Debug)]
pub struct Presence {
    /// This process's id in `live_presence`, new at every start.
    instance_id: String,
    /// Games whose local count changed since the last write.
    dirty: Mutex<HashSet<i64>>,
    /// Wakes the presence task.
    wake: Notify,
    heartbeat: Duration,
}

impl Presence {
    /// A new instance id, confirming its counts every `heartbeat_seconds`.
    pub fn new(heartbeat_seconds: u64) -> Presence {
        Presence {
            instance_id: uuid::Uuid::new_v4().simple().to_string(),
            dirty: Mutex::new(HashSet::new()),
            wake: Notify::new(),
            heartbeat: Duration::from_secs(heartbeat_seconds.max(1)),
        }
    }

    /// This instance's id.
    pub fn instance_id(&self) -> &str {
        &self.instance_id
    }

    /// How long a row counts without being confirmed, in seconds.
    pub fn ttl_seconds(&self) -> f64 {
        (self.heartbeat * HEARTBEATS_TO_LIVE).as_secs_f64()
    }

    fn dirty(&self) -> std::sync::MutexGuard<'_, HashSet<i64>> {
        self.dirty.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// The local count of `game_id` changed: write it soon.
    pub fn touch(&self, game_id: i64) {
        self.dirty().insert(game_id);
        self.wake.notify_one();
    }

    /// Writes the changed counts; on failure they stay marked for the next attempt.
    async fn flush(&self, hub: &Hub) {
        let games: Vec<i64> = self.dirty().drain().collect();
        if games.is_empty() {
            return;
        }
        let counts: Vec<(i64, usize)> = games.iter().map(|&game| (game, hub.local_watchers(game))).collect();
        if let Err(error) = presence::write(&hub.domain().pool, &self.instance_id, &counts).await {
            tracing::warn!(%error, "live: cannot write the watcher counts; retrying");
            self.dirty().extend(games);
        }
    }

    /// Confirms every local count and prunes the rows of instances gone silent.
    async fn beat(&self, hub: &Hub) {
        let pool = &hub.domain().pool;
        if let Err(error) = presence::heartbeat(pool, &self.instance_id, &hub.local_counts()).await {
            tracing::warn!(%error, "live: watcher heartbeat failed");
        }
        if let Err(error) = presence::prune(pool, self.ttl_seconds()).await {
            tracing::warn!(%error, "live: cannot prune stale watcher counts");
        }
    }
}

/// The presence task of `hub`: writes changed counts as they come, beats every heartbeat,
/// and withdraws the instance's rows when `shutdown` changes. Returns at once for a hub
/// without presence (one instance alone).
pub async fn run(hub: Arc<Hub>, mut shutdown: watch::Receiver<bool>) {
    let Some(presence) = hub.presence() else {
        return;
    };
    let mut ticker = tokio::time::interval(presence.heartbeat);
    ticker.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    let gap = Duration::from_millis(hub.settings().watchers_interval_ms);
    loop {
        tokio::select! {
            () = presence.wake.notified() => {
                presence.flush(&hub).await;
                // One write (and one announcement, which every other instance watching the
                // game answers with a count) per interval, however many sockets come and go.
                tokio::select! {
                    () = tokio::time::sleep(gap) => {}
                    _ = shutdown.changed() => break,
                }
            }
            _ = ticker.tick() => {
                presence.beat(&hub).await;
                presence.flush(&hub).await;
            }
            _ = shutdown.changed() => break,
        }
    }
    if let Err(error) = presence::withdraw(&hub.domain().pool, &presence.instance_id).await {
        tracing::warn!(%error, "live: cannot withdraw the watcher counts");
    }
}
