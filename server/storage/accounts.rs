//! The stored accounts and their API tokens (the decisions, passwords and the token
//! cache are in `crate::domain::accounts`).

use sqlx::{PgPool, Postgres, Transaction};
use time::OffsetDateTime;

use crate::domain::accounts::{AccountSummary, AuditEntryView, TokenView};

use crate::storage::notify;

/// An account row as the sign-in and the handlers read it.
#[derive(Debug, Clone, sqlx::FromRow)]
pub(crate) struct AccountRow {
    pub(crate) account_id: i64,
    pub(crate) username: String,
    pub(crate) role: String,
}

/// Inserts an account → its id (a taken name is the `account_username_key` conflict).
pub(crate) async fn insert_account(
    executor: impl sqlx::PgExecutor<'_>,
    username: &str,
    password_hash: &str,
    role: &str,
) -> sqlx::Result<i64> {
    sqlx::query_scalar(
        r#"insert into account (username, password_hash, role) values ($1, $2, $3)
           returning account_id"#,
    )
    .bind(username)
    .bind(password_hash)
    .bind(role)
    .fetch_one(executor)
    .await
}

/// The account named `username` (any case) with its password hash and whether it is
/// disabled.
pub(crate) async fn login_row(
    pool: &PgPool,
    username: &str,
) -> sqlx::Result<Option<(AccountRow, String, bool)>> {
    let row: Option<(i64, String, String, String, bool)> = sqlx::query_as(
        r#"select account_id, username, password_hash, role, disabled_at is not null from account
           where lower(username) = lower($1)"#,
    )
    .bind(username)
    .fetch_optional(pool)
    .await?;
    Ok(row.map(|(account_id, username, hash, role, disabled)| {
        (AccountRow { account_id, username, role }, hash, disabled)
    }))
}

/// The account `account_id` unless it is disabled (`RowNotFound` then, or when there is
/// none): a disabled account's session signs nobody in.
pub(crate) async fn account_by_id(
    executor: impl sqlx::PgExecutor<'_>,
    account_id: i64,
) -> sqlx::Result<AccountRow> {
    sqlx::query_as(
        r#"select account_id, username, role from account
           where account_id = $1 and disabled_at is null"#,
    )
    .bind(account_id)
    .fetch_one(executor)
    .await
}

/// The account of a cookie session signed in at `epoch`: none once a password reset moved
/// the account's epoch on (or the account was disabled).
pub(crate) async fn account_for_session(
    pool: &PgPool,
    account_id: i64,
    epoch: i32,
) -> sqlx::Result<AccountRow> {
    sqlx::query_as(
        r#"select account_id, username, role from account
           where account_id = $1 and disabled_at is null and session_epoch = $2"#,
    )
    .bind(account_id)
    .bind(epoch)
    .fetch_one(pool)
    .await
}

/// The account's session epoch (what a new cookie session holds).
pub(crate) async fn session_epoch(pool: &PgPool, account_id: i64) -> sqlx::Result<i32> {
    sqlx::query_scalar(r#"select session_epoch from account where account_id = $1"#)
        .bind(account_id)
        .fetch_one(pool)
        .await
}

/// The id of the account named `username` (any case).
pub(crate) async fn account_id_by_username(
    executor: impl sqlx::PgExecutor<'_>,
    username: &str,
) -> sqlx::Result<Option<i64>> {
    sqlx::query_scalar(r#"select account_id from account where lower(username) = lower($1)"#)
        .bind(username)
        .fetch_optional(executor)
        .await
}

/// Stores a token's digest for `account_id`, valid until `expires_at` → its id.
pub(crate) async fn insert_token(
    pool: &PgPool,
    account_id: i64,
    digest: &[u8],
    created_at: OffsetDateTime,
    expires_at: OffsetDateTime,
) -> sqlx::Result<i64> {
    sqlx::query_scalar(
        r#"insert into api_token (account_id, token_hash, created_at, expires_at) values ($1, $2, $3, $4)
           returning api_token_id"#,
    )
    .bind(account_id)
    .bind(digest)
    .bind(created_at)
    .bind(expires_at)
    .fetch_one(pool)
    .await
}

/// The enabled account whose token has `digest`, if the token has not expired at `now`,
/// with the token's expiry.
pub(crate) async fn account_for_token(
    pool: &PgPool,
    digest: &[u8],
    now: OffsetDateTime,
) -> sqlx::Result<Option<(AccountRow, Option<OffsetDateTime>)>> {
    let row: Option<(i64, String, String, Option<OffsetDateTime>)> = sqlx::query_as(
        r#"select a.account_id, a.username, a.role, t.expires_at
           from api_token t join account a using (account_id)
           where t.token_hash = $1 and a.disabled_at is null
             and (t.expires_at is null or t.expires_at > $2)"#,
    )
    .bind(digest)
    .bind(now)
    .fetch_optional(pool)
    .await?;
    Ok(row.map(|(account_id, username, role, expires_at)| {
        (AccountRow { account_id, username, role }, expires_at)
    }))
}

/// The id of the token with `digest`.
pub(crate) async fn token_id(pool: &PgPool, digest: &[u8]) -> sqlx::Result<Option<i64>> {
    sqlx::query_scalar("select api_token_id from api_token where token_hash = $1")
        .bind(digest)
        .fetch_optional(pool)
        .await
}

/// The tokens of `account_id`, newest first.
pub(crate) async fn tokens_of(pool: &PgPool, account_id: i64) -> sqlx::Result<Vec<TokenView>> {
    sqlx::query_as::<_, TokenView>(
        r#"select api_token_id as id, created_at, expires_at, false as current from api_token
           where account_id = $1 order by created_at desc, api_token_id desc"#,
    )
    .bind(account_id)
    .fetch_all(pool)
    .await
}

/// Deletes token `token_id` of `account_id` and announces its digest on
/// [`notify::TOKEN_CHANNEL`] → whether there was one.
pub(crate) async fn delete_token_of(pool: &PgPool, account_id: i64, token_id: i64) -> sqlx::Result<bool> {
    let revoked: Vec<Option<String>> = sqlx::query_scalar(
        r#"with revoked as (delete from api_token where api_token_id = $1 and account_id = $2
                            returning token_hash)
           select pg_notify($3, encode(token_hash, 'hex'))::text from revoked"#,
    )
    .bind(token_id)
    .bind(account_id)
    .bind(notify::TOKEN_CHANNEL)
    .fetch_all(pool)
    .await?;
    Ok(!revoked.is_empty())
}

/// Announces the digests of every token of `account_id` on [`notify::TOKEN_CHANNEL`], so
/// that every instance reads them again (after a change of the account's role or state)
/// → the digests.
pub(crate) async fn announce_tokens_of(
    tx: &mut Transaction<'_, Postgres>,
    account_id: i64,
) -> sqlx::Result<Vec<Vec<u8>>> {
    let digests: Vec<Vec<u8>> = sqlx::query_scalar("select token_hash from api_token where account_id = $1")
        .bind(account_id)
        .fetch_all(&mut **tx)
        .await?;
    // NOTIFY in the transaction: the instances forget the tokens only once the change is
    // committed (an administrative change is rare; moves never notify this way).
    sqlx::query("select pg_notify($1, encode(d, 'hex')) from unnest($2::bytea[]) as d")
        .bind(notify::TOKEN_CHANNEL)
        .bind(&digests)
        .execute(&mut **tx)
        .await?;
    Ok(digests)
}

/// Announces on [`notify::ACCOUNT_DISABLED_CHANNEL`] that `account_id` is disabled: in the
/// transaction that disables it, so that the instances close its sockets once it is
/// committed (rare, as the tokens' announcement).
pub(crate) async fn announce_disabled(
    tx: &mut Transaction<'_, Postgres>,
    account_id: i64,
) -> sqlx::Result<()> {
    sqlx::query("select pg_notify($1, $2)")
        .bind(notify::ACCOUNT_DISABLED_CHANNEL)
        .bind(account_id.to_string())
        .execute(&mut **tx)
        .await?;
    Ok(())
}

/// Whether the account `account_id` is disabled (or gone).
pub(crate) async fn is_disabled(pool: &PgPool, account_id: i64) -> sqlx::Result<bool> {
    let enabled: Option<bool> =
        sqlx::query_scalar("select disabled_at is null from account where account_id = $1")
            .bind(account_id)
            .fetch_optional(pool)
            .await?;
    Ok(enabled != Some(true))
}

/// Deletes the token with `digest` and announces the digest on
/// [`notify::TOKEN_CHANNEL`] in the same statement.
pub(crate) async fn delete_token(pool: &PgPool, digest: &[u8]) -> sqlx::Result<()> {
    sqlx::query(
        r#"with revoked as (delete from api_token where token_hash = $1 returning token_hash)
           select pg_notify($2, encode(token_hash, 'hex')) from revoked"#,
    )
    .bind(digest)
    .bind(notify::TOKEN_CHANNEL)
    .execute(pool)
    .await?;
    Ok(())
}

/// The role of `account_id`.
pub(crate) async fn role_of(pool: &PgPool, account_id: i64) -> sqlx::Result<String> {
    sqlx::query_scalar("select role from account where account_id = $1")
        .bind(account_id)
        .fetch_one(pool)
        .await
}

/// An account locked for an administrative change: its id, role and whether disabled.
pub(crate) async fn lock_by_username(
    tx: &mut Transaction<'_, Postgres>,
    username: &str,
) -> sqlx::Result<Option<(i64, String, bool)>> {
    sqlx::query_as(
        r#"select account_id, role, disabled_at is not null from account
           where lower(username) = lower($1) for update"#,
    )
    .bind(username)
    .fetch_optional(&mut **tx)
    .await
}

/// How many enabled admins there are besides `account_id` (their rows locked, so that two
/// admins cannot remove each other at once).
pub(crate) async fn other_admins(tx: &mut Transaction<'_, Postgres>, account_id: i64) -> sqlx::Result<i64> {
    let others: Vec<i64> = sqlx::query_scalar(
        r#"select account_id from account
           where role = 'admin' and disabled_at is null and account_id <> $1 for update"#,
    )
    .bind(account_id)
    .fetch_all(&mut **tx)
    .await?;
    Ok(others.len() as i64)
}

/// Sets the role of `account_id`.
pub(crate) async fn set_role(
    tx: &mut Transaction<'_, Postgres>,
    account_id: i64,
    role: &str,
) -> sqlx::Result<()> {
    sqlx::query("update account set role = $2 where account_id = $1")
        .bind(account_id)
        .bind(role)
        .execute(&mut **tx)
        .await?;
    Ok(())
}

/// Disables `account_id` at `at`, or enables it again (`None`).
pub(crate) async fn set_disabled(
    tx: &mut Transaction<'_, Postgres>,
    account_id: i64,
    at: Option<OffsetDateTime>,
) -> sqlx::Result<()> {
    sqlx::query("update account set disabled_at = $2 where account_id = $1")
        .bind(account_id)
        .bind(at)
        .execute(&mut **tx)
        .await?;
    Ok(())
}

/// One administrative change of an account, to record.
pub(crate) struct AccountAudit<'a> {
    pub(crate) account_id: i64,
    pub(crate) changed_by: Option<i64>,
    pub(crate) changed_at: OffsetDateTime,
    pub(crate) change: &'a str,
    pub(crate) old_value: &'a str,
    pub(crate) new_value: &'a str,
}

/// Records an administrative change in the audit log.
pub(crate) async fn insert_audit(
    tx: &mut Transaction<'_, Postgres>,
    entry: &AccountAudit<'_>,
) -> sqlx::Result<()> {
    sqlx::query(
        r#"insert into account_audit (account_id, changed_by, changed_at, change, old_value, new_value)
           values ($1, $2, $3, $4, $5, $6)"#,
    )
    .bind(entry.account_id)
    .bind(entry.changed_by)
    .bind(entry.changed_at)
    .bind(entry.change)
    .bind(entry.old_value)
    .bind(entry.new_value)
    .execute(&mut **tx)
    .await?;
    Ok(())
}

/// The audit log, newest first (at most `limit` entries).
pub(crate) async fn audit_log(pool: &PgPool, limit: i64) -> sqlx::Result<Vec<AuditEntryView>> {
    sqlx::query_as::<_, AuditEntryView>(
        r#"select a.username as account, b.username as changed_by, l.changed_at, l.change,
                  l.old_value, l.new_value
           from account_audit l join account a on a.account_id = l.account_id
           left join account b on b.account_id = l.changed_by
           order by l.changed_at desc, l.account_audit_id desc limit $1"#,
    )
    .bind(limit)
    .fetch_all(pool)
    .await
}

/// Every account by name (at most `limit`).
pub(crate) async fn list(pool: &PgPool, limit: i64) -> sqlx::Result<Vec<AccountSummary>> {
    sqlx::query_as::<_, AccountSummary>(
        r#"select username, role, disabled_at is not null as disabled, created_at from account
           order by lower(username) limit $1"#,
    )
    .bind(limit)
    .fetch_all(pool)
    .await
}
