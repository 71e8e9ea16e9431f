//! Vacation: each account has a yearly allowance of leave days that stops its clocks in
//! every game that allows vacation.

use serde::Serialize;
use time::{Duration, OffsetDateTime};

use super::error::{DomainError, DomainResult};
use super::iccf_days;
use super::time_control::Period;
use super::Domain;
use crate::storage::vacation as storage;

/// An account's leave: allowance, days used this year, the current period if any.
#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct VacationStatus {
    /// Days allowed per calendar year.
    pub allowance_days: i32,
    /// Days taken (or booked) this calendar year: whole days of the server's time zone,
    /// each day a leave touched counting.
    pub used_days: i64,
    /// End of the current leave, if on leave now.
    #[serde(with = "time::serde::rfc3339::option")]
    pub on_leave_until: Option<OffsetDateTime>,
}

/// The leave days `account_id` used (or booked) in `year`: whole local days of the
/// server's zone, each day a leave begun counting (#17 §4).
async fn used_in_year(domain: &Domain, account_id: i64, year: i16) -> DomainResult<i64> {
    let zone = domain.time_zone.zone();
    let periods =
        storage::leave_after(&domain.pool, account_id, iccf_days::start_of_year(year, &zone)).await?;
    Ok(iccf_days::leave_days_in_year(&periods, year, &zone))
}

/// The account's leave status.
///
/// # Errors
/// Database failure.
pub async fn status(domain: &Domain, account_id: i64) -> DomainResult<VacationStatus> {
    let now = domain.clock.now();
    let allowance_days = storage::allowance_days(&domain.pool, account_id).await?;
    let used_days =
        used_in_year(domain, account_id, iccf_days::year_of(now, &domain.time_zone.zone())).await?;
    let on_leave_until = storage::on_leave_until(&domain.pool, account_id, now).await?;
    Ok(VacationStatus { allowance_days, used_days, on_leave_until })
}

/// The longest leave one request may start: a year (an account's yearly allowance is at
/// most 366 days, the database's `account_vacation_days_check`).
pub const MAX_LEAVE_DAYS: u32 = 366;

/// Starts `days` whole days of leave now: today is the first, the leave ends at the
/// local midnight after the last (the server's zone, `clocks.time_zone`). Each year's
/// days come out of that year's allowance (#17 §4: a leave over the new year is charged
/// to each year apart).
///
/// # Errors
/// Already on leave (409), more days than [`MAX_LEAVE_DAYS`] or than the allowance left
/// in a year (422).
pub async fn start(domain: &Domain, account_id: i64, days: u32) -> DomainResult<VacationStatus> {
    let now = domain.clock.now();
    if days == 0 {
        return Err(DomainError::Invalid("a leave lasts at least one day".to_owned()));
    }
    if days > MAX_LEAVE_DAYS {
        return Err(DomainError::Invalid(format!("a leave lasts at most {MAX_LEAVE_DAYS} days")));
    }
    let current = status(domain, account_id).await?;
    if current.on_leave_until.is_some() {
        return Err(DomainError::Conflict("you are already on leave".to_owned()));
    }
    let zone = domain.time_zone.zone();
    let ends_at = iccf_days::leave_end(now, i64::from(days), &zone)
        .ok_or_else(|| DomainError::Invalid(format!("a leave of {days} days ends past the calendar")))?;
    let leave = Period { starts_at: now, ends_at };
    let last_year = iccf_days::year_of(leave.ends_at - Duration::nanoseconds(1), &zone);
    for year in iccf_days::year_of(now, &zone)..=last_year {
        let used = used_in_year(domain, account_id, year).await?;
        let wanted = iccf_days::leave_days_in_year(&[leave], year, &zone);
        if used + wanted > i64::from(current.allowance_days) {
            return Err(DomainError::Invalid(format!(
                "only {} of {} leave days are left in {year}",
                (i64::from(current.allowance_days) - used).max(0),
                current.allowance_days
            )));
        }
    }
    storage::insert_leave(&domain.pool, account_id, leave).await?;
    super::games::refresh_deadlines(domain, account_id).await?;
    status(domain, account_id).await
}

/// Ends the current leave now (the days not begun return to the allowance; the days
/// begun stay charged, #17 §4) and brings the
/// stored deadlines of the account's games forward.
///
/// # Errors
/// Not on leave (409).
pub async fn end(domain: &Domain, account_id: i64) -> DomainResult<VacationStatus> {
    let now = domain.clock.now();
    if !storage::end_leave(&domain.pool, account_id, now).await? {
        return Err(DomainError::Conflict("you are not on leave".to_owned()));
    }
    super::games::refresh_deadlines(domain, account_id).await?;
    status(domain, account_id).await
}
