//! The one error type of the HTTP layer and its JSON shape `{"errors":[{"detail":"..."}]}`.

use axum::extract::rejection::{JsonRejection, PathRejection, QueryRejection};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use serde_json::json;

use crate::domain::DomainError;

/// An error answer: a status and a detail for the client.
#[derive(Debug)]
pub struct ApiError {
    status: StatusCode,
    detail: String,
    /// Seconds after which trying again may succeed (`Retry-After`).
    retry_after: Option<u64>,
}

impl ApiError {
    /// An error with `status` and `detail`.
    pub fn new(status: StatusCode, detail: impl Into<String>) -> ApiError {
        ApiError { status, detail: detail.into(), retry_after: None }
    }

    /// 429 with `detail`, to be tried again after `retry_after` seconds (the
    /// `Retry-After` header).
    pub fn too_many_requests(detail: impl Into<String>, retry_after: u64) -> ApiError {
        ApiError::new(StatusCode::TOO_MANY_REQUESTS, detail).with_retry_after(retry_after)
    }

    /// The same error with a `Retry-After` of `seconds` (at least 1).
    pub fn with_retry_after(mut self, seconds: u64) -> ApiError {
        self.retry_after = Some(seconds.max(1));
        self
    }

    /// The `Retry-After` seconds, if any.
    pub fn retry_after(&self) -> Option<u64> {
        self.retry_after
    }

    /// 401 with `detail`.
    pub fn unauthorized(detail: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::UNAUTHORIZED, detail)
    }

    /// 404 for unknown routes.
    pub fn not_found() -> ApiError {
        ApiError::new(StatusCode::NOT_FOUND, "not found")
    }

    /// The status.
    pub fn status(&self) -> StatusCode {
        self.status
    }
}

/// A 429 whose limit did not say when to try again (none of ours).
const DEFAULT_RETRY_AFTER_SECONDS: u64 = 60;

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let retry_after = match self.retry_after {
            Some(seconds) => Some(seconds),
            // Every 429 says when to try again.
            None if self.status == StatusCode::TOO_MANY_REQUESTS => Some(DEFAULT_RETRY_AFTER_SECONDS),
            None => None,
        };
        let mut response =
            (self.status, axum::Json(json!({ "errors": [{ "detail": self.detail }] }))).into_response();
        if let Some(seconds) = retry_after {
            response.headers_mut().insert(axum::http::header::RETRY_AFTER, seconds.into());
        }
        response
    }
}

impl From<DomainError> for ApiError {
    fn from(error: DomainError) -> ApiError {
        let status = match &error {
            DomainError::Invalid(_) => StatusCode::UNPROCESSABLE_ENTITY,
            DomainError::NotFound(_) => StatusCode::NOT_FOUND,
            DomainError::Unauthenticated(_) => StatusCode::UNAUTHORIZED,
            DomainError::Forbidden(_) => StatusCode::FORBIDDEN,
            DomainError::Conflict(_) => StatusCode::CONFLICT,
            DomainError::RateLimited(_) => StatusCode::TOO_MANY_REQUESTS,
            DomainError::Internal(inner) => {
                // Logged once here; the text never reaches the client.
                tracing::error!(error = %inner, "internal error");
                return ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, "internal server error");
            }
        };
        ApiError::new(status, error.to_string())
    }
}

impl From<sqlx::Error> for ApiError {
    fn from(error: sqlx::Error) -> ApiError {
        DomainError::from(error).into()
    }
}

impl From<JsonRejection> for ApiError {
    fn from(rejection: JsonRejection) -> ApiError {
        ApiError::new(rejection.status(), rejection.body_text())
    }
}

impl From<PathRejection> for ApiError {
    fn from(rejection: PathRejection) -> ApiError {
        ApiError::new(rejection.status(), rejection.body_text())
    }
}

impl From<QueryRejection> for ApiError {
    fn from(rejection: QueryRejection) -> ApiError {
        ApiError::new(rejection.status(), rejection.body_text())
    }
}

/// Result of a handler.
pub type ApiResult<T> = Result<T, ApiError>;
