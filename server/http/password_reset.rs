//! `POST /api/password-reset` (a mail with a single-use link) and
//! `POST /api/password-reset/confirm` (a new password with the link's token).

use axum::extract::State;
use axum::http::StatusCode;
use secrecy::SecretString;
use serde::Deserialize;

use super::error::ApiResult;
use super::extract::{ClientAddress, Json};
use super::AppState;
use crate::domain::{accounts, email};

/// A reset request.
#[derive(Deserialize, utoipa::ToSchema)]
pub struct ResetRequest {
    /// The account's verified address.
    email: String,
}

/// A new password with a reset token.
#[derive(Deserialize, utoipa::ToSchema)]
pub struct ResetConfirm {
    /// The token of the mail's link.
    #[schema(value_type = String, format = Password)]
    token: SecretString,
    /// The new password, at least 8 characters.
    #[schema(value_type = String, format = Password, min_length = 8)]
    password: SecretString,
}

#[utoipa::path(
    post,
    path = "/api/password-reset",
    tag = "accounts",
    request_body = ResetRequest,
    responses(
        (status = 202, description = "a mail goes to the address if an account has it verified; the answer is the same either way"),
        (status = 429, description = "too many requests for this address or from this client")
    )
)]
/// Asks for a password reset mail. The answer never says whether the address is
/// registered, neither in its words nor in its time: the work is done after the answer
/// ([`email::request_reset_in_background`]). Requests are limited per address and per
/// client as logins are, and the mails per address.
#[tracing::instrument(skip_all)]
pub async fn request(
    State(state): State<AppState>,
    client: ClientAddress,
    Json(body): Json<ResetRequest>,
) -> ApiResult<StatusCode> {
    // Every request counts (none "succeeds"): the limits of the login, keyed by address.
    let _counted = state.reset_limiter.begin(&body.email.trim().to_lowercase(), client.0)?;
    email::request_reset_in_background(&state.domain, state.mail_quota, body.email);
    Ok(StatusCode::ACCEPTED)
}

#[utoipa::path(
    post,
    path = "/api/password-reset/confirm",
    tag = "accounts",
    request_body = ResetConfirm,
    responses(
        (status = 204, description = "the password is changed; the account's bearer tokens are revoked and every cookie session of the account is ended"),
        (status = 422, description = "unknown, used or expired token, or a short password")
    )
)]
/// Sets a new password with the token of a reset mail (once, within the hour). The token
/// is checked before the password waits for its turn to be hashed: a forged token costs
/// no hash.
#[tracing::instrument(skip_all)]
pub async fn confirm(State(state): State<AppState>, Json(body): Json<ResetConfirm>) -> ApiResult<StatusCode> {
    let domain = state.domain.clone();
    let token = secrecy::ExposeSecret::expose_secret(&body.token).to_owned();
    accounts::check_password_length(&body.password)?;
    email::check_reset_token(&domain, &token).await?;
    state
        .password_hashing
        .run(async move { email::reset_password(&domain, &token, body.password).await })
        .await??;
    Ok(StatusCode::NO_CONTENT)
}
