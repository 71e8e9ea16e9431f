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

use super::error::{DomainError, DomainResult};
use super::Domain;
use crate::storage::notify;

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
    /// Also runs tournaments.
    Director,
    /// Everything.
    Admin,
}

impl Role {
    /// The stored name.
    pub fn as_str(self) -> &'static str {
        match self {
            Role::Player => "player",
            Role::Director => "director",
            Role::Admin => "admin",
        }
    }

    fn from_db(text: &str) -> Role {
        match text {
            "admin" => Role::Admin,
            "director" => Role::Director,
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
    let id: i64 = sqlx::query_scalar(
        r#"insert into account (username, password_hash, role) values ($1, $2, $3)
           returning account_id"#,
    )
    .bind(username.as_str())
    .bind(hash)
    .bind(role.as_str())
    .fetch_one(pool)
    .await?;
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
    let row: Option<(i64, String, String, String)> = sqlx::query_as(
        r#"select account_id, username, password_hash, role from account
           where lower(username) = lower($1)"#,
    )
    .bind(username)
    .fetch_optional(pool)
    .await?;
    let hash = row.as_ref().map_or(DUMMY_HASH.to_owned(), |r| r.2.clone());
    let valid = verify_password(hash, password).await?;
    match row {
        Some((id, username, _, role)) if valid => Ok(Account { id, username, role: Role::from_db(&role) }),
        _ => Err(DomainError::Unauthenticated("wrong username or password".to_owned())),
    }
}

/// Loads an account by id.
///
/// # Errors
/// Not found or database failure.
pub async fn account_by_id(pool: &PgPool, id: i64) -> DomainResult<Account> {
    let (id, username, role): (i64, String, String) =
        sqlx::query_as(r#"select account_id, username, role from account where account_id = $1"#)
            .bind(id)
            .fetch_one(pool)
            .await?;
    Ok(Account { id, username, role: Role::from_db(&role) })
}

/// Finds an account id by username (case-insensitive).
///
/// # Errors
/// [`DomainError::NotFound`] naming the user.
pub async fn account_id_by_username(pool: &PgPool, username: &str) -> DomainResult<i64> {
    sqlx::query_scalar(r#"select account_id from account where lower(username) = lower($1)"#)
        .bind(username)
        .fetch_optional(pool)
        .await?
        .ok_or_else(|| DomainError::NotFound(format!("no account named {username}")))
}

fn token_digest(token: &str) -> Vec<u8> {
    Sha256::digest(token.as_bytes()).to_vec()
}

/// Issues a new bearer token for `account_id`; only its SHA-256 is stored.
///
/// # Errors
/// Database failure.
pub async fn issue_token(pool: &PgPool, account_id: i64) -> DomainResult<SecretString> {
    let mut bytes = [0u8; 32];
    rand::rngs::OsRng.fill_bytes(&mut bytes);
    let token = format!("tav_{}", hex::encode(bytes));
    sqlx::query(r#"insert into api_token (account_id, token_hash) values ($1, $2)"#)
        .bind(account_id)
        .bind(token_digest(&token))
        .execute(pool)
        .await?;
    Ok(SecretString::from(token))
}

/// The account a bearer token belongs to (from the cache of recently checked tokens when
/// it is there).
///
/// # Errors
/// [`DomainError::Unauthenticated`] for an unknown token.
pub async fn account_for_token(domain: &Domain, token: &str) -> DomainResult<Account> {
    let digest = token_digest(token);
    if let Some(account) = domain.tokens.get(&digest) {
        return Ok(account);
    }
    let row: Option<(i64, String, String)> = sqlx::query_as(
        r#"select a.account_id, a.username, a.role
           from api_token t join account a using (account_id)
           where t.token_hash = $1"#,
    )
    .bind(&digest)
    .fetch_optional(&domain.pool)
    .await?;
    let account = row
        .map(|(id, username, role)| Account { id, username, role: Role::from_db(&role) })
        .ok_or_else(|| DomainError::Unauthenticated("invalid token".to_owned()))?;
    domain.tokens.put(digest, account.clone());
    Ok(account)
}

/// Revokes a bearer token, at once on every instance: the deletion announces the token's
/// digest on [`notify::TOKEN_CHANNEL`] and each instance's listener drops it from its
/// [`TokenCache`] (server/live/hub.rs).
///
/// # Errors
/// Database failure.
pub async fn revoke_token(domain: &Domain, token: &str) -> DomainResult<()> {
    let digest = token_digest(token);
    sqlx::query(
        r#"with revoked as (delete from api_token where token_hash = $1 returning token_hash)
           select pg_notify($2, encode(token_hash, 'hex')) from revoked"#,
    )
    .bind(&digest)
    .bind(notify::TOKEN_CHANNEL)
    .execute(&domain.pool)
    .await?;
    domain.tokens.forget(&digest);
    Ok(())
}

/// How long a checked bearer token is trusted without reading it again. Revocations
/// reach every instance at once by NOTIFY; this bounds the effect of one missed while
/// an instance's listening connection was down (it also clears the cache on reconnect).
const TOKEN_TRUST: Duration = Duration::from_secs(30);

/// How many tokens the cache holds before it starts over (a bound on its memory).
const TOKEN_CACHE_CAPACITY: usize = 65_536;

/// Recently checked bearer tokens (by SHA-256 digest) and their accounts, so that a
/// program's every request does not read the token table: the move, the API's busiest
/// request, is then one statement (server/domain/games/moves.rs).
#[derive(Debug, Default)]
pub struct TokenCache {
    entries: Mutex<HashMap<Vec<u8>, (Account, Instant)>>,
}

impl TokenCache {
    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<Vec<u8>, (Account, Instant)>> {
        // A panic while holding the lock leaves only copies behind: go on with them.
        self.entries.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    fn get(&self, digest: &[u8]) -> Option<Account> {
        let entries = self.lock();
        let (account, checked_at) = entries.get(digest)?;
        (checked_at.elapsed() < TOKEN_TRUST).then(|| account.clone())
    }

    fn put(&self, digest: Vec<u8>, account: Account) {
        let mut entries = self.lock();
        if entries.len() >= TOKEN_CACHE_CAPACITY {
            entries.clear();
        }
        entries.insert(digest, (account, Instant::now()));
    }

    fn forget(&self, digest: &[u8]) {
        self.lock().remove(digest);
    }

    /// Forgets the token whose digest is `hex_digest` (a [`notify::TOKEN_CHANNEL`]
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
