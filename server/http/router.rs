//! Every route, in one place: the REST API in [`api`], where each path is one entry that
//! routes its handlers and describes them in `GET /api/openapi.json` (their
//! `#[utoipa::path]` annotations), and the HTML pages of [`super::pages::router`].

use std::sync::Arc;
use std::time::Duration;

use axum::extract::{MatchedPath, Request};
use axum::{Extension, Router};
use tower_http::catch_panic::CatchPanicLayer;
use tower_http::trace::TraceLayer;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::availability::DatabaseHealth;
use super::error::ApiError;
use super::extract::ClientAddress;
use super::openapi::{self, ApiDocument};
use super::{
    accounts, admin, analysis, challenges, conditional, desk, games, health, imports, notifications,
    password_reset, players, positions, preferences, rounds, session, tables, tokens, tournaments, vacation,
    AppState,
};
use axum::extract::DefaultBodyLimit;

/// The application's routes, wrapped (from the handler outwards) in: the session (its store
/// is the database); the refusal of every request while the database is unreachable
/// (`availability`); the per-route metrics; the request timeout; the per-request tracing
/// span, whose closing line is the access log (method, matched path, status, the client's
/// address and the signed-in account; never headers or bodies, which may carry secrets);
/// and the request id. So an outage's 503s and a timeout's 408s carry their request id,
/// are in the access log and are counted by route (issue 40 §5). The static files skip
/// the session and the outage (they are built into the binary). The security headers and
/// the body limit are added by [`crate::startup`].
pub fn router<Store>(
    state: AppState,
    sessions: tower_sessions::SessionManagerLayer<Store>,
    health: Arc<DatabaseHealth>,
    request_timeout: Duration,
) -> Router
where
    Store: tower_sessions::SessionStore + Clone,
{
    let (api, description) = api().split_for_parts();
    let client_address_header = state.client_address_header.clone();
    api.merge(super::pages::router())
        // A panic in a handler answers 500 in the error shape (and is counted by `track`
        // as a 500), never a dropped connection.
        .route_layer(CatchPanicLayer::custom(super::error::panicked))
        .route_layer(sessions)
        .route_layer(axum::middleware::from_fn_with_state(health, super::availability::refuse_while_down))
        .route_layer(axum::middleware::from_fn(super::metrics::track))
        .fallback(|| async { ApiError::not_found() })
        .method_not_allowed_fallback(|| async {
            ApiError::new(axum::http::StatusCode::METHOD_NOT_ALLOWED, "method not allowed")
        })
        .nest_service("/static", super::static_files::service())
        .layer(axum::middleware::from_fn_with_state(
            request_timeout,
            super::connections::within_request_timeout,
        ))
        .layer(Extension(ApiDocument::new(description)))
        .layer(axum::middleware::from_fn(super::metrics::remember_request_span))
        .layer(
            TraceLayer::new_for_http()
                .make_span_with(move |request: &Request| {
                    let path = request
                        .extensions()
                        .get::<MatchedPath>()
                        .map(MatchedPath::as_str)
                        .unwrap_or("unmatched");
                    let id = request
                        .headers()
                        .get(super::metrics::REQUEST_ID_HEADER)
                        .and_then(|value| value.to_str().ok())
                        .unwrap_or("")
                        .to_owned();
                    let client = ClientAddress::of_request(
                        request.extensions(),
                        request.headers(),
                        client_address_header.as_ref(),
                    );
                    // `account` is recorded once the request's credentials are read
                    // (`auth::signed_in`, through `metrics::RequestSpan`).
                    tracing::info_span!(
                        "request",
                        method = %request.method(),
                        path = %path,
                        request_id = %id,
                        client = %client.0,
                        account = tracing::field::Empty,
                    )
                })
                // One line per answer (the access log), with the span's fields.
                .on_response(tower_http::trace::DefaultOnResponse::new().level(tracing::Level::INFO))
                // A 5xx is in the access line already (a 503 during an outage or a drain
                // is expected): no second line at ERROR.
                .on_failure(tower_http::trace::DefaultOnFailure::new().level(tracing::Level::DEBUG)),
        )
        .layer(axum::middleware::from_fn(super::metrics::request_id))
        .with_state(state)
}

/// The REST API and its description, from one list: one `routes!` per path, naming the
/// handlers of its methods (the path and method come from each handler's annotation; a
/// handler without one does not compile here). A route added with a plain `.route` would
/// be served but not described: the OpenAPI tests refuse it.
pub fn api() -> OpenApiRouter<AppState> {
    OpenApiRouter::with_openapi(openapi::frame())
        .routes(routes!(health::healthz))
        .routes(routes!(health::readyz))
        .routes(routes!(super::metrics::endpoint))
        .routes(routes!(openapi::document))
        // Accounts, sessions, leave.
        .routes(routes!(accounts::register))
        .routes(routes!(accounts::me, accounts::update))
        .routes(routes!(password_reset::request))
        .routes(routes!(password_reset::confirm))
        .routes(routes!(preferences::show, preferences::update))
        .routes(routes!(tokens::list, tokens::create))
        .routes(routes!(tokens::revoke))
        .routes(routes!(tokens::revoke_one))
        .routes(routes!(session::login, session::logout))
        .routes(routes!(vacation::show, vacation::start))
        .routes(routes!(vacation::end))
        // Administration of accounts.
        .routes(routes!(admin::accounts))
        .routes(routes!(admin::update_account, accounts::show_for_admin))
        .routes(routes!(admin::audit))
        // Notifications and mail (#17).
        .routes(routes!(notifications::list))
        .routes(routes!(notifications::mark_read))
        .routes(routes!(notifications::settings, notifications::change_settings))
        .routes(routes!(notifications::outbox))
        // Challenges and games.
        .routes(routes!(challenges::list, challenges::create))
        .routes(routes!(challenges::show))
        .routes(routes!(challenges::accept))
        .routes(routes!(challenges::decline))
        .routes(routes!(challenges::cancel))
        .routes(routes!(challenges::leave))
        .routes(routes!(games::list))
        .routes(routes!(imports::import))
        .routes(routes!(games::show))
        .routes(routes!(games::submit_move))
        .routes(routes!(games::check_move))
        .routes(routes!(conditional::list, conditional::create, conditional::delete_all))
        .routes(routes!(conditional::next))
        .routes(routes!(conditional::delete_one))
        .routes(routes!(games::resign))
        .routes(routes!(games::offer_draw))
        .routes(routes!(games::accept_draw))
        .routes(routes!(games::decline_draw))
        .routes(routes!(games::abort))
        .routes(routes!(games::claim))
        .routes(routes!(games::series))
        .routes(routes!(games::rematch))
        .routes(routes!(analysis::request, analysis::show))
        // Positions outside games (the analysis board), with a body limit of their own.
        .routes({
            let (schemas, paths, method) = routes!(positions::legal_moves);
            (schemas, paths, method.layer(DefaultBodyLimit::max(positions::MAX_BODY_BYTES)))
        })
        .routes(routes!(crate::live::socket::connect))
        // Tournaments: directors' decisions on games, tournaments, sections, tables.
        .routes(routes!(tournaments::adjudicate))
        .routes(routes!(tournaments::forfeit))
        .routes(routes!(tournaments::corrections, tournaments::correct))
        .routes(routes!(tournaments::mine))
        .routes(routes!(tournaments::list, tournaments::create))
        .routes(routes!(tournaments::show, tournaments::update))
        .routes(routes!(tournaments::add_director))
        .routes(routes!(tournaments::list_sections, tournaments::create_section))
        .routes(routes!(tournaments::show_section, tournaments::update_section))
        .routes(routes!(tournaments::register))
        .routes(routes!(tournaments::seed))
        .routes(routes!(tournaments::withdraw))
        .routes(routes!(tournaments::start))
        .routes(routes!(tournaments::next_round))
        .routes(routes!(tournaments::standings))
        .routes(routes!(tournaments::trf))
        .routes(routes!(rounds::rounds))
        .routes(routes!(rounds::pairing_explanation))
        .routes(routes!(desk::desk))
        .routes(routes!(rounds::games_file))
        // Players: profiles, rating histories, leaderboards (issue 18).
        .routes(routes!(players::list))
        .routes(routes!(players::show))
        .routes(routes!(players::history))
        .routes(routes!(players::leaderboard))
        // The crosstable and the Grand Prix table, each at four URLs, one handler.
        .merge(tables::routes().fold(OpenApiRouter::default(), OpenApiRouter::routes))
}
