//! `/static`: the CSS, scripts and images, built into the binary from `static/` (so a
//! server started from any directory serves them). Pages link each file as
//! [`url`]`(name)`, `/static/<name>?v=<hash of its content>`: an answer to a link with the
//! current hash may be cached for a year (the link changes when the file does); any other
//! request is answered with an `ETag` and `no-cache`, so a browser revalidates (304).
//! What is not there answers 404 in the one error shape, and a path no file could have (a
//! name longer than file systems allow) answers 414 the same way.

use std::collections::HashMap;
use std::sync::LazyLock;

use axum::extract::Request;
use axum::http::header::{CACHE_CONTROL, CONTENT_TYPE, ETAG, IF_NONE_MATCH};
use axum::http::{HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Router;
use rust_embed::RustEmbed;

use super::error::ApiError;

/// The longest file name (one path segment) file systems accept, in bytes.
const MAX_NAME_BYTES: usize = 255;
/// The longest path below `/static` worth looking up.
const MAX_PATH_BYTES: usize = 1024;
/// How long a browser may keep a file fetched by its hashed link.
const IMMUTABLE: &str = "public, max-age=31536000, immutable";
/// How a file fetched by any other link is kept: revalidated with its `ETag`.
const REVALIDATE: &str = "no-cache";

#[derive(RustEmbed)]
#[folder = "static/"]
struct Files;

/// The first 16 hex digits of each file's SHA-256, computed once.
static VERSIONS: LazyLock<HashMap<String, String>> = LazyLock::new(|| {
    Files::iter()
        .filter_map(|name| {
            let file = Files::get(&name)?;
            Some((name.into_owned(), hex::encode(&file.metadata.sha256_hash()[..8])))
        })
        .collect()
});

/// The link to the static file `name` (e.g. `site.css`), with its content's hash.
///
/// # Panics
/// When no such file is built in: a template names a file that does not exist.
#[must_use]
pub fn url(name: &str) -> String {
    let version = VERSIONS.get(name).unwrap_or_else(|| panic!("no static file {name}"));
    format!("/static/{name}?v={version}")
}

/// The service mounted at `/static`.
pub fn service() -> Router {
    Router::new().fallback(serve)
}

async fn serve(request: Request) -> Response {
    let path = request.uri().path();
    if path.len() > MAX_PATH_BYTES || path.split('/').any(|segment| segment.len() > MAX_NAME_BYTES) {
        return ApiError::new(StatusCode::URI_TOO_LONG, "the path is too long to name a file")
            .into_response();
    }
    let name = path.trim_start_matches('/');
    let (Some(file), Some(version)) = (Files::get(name), VERSIONS.get(name)) else {
        return ApiError::not_found().into_response();
    };
    let etag = format!("\"{version}\"");
    let asked_version =
        request.uri().query().and_then(|query| query.split('&').find_map(|pair| pair.strip_prefix("v=")));
    let cache = if asked_version == Some(version.as_str()) { IMMUTABLE } else { REVALIDATE };
    let headers = [
        (CACHE_CONTROL, HeaderValue::from_static(cache)),
        (ETAG, HeaderValue::from_str(&etag).expect("hex digits are a valid header value")),
    ];
    let matches = request
        .headers()
        .get(IF_NONE_MATCH)
        .and_then(|value| value.to_str().ok())
        .is_some_and(|value| value.split(',').any(|tag| tag.trim() == etag || tag.trim() == "*"));
    if matches {
        return (StatusCode::NOT_MODIFIED, headers).into_response();
    }
    let content_type = HeaderValue::from_str(file.metadata.mimetype())
        .unwrap_or(HeaderValue::from_static("application/octet-stream"));
    (headers, [(CONTENT_TYPE, content_type)], file.data.into_owned()).into_response()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_static_file_has_a_versioned_url() {
        let url = url("site.css");
        let version = url.strip_prefix("/static/site.css?v=").expect("versioned link");
        assert_eq!(version.len(), 16);
        assert!(version.chars().all(|c| c.is_ascii_hexdigit()));
    }
}
