//! Costly rules work off the async workers (issue 36 §3): judging a start position someone
//! supplied (a Flickering chess start's mate search), replaying an imported record,
//! pairing a Swiss round. Such work runs on tokio's blocking threads, at most
//! [`RulesWork::bound`] jobs at once, so the few async workers that answer every other
//! request (`/readyz`, moves, pages) are never held by it; the others wait their turn.
//!
//! An ordinary move stays on the async worker: its rules work is a lookup in the game
//! cache and one move played, and a thread hop would cost it more than it spares.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;

use tokio::sync::Semaphore;

use super::error::{DomainError, DomainResult, ErrorKind};

/// How long a job waits for its turn before the request is answered 503.
const QUEUE_WAIT: Duration = Duration::from_secs(10);

/// The bounded pool of costly rules work; see the module documentation.
#[derive(Debug)]
pub struct RulesWork {
    permits: Arc<Semaphore>,
    bound: usize,
    counts: Arc<Counts>,
}

/// Jobs running and waiting now, and the most that ever ran at once.
#[derive(Debug, Default)]
struct Counts {
    running: AtomicUsize,
    waiting: AtomicUsize,
    peak: AtomicUsize,
}

/// A job counted in one of the counts until dropped (also when the job panics or its
/// caller goes away).
struct Counted<'a> {
    count: &'a AtomicUsize,
}

impl<'a> Counted<'a> {
    fn new(count: &'a AtomicUsize) -> (Counted<'a>, usize) {
        let now = count.fetch_add(1, Ordering::SeqCst) + 1;
        (Counted { count }, now)
    }
}

impl Drop for Counted<'_> {
    fn drop(&mut self) {
        self.count.fetch_sub(1, Ordering::SeqCst);
    }
}

impl Default for RulesWork {
    /// One job less than the machine has cores (at least one): a core stays for the async
    /// workers whatever the rules work costs.
    fn default() -> RulesWork {
        let cores = std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get);
        RulesWork::new(cores.saturating_sub(1))
    }
}

impl RulesWork {
    /// A pool running at most `bound` jobs at once (at least one).
    pub fn new(bound: usize) -> RulesWork {
        let bound = bound.max(1);
        RulesWork { permits: Arc::new(Semaphore::new(bound)), bound, counts: Arc::default() }
    }

    /// How many jobs may run at once.
    pub fn bound(&self) -> usize {
        self.bound
    }

    /// How many jobs run now.
    pub fn running(&self) -> usize {
        self.counts.running.load(Ordering::SeqCst)
    }

    /// How many jobs wait for their turn now.
    pub fn waiting(&self) -> usize {
        self.counts.waiting.load(Ordering::SeqCst)
    }

    /// The most jobs that ever ran at once.
    pub fn peak(&self) -> usize {
        self.counts.peak.load(Ordering::SeqCst)
    }

    /// Runs `work` on a blocking thread when its turn comes. The job keeps its turn until
    /// it is done, even if the caller goes away meanwhile (the thread cannot be stopped).
    /// A panic of the job is the caller's panic (answered 500 by the catch-panic layer).
    ///
    /// # Errors
    /// 503 (`busy`) when no turn came within [`QUEUE_WAIT`].
    pub async fn run<F, T>(&self, work: F) -> DomainResult<T>
    where
        F: FnOnce() -> T + Send + 'static,
        T: Send + 'static,
    {
        let permit = {
            let _waiting = Counted::new(&self.counts.waiting);
            tokio::time::timeout(QUEUE_WAIT, Arc::clone(&self.permits).acquire_owned()).await
        };
        let Ok(Ok(permit)) = permit else {
            return Err(DomainError::coded(
                ErrorKind::Unavailable,
                "busy",
                "The server is busy checking other positions and records; try again in a few seconds.",
            ));
        };
        let counts = Arc::clone(&self.counts);
        let job = tokio::task::spawn_blocking(move || {
            let (running, now) = Counted::new(&counts.running);
            counts.peak.fetch_max(now, Ordering::SeqCst);
            let output = work();
            // Counted out before the turn goes to the next job, so the count never passes
            // the bound (on a panic too: the body's guard drops before the captured permit).
            drop(running);
            drop(permit);
            output
        });
        match job.await {
            Ok(output) => Ok(output),
            Err(error) if error.is_panic() => std::panic::resume_unwind(error.into_panic()),
            Err(error) => Err(DomainError::Internal(anyhow::anyhow!("rules work stopped: {error}"))),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn jobs_run_at_most_the_bound_at_once_and_the_others_wait() {
        let work = Arc::new(RulesWork::new(2));
        let (release, released) = tokio::sync::watch::channel(false);
        let jobs: Vec<_> = (0..6)
            .map(|_| {
                let work = Arc::clone(&work);
                let mut released = released.clone();
                tokio::spawn(async move {
                    work.run(move || {
                        // Holds its thread until released: the others must queue.
                        while !*released.borrow_and_update() {
                            std::thread::sleep(Duration::from_millis(1));
                        }
                    })
                    .await
                })
            })
            .collect();
        while work.running() < 2 || work.waiting() < 4 {
            tokio::task::yield_now().await;
        }
        assert_eq!((work.running(), work.waiting()), (2, 4));
        release.send(true).unwrap();
        for job in jobs {
            job.await.unwrap().expect("a turn");
        }
        assert_eq!(work.peak(), 2);
        assert_eq!((work.running(), work.waiting()), (0, 0));
    }

    #[tokio::test]
    async fn a_panicking_job_panics_its_caller_and_frees_its_turn() {
        let work = Arc::new(RulesWork::new(1));
        let caller = tokio::spawn({
            let work = Arc::clone(&work);
            async move { work.run(|| panic!("a defect in the rules")).await }
        });
        assert!(caller.await.expect_err("the caller panicked").is_panic());
        assert_eq!(work.run(|| 7).await.unwrap(), 7, "the turn was given back");
    }
}
