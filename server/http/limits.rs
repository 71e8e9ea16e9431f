//! Limits against password guessing, sign-up floods and exhausting the server by hashing:
//!
//! - [`LoginLimiter`]: failed logins per username and address (the lockout), per address
//!   (one password tried on many accounts), each in a sliding window, and a ceiling per
//!   username whatever the addresses, over a longer window and high enough that strangers
//!   guessing from a few addresses cannot lock the owner out (OWASP ASVS 2.2.1: at most
//!   100 failures an hour on one account). An attempt is counted *before* its password is
//!   checked, under one lock, so that parallel attempts cannot all pass the check before
//!   any is recorded; a successful one is taken back.
//! - [`SignupLimiter`]: sign-ups per client address in a sliding window.
//! - [`PasswordHashing`]: at most a few argon2id hashes at once (each takes 19 MiB and a
//!   core for a while), so that a burst of logins or sign-ups costs bounded memory and
//!   leaves the other requests their share of the CPU.
//!
//! Only failures count against the login limits (many people behind one address log in
//! successfully); `governor`'s quotas have no way to give a cell back, hence this small
//! window counter ([`Windows`]).

use std::collections::{HashMap, VecDeque};
use std::hash::Hash;
use std::net::{IpAddr, Ipv6Addr};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use axum::http::StatusCode;
use tokio::sync::Semaphore;

use super::error::ApiError;
use crate::config::AuthSettings;
use crate::domain::DomainError;

/// At most `limit` events in any `window`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Quota {
    limit: u32,
    window: Duration,
}

impl Quota {
    fn new(limit: u32, window_seconds: u64) -> Quota {
        Quota { limit, window: Duration::from_secs(window_seconds.max(1)) }
    }
}

/// How many keys a counter holds before it drops the expired ones.
const PRUNE_ABOVE: usize = 10_000;

/// Sliding-window counts of events per key: for each key, the times of its counted events
/// still in its window, oldest first.
#[derive(Debug)]
struct Windows<K> {
    times: Mutex<HashMap<K, VecDeque<Instant>>>,
    /// The longest window of any quota: a key whose last event is older counts nothing.
    longest: Duration,
}

impl<K: Clone + Eq + Hash> Windows<K> {
    fn new(quotas: &[Quota]) -> Windows<K> {
        let longest = quotas.iter().map(|quota| quota.window).max().unwrap_or(Duration::ZERO);
        Windows { times: Mutex::new(HashMap::new()), longest }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<K, VecDeque<Instant>>> {
        // A panic while holding the lock leaves counts behind, never a broken map.
        self.times.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// Counts an event at `now` against every key under its quota, or against none of
    /// them when one quota is used up: then the wait until that quota has room again.
    fn count(&self, keys: &[(K, Quota)], now: Instant) -> Result<(), Duration> {
        let mut times = self.lock();
        if times.len() > PRUNE_ABOVE {
            times.retain(|_, at| at.back().is_some_and(|&t| now.duration_since(t) < self.longest));
        }
        let mut wait = Duration::ZERO;
        for (key, quota) in keys {
            let limit = quota.limit as usize;
            let Some(at) = times.get_mut(key) else {
                if limit == 0 {
                    wait = wait.max(quota.window);
                }
                continue;
            };
            while at.front().is_some_and(|&t| now.duration_since(t) >= quota.window) {
                at.pop_front();
            }
            if at.len() >= limit {
                // The event that makes room is the one `len - limit` from the oldest.
                let freeing = at.get(at.len() - limit).copied().unwrap_or(now);
                wait = wait.max(quota.window.saturating_sub(now.duration_since(freeing)));
            }
        }
        if !wait.is_zero() {
            return Err(wait);
        }
        for (key, _) in keys {
            times.entry(key.clone()).or_default().push_back(now);
        }
        Ok(())
    }

    /// Takes back the event of `key` counted at `at`, or with `None` every event of `key`.
    fn take_back(&self, key: &K, at: Option<Instant>) {
        let mut times = self.lock();
        if let Some(counted) = times.get_mut(key) {
            match at {
                None => counted.clear(),
                Some(at) => {
                    if let Some(position) = counted.iter().rposition(|&t| t == at) {
                        counted.remove(position);
                    }
                }
            }
            if counted.is_empty() {
                times.remove(key);
            }
        }
    }
}

/// Whole seconds of `wait`, rounded up (a `Retry-After`).
fn seconds(wait: Duration) -> u64 {
    wait.as_secs() + u64::from(wait.subsec_nanos() > 0)
}

/// What a login attempt is counted against.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
enum LoginKey {
    /// One username from one address: the lockout.
    Pair(String, IpAddr),
    /// Every username from one address (IPv6: its /64 network).
    Address(IpAddr),
    /// One username from every address: the ceiling.
    Username(String),
}

/// Counts failed logins; see the module documentation.
#[derive(Debug)]
pub struct LoginLimiter {
    per_pair: Quota,
    per_address: Quota,
    per_username: Quota,
    windows: Windows<LoginKey>,
}

/// A login attempt counted against its limits: it stays counted (as a failure) unless
/// [`LoginAttempt::succeeded`] takes it back.
#[derive(Debug)]
#[must_use = "an attempt is a failure unless it is marked as succeeded"]
pub struct LoginAttempt<'a> {
    limiter: &'a LoginLimiter,
    keys: [LoginKey; 3],
    at: Instant,
}

impl LoginAttempt<'_> {
    /// The password was right: the attempt does not count, and the earlier failures of
    /// this username from this address are forgotten.
    pub fn succeeded(self) {
        for key in &self.keys {
            let at = match key {
                LoginKey::Pair(..) => None,
                _ => Some(self.at),
            };
            self.limiter.windows.take_back(key, at);
        }
    }
}

impl LoginLimiter {
    /// The limits of `settings`.
    pub fn new(settings: &AuthSettings) -> LoginLimiter {
        let per_pair = Quota::new(settings.login_attempts, settings.login_window_seconds);
        let per_address = Quota::new(settings.login_attempts_per_address, settings.login_window_seconds);
        let per_username =
            Quota::new(settings.login_attempts_per_username, settings.login_username_window_seconds);
        LoginLimiter {
            per_pair,
            per_address,
            per_username,
            windows: Windows::new(&[per_pair, per_address, per_username]),
        }
    }

    /// Counts an attempt to log in as `username` from `address`, or refuses it when one
    /// of its limits is used up.
    ///
    /// # Errors
    /// 429 with `Retry-After`: the seconds until the oldest counted attempt of the
    /// exhausted limit leaves the window.
    pub fn begin(&self, username: &str, address: IpAddr) -> Result<LoginAttempt<'_>, ApiError> {
        let username = username.to_lowercase();
        let keys = [
            LoginKey::Pair(username.clone(), address),
            LoginKey::Address(address_group(address)),
            LoginKey::Username(username),
        ];
        let now = Instant::now();
        let quotas = [
            (keys[0].clone(), self.per_pair),
            (keys[1].clone(), self.per_address),
            (keys[2].clone(), self.per_username),
        ];
        self.windows.count(&quotas, now).map_err(|wait| {
            ApiError::too_many_requests("too many failed logins; try again later", seconds(wait))
        })?;
        Ok(LoginAttempt { limiter: self, keys, at: now })
    }
}

/// Counts sign-ups per client address (IPv6: its /64 network): each one hashes a password
/// and makes an account, so one client may make only a few an hour.
#[derive(Debug)]
pub struct SignupLimiter {
    quota: Quota,
    windows: Windows<IpAddr>,
}

impl SignupLimiter {
    /// The limit of `settings` (`signups_per_address` in `signup_window_seconds`).
    pub fn new(settings: &AuthSettings) -> SignupLimiter {
        let quota = Quota::new(settings.signups_per_address, settings.signup_window_seconds);
        SignupLimiter { quota, windows: Windows::new(&[quota]) }
    }

    /// Counts a sign-up from `address`, or refuses it when the address has used its
    /// sign-ups.
    ///
    /// # Errors
    /// 429 with `Retry-After`.
    pub fn begin(&self, address: IpAddr) -> Result<(), ApiError> {
        self.windows.count(&[(address_group(address), self.quota)], Instant::now()).map_err(|wait| {
            ApiError::coded(
                StatusCode::TOO_MANY_REQUESTS,
                "signup.rate-limited",
                "too many accounts were made from this address; try again later",
            )
            .with_retry_after(seconds(wait))
        })
    }
}

/// The address a limit counts by: IPv4 addresses one by one, IPv6 by /64 network (one
/// subscriber usually holds a whole /64).
pub fn address_group(address: IpAddr) -> IpAddr {
    match address {
        IpAddr::V4(_) => address,
        IpAddr::V6(v6) => match v6.to_ipv4_mapped() {
            Some(v4) => IpAddr::V4(v4),
            None => {
                let network = u128::from(v6) & !((1u128 << 64) - 1);
                IpAddr::V6(Ipv6Addr::from(network))
            }
        },
    }
}

/// Memory one argon2id hash takes with the parameters in use (argon2's defaults,
/// m = 19456 KiB).
const HASH_MEMORY_MIB: u32 = 19;
/// How long a request waits for its turn to hash before it is answered 503.
const HASH_QUEUE_WAIT: Duration = Duration::from_secs(10);

/// Bounds the password hashes computed at once; see the module documentation.
#[derive(Debug)]
pub struct PasswordHashing {
    permits: Arc<Semaphore>,
    bound: usize,
    counts: Arc<HashCounts>,
}

/// How many hashes run now, the most that ever ran at once, and how many ran in all.
#[derive(Debug, Default)]
struct HashCounts {
    running: AtomicUsize,
    peak: AtomicUsize,
    started: AtomicUsize,
}

/// One hash counted as running until dropped (also when it panics).
struct Running(Arc<HashCounts>);

impl Running {
    fn start(counts: &Arc<HashCounts>) -> Running {
        counts.started.fetch_add(1, Ordering::SeqCst);
        let running = counts.running.fetch_add(1, Ordering::SeqCst) + 1;
        counts.peak.fetch_max(running, Ordering::SeqCst);
        Running(Arc::clone(counts))
    }
}

impl Drop for Running {
    fn drop(&mut self) {
        self.0.running.fetch_sub(1, Ordering::SeqCst);
    }
}

impl PasswordHashing {
    /// As many hashes at once as fit in `memory_mib` (at least one).
    pub fn new(memory_mib: u32) -> PasswordHashing {
        let bound = (memory_mib / HASH_MEMORY_MIB).max(1) as usize;
        PasswordHashing { permits: Arc::new(Semaphore::new(bound)), bound, counts: Arc::default() }
    }

    /// How many hashes may run at once.
    pub fn bound(&self) -> usize {
        self.bound
    }

    /// The most hashes that ever ran at once.
    pub fn peak(&self) -> usize {
        self.counts.peak.load(Ordering::SeqCst)
    }

    /// How many works (hashes or checks of a password) were given a turn so far.
    pub fn started(&self) -> usize {
        self.counts.started.load(Ordering::SeqCst)
    }

    /// Runs `work` (which hashes or checks a password) when its turn comes. The work runs
    /// as a task of its own that keeps the turn until it is done: a client that goes away
    /// meanwhile does not free the turn while its hash still runs on a blocking thread.
    ///
    /// # Errors
    /// 503 with `Retry-After` when no turn came within a few seconds; 500 if the work
    /// panicked.
    pub async fn run<F, T>(&self, work: F) -> Result<T, ApiError>
    where
        F: std::future::Future<Output = T> + Send + 'static,
        T: Send + 'static,
    {
        let permit = tokio::time::timeout(HASH_QUEUE_WAIT, Arc::clone(&self.permits).acquire_owned())
            .await
            .ok()
            .and_then(Result::ok)
            .ok_or_else(|| {
                ApiError::new(StatusCode::SERVICE_UNAVAILABLE, "too many logins at once; try again shortly")
                    .with_retry_after(1)
            })?;
        let counts = Arc::clone(&self.counts);
        let task = tokio::spawn(async move {
            let _running = Running::start(&counts);
            let output = work.await;
            drop(permit);
            output
        });
        task.await.map_err(|error| {
            DomainError::Internal(anyhow::anyhow!("password hashing failed: {error}")).into()
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn limiter(per_pair: u32, per_address: u32, per_username: u32) -> LoginLimiter {
        LoginLimiter::new(&AuthSettings {
            login_attempts: per_pair,
            login_attempts_per_address: per_address,
            login_attempts_per_username: per_username,
            ..AuthSettings::default()
        })
    }

    const HOME: IpAddr = IpAddr::V4(std::net::Ipv4Addr::new(192, 0, 2, 1));
    const AWAY: IpAddr = IpAddr::V4(std::net::Ipv4Addr::new(198, 51, 100, 7));

    #[test]
    fn failures_count_and_successes_are_taken_back() {
        let limiter = limiter(3, 100, 100);
        for _ in 0..2 {
            drop(limiter.begin("alice", HOME).expect("allowed"));
        }
        limiter.begin("alice", HOME).expect("the third").succeeded();
        for _ in 0..3 {
            drop(limiter.begin("ALICE", HOME).expect("a success forgets the failures"));
        }
        let refused = limiter.begin("alice", HOME).expect_err("the fourth failure in the window");
        assert_eq!(refused.status(), StatusCode::TOO_MANY_REQUESTS);
        assert!(refused.retry_after().is_some_and(|s| (1..=60).contains(&s)), "{:?}", refused.retry_after());
        limiter.begin("alice", AWAY).expect("another address has its own count").succeeded();
    }

    #[test]
    fn one_address_trying_many_usernames_is_limited() {
        let limiter = limiter(5, 4, 100);
        for name in ["a1", "a2", "a3", "a4"] {
            drop(limiter.begin(name, HOME).expect("allowed"));
        }
        assert!(limiter.begin("a5", HOME).is_err(), "the address has used its failures");
        drop(limiter.begin("a5", AWAY).expect("another address is not"));
    }

    #[test]
    fn one_username_tried_from_many_addresses_is_limited() {
        let limiter = limiter(5, 100, 2);
        drop(limiter.begin("bob", HOME).expect("allowed"));
        drop(limiter.begin("bob", AWAY).expect("allowed"));
        let third = IpAddr::V4(std::net::Ipv4Addr::new(203, 0, 113, 9));
        assert!(limiter.begin("bob", third).is_err(), "the username has used its failures");
    }

    #[test]
    fn ipv6_addresses_count_by_network() {
        let a: IpAddr = "2001:db8:1:2:aaaa::1".parse().unwrap();
        let b: IpAddr = "2001:db8:1:2:bbbb::2".parse().unwrap();
        let c: IpAddr = "2001:db8:1:3::1".parse().unwrap();
        assert_eq!(address_group(a), address_group(b));
        assert_ne!(address_group(a), address_group(c));
        let mapped: IpAddr = "::ffff:192.0.2.1".parse().unwrap();
        assert_eq!(address_group(mapped), HOME);
    }

    #[tokio::test]
    async fn hashes_run_at_most_the_bound_at_once() {
        let hashing = Arc::new(PasswordHashing::new(40));
        assert_eq!(hashing.bound(), 2);
        let tasks: Vec<_> = (0..8)
            .map(|_| {
                let hashing = Arc::clone(&hashing);
                tokio::spawn(async move {
                    hashing.run(tokio::time::sleep(Duration::from_millis(20))).await.expect("a turn")
                })
            })
            .collect();
        for task in tasks {
            task.await.unwrap();
        }
        assert_eq!(hashing.peak(), 2);
    }

    #[tokio::test]
    async fn a_caller_giving_up_does_not_free_the_turn_of_a_hash_still_running() {
        let hashing = Arc::new(PasswordHashing::new(19));
        let (release, released) = tokio::sync::oneshot::channel::<()>();
        // The first caller gives up at once; its work goes on holding the only turn.
        let first = tokio::time::timeout(
            Duration::from_millis(20),
            hashing.run(async move {
                let _ = released.await;
            }),
        );
        assert!(first.await.is_err(), "the caller gave up");
        let second = tokio::time::timeout(Duration::from_millis(100), hashing.run(async {})).await;
        assert!(second.is_err(), "no second turn while the first work runs");
        release.send(()).unwrap();
        hashing.run(async {}).await.expect("a turn once the first work is done");
        assert_eq!(hashing.peak(), 1);
    }
}
