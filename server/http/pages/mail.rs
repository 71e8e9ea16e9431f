//! The pages the mails link to (#17 §1, §2): the address verification (a plain GET of
//! the signed link), the one-click unsubscribe (RFC 8058: the mail client POSTs to the
//! link; a person gets a confirmation form first), and the password reset forms.

use axum::extract::State;
use axum::http::header::RETRY_AFTER;
use axum::http::StatusCode;
use axum::response::Response;
use secrecy::SecretString;
use serde::Deserialize;

use super::{render, render_with, Chrome, Ctx, PageForm, PageQuery, PageResult};
use crate::domain::notifications::{self, Kind};
use crate::domain::{email, DomainError};
use crate::http::AppState;

/// A page with a sentence, a link, and maybe a confirmation button.
#[derive(askama::Template)]
#[template(path = "notice.html")]
pub struct NoticePage {
    chrome: Chrome,
    text: String,
    link: Option<(String, String)>,
    confirm_action: Option<String>,
    confirm_label: String,
}

impl NoticePage {
    fn new(ctx: &Ctx, title_key: &str, text: String) -> NoticePage {
        NoticePage {
            chrome: ctx.chrome(title_key),
            text,
            link: None,
            confirm_action: None,
            confirm_label: String::new(),
        }
    }
}

/// The verification link's parameters.
#[derive(Deserialize)]
pub struct VerifyQuery {
    account: i64,
    expires: i64,
    sig: String,
}

/// `GET /email/verify`: the link of the verification mail; following it verifies the
/// address (nothing else to do: the signature proves the mail was read).
pub async fn verify(
    State(state): State<AppState>,
    ctx: Ctx,
    query: Result<PageQuery<VerifyQuery>, Response>,
) -> PageResult {
    let verified = match query {
        Ok(PageQuery(q)) => {
            email::verify(&state.domain, &state.mail.links, q.account, q.expires, &q.sig).await
        }
        Err(_) => Err(DomainError::Invalid("no link".to_owned())),
    };
    match verified {
        Ok(()) => {
            let mut page =
                NoticePage::new(&ctx, "mail.verified.title", ctx.t.get("mail.verified.text").to_owned());
            page.link = Some(("/settings/mail".to_owned(), ctx.t.get("mail.settings.title").to_owned()));
            render(&page)
        }
        Err(DomainError::Internal(error)) => Err(super::PageError::Internal(error.to_string())),
        Err(_) => {
            let page = NoticePage::new(
                &ctx,
                "mail.verify_failed.title",
                ctx.t.get("mail.verify_failed.text").to_owned(),
            );
            render_with(StatusCode::BAD_REQUEST, &page)
        }
    }
}

/// The unsubscribe link's parameters.
#[derive(Deserialize)]
pub struct UnsubscribeQuery {
    account: i64,
    kind: String,
    sig: String,
}

impl UnsubscribeQuery {
    fn checked(&self, state: &AppState) -> Option<Kind> {
        let kind: Kind = self.kind.parse().ok()?;
        state.mail.links.check_unsubscribe(self.account, kind.as_str(), &self.sig).then_some(kind)
    }
}

fn kind_name(ctx: &Ctx, kind: Kind) -> String {
    ctx.t.get(&format!("mail.kind.{kind}")).to_owned()
}

/// `GET /notifications/unsubscribe`: asks a person to confirm (a link checker that
/// follows links must not unsubscribe anyone).
pub async fn unsubscribe_form(
    State(state): State<AppState>,
    ctx: Ctx,
    query: Result<PageQuery<UnsubscribeQuery>, Response>,
) -> PageResult {
    let Ok(PageQuery(query)) = query else { return invalid_link(&ctx) };
    let Some(kind) = query.checked(&state) else { return invalid_link(&ctx) };
    let text = ctx.t.get("mail.unsubscribe.confirm").replace("{kind}", &kind_name(&ctx, kind));
    let mut page = NoticePage::new(&ctx, "mail.unsubscribe.title", text);
    page.confirm_action =
        Some(format!("/notifications/unsubscribe?account={}&kind={}&sig={}", query.account, kind, query.sig));
    page.confirm_label = ctx.t.get("mail.unsubscribe.button").to_owned();
    render(&page)
}

/// `POST /notifications/unsubscribe`: the RFC 8058 one-click unsubscribe (body
/// `List-Unsubscribe=One-Click`, sent by the mail client without cookies) and the
/// confirmation form's button. The link's signature is the authorization: no session and
/// no form token are needed.
pub async fn unsubscribe(
    State(state): State<AppState>,
    ctx: Ctx,
    query: Result<PageQuery<UnsubscribeQuery>, Response>,
) -> PageResult {
    let Ok(PageQuery(query)) = query else { return invalid_link(&ctx) };
    let Some(kind) = query.checked(&state) else { return invalid_link(&ctx) };
    notifications::unsubscribe(&state.domain, query.account, kind)
        .await
        .map_err(|e| super::PageError::Internal(e.to_string()))?;
    let text = ctx.t.get("mail.unsubscribed.text").replace("{kind}", &kind_name(&ctx, kind));
    render(&NoticePage::new(&ctx, "mail.unsubscribe.title", text))
}

fn invalid_link(ctx: &Ctx) -> PageResult {
    let page =
        NoticePage::new(ctx, "mail.unsubscribe.title", ctx.t.get("mail.unsubscribe.invalid").to_owned());
    render_with(StatusCode::BAD_REQUEST, &page)
}

/// The password forms.
#[derive(askama::Template)]
#[template(path = "password.html")]
pub struct PasswordPage {
    chrome: Chrome,
    action: &'static str,
    notice: Option<String>,
    error: Option<String>,
    token: Option<String>,
    show_form: bool,
}

impl PasswordPage {
    fn forgot(ctx: &Ctx) -> PasswordPage {
        PasswordPage {
            chrome: ctx.chrome("password.forgot.title"),
            action: "/password/forgot",
            notice: None,
            error: None,
            token: None,
            show_form: true,
        }
    }

    fn reset(ctx: &Ctx, token: String) -> PasswordPage {
        PasswordPage {
            chrome: ctx.chrome("password.reset.title"),
            action: "/password/reset",
            notice: None,
            error: None,
            token: Some(token),
            show_form: true,
        }
    }
}

/// `GET /password/forgot`.
pub async fn forgot_form(ctx: Ctx) -> PageResult {
    render(&PasswordPage::forgot(&ctx))
}

/// What the forgot form sends.
#[derive(Deserialize)]
pub struct ForgotForm {
    #[serde(default)]
    csrf: String,
    email: String,
}

/// `POST /password/forgot`: the same answer whether or not an account has the address;
/// limited as logins are.
pub async fn forgot(
    State(state): State<AppState>,
    client: crate::http::extract::ClientAddress,
    ctx: Ctx,
    PageForm(form): PageForm<ForgotForm>,
) -> PageResult {
    ctx.check_csrf(&form.csrf)?;
    let mut page = PasswordPage::forgot(&ctx);
    if let Err(error) = state.reset_limiter.begin(&form.email.trim().to_lowercase(), client.0) {
        page.error = Some(ctx.t.get("password.forgot.rate_limited").to_owned());
        let mut response = render_with(StatusCode::TOO_MANY_REQUESTS, &page)?;
        response.headers_mut().insert(RETRY_AFTER, error.retry_after().unwrap_or(1).into());
        return Ok(response);
    }
    email::request_reset_in_background(&state.domain, state.mail_quota, form.email);
    page.notice = Some(ctx.t.get("password.forgot.sent").to_owned());
    page.show_form = false;
    render(&page)
}

/// The reset link's parameter.
#[derive(Deserialize)]
pub struct ResetQuery {
    #[serde(default)]
    token: String,
}

/// `GET /password/reset?token=...`: the new password form (the token is checked when
/// the form is sent: reading the page uses nothing up).
pub async fn reset_form(ctx: Ctx, PageQuery(query): PageQuery<ResetQuery>) -> PageResult {
    render(&PasswordPage::reset(&ctx, query.token))
}

/// What the reset form sends.
#[derive(Deserialize)]
pub struct ResetForm {
    #[serde(default)]
    csrf: String,
    token: String,
    password: String,
}

/// `POST /password/reset`.
pub async fn reset(
    State(state): State<AppState>,
    ctx: Ctx,
    PageForm(form): PageForm<ResetForm>,
) -> PageResult {
    ctx.check_csrf(&form.csrf)?;
    let mut page = PasswordPage::reset(&ctx, form.token.clone());
    let domain = state.domain.clone();
    let password = SecretString::from(form.password);
    let token = form.token;
    // A short password or a token that cannot be used is refused before the password
    // waits for its turn to be hashed.
    let checked = match crate::domain::accounts::check_password_length(&password) {
        Ok(()) => email::check_reset_token(&domain, &token).await,
        Err(error) => Err(error),
    };
    let outcome = match checked {
        Err(error) => Err(error),
        Ok(()) => state
            .password_hashing
            .run(async move { email::reset_password(&domain, &token, password).await })
            .await
            .map_err(|busy| super::PageError::Busy(ctx.t, busy.retry_after().unwrap_or(1)))?,
    };
    match outcome {
        Ok(_) => {
            page.notice = Some(ctx.t.get("password.reset.done").to_owned());
            page.show_form = false;
            render(&page)
        }
        Err(DomainError::Invalid(_)) => {
            page.error = Some(ctx.t.get("auth.error.password").to_owned());
            render_with(StatusCode::UNPROCESSABLE_ENTITY, &page)
        }
        Err(error) if error.code() == "password-reset.invalid" => {
            page.notice = Some(ctx.t.get("password.reset.invalid").to_owned());
            page.show_form = false;
            render_with(StatusCode::UNPROCESSABLE_ENTITY, &page)
        }
        Err(error) => Err(super::PageError::Internal(error.to_string())),
    }
}
