//! The HTML interface: server-rendered pages (askama templates in `templates/`), one file
//! per page or resource, for play by web form with JavaScript switched off.
//!
//! Every page gets a [`Ctx`]: the signed-in account, the interface language and the
//! session's CSRF token. Every form carries that token and every POST handler checks it
//! with [`Ctx::check_csrf`] before doing anything.

pub mod archive;
pub mod auth;
pub mod board;
pub mod challenges;
pub mod dashboard;
pub mod game;
pub mod settings;

use axum::extract::FromRequestParts;
use axum::http::header::ACCEPT_LANGUAGE;
use axum::http::request::Parts;
use axum::http::StatusCode;
use axum::response::{Html, IntoResponse, Redirect, Response};
use axum::routing::{get, post};
use axum::Router;
use rand::RngCore;
use tower_sessions::Session;

use super::auth::MaybeAuthUser;
use super::AppState;
use crate::domain::accounts::Account;
use crate::domain::preferences::{self, Preferences};
use crate::web::board::PieceStyle;
use crate::web::i18n::{Lang, Texts};

/// Session key of the CSRF token.
const CSRF_KEY: &str = "csrf";
/// Session key of the interface preferences of a visitor who is not signed in (a signed-in
/// account's preferences are read from the account).
pub(crate) const PREFS_KEY: &str = "preferences";

/// The routes of the HTML interface.
pub fn router() -> Router<AppState> {
    Router::new()
        .route("/", get(dashboard::show))
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
        .route("/games/{id}/move", post(game::play))
        .route("/games/{id}/action", post(game::action))
        .route("/games/{id}/board.svg", get(board::svg))
        .route("/games/{id}/record/{format}", get(archive::record))
        .route("/archive", get(archive::show))
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
    pub csrf: String,
    /// Preferences: the account's when signed in, else the session's.
    pub prefs: Preferences,
}

/// The part of every page the layout draws.
pub struct Chrome {
    /// Interface text.
    pub t: Texts,
    /// Signed-in username.
    pub user: Option<String>,
    /// CSRF token for the forms.
    pub csrf: String,
    /// Page title.
    pub title: String,
}

impl Ctx {
    /// The layout's data with a title from the catalogue key `title_key`.
    pub fn chrome(&self, title_key: &str) -> Chrome {
        Chrome {
            t: self.t,
            user: self.user.as_ref().map(|u| u.username.clone()),
            csrf: self.csrf.clone(),
            title: self.t.get(title_key).to_owned(),
        }
    }

    /// Refuses a form whose token is not the session's (403).
    ///
    /// # Errors
    /// [`PageError::Csrf`] on a missing or different token.
    pub fn check_csrf(&self, submitted: &str) -> Result<(), PageError> {
        let expected = self.csrf.as_bytes();
        let given = submitted.as_bytes();
        // Compare in constant time for equal lengths.
        let same = expected.len() == given.len()
            && expected.iter().zip(given).fold(0u8, |acc, (a, b)| acc | (a ^ b)) == 0;
        if same && !expected.is_empty() {
            Ok(())
        } else {
            Err(PageError::Csrf(self.t))
        }
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
        // An unusable bearer token on a page request simply means "not signed in".
        let user = MaybeAuthUser::from_request_parts(parts, state).await.ok().and_then(|m| m.0);
        let prefs = match &user {
            Some(account) => preferences::of_account(&state.domain.pool, account.id)
                .await
                .map_err(|e| PageError::Internal(e.to_string()))?,
            None => session.get::<Preferences>(PREFS_KEY).await.map_err(store_failure)?.unwrap_or_default(),
        };
        let accept = parts.headers.get(ACCEPT_LANGUAGE).and_then(|v| v.to_str().ok());
        let t = Texts::new(Lang::negotiate(prefs.language_tag(), accept));
        let csrf = match session.get::<String>(CSRF_KEY).await.map_err(store_failure)? {
            Some(token) => token,
            None => {
                let mut bytes = [0u8; 32];
                rand::thread_rng().fill_bytes(&mut bytes);
                let token = hex::encode(bytes);
                session.insert(CSRF_KEY, &token).await.map_err(store_failure)?;
                token
            }
        };
        Ok(Ctx { session, user, t, csrf, prefs })
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
    let page =
        MessagePage { chrome: Chrome { t, user: None, csrf: String::new(), title: t.get(key).to_owned() } };
    askama::Template::render(&page).unwrap_or_else(|_| t.get(key).to_owned())
}

/// A page with only a message (errors).
#[derive(askama::Template)]
#[template(path = "message.html")]
struct MessagePage {
    chrome: Chrome,
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
