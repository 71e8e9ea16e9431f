//! The errors of the domain decisions; the HTTP layer maps each kind to a status.

/// Why a domain operation was refused.
#[derive(Debug, thiserror::Error)]
pub enum DomainError {
    /// Input that does not parse or breaks a rule (HTTP 422).
    #[error("{0}")]
    Invalid(String),
    /// No such resource (HTTP 404).
    #[error("{0}")]
    NotFound(String),
    /// Not authenticated (HTTP 401).
    #[error("{0}")]
    Unauthenticated(String),
    /// Authenticated but not allowed (HTTP 403).
    #[error("{0}")]
    Forbidden(String),
    /// The state changed meanwhile: stale ply, not your turn, already taken (HTTP 409).
    #[error("{0}")]
    Conflict(String),
    /// Too many attempts (HTTP 429).
    #[error("{0}")]
    RateLimited(String),
    /// Anything unexpected (HTTP 500; logged, never shown).
    #[error(transparent)]
    Internal(#[from] anyhow::Error),
}

impl From<sqlx::Error> for DomainError {
    fn from(error: sqlx::Error) -> Self {
        match &error {
            sqlx::Error::RowNotFound => DomainError::NotFound("not found".to_owned()),
            sqlx::Error::Database(db) => match db.constraint() {
                Some("account_username_key") => DomainError::Conflict("this username is taken".to_owned()),
                Some("move_pkey") => DomainError::Conflict("this ply has already been played".to_owned()),
                _ => DomainError::Internal(error.into()),
            },
            _ => DomainError::Internal(error.into()),
        }
    }
}

/// Result of a domain operation.
pub type DomainResult<T> = Result<T, DomainError>;
