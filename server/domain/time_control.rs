//! Correspondence time controls (ICCF style) and the vacation arithmetic.
//!
//! Each seat keeps its remaining time. When the seat moves, the time since its turn began
//! (less any vacation of its account) is charged, then the control adds its bonus.

use serde::{Deserialize, Serialize};
use time::{Duration, OffsetDateTime};

use super::error::{DomainError, DomainResult, ErrorKind};
use super::iccf_days::{self, ZoneName};

const DAY_MS: i64 = 24 * 60 * 60 * 1000;
const SECOND_MS: i64 = 1000;
/// Longest base time of a live control, in seconds (3 hours).
const MAX_LIVE_SECONDS: u32 = 3 * 60 * 60;
/// Longest period any control may give, in days.
const MAX_DAYS: u32 = 365;

/// How much time the players get.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum TimeControl {
    /// `days` for every move; unused time is not saved.
    DaysPerMove {
        /// Days per move.
        days: u32,
        /// How the time is charged: `milliseconds` (the default: the time taken) or
        /// `iccf-days` (whole days, the day of receipt free, #17 §4).
        #[serde(default, skip_serializing_if = "Accounting::is_milliseconds")]
        accounting: Accounting,
        /// With `iccf-days`: the IANA time zone whose days count (the event's); absent,
        /// the server's (`clocks.time_zone`), written into the game when it starts.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[schema(value_type = Option<String>)]
        time_zone: Option<ZoneName>,
    },
    /// `moves` moves in `days` days, unused time carried forward: every `moves` moves
    /// another `days` days are added.
    MovesInDays {
        /// Moves per period.
        moves: u32,
        /// Days per period.
        days: u32,
        /// How the time is charged: `milliseconds` (the default: the time taken) or
        /// `iccf-days` (whole days, the day of receipt free, #17 §4).
        #[serde(default, skip_serializing_if = "Accounting::is_milliseconds")]
        accounting: Accounting,
        /// With `iccf-days`: the IANA time zone whose days count (the event's); absent,
        /// the server's (`clocks.time_zone`), written into the game when it starts.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[schema(value_type = Option<String>)]
        time_zone: Option<ZoneName>,
    },
    /// Fischer clock: `initial_days`, plus `increment_days` per move, never above `cap_days`.
    Fischer {
        /// Starting time.
        initial_days: u32,
        /// Added after each move.
        increment_days: u32,
        /// Upper bound of the remaining time.
        cap_days: u32,
        /// How the time is charged: `milliseconds` (the default: the time taken) or
        /// `iccf-days` (whole days, the day of receipt free, #17 §4).
        #[serde(default, skip_serializing_if = "Accounting::is_milliseconds")]
        accounting: Accounting,
        /// With `iccf-days`: the IANA time zone whose days count (the event's); absent,
        /// the server's (`clocks.time_zone`), written into the game when it starts.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[schema(value_type = Option<String>)]
        time_zone: Option<ZoneName>,
    },
    /// Live Fischer clock: `base_seconds`, plus `increment_seconds` after each move.
    /// Played over WebSocket; the server flags to the millisecond (see `server/live`).
    LiveFischer {
        /// Starting time in seconds.
        base_seconds: u32,
        /// Added after each move, in seconds.
        increment_seconds: u32,
    },
    /// Live byoyomi (the usual shogi control): `base_seconds` of main time, then
    /// `periods` periods of `period_seconds` each. A move made inside a period keeps it
    /// (the next move again has the whole period); a period that runs out is lost and the
    /// next one starts; the player loses when the last one runs out.
    Byoyomi {
        /// Main time in seconds.
        base_seconds: u32,
        /// Length of one period in seconds.
        period_seconds: u32,
        /// Number of periods.
        periods: u32,
    },
}

/// How a correspondence clock charges the time a move took (#17 §4).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "kebab-case")]
pub enum Accounting {
    /// The time taken, to the millisecond (leave excluded).
    #[default]
    Milliseconds,
    /// Whole calendar days as ICCF counts them: the day of receipt is free, each later
    /// day costs one, leave days cost nothing.
    IccfDays,
}

impl Accounting {
    fn is_milliseconds(&self) -> bool {
        *self == Accounting::Milliseconds
    }
}

impl TimeControl {
    /// `days` per move, charged by the millisecond.
    pub const fn days_per_move(days: u32) -> TimeControl {
        TimeControl::DaysPerMove { days, accounting: Accounting::Milliseconds, time_zone: None }
    }

    /// `moves` in `days`, charged by the millisecond.
    pub const fn moves_in_days(moves: u32, days: u32) -> TimeControl {
        TimeControl::MovesInDays { moves, days, accounting: Accounting::Milliseconds, time_zone: None }
    }

    /// A correspondence Fischer clock, charged by the millisecond.
    pub const fn fischer(initial_days: u32, increment_days: u32, cap_days: u32) -> TimeControl {
        TimeControl::Fischer {
            initial_days,
            increment_days,
            cap_days,
            accounting: Accounting::Milliseconds,
            time_zone: None,
        }
    }

    /// The zone whose whole days this control charges, `None` for the millisecond
    /// accounting (and live controls).
    pub fn iccf_zone(self) -> Option<ZoneName> {
        match self {
            TimeControl::DaysPerMove { accounting: Accounting::IccfDays, time_zone, .. }
            | TimeControl::MovesInDays { accounting: Accounting::IccfDays, time_zone, .. }
            | TimeControl::Fischer { accounting: Accounting::IccfDays, time_zone, .. } => {
                Some(time_zone.unwrap_or_default())
            }
            _ => None,
        }
    }

    /// The zone an ICCF-days control names itself (an event's), if any.
    pub fn event_zone(self) -> Option<ZoneName> {
        match self {
            TimeControl::DaysPerMove { time_zone, .. }
            | TimeControl::MovesInDays { time_zone, .. }
            | TimeControl::Fischer { time_zone, .. } => time_zone,
            _ => None,
        }
    }

    /// The control of a game starting now: ICCF days without a zone of the event's
    /// count the server's (`clocks.time_zone`), kept with the game from then on.
    pub fn with_zone(self, server: ZoneName) -> TimeControl {
        let mut control = self;
        if let TimeControl::DaysPerMove { accounting: Accounting::IccfDays, time_zone, .. }
        | TimeControl::MovesInDays { accounting: Accounting::IccfDays, time_zone, .. }
        | TimeControl::Fischer { accounting: Accounting::IccfDays, time_zone, .. } = &mut control
        {
            time_zone.get_or_insert(server);
        }
        control
    }

    /// The time charged for a move received at `from` and made at `to`, leave excluded:
    /// to the millisecond, or whole days (ICCF).
    pub fn charged(self, from: OffsetDateTime, to: OffsetDateTime, periods: &[Period]) -> Duration {
        match self.iccf_zone() {
            None => charged_time(from, to, periods),
            Some(zone) => Duration::days(iccf_days::charged_days(from, to, periods, &zone.zone())),
        }
    }

    /// When `remaining` runs out for a player whose turn began at `from`, leave skipped:
    /// to the millisecond, or at the end of the last whole day left (ICCF).
    pub fn deadline(self, from: OffsetDateTime, remaining: Duration, periods: &[Period]) -> OffsetDateTime {
        match self.iccf_zone() {
            None => deadline(from, remaining, periods),
            Some(zone) => iccf_days::deadline(from, remaining.whole_days(), periods, &zone.zone()),
        }
    }

    /// Checks the numbers.
    ///
    /// # Errors
    /// `time-control.invalid` (422) for zero or oversized periods, or a cap below the start.
    pub fn validate(self) -> DomainResult<TimeControl> {
        let in_range = |d: u32| (1..=MAX_DAYS).contains(&d);
        // Each refusal says what the limits of that control are (issue 23 §4: a sentence,
        // never the Rust value).
        let refusal = match self {
            TimeControl::DaysPerMove { days, .. } => (!in_range(days))
                .then(|| format!("A move may take 1 to {MAX_DAYS} days, not {days}.")),
            TimeControl::MovesInDays { moves, days, .. } => (!in_range(days) || !(1..=200).contains(&moves))
                .then(|| {
                    format!("A period is 1 to 200 moves in 1 to {MAX_DAYS} days, not {moves} moves in {days} days.")
                }),
            TimeControl::Fischer { initial_days, increment_days, cap_days, .. } => {
                (!in_range(initial_days) || increment_days > MAX_DAYS || !in_range(cap_days) || cap_days < initial_days)
                    .then(|| {
                        format!(
                            "A Fischer clock starts with 1 to {MAX_DAYS} days, adds at most {MAX_DAYS} days a move \
                             and is capped at 1 to {MAX_DAYS} days, no less than the start; not {initial_days} \
                             days plus {increment_days} capped at {cap_days}."
                        )
                    })
            }
            TimeControl::LiveFischer { base_seconds, increment_seconds } => {
                (!(1..=MAX_LIVE_SECONDS).contains(&base_seconds) || increment_seconds > 600).then(|| {
                    format!(
                        "A live clock starts with 1 second to 3 hours and adds at most 600 seconds a move; \
                         not {base_seconds} s plus {increment_seconds} s."
                    )
                })
            }
            TimeControl::Byoyomi { base_seconds, period_seconds, periods } => (base_seconds > MAX_LIVE_SECONDS
                || !(1..=600).contains(&period_seconds)
                || !(1..=10).contains(&periods))
            .then(|| {
                format!(
                    "Byoyomi has at most 3 hours of main time and 1 to 10 periods of 1 to 600 seconds; \
                     not {base_seconds} s and {periods} periods of {period_seconds} s."
                )
            }),
        };
        match refusal {
            None => Ok(self),
            Some(detail) => Err(DomainError::coded(ErrorKind::Invalid, "time-control.invalid", detail)),
        }
    }

    /// Remaining time of every seat at the start, in milliseconds.
    pub fn initial_ms(self) -> i64 {
        match self {
            TimeControl::DaysPerMove { days, .. } | TimeControl::MovesInDays { days, .. } => {
                i64::from(days) * DAY_MS
            }
            TimeControl::Fischer { initial_days, .. } => i64::from(initial_days) * DAY_MS,
            TimeControl::LiveFischer { base_seconds, .. } => i64::from(base_seconds) * SECOND_MS,
            // The periods are part of the remaining time: see `after_move`.
            TimeControl::Byoyomi { base_seconds, period_seconds, periods } => {
                (i64::from(base_seconds) + i64::from(period_seconds) * i64::from(periods)) * SECOND_MS
            }
        }
    }

    /// Whether this is a live control (seconds, flagged by the live clock task).
    pub fn is_live(self) -> bool {
        matches!(self, TimeControl::LiveFischer { .. } | TimeControl::Byoyomi { .. })
    }

    /// Remaining time after a move: `remaining_ms` is what was left after charging the
    /// thinking time, `moves_made` counts the seat's moves including this one.
    pub fn after_move(self, remaining_ms: i64, moves_made: i64) -> i64 {
        match self {
            TimeControl::DaysPerMove { days, .. } => i64::from(days) * DAY_MS,
            TimeControl::MovesInDays { moves, days, .. } => {
                if moves_made % i64::from(moves) == 0 {
                    remaining_ms + i64::from(days) * DAY_MS
                } else {
                    remaining_ms
                }
            }
            TimeControl::Fischer { increment_days, cap_days, .. } => {
                (remaining_ms + i64::from(increment_days) * DAY_MS).min(i64::from(cap_days) * DAY_MS)
            }
            TimeControl::LiveFischer { increment_seconds, .. } => {
                remaining_ms + i64::from(increment_seconds) * SECOND_MS
            }
            // The remaining time is main time + the periods left. Once inside the periods,
            // a move restores the current period: round up to a whole number of periods
            // (a period not fully used is kept, a used-up one stays lost).
            TimeControl::Byoyomi { period_seconds, periods, .. } => {
                let period = i64::from(period_seconds) * SECOND_MS;
                if remaining_ms < period * i64::from(periods) {
                    (remaining_ms + period - 1) / period * period
                } else {
                    remaining_ms
                }
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
pub(crate) fn merged(periods: &[Period]) -> Vec<Period> {
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
        let control = TimeControl::days_per_move(3);
        assert_eq!(control.initial_ms(), 3 * DAY_MS);
        assert_eq!(control.after_move(DAY_MS / 2, 1), 3 * DAY_MS);
    }

    #[test]
    fn moves_in_days_carries_saved_time_forward() {
        let control = TimeControl::moves_in_days(10, 50);
        assert_eq!(control.after_move(40 * DAY_MS, 9), 40 * DAY_MS, "no bonus before the 10th move");
        assert_eq!(control.after_move(40 * DAY_MS, 10), 90 * DAY_MS, "saved 40 days plus 50 new");
    }

    #[test]
    fn fischer_adds_the_increment_up_to_the_cap() {
        let control = TimeControl::fischer(30, 3, 45);
        assert_eq!(control.after_move(20 * DAY_MS, 1), 23 * DAY_MS);
        assert_eq!(control.after_move(44 * DAY_MS, 1), 45 * DAY_MS, "capped at 45 days");
    }

    #[test]
    fn live_fischer_adds_the_increment_in_seconds() {
        let control = TimeControl::LiveFischer { base_seconds: 180, increment_seconds: 2 };
        assert_eq!(control.initial_ms(), 180_000);
        assert_eq!(control.after_move(170_500, 1), 172_500);
        assert!(control.is_live());
    }

    #[test]
    fn byoyomi_keeps_a_period_used_in_part_and_loses_a_used_up_one() {
        let control = TimeControl::Byoyomi { base_seconds: 60, period_seconds: 30, periods: 3 };
        assert_eq!(control.initial_ms(), 150_000, "main time and three periods");
        assert_eq!(control.after_move(120_000, 1), 120_000, "in main time nothing is added");
        assert_eq!(control.after_move(80_000, 2), 90_000, "main time gone: three whole periods");
        assert_eq!(control.after_move(61_000, 3), 90_000, "a period used in part is restored");
        assert_eq!(control.after_move(59_000, 4), 60_000, "a period ran out: two are left");
        assert_eq!(control.after_move(1, 5), 30_000, "the last period is restored");
    }

    #[test]
    fn invalid_controls_are_refused() {
        assert!(TimeControl::LiveFischer { base_seconds: 0, increment_seconds: 1 }.validate().is_err());
        assert!(TimeControl::Byoyomi { base_seconds: 0, period_seconds: 10, periods: 0 }.validate().is_err());
        assert!(TimeControl::days_per_move(0).validate().is_err());
        assert!(TimeControl::fischer(30, 1, 10).validate().is_err());
        assert!(TimeControl::moves_in_days(10, 50).validate().is_ok());
    }

    #[test]
    fn a_refused_control_is_a_sentence_with_a_code_not_the_rust_value() {
        // Issue 23 §4: the detail read `invalid time control DaysPerMove { days: 0 }: …`.
        let refused = TimeControl::days_per_move(0).validate().unwrap_err();
        assert_eq!(refused.code(), "time-control.invalid");
        assert_eq!(refused.to_string(), "A move may take 1 to 365 days, not 0.");
        for control in [
            TimeControl::moves_in_days(0, 5),
            TimeControl::fischer(30, 1, 10),
            TimeControl::LiveFischer { base_seconds: 0, increment_seconds: 1 },
            TimeControl::Byoyomi { base_seconds: 0, period_seconds: 10, periods: 0 },
        ] {
            let detail = control.validate().unwrap_err().to_string();
            assert!(!detail.contains('{') && !detail.contains("Days") && detail.ends_with('.'), "{detail}");
        }
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
