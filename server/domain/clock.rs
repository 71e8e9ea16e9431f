//! The time source, injectable so tests can move time forward.

use std::sync::{Arc, Mutex};

use time::OffsetDateTime;

/// Where "now" comes from.
pub trait Clock: Send + Sync + std::fmt::Debug {
    /// The current instant.
    fn now(&self) -> OffsetDateTime;
}

/// The real wall clock.
#[derive(Debug, Default, Clone, Copy)]
pub struct SystemClock;

impl Clock for SystemClock {
    fn now(&self) -> OffsetDateTime {
        OffsetDateTime::now_utc()
    }
}

/// A clock that only moves when told to (tests).
#[derive(Debug, Clone)]
pub struct ManualClock(Arc<Mutex<OffsetDateTime>>);

impl ManualClock {
    /// A clock showing `start`.
    pub fn new(start: OffsetDateTime) -> ManualClock {
        ManualClock(Arc::new(Mutex::new(start)))
    }

    /// Moves the clock forward by `by`.
    pub fn advance(&self, by: time::Duration) {
        let mut now = self.0.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        *now += by;
    }
}

impl Clock for ManualClock {
    fn now(&self) -> OffsetDateTime {
        *self.0.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
    }
}
