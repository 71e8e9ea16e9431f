//! The administration of accounts (issue 20 §1): admins grant and revoke roles and
//! disable accounts; every change is recorded in the audit log (who, when, what), which
//! admins read. The command line acts as nobody (`changed_by` empty).

use serde::{Deserialize, Serialize};
use sqlx::PgPool;
use time::OffsetDateTime;

use super::accounts::{Account, Role};
use super::error::{DomainError, DomainResult};
use super::Domain;
use crate::storage::accounts::{self as storage, AccountAudit};

/// An account in the admins' list.
#[derive(Debug, Serialize, sqlx::FromRow, utoipa::ToSchema)]
pub struct AccountSummary {
    /// Username.
    pub username: String,
    /// `player`, `director`, `global-director` or `admin`.
    pub role: String,
    /// Whether it is disabled.
    pub disabled: bool,
    /// When it was created.
    #[serde(with = "time::serde::rfc3339")]
    pub created_at: OffsetDateTime,
}

/// One administrative change of an account.
#[derive(Debug, Serialize, sqlx::FromRow, utoipa::ToSchema)]
pub struct AuditEntryView {
    /// The account changed.
    pub account: String,
    /// The admin who changed it (`null`: the command line).
    pub changed_by: Option<String>,
    /// When.
    #[serde(with = "time::serde::rfc3339")]
    pub changed_at: OffsetDateTime,
    /// What: `role` or `disabled`.
    pub change: String,
    /// The value before (a role; `true`/`false`).
    pub old_value: String,
    /// The value after.
    pub new_value: String,
}

/// What an admin changes on an account; absent fields stay as they are.
#[derive(Debug, Default, Deserialize, utoipa::ToSchema)]
pub struct AccountPatch {
    /// The new role.
    pub role: Option<Role>,
    /// Disable (`true`) or enable again (`false`).
    pub disabled: Option<bool>,
}

fn ensure_admin(actor: Option<&Account>) -> DomainResult<()> {
    match actor {
        Some(account) if account.role != Role::Admin => {
            Err(DomainError::Forbidden("only admins manage accounts".to_owned()))
        }
        _ => Ok(()),
    }
}

/// Changes an account's role and state (`actor`: the admin; `None`: the command line),
/// each change recorded in the audit log, and makes every instance read the account's
/// tokens again. Returns the account as listed.
///
/// # Errors
/// Not an admin (403), unknown account (404), taking the admin role from, or disabling,
/// the last enabled admin, or an admin disabling themself (409).
pub async fn update_account(
    domain: &Domain,
    actor: Option<&Account>,
    username: &str,
    patch: &AccountPatch,
) -> DomainResult<AccountSummary> {
    let (account_id, summary) = change(&domain.pool, actor, username, patch, domain.clock.now()).await?;
    // This instance forgets the tokens at once, the others when the announcement arrives.
    domain.tokens.forget_account(account_id);
    Ok(summary)
}

/// The role change of `tavoliere admin set-role` (no server needed: the running
/// instances hear of it by the tokens' announcement).
///
/// # Errors
/// Unknown account (404), the last admin's role (409).
pub async fn set_role_by_command(pool: &PgPool, username: &str, role: Role) -> DomainResult<AccountSummary> {
    let patch = AccountPatch { role: Some(role), disabled: None };
    Ok(change(pool, None, username, &patch, OffsetDateTime::now_utc()).await?.1)
}

async fn change(
    pool: &PgPool,
    actor: Option<&Account>,
    username: &str,
    patch: &AccountPatch,
    now: OffsetDateTime,
) -> DomainResult<(i64, AccountSummary)> {
    ensure_admin(actor)?;
    let mut tx = pool.begin().await?;
    let (account_id, old_role, was_disabled) = storage::lock_by_username(&mut tx, username)
        .await?
        .ok_or_else(|| DomainError::NotFound(format!("no account named {username}")))?;
    let old_role = Role::from_db(&old_role);
    let new_role = patch.role.unwrap_or(old_role);
    let disabled = patch.disabled.unwrap_or(was_disabled);
    if disabled && actor.is_some_and(|a| a.id == account_id) {
        return Err(DomainError::Conflict("an admin cannot disable their own account".to_owned()));
    }
    let stays_admin = new_role == Role::Admin && !disabled;
    if old_role == Role::Admin
        && !was_disabled
        && !stays_admin
        && storage::other_admins(&mut tx, account_id).await? == 0
    {
        return Err(DomainError::Conflict(format!("{username} is the last admin: make another admin first")));
    }
    let record = |change, old: &'static str, new: &'static str| AccountAudit {
        account_id,
        changed_by: actor.map(|a| a.id),
        changed_at: now,
        change,
        old_value: old,
        new_value: new,
    };
    if new_role != old_role {
        storage::set_role(&mut tx, account_id, new_role.as_str()).await?;
        storage::insert_audit(&mut tx, &record("role", old_role.as_str(), new_role.as_str())).await?;
    }
    if disabled != was_disabled {
        storage::set_disabled(&mut tx, account_id, disabled.then_some(now)).await?;
        let text = |b: bool| if b { "true" } else { "false" };
        storage::insert_audit(&mut tx, &record("disabled", text(was_disabled), text(disabled))).await?;
        if disabled {
            // Every instance closes the account's open live sockets (`live::accounts`).
            storage::announce_disabled(&mut tx, account_id).await?;
        }
    }
    storage::announce_tokens_of(&mut tx, account_id).await?;
    tx.commit().await?;
    let listed = storage::list(pool, i64::MAX).await?;
    let summary = listed
        .into_iter()
        .find(|a| a.username.eq_ignore_ascii_case(username))
        .ok_or_else(|| DomainError::NotFound(format!("no account named {username}")))?;
    Ok((account_id, summary))
}

/// Every account by name (admins only).
///
/// # Errors
/// Not an admin (403).
pub async fn accounts(domain: &Domain, actor: &Account) -> DomainResult<Vec<AccountSummary>> {
    ensure_admin(Some(actor))?;
    Ok(storage::list(&domain.pool, 10_000).await?)
}

/// The audit log of administrative changes, newest first (admins only).
///
/// # Errors
/// Not an admin (403).
pub async fn audit_log(domain: &Domain, actor: &Account) -> DomainResult<Vec<AuditEntryView>> {
    ensure_admin(Some(actor))?;
    Ok(storage::audit_log(&domain.pool, 1_000).await?)
}
