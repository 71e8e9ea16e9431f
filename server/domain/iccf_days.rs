//! ICCF day accounting (#17 §4): a correspondence clock that charges whole calendar days
//! in one time zone (the event's, or the server's `clocks.time_zone`). The day a move is
//! received does not count: a move made on the day of receipt costs nothing, one made the
//! next day costs one day, and so on. Leave is counted in whole days too: every local
//! date a leave period touches (the days begun) is a leave day, not charged to any game,
//! and taken from the allowance of the year it falls in.

use std::fmt;

use jiff::civil::Date;
use jiff::tz::TimeZone;
use jiff::Timestamp;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use time::OffsetDateTime;

use super::error::{DomainError, DomainResult};
use super::time_control::Period;

/// Longest IANA zone name kept (the longest in the database has 32 characters).
const ZONE_NAME_BYTES: usize = 40;

/// An IANA time zone name the bundled database knows (`Europe/Rome`, `UTC`), kept inline
/// so that a time control stays `Copy`.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct ZoneName {
    len: u8,
    bytes: [u8; ZONE_NAME_BYTES],
}

impl ZoneName {
    /// UTC.
    pub const UTC: ZoneName = {
        let mut bytes = [0u8; ZONE_NAME_BYTES];
        bytes[0] = b'U';
        bytes[1] = b'T';
        bytes[2] = b'C';
        ZoneName { len: 3, bytes }
    };

    /// Reads a zone name.
    ///
    /// # Errors
    /// A name the time zone database does not know (422).
    pub fn parse(name: &str) -> DomainResult<ZoneName> {
        let unknown =
            || DomainError::Invalid(format!("unknown time zone {name:?} (an IANA name, e.g. Europe/Rome)"));
        if name.is_empty() || name.len() > ZONE_NAME_BYTES || jiff::tz::db().get(name).is_err() {
            return Err(unknown());
        }
        let mut bytes = [0u8; ZONE_NAME_BYTES];
        bytes[..name.len()].copy_from_slice(name.as_bytes());
        Ok(ZoneName { len: name.len() as u8, bytes })
    }

    /// The name.
    pub fn as_str(&self) -> &str {
        std::str::from_utf8(&self.bytes[..usize::from(self.len)]).unwrap_or("UTC")
    }

    /// The zone's rules (UTC should the database have lost the name since it was read).
    pub fn zone(&self) -> TimeZone {
        jiff::tz::db().get(self.as_str()).unwrap_or(TimeZone::UTC)
    }
}

impl Default for ZoneName {
    fn default() -> ZoneName {
        ZoneName::UTC
    }
}

impl fmt::Debug for ZoneName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:?}", self.as_str())
    }
}

impl fmt::Display for ZoneName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl Serialize for ZoneName {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.as_str())
    }
}

impl<'de> Deserialize<'de> for ZoneName {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<ZoneName, D::Error> {
        let name = String::deserialize(deserializer)?;
        ZoneName::parse(&name).map_err(serde::de::Error::custom)
    }
}

fn timestamp(at: OffsetDateTime) -> Timestamp {
    Timestamp::new(at.unix_timestamp(), at.nanosecond() as i32).unwrap_or(Timestamp::UNIX_EPOCH)
}

fn instant(at: Timestamp) -> OffsetDateTime {
    OffsetDateTime::from_unix_timestamp_nanos(at.as_nanosecond()).unwrap_or(OffsetDateTime::UNIX_EPOCH)
}

/// The local date of `at` in `zone`.
pub fn date_of(at: OffsetDateTime, zone: &TimeZone) -> Date {
    timestamp(at).to_zoned(zone.clone()).date()
}

/// The instant `date` begins in `zone` (its first instant: a DST change at midnight
/// moves it).
pub fn start_of(date: Date, zone: &TimeZone) -> OffsetDateTime {
    match date.to_zoned(zone.clone()).and_then(|z| z.start_of_day()) {
        Ok(start) => instant(start.timestamp()),
        Err(_) => OffsetDateTime::UNIX_EPOCH,
    }
}

/// The local dates a leave period touches: from the date it starts to the date of its
/// last instant (the days begun).
fn leave_dates(period: &Period, zone: &TimeZone) -> Option<(Date, Date)> {
    if period.ends_at <= period.starts_at {
        return None;
    }
    let last = period.ends_at - time::Duration::nanoseconds(1);
    Some((date_of(period.starts_at, zone), date_of(last, zone)))
}

fn on_leave(date: Date, leave: &[(Date, Date)]) -> bool {
    leave.iter().any(|(first, last)| *first <= date && date <= *last)
}

/// Whole days charged for a move received at `received` and made at `moved`: the local
/// dates after the day of receipt up to the day of the move, less the leave days.
pub fn charged_days(
    received: OffsetDateTime,
    moved: OffsetDateTime,
    leave: &[Period],
    zone: &TimeZone,
) -> i64 {
    let first = date_of(received, zone);
    let last = date_of(moved, zone);
    let leave: Vec<(Date, Date)> = leave.iter().filter_map(|p| leave_dates(p, zone)).collect();
    let mut days = 0;
    let mut date = first;
    while date < last {
        date = date.tomorrow().unwrap_or(last);
        if !on_leave(date, &leave) {
            days += 1;
        }
    }
    days
}

/// When a player who received the move at `received` with `days` whole days left runs
/// out: the end (next local midnight) of the `days`-th day after the day of receipt not
/// on leave; with no day left, the end of the day of receipt.
pub fn deadline(received: OffsetDateTime, days: i64, leave: &[Period], zone: &TimeZone) -> OffsetDateTime {
    let leave: Vec<(Date, Date)> = leave.iter().filter_map(|p| leave_dates(p, zone)).collect();
    let mut date = date_of(received, zone);
    let mut left = days.max(0);
    // A bound on the walk: the days left and every leave day.
    for _ in 0..100_000 {
        if left == 0 {
            break;
        }
        let Ok(next) = date.tomorrow() else { break };
        date = next;
        if !on_leave(date, &leave) {
            left -= 1;
        }
    }
    start_of(date.tomorrow().unwrap_or(date), zone)
}

/// The leave days of `periods` in `year` (each period's days begun, a day touched by two
/// periods counted once): a leave over a year boundary is charged to each year apart.
pub fn leave_days_in_year(periods: &[Period], year: i16, zone: &TimeZone) -> i64 {
    let mut dates: Vec<Date> = Vec::new();
    for (first, last) in periods.iter().filter_map(|p| leave_dates(p, zone)) {
        let mut date = first;
        while date <= last {
            if date.year() == year && !dates.contains(&date) {
                dates.push(date);
            }
            let Ok(next) = date.tomorrow() else { break };
            date = next;
        }
    }
    dates.len() as i64
}

/// The leave that counts under a section's allowance of `days` days (issue 20 §3), counted
/// as the leave itself is taken (#17 §4, whole local days, the day begun counting): of the
/// periods from `from` on, in time order, each costs the dates it touches (a date touched
/// twice once); the period that uses the last allowed day is cut at the midnight after it,
/// and later leave does not stop the clock.
pub fn capped(periods: &[Period], from: OffsetDateTime, days: i64, zone: &TimeZone) -> Vec<Period> {
    let mut left = days.max(0);
    let mut counted: Option<Date> = None;
    let mut out = Vec::new();
    for period in super::time_control::merged(periods) {
        let clipped = Period { starts_at: period.starts_at.max(from), ends_at: period.ends_at };
        let Some((first, last)) = leave_dates(&clipped, zone) else { continue };
        let mut date = first;
        let mut ends_at = None;
        while date <= last {
            if counted.is_none_or(|c| date > c) {
                if left == 0 {
                    ends_at = Some(start_of(date, zone).max(clipped.starts_at));
                    break;
                }
                left -= 1;
                counted = Some(date);
            }
            let Ok(next) = date.tomorrow() else { break };
            date = next;
        }
        let ends_at = ends_at.unwrap_or(clipped.ends_at);
        if ends_at > clipped.starts_at {
            out.push(Period { starts_at: clipped.starts_at, ends_at });
        }
        if ends_at < clipped.ends_at {
            break;
        }
    }
    out
}

/// The end of a leave of `days` whole days taken at `from`: the local midnight after its
/// last day, the day it is taken counting as the first. `None` past the calendar's end
/// (jiff's spans and dates are bounded; a span that large panics if built unchecked).
pub fn leave_end(from: OffsetDateTime, days: i64, zone: &TimeZone) -> Option<OffsetDateTime> {
    let first = date_of(from, zone);
    let span = jiff::Span::new().try_days(days).ok()?;
    Some(start_of(first.checked_add(span).ok()?, zone))
}

/// The year of `at` in `zone`.
pub fn year_of(at: OffsetDateTime, zone: &TimeZone) -> i16 {
    date_of(at, zone).year()
}

/// The first instant of `year` in `zone`.
pub fn start_of_year(year: i16, zone: &TimeZone) -> OffsetDateTime {
    start_of(Date::new(year, 1, 1).unwrap_or_default(), zone)
}

#[cfg(test)]
mod tests {
    use super::*;
    use time::macros::datetime;

    fn rome() -> TimeZone {
        ZoneName::parse("Europe/Rome").unwrap().zone()
    }

    #[test]
    fn a_sections_allowance_counts_whole_days_of_leave_from_the_games_start() {
        let utc = TimeZone::UTC;
        let at = |d: i64, h: i64| {
            datetime!(2026-01-01 0:00 UTC) + time::Duration::days(d) + time::Duration::hours(h)
        };
        let leave = [
            // Begun before the game (day 0 noon): from its start on, days 0 and 1 count.
            Period { starts_at: at(-3, 12), ends_at: at(2, 0) },
            // Days 5 to 8, with an overlapping second leave (the overlap counted once).
            Period { starts_at: at(5, 9), ends_at: at(9, 0) },
            Period { starts_at: at(7, 0), ends_at: at(8, 0) },
            Period { starts_at: at(20, 0), ends_at: at(30, 0) },
        ];
        let from = at(0, 12);
        // Five days: days 0 and 1, then days 5, 6 and 7; the leave is cut at the midnight
        // after day 7, and the leave of day 20 does not count.
        assert_eq!(
            capped(&leave, from, 5, &utc),
            vec![
                Period { starts_at: from, ends_at: at(2, 0) },
                Period { starts_at: at(5, 9), ends_at: at(8, 0) }
            ]
        );
        assert!(capped(&leave, from, 0, &utc).is_empty());
        assert_eq!(capped(&leave, from, 100, &utc).len(), 3, "all of it within a large allowance");
        // Two leaves on one day pay for it once: the second day of allowance is the next date.
        let same_day = [
            Period { starts_at: at(1, 8), ends_at: at(1, 10) },
            Period { starts_at: at(1, 15), ends_at: at(3, 0) },
        ];
        assert_eq!(
            capped(&same_day, at(0, 0), 2, &utc),
            vec![same_day[0], Period { starts_at: at(1, 15), ends_at: at(3, 0) }]
        );
        assert_eq!(
            capped(&same_day, at(0, 0), 1, &utc),
            vec![same_day[0], Period { starts_at: at(1, 15), ends_at: at(2, 0) }]
        );
        // The days are the zone's: a leave from 23:30 in Rome (22:30 UTC) begins on that
        // Rome date, and one day of allowance ends at Rome's midnight, 23:00 UTC.
        let rome_leave =
            [Period { starts_at: datetime!(2026-03-01 22:30 UTC), ends_at: datetime!(2026-03-05 23:00 UTC) }];
        assert_eq!(
            capped(&rome_leave, datetime!(2026-03-01 0:00 UTC), 1, &rome()),
            vec![Period {
                starts_at: datetime!(2026-03-01 22:30 UTC),
                ends_at: datetime!(2026-03-01 23:00 UTC)
            }],
        );
        assert_eq!(
            capped(&rome_leave, datetime!(2026-03-01 0:00 UTC), 2, &utc),
            vec![Period {
                starts_at: datetime!(2026-03-01 22:30 UTC),
                ends_at: datetime!(2026-03-03 0:00 UTC)
            }],
            "in UTC the same leave's second day is March 2"
        );
    }

    #[test]
    fn the_day_of_receipt_is_free_and_each_later_day_costs_one() {
        let utc = TimeZone::UTC;
        let received = datetime!(2026-03-01 09:00 UTC);
        assert_eq!(charged_days(received, datetime!(2026-03-01 23:59:59 UTC), &[], &utc), 0, "same day");
        assert_eq!(
            charged_days(received, datetime!(2026-03-02 00:00 UTC), &[], &utc),
            1,
            "just after midnight"
        );
        assert_eq!(charged_days(received, datetime!(2026-03-02 23:59 UTC), &[], &utc), 1);
        assert_eq!(charged_days(received, datetime!(2026-03-04 00:01 UTC), &[], &utc), 3);
        // Received a second before midnight: the next day already costs one.
        let late = datetime!(2026-03-01 23:59:59 UTC);
        assert_eq!(charged_days(late, datetime!(2026-03-02 00:00:01 UTC), &[], &utc), 1);
    }

    #[test]
    fn days_are_those_of_the_zone_not_of_utc() {
        // 23:30 UTC on 1 March is already 2 March in Rome (UTC+1).
        let received = datetime!(2026-03-01 22:00 UTC); // 23:00 in Rome
        let moved = datetime!(2026-03-01 23:30 UTC); // 00:30 on the 2nd in Rome
        assert_eq!(charged_days(received, moved, &[], &TimeZone::UTC), 0);
        assert_eq!(charged_days(received, moved, &[], &rome()), 1);
        // The deadline with no day left is the next midnight in Rome.
        assert_eq!(deadline(received, 0, &[], &rome()), datetime!(2026-03-01 23:00 UTC));
    }

    #[test]
    fn a_dst_change_in_rome_neither_adds_nor_removes_a_day() {
        let rome = rome();
        // Summer time begins on 29 March 2026 (02:00 → 03:00): that day has 23 hours.
        let received = datetime!(2026-03-28 10:00 UTC);
        assert_eq!(
            charged_days(received, datetime!(2026-03-29 21:59 UTC), &[], &rome),
            1,
            "23:59 CEST of the 29th"
        );
        assert_eq!(
            charged_days(received, datetime!(2026-03-29 22:00 UTC), &[], &rome),
            2,
            "midnight of the 30th"
        );
        // Two days left: until the end of the 30th, midnight CEST = 22:00 UTC.
        assert_eq!(deadline(received, 2, &[], &rome), datetime!(2026-03-30 22:00 UTC));
        // Winter time: 25 October 2026 has 25 hours; the day still counts once.
        let received = datetime!(2026-10-24 12:00 UTC);
        assert_eq!(deadline(received, 1, &[], &rome), datetime!(2026-10-25 23:00 UTC));
        assert_eq!(charged_days(received, datetime!(2026-10-25 22:30 UTC), &[], &rome), 1);
    }

    #[test]
    fn leave_days_are_whole_days_and_not_charged() {
        let utc = TimeZone::UTC;
        // Leave from the 3rd at 15:00 to the 5th at 10:00 touches the 3rd, 4th and 5th.
        let leave =
            [Period { starts_at: datetime!(2026-03-03 15:00 UTC), ends_at: datetime!(2026-03-05 10:00 UTC) }];
        let received = datetime!(2026-03-01 12:00 UTC);
        assert_eq!(charged_days(received, datetime!(2026-03-07 08:00 UTC), &leave, &utc), 3, "2nd, 6th, 7th");
        // Three days left: the 2nd, then (after the leave) the 6th and the 7th.
        assert_eq!(deadline(received, 3, &leave, &utc), datetime!(2026-03-08 0:00 UTC));
        // A leave ending at midnight does not touch the next day.
        let to_midnight =
            [Period { starts_at: datetime!(2026-03-03 00:00 UTC), ends_at: datetime!(2026-03-04 00:00 UTC) }];
        assert_eq!(leave_days_in_year(&to_midnight, 2026, &utc), 1);
    }

    #[test]
    fn a_leave_over_the_new_year_is_charged_to_each_year_apart() {
        let utc = TimeZone::UTC;
        let leave =
            [Period { starts_at: datetime!(2026-12-30 10:00 UTC), ends_at: datetime!(2027-01-03 00:00 UTC) }];
        assert_eq!(leave_days_in_year(&leave, 2026, &utc), 2, "30 and 31 December");
        assert_eq!(leave_days_in_year(&leave, 2027, &utc), 2, "1 and 2 January");
        // In Rome the leave begins at 11:00 on the 30th and ends at 01:00 on 3 January:
        // the 3rd was begun, and counts.
        assert_eq!(leave_days_in_year(&leave, 2027, &rome()), 3);
        assert_eq!(year_of(datetime!(2026-12-31 23:30 UTC), &rome()), 2027);
        assert_eq!(start_of_year(2027, &rome()), datetime!(2026-12-31 23:00 UTC));
    }

    #[test]
    fn a_leave_of_n_days_ends_at_the_midnight_after_its_nth_day() {
        let taken = datetime!(2026-03-28 15:00 UTC);
        assert_eq!(
            leave_end(taken, 1, &TimeZone::UTC).unwrap(),
            datetime!(2026-03-29 0:00 UTC),
            "today only"
        );
        // In Rome across the change to summer time: the 29th and 30th, ending at midnight CEST.
        assert_eq!(leave_end(taken, 3, &rome()).unwrap(), datetime!(2026-03-30 22:00 UTC));
        let leave = [Period { starts_at: taken, ends_at: leave_end(taken, 3, &rome()).unwrap() }];
        assert_eq!(leave_days_in_year(&leave, 2026, &rome()), 3);
        // Ended early on its second day: two days begun.
        let ended = [Period { starts_at: taken, ends_at: datetime!(2026-03-29 08:00 UTC) }];
        assert_eq!(leave_days_in_year(&ended, 2026, &rome()), 2);
        // Past jiff's calendar: no end, not a panic (a span of 999,999,999 days panicked).
        assert_eq!(leave_end(taken, 999_999_999, &rome()), None);
        assert_eq!(leave_end(taken, i64::MAX, &TimeZone::UTC), None);
    }

    #[test]
    fn zone_names_are_checked_and_kept_inline() {
        assert_eq!(ZoneName::parse("Europe/Rome").unwrap().as_str(), "Europe/Rome");
        assert!(ZoneName::parse("Mars/Olympus").is_err());
        assert!(ZoneName::parse("").is_err());
        let json =
            serde_json::to_string(&ZoneName::parse("America/Argentina/Buenos_Aires").unwrap()).unwrap();
        assert_eq!(json, "\"America/Argentina/Buenos_Aires\"");
        assert!(serde_json::from_str::<ZoneName>("\"Nowhere\"").is_err());
        assert_eq!(ZoneName::default().as_str(), "UTC");
    }
}
