//! The HTML interface: server-rendered pages (askama templates in `templates/`), one file
//! per page or resource, for play by web form with JavaScript switched off.
//!
//! Every page gets a [`Ctx`]: the signed-in account, the interface language and the
//! session's CSRF token. Every form carries that token and every POST handler checks it
//! with [`Ctx::check_csrf`] before doing anything.
//!
//! A visitor who is not signed in gets no stored session, neither for reading pages nor
//! for being shown a form: the token of such a visitor travels in a signed cookie (a
//! signed double-submit cookie, [`FormCookie`]), set when a page shows it in a form
//! ([`FormToken`]), e.g. the log-in form; a form is accepted when its token is the one of
//! that cookie. Signing in gives the stored session a token of its own.

pub mod admin;
pub mod analysis;
pub mod archive;
pub mod archive_export;
pub mod auth;
pub mod board;
pub mod challenges;
pub mod computer_analysis;
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
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use axum::body::{Body, Bytes};
use axum::extract::{FromRequest, FromRequestParts, Request};
use axum::http::header::ACCEPT_LANGUAGE;
use axum::http::request::Parts;
use axum::http::StatusCode;
use axum::response::{Html, IntoResponse, Redirect, Response};
use axum::routing::{get, post};
use axum::Router;
use tower_sessions::Session;

use super::auth::{new_csrf_token, same_token, signed_in, SESSION_CSRF_KEY};
use super::error::ApiError;
use super::extract::{encoded_holds_nul, path_holds_nul, query_holds_nul};
use super::AppState;
use crate::domain::accounts::Account;
use crate::domain::preferences::{self, Preferences};
use crate::domain::DomainError;
use crate::web::board::PieceStyle;
use crate::web::i18n::{Lang, Texts};

/// How long a visitor's form token lives (from the last page that showed it): a form
/// older than that has expired.
const FORM_TOKEN_LIFETIME: time::Duration = time::Duration::hours(2);
/// The name of the cookie carrying a visitor's form token.
const FORM_COOKIE: &str = "tavoliere_form";
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
        .route("/games/{id}/computer-analysis", post(computer_analysis::request))
        .route("/games/{id}/conditional", post(conditional::create))
        .route("/games/{id}/conditional/delete", post(conditional::delete))
        .route("/games/{id}/board.svg", get(board::svg))
        .route("/games/{id}/analysis", get(analysis::show))
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
}

/// The signed cookie carrying the form token of a visitor who has not signed in: its
/// value is the token and its expiry (unix seconds), signed with HMAC-SHA-256 (the cookie
/// crate's signed jar) under a key derived from the key every instance shares (table
/// `signing_key`), so a token set by one instance is accepted by all, and nobody can make
/// a cookie the server would take for its own.
#[derive(Clone)]
pub struct FormCookie {
    key: tower_cookies::Key,
    secure: bool,
}

impl fmt::Debug for FormCookie {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("FormCookie").field("secure", &self.secure).finish_non_exhaustive()
    }
}

impl FormCookie {
    /// Signs with a key derived from `secret`; `secure` gives the cookie the `Secure`
    /// flag (`[application] secure_cookies`).
    pub fn new(secret: &[u8], secure: bool) -> FormCookie {
        use sha2::{Digest, Sha512};
        // The cookie crate wants 64 bytes; a key of its own, not the mail links' one.
        let derived = Sha512::new().chain_update(b"tavoliere form cookie\0").chain_update(secret).finalize();
        FormCookie { key: tower_cookies::Key::from(&derived[..]), secure }
    }

    /// The token of the visitor's cookie, when its signature holds and it has not expired
    /// at `now` (unix seconds).
    fn read(&self, cookies: &tower_cookies::Cookies, now: i64) -> Option<String> {
        let cookie = cookies.signed(&self.key).get(FORM_COOKIE)?;
        let (token, expires) = cookie.value().split_once('.')?;
        let expires: i64 = expires.parse().ok()?;
        (now < expires && !token.is_empty()).then(|| token.to_owned())
    }

    /// Sets the visitor's cookie to `token`, expiring [`FORM_TOKEN_LIFETIME`] after `now`.
    fn write(&self, cookies: &tower_cookies::Cookies, token: &str, now: i64) {
        let expires = now + FORM_TOKEN_LIFETIME.whole_seconds();
        let cookie = tower_cookies::Cookie::build((FORM_COOKIE, format!("{token}.{expires}")))
            .path("/")
            .http_only(true)
            .secure(self.secure)
            .same_site(tower_cookies::cookie::SameSite::Lax)
            .max_age(tower_cookies::cookie::time::Duration::seconds(FORM_TOKEN_LIFETIME.whole_seconds()))
            .build();
        cookies.signed(&self.key).add(cookie);
    }

    /// Removes the visitor's cookie (the visitor signed in).
    fn remove(&self, cookies: &tower_cookies::Cookies) {
        cookies.remove(tower_cookies::Cookie::build(FORM_COOKIE).path("/").build());
    }
}

/// A visitor's form token and the cookie that carries it, set when the token is shown.
#[derive(Clone)]
struct VisitorCookie {
    cookies: tower_cookies::Cookies,
    form_cookie: FormCookie,
    now: i64,
    /// Whether a page showed the token (the cookie is then set, once).
    shown: Arc<AtomicBool>,
}

impl fmt::Debug for VisitorCookie {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("VisitorCookie").field("shown", &self.shown).finish_non_exhaustive()
    }
}

/// The CSRF token as the templates write it into forms: the stored session's (signed in),
/// or a visitor's, carried by the signed [`FormCookie`]. Writing a visitor's token sets
/// the cookie (again, for another [`FORM_TOKEN_LIFETIME`]); a page that shows no form sets
/// nothing.
#[derive(Clone, Debug, Default)]
pub struct FormToken {
    token: String,
    /// Whether the client holds this token (in its session or its cookie): a token made
    /// for this request only matches nothing.
    held: bool,
    visitor: Option<VisitorCookie>,
}

impl FormToken {
    fn stored(token: String) -> FormToken {
        FormToken { token, held: true, visitor: None }
    }
}

impl fmt::Display for FormToken {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(visitor) = &self.visitor {
            if !visitor.shown.swap(true, Ordering::SeqCst) {
                visitor.form_cookie.write(&visitor.cookies, &self.token, visitor.now);
            }
        }
        f.write_str(&self.token)
    }
}

/// The interface text of an error page answered before [`Ctx`] is read: the language of
/// the request's `Accept-Language`.
fn request_texts(parts: &Parts, state: &AppState) -> Texts {
    let accept = parts.headers.get(ACCEPT_LANGUAGE).and_then(|v| v.to_str().ok());
    Texts::new(Lang::negotiate(None, accept, state.default_language))
}

/// Path parameters of a page. A path whose parameters do not parse (`/games/abc`), or
/// that holds NUL (`%00`, which no name can contain), names no page: the site's 404
/// page, in the reader's language, not a plain-text 400.
#[derive(Debug)]
pub struct PagePath<T>(pub T);

impl<T> FromRequestParts<AppState> for PagePath<T>
where
    T: serde::de::DeserializeOwned + Send,
{
    type Rejection = PageError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, Self::Rejection> {
        if path_holds_nul(parts) {
            return Err(PageError::NotFound(request_texts(parts, state)));
        }
        match axum::extract::Path::<T>::from_request_parts(parts, state).await {
            Ok(axum::extract::Path(value)) => Ok(PagePath(value)),
            Err(_) => Err(PageError::NotFound(request_texts(parts, state))),
        }
    }
}

/// A page's query string: one holding NUL is refused with a 422 page (text that no
/// PostgreSQL text can hold, never passed on); other refusals are axum's.
#[derive(Debug)]
pub struct PageQuery<T>(pub T);

impl<T> FromRequestParts<AppState> for PageQuery<T>
where
    T: serde::de::DeserializeOwned,
{
    type Rejection = Response;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, Self::Rejection> {
        if query_holds_nul(parts) {
            return Err(PageError::InvalidText(request_texts(parts, state)).into_response());
        }
        match axum::extract::Query::<T>::from_request_parts(parts, state).await {
            Ok(axum::extract::Query(value)) => Ok(PageQuery(value)),
            Err(rejection) => Err(rejection.into_response()),
        }
    }
}

/// A page's form (its body, or for a GET its query string): one holding NUL is refused
/// with a 422 page; other refusals are axum's.
#[derive(Debug)]
pub struct PageForm<T>(pub T);

impl<T> FromRequest<AppState> for PageForm<T>
where
    T: serde::de::DeserializeOwned,
{
    type Rejection = Response;

    async fn from_request(request: Request, state: &AppState) -> Result<Self, Self::Rejection> {
        let (parts, body) = request.into_parts();
        // Read through the request's own parts, so that the body limit applies.
        let bytes = match Bytes::from_request(Request::from_parts(parts.clone(), body), state).await {
            Ok(bytes) => bytes,
            Err(rejection) => return Err(rejection.into_response()),
        };
        if query_holds_nul(&parts) || encoded_holds_nul(&bytes) {
            return Err(PageError::InvalidText(request_texts(&parts, state)).into_response());
        }
        match axum::Form::<T>::from_request(Request::from_parts(parts, Body::from(bytes)), state).await {
            Ok(axum::Form(value)) => Ok(PageForm(value)),
            Err(rejection) => Err(rejection.into_response()),
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

    /// Refuses a form whose token is not the session's, or for a visitor the signed
    /// cookie's (403).
    ///
    /// # Errors
    /// [`PageError::Csrf`] on a missing or different token.
    pub fn check_csrf(&self, submitted: &str) -> Result<(), PageError> {
        // A token the client does not hold (no form was shown to it) matches nothing.
        if self.csrf.held && same_token(&self.csrf.token, submitted) {
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
        // The visitor's cookie is done with: the session holds the token from now on.
        if let Some(visitor) = &self.csrf.visitor {
            visitor.form_cookie.remove(&visitor.cookies);
        }
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
        match Ctx::read(parts, state).await {
            // Every page reads the session and the account first: in the first moments of
            // an outage, before the probe has seen it, this is where pages fail. The
            // probe is asked at once, so an outage is the 503 page (issue 40 §5), not a 500.
            Err(PageError::Internal(message)) if !state.database_health.probe().await => {
                tracing::warn!(error = %message, "page refused: the database is unreachable");
                Err(PageError::Unavailable)
            }
            read => read,
        }
    }
}

impl Ctx {
    async fn read(parts: &mut Parts, state: &AppState) -> Result<Ctx, PageError> {
        let session = Session::from_request_parts(parts, state)
            .await
            .map_err(|(_, message)| PageError::Internal(message.to_owned()))?;
        // An unusable bearer token on a page request simply means "not signed in"; the
        // forms check their own token, so no origin check here.
        let user = signed_in(parts, state, false).await.ok().flatten();
        let prefs = match &user {
            Some(account) => preferences::of_account(&state.domain.pool, account.id).await?,
            None => session.get::<Preferences>(PREFS_KEY).await.map_err(store_failure)?.unwrap_or_default(),
        };
        let accept = parts.headers.get(ACCEPT_LANGUAGE).and_then(|v| v.to_str().ok());
        let t = Texts::new(Lang::negotiate(prefs.language_tag(), accept, state.default_language));
        let cookies = parts.extensions.get::<tower_cookies::Cookies>().cloned();
        let csrf = match (session.get::<String>(SESSION_CSRF_KEY).await.map_err(store_failure)?, cookies) {
            (Some(token), _) => FormToken::stored(token),
            // A visitor: the token of the signed cookie, or a new one (set if shown).
            (None, Some(cookies)) if user.is_none() => {
                let now = state.domain.clock.now().unix_timestamp();
                let held = state.form_cookie.read(&cookies, now);
                let visitor = VisitorCookie {
                    cookies,
                    form_cookie: state.form_cookie.clone(),
                    now,
                    shown: Arc::default(),
                };
                FormToken {
                    held: held.is_some(),
                    token: held.unwrap_or_else(new_csrf_token),
                    visitor: Some(visitor),
                }
            }
            // A signed-in session is stored anyway.
            (None, _) => {
                let token = new_csrf_token();
                session.insert(SESSION_CSRF_KEY, &token).await.map_err(store_failure)?;
                FormToken::stored(token)
            }
        };
        let unread = match &user {
            Some(account) => crate::storage::notifications::unread(&state.domain.pool, account.id).await?,
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
    /// The address or the form holds text no text may contain, NUL (422).
    InvalidText(Texts),
    /// Too busy to answer now (503), to be tried again after the given seconds.
    Busy(Texts, u64),
    /// The database cannot be reached (503, the outage page that reloads itself).
    Unavailable,
    /// Anything unexpected (500; logged, never shown).
    Internal(String),
}

/// A domain error no page handles by itself: an outage is the 503 page, anything else
/// an internal error (handlers answer the expected refusals, "not found" and the like,
/// before this).
impl From<DomainError> for PageError {
    fn from(error: DomainError) -> Self {
        if ApiError::describe(&error).status() == StatusCode::SERVICE_UNAVAILABLE {
            PageError::Unavailable
        } else {
            PageError::Internal(error.to_string())
        }
    }
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
            PageError::InvalidText(t) => {
                (StatusCode::UNPROCESSABLE_ENTITY, Html(simple_page(t, "error.invalid_text"))).into_response()
            }
            PageError::Busy(t, seconds) => (
                StatusCode::SERVICE_UNAVAILABLE,
                [(axum::http::header::RETRY_AFTER, seconds.to_string())],
                Html(simple_page(t, "error.busy")),
            )
                .into_response(),
            PageError::Unavailable => super::availability::busy_page(),
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
