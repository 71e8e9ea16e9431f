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
}

impl ApiError {
    /// An error with `status` and `detail`.
    pub fn new(status: StatusCode, detail: impl Into<String>) -> ApiError {
        ApiError { status, detail: detail.into() }
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

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        (self.status, axum::Json(json!({ "errors": [{ "detail": self.detail }] }))).into_response()
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
