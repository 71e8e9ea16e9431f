//! Extractors whose rejections answer in the one error shape: malformed JSON, a wrong
//! content type, an oversized body, a bad path or query all give `{"errors":[...]}`.

use axum::extract::{FromRequest, FromRequestParts};
use axum::response::{IntoResponse, Response};

use super::error::ApiError;

/// JSON body (and JSON response).
#[derive(Debug, Clone, Copy, Default, FromRequest)]
#[from_request(via(axum::Json), rejection(ApiError))]
pub struct Json<T>(pub T);

impl<T: serde::Serialize> IntoResponse for Json<T> {
    fn into_response(self) -> Response {
        axum::Json(self.0).into_response()
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
        let peer = parts
            .extensions
            .get::<axum::extract::ConnectInfo<std::net::SocketAddr>>()
            .map_or(std::net::IpAddr::from([0, 0, 0, 0]), |info| info.0.ip());
        let forwarded = state.client_address_header.as_ref().and_then(|name| {
            let value = parts.headers.get_all(name).iter().next_back()?.to_str().ok()?;
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
