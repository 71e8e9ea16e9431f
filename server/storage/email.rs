//! The account's e-mail address and the password resets (#17 §1).

use sqlx::{PgConnection, PgPool};
use time::OffsetDateTime;

use crate::domain::error::DomainResult;

/// An account's address as its owner (and an admin) sees it.
#[derive(Clone, Debug, sqlx::FromRow)]
pub struct AddressRow {
    /// The address, if any.
    pub email: Option<String>,
    /// When it was verified (`None`: not yet).
    pub email_verified_at: Option<OffsetDateTime>,
}

/// The address of `account_id`.
///
/// # Errors
/// Database failure (or no such account).
pub async fn address(pool: &PgPool, account_id: i64) -> DomainResult<AddressRow> {
    Ok(sqlx::query_as(r#"select email, email_verified_at from account where account_id = $1"#)
        .bind(account_id)
        .fetch_one(pool)
        .await?)
}

/// The address of `account_id`, its row locked until the transaction ends: one account's
/// changes of address (and the count of its verification mails) go one at a time.
///
/// # Errors
/// Database failure (or no such account).
pub async fn lock_address(connection: &mut PgConnection, account_id: i64) -> DomainResult<AddressRow> {
    Ok(sqlx::query_as(
        r#"select email, email_verified_at from account where account_id = $1 for no key update"#,
    )
    .bind(account_id)
    .fetch_one(connection)
    .await?)
}

/// Locks the mails to `email` (any case) until the transaction ends, so that two requests
/// naming one address are counted one after the other (a transaction-scoped advisory
/// lock: the two-key form, in a namespace of its own).
///
/// # Errors
/// Database failure.
pub async fn lock_mails_to(connection: &mut PgConnection, email: &str) -> DomainResult<()> {
    sqlx::query(r#"select pg_advisory_xact_lock(1835100525, hashtext(lower($1)))"#)
        .bind(email)
        .execute(connection)
        .await?;
    Ok(())
}

/// When the `n`th newest account mail of `kind` queued for `account_id` since `since` was
/// queued, if there are `n` of them (`n` at least 1).
///
/// # Errors
/// Database failure.
pub async fn nth_mail_of_account(
    connection: &mut PgConnection,
    kind: &str,
    account_id: i64,
    since: OffsetDateTime,
    n: u32,
) -> DomainResult<Option<OffsetDateTime>> {
    // Index `notification_account_mail_of_account` (migration 20261128100001).
    Ok(sqlx::query_scalar(
        r#"select created_at from notification
           where account_id = $1 and to_address is not null and kind = $2 and created_at > $3
           order by created_at desc offset $4 limit 1"#,
    )
    .bind(account_id)
    .bind(kind)
    .bind(since)
    .bind(i64::from(n.max(1)) - 1)
    .fetch_optional(connection)
    .await?)
}

/// When the `n`th newest account mail of `kind` queued for the address `email` (any
/// case, whichever account) since `since` was queued, if there are `n` of them.
///
/// # Errors
/// Database failure.
pub async fn nth_mail_to_address(
    connection: &mut PgConnection,
    kind: &str,
    email: &str,
    since: OffsetDateTime,
    n: u32,
) -> DomainResult<Option<OffsetDateTime>> {
    // Index `notification_account_mail_to_address` (migration 20261128100002).
    Ok(sqlx::query_scalar(
        r#"select created_at from notification
           where lower(to_address) = lower($1) and kind = $2 and created_at > $3
           order by created_at desc offset $4 limit 1"#,
    )
    .bind(email)
    .bind(kind)
    .bind(since)
    .bind(i64::from(n.max(1)) - 1)
    .fetch_optional(connection)
    .await?)
}

/// Sets (or with `None` removes) the address of `account_id`, unverified.
///
/// # Errors
/// Database failure.
pub async fn set_address(
    connection: &mut PgConnection,
    account_id: i64,
    email: Option<&str>,
) -> DomainResult<()> {
    sqlx::query(r#"update account set email = $2, email_verified_at = null where account_id = $1"#)
        .bind(account_id)
        .bind(email)
        .execute(connection)
        .await?;
    Ok(())
}

/// Marks `email` verified on `account_id` at `now`, if it is still the account's address;
/// returns whether it was.
///
/// # Errors
/// Database failure.
pub async fn mark_verified(
    pool: &PgPool,
    account_id: i64,
    email: &str,
    now: OffsetDateTime,
) -> DomainResult<bool> {
    let changed = sqlx::query(
        r#"update account set email_verified_at = coalesce(email_verified_at, $3)
           where account_id = $1 and lower(email) = lower($2)"#,
    )
    .bind(account_id)
    .bind(email)
    .bind(now)
    .execute(pool)
    .await?;
    Ok(changed.rows_affected() == 1)
}

/// The accounts whose verified address is `email` (any case): (id, address as stored).
///
/// # Errors
/// Database failure.
pub async fn accounts_of_address(
    connection: &mut PgConnection,
    email: &str,
) -> DomainResult<Vec<(i64, String)>> {
    Ok(sqlx::query_as(
        r#"select account_id, email from account
           where lower(email) = lower($1) and email_verified_at is not null"#,
    )
    .bind(email)
    .fetch_all(connection)
    .await?)
}

/// Stores a reset token's digest for `account_id`.
///
/// # Errors
/// Database failure.
pub async fn insert_reset(
    connection: &mut PgConnection,
    account_id: i64,
    token_hash: &[u8],
    now: OffsetDateTime,
    expires_at: OffsetDateTime,
) -> DomainResult<()> {
    sqlx::query(
        r#"insert into password_reset (account_id, token_hash, created_at, expires_at)
           values ($1, $2, $3, $4)"#,
    )
    .bind(account_id)
    .bind(token_hash)
    .bind(now)
    .bind(expires_at)
    .execute(connection)
    .await?;
    Ok(())
}

/// Uses the reset whose token digest is `token_hash`, if unused and unexpired at `now`:
/// marks it used (once: a second use finds it used) and returns its account.
///
/// # Errors
/// Database failure.
pub async fn use_reset(
    connection: &mut PgConnection,
    token_hash: &[u8],
    now: OffsetDateTime,
) -> DomainResult<Option<i64>> {
    Ok(sqlx::query_scalar(
        r#"update password_reset set used_at = $2
           where token_hash = $1 and used_at is null and expires_at > $2
           returning account_id"#,
    )
    .bind(token_hash)
    .bind(now)
    .fetch_optional(connection)
    .await?)
}

/// Whether a reset whose token digest is `token_hash` is unused and unexpired at `now`
/// (read only: [`use_reset`] uses it).
///
/// # Errors
/// Database failure.
pub async fn reset_is_usable(pool: &PgPool, token_hash: &[u8], now: OffsetDateTime) -> DomainResult<bool> {
    Ok(sqlx::query_scalar(
        r#"select exists (select 1 from password_reset
                          where token_hash = $1 and used_at is null and expires_at > $2)"#,
    )
    .bind(token_hash)
    .bind(now)
    .fetch_one(pool)
    .await?)
}

/// Sets the password hash of `account_id`, ends every other reset of the account and
/// revokes its bearer tokens (announced on `channel` so every instance forgets them).
///
/// # Errors
/// Database failure.
pub async fn replace_password(
    connection: &mut PgConnection,
    account_id: i64,
    hash: &str,
    now: OffsetDateTime,
    channel: &str,
) -> DomainResult<()> {
    // The new epoch ends every cookie session of the account (migration 20261127100002).
    sqlx::query(
        r#"update account set password_hash = $2, session_epoch = session_epoch + 1 where account_id = $1"#,
    )
    .bind(account_id)
    .bind(hash)
    .execute(&mut *connection)
    .await?;
    sqlx::query(r#"update password_reset set used_at = $2 where account_id = $1 and used_at is null"#)
        .bind(account_id)
        .bind(now)
        .execute(&mut *connection)
        .await?;
    sqlx::query(
        r#"with revoked as (delete from api_token where account_id = $1 returning token_hash)
           select pg_notify($2, encode(token_hash, 'hex')) from revoked"#,
    )
    .bind(account_id)
    .bind(channel)
    .execute(&mut *connection)
    .await?;
    Ok(())
}
