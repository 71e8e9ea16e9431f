//! `GET /api/notifications` (the in-app list and the unread count),
//! `POST /api/notifications/read`, `GET/PATCH /api/notifications/settings` (how each kind
//! is mailed, the digest's hour and time zone), `GET /api/admin/outbox` (the mails, for
//! admins).

use axum::extract::State;
use serde::{Deserialize, Serialize};

use super::accounts::require_admin;
use super::auth::AuthUser;
use super::error::ApiResult;
use super::extract::{Json, Query};
use super::AppState;
use crate::domain::notifications::{self, MailSettings, MailSettingsChange, Notification};
use crate::storage::outbox::{self, OutboxRow};

/// Which notifications to list.
#[derive(Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
pub struct ListQuery {
    /// Only those older than this id (the next page).
    before: Option<i64>,
    /// How many (default 50, at most 200).
    limit: Option<i64>,
}

/// The caller's notifications.
#[derive(Serialize, utoipa::ToSchema)]
pub struct NotificationList {
    /// Unread notifications in all.
    unread: i64,
    /// The newest first.
    notifications: Vec<Notification>,
}

/// Which notifications were read.
#[derive(Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub struct MarkRead {
    /// Every notification up to this id (absent: all).
    #[serde(default)]
    up_to: Option<i64>,
}

/// The unread count after marking.
#[derive(Serialize, utoipa::ToSchema)]
pub struct Unread {
    /// Unread notifications left.
    unread: i64,
}

#[utoipa::path(
    get,
    path = "/api/notifications",
    operation_id = "list_notifications",
    tag = "notifications",
    params(ListQuery),
    security(("bearer" = []), ("session" = [])),
    responses((status = 200, description = "the newest notifications and the unread count", body = NotificationList))
)]
/// The caller's notifications, the newest first, and how many are unread.
pub async fn list(
    State(state): State<AppState>,
    AuthUser(me): AuthUser,
    Query(query): Query<ListQuery>,
) -> ApiResult<Json<NotificationList>> {
    let (notifications, unread) =
        notifications::list(&state.domain, me.id, query.before, query.limit.unwrap_or(50)).await?;
    Ok(Json(NotificationList { unread, notifications }))
}

#[utoipa::path(
    post,
    path = "/api/notifications/read",
    tag = "notifications",
    request_body = MarkRead,
    security(("bearer" = []), ("session" = [])),
    responses((status = 200, description = "the unread count left", body = Unread))
)]
/// Marks the caller's notifications read (up to an id, or all).
pub async fn mark_read(
    State(state): State<AppState>,
    AuthUser(me): AuthUser,
    Json(body): Json<MarkRead>,
) -> ApiResult<Json<Unread>> {
    let unread = notifications::mark_read(&state.domain, me.id, body.up_to).await?;
    Ok(Json(Unread { unread }))
}

#[utoipa::path(
    get,
    path = "/api/notifications/settings",
    tag = "notifications",
    security(("bearer" = []), ("session" = [])),
    responses((status = 200, description = "how each kind is mailed", body = MailSettings))
)]
/// How each kind of notification is mailed to the caller (immediately, in the daily
/// digest, or off), and the digest's hour and time zone.
pub async fn settings(
    State(state): State<AppState>,
    AuthUser(me): AuthUser,
) -> ApiResult<Json<MailSettings>> {
    Ok(Json(notifications::settings(&state.domain, me.id).await?))
}

#[utoipa::path(
    patch,
    path = "/api/notifications/settings",
    tag = "notifications",
    request_body = MailSettingsChange,
    security(("bearer" = []), ("session" = [])),
    responses((status = 200, description = "the settings after the change", body = MailSettings))
)]
/// Changes some of the caller's mail settings; a bad value changes nothing (422).
pub async fn change_settings(
    State(state): State<AppState>,
    AuthUser(me): AuthUser,
    Json(change): Json<MailSettingsChange>,
) -> ApiResult<Json<MailSettings>> {
    Ok(Json(notifications::change_settings(&state.domain, me.id, &change).await?))
}

#[utoipa::path(
    get,
    path = "/api/admin/outbox",
    tag = "admin",
    security(("bearer" = []), ("session" = [])),
    responses((status = 200, description = "the newest 200 mails of the outbox and their state", body = [OutboxRow]))
)]
/// The outbox (admins only): every mail, sent or not, with its state and last error.
/// With no SMTP relay configured, this is where a newcomer sees what would be sent.
pub async fn outbox(
    State(state): State<AppState>,
    AuthUser(me): AuthUser,
) -> ApiResult<Json<Vec<OutboxRow>>> {
    require_admin(&me)?;
    Ok(Json(outbox::recent(&state.domain.pool, 200).await?))
}
