//! `GET/PATCH /api/accounts/me/preferences`: the caller's language, piece style and
//! move-list notations (the same settings as the web page's).

use axum::extract::State;

use super::auth::AuthUser;
use super::error::ApiResult;
use super::extract::Json;
use crate::domain::preferences::{self, Preferences, PreferencesPatch};
use crate::domain::Domain;

#[utoipa::path(
    get,
    path = "/api/accounts/me/preferences",
    operation_id = "show_preferences",
    tag = "accounts",
    security(("bearer" = []), ("session" = [])),
    responses((status = 200, description = "the caller's preferences", body = Preferences))
)]
/// The caller's preferences.
#[tracing::instrument(skip_all)]
pub async fn show(State(domain): State<Domain>, AuthUser(me): AuthUser) -> ApiResult<Json<Preferences>> {
    Ok(Json(preferences::of_account(&domain.pool, me.id).await?))
}

#[utoipa::path(
    patch,
    path = "/api/accounts/me/preferences",
    operation_id = "update_preferences",
    tag = "accounts",
    request_body = PreferencesPatch,
    security(("bearer" = []), ("session" = [])),
    responses((status = 200, description = "the caller's preferences after the change", body = Preferences))
)]
/// Changes some of the caller's preferences; an unknown field or value changes nothing
/// (422).
#[tracing::instrument(skip_all)]
pub async fn update(
    State(domain): State<Domain>,
    AuthUser(me): AuthUser,
    Json(patch): Json<PreferencesPatch>,
) -> ApiResult<Json<Preferences>> {
    Ok(Json(preferences::update(&domain.pool, me.id, &patch).await?))
}
