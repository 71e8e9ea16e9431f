//! An account's e-mail address (#17 §1): optional, changeable, verified by a signed
//! expiring link before anything but the verification is sent to it; never shown to other
//! users. Password resets by mail: a single-use token, stored as its SHA-256, expiring.

use std::str::FromStr;

use rand::RngCore;
use secrecy::SecretString;
use serde_json::json;
use sha2::{Digest, Sha256};
use time::OffsetDateTime;

use super::accounts;
use super::error::{DomainError, DomainResult};
use super::notifications::Kind;
use super::Domain;
use crate::mail::sender::VERIFY_HOURS;
use crate::mail::Links;
use crate::storage::{email as rows, notifications, notify};

/// How long a password reset link works.
pub const RESET_MINUTES: i64 = 60;

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
/// An address that does not parse (422); database failure.
pub async fn set_address(domain: &Domain, account_id: i64, email: Option<&str>) -> DomainResult<Address> {
    let email = match email.map(str::trim) {
        None | Some("") => None,
        Some(text) => Some(parse_address(text)?),
    };
    let current = rows::address(&domain.pool, account_id).await?;
    let same = matches!((&current.email, &email), (Some(a), Some(b)) if a.eq_ignore_ascii_case(b));
    if same && current.email_verified_at.is_some() {
        return address(domain, account_id).await;
    }
    let now = domain.clock.now();
    let mut tx = domain.pool.begin().await?;
    rows::set_address(&mut tx, account_id, email.as_deref()).await?;
    if let Some(email) = &email {
        let expires = (now + time::Duration::hours(VERIFY_HOURS)).unix_timestamp();
        let details = json!({"email": email, "expires": expires});
        notifications::account_mail(&mut tx, account_id, Kind::VerifyEmail, email, details, now).await?;
    }
    tx.commit().await?;
    address(domain, account_id).await
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
/// gets a mail with a single-use link. Says nothing about whether there was any (the
/// caller answers the same either way).
///
/// # Errors
/// Database failure.
pub async fn request_reset(domain: &Domain, email: &str) -> DomainResult<()> {
    let now = domain.clock.now();
    let mut tx = domain.pool.begin().await?;
    for (account_id, address) in rows::accounts_of_address(&mut tx, email.trim()).await? {
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

/// Sets a new password with a reset token: once, before it expires. Every other reset
/// of the account ends and its bearer tokens are revoked.
///
/// # Errors
/// An unknown, used or expired token (422 `password-reset.invalid`), a short password
/// (422); database failure.
pub async fn reset_password(domain: &Domain, token: &str, password: SecretString) -> DomainResult<i64> {
    accounts::check_password_length(&password)?;
    let now: OffsetDateTime = domain.clock.now();
    let hash = accounts::hash_password(password).await?;
    let mut tx = domain.pool.begin().await?;
    let Some(account_id) = rows::use_reset(&mut tx, &digest(token.trim()), now).await? else {
        return Err(DomainError::coded(
            super::ErrorKind::Invalid,
            "password-reset.invalid",
            "This reset link is unknown, used or expired: ask for a new one.",
        ));
    };
    rows::replace_password(&mut tx, account_id, &hash, now, notify::TOKEN_CHANNEL).await?;
    tx.commit().await?;
    domain.tokens.clear();
    Ok(account_id)
}
