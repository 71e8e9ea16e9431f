//! The stored leave periods (`vacation`) that the clocks of games count.

use sqlx::{Postgres, Transaction};
use time::OffsetDateTime;

use crate::domain::time_control::Period;

/// The leave periods of `account_id` that end after `since`.
///
/// # Errors
/// Database failure.
pub async fn leave_after(
    executor: &mut Transaction<'_, Postgres>,
    account_id: i64,
    since: OffsetDateTime,
) -> sqlx::Result<Vec<Period>> {
    let rows: Vec<(OffsetDateTime, OffsetDateTime)> =
        sqlx::query_as(r#"select starts_at, ends_at from vacation where account_id = $1 and ends_at > $2"#)
            .bind(account_id)
            .bind(since)
            .fetch_all(&mut **executor)
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
