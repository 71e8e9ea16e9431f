//! `GET /api/openapi.json`: the API description (a checked-in OpenAPI 3.1 document, so
//! nothing is generated or downloaded at build time).

use axum::http::header::CONTENT_TYPE;
use axum::response::IntoResponse;

/// The OpenAPI document.
pub const DOCUMENT: &str = include_str!("openapi.json");

/// [`DOCUMENT`] with the tournament routes merged in.
static FULL_DOCUMENT: std::sync::LazyLock<String> = std::sync::LazyLock::new(|| {
    let mut document: serde_json::Value = serde_json::from_str(DOCUMENT).unwrap_or_default();
    super::tournaments::openapi::merge_into(&mut document);
    document.to_string()
});

/// Serves [`DOCUMENT`] (with the tournament routes).
pub async fn document() -> impl IntoResponse {
    ([(CONTENT_TYPE, "application/json")], FULL_DOCUMENT.as_str())
}
