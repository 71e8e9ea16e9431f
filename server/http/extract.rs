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
