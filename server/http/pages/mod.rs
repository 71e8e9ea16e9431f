//! The HTML interface: server-rendered pages (askama templates in `templates/`), one file
//! per page or resource, for play by web form with JavaScript switched off.
//!
//! Every page gets a [`Ctx`]: the signed-in account, the interface language and the
//! session's CSRF token. Every form carries that token and every POST handler checks it
//! with [`Ctx::check_csrf`] before doing anything.
//!
//! A visitor who is not signed in gets no stored session for merely reading pages: the
//! token of such a visitor is kept (and the session stored, with a short expiry) only when
//! a page actually shows it in a form ([`FormToken`]), e.g. the log-in form.

pub mod admin;
pub mod archive;
pub mod archive_export;
pub mod auth;
pub mod board;
pub mod challenges;
pub mod conditional;
pub mod dashboard;
pub mod desk;
pub mod directing;
pub mod entries;
pub mod forms;
pub mod game;
pub mod home;
pub mod import;
pub mod mail;
pub mod notifications;
pub mod players;
pub mod rounds;
pub mod settings;
pub mod tournaments;

use std::fmt;
use std::sync::{Arc, Mutex};

use axum::extract::{FromRequestParts, Request};
use axum::http::header::ACCEPT_LANGUAGE;
use axum::http::request::Parts;
use axum::http::StatusCode;
use axum::middleware::Next;
use axum::response::{Html, IntoResponse, Redirect, Response};
use axum::routing::{get, post};
use axum::Router;
use tower_sessions::{Expiry, Session};

use super::auth::{new_csrf_token, same_token, signed_in, SESSION_CSRF_KEY};
use super::error::ApiError;
use super::AppState;
use crate::domain::accounts::Account;
use crate::domain::preferences::{self, Preferences};
use crate::domain::DomainError;
use crate::web::board::PieceStyle;
use crate::web::i18n::{Lang, Texts};

/// How long the session of a visitor who is not signed in, holding only the token of a
/// form shown to them, lives without use (a form older than that has expired).
const FORM_SESSION_LIFETIME: tower_sessions::cookie::time::Duration =
    tower_sessions::cookie::time::Duration::hours(2);
/// Session key of the interface preferences of a visitor who is not signed in (a signed-in
/// account's preferences are read from the account).
pub(crate) const PREFS_KEY: &str = "preferences";

/// The routes of the HTML interface.
pub fn router() -> Router<AppState> {
    Router::new()
        .route("/", get(home::show))
        .route("/signup", get(auth::signup_form).post(auth::signup))
        .route("/login", get(auth::login_form).post(auth::login))
        .route("/logout", post(auth::logout))
        .route("/settings", get(settings::show).post(settings::save))
        .route("/challenges", get(challenges::list).post(challenges::create))
        .route("/challenges/new", get(challenges::new_form))
        .route("/challenges/{id}/accept", post(challenges::accept))
        .route("/challenges/{id}/cancel", post(challenges::cancel))
        .route("/challenges/{id}/leave", post(challenges::leave))
        .route("/challenges/{id}/decline", post(challenges::decline))
        .route("/games/{id}", get(game::show))
        .route("/games/{id}/moves", get(game::moves))
        .route("/games/{id}/panel", get(game::panel))
        .route("/games/{id}/move", post(game::play))
        .route("/games/{id}/action", post(game::action))
        .route("/games/{id}/conditional", post(conditional::create))
        .route("/games/{id}/conditional/delete", post(conditional::delete))
        .route("/games/{id}/board.svg", get(board::svg))
        .route("/games/{id}/record/{format}", get(archive::record))
        .route("/archive", get(archive::show))
        .route("/archive/export/{format}", get(archive_export::export))
        .route("/import", get(import::form).post(import::submit))
        .route("/sections/{id}/rounds", get(rounds::show))
        // Tournaments for players and their directors (issue 38).
        .route("/tournaments", get(tournaments::list).post(directing::create))
        .route("/tournaments/new", get(directing::new_form))
        .route("/tournaments/{id}", get(tournaments::show))
        .route("/tournaments/{id}/follow", post(tournaments::follow))
        .route("/tournaments/{id}/status", post(directing::set_status))
        .route("/tournaments/{id}/announce", post(directing::announce))
        .route("/tournaments/{id}/sections", post(directing::create_section))
        .route("/tournaments/{id}/sections/new", get(directing::new_section_form))
        .route("/sections/{id}/join", post(entries::join))
        .route("/sections/{id}/withdraw", post(entries::withdraw))
        .route("/sections/{id}/start", post(directing::start))
        .route("/sections/{id}/next-round", post(directing::next_round))
        .route("/admin", get(admin::show))
        .route("/tournaments/{id}/desk", get(desk::show).post(desk::decide))
        .route("/admin/accounts/{username}", post(admin::update))
        .route("/players/{username}", get(players::profile))
        .route("/leaderboards", get(players::leaderboards))
        .route("/leaderboards/{variant}/{pool}", get(players::leaderboard))
        // Mail and notifications (#17).
        .route("/email/verify", get(mail::verify))
        .route("/notifications/unsubscribe", get(mail::unsubscribe_form).post(mail::unsubscribe))
        .route("/password/forgot", get(mail::forgot_form).post(mail::forgot))
        .route("/password/reset", get(mail::reset_form).post(mail::reset))
        .route("/notifications", get(notifications::list))
        .route("/notifications/read", post(notifications::mark_read))
        .route("/settings/mail", get(notifications::settings_form).post(notifications::settings_save))
        .route("/admin/outbox", get(notifications::outbox_page))
        .route_layer(axum::middleware::from_fn(keep_shown_form_token))
}

/// A form token made for a visitor without one, waiting to be shown.
#[derive(Clone, Debug, Default)]
struct UnsavedFormToken(Arc<Mutex<Option<String>>>);

impl UnsavedFormToken {
    fn lock(&self) -> std::sync::MutexGuard<'_, Option<String>> {
        self.0.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
    }
}

/// Keeps the form token a page showed to a visitor who had none: the session is stored
/// only then (with [`FORM_SESSION_LIFETIME`]), so reading pages stores nothing.
async fn keep_shown_form_token(session: Session, mut request: Request, next: Next) -> Response {
    let unsaved = UnsavedFormToken::default();
    request.extensions_mut().insert(unsaved.clone());
    let response = next.run(request).await;
    let shown = unsaved.lock().take();
    if let Some(token) = shown {
        session.set_expiry(Some(Expiry::OnInactivity(FORM_SESSION_LIFETIME)));
        if let Err(error) = session.insert(SESSION_CSRF_KEY, token).await {
            return store_failure(error).into_response();
        }
    }
    response
}

/// The session's CSRF token as the templates write it into forms. A token not yet stored
/// (a visitor's first form) is marked as shown when it is written, and stored after the
/// page by [`keep_shown_form_token`].
#[derive(Clone, Debug, Default)]
pub struct FormToken {
    token: String,
    unsaved: Option<UnsavedFormToken>,
}

impl FormToken {
    fn stored(token: String) -> FormToken {
        FormToken { token, unsaved: None }
    }
}

impl fmt::Display for FormToken {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(unsaved) = &self.unsaved {
            unsaved.lock().get_or_insert_with(|| self.token.clone());
        }
        f.write_str(&self.token)
    }
}

/// Path parameters of a page. A path whose parameters do not parse (`/games/abc`) names
/// no page: the site's 404 page, in the reader's language, not a plain-text 400.
#[derive(Debug)]
pub struct PagePath<T>(pub T);

impl<T> FromRequestParts<AppState> for PagePath<T>
where
    T: serde::de::DeserializeOwned + Send,
{
    type Rejection = PageError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, Self::Rejection> {
        match axum::extract::Path::<T>::from_request_parts(parts, state).await {
            Ok(axum::extract::Path(value)) => Ok(PagePath(value)),
            Err(_) => {
                let accept = parts.headers.get(ACCEPT_LANGUAGE).and_then(|v| v.to_str().ok());
                let lang = Lang::negotiate(None, accept, state.default_language);
                Err(PageError::NotFound(Texts::new(lang)))
            }
        }
    }
}

/// What every page handler knows about the request.
pub struct Ctx {
    /// The browser session.
    pub session: Session,
    /// The signed-in account, if any.
    pub user: Option<Account>,
    /// Interface text in the chosen language.
    pub t: Texts,
    /// The session's CSRF token.
    pub csrf: FormToken,
    /// Preferences: the account's when signed in, else the session's.
    pub prefs: Preferences,
    /// The signed-in account's unread notifications (the header shows them).
    pub unread: i64,
}

/// The part of every page the layout draws.
pub struct Chrome {
    /// Interface text.
    pub t: Texts,
    /// Signed-in username.
    pub user: Option<String>,
    /// CSRF token for the forms.
    pub csrf: FormToken,
    /// Page title.
    pub title: String,
    /// Unread notifications of the signed-in account.
    pub unread: i64,
}

impl Ctx {
    /// The layout's data with a title from the catalogue key `title_key`.
    pub fn chrome(&self, title_key: &str) -> Chrome {
        Chrome {
            t: self.t,
            user: self.user.as_ref().map(|u| u.username.clone()),
            csrf: self.csrf.clone(),
            title: self.t.get(title_key).to_owned(),
            unread: self.unread,
        }
    }

    /// Refuses a form whose token is not the session's (403).
    ///
    /// # Errors
    /// [`PageError::Csrf`] on a missing or different token.
    pub fn check_csrf(&self, submitted: &str) -> Result<(), PageError> {
        // A token never stored (nobody was shown a form in this session) matches nothing.
        if self.csrf.unsaved.is_none() && same_token(&self.csrf.token, submitted) {
            Ok(())
        } else {
            Err(PageError::Csrf(self.t))
        }
    }

    /// Gives the session a new form token (at login: a token seen before signing in is
    /// not the signed-in session's).
    ///
    /// # Errors
    /// The session store fails.
    pub async fn rotate_csrf(&mut self) -> Result<(), PageError> {
        let token = new_csrf_token();
        self.session.insert(SESSION_CSRF_KEY, &token).await.map_err(store_failure)?;
        self.csrf = FormToken::stored(token);
        Ok(())
    }

    /// The signed-in account, or a redirect to the login page.
    ///
    /// # Errors
    /// [`PageError::Login`] when nobody is signed in.
    pub fn require_user(&self) -> Result<&Account, PageError> {
        self.user.as_ref().ok_or(PageError::Login)
    }

    /// The chosen piece style.
    pub fn piece_style(&self) -> PieceStyle {
        PieceStyle::from_setting(self.prefs.piece_style.as_str())
    }
}

pub(crate) fn store_failure(error: impl std::fmt::Display) -> PageError {
    PageError::Internal(format!("session store: {error}"))
}

impl FromRequestParts<AppState> for Ctx {
    type Rejection = PageError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, Self::Rejection> {
        let session = Session::from_request_parts(parts, state)
            .await
            .map_err(|(_, message)| PageError::Internal(message.to_owned()))?;
        // An unusable bearer token on a page request simply means "not signed in"; the
        // forms check their own token, so no origin check here.
        let user = signed_in(parts, state, false).await.ok().flatten();
        let prefs = match &user {
            Some(account) => preferences::of_account(&state.domain.pool, account.id)
                .await
                .map_err(|e| PageError::Internal(e.to_string()))?,
            None => session.get::<Preferences>(PREFS_KEY).await.map_err(store_failure)?.unwrap_or_default(),
        };
        let accept = parts.headers.get(ACCEPT_LANGUAGE).and_then(|v| v.to_str().ok());
        let t = Texts::new(Lang::negotiate(prefs.language_tag(), accept, state.default_language));
        let unsaved = parts.extensions.get::<UnsavedFormToken>().cloned();
        let csrf = match session.get::<String>(SESSION_CSRF_KEY).await.map_err(store_failure)? {
            Some(token) => FormToken::stored(token),
            // A visitor's first form: stored only if a page shows it.
            None if user.is_none() && unsaved.is_some() => FormToken { token: new_csrf_token(), unsaved },
            // A signed-in session is stored anyway.
            None => {
                let token = new_csrf_token();
                session.insert(SESSION_CSRF_KEY, &token).await.map_err(store_failure)?;
                FormToken::stored(token)
            }
        };
        let unread = match &user {
            Some(account) => crate::storage::notifications::unread(&state.domain.pool, account.id)
                .await
                .map_err(|e| PageError::Internal(e.to_string()))?,
            None => 0,
        };
        Ok(Ctx { session, user, t, csrf, prefs, unread })
    }
}

/// Why a page cannot be shown.
#[derive(Debug)]
pub enum PageError {
    /// Sign in first: redirect to the login page.
    Login,
    /// The form's CSRF token is missing or wrong (403).
    Csrf(Texts),
    /// No such page (404).
    NotFound(Texts),
    /// Too busy to answer now (503), to be tried again after the given seconds.
    Busy(Texts, u64),
    /// Anything unexpected (500; logged, never shown).
    Internal(String),
}

impl From<askama::Error> for PageError {
    fn from(error: askama::Error) -> Self {
        PageError::Internal(format!("template: {error}"))
    }
}

impl IntoResponse for PageError {
    fn into_response(self) -> Response {
        match self {
            PageError::Login => Redirect::to("/login").into_response(),
            PageError::Csrf(t) => (StatusCode::FORBIDDEN, Html(simple_page(t, "error.csrf"))).into_response(),
            PageError::NotFound(t) => {
                (StatusCode::NOT_FOUND, Html(simple_page(t, "error.not_found"))).into_response()
            }
            PageError::Busy(t, seconds) => (
                StatusCode::SERVICE_UNAVAILABLE,
                [(axum::http::header::RETRY_AFTER, seconds.to_string())],
                Html(simple_page(t, "error.busy")),
            )
                .into_response(),
            PageError::Internal(message) => {
                tracing::error!(error = %message, "page failed");
                (StatusCode::INTERNAL_SERVER_ERROR, Html(simple_page(Texts::new(Lang::En), "error.internal")))
                    .into_response()
            }
        }
    }
}

fn simple_page(t: Texts, key: &str) -> String {
    let page = MessagePage {
        chrome: Chrome { t, user: None, csrf: FormToken::default(), title: t.get(key).to_owned(), unread: 0 },
    };
    askama::Template::render(&page).unwrap_or_else(|_| t.get(key).to_owned())
}

/// A page with only a message (errors).
#[derive(askama::Template)]
#[template(path = "message.html")]
struct MessagePage {
    chrome: Chrome,
}

/// A refusal as a sentence in the reader's language: the catalogue's `refusal.<code>`
/// with the error's parameters (the move text, the readings of an ambiguous text...), a
/// variant named in the reader's language; the English sentence when the catalogue has no
/// text for the code (issue 15 §6).
pub fn refusal_text(t: Texts, error: &DomainError) -> String {
    let Some(template) = t.lookup(&format!("refusal.{}", error.code())) else {
        return ApiError::describe(error).detail().to_owned();
    };
    let mut text = template.to_owned();
    for (name, value) in error.params() {
        let value = match name {
            "variant" => t.lookup(&format!("variant.{value}")).map_or(value, str::to_owned),
            _ => value,
        };
        text = text.replace(&format!("{{{name}}}"), &value);
    }
    text
}

/// Result of a page handler.
pub type PageResult = Result<Response, PageError>;

/// Renders a template as a 200 page.
///
/// # Errors
/// The template fails to render.
pub fn render(template: &impl askama::Template) -> PageResult {
    Ok(Html(template.render()?).into_response())
}

/// Renders a template with a status (e.g. 422 for a form with errors).
///
/// # Errors
/// The template fails to render.
pub fn render_with(status: StatusCode, template: &impl askama::Template) -> PageResult {
    Ok((status, Html(template.render()?)).into_response())
}
