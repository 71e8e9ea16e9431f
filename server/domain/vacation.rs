//! Vacation: each account has a yearly allowance of leave days that stops its clocks in
//! every game that allows vacation.

use serde::Serialize;
use sqlx::PgPool;
use time::{Duration, OffsetDateTime};

use super::error::{DomainError, DomainResult};
use super::time_control::Period;
use super::Domain;
use crate::storage::vacation as storage;

/// An account's leave: allowance, days used this year, the current period if any.
#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct VacationStatus {
    /// Days allowed per calendar year.
    pub allowance_days: i32,
    /// Days taken (or booked) this calendar year, rounded up.
    pub used_days: i64,
    /// End of the current leave, if on leave now.
    #[serde(with = "time::serde::rfc3339::option")]
    pub on_leave_until: Option<OffsetDateTime>,
}

async fn used_this_year(pool: &PgPool, account_id: i64, now: OffsetDateTime) -> DomainResult<Duration> {
    let year_start = now
        .replace_date(
            time::Date::from_calendar_date(now.year(), time::Month::January, 1)
                .map_err(|e| DomainError::Internal(e.into()))?,
        )
        .replace_time(time::Time::MIDNIGHT);
    let periods = storage::leave_after(pool, account_id, year_start).await?;
    Ok(periods.into_iter().map(|p| p.ends_at - p.starts_at.max(year_start)).sum())
}

/// The account's leave status.
///
/// # Errors
/// Database failure.
pub async fn status(domain: &Domain, account_id: i64) -> DomainResult<VacationStatus> {
    let now = domain.clock.now();
    let allowance_days = storage::allowance_days(&domain.pool, account_id).await?;
    let used = used_this_year(&domain.pool, account_id, now).await?;
    let on_leave_until = storage::on_leave_until(&domain.pool, account_id, now).await?;
    let used_days = (used.whole_seconds() + 86_399) / 86_400;
    Ok(VacationStatus { allowance_days, used_days, on_leave_until })
}

/// Starts `days` days of leave now.
///
/// # Errors
/// Already on leave (409), or more days than the allowance left this year (422).
pub async fn start(domain: &Domain, account_id: i64, days: u32) -> DomainResult<VacationStatus> {
    let now = domain.clock.now();
    if days == 0 {
        return Err(DomainError::Invalid("a leave lasts at least one day".to_owned()));
    }
    let current = status(domain, account_id).await?;
    if current.on_leave_until.is_some() {
        return Err(DomainError::Conflict("you are already on leave".to_owned()));
    }
    let used = used_this_year(&domain.pool, account_id, now).await?;
    let wanted = Duration::days(i64::from(days));
    if used + wanted > Duration::days(i64::from(current.allowance_days)) {
        return Err(DomainError::Invalid(format!(
            "only {} of {} leave days are left this year",
            (Duration::days(i64::from(current.allowance_days)) - used).whole_days().max(0),
            current.allowance_days
        )));
    }
    storage::insert_leave(&domain.pool, account_id, Period { starts_at: now, ends_at: now + wanted }).await?;
    super::games::refresh_deadlines(domain, account_id).await?;
    status(domain, account_id).await
}

/// Ends the current leave now (the unused days return to the allowance) and brings the
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
