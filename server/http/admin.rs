//! The admins' REST API (issue 20 §1): `GET /api/admin/accounts`,
//! `PATCH /api/admin/accounts/{username}` (role, disabled), `GET /api/admin/audit`.

use axum::extract::State;

use super::auth::AuthUser;
use super::error::ApiResult;
use super::extract::{Json, Path};
use crate::domain::admin::{self, AccountPatch, AccountSummary, AuditEntryView};
use crate::domain::Domain;

#[utoipa::path(
    get,
    path = "/api/admin/accounts",
    tag = "admin",
    security(("bearer" = []), ("session" = [])),
    responses((status = 200, description = "every account by name", body = Vec<AccountSummary>))
)]
/// Every account with its role and state (admins).
pub async fn accounts(
    State(domain): State<Domain>,
    AuthUser(me): AuthUser,
) -> ApiResult<Json<Vec<AccountSummary>>> {
    Ok(Json(admin::accounts(&domain, &me).await?))
}

#[utoipa::path(
    patch,
    path = "/api/admin/accounts/{username}",
    tag = "admin",
    params(("username" = String, Path, description = "The account's username")),
    request_body = AccountPatch,
    security(("bearer" = []), ("session" = [])),
    responses((status = 200, description = "the account after the change", body = AccountSummary))
)]
/// Grants or revokes a role, disables or enables an account (admins); every change is
/// recorded in the audit log. A disabled account can no longer sign in, use its tokens or
/// move; its games go on to their deadlines or the directors' decisions.
#[tracing::instrument(skip_all)]
pub async fn update_account(
    State(domain): State<Domain>,
    AuthUser(me): AuthUser,
    Path(username): Path<String>,
    Json(patch): Json<AccountPatch>,
) -> ApiResult<Json<AccountSummary>> {
    Ok(Json(admin::update_account(&domain, Some(&me), &username, &patch).await?))
}

#[utoipa::path(
    get,
    path = "/api/admin/audit",
    tag = "admin",
    security(("bearer" = []), ("session" = [])),
    responses((status = 200, description = "the changes, newest first", body = Vec<AuditEntryView>))
)]
/// The audit log of changes to accounts: who, when, what (admins).
pub async fn audit(
    State(domain): State<Domain>,
    AuthUser(me): AuthUser,
) -> ApiResult<Json<Vec<AuditEntryView>>> {
    Ok(Json(admin::audit_log(&domain, &me).await?))
}
