//! Accounts: usernames, roles, passwords (argon2id off the async runtime), API tokens.

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use argon2::password_hash::rand_core::OsRng;
use argon2::password_hash::{PasswordHash, PasswordHasher, PasswordVerifier, SaltString};
use argon2::Argon2;
use rand::RngCore;
use secrecy::{ExposeSecret, SecretString};
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use sqlx::PgPool;
use time::OffsetDateTime;

pub use super::admin::{AccountSummary, AuditEntryView};
use super::error::{DomainError, DomainResult};
use super::Domain;
use crate::storage::accounts::{self as storage, AccountRow};

/// A validated username: 3 to 32 characters, ASCII letters, digits, `_` or `-`,
/// starting with a letter. Unique regardless of case.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Username(String);

impl Username {
    /// Validates `text`.
    ///
    /// # Errors
    /// [`DomainError::Invalid`] saying what is wrong.
    pub fn parse(text: &str) -> DomainResult<Username> {
        let length = text.chars().count();
        if !(3..=32).contains(&length) {
            return Err(DomainError::Invalid("a username has 3 to 32 characters".to_owned()));
        }
        if !text.starts_with(|c: char| c.is_ascii_alphabetic()) {
            return Err(DomainError::Invalid("a username starts with a letter".to_owned()));
        }
        if !text.chars().all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-') {
            return Err(DomainError::Invalid("a username has only letters, digits, '_' and '-'".to_owned()));
        }
        Ok(Username(text.to_owned()))
    }

    /// The username text.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// What an account may do.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, clap::ValueEnum, utoipa::ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum Role {
    /// Plays games.
    Player,
    /// Also runs tournaments: creates them and directs those it is a director of.
    Director,
    /// Directs every tournament (issue 20 §1).
    #[serde(rename = "global-director")]
    #[value(name = "global-director")]
    GlobalDirector,
    /// Everything.
    Admin,
}

impl Role {
    /// The stored name.
    pub fn as_str(self) -> &'static str {
        match self {
            Role::Player => "player",
            Role::Director => "director",
            Role::GlobalDirector => "global-director",
            Role::Admin => "admin",
        }
    }

    /// Whether the role directs every tournament (an admin's or a global director's).
    pub fn directs_all(self) -> bool {
        matches!(self, Role::GlobalDirector | Role::Admin)
    }

    pub(crate) fn from_db(text: &str) -> Role {
        match text {
            "admin" => Role::Admin,
            "director" => Role::Director,
            "global-director" => Role::GlobalDirector,
            _ => Role::Player,
        }
    }
}

/// A signed-in account as the handlers see it.
#[derive(Clone, Debug, Serialize, utoipa::ToSchema)]
pub struct Account {
    /// Primary key.
    pub id: i64,
    /// Display and login name.
    pub username: String,
    /// What the account may do.
    pub role: Role,
}

impl From<AccountRow> for Account {
    fn from(row: AccountRow) -> Account {
        Account { id: row.account_id, username: row.username, role: Role::from_db(&row.role) }
    }
}

/// Minimum password length.
const MIN_PASSWORD_CHARS: usize = 8;

/// Refuses a password shorter than the minimum.
///
/// # Errors
/// [`DomainError::Invalid`] naming the minimum.
pub fn check_password_length(password: &SecretString) -> DomainResult<()> {
    if password.expose_secret().chars().count() < MIN_PASSWORD_CHARS {
        return Err(DomainError::Invalid(format!("a password has at least {MIN_PASSWORD_CHARS} characters")));
    }
    Ok(())
}

/// Hashes `password` with argon2id on the blocking pool.
///
/// # Errors
/// Internal failure of the hasher.
pub async fn hash_password(password: SecretString) -> DomainResult<String> {
    tokio::task::spawn_blocking(move || {
        let salt = SaltString::generate(&mut OsRng);
        Argon2::default()
            .hash_password(password.expose_secret().as_bytes(), &salt)
            .map(|hash| hash.to_string())
            .map_err(|e| anyhow::anyhow!("hashing failed: {e}"))
    })
    .await
    .map_err(|e| DomainError::Internal(e.into()))?
    .map_err(DomainError::Internal)
}

async fn verify_password(hash: String, password: SecretString) -> DomainResult<bool> {
    tokio::task::spawn_blocking(move || {
        let Ok(parsed) = PasswordHash::new(&hash) else {
            return false;
        };
        Argon2::default().verify_password(password.expose_secret().as_bytes(), &parsed).is_ok()
    })
    .await
    .map_err(|e| DomainError::Internal(e.into()))
}

/// Creates an account.
///
/// # Errors
/// Invalid username or short password (422), username taken (409).
pub async fn register(
    pool: &PgPool,
    username: &Username,
    password: SecretString,
    role: Role,
) -> DomainResult<Account> {
    check_password_length(&password)?;
    let hash = hash_password(password).await?;
    let id = storage::insert_account(pool, username.as_str(), &hash, role.as_str()).await?;
    Ok(Account { id, username: username.as_str().to_owned(), role })
}

/// Checks a username and password.
///
/// # Errors
/// [`DomainError::Unauthenticated`] for an unknown name or a wrong password (the same
/// message for both).
pub async fn authenticate(pool: &PgPool, username: &str, password: SecretString) -> DomainResult<Account> {
    // A valid hash of a random password: unknown users take as long as known ones.
    const DUMMY_HASH: &str = "$argon2id$v=19$m=19456,t=2,p=1$c29tZXNhbHRzb21lc2FsdA$\
                              0gK/r0Z8cZQyGq8Bq0cH6mWJ0e2mC8o6XcJj2t3n6v0";
    let row = storage::login_row(pool, username).await?;
    let hash = row.as_ref().map_or(DUMMY_HASH.to_owned(), |r| r.1.clone());
    let valid = verify_password(hash, password).await?;
    match row {
        // Said only to whoever knows the password.
        Some((_, _, true)) if valid => Err(DomainError::Forbidden("this account is disabled".to_owned())),
        Some((row, _, false)) if valid => Ok(Account::from(row)),
        _ => Err(DomainError::Unauthenticated("wrong username or password".to_owned())),
    }
}

/// Loads an account by id.
///
/// # Errors
/// Not found or database failure.
pub async fn account_by_id(pool: &PgPool, id: i64) -> DomainResult<Account> {
    Ok(storage::account_by_id(pool, id).await?.into())
}

/// The account of a cookie session that signed in at `epoch` (see migration
/// 20261127100002: a password reset ends the account's sessions).
///
/// # Errors
/// [`DomainError::NotFound`] when the session no longer counts.
pub async fn account_for_session(pool: &PgPool, id: i64, epoch: i32) -> DomainResult<Account> {
    Ok(storage::account_for_session(pool, id, epoch).await?.into())
}

/// The epoch a new cookie session of the account holds.
///
/// # Errors
/// Unknown account, database failure.
pub async fn session_epoch(pool: &PgPool, id: i64) -> DomainResult<i32> {
    Ok(storage::session_epoch(pool, id).await?)
}

/// Finds an account id by username (case-insensitive).
///
/// # Errors
/// [`DomainError::NotFound`] naming the user.
pub async fn account_id_by_username(pool: &PgPool, username: &str) -> DomainResult<i64> {
    storage::account_id_by_username(pool, username)
        .await?
        .ok_or_else(|| DomainError::NotFound(format!("no account named {username}")))
}

fn token_digest(token: &str) -> Vec<u8> {
    Sha256::digest(token.as_bytes()).to_vec()
}

/// The longest lifetime a client may ask of a token, in days.
pub const MAX_TOKEN_DAYS: u32 = 3650;

/// Issues a new bearer token for `account_id`, valid for `days` days (1 to
/// [`MAX_TOKEN_DAYS`]); only its SHA-256 is stored → the token and when it expires.
///
/// # Errors
/// A lifetime out of range (422), database failure.
pub async fn issue_token(
    domain: &Domain,
    account_id: i64,
    days: u32,
) -> DomainResult<(SecretString, OffsetDateTime)> {
    if !(1..=MAX_TOKEN_DAYS).contains(&days) {
        return Err(DomainError::Invalid(format!("a token lasts 1 to {MAX_TOKEN_DAYS} days")));
    }
    let mut bytes = [0u8; 32];
    rand::rngs::OsRng.fill_bytes(&mut bytes);
    let token = format!("tav_{}", hex::encode(bytes));
    let now = domain.clock.now();
    let expires_at = now + time::Duration::days(i64::from(days));
    storage::insert_token(&domain.pool, account_id, &token_digest(&token), now, expires_at).await?;
    Ok((SecretString::from(token), expires_at))
}

/// One of an account's API tokens (the token itself is never shown again).
#[derive(Debug, Serialize, sqlx::FromRow, utoipa::ToSchema)]
pub struct TokenView {
    /// Token id (to revoke it).
    pub id: i64,
    /// When it was issued.
    #[serde(with = "time::serde::rfc3339")]
    pub created_at: OffsetDateTime,
    /// When it stops working (`null`: a token issued before tokens expired).
    #[serde(with = "time::serde::rfc3339::option")]
    pub expires_at: Option<OffsetDateTime>,
    /// Whether it is the token of this request.
    pub current: bool,
}

/// The tokens of `account_id`, newest first; `current` marks the one whose text is
/// `current_token`.
///
/// # Errors
/// Database failure.
pub async fn tokens(
    domain: &Domain,
    account_id: i64,
    current_token: Option<&str>,
) -> DomainResult<Vec<TokenView>> {
    let current = match current_token {
        Some(token) => storage::token_id(&domain.pool, &token_digest(token)).await?,
        None => None,
    };
    let mut tokens = storage::tokens_of(&domain.pool, account_id).await?;
    for token in &mut tokens {
        token.current = Some(token.id) == current;
    }
    Ok(tokens)
}

/// Revokes token `token_id` of `account_id`, at once on every instance.
///
/// # Errors
/// No such token of the account's (404).
pub async fn revoke_token_by_id(domain: &Domain, account_id: i64, token_id: i64) -> DomainResult<()> {
    if storage::delete_token_of(&domain.pool, account_id, token_id).await? {
        // This instance forgets it at once, the others when the announcement arrives.
        domain.tokens.forget_account(account_id);
        Ok(())
    } else {
        Err(DomainError::NotFound(format!("you have no token {token_id}")))
    }
}

/// The account a bearer token belongs to (from the cache of recently checked tokens when
/// it is there).
///
/// # Errors
/// [`DomainError::Unauthenticated`] for an unknown token.
pub async fn account_for_token(domain: &Domain, token: &str) -> DomainResult<Account> {
    let digest = token_digest(token);
    let now = domain.clock.now();
    if let Some(account) = domain.tokens.get(&digest, now) {
        return Ok(account);
    }
    let (row, expires_at) = storage::account_for_token(&domain.pool, &digest, now)
        .await?
        .ok_or_else(|| DomainError::Unauthenticated("invalid token".to_owned()))?;
    let account = Account::from(row);
    domain.tokens.put(digest, account.clone(), expires_at);
    Ok(account)
}

/// Revokes a bearer token, at once on every instance: the deletion announces the token's
/// digest on [`crate::storage::notify::TOKEN_CHANNEL`] and each instance's listener drops it from its
/// [`TokenCache`] (server/live/hub.rs).
///
/// # Errors
/// Database failure.
pub async fn revoke_token(domain: &Domain, token: &str) -> DomainResult<()> {
    let digest = token_digest(token);
    storage::delete_token(&domain.pool, &digest).await?;
    domain.tokens.forget(&digest);
    Ok(())
}

/// How long a checked bearer token is trusted without reading it again. Revocations
/// reach every instance at once by NOTIFY; this bounds the effect of one missed while
/// an instance's listening connection was down (it also clears the cache on reconnect).
const TOKEN_TRUST: Duration = Duration::from_secs(30);

/// How many tokens the cache holds before it starts over (a bound on its memory).
const TOKEN_CACHE_CAPACITY: usize = 65_536;

/// A checked token's account, when it was checked and when the token expires.
#[derive(Debug)]
struct Cached {
    account: Account,
    checked_at: Instant,
    expires_at: Option<OffsetDateTime>,
}

/// Recently checked bearer tokens (by SHA-256 digest) and their accounts, so that a
/// program's every request does not read the token table: the move, the API's busiest
/// request, is then one statement (server/domain/games/moves.rs).
#[derive(Debug, Default)]
pub struct TokenCache {
    entries: Mutex<HashMap<Vec<u8>, Cached>>,
}

impl TokenCache {
    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<Vec<u8>, Cached>> {
        // A panic while holding the lock leaves only copies behind: go on with them.
        self.entries.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    fn get(&self, digest: &[u8], now: OffsetDateTime) -> Option<Account> {
        let entries = self.lock();
        let Cached { account, checked_at, expires_at } = entries.get(digest)?;
        // An expired token is refused at once, not only when the entry is read again.
        if expires_at.is_some_and(|expires_at| expires_at <= now) {
            return None;
        }
        (checked_at.elapsed() < TOKEN_TRUST).then(|| account.clone())
    }

    fn put(&self, digest: Vec<u8>, account: Account, expires_at: Option<OffsetDateTime>) {
        let mut entries = self.lock();
        if entries.len() >= TOKEN_CACHE_CAPACITY {
            entries.clear();
        }
        entries.insert(digest, Cached { account, checked_at: Instant::now(), expires_at });
    }

    fn forget(&self, digest: &[u8]) {
        self.lock().remove(digest);
    }

    /// Forgets every token of `account_id` (its role or state changed).
    pub(crate) fn forget_account(&self, account_id: i64) {
        self.lock().retain(|_, cached| cached.account.id != account_id);
    }

    /// Forgets the token whose digest is `hex_digest` (a [`crate::storage::notify::TOKEN_CHANNEL`]
    /// payload); anything else is ignored.
    pub fn forget_announced(&self, hex_digest: &str) {
        if let Ok(digest) = hex::decode(hex_digest) {
            self.forget(&digest);
        }
    }

    /// Forgets every token (revocations may have been missed).
    pub fn clear(&self) {
        self.lock().clear();
    }
}

/// Counts failed logins per (username, client address) in a sliding window.
#[derive(Debug)]
pub struct LoginLimiter {
    attempts: u32,
    window: Duration,
    failures: Mutex<HashMap<(String, IpAddr), Vec<Instant>>>,
}

impl LoginLimiter {
    /// Allows `attempts` failures per `window`.
    pub fn new(attempts: u32, window: Duration) -> LoginLimiter {
        LoginLimiter { attempts, window, failures: Mutex::new(HashMap::new()) }
    }

    /// Refuses when the key has used up its failures.
    ///
    /// # Errors
    /// [`DomainError::RateLimited`].
    pub fn check(&self, username: &str, ip: IpAddr) -> DomainResult<()> {
        let mut failures = self.failures.lock().unwrap_or_else(|p| p.into_inner());
        let now = Instant::now();
        let key = (username.to_lowercase(), ip);
        if let Some(times) = failures.get_mut(&key) {
            times.retain(|t| now.duration_since(*t) < self.window);
            if times.len() >= self.attempts as usize {
                return Err(DomainError::RateLimited("too many failed logins; try again later".to_owned()));
            }
        }
        Ok(())
    }

    /// Records a failed login.
    pub fn record_failure(&self, username: &str, ip: IpAddr) {
        let mut failures = self.failures.lock().unwrap_or_else(|p| p.into_inner());
        if failures.len() > 100_000 {
            failures.clear();
        }
        failures.entry((username.to_lowercase(), ip)).or_default().push(Instant::now());
    }

    /// Forgets the failures after a successful login.
    pub fn record_success(&self, username: &str, ip: IpAddr) {
        let mut failures = self.failures.lock().unwrap_or_else(|p| p.into_inner());
        failures.remove(&(username.to_lowercase(), ip));
    }
}
