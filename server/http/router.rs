//! Every route, in one place.

use axum::extract::{MatchedPath, Request};
use axum::routing::{get, patch, post};
use axum::Router;
use tower_http::trace::TraceLayer;

use super::error::ApiError;
use super::{
    accounts, challenges, games, health, openapi, preferences, session, tokens, tournaments, vacation,
    AppState,
};

/// The application's routes with the per-request tracing span (method and matched path;
/// never headers or bodies, which may carry secrets). Session and body-limit layers are
/// added by [`crate::startup`].
pub fn router(state: AppState) -> Router {
    Router::new()
        .route("/healthz", get(health::healthz))
        .route("/api/openapi.json", get(openapi::document))
        .route("/api/accounts", post(accounts::register))
        .route("/api/accounts/me", get(accounts::me))
        .route("/api/accounts/me/preferences", get(preferences::show).patch(preferences::update))
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
        .route("/api/challenges/{id}/leave", post(challenges::leave))
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
        .route("/api/games/{id}/series", get(games::series))
        .route("/api/games/{id}/socket", get(crate::live::socket::connect))
        .route("/api/games/{id}/adjudicate", post(tournaments::adjudicate))
        .route("/api/games/{id}/forfeit", post(tournaments::forfeit))
        .route("/api/games/{id}/result-corrections", get(tournaments::corrections).post(tournaments::correct))
        .route("/api/accounts/me/tournaments", get(tournaments::mine))
        .route("/api/tournaments", get(tournaments::list).post(tournaments::create))
        .route("/api/tournaments/{id}", get(tournaments::show).patch(tournaments::update))
        .route("/api/tournaments/{id}/directors", post(tournaments::add_director))
        .route(
            "/api/tournaments/{id}/sections",
            get(tournaments::list_sections).post(tournaments::create_section),
        )
        .route("/api/tournaments/{id}/grand-prix", get(tournaments::grand_prix))
        .route("/api/tournaments/{id}/grand-prix.json", get(tournaments::grand_prix_json))
        .route("/api/tournaments/{id}/grand-prix.csv", get(tournaments::grand_prix_csv_file))
        .route("/api/tournaments/{id}/grand-prix.html", get(tournaments::grand_prix_html_page))
        .route("/api/sections/{id}", get(tournaments::show_section).patch(tournaments::update_section))
        .route("/api/sections/{id}/entries", post(tournaments::register))
        .route("/api/sections/{id}/entries/{username}", patch(tournaments::seed))
        .route("/api/sections/{id}/entries/{username}/withdraw", post(tournaments::withdraw))
        .route("/api/sections/{id}/start", post(tournaments::start))
        .route("/api/sections/{id}/next-round", post(tournaments::next_round))
        .route("/api/sections/{id}/standings", get(tournaments::standings))
        .route("/api/sections/{id}/crosstable", get(tournaments::crosstable))
        .route("/api/sections/{id}/crosstable.json", get(tournaments::crosstable_json))
        .route("/api/sections/{id}/crosstable.csv", get(tournaments::crosstable_csv_file))
        .route("/api/sections/{id}/crosstable.html", get(tournaments::crosstable_html_page))
        .route("/api/sections/{id}/trf", get(tournaments::trf))
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
