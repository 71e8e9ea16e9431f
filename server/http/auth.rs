//! Who is asking: a bearer API token (programs) or a cookie session (the web).
//!
//! A cookie goes with every request the browser makes to this site, whichever site's page
//! made it; so a request authenticated by the cookie that changes something (any method
//! but GET, HEAD and OPTIONS, and the WebSocket handshake, whose socket may act) must show
//! that it comes from this site's own pages: the session's CSRF token in the
//! `X-CSRF-Token` header, or `Sec-Fetch-Site: same-origin`, or (older browsers) an
//! `Origin` equal to this site's. Otherwise it is refused (403) before it does anything.
//! Bearer tokens are never sent by browsers on their own, so requests with one are
//! taken as they are. The HTML forms carry the token in a field instead
//! ([`super::pages::Ctx::check_csrf`]).

use axum::extract::{FromRef, FromRequestParts};
use axum::http::header::{AUTHORIZATION, HOST, ORIGIN, UPGRADE};
use axum::http::request::Parts;
use axum::http::{HeaderMap, Method, StatusCode};
use rand::RngCore;
use tower_sessions::Session;

use super::error::ApiError;
use crate::domain::accounts::{self, Account};
use crate::domain::{Domain, DomainError};

/// Session key holding the account id.
pub const SESSION_ACCOUNT_KEY: &str = "account_id";
/// The session key holding the account's session epoch when it signed in: a password
/// reset moves the epoch on and so ends every session (none stored: 0).
pub const SESSION_EPOCH_KEY: &str = "session_epoch";
/// Session key of the session's CSRF token.
pub const SESSION_CSRF_KEY: &str = "csrf";
/// The request header carrying the CSRF token (and the response header of
/// `POST /api/session` that hands it out).
pub const CSRF_HEADER: &str = "x-csrf-token";

/// A signed-in account; answers 401 when there is none.
#[derive(Debug, Clone)]
pub struct AuthUser(pub Account);

/// A signed-in account, if any (an invalid token is still refused, and so is a cookie
/// on a cross-site request that changes something).
#[derive(Debug, Clone)]
pub struct MaybeAuthUser(pub Option<Account>);

/// A new random CSRF token (hex).
pub fn new_csrf_token() -> String {
    let mut bytes = [0u8; 32];
    rand::thread_rng().fill_bytes(&mut bytes);
    hex::encode(bytes)
}

/// Compares two tokens in time independent of where they differ; an empty expected
/// token matches nothing.
pub fn same_token(expected: &str, given: &str) -> bool {
    let (expected, given) = (expected.as_bytes(), given.as_bytes());
    expected.len() == given.len()
        && !expected.is_empty()
        && expected.iter().zip(given).fold(0u8, |acc, (a, b)| acc | (a ^ b)) == 0
}

/// Whether the cookie of a request for `method` with `headers` must be backed by proof
/// that this site's pages sent it.
fn needs_same_origin(method: &Method, headers: &HeaderMap) -> bool {
    let safe = matches!(*method, Method::GET | Method::HEAD | Method::OPTIONS);
    let websocket = headers
        .get(UPGRADE)
        .and_then(|value| value.to_str().ok())
        .is_some_and(|value| value.eq_ignore_ascii_case("websocket"));
    !safe || websocket
}

/// `host[:port]` without the scheme's default port, lower case.
fn normalized_authority(authority: &str, default_port: Option<&str>) -> String {
    let authority = authority.trim().to_ascii_lowercase();
    match default_port.and_then(|port| authority.strip_suffix(&format!(":{port}"))) {
        Some(bare) => bare.to_owned(),
        None => authority,
    }
}

/// Whether `headers` show a request sent by this site's own pages (see the module
/// documentation); `session_token` is the session's CSRF token, if it has one.
fn comes_from_this_site(headers: &HeaderMap, session_token: Option<&str>) -> bool {
    let header = |name| headers.get(name).and_then(|value: &axum::http::HeaderValue| value.to_str().ok());
    if let (Some(expected), Some(given)) = (session_token, header(CSRF_HEADER)) {
        if same_token(expected, given) {
            return true;
        }
    }
    if let Some(site) = header("sec-fetch-site") {
        return site.eq_ignore_ascii_case("same-origin");
    }
    let (Some(origin), Some(host)) = (header(ORIGIN.as_str()), header(HOST.as_str())) else {
        return false;
    };
    let Some((scheme, authority)) = origin.split_once("://") else {
        // `Origin: null` (sandboxed frames, some redirects) is never this site.
        return false;
    };
    let default_port = match scheme.to_ascii_lowercase().as_str() {
        "http" => Some("80"),
        "https" => Some("443"),
        _ => None,
    };
    normalized_authority(authority, default_port) == normalized_authority(host, default_port)
}

/// The refusal of a cookie-authenticated cross-site request.
fn cross_site_refused() -> ApiError {
    ApiError::new(
        StatusCode::FORBIDDEN,
        "a request signed in by the session cookie that changes something must come from this \
         site: send the session's token in the X-CSRF-Token header (POST /api/session hands it \
         out) or use a bearer token",
    )
}

/// The account signed in on the request, by bearer token or cookie session. With
/// `check_origin`, a cookie on a request that changes something must come from this site
/// (the HTML pages check their forms' token themselves and pass `false`).
///
/// # Errors
/// An invalid bearer token (401), a cross-site request (403), the session store failing.
pub(crate) async fn signed_in<S>(
    parts: &mut Parts,
    state: &S,
    check_origin: bool,
) -> Result<Option<Account>, ApiError>
where
    S: Send + Sync,
    Domain: FromRef<S>,
{
    let domain = Domain::from_ref(state);
    if let Some(header) = parts.headers.get(AUTHORIZATION) {
        let token = header
            .to_str()
            .ok()
            .and_then(|h| h.strip_prefix("Bearer "))
            .ok_or_else(|| ApiError::unauthorized("expected 'Authorization: Bearer <token>'"))?;
        let account = accounts::account_for_token(&domain, token.trim()).await?;
        in_access_log(parts, &account);
        return Ok(Some(account));
    }
    let Ok(session) = Session::from_request_parts(parts, state).await else {
        return Ok(None);
    };
    let store_error =
        |e: tower_sessions::session::Error| DomainError::Internal(anyhow::anyhow!("session store: {e}"));
    let Some(id) = session.get::<i64>(SESSION_ACCOUNT_KEY).await.map_err(store_error)? else {
        return Ok(None);
    };
    if check_origin && needs_same_origin(&parts.method, &parts.headers) {
        let token = session.get::<String>(SESSION_CSRF_KEY).await.map_err(store_error)?;
        if !comes_from_this_site(&parts.headers, token.as_deref()) {
            return Err(cross_site_refused());
        }
    }
    let epoch = session.get::<i32>(SESSION_EPOCH_KEY).await.map_err(store_error)?.unwrap_or(0);
    match accounts::account_for_session(&domain.pool, id, epoch).await {
        Ok(account) => {
            in_access_log(parts, &account);
            Ok(Some(account))
        }
        Err(DomainError::NotFound(_)) => Ok(None),
        Err(other) => Err(other.into()),
    }
}

/// Names the signed-in account in the request's span, so the access log line says who
/// asked (issue 40 §5).
fn in_access_log(parts: &Parts, account: &Account) {
    if let Some(super::metrics::RequestSpan(span)) = parts.extensions.get() {
        span.record("account", account.username.as_str());
    }
}

impl<S> FromRequestParts<S> for MaybeAuthUser
where
    S: Send + Sync,
    Domain: FromRef<S>,
{
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, Self::Rejection> {
        Ok(MaybeAuthUser(signed_in(parts, state, true).await?))
    }
}

impl<S> FromRequestParts<S> for AuthUser
where
    S: Send + Sync,
    Domain: FromRef<S>,
{
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, Self::Rejection> {
        match MaybeAuthUser::from_request_parts(parts, state).await? {
            MaybeAuthUser(Some(account)) => Ok(AuthUser(account)),
            MaybeAuthUser(None) => Err(ApiError::unauthorized("sign in or send a bearer token")),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn headers(pairs: &[(&'static str, &str)]) -> HeaderMap {
        let mut map = HeaderMap::new();
        for (name, value) in pairs {
            map.insert(*name, value.parse().unwrap());
        }
        map
    }

    #[test]
    fn the_token_the_fetch_site_or_the_origin_shows_this_site() {
        let token = Some("abc123");
        let host = ("host", "play.example:8000");
        assert!(comes_from_this_site(&headers(&[host, ("x-csrf-token", "abc123")]), token));
        assert!(!comes_from_this_site(&headers(&[host, ("x-csrf-token", "abc124")]), token));
        assert!(comes_from_this_site(&headers(&[host, ("sec-fetch-site", "same-origin")]), token));
        assert!(!comes_from_this_site(&headers(&[host, ("sec-fetch-site", "cross-site")]), token));
        assert!(!comes_from_this_site(&headers(&[host, ("sec-fetch-site", "same-site")]), token));
        assert!(
            !comes_from_this_site(
                &headers(&[host, ("sec-fetch-site", "cross-site"), ("origin", "http://play.example:8000")]),
                token
            ),
            "the fetch metadata wins over a forgeable-looking origin"
        );
        assert!(comes_from_this_site(&headers(&[host, ("origin", "http://play.example:8000")]), token));
        assert!(comes_from_this_site(
            &headers(&[("host", "play.example"), ("origin", "https://play.example")]),
            token
        ));
        assert!(comes_from_this_site(
            &headers(&[("host", "play.example:443"), ("origin", "https://play.example")]),
            token
        ));
        assert!(!comes_from_this_site(&headers(&[host, ("origin", "http://evil.example")]), token));
        assert!(!comes_from_this_site(&headers(&[host, ("origin", "http://play.example:8001")]), token));
        assert!(!comes_from_this_site(&headers(&[host, ("origin", "null")]), token));
        assert!(!comes_from_this_site(&headers(&[host]), token), "no proof at all");
        assert!(!comes_from_this_site(&headers(&[host, ("x-csrf-token", "")]), Some("")), "no token");
    }

    #[test]
    fn only_changes_and_socket_handshakes_need_proof() {
        let none = HeaderMap::new();
        assert!(!needs_same_origin(&Method::GET, &none));
        assert!(!needs_same_origin(&Method::HEAD, &none));
        assert!(needs_same_origin(&Method::POST, &none));
        assert!(needs_same_origin(&Method::PATCH, &none));
        assert!(needs_same_origin(&Method::DELETE, &none));
        assert!(needs_same_origin(&Method::GET, &headers(&[("upgrade", "websocket")])));
    }
}
