//! `POST /api/tokens`: username + password → bearer token; `DELETE /api/tokens/current`.

use axum::extract::State;
use axum::http::header::AUTHORIZATION;
use axum::http::{HeaderMap, StatusCode};
use secrecy::{ExposeSecret, SecretString};
use serde::{Deserialize, Serialize};

use super::error::{ApiError, ApiResult};
use super::extract::{ClientAddress, Json};
use super::AppState;
use crate::domain::accounts;

/// Credentials.
#[derive(Deserialize, utoipa::ToSchema)]
pub struct Credentials {
    /// Username.
    pub username: String,
    /// Password.
    #[schema(value_type = String, format = Password)]
    pub password: SecretString,
}

/// A new token (shown once).
#[derive(Serialize, utoipa::ToSchema)]
pub struct TokenCreated {
    token: String,
    username: String,
}

/// Checks credentials under the login limits: the attempt is counted before the
/// password is checked (and taken back when it is right), and the check waits for its
/// turn among the password hashes ([`super::limits`]).
///
/// # Errors
/// 429 with `Retry-After` when a limit is used up, 401 for wrong credentials, 503 when
/// no hashing turn came in time.
pub(crate) async fn check_credentials(
    state: &AppState,
    client: ClientAddress,
    credentials: Credentials,
) -> ApiResult<accounts::Account> {
    let attempt = state.login_limiter.begin(&credentials.username, client.0)?;
    let pool = state.domain.pool.clone();
    let Credentials { username, password } = credentials;
    let checked = state
        .password_hashing
        .run(async move { accounts::authenticate(&pool, &username, password).await })
        .await??;
    attempt.succeeded();
    Ok(checked)
}

#[utoipa::path(
    post,
    path = "/api/tokens",
    tag = "accounts",
    request_body = Credentials,
    responses((status = 201, description = "the token, shown once", body = TokenCreated))
)]
/// Issues a bearer token.
#[tracing::instrument(skip_all)]
pub async fn create(
    State(state): State<AppState>,
    client: ClientAddress,
    Json(credentials): Json<Credentials>,
) -> ApiResult<(StatusCode, Json<TokenCreated>)> {
    let account = check_credentials(&state, client, credentials).await?;
    let token = accounts::issue_token(&state.domain.pool, account.id).await?;
    Ok((
        StatusCode::CREATED,
        Json(TokenCreated { token: token.expose_secret().to_owned(), username: account.username }),
    ))
}

#[utoipa::path(
    delete,
    path = "/api/tokens/current",
    tag = "accounts",
    security(("bearer" = [])),
    responses((status = 204, description = "revoked"))
)]
/// Revokes the bearer token of the request.
pub async fn revoke(State(state): State<AppState>, headers: HeaderMap) -> ApiResult<StatusCode> {
    let token = headers
        .get(AUTHORIZATION)
        .and_then(|h| h.to_str().ok())
        .and_then(|h| h.strip_prefix("Bearer "))
        .ok_or_else(|| ApiError::unauthorized("send the token to revoke as a bearer token"))?;
    accounts::account_for_token(&state.domain, token.trim()).await?;
    accounts::revoke_token(&state.domain, token.trim()).await?;
    Ok(StatusCode::NO_CONTENT)
}
