//! The errors of the domain decisions; the HTTP layer maps each kind to a status.
//!
//! Every error has a stable machine-readable [`code`](DomainError::code) (kebab-case) and
//! a sentence for people as its `Display`. The rules' refusals (a move, a claim, a seat
//! leaving, a game's set-up) stay typed ([`DomainError::Move`]...), so that each transport
//! renders them once: the code and the English sentence in JSON, a sentence in the
//! reader's language on the pages (issue 15 §6, issue 23 §4).

use tavoliere_rules::variant::{ClaimError, LeaveError, MoveError, MoveRefusal, SetupError};

/// What kind of refusal an error is; decides the HTTP status.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ErrorKind {
    /// Input that does not parse or breaks a rule (HTTP 422).
    Invalid,
    /// No such resource (HTTP 404).
    NotFound,
    /// Not authenticated (HTTP 401).
    Unauthenticated,
    /// Authenticated but not allowed (HTTP 403).
    Forbidden,
    /// The state changed meanwhile (HTTP 409).
    Conflict,
    /// Too many attempts (HTTP 429).
    RateLimited,
    /// The database is unreachable for now: try again shortly (HTTP 503).
    Unavailable,
    /// Anything unexpected (HTTP 500).
    Internal,
}

impl ErrorKind {
    /// The code of an error of this kind that has no code of its own.
    pub const fn code(self) -> &'static str {
        match self {
            ErrorKind::Invalid => "invalid",
            ErrorKind::NotFound => "not-found",
            ErrorKind::Unauthenticated => "unauthorized",
            ErrorKind::Forbidden => "forbidden",
            ErrorKind::Conflict => "conflict",
            ErrorKind::RateLimited => "rate-limited",
            ErrorKind::Unavailable => "unavailable",
            ErrorKind::Internal => "internal",
        }
    }
}

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
    /// A refusal with a code of its own, for the cases clients tell apart (a stale ply
    /// from a move out of turn, say).
    #[error("{detail}")]
    Coded {
        /// The kind, for the status.
        kind: ErrorKind,
        /// The stable code, e.g. `move.stale-ply`.
        code: &'static str,
        /// A sentence for people.
        detail: String,
    },
    /// A limit used up (HTTP 429), with its code and when it has room again.
    #[error("{detail}")]
    Limited {
        /// The stable code, e.g. `email.too-many-mails`.
        code: &'static str,
        /// A sentence for people.
        detail: String,
        /// Seconds until the limit has room again (the `Retry-After`).
        retry_after: u64,
    },
    /// A move refused by the rules (HTTP 422; 409 when the game is over).
    #[error("{0}")]
    Move(#[from] MoveError),
    /// A claim refused by the rules (HTTP 422).
    #[error("{0}")]
    Claim(#[from] ClaimError),
    /// A seat that cannot leave the game (HTTP 409).
    #[error("{0}")]
    Leave(#[from] LeaveError),
    /// A game the rules cannot set up: seats, ruleset, handicap, start position (HTTP 422).
    #[error("{0}")]
    Setup(#[from] SetupError),
    /// Anything unexpected (HTTP 500; logged, never shown).
    #[error(transparent)]
    Internal(#[from] anyhow::Error),
}

impl DomainError {
    /// A refusal with its own `code`.
    pub fn coded(kind: ErrorKind, code: &'static str, detail: impl Into<String>) -> DomainError {
        DomainError::Coded { kind, code, detail: detail.into() }
    }

    /// A move sent for a ply the game has left (409, `move.stale-ply`).
    pub fn stale_ply(expected: i32, current: i32) -> DomainError {
        DomainError::coded(
            ErrorKind::Conflict,
            "move.stale-ply",
            format!("The move was sent for ply {expected}, but the game is at ply {current}: it is stale."),
        )
    }

    /// A move out of turn (409, `move.not-your-turn`).
    pub fn not_your_turn() -> DomainError {
        DomainError::coded(ErrorKind::Conflict, "move.not-your-turn", "It is not your turn.")
    }

    /// The database cannot be reached (down, restarting, or every connection busy for
    /// longer than `database.acquire_timeout_ms`): 503, `unavailable`.
    pub fn database_unavailable() -> DomainError {
        DomainError::coded(
            ErrorKind::Unavailable,
            "unavailable",
            "The database is unreachable for the moment; nothing was changed. Try again in a few seconds.",
        )
    }

    /// The kind, which decides the HTTP status.
    pub fn kind(&self) -> ErrorKind {
        match self {
            DomainError::Invalid(_) => ErrorKind::Invalid,
            DomainError::NotFound(_) => ErrorKind::NotFound,
            DomainError::Unauthenticated(_) => ErrorKind::Unauthenticated,
            DomainError::Forbidden(_) => ErrorKind::Forbidden,
            DomainError::Conflict(_) => ErrorKind::Conflict,
            DomainError::RateLimited(_) | DomainError::Limited { .. } => ErrorKind::RateLimited,
            DomainError::Coded { kind, .. } => *kind,
            DomainError::Move(e) if e.refusal == MoveRefusal::GameOver => ErrorKind::Conflict,
            DomainError::Move(_) | DomainError::Claim(_) | DomainError::Setup(_) => ErrorKind::Invalid,
            DomainError::Leave(_) => ErrorKind::Conflict,
            DomainError::Internal(_) => ErrorKind::Internal,
        }
    }

    /// The stable machine-readable code: the rules' own for their refusals
    /// (`illegal-move.blocked`, `notation.ambiguous`, `handicap.capture-banned`,
    /// `claim.not-allowed`, `setup.start-position`...), a specific one for the refusals
    /// clients tell apart (`move.stale-ply`...), else the kind's (`invalid`, `not-found`,
    /// `unauthorized`, `forbidden`, `conflict`, `rate-limited`, `internal`).
    pub fn code(&self) -> &'static str {
        match self {
            DomainError::Coded { code, .. } | DomainError::Limited { code, .. } => code,
            DomainError::Move(e) => e.code(),
            DomainError::Claim(e) => e.code(),
            DomainError::Leave(e) => e.code(),
            DomainError::Setup(e) => e.code(),
            other => other.kind().code(),
        }
    }

    /// When a used-up limit has room again, in seconds (a 429's `Retry-After`).
    pub fn retry_after(&self) -> Option<u64> {
        match self {
            DomainError::Limited { retry_after, .. } => Some(*retry_after),
            _ => None,
        }
    }

    /// The parameters of a rules refusal by name (the move text, the readings of an
    /// ambiguous text...): for the pages' sentences and the JSON `meta`.
    pub fn params(&self) -> Vec<(&'static str, String)> {
        match self {
            DomainError::Move(e) => e.params(),
            DomainError::Claim(e) => e.params(),
            DomainError::Setup(e) => e.params(),
            _ => Vec::new(),
        }
    }
}

impl From<sqlx::Error> for DomainError {
    fn from(error: sqlx::Error) -> Self {
        if crate::storage::is_unavailable(&error) {
            return DomainError::database_unavailable();
        }
        match &error {
            sqlx::Error::RowNotFound => DomainError::NotFound("Not found.".to_owned()),
            sqlx::Error::Database(db) => match db.constraint() {
                Some("account_username_key") => DomainError::Conflict("This username is taken.".to_owned()),
                Some("move_pkey") => DomainError::coded(
                    ErrorKind::Conflict,
                    "move.stale-ply",
                    "This ply has already been played.",
                ),
                _ => DomainError::Internal(error.into()),
            },
            _ => DomainError::Internal(error.into()),
        }
    }
}

/// Result of a domain operation.
pub type DomainResult<T> = Result<T, DomainError>;

#[cfg(test)]
mod tests {
    use super::*;
    use tavoliere_rules::variant::{AnyGame, Variant};

    #[test]
    fn rules_refusals_keep_their_codes_and_kinds() {
        let mut game = AnyGame::new(Variant::Xiangqi, None).unwrap();
        let refused = DomainError::from(game.play("a0a5").unwrap_err());
        assert_eq!((refused.code(), refused.kind()), ("illegal-move.blocked", ErrorKind::Invalid));
        assert_eq!(refused.to_string(), "a0a5 is not legal: the piece's way is blocked.");
        assert!(refused.params().contains(&("move", "a0a5".to_owned())));
        let claim = DomainError::from(game.claim().unwrap_err());
        assert_eq!((claim.code(), claim.kind()), ("claim.none-in-variant", ErrorKind::Invalid));
        assert_eq!(DomainError::Conflict("not now".into()).code(), "conflict");
        let stale = DomainError::coded(ErrorKind::Conflict, "move.stale-ply", "The game has moved on.");
        assert_eq!((stale.code(), stale.kind()), ("move.stale-ply", ErrorKind::Conflict));
    }
}
