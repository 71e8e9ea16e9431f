//! `GET /api/openapi.json`: the API description (a checked-in OpenAPI 3.1 document, so
//! nothing is generated or downloaded at build time).

use axum::http::header::CONTENT_TYPE;
use axum::response::IntoResponse;

/// The OpenAPI document.
pub const DOCUMENT: &str = include_str!("openapi.json");

/// Serves [`DOCUMENT`].
pub async fn document() -> impl IntoResponse {
    ([(CONTENT_TYPE, "application/json")], DOCUMENT)
}
