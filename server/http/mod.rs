//! The HTTP adapters: REST API resources, one file each, wired in [`router`].

pub mod accounts;
pub mod admin;
pub mod analysis;
pub mod auth;
pub mod availability;
pub mod challenges;
pub mod conditional;
pub mod connections;
pub mod desk;
pub mod error;
pub mod extract;
pub mod games;
pub mod health;
pub mod imports;
pub mod limits;
pub mod metrics;
pub mod notifications;
pub mod openapi;
pub mod pages;
pub mod paging;
pub mod password_reset;
pub mod players;
pub mod positions;
pub mod preferences;
pub mod rounds;
pub mod router;
pub mod session;
pub mod static_files;
pub mod tables;
pub mod tokens;
pub mod tournaments;
pub mod vacation;

use std::sync::Arc;

use axum::extract::FromRef;

use crate::domain::Domain;
use limits::{LoginLimiter, PasswordHashing, SignupLimiter};

pub use router::router;

/// Shared state of every handler: one `Arc`, because axum clones the state for every
/// extractor and middleware of every request (a clone of the parts was 1.2% of the CPU of
/// the load bench, 2026-11-27: a dozen shared counters touched from both cores).
#[derive(Clone, Debug)]
pub struct AppState(Arc<SharedState>);

impl AppState {
    /// The state of the handlers.
    pub fn new(shared: SharedState) -> AppState {
        AppState(Arc::new(shared))
    }
}

impl std::ops::Deref for AppState {
    type Target = SharedState;

    fn deref(&self) -> &SharedState {
        &self.0
    }
}

/// What [`AppState`] shares.
#[derive(Debug)]
pub struct SharedState {
    /// Database, clock and rules.
    pub domain: Domain,
    /// Failed-login counter.
    pub login_limiter: Arc<LoginLimiter>,
    /// Password reset requests, limited as logins are (per address mailed, per client).
    pub reset_limiter: Arc<LoginLimiter>,
    /// Sign-ups per client address.
    pub signup_limiter: Arc<SignupLimiter>,
    /// The bound on password hashes computed at once.
    pub password_hashing: Arc<PasswordHashing>,
    /// The limits on verification and reset mails (`[mail] verification_*`).
    pub mail_quota: crate::domain::email::MailQuota,
    /// The game import's limits (`[imports]`).
    pub import_limits: crate::domain::imports::ImportLimits,
    /// The signed cookie carrying a visitor's form token ([`pages::FormCookie`]).
    pub form_cookie: pages::FormCookie,
    /// The header a trusted proxy puts the client's address in, if configured
    /// ([`extract::ClientAddress`]).
    pub client_address_header: Option<axum::http::HeaderName>,
    /// Live games: the sockets of this instance and their fan-out.
    pub live: Arc<crate::live::Hub>,
    /// The language of readers who ask for none (`[application] default_language`).
    pub default_language: crate::web::i18n::Lang,
    /// How long a new API token works at most, in days (`[auth] token_lifetime_days`).
    pub token_lifetime_days: u32,
    /// Whether the database answered its last probe.
    pub database_health: Arc<availability::DatabaseHealth>,
    /// The bearer token `GET /metrics` asks for (`[metrics] token`); none: loopback only.
    pub metrics_token: Option<String>,
    /// Mail: the relay and the signed links (#17).
    pub mail: Arc<crate::mail::Mailer>,
    /// Computer analysis (issue 41); `None` when no engine is installed (the feature off).
    pub analysis: Option<crate::analysis::Analysis>,
}

impl FromRef<AppState> for Arc<availability::DatabaseHealth> {
    fn from_ref(state: &AppState) -> Arc<availability::DatabaseHealth> {
        Arc::clone(&state.database_health)
    }
}

impl FromRef<AppState> for Domain {
    fn from_ref(state: &AppState) -> Domain {
        state.domain.clone()
    }
}
