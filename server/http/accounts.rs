//! `POST /api/accounts`: register; `GET/PATCH /api/accounts/me`: who am I, and my e-mail
//! address; `GET /api/admin/accounts/{username}`: an account as an admin sees it.

use axum::extract::State;
use axum::http::StatusCode;
use secrecy::SecretString;
use serde::{Deserialize, Serialize};

use super::auth::AuthUser;
use super::error::{ApiError, ApiResult};
use super::extract::{ClientAddress, Json, Path};
use super::AppState;
use crate::domain::accounts::{self, Account, Role, Username};
use crate::domain::email;

/// Registration request.
#[derive(Deserialize, utoipa::ToSchema)]
pub struct Register {
    /// Login and display name: 3 to 32 ASCII letters, digits, `_` or `-`, starting with a
    /// letter.
    #[schema(pattern = "^[A-Za-z][A-Za-z0-9_-]{2,31}$")]
    username: String,
    /// At least 8 characters.
    #[schema(value_type = String, format = Password, min_length = 8)]
    password: SecretString,
    /// An e-mail address (optional): a verification mail is sent to it.
    #[serde(default)]
    email: Option<String>,
}

/// The caller's account with its e-mail address (never shown to other users).
#[derive(Serialize, utoipa::ToSchema)]
pub struct Me {
    /// The account.
    #[serde(flatten)]
    account: Account,
    /// The address and whether it is verified.
    #[serde(flatten)]
    address: email::Address,
}

/// A change of the caller's account.
#[derive(Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub struct AccountPatch {
    /// The new address (`null` or `""` removes it); a verification mail is sent to it,
    /// and nothing else is until its link is followed.
    email: Option<String>,
}

#[utoipa::path(
    post,
    path = "/api/accounts",
    operation_id = "register_account",
    tag = "accounts",
    request_body = Register,
    responses(
        (status = 201, description = "created", body = Me),
        (status = 429, description = "too many sign-ups from this client address (`signup.rate-limited`), or too many verification mails to the address given (`email.too-many-mails`): nothing is created; `Retry-After` says when to try again")
    )
)]
/// Creates a player account (with an optional e-mail address, verified by mail). Sign-ups
/// are limited per client address, and the verification mails per address mailed.
#[tracing::instrument(skip_all)]
pub async fn register(
    State(state): State<AppState>,
    client: ClientAddress,
    Json(body): Json<Register>,
) -> ApiResult<(StatusCode, Json<Me>)> {
    let username = Username::parse(&body.username)?;
    // A bad address or password is refused before anything is counted or made.
    if let Some(text) = body.email.as_deref().map(str::trim).filter(|text| !text.is_empty()) {
        email::parse_address(text)?;
    }
    accounts::check_password_length(&body.password)?;
    state.signup_limiter.begin(client.0)?;
    let domain = state.domain.clone();
    let quota = state.mail_quota;
    let (account, address) =
        state
            .password_hashing
            .run(async move {
                email::register(&domain, quota, &username, body.password, body.email.as_deref()).await
            })
            .await??;
    Ok((StatusCode::CREATED, Json(Me { account, address })))
}

#[utoipa::path(
    get,
    path = "/api/accounts/me",
    tag = "accounts",
    security(("bearer" = []), ("session" = [])),
    responses((status = 200, description = "the caller", body = Me))
)]
/// The signed-in account, with its e-mail address.
pub async fn me(State(state): State<AppState>, AuthUser(account): AuthUser) -> ApiResult<Json<Me>> {
    let address = email::address(&state.domain, account.id).await?;
    Ok(Json(Me { account, address }))
}

#[utoipa::path(
    patch,
    path = "/api/accounts/me",
    operation_id = "update_my_account",
    tag = "accounts",
    request_body = AccountPatch,
    security(("bearer" = []), ("session" = [])),
    responses(
        (status = 200, description = "the caller after the change", body = Me),
        (status = 429, description = "too many verification mails asked for this account or this address in the hour (`email.too-many-mails`, the same answer either way): nothing changed; `Retry-After` says when to try again")
    )
)]
/// Sets the caller's e-mail address and sends the verification mail to it (a plain GET
/// of the mail's link verifies it).
#[tracing::instrument(skip_all)]
pub async fn update(
    State(state): State<AppState>,
    AuthUser(account): AuthUser,
    Json(patch): Json<AccountPatch>,
) -> ApiResult<Json<Me>> {
    let address =
        email::set_address(&state.domain, state.mail_quota, account.id, patch.email.as_deref()).await?;
    Ok(Json(Me { account, address }))
}

#[utoipa::path(
    get,
    path = "/api/admin/accounts/{username}",
    tag = "admin",
    params(("username" = String, Path, description = "The account's name")),
    security(("bearer" = []), ("session" = [])),
    responses((status = 200, description = "the account with its address", body = Me))
)]
/// An account as an admin sees it, with its e-mail address (admins only).
pub async fn show_for_admin(
    State(state): State<AppState>,
    AuthUser(caller): AuthUser,
    Path(username): Path<String>,
) -> ApiResult<Json<Me>> {
    require_admin(&caller)?;
    let id = accounts::account_id_by_username(&state.domain.pool, &username).await?;
    let account = accounts::account_by_id(&state.domain.pool, id).await?;
    let address = email::address(&state.domain, id).await?;
    Ok(Json(Me { account, address }))
}

/// Refuses anyone but an admin (403).
///
/// # Errors
/// 403 for players and directors.
pub fn require_admin(caller: &Account) -> ApiResult<()> {
    if caller.role == Role::Admin {
        Ok(())
    } else {
        Err(ApiError::from(crate::domain::DomainError::Forbidden("only an admin may do this".to_owned())))
    }
}
