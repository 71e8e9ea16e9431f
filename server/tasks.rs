//! The background tasks' one loop: a step every interval until shutdown.

use std::future::Future;
use std::time::Duration;

use tokio::sync::watch;

/// Runs `step` at once and then every `every` (a late step delays the next, never
/// bunches them) until `shutdown` changes (or its sender is gone).
pub async fn every<F, Fut>(every: Duration, mut shutdown: watch::Receiver<bool>, mut step: F)
where
    F: FnMut() -> Fut,
    Fut: Future<Output = ()>,
{
    let mut ticker = tokio::time::interval(every);
    ticker.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        tokio::select! {
            _ = ticker.tick() => step().await,
            _ = shutdown.changed() => return,
        }
    }
}

/// [`every`], for a task with a `name`: a step that starts later than its interval after
/// the previous one (the runtime is starved, or the previous step ran long) is logged at
/// debug level with the lag.
pub async fn named<F, Fut>(
    name: &'static str,
    every_interval: Duration,
    shutdown: watch::Receiver<bool>,
    mut step: F,
) where
    F: FnMut() -> Fut,
    Fut: Future<Output = ()>,
{
    let mut due = tokio::time::Instant::now();
    every(every_interval, shutdown, move || {
        let now = tokio::time::Instant::now();
        let lag = now.saturating_duration_since(due);
        if lag > every_interval {
            tracing::debug!(task = name, lag_seconds = lag.as_secs_f64(), "background task running late");
        }
        due = now + every_interval;
        step()
    })
    .await;
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::sync::Arc;

    use super::*;

    #[tokio::test]
    async fn steps_until_shutdown_and_then_stops() {
        let (stop, stopped) = watch::channel(false);
        let count = Arc::new(AtomicUsize::new(0));
        let counted = count.clone();
        let task = tokio::spawn(every(Duration::from_millis(5), stopped, move || {
            let counted = counted.clone();
            async move {
                counted.fetch_add(1, Ordering::SeqCst);
            }
        }));
        while count.load(Ordering::SeqCst) < 3 {
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
        stop.send(true).unwrap();
        task.await.unwrap();
        let after = count.load(Ordering::SeqCst);
        tokio::time::sleep(Duration::from_millis(30)).await;
        assert_eq!(count.load(Ordering::SeqCst), after, "no step after shutdown");
    }
}
