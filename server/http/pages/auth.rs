//! Sign up, log in, log out: forms that keep what was typed (never the password) and show
//! errors next to the field. Logging in is rate limited like the API's.

use axum::extract::State;
use axum::http::header::RETRY_AFTER;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Redirect};
use secrecy::SecretString;
use serde::Deserialize;

use super::{render, render_with, store_failure, Chrome, Ctx, PageForm, PageResult};
use crate::domain::accounts::Username;
use crate::domain::{email, DomainError};
use crate::http::auth::{SESSION_ACCOUNT_KEY, SESSION_EPOCH_KEY};
use crate::http::extract::ClientAddress;
use crate::http::tokens::{check_credentials, Credentials};
use crate::http::AppState;

/// The sign-up and log-in form page.
#[derive(askama::Template)]
#[template(path = "auth.html")]
pub struct AuthPage {
    chrome: Chrome,
    action: &'static str,
    submit: String,
    signup: bool,
    username: String,
    form_error: Option<String>,
    username_error: Option<String>,
    password_error: Option<String>,
    email: String,
    email_error: Option<String>,
}

impl AuthPage {
    fn new(ctx: &Ctx, signup: bool, username: String) -> AuthPage {
        let (title, action) =
            if signup { ("auth.signup_title", "/signup") } else { ("auth.login_title", "/login") };
        AuthPage {
            chrome: ctx.chrome(title),
            action,
            submit: ctx.t.get(if signup { "auth.signup_button" } else { "auth.login_button" }).to_owned(),
            signup,
            username,
            form_error: None,
            username_error: None,
            password_error: None,
            email: String::new(),
            email_error: None,
        }
    }
}

/// What the forms send.
#[derive(Deserialize)]
pub struct AuthForm {
    #[serde(default)]
    csrf: String,
    username: String,
    password: String,
    /// Sign-up only: an optional e-mail address.
    #[serde(default)]
    email: String,
}

/// `GET /signup`.
pub async fn signup_form(ctx: Ctx) -> PageResult {
    render(&AuthPage::new(&ctx, true, String::new()))
}

/// `GET /login`.
pub async fn login_form(ctx: Ctx) -> PageResult {
    render(&AuthPage::new(&ctx, false, String::new()))
}

/// A new session id (no fixation) holding the account, with a new form token.
async fn sign_in(
    ctx: &mut Ctx,
    domain: &crate::domain::Domain,
    account_id: i64,
) -> Result<(), super::PageError> {
    ctx.session.cycle_id().await.map_err(store_failure)?;
    ctx.session.insert(SESSION_ACCOUNT_KEY, account_id).await.map_err(store_failure)?;
    let epoch = crate::domain::accounts::session_epoch(&domain.pool, account_id)
        .await
        .map_err(super::PageError::from)?;
    ctx.session.insert(SESSION_EPOCH_KEY, epoch).await.map_err(store_failure)?;
    ctx.rotate_csrf().await
}

/// The page of a refusal by a limit: 429 with `Retry-After`, `message` on the form.
fn limited(mut page: AuthPage, message: &str, retry_after: u64) -> PageResult {
    page.form_error = Some(message.to_owned());
    let mut response = render_with(StatusCode::TOO_MANY_REQUESTS, &page)?;
    response.headers_mut().insert(RETRY_AFTER, retry_after.max(1).into());
    Ok(response)
}

/// `POST /signup`: creates the account and signs in (limited per client address, the
/// verification mail per address mailed, as the API's sign-up).
pub async fn signup(
    State(state): State<AppState>,
    client: ClientAddress,
    mut ctx: Ctx,
    PageForm(form): PageForm<AuthForm>,
) -> PageResult {
    ctx.check_csrf(&form.csrf)?;
    let mut page = AuthPage::new(&ctx, true, form.username.clone());
    let username = match Username::parse(form.username.trim()) {
        Ok(name) => name,
        Err(_) => {
            page.username_error = Some(ctx.t.get("auth.error.username").to_owned());
            return render_with(StatusCode::UNPROCESSABLE_ENTITY, &page);
        }
    };
    page.email = form.email.trim().to_owned();
    if !page.email.is_empty() && crate::domain::email::parse_address(&page.email).is_err() {
        page.email_error = Some(ctx.t.get("mail.error.address").to_owned());
        return render_with(StatusCode::UNPROCESSABLE_ENTITY, &page);
    }
    let password = SecretString::from(form.password);
    if crate::domain::accounts::check_password_length(&password).is_err() {
        page.password_error = Some(ctx.t.get("auth.error.password").to_owned());
        return render_with(StatusCode::UNPROCESSABLE_ENTITY, &page);
    }
    if let Err(error) = state.signup_limiter.begin(client.0) {
        return limited(page, ctx.t.get("auth.error.signup_limited"), error.retry_after().unwrap_or(1));
    }
    let domain = state.domain.clone();
    let quota = state.mail_quota;
    let address = Some(page.email.clone()).filter(|text| !text.is_empty());
    let registered = state
        .password_hashing
        .run(async move { email::register(&domain, quota, &username, password, address.as_deref()).await })
        .await
        .map_err(|busy| super::PageError::Busy(ctx.t, busy.retry_after().unwrap_or(1)))?;
    match registered {
        Ok((account, _)) => {
            sign_in(&mut ctx, &state.domain, account.id).await?;
            Ok(Redirect::to("/").into_response())
        }
        Err(DomainError::Conflict(_)) => {
            page.username_error = Some(ctx.t.get("auth.error.taken").to_owned());
            render_with(StatusCode::CONFLICT, &page)
        }
        Err(DomainError::Invalid(_)) => {
            page.password_error = Some(ctx.t.get("auth.error.password").to_owned());
            render_with(StatusCode::UNPROCESSABLE_ENTITY, &page)
        }
        Err(error @ DomainError::Limited { .. }) => {
            limited(page, ctx.t.get("mail.error.too_many"), error.retry_after().unwrap_or(1))
        }
        Err(other) => Err(other.into()),
    }
}

/// `POST /login`: checks the credentials (rate limited) and signs in.
pub async fn login(
    State(state): State<AppState>,
    client: ClientAddress,
    mut ctx: Ctx,
    PageForm(form): PageForm<AuthForm>,
) -> PageResult {
    ctx.check_csrf(&form.csrf)?;
    let mut page = AuthPage::new(&ctx, false, form.username.clone());
    let credentials = Credentials { username: form.username, password: SecretString::from(form.password) };
    match check_credentials(&state, client, credentials).await {
        Ok(account) => {
            sign_in(&mut ctx, &state.domain, account.id).await?;
            Ok(Redirect::to("/").into_response())
        }
        Err(error) if error.status() == StatusCode::TOO_MANY_REQUESTS => {
            limited(page, ctx.t.get("auth.error.rate_limited"), error.retry_after().unwrap_or(1))
        }
        Err(error) if error.status() == StatusCode::SERVICE_UNAVAILABLE => {
            Err(super::PageError::Busy(ctx.t, error.retry_after().unwrap_or(1)))
        }
        Err(error) if error.status().is_client_error() => {
            page.form_error = Some(ctx.t.get("auth.error.credentials").to_owned());
            render_with(StatusCode::UNAUTHORIZED, &page)
        }
        Err(error) => Err(super::PageError::Internal(format!("login: status {}", error.status()))),
    }
}

/// What the log-out form sends.
#[derive(Deserialize)]
pub struct CsrfOnly {
    /// The session's CSRF token.
    #[serde(default)]
    pub csrf: String,
}

/// `POST /logout`: ends the session.
pub async fn logout(ctx: Ctx, PageForm(form): PageForm<CsrfOnly>) -> PageResult {
    ctx.check_csrf(&form.csrf)?;
    ctx.session.flush().await.map_err(store_failure)?;
    Ok(Redirect::to("/login").into_response())
}
