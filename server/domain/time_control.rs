//! Correspondence time controls (ICCF style) and the vacation arithmetic.
//!
//! Each seat keeps its remaining time. When the seat moves, the time since its turn began
//! (less any vacation of its account) is charged, then the control adds its bonus.

use serde::{Deserialize, Serialize};
use time::{Duration, OffsetDateTime};

use super::error::{DomainError, DomainResult};

const DAY_MS: i64 = 24 * 60 * 60 * 1000;
/// Longest period any control may give, in days.
const MAX_DAYS: u32 = 365;

/// How much time the players get.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum TimeControl {
    /// `days` for every move; unused time is not saved.
    DaysPerMove {
        /// Days per move.
        days: u32,
    },
    /// `moves` moves in `days` days, unused time carried forward: every `moves` moves
    /// another `days` days are added.
    MovesInDays {
        /// Moves per period.
        moves: u32,
        /// Days per period.
        days: u32,
    },
    /// Fischer clock: `initial_days`, plus `increment_days` per move, never above `cap_days`.
    Fischer {
        /// Starting time.
        initial_days: u32,
        /// Added after each move.
        increment_days: u32,
        /// Upper bound of the remaining time.
        cap_days: u32,
    },
}

impl TimeControl {
    /// Checks the numbers.
    ///
    /// # Errors
    /// [`DomainError::Invalid`] for zero or oversized periods, or a cap below the start.
    pub fn validate(self) -> DomainResult<TimeControl> {
        let in_range = |d: u32| (1..=MAX_DAYS).contains(&d);
        let ok = match self {
            TimeControl::DaysPerMove { days } => in_range(days),
            TimeControl::MovesInDays { moves, days } => in_range(days) && (1..=200).contains(&moves),
            TimeControl::Fischer { initial_days, increment_days, cap_days } => {
                in_range(initial_days)
                    && increment_days <= MAX_DAYS
                    && in_range(cap_days)
                    && cap_days >= initial_days
            }
        };
        if ok {
            Ok(self)
        } else {
            Err(DomainError::Invalid(format!(
                "invalid time control {self:?}: periods are 1 to {MAX_DAYS} days and a cap is at least the initial time"
            )))
        }
    }

    /// Remaining time of every seat at the start, in milliseconds.
    pub fn initial_ms(self) -> i64 {
        match self {
            TimeControl::DaysPerMove { days } | TimeControl::MovesInDays { days, .. } => {
                i64::from(days) * DAY_MS
            }
            TimeControl::Fischer { initial_days, .. } => i64::from(initial_days) * DAY_MS,
        }
    }

    /// Remaining time after a move: `remaining_ms` is what was left after charging the
    /// thinking time, `moves_made` counts the seat's moves including this one.
    pub fn after_move(self, remaining_ms: i64, moves_made: i64) -> i64 {
        match self {
            TimeControl::DaysPerMove { days } => i64::from(days) * DAY_MS,
            TimeControl::MovesInDays { moves, days } => {
                if moves_made % i64::from(moves) == 0 {
                    remaining_ms + i64::from(days) * DAY_MS
                } else {
                    remaining_ms
                }
            }
            TimeControl::Fischer { increment_days, cap_days, .. } => {
                (remaining_ms + i64::from(increment_days) * DAY_MS).min(i64::from(cap_days) * DAY_MS)
            }
        }
    }
}

/// A leave period of an account: its clocks do not run inside it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Period {
    /// Start (inclusive).
    pub starts_at: OffsetDateTime,
    /// End (exclusive).
    pub ends_at: OffsetDateTime,
}

/// Time between `from` and `to` that lies outside every period (the periods may overlap).
pub fn charged_time(from: OffsetDateTime, to: OffsetDateTime, periods: &[Period]) -> Duration {
    if to <= from {
        return Duration::ZERO;
    }
    let mut paused = Duration::ZERO;
    let mut cursor = from;
    for period in merged(periods) {
        let start = period.starts_at.max(cursor);
        let end = period.ends_at.min(to);
        if end > start {
            paused += end - start;
            cursor = end;
        }
    }
    (to - from) - paused
}

/// When `remaining` of clock time, starting at `from`, runs out, skipping the periods.
pub fn deadline(from: OffsetDateTime, remaining: Duration, periods: &[Period]) -> OffsetDateTime {
    let mut cursor = from;
    let mut left = remaining.max(Duration::ZERO);
    for period in merged(periods) {
        if period.ends_at <= cursor {
            continue;
        }
        let start = period.starts_at.max(cursor);
        if start >= cursor + left {
            break;
        }
        left -= start - cursor;
        cursor = period.ends_at;
    }
    cursor + left
}

/// Sorted, non-overlapping periods.
fn merged(periods: &[Period]) -> Vec<Period> {
    let mut sorted: Vec<Period> = periods.to_vec();
    sorted.sort_by_key(|p| p.starts_at);
    let mut out: Vec<Period> = Vec::with_capacity(sorted.len());
    for period in sorted {
        match out.last_mut() {
            Some(last) if period.starts_at <= last.ends_at => {
                last.ends_at = last.ends_at.max(period.ends_at);
            }
            _ => out.push(period),
        }
    }
    out
}

/// Milliseconds as a `Duration`.
pub fn ms(value: i64) -> Duration {
    Duration::milliseconds(value)
}

#[cfg(test)]
mod tests {
    use super::*;
    use time::macros::datetime;

    const T0: OffsetDateTime = datetime!(2026-01-01 0:00 UTC);

    fn period(from_day: i64, to_day: i64) -> Period {
        Period { starts_at: T0 + Duration::days(from_day), ends_at: T0 + Duration::days(to_day) }
    }

    #[test]
    fn days_per_move_resets_to_the_full_period_after_each_move() {
        let control = TimeControl::DaysPerMove { days: 3 };
        assert_eq!(control.initial_ms(), 3 * DAY_MS);
        assert_eq!(control.after_move(DAY_MS / 2, 1), 3 * DAY_MS);
    }

    #[test]
    fn moves_in_days_carries_saved_time_forward() {
        let control = TimeControl::MovesInDays { moves: 10, days: 50 };
        assert_eq!(control.after_move(40 * DAY_MS, 9), 40 * DAY_MS, "no bonus before the 10th move");
        assert_eq!(control.after_move(40 * DAY_MS, 10), 90 * DAY_MS, "saved 40 days plus 50 new");
    }

    #[test]
    fn fischer_adds_the_increment_up_to_the_cap() {
        let control = TimeControl::Fischer { initial_days: 30, increment_days: 3, cap_days: 45 };
        assert_eq!(control.after_move(20 * DAY_MS, 1), 23 * DAY_MS);
        assert_eq!(control.after_move(44 * DAY_MS, 1), 45 * DAY_MS, "capped at 45 days");
    }

    #[test]
    fn invalid_controls_are_refused() {
        assert!(TimeControl::DaysPerMove { days: 0 }.validate().is_err());
        assert!(TimeControl::Fischer { initial_days: 30, increment_days: 1, cap_days: 10 }
            .validate()
            .is_err());
        assert!(TimeControl::MovesInDays { moves: 10, days: 50 }.validate().is_ok());
    }

    #[test]
    fn vacation_inside_the_turn_is_not_charged() {
        let charged = charged_time(T0, T0 + Duration::days(10), &[period(2, 5), period(4, 6)]);
        assert_eq!(charged, Duration::days(6), "days 2..6 are leave");
    }

    #[test]
    fn the_deadline_moves_past_vacation() {
        let d = deadline(T0, Duration::days(3), &[period(1, 5)]);
        assert_eq!(d, T0 + Duration::days(7), "1 day, then leave until day 5, then 2 days");
        let untouched = deadline(T0, Duration::days(3), &[period(4, 6)]);
        assert_eq!(untouched, T0 + Duration::days(3), "leave after the deadline changes nothing");
    }
}
