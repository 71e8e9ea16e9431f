//! The queue and the results of computer analysis (issue 41 §3, migration 20261128600001):
//! one `game_analysis` row per game; the workers of every instance claim queued rows with
//! `FOR UPDATE SKIP LOCKED` (as the mail outbox does), a claim holding until
//! `claimed_until` and extended after every position; a row whose claim ran out (its
//! worker died) is claimed again.

use serde_json::Value;
use sqlx::{PgConnection, PgPool};
use time::OffsetDateTime;

use crate::domain::error::DomainResult;

/// A game's analysis row.
#[derive(Clone, Debug, sqlx::FromRow)]
pub struct AnalysisRow {
    /// The game.
    pub game_id: i64,
    /// `queued`, `running`, `done` or `failed`.
    pub status: String,
    /// The engine's name and version, once done.
    pub engine: Option<String>,
    /// The search depth, once done.
    pub depth: Option<i32>,
    /// The plies, once done.
    pub plies: Option<Value>,
    /// Claims so far.
    pub attempts: i32,
}

/// The analysis row of `game_id`, if one was requested.
///
/// # Errors
/// Database failure.
pub async fn get(pool: &PgPool, game_id: i64) -> DomainResult<Option<AnalysisRow>> {
    Ok(sqlx::query_as(
        r#"select game_id, status, engine, depth, plies, attempts from game_analysis where game_id = $1"#,
    )
    .bind(game_id)
    .fetch_optional(pool)
    .await?)
}

/// Takes `account_id`'s lock, so that its requests are counted one after the other.
///
/// # Errors
/// Database failure.
pub async fn lock_account(tx: &mut PgConnection, account_id: i64) -> DomainResult<()> {
    sqlx::query(r#"select 1 from account where account_id = $1 for update"#)
        .bind(account_id)
        .execute(tx)
        .await?;
    Ok(())
}

/// The times of `account_id`'s requests since `since`, oldest first.
///
/// # Errors
/// Database failure.
pub async fn requested_since(
    tx: &mut PgConnection,
    account_id: i64,
    since: OffsetDateTime,
) -> DomainResult<Vec<OffsetDateTime>> {
    Ok(sqlx::query_scalar(
        r#"select requested_at from game_analysis where requested_by = $1 and requested_at > $2
           order by requested_at"#,
    )
    .bind(account_id)
    .bind(since)
    .fetch_all(tx)
    .await?)
}

/// Queues `game_id`'s analysis for `account_id`; `false` when it was requested already.
///
/// # Errors
/// Database failure.
pub async fn queue(
    tx: &mut PgConnection,
    game_id: i64,
    account_id: i64,
    now: OffsetDateTime,
) -> DomainResult<bool> {
    let done = sqlx::query(
        r#"insert into game_analysis (game_id, requested_by, requested_at) values ($1, $2, $3)
           on conflict (game_id) do nothing"#,
    )
    .bind(game_id)
    .bind(account_id)
    .bind(now)
    .execute(tx)
    .await?;
    Ok(done.rows_affected() == 1)
}

/// Claims the oldest game due at `now` (queued, or running under a claim that ran out)
/// until `until`, counting the attempt → (game, attempts with this one).
///
/// # Errors
/// Database failure.
pub async fn claim(
    pool: &PgPool,
    now: OffsetDateTime,
    until: OffsetDateTime,
) -> DomainResult<Option<(i64, i32)>> {
    Ok(sqlx::query_as(
        r#"with due as (
               select game_id from game_analysis
               where status = 'queued' or (status = 'running' and claimed_until < $1)
               order by requested_at
               limit 1
               for update skip locked
           )
           update game_analysis a set status = 'running', claimed_until = $2, attempts = a.attempts + 1
           from due where a.game_id = due.game_id
           returning a.game_id, a.attempts"#,
    )
    .bind(now)
    .bind(until)
    .fetch_optional(pool)
    .await?)
}

/// Extends a running claim until `until`; `false` when the row is no longer this claim's
/// to hold (another worker took it over after this one's claim ran out).
///
/// # Errors
/// Database failure.
pub async fn extend(pool: &PgPool, game_id: i64, attempt: i32, until: OffsetDateTime) -> DomainResult<bool> {
    let done = sqlx::query(
        r#"update game_analysis set claimed_until = $3
           where game_id = $1 and status = 'running' and attempts = $2"#,
    )
    .bind(game_id)
    .bind(attempt)
    .bind(until)
    .execute(pool)
    .await?;
    Ok(done.rows_affected() == 1)
}

/// Stores the result of the claim `attempt`.
///
/// # Errors
/// Database failure.
pub async fn finish(
    pool: &PgPool,
    game_id: i64,
    attempt: i32,
    (engine, depth, plies): (&str, i32, &Value),
    now: OffsetDateTime,
) -> DomainResult<bool> {
    let done = sqlx::query(
        r#"update game_analysis set status = 'done', claimed_until = null, engine = $3, depth = $4,
               plies = $5, last_error = null, finished_at = $6
           where game_id = $1 and status = 'running' and attempts = $2"#,
    )
    .bind(game_id)
    .bind(attempt)
    .bind(engine)
    .bind(depth)
    .bind(plies)
    .bind(now)
    .execute(pool)
    .await?;
    Ok(done.rows_affected() == 1)
}

/// Gives the claim `attempt` up: `failed` with `error` when `give_up`, else queued again.
///
/// # Errors
/// Database failure.
pub async fn release(
    pool: &PgPool,
    game_id: i64,
    attempt: i32,
    error: Option<&str>,
    give_up: bool,
    now: OffsetDateTime,
) -> DomainResult<()> {
    sqlx::query(
        r#"update game_analysis set status = case when $4 then 'failed' else 'queued' end,
               claimed_until = null, last_error = coalesce($3, last_error),
               finished_at = case when $4 then $5 end
           where game_id = $1 and status = 'running' and attempts = $2"#,
    )
    .bind(game_id)
    .bind(attempt)
    .bind(error)
    .bind(give_up)
    .bind(now)
    .execute(pool)
    .await?;
    Ok(())
}
