//! The next page of a paged collection (`/api/games` searches, `/api/challenges`,
//! `/api/tournaments`, `/api/players`): the body stays the list it always was, and the
//! `next` cursor travels in two headers, `X-Next-Cursor` and a `Link` to the next page
//! with the same filters (RFC 8288, as GitHub's API pages).

use axum::http::header::LINK;
use axum::http::HeaderValue;
use axum::response::{IntoResponse, Response};
use serde::Serialize;

use super::error::ApiResult;
use super::extract::Json;
use crate::domain::DomainError;

/// `items` as JSON with the headers of the page after it (none on the last page): `path`
/// is the collection's path, `raw` the request's query string (its `cursor` replaced).
///
/// # Errors
/// A header that cannot be written (never for a cursor this server made).
pub fn paged<T: Serialize>(
    items: Vec<T>,
    path: &str,
    raw: Option<&str>,
    next: Option<String>,
) -> ApiResult<Response> {
    let mut response = Json(items).into_response();
    let Some(next) = next else { return Ok(response) };
    let kept: Vec<&str> =
        raw.unwrap_or("").split('&').filter(|p| !p.is_empty() && !p.starts_with("cursor=")).collect();
    let mut query = kept.join("&");
    if !query.is_empty() {
        query.push('&');
    }
    // The cursor is digits and a hyphen: nothing to escape.
    let link = format!("<{path}?{query}cursor={next}>; rel=\"next\"");
    let headers = response.headers_mut();
    headers.insert(LINK, HeaderValue::from_str(&link).map_err(|e| DomainError::Internal(e.into()))?);
    headers
        .insert("x-next-cursor", HeaderValue::from_str(&next).map_err(|e| DomainError::Internal(e.into()))?);
    Ok(response)
}
