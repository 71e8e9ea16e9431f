//! `POST /api/tokens`: username + password → bearer token (with an expiry);
//! `GET /api/tokens`: the caller's tokens; `DELETE /api/tokens/current` and
//! `DELETE /api/tokens/{id}`: revoke one.

use axum::extract::State;
use axum::http::header::AUTHORIZATION;
use axum::http::{HeaderMap, StatusCode};
use secrecy::{ExposeSecret, SecretString};
use serde::{Deserialize, Serialize};

use super::auth::AuthUser;
use super::error::{ApiError, ApiResult};
use super::extract::{ClientAddress, Json, Path};
use super::AppState;
use crate::domain::accounts::{self, TokenView};

/// Credentials.
#[derive(Deserialize, utoipa::ToSchema)]
pub struct Credentials {
    /// Username.
    pub username: String,
    /// Password.
    #[schema(value_type = String, format = Password)]
    pub password: SecretString,
}

/// A token request: the credentials and, optionally, a shorter lifetime.
#[derive(Deserialize, utoipa::ToSchema)]
pub struct TokenRequest {
    /// Username.
    pub username: String,
    /// Password.
    #[schema(value_type = String, format = Password)]
    pub password: SecretString,
    /// Days the token works (at most the server's `token_lifetime_days`, its default).
    pub expires_in_days: Option<u32>,
}

/// A new token (shown once).
#[derive(Serialize, utoipa::ToSchema)]
pub struct TokenCreated {
    token: String,
    username: String,
    /// When the token stops working.
    #[serde(with = "time::serde::rfc3339")]
    expires_at: time::OffsetDateTime,
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
    operation_id = "create_token",
    tag = "accounts",
    request_body = TokenRequest,
    responses((status = 201, description = "the token, shown once", body = TokenCreated))
)]
/// Issues a bearer token that works for `expires_in_days` days (default and most: the
/// server's `token_lifetime_days`).
#[tracing::instrument(skip_all)]
pub async fn create(
    State(state): State<AppState>,
    client: ClientAddress,
    Json(request): Json<TokenRequest>,
) -> ApiResult<(StatusCode, Json<TokenCreated>)> {
    let lifetime = state.token_lifetime_days;
    let days = request.expires_in_days.unwrap_or(lifetime);
    if !(1..=lifetime).contains(&days) {
        return Err(ApiError::new(
            StatusCode::UNPROCESSABLE_ENTITY,
            format!("expires_in_days is 1 to {lifetime}"),
        ));
    }
    let credentials = Credentials { username: request.username, password: request.password };
    let account = check_credentials(&state, client, credentials).await?;
    let (token, expires_at) = accounts::issue_token(&state.domain, account.id, days).await?;
    Ok((
        StatusCode::CREATED,
        Json(TokenCreated {
            token: token.expose_secret().to_owned(),
            username: account.username,
            expires_at,
        }),
    ))
}

fn bearer(headers: &HeaderMap) -> Option<&str> {
    headers
        .get(AUTHORIZATION)
        .and_then(|h| h.to_str().ok())
        .and_then(|h| h.strip_prefix("Bearer "))
        .map(str::trim)
}

#[utoipa::path(
    get,
    path = "/api/tokens",
    operation_id = "list_tokens",
    tag = "accounts",
    security(("bearer" = []), ("session" = [])),
    responses((status = 200, description = "the caller's tokens, newest first", body = Vec<TokenView>))
)]
/// The caller's API tokens (never their text), the one of this request marked `current`.
pub async fn list(
    State(state): State<AppState>,
    AuthUser(me): AuthUser,
    headers: HeaderMap,
) -> ApiResult<Json<Vec<TokenView>>> {
    Ok(Json(accounts::tokens(&state.domain, me.id, bearer(&headers)).await?))
}

#[utoipa::path(
    delete,
    path = "/api/tokens/{id}",
    tag = "accounts",
    params(("id" = i64, Path, description = "Token id")),
    security(("bearer" = []), ("session" = [])),
    responses((status = 204, description = "revoked"), (status = 404, description = "not a token of the caller's"))
)]
/// Revokes one of the caller's tokens, at once on every instance.
pub async fn revoke_one(
    State(state): State<AppState>,
    AuthUser(me): AuthUser,
    Path(id): Path<i64>,
) -> ApiResult<StatusCode> {
    accounts::revoke_token_by_id(&state.domain, me.id, id).await?;
    Ok(StatusCode::NO_CONTENT)
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
    let token = bearer(&headers)
        .ok_or_else(|| ApiError::unauthorized("send the token to revoke as a bearer token"))?;
    accounts::account_for_token(&state.domain, token).await?;
    accounts::revoke_token(&state.domain, token).await?;
    Ok(StatusCode::NO_CONTENT)
}
