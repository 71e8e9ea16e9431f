//! The decisions: accounts, challenges, games and their clocks. Transport adapters
//! (REST, web forms, WebSocket) call these functions; nothing else writes game rows.

pub mod accounts;
pub mod challenges;
pub mod clock;
pub mod error;
pub mod games;
pub mod imports;
pub mod preferences;
pub mod rules_adapter;
pub mod time_control;
pub mod timeouts;
pub mod tournaments;
pub mod vacation;

use std::sync::Arc;

use sqlx::PgPool;

pub use error::{DomainError, DomainResult, ErrorKind};

/// What the domain functions work with: the database and the time source.
#[derive(Clone, Debug)]
pub struct Domain {
    /// The database.
    pub pool: PgPool,
    /// "Now", injectable for tests.
    pub clock: Arc<dyn clock::Clock>,
    /// The rules games of recently played games (see [`games::GameCache`]).
    pub games: Arc<games::GameCache>,
    /// Recently checked bearer tokens (see [`accounts::TokenCache`]).
    pub tokens: Arc<accounts::TokenCache>,
    /// Announces moves to every instance after their commit (see
    /// [`crate::storage::notify::Announcer`]).
    pub announcer: crate::storage::notify::Announcer,
}
