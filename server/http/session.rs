//! Cookie sessions for the web: `POST /api/session` (log in), `DELETE /api/session` (log out).

use axum::extract::State;
use axum::http::{HeaderName, StatusCode};
use axum::response::AppendHeaders;
use tower_sessions::Session;

use super::auth::{
    new_csrf_token, MaybeAuthUser, CSRF_HEADER, SESSION_ACCOUNT_KEY, SESSION_CSRF_KEY, SESSION_EPOCH_KEY,
};
use super::error::ApiResult;
use super::extract::{ClientAddress, Json};
use super::tokens::{check_credentials, Credentials};
use super::AppState;
use crate::domain::accounts::{self, Account};
use crate::domain::DomainError;

fn store_error(error: tower_sessions::session::Error) -> DomainError {
    DomainError::Internal(anyhow::anyhow!("session store: {error}"))
}

/// The `X-CSRF-Token` header of a login's answer.
type CsrfTokenHeader = AppendHeaders<[(HeaderName, String); 1]>;

#[utoipa::path(
    post,
    path = "/api/session",
    tag = "accounts",
    request_body = Credentials,
    responses((
        status = 200,
        description = "signed in; the session cookie is set, and the `X-CSRF-Token` header holds the token that cookie-authenticated requests changing something must send back in that header",
        body = Account
    ))
)]
/// Logs in: a new session id (no fixation), holding the account id and a new CSRF token,
/// handed out in the `X-CSRF-Token` header.
#[tracing::instrument(skip_all)]
pub async fn login(
    State(state): State<AppState>,
    client: ClientAddress,
    session: Session,
    Json(credentials): Json<Credentials>,
) -> ApiResult<(CsrfTokenHeader, Json<Account>)> {
    let account = check_credentials(&state, client, credentials).await?;
    session.cycle_id().await.map_err(store_error)?;
    session.insert(SESSION_ACCOUNT_KEY, account.id).await.map_err(store_error)?;
    let epoch = accounts::session_epoch(&state.domain.pool, account.id).await?;
    session.insert(SESSION_EPOCH_KEY, epoch).await.map_err(store_error)?;
    let token = new_csrf_token();
    session.insert(SESSION_CSRF_KEY, &token).await.map_err(store_error)?;
    Ok((AppendHeaders([(HeaderName::from_static(CSRF_HEADER), token)]), Json(account)))
}

#[utoipa::path(
    delete,
    path = "/api/session",
    tag = "accounts",
    security((), ("session" = [])),
    responses((status = 204, description = "signed out (also when nobody was signed in)"))
)]
/// Logs out: the session is deleted (a cookie-authenticated request, so from this site
/// only: see [`super::auth`]).
pub async fn logout(_signed_in: MaybeAuthUser, session: Session) -> ApiResult<StatusCode> {
    session.flush().await.map_err(store_error)?;
    Ok(StatusCode::NO_CONTENT)
}
