//! Who is asking: a bearer API token (programs) or a cookie session (the web).

use axum::extract::{FromRef, FromRequestParts};
use axum::http::header::AUTHORIZATION;
use axum::http::request::Parts;
use tower_sessions::Session;

use super::error::ApiError;
use crate::domain::accounts::{self, Account};
use crate::domain::{Domain, DomainError};

/// Session key holding the account id.
pub const SESSION_ACCOUNT_KEY: &str = "account_id";

/// A signed-in account; answers 401 when there is none.
#[derive(Debug, Clone)]
pub struct AuthUser(pub Account);

/// A signed-in account, if any (an invalid token is still refused).
#[derive(Debug, Clone)]
pub struct MaybeAuthUser(pub Option<Account>);

impl<S> FromRequestParts<S> for MaybeAuthUser
where
    S: Send + Sync,
    Domain: FromRef<S>,
{
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, Self::Rejection> {
        let domain = Domain::from_ref(state);
        if let Some(header) = parts.headers.get(AUTHORIZATION) {
            let token = header
                .to_str()
                .ok()
                .and_then(|h| h.strip_prefix("Bearer "))
                .ok_or_else(|| ApiError::unauthorized("expected 'Authorization: Bearer <token>'"))?;
            let account = accounts::account_for_token(&domain, token.trim()).await?;
            return Ok(MaybeAuthUser(Some(account)));
        }
        let Ok(session) = Session::from_request_parts(parts, state).await else {
            return Ok(MaybeAuthUser(None));
        };
        let id: Option<i64> = session
            .get(SESSION_ACCOUNT_KEY)
            .await
            .map_err(|e| DomainError::Internal(anyhow::anyhow!("session store: {e}")))?;
        match id {
            Some(id) => match accounts::account_by_id(&domain.pool, id).await {
                Ok(account) => Ok(MaybeAuthUser(Some(account))),
                Err(DomainError::NotFound(_)) => Ok(MaybeAuthUser(None)),
                Err(other) => Err(other.into()),
            },
            None => Ok(MaybeAuthUser(None)),
        }
    }
}

impl<S> FromRequestParts<S> for AuthUser
where
    S: Send + Sync,
    Domain: FromRef<S>,
{
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, Self::Rejection> {
        match MaybeAuthUser::from_request_parts(parts, state).await? {
            MaybeAuthUser(Some(account)) => Ok(AuthUser(account)),
            MaybeAuthUser(None) => Err(ApiError::unauthorized("sign in or send a bearer token")),
        }
    }
}
