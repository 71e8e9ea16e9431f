//! An account's e-mail address (#17 §1): optional, changeable, verified by a signed
//! expiring link before anything but the verification is sent to it; never shown to other
//! users. Password resets by mail: a single-use token, stored as its SHA-256, expiring.

use std::str::FromStr;

use rand::RngCore;
use secrecy::SecretString;
use serde_json::json;
use sha2::{Digest, Sha256};
use sqlx::PgConnection;
use time::OffsetDateTime;

use super::accounts::{self, Account, Role, Username};
use super::error::{DomainError, DomainResult};
use super::notifications::Kind;
use super::Domain;
use crate::config::MailSettings;
use crate::mail::sender::VERIFY_HOURS;
use crate::mail::Links;
use crate::storage::{accounts as accounts_rows, email as rows, notifications, notify};

/// How long a password reset link works.
pub const RESET_MINUTES: i64 = 60;

/// The limits on account mails (issue 36 §2): verification mails per account, and
/// verification and reset mails (each kind) per address mailed, in a sliding window.
#[derive(Clone, Copy, Debug)]
pub struct MailQuota {
    per_account: u32,
    per_address: u32,
    window: time::Duration,
}

impl MailQuota {
    /// The limits of `[mail]` (`verification_mails_per_account`, `_per_address`,
    /// `verification_window_seconds`).
    pub fn of(settings: &MailSettings) -> MailQuota {
        let seconds = i64::try_from(settings.verification_window_seconds.max(1)).unwrap_or(i64::MAX);
        MailQuota {
            per_account: settings.verification_mails_per_account.max(1),
            per_address: settings.verification_mails_per_address.max(1),
            window: time::Duration::seconds(seconds),
        }
    }
}

/// Refuses a mail of `kind` to `email` (asked by `account_id`, when an account's own
/// limit applies) when the account or the address has had its quota of them in the
/// window: 429 with the seconds until one of them leaves it. The refusal is the same
/// whichever limit is used up, and whether or not an account has the address. Takes the
/// address's lock, so that parallel requests are counted one after the other.
async fn check_quota(
    tx: &mut PgConnection,
    quota: MailQuota,
    kind: Kind,
    account_id: Option<i64>,
    email: &str,
    now: OffsetDateTime,
) -> DomainResult<()> {
    rows::lock_mails_to(tx, email).await?;
    let since = now - quota.window;
    let mut oldest_counted =
        rows::nth_mail_to_address(tx, kind.as_str(), email, since, quota.per_address).await?;
    if let Some(account_id) = account_id {
        let of_account =
            rows::nth_mail_of_account(tx, kind.as_str(), account_id, since, quota.per_account).await?;
        oldest_counted = oldest_counted.max(of_account);
    }
    match oldest_counted {
        None => Ok(()),
        Some(at) => {
            let wait = (at + quota.window - now).whole_seconds().max(1);
            Err(DomainError::Limited {
                code: "email.too-many-mails",
                detail: format!(
                    "Too many confirmation mails were asked for this account or this address: \
                     at most {} an hour. Try again in {} minutes.",
                    quota.per_account.min(quota.per_address),
                    (wait + 59) / 60
                ),
                retry_after: u64::try_from(wait).unwrap_or(1),
            })
        }
    }
}

/// The address of an account as its owner and admins see it.
#[derive(Clone, Debug, serde::Serialize, utoipa::ToSchema)]
pub struct Address {
    /// The address (`null`: none).
    pub email: Option<String>,
    /// Whether it is verified (mails other than the verification go only to a verified
    /// address).
    pub email_verified: bool,
}

/// Reads a mail address: one `@`, no spaces, at most 254 characters (RFC 5321), and an
/// address the mail library accepts.
///
/// # Errors
/// [`DomainError::Invalid`] saying what is wrong.
pub fn parse_address(text: &str) -> DomainResult<String> {
    let text = text.trim();
    if text.chars().count() > 254 || lettre::Address::from_str(text).is_err() || !text.contains('.') {
        return Err(DomainError::coded(
            super::ErrorKind::Invalid,
            "email.invalid",
            "This is not an e-mail address (name@example.org).",
        ));
    }
    Ok(text.to_owned())
}

/// The address of `account_id`.
///
/// # Errors
/// Database failure.
pub async fn address(domain: &Domain, account_id: i64) -> DomainResult<Address> {
    let row = rows::address(&domain.pool, account_id).await?;
    Ok(Address { email_verified: row.email.is_some() && row.email_verified_at.is_some(), email: row.email })
}

/// Sets the address of `account_id` (`None` or empty: removes it) and, in the same
/// transaction, queues the verification mail to it. Setting the address it already has
/// changes nothing (a verified address stays verified; an unverified one gets a new
/// verification mail).
///
/// # Errors
/// An address that does not parse (422); the account or the address has had its
/// verification mails for the hour (429 `email.too-many-mails`, nothing changed);
/// database failure.
pub async fn set_address(
    domain: &Domain,
    quota: MailQuota,
    account_id: i64,
    email: Option<&str>,
) -> DomainResult<Address> {
    let email = match email.map(str::trim) {
        None | Some("") => None,
        Some(text) => Some(parse_address(text)?),
    };
    let mut tx = domain.pool.begin().await?;
    let current = rows::lock_address(&mut tx, account_id).await?;
    let same = matches!((&current.email, &email), (Some(a), Some(b)) if a.eq_ignore_ascii_case(b));
    if same && current.email_verified_at.is_some() {
        drop(tx);
        return address(domain, account_id).await;
    }
    rows::set_address(&mut tx, account_id, email.as_deref()).await?;
    if let Some(email) = &email {
        queue_verification(&mut tx, domain, quota, account_id, email).await?;
    }
    tx.commit().await?;
    address(domain, account_id).await
}

/// Queues the verification mail of `email` for `account_id` under the mail limits.
async fn queue_verification(
    tx: &mut PgConnection,
    domain: &Domain,
    quota: MailQuota,
    account_id: i64,
    email: &str,
) -> DomainResult<()> {
    let now = domain.clock.now();
    check_quota(tx, quota, Kind::VerifyEmail, Some(account_id), email, now).await?;
    let expires = (now + time::Duration::hours(VERIFY_HOURS)).unix_timestamp();
    let details = json!({"email": email, "expires": expires});
    notifications::account_mail(tx, account_id, Kind::VerifyEmail, email, details, now).await
}

/// Makes a player account with an optional address (verified by mail), in one
/// transaction: a refused address (a used-up mail limit) makes no account.
///
/// # Errors
/// A short password or a bad address (422), the username taken (409), the address's
/// verification mails used up (429 `email.too-many-mails`); database failure.
pub async fn register(
    domain: &Domain,
    quota: MailQuota,
    username: &Username,
    password: SecretString,
    email: Option<&str>,
) -> DomainResult<(Account, Address)> {
    let email = email.map(str::trim).filter(|text| !text.is_empty()).map(parse_address).transpose()?;
    accounts::check_password_length(&password)?;
    let hash = accounts::hash_password(password).await?;
    let role = Role::Player;
    let mut tx = domain.pool.begin().await?;
    let id = accounts_rows::insert_account(&mut *tx, username.as_str(), &hash, role.as_str()).await?;
    if let Some(email) = &email {
        rows::set_address(&mut tx, id, Some(email)).await?;
        queue_verification(&mut tx, domain, quota, id, email).await?;
    }
    tx.commit().await?;
    let account = Account { id, username: username.as_str().to_owned(), role };
    Ok((account, Address { email, email_verified: false }))
}

/// Verifies the address a link was made for (the plain GET of the mail's link).
///
/// # Errors
/// [`DomainError::Invalid`] for a link that is expired, forged, or made for an address
/// the account no longer has.
pub async fn verify(
    domain: &Domain,
    links: &Links,
    account_id: i64,
    expires: i64,
    signature: &str,
) -> DomainResult<()> {
    let refused = || {
        DomainError::coded(
            super::ErrorKind::Invalid,
            "email.link-invalid",
            "This confirmation link is expired or no longer valid: set the address again to get a new one.",
        )
    };
    let now = domain.clock.now();
    if now.unix_timestamp() > expires {
        return Err(refused());
    }
    let current = rows::address(&domain.pool, account_id).await.map_err(|_| refused())?;
    let Some(email) = current.email else { return Err(refused()) };
    if !links.check_verify_email(account_id, &email, expires, signature) {
        return Err(refused());
    }
    if !rows::mark_verified(&domain.pool, account_id, &email, now).await? {
        return Err(refused());
    }
    Ok(())
}

fn digest(token: &str) -> Vec<u8> {
    Sha256::digest(token.as_bytes()).to_vec()
}

/// Asks for a password reset of the accounts whose verified address is `email`: each
/// gets a mail with a single-use link, unless the address has had its reset mails for the
/// window (then none goes). Says nothing about whether there was any (the caller answers
/// the same either way).
///
/// # Errors
/// Database failure.
pub async fn request_reset(domain: &Domain, quota: MailQuota, email: &str) -> DomainResult<()> {
    let now = domain.clock.now();
    let mut tx = domain.pool.begin().await?;
    for (account_id, address) in rows::accounts_of_address(&mut tx, email.trim()).await? {
        if let Err(error) = check_quota(&mut tx, quota, Kind::PasswordReset, None, &address, now).await {
            if error.kind() != super::ErrorKind::RateLimited {
                return Err(error);
            }
            tracing::info!(
                account.id = account_id,
                "password reset mail not sent: the address had its mails"
            );
            continue;
        }
        let mut bytes = [0u8; 32];
        rand::rngs::OsRng.fill_bytes(&mut bytes);
        let token = hex::encode(bytes);
        let expires = now + time::Duration::minutes(RESET_MINUTES);
        rows::insert_reset(&mut tx, account_id, &digest(&token), now, expires).await?;
        // The token stays in the outbox row only until it is mailed (then erased).
        let details = json!({"token": token, "minutes": RESET_MINUTES});
        notifications::account_mail(&mut tx, account_id, Kind::PasswordReset, &address, details, now).await?;
    }
    tx.commit().await?;
    Ok(())
}

/// [`request_reset`] on a task of its own: the caller answers at once, in the same time
/// whether the address belongs to accounts (inserts, a durable commit) or to none (one
/// read), so the answer's timing does not tell (issue 36 §5). Failures are logged.
pub fn request_reset_in_background(domain: &Domain, quota: MailQuota, email: String) {
    let domain = domain.clone();
    tokio::spawn(async move {
        if let Err(error) = request_reset(&domain, quota, &email).await {
            tracing::warn!(%error, "a password reset request failed");
        }
    });
}

/// The refusal of a reset token that is unknown, used or expired.
fn reset_refused() -> DomainError {
    DomainError::coded(
        super::ErrorKind::Invalid,
        "password-reset.invalid",
        "This reset link is unknown, used or expired: ask for a new one.",
    )
}

/// Refuses a reset token that is unknown, used or expired, without using it: checked
/// before the new password is hashed (a forged token costs no hash).
///
/// # Errors
/// 422 `password-reset.invalid`; database failure.
pub async fn check_reset_token(domain: &Domain, token: &str) -> DomainResult<()> {
    if rows::reset_is_usable(&domain.pool, &digest(token.trim()), domain.clock.now()).await? {
        Ok(())
    } else {
        Err(reset_refused())
    }
}

/// Sets a new password with a reset token: once, before it expires. Every other reset
/// of the account ends and its bearer tokens are revoked. The token is checked before the
/// password is hashed, and used (once) in the transaction that stores the new hash.
///
/// # Errors
/// An unknown, used or expired token (422 `password-reset.invalid`), a short password
/// (422); database failure.
pub async fn reset_password(domain: &Domain, token: &str, password: SecretString) -> DomainResult<i64> {
    accounts::check_password_length(&password)?;
    check_reset_token(domain, token).await?;
    let hash = accounts::hash_password(password).await?;
    let now: OffsetDateTime = domain.clock.now();
    let mut tx = domain.pool.begin().await?;
    let Some(account_id) = rows::use_reset(&mut tx, &digest(token.trim()), now).await? else {
        return Err(reset_refused());
    };
    rows::replace_password(&mut tx, account_id, &hash, now, notify::TOKEN_CHANNEL).await?;
    tx.commit().await?;
    domain.tokens.clear();
    Ok(account_id)
}
