//! `/static`: the CSS, scripts and images, from the `static/` directory. What is not
//! there answers 404 in the one error shape, and a path no file could have (a name longer
//! than file systems allow) answers 414 the same way, instead of the file server's empty
//! 404 and its 500 for a name the operating system refuses.

use axum::extract::Request;
use axum::http::StatusCode;
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use axum::Router;
use tower_http::services::ServeDir;

use super::error::ApiError;

/// The longest file name (one path segment) file systems accept, in bytes.
const MAX_NAME_BYTES: usize = 255;
/// The longest path below `/static` worth looking up.
const MAX_PATH_BYTES: usize = 1024;

/// The service mounted at `/static`.
pub fn service() -> Router {
    let files =
        ServeDir::new("static").not_found_service(axum::routing::any(|| async { ApiError::not_found() }));
    Router::new().fallback_service(files).layer(axum::middleware::from_fn(refuse_impossible_paths))
}

async fn refuse_impossible_paths(request: Request, next: Next) -> Response {
    let path = request.uri().path();
    if path.len() > MAX_PATH_BYTES || path.split('/').any(|segment| segment.len() > MAX_NAME_BYTES) {
        return ApiError::new(StatusCode::URI_TOO_LONG, "the path is too long to name a file")
            .into_response();
    }
    next.run(request).await
}
