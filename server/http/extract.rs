//! Extractors whose rejections answer in the one error shape: malformed JSON, a wrong
//! content type, an oversized body, a bad path or query all give `{"errors":[...]}`.

use axum::body::{Body, Bytes};
use axum::extract::{FromRequest, FromRequestParts, Request};
use axum::response::{IntoResponse, Response};
use serde::de::DeserializeOwned;

use super::error::ApiError;
use crate::domain::games::GameView;

/// JSON body (and JSON response).
#[derive(Debug, Clone, Copy, Default, FromRequest)]
#[from_request(via(axum::Json), rejection(ApiError))]
pub struct Json<T>(pub T);

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

/// Path parameters.
#[derive(Debug, FromRequestParts)]
#[from_request(via(axum::extract::Path), rejection(ApiError))]
pub struct Path<T>(pub T);

/// Query string.
#[derive(Debug, FromRequestParts)]
#[from_request(via(axum::extract::Query), rejection(ApiError))]
pub struct Query<T>(pub T);

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
