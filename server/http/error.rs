//! The one error type of the HTTP layer and its JSON shape
//! `{"errors":[{"code":"...","detail":"..."}]}`: a stable machine-readable `code`
//! (kebab-case: `illegal-move.blocked`, `move.stale-ply`, `not-found`...) and a sentence
//! for people; a refused move adds its parameters as `meta` (the move text, the readings of
//! an ambiguous text).

use std::borrow::Cow;

use axum::extract::path::ErrorKind as PathErrorKind;
use axum::extract::rejection::{JsonRejection, PathRejection, QueryRejection};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use serde_json::{json, Map, Value};

use crate::domain::{DomainError, ErrorKind};

/// An error answer: a status, a code and a detail for the client.
#[derive(Debug)]
pub struct ApiError {
    status: StatusCode,
    code: Cow<'static, str>,
    detail: String,
    meta: Option<Value>,
    /// Seconds after which trying again may succeed (`Retry-After`).
    retry_after: Option<u64>,
    /// Further errors of the same answer (each game of a record file that does not
    /// replay), listed after this one (boxed: errors travel in `Result`s and stay small).
    more: Option<Box<[ApiError]>>,
}

impl ApiError {
    /// An error with `status` and `detail`; its code is the status's (`not-found`,
    /// `method-not-allowed`, `unavailable`...).
    pub fn new(status: StatusCode, detail: impl Into<String>) -> ApiError {
        ApiError::coded(status, status_code(status), detail)
    }

    /// An error with its own `code`.
    pub fn coded(status: StatusCode, code: &'static str, detail: impl Into<String>) -> ApiError {
        ApiError {
            status,
            code: Cow::Borrowed(code),
            detail: detail.into(),
            meta: None,
            retry_after: None,
            more: None,
        }
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

    /// The same error with `meta`: the parameters of the refusal (an object).
    pub fn with_meta(mut self, meta: Value) -> ApiError {
        self.meta = Some(meta);
        self
    }

    /// The same error followed by `more` in the answer's `errors` (their statuses are
    /// this one's).
    pub fn with_more(mut self, more: Vec<ApiError>) -> ApiError {
        self.more = (!more.is_empty()).then(|| more.into_boxed_slice());
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

    /// The code.
    pub fn code(&self) -> &str {
        &self.code
    }
}

/// The code of an error that has only its status.
fn status_code(status: StatusCode) -> &'static str {
    match status {
        StatusCode::BAD_REQUEST => "bad-request",
        StatusCode::UNAUTHORIZED => "unauthorized",
        StatusCode::FORBIDDEN => "forbidden",
        StatusCode::NOT_FOUND => "not-found",
        StatusCode::METHOD_NOT_ALLOWED => "method-not-allowed",
        StatusCode::REQUEST_TIMEOUT => "request.timeout",
        StatusCode::CONFLICT => "conflict",
        StatusCode::PAYLOAD_TOO_LARGE => "request.body-too-large",
        StatusCode::UNSUPPORTED_MEDIA_TYPE => "request.unsupported-media-type",
        StatusCode::UNPROCESSABLE_ENTITY => "invalid",
        StatusCode::TOO_MANY_REQUESTS => "rate-limited",
        StatusCode::SERVICE_UNAVAILABLE => "unavailable",
        s if s.is_server_error() => "internal",
        _ => "error",
    }
}

impl ApiError {
    /// A domain error as the client sees it (an internal error's text is not shown).
    pub fn describe(error: &DomainError) -> ApiError {
        if let DomainError::Internal(inner) = error {
            // A database error that reached the domain as an `anyhow` error is still an
            // outage, not a bug.
            if inner.downcast_ref::<sqlx::Error>().is_some_and(crate::storage::is_unavailable) {
                return ApiError::describe(&DomainError::database_unavailable());
            }
            return ApiError::coded(
                StatusCode::INTERNAL_SERVER_ERROR,
                "internal",
                "Something went wrong on the server.",
            );
        }
        ApiError {
            status: status_of(error.kind()),
            code: Cow::Borrowed(error.code()),
            meta: meta_of(error),
            detail: error.to_string(),
            retry_after: error
                .retry_after()
                .map(|seconds| seconds.max(1))
                .or_else(|| (error.kind() == ErrorKind::Unavailable).then_some(DATABASE_RETRY_AFTER_SECONDS)),
            more: None,
        }
    }

    /// The detail for people.
    pub fn detail(&self) -> &str {
        &self.detail
    }

    /// The body: `{"errors":[{"code":...,"detail":...}]}`, with `meta` when there are
    /// parameters.
    pub fn body(&self) -> Value {
        let more = self.more.as_deref().unwrap_or_default();
        let errors: Vec<Value> = std::iter::once(self).chain(more).map(ApiError::error_object).collect();
        json!({ "errors": errors })
    }

    /// One object of the `errors` list.
    fn error_object(&self) -> Value {
        let mut error = json!({ "code": self.code, "detail": self.detail });
        if let Some(meta) = &self.meta {
            error["meta"] = meta.clone();
        }
        error
    }
}

/// When a client should try again after an answer that the database is unreachable: the
/// health probe looks every second and an embedded cluster restarts within seconds.
pub const DATABASE_RETRY_AFTER_SECONDS: u64 = 2;

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
        let mut body = self.body();
        if let Some(id) = super::metrics::current_request_id() {
            body["request_id"] = serde_json::Value::String(id);
        }
        let mut response = (self.status, axum::Json(body)).into_response();
        if let Some(seconds) = retry_after {
            response.headers_mut().insert(axum::http::header::RETRY_AFTER, seconds.into());
        }
        response
    }
}

/// The HTTP status of a domain error's kind.
pub fn status_of(kind: ErrorKind) -> StatusCode {
    match kind {
        ErrorKind::Invalid => StatusCode::UNPROCESSABLE_ENTITY,
        ErrorKind::NotFound => StatusCode::NOT_FOUND,
        ErrorKind::Unauthenticated => StatusCode::UNAUTHORIZED,
        ErrorKind::Forbidden => StatusCode::FORBIDDEN,
        ErrorKind::Conflict => StatusCode::CONFLICT,
        ErrorKind::RateLimited => StatusCode::TOO_MANY_REQUESTS,
        ErrorKind::Unavailable => StatusCode::SERVICE_UNAVAILABLE,
        ErrorKind::Internal => StatusCode::INTERNAL_SERVER_ERROR,
    }
}

/// The parameters of a rules refusal as the JSON `meta` object (the readings of an
/// ambiguous move as a list), or `None` when it has none.
pub fn meta_of(error: &DomainError) -> Option<Value> {
    let params = error.params();
    if params.is_empty() {
        return None;
    }
    let mut meta = Map::new();
    for (name, value) in params {
        meta.insert(name.to_owned(), Value::String(value));
    }
    if let DomainError::Move(e) = error {
        let readings: Vec<Value> = e
            .readings()
            .iter()
            .map(|r| json!({ "notation": r.notation.name(), "move": r.canonical }))
            .collect();
        if !readings.is_empty() {
            meta.insert("readings".to_owned(), Value::Array(readings));
        }
    }
    Some(Value::Object(meta))
}

impl From<DomainError> for ApiError {
    fn from(error: DomainError) -> ApiError {
        let outage = matches!(&error, DomainError::Internal(inner)
            if inner.downcast_ref::<sqlx::Error>().is_some_and(crate::storage::is_unavailable));
        if let (DomainError::Internal(inner), false) = (&error, outage) {
            // Logged once here; the text never reaches the client.
            tracing::error!(error = %inner, "internal error");
        }
        ApiError::describe(&error)
    }
}

impl From<sqlx::Error> for ApiError {
    fn from(error: sqlx::Error) -> ApiError {
        DomainError::from(error).into()
    }
}

/// The innermost cause of an extractor's rejection: serde's words without axum's
/// prefixes.
fn cause(error: &dyn std::error::Error) -> String {
    let mut inner = error;
    while let Some(source) = inner.source() {
        inner = source;
    }
    inner.to_string()
}

impl From<JsonRejection> for ApiError {
    fn from(rejection: JsonRejection) -> ApiError {
        let status = rejection.status();
        match &rejection {
            JsonRejection::JsonDataError(e) => ApiError::coded(
                status,
                "request.invalid-body",
                format!("The request body does not fit this request: {}", cause(e)),
            ),
            JsonRejection::JsonSyntaxError(e) => ApiError::coded(
                status,
                "request.malformed-json",
                format!("The request body is not valid JSON: {}", cause(e)),
            ),
            JsonRejection::MissingJsonContentType(_) => ApiError::coded(
                status,
                "request.unsupported-media-type",
                "Send the request body as JSON, with the header content-type: application/json.",
            ),
            _ if status == StatusCode::PAYLOAD_TOO_LARGE => {
                ApiError::coded(status, "request.body-too-large", "The request body is too large.")
            }
            _ => ApiError::coded(status, "request.unreadable-body", "The request body cannot be read."),
        }
    }
}

impl From<PathRejection> for ApiError {
    fn from(rejection: PathRejection) -> ApiError {
        let detail = match &rejection {
            PathRejection::FailedToDeserializePathParams(e) => match e.kind() {
                PathErrorKind::ParseErrorAtKey { key, value, .. } => {
                    format!("“{value}” is not a valid {key} in this address.")
                }
                PathErrorKind::ParseError { value, .. } | PathErrorKind::ParseErrorAtIndex { value, .. } => {
                    format!("“{value}” is not valid in this address.")
                }
                _ => "This address cannot be read.".to_owned(),
            },
            _ => "This address cannot be read.".to_owned(),
        };
        ApiError::coded(rejection.status(), "request.invalid-path", detail)
    }
}

impl From<QueryRejection> for ApiError {
    fn from(rejection: QueryRejection) -> ApiError {
        let detail = match &rejection {
            QueryRejection::FailedToDeserializeQueryString(e) => {
                format!("The query string cannot be read: {}", cause(e))
            }
            _ => "The query string cannot be read.".to_owned(),
        };
        ApiError::coded(rejection.status(), "request.invalid-query", detail)
    }
}

/// The answer to a request whose handling panicked (tower-http's `CatchPanicLayer`, see
/// [`super::router`]): 500 in the one error shape, the panic logged once and counted
/// (`tavoliere_panics_total`), instead of a connection dropped without an answer.
pub fn panicked(panic: Box<dyn std::any::Any + Send + 'static>) -> Response {
    let message = panic
        .downcast_ref::<String>()
        .map(String::as_str)
        .or_else(|| panic.downcast_ref::<&str>().copied())
        .unwrap_or("(no message)");
    tracing::error!(panic = %message, "a request panicked");
    metrics::counter!("tavoliere_panics_total").increment(1);
    ApiError::coded(StatusCode::INTERNAL_SERVER_ERROR, "internal", "Something went wrong on the server.")
        .into_response()
}

/// Result of a handler.
pub type ApiResult<T> = Result<T, ApiError>;
