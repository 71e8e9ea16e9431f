//! Every route, in one place.

use axum::extract::{MatchedPath, Request};
use axum::routing::{get, post};
use axum::Router;
use tower_http::trace::TraceLayer;

use super::error::ApiError;
use super::{accounts, challenges, games, health, openapi, session, tokens, vacation, AppState};

/// The application's routes with the per-request tracing span (method and matched path;
/// never headers or bodies, which may carry secrets). Session and body-limit layers are
/// added by [`crate::startup`].
pub fn router(state: AppState) -> Router {
    Router::new()
        .route("/healthz", get(health::healthz))
        .route("/api/openapi.json", get(openapi::document))
        .route("/api/accounts", post(accounts::register))
        .route("/api/accounts/me", get(accounts::me))
        .route("/api/tokens", post(tokens::create))
        .route("/api/tokens/current", axum::routing::delete(tokens::revoke))
        .route("/api/session", post(session::login).delete(session::logout))
        .route("/api/vacation", get(vacation::show).post(vacation::start))
        .route("/api/vacation/end", post(vacation::end))
        .route("/api/challenges", get(challenges::list).post(challenges::create))
        .route("/api/challenges/{id}", get(challenges::show))
        .route("/api/challenges/{id}/accept", post(challenges::accept))
        .route("/api/challenges/{id}/decline", post(challenges::decline))
        .route("/api/challenges/{id}/cancel", post(challenges::cancel))
        .route("/api/games", get(games::list))
        .route("/api/games/{id}", get(games::show))
        .route("/api/games/{id}/moves", post(games::submit_move))
        .route("/api/games/{id}/moves/check", post(games::check_move))
        .route("/api/games/{id}/resign", post(games::resign))
        .route("/api/games/{id}/draw/offer", post(games::offer_draw))
        .route("/api/games/{id}/draw/accept", post(games::accept_draw))
        .route("/api/games/{id}/draw/decline", post(games::decline_draw))
        .route("/api/games/{id}/abort", post(games::abort))
        .route("/api/games/{id}/claim", post(games::claim))
        .merge(super::pages::router())
        .fallback(|| async { ApiError::not_found() })
        .method_not_allowed_fallback(|| async {
            ApiError::new(axum::http::StatusCode::METHOD_NOT_ALLOWED, "method not allowed")
        })
        .layer(TraceLayer::new_for_http().make_span_with(|request: &Request| {
            let path =
                request.extensions().get::<MatchedPath>().map(MatchedPath::as_str).unwrap_or("unmatched");
            tracing::info_span!("request", method = %request.method(), path = %path)
        }))
        .with_state(state)
}
