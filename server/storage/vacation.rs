//! The stored leave periods (`vacation`) that the clocks of games count.

use sqlx::{PgPool, Postgres, Transaction};
use time::OffsetDateTime;

use crate::domain::time_control::Period;

/// The leave periods of `account_id` that end after `since`.
///
/// # Errors
/// Database failure.
pub async fn leave_after(
    executor: impl sqlx::PgExecutor<'_>,
    account_id: i64,
    since: OffsetDateTime,
) -> sqlx::Result<Vec<Period>> {
    let rows: Vec<(OffsetDateTime, OffsetDateTime)> =
        sqlx::query_as(r#"select starts_at, ends_at from vacation where account_id = $1 and ends_at > $2"#)
            .bind(account_id)
            .bind(since)
            .fetch_all(executor)
            .await?;
    Ok(rows.into_iter().map(|(starts_at, ends_at)| Period { starts_at, ends_at }).collect())
}

/// The leave periods of each of `accounts` that end after `since`, with their account.
///
/// # Errors
/// Database failure.
pub async fn leave_of_accounts(
    executor: &mut Transaction<'_, Postgres>,
    accounts: &[i64],
    since: OffsetDateTime,
) -> sqlx::Result<Vec<(i64, Period)>> {
    let rows: Vec<(i64, OffsetDateTime, OffsetDateTime)> = sqlx::query_as(
        r#"select account_id, starts_at, ends_at from vacation
           where account_id = any($1) and ends_at > $2"#,
    )
    .bind(accounts)
    .bind(since)
    .fetch_all(&mut **executor)
    .await?;
    Ok(rows
        .into_iter()
        .map(|(account, starts_at, ends_at)| (account, Period { starts_at, ends_at }))
        .collect())
}

/// The yearly leave allowance of `account_id`, in days.
///
/// # Errors
/// Unknown account, database failure.
pub async fn allowance_days(pool: &PgPool, account_id: i64) -> sqlx::Result<i32> {
    sqlx::query_scalar(r#"select vacation_days_per_year from account where account_id = $1"#)
        .bind(account_id)
        .fetch_one(pool)
        .await
}

/// The end of the leave `account_id` is on at `now`, if any.
///
/// # Errors
/// Database failure.
pub async fn on_leave_until(
    pool: &PgPool,
    account_id: i64,
    now: OffsetDateTime,
) -> sqlx::Result<Option<OffsetDateTime>> {
    sqlx::query_scalar(
        r#"select max(ends_at) from vacation where account_id = $1 and starts_at <= $2 and ends_at > $2"#,
    )
    .bind(account_id)
    .bind(now)
    .fetch_one(pool)
    .await
}

/// Stores a leave period.
///
/// # Errors
/// Database failure.
pub async fn insert_leave(pool: &PgPool, account_id: i64, period: Period) -> sqlx::Result<()> {
    sqlx::query(r#"insert into vacation (account_id, starts_at, ends_at) values ($1, $2, $3)"#)
        .bind(account_id)
        .bind(period.starts_at)
        .bind(period.ends_at)
        .execute(pool)
        .await?;
    Ok(())
}

/// Ends the leave `account_id` is on at `now` → whether there was one.
///
/// # Errors
/// Database failure.
pub async fn end_leave(pool: &PgPool, account_id: i64, now: OffsetDateTime) -> sqlx::Result<bool> {
    let ended = sqlx::query(
        r#"update vacation set ends_at = $2 where account_id = $1 and starts_at <= $2 and ends_at > $2"#,
    )
    .bind(account_id)
    .bind(now)
    .execute(pool)
    .await?;
    Ok(ended.rows_affected() > 0)
}
