//! `GET /api/openapi.json`: the API description. The router ([`super::router::api`])
//! builds it while it routes: each handler's `#[utoipa::path]` annotation and the body
//! types' `ToSchema` derives give its operations and schemas (at compile time, nothing is
//! downloaded); this module gives the frame (title, tags, the error shape, the security
//! schemes) and serves the result.

use axum::body::Bytes;
use axum::http::header::CONTENT_TYPE;
use axum::response::IntoResponse;
use axum::Extension;
use serde::Serialize;
use utoipa::openapi::path::Operation;
use utoipa::openapi::schema::{Schema, SchemaType, Type};
use utoipa::openapi::security::{ApiKey, ApiKeyValue, HttpAuthScheme, HttpBuilder, SecurityScheme};
use utoipa::openapi::{ContentBuilder, Ref, RefOr, Required, ResponseBuilder};
use utoipa::{OpenApi, ToSchema};

/// The error shape of every 4xx and 5xx answer: `{"errors":[{"code":"...","detail":"..."}]}`.
#[derive(Serialize, ToSchema)]
#[schema(example = json!({"errors": [{"code": "illegal-move.blocked", "detail": "a0a5 is not legal: the piece's way is blocked.", "meta": {"move": "a0a5"}}]}))]
pub struct Errors {
    /// One or more problems.
    pub errors: Vec<ErrorDetail>,
    /// The request's id (also in the `X-Request-Id` header): quote it when reporting an
    /// error, the server's log lines of the request carry it.
    pub request_id: Option<String>,
}

/// One problem of an error answer.
#[derive(Serialize, ToSchema)]
pub struct ErrorDetail {
    /// Stable machine-readable code, kebab-case: the rules' refusals
    /// (`illegal-move.blocked`, `notation.ambiguous`, `handicap.capture-banned`,
    /// `claim.not-allowed`, `setup.start-position`...), specific refusals
    /// (`move.stale-ply`, `move.not-your-turn`, `time-control.invalid`, `request.invalid-body`...)
    /// or the kind (`invalid`, `not-found`, `unauthorized`, `forbidden`, `conflict`,
    /// `rate-limited`, `unavailable`: the database is unreachable, try again after
    /// `Retry-After`, `internal`).
    pub code: String,
    /// A sentence for people (English).
    pub detail: String,
    /// The parameters of a rules refusal: `move`, and for an ambiguous text `readings`
    /// (`[{"notation":"iccs","move":"a4a5"}, ...]`).
    #[schema(value_type = Option<Object>)]
    pub meta: Option<serde_json::Value>,
}

/// A rated variant's name, as the rating paths spell it (schema only: the handlers read
/// the text; the Seven Kingdoms are not rated).
#[derive(ToSchema)]
#[schema(rename_all = "kebab-case")]
pub enum RatedVariantName {
    /// Xiangqi.
    Xiangqi,
    /// Shogi.
    Shogi,
    /// MiniShogi.
    Minishogi,
    /// Flickering chess.
    Flickering,
}

/// A language of the pages and tables (schema only).
#[derive(ToSchema)]
#[schema(rename_all = "lowercase")]
pub enum LanguageName {
    /// English.
    En,
    /// Italian.
    It,
}

/// The name of the shared error response in `components.responses`.
const ERROR_RESPONSE: &str = "Error";

/// The frame of the description; the router adds the paths.
#[derive(OpenApi)]
#[openapi(
    info(
        title = "Tavoliere API",
        description = "Correspondence and live play of Xiangqi, Shogi, MiniShogi, Flickering chess \
                       and the Seven Kingdoms, and tournaments. \
                       Every error answers `{\"errors\":[{\"code\":\"...\",\"detail\":\"...\"}]}`."
    ),
    components(schemas(Errors, ErrorDetail)),
    tags(
        (name = "service", description = "Health and this description"),
        (name = "accounts", description = "Registration, tokens, cookie sessions, preferences"),
        (name = "admin", description = "Roles, disabled accounts and their audit log (admins)"),
        (name = "vacation", description = "Leave that stops the clocks"),
        (name = "challenges", description = "Challenges that become games"),
        (name = "games", description = "Correspondence games"),
        (name = "live", description = "Live games over WebSocket"),
        (name = "tournaments", description = "Tournaments, sections, directors' decisions, tables"),
        (name = "players", description = "Public profiles, ratings and leaderboards"),
    )
)]
struct Frame;

/// The description before the router adds its paths.
pub fn frame() -> utoipa::openapi::OpenApi {
    Frame::openapi()
}

/// The finished description, serialized once when the router is built.
#[derive(Clone, Debug)]
pub struct ApiDocument(Bytes);

impl ApiDocument {
    /// Adds the security schemes and the shared error response of every operation to the
    /// description the router built, and serializes it.
    pub fn new(mut openapi: utoipa::openapi::OpenApi) -> ApiDocument {
        add_shared_parts(&mut openapi);
        let json = openapi.to_json().unwrap_or_else(|_| String::from("{}"));
        ApiDocument(Bytes::from(json))
    }
}

/// The bearer and session security schemes; the error response (4XX and 5XX) on every
/// operation.
fn add_shared_parts(openapi: &mut utoipa::openapi::OpenApi) {
    let components = openapi.components.get_or_insert_with(Default::default);
    components.add_security_scheme(
        "bearer",
        SecurityScheme::Http(
            HttpBuilder::new()
                .scheme(HttpAuthScheme::Bearer)
                .description(Some("a token from `POST /api/tokens`"))
                .build(),
        ),
    );
    components.add_security_scheme(
        "session",
        SecurityScheme::ApiKey(ApiKey::Cookie(ApiKeyValue::with_description(
            "id",
            "the session cookie set by `POST /api/session`",
        ))),
    );
    components.responses.insert(
        ERROR_RESPONSE.to_owned(),
        RefOr::T(
            ResponseBuilder::new()
                .description("An error: `{\"errors\":[{\"code\":\"...\",\"detail\":\"...\"}]}`")
                .content(
                    "application/json",
                    ContentBuilder::new().schema(Some(Ref::from_schema_name("Errors"))).build(),
                )
                .build(),
        ),
    );
    for item in openapi.paths.paths.values_mut() {
        let operations: [&mut Option<Operation>; 5] =
            [&mut item.get, &mut item.post, &mut item.put, &mut item.patch, &mut item.delete];
        for operation in operations.into_iter().flatten() {
            publish_optional_body(operation);
            for status in ["4XX", "5XX"] {
                operation
                    .responses
                    .responses
                    .entry(status.to_owned())
                    .or_insert_with(|| RefOr::Ref(Ref::from_response_name(ERROR_RESPONSE)));
            }
        }
    }
}

/// utoipa writes an optional request body (`request_body = Option<T>`) as "`null` or `T`",
/// not required. An optional body is one that may be left out, not a JSON `null`: publish
/// `T` and leave `required` false.
fn publish_optional_body(operation: &mut Operation) {
    let Some(body) = operation.request_body.as_mut() else { return };
    if body.required == Some(Required::True) {
        return;
    }
    for content in body.content.values_mut() {
        let Some(RefOr::T(Schema::OneOf(one_of))) = &content.schema else { continue };
        let body_schema = match one_of.items.as_slice() {
            [first, second] if is_null(first) => second.clone(),
            [first, second] if is_null(second) => first.clone(),
            _ => continue,
        };
        content.schema = Some(body_schema);
    }
    body.required = Some(Required::False);
}

fn is_null(schema: &RefOr<Schema>) -> bool {
    matches!(schema, RefOr::T(Schema::Object(object)) if object.schema_type == SchemaType::Type(Type::Null))
}

/// Serves the OpenAPI document.
#[utoipa::path(
    get,
    path = "/api/openapi.json",
    tag = "service",
    responses((status = 200, description = "this OpenAPI document", body = Object))
)]
pub async fn document(Extension(document): Extension<ApiDocument>) -> impl IntoResponse {
    ([(CONTENT_TYPE, "application/json")], document.0)
}
