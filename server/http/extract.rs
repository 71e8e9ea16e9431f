//! Extractors whose rejections answer in the one error shape: malformed JSON, a wrong
//! content type, an oversized body, a bad path or query all give `{"errors":[...]}`.
//!
//! They are also where text enters the server, so they refuse the one character no
//! PostgreSQL `text` can hold, NUL (a scanner's `%00`, a JSON `\u0000`): a path holding
//! one names nothing (404), a query or a body holding one is invalid (422). Rust strings
//! are valid UTF-8 and serde_json refuses unpaired surrogates, so NUL is the only text
//! the database would refuse. The pages' extractors ([`super::pages`]) and the live
//! socket use the same checks.

use axum::body::{Body, Bytes};
use axum::extract::rejection::{JsonRejection, MissingJsonContentType};
use axum::extract::{FromRequest, FromRequestParts, Request};
use axum::http::request::Parts;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use serde::de::DeserializeOwned;

use super::error::ApiError;
use crate::domain::games::GameView;

/// Whether a JSON text holds a NUL character in one of its strings: the escape `\u0000`
/// whose backslash is not itself escaped (JSON writes no control character raw inside a
/// string, and serde_json refuses one).
pub fn json_holds_nul(json: &[u8]) -> bool {
    let mut from = 0;
    while let Some(offset) = json[from..].iter().position(|&b| b == b'\\') {
        let at = from + offset;
        if json[at + 1..].starts_with(b"u0000") {
            return true;
        }
        // Past the escaped character (the second backslash of `\\` too).
        from = at + 2;
        if from >= json.len() {
            return false;
        }
    }
    false
}

/// Whether percent-encoded text (a path, a query string, a form body) decodes to text
/// holding NUL: the escape `%00` (`%` always starts an escape, so `%2500` is not one),
/// or a raw NUL byte, which a form body may carry.
pub fn encoded_holds_nul(encoded: &[u8]) -> bool {
    encoded.windows(3).any(|w| w == b"%00") || encoded.contains(&0)
}

/// The refusal of a body holding NUL.
fn nul_in_body() -> ApiError {
    ApiError::coded(
        StatusCode::UNPROCESSABLE_ENTITY,
        "request.invalid-body",
        "The request body holds a NUL character (\\u0000), which no text here may contain.",
    )
}

/// The refusal of a query string holding NUL.
fn nul_in_query() -> ApiError {
    ApiError::coded(
        StatusCode::UNPROCESSABLE_ENTITY,
        "request.invalid-query",
        "The query string holds a NUL character (%00), which no text here may contain.",
    )
}

/// Whether the request's path names nothing because it holds NUL.
pub fn path_holds_nul(parts: &Parts) -> bool {
    encoded_holds_nul(parts.uri.path().as_bytes())
}

/// Whether the request's query string holds NUL.
pub fn query_holds_nul(parts: &Parts) -> bool {
    parts.uri.query().is_some_and(|query| encoded_holds_nul(query.as_bytes()))
}

/// JSON body (and JSON response). Read as axum's `Json` reads it (content type, body
/// limit, serde), then refused if its text holds NUL.
#[derive(Debug, Clone, Copy, Default)]
pub struct Json<T>(pub T);

impl<T, S> FromRequest<S> for Json<T>
where
    T: DeserializeOwned,
    S: Send + Sync,
{
    type Rejection = ApiError;

    async fn from_request(request: Request, state: &S) -> Result<Self, Self::Rejection> {
        if !has_json_content_type(request.headers()) {
            return Err(JsonRejection::from(MissingJsonContentType::default()).into());
        }
        let bytes = Bytes::from_request(request, state)
            .await
            .map_err(|rejection| ApiError::new(rejection.status(), rejection.body_text()))?;
        let axum::Json(value) = axum::Json::<T>::from_bytes(&bytes)?;
        if json_holds_nul(&bytes) {
            return Err(nul_in_body());
        }
        Ok(Json(value))
    }
}

/// Whether the request says its body is JSON (`application/json` or `application/*+json`,
/// as axum's `Json` accepts).
fn has_json_content_type(headers: &axum::http::HeaderMap) -> bool {
    let Some(value) = headers.get(axum::http::header::CONTENT_TYPE).and_then(|v| v.to_str().ok()) else {
        return false;
    };
    let essence = value.split(';').next().unwrap_or("").trim().to_ascii_lowercase();
    let Some(subtype) = essence.strip_prefix("application/") else { return false };
    subtype == "json" || subtype.ends_with("+json")
}

impl<T: serde::Serialize> IntoResponse for Json<T> {
    fn into_response(self) -> Response {
        axum::Json(self.0).into_response()
    }
}

/// A game's JSON response, written into a buffer of the size the view expects
/// ([`GameView::expected_json_size`]) instead of one grown by doubling from 128 bytes,
/// which copies a large body several times over.
#[derive(Debug)]
pub struct GameJson(pub GameView);

impl IntoResponse for GameJson {
    fn into_response(self) -> Response {
        let mut body = Vec::with_capacity(self.0.expected_json_size());
        match serde_json::to_writer(&mut body, &self.0) {
            Ok(()) => ([(axum::http::header::CONTENT_TYPE, "application/json")], body).into_response(),
            Err(error) => ApiError::new(axum::http::StatusCode::INTERNAL_SERVER_ERROR, error.to_string())
                .into_response(),
        }
    }
}

/// A JSON body that may be left out: an empty body (with or without a content type) is
/// `T::default()`; any other body is read as [`Json`] is, content type included.
#[derive(Debug, Clone, Copy, Default)]
pub struct JsonOrEmpty<T>(pub T);

impl<T, S> FromRequest<S> for JsonOrEmpty<T>
where
    T: DeserializeOwned + Default,
    S: Send + Sync,
{
    type Rejection = ApiError;

    async fn from_request(request: Request, state: &S) -> Result<Self, Self::Rejection> {
        let (parts, body) = request.into_parts();
        let headers = parts.headers.clone();
        // Read through the request's own parts, so that the body limit applies.
        let bytes = Bytes::from_request(Request::from_parts(parts, body), state)
            .await
            .map_err(|rejection| ApiError::new(rejection.status(), rejection.body_text()))?;
        if bytes.is_empty() {
            return Ok(JsonOrEmpty(T::default()));
        }
        let mut request = Request::new(Body::from(bytes));
        *request.headers_mut() = headers;
        let Json(value) = Json::<T>::from_request(request, state).await?;
        Ok(JsonOrEmpty(value))
    }
}

/// Path parameters. A path holding NUL names nothing: 404.
#[derive(Debug)]
pub struct Path<T>(pub T);

impl<T, S> FromRequestParts<S> for Path<T>
where
    T: DeserializeOwned + Send,
    S: Send + Sync,
{
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, Self::Rejection> {
        if path_holds_nul(parts) {
            return Err(ApiError::not_found());
        }
        let axum::extract::Path(value) = axum::extract::Path::<T>::from_request_parts(parts, state).await?;
        Ok(Path(value))
    }
}

/// Query string. A query string holding NUL is invalid: 422.
#[derive(Debug)]
pub struct Query<T>(pub T);

impl<T, S> FromRequestParts<S> for Query<T>
where
    T: DeserializeOwned,
    S: Send + Sync,
{
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, Self::Rejection> {
        if query_holds_nul(parts) {
            return Err(nul_in_query());
        }
        let axum::extract::Query(value) = axum::extract::Query::<T>::from_request_parts(parts, state).await?;
        Ok(Query(value))
    }
}

/// The client's address: the socket peer, or the address a trusted reverse proxy put in
/// the configured header (`application.client_address_header`; for a list such as
/// `X-Forwarded-For`, its last entry, the one that proxy appended). A missing or
/// unreadable header falls back to the peer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ClientAddress(pub std::net::IpAddr);

impl ClientAddress {
    /// The address of the request `parts` under the header setting of `state`.
    pub fn of(parts: &axum::http::request::Parts, state: &super::AppState) -> ClientAddress {
        ClientAddress::of_request(&parts.extensions, &parts.headers, state.client_address_header.as_ref())
    }

    /// The address of a request with these `extensions` (the connection's peer) and
    /// `headers`, under the trusted proxy header `header` if one is configured.
    pub fn of_request(
        extensions: &axum::http::Extensions,
        headers: &axum::http::HeaderMap,
        header: Option<&axum::http::HeaderName>,
    ) -> ClientAddress {
        let peer = extensions
            .get::<axum::extract::ConnectInfo<std::net::SocketAddr>>()
            .map_or(std::net::IpAddr::from([0, 0, 0, 0]), |info| info.0.ip());
        let forwarded = header.and_then(|name| {
            let value = headers.get_all(name).iter().next_back()?.to_str().ok()?;
            value.rsplit(',').next()?.trim().parse::<std::net::IpAddr>().ok()
        });
        ClientAddress(forwarded.unwrap_or(peer))
    }
}

impl FromRequestParts<super::AppState> for ClientAddress {
    type Rejection = std::convert::Infallible;

    async fn from_request_parts(
        parts: &mut axum::http::request::Parts,
        state: &super::AppState,
    ) -> Result<Self, Self::Rejection> {
        Ok(ClientAddress::of(parts, state))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_json_text_holds_nul_only_by_an_unescaped_u0000() {
        assert!(json_holds_nul(br#"{"a":"x\u0000y"}"#));
        assert!(json_holds_nul(br#"{"a\u0000":1}"#), "in a key too");
        assert!(json_holds_nul(br#"["\\\u0000"]"#), "a backslash, then NUL");
        assert!(!json_holds_nul(br#"{"a":"x\\u0000y"}"#), "an escaped backslash, then text");
        assert!(!json_holds_nul(br#"{"a":"\u0001"}"#));
        assert!(!json_holds_nul(br#"{"a":"\u0100"}"#));
        assert!(!json_holds_nul(b"\\"), "a lone backslash at the end");
        for (text, nul) in [("x\u{0}y", true), ("x\\u0000", false), ("\\\u{0}", true), ("plain", false)] {
            let json = serde_json::to_vec(&serde_json::json!({ "text": text })).unwrap();
            assert_eq!(json_holds_nul(&json), nul, "{text:?} as {}", String::from_utf8_lossy(&json));
        }
    }

    #[test]
    fn percent_encoded_text_holds_nul_by_a_percent_00_or_a_raw_nul() {
        assert!(encoded_holds_nul(b"player=a%00b"));
        assert!(encoded_holds_nul(b"%00"));
        assert!(encoded_holds_nul(b"name=a\0"));
        assert!(!encoded_holds_nul(b"player=a%2500b"), "an escaped percent sign, then 00");
        assert!(!encoded_holds_nul(b"a%01b%10"));
    }
}
