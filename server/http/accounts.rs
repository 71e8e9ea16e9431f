//! `POST /api/accounts`: register; `GET /api/accounts/me`: who am I.

use axum::extract::State;
use axum::http::StatusCode;
use secrecy::SecretString;
use serde::Deserialize;

use super::auth::AuthUser;
use super::error::ApiResult;
use super::extract::Json;
use super::AppState;
use crate::domain::accounts::{self, Account, Role, Username};

/// Registration request.
#[derive(Deserialize, utoipa::ToSchema)]
pub struct Register {
    /// Login and display name.
    username: String,
    /// At least 8 characters.
    #[schema(value_type = String, format = Password)]
    password: SecretString,
}

#[utoipa::path(
    post,
    path = "/api/accounts",
    tag = "accounts",
    request_body = Register,
    responses((status = 201, description = "created", body = Account))
)]
/// Creates a player account.
#[tracing::instrument(skip_all)]
pub async fn register(
    State(state): State<AppState>,
    Json(body): Json<Register>,
) -> ApiResult<(StatusCode, Json<Account>)> {
    let username = Username::parse(&body.username)?;
    let pool = state.domain.pool.clone();
    let account = state
        .password_hashing
        .run(async move { accounts::register(&pool, &username, body.password, Role::Player).await })
        .await??;
    Ok((StatusCode::CREATED, Json(account)))
}

#[utoipa::path(
    get,
    path = "/api/accounts/me",
    tag = "accounts",
    security(("bearer" = []), ("session" = [])),
    responses((status = 200, description = "the caller", body = Account))
)]
/// The signed-in account.
pub async fn me(AuthUser(account): AuthUser) -> Json<Account> {
    Json(account)
}
