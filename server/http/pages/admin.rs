//! `GET /admin`: the admins' page (issue 20 §1): every account with its role and state,
//! a form per account to change them (`POST /admin/accounts/{username}`), and the audit
//! log. Anyone but an admin finds no such page.

use axum::extract::State;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Redirect};
use serde::Deserialize;
use time::format_description::well_known::Rfc3339;

use super::{render_with, Chrome, Ctx, PageError, PageForm, PagePath, PageResult};
use crate::domain::accounts::Role;
use crate::domain::admin::{self, AccountPatch, AccountSummary};
use crate::domain::{Domain, DomainError};

/// One line of the audit log.
pub struct AuditLine {
    when: String,
    who: String,
    account: String,
    change: String,
    before: String,
    after: String,
}

/// The admins' page.
#[derive(askama::Template)]
#[template(path = "admin.html")]
pub struct AdminPage {
    chrome: Chrome,
    accounts: Vec<AccountSummary>,
    roles: Vec<&'static str>,
    audit: Vec<AuditLine>,
    error: Option<String>,
}

async fn page(domain: &Domain, ctx: &Ctx, status: StatusCode, error: Option<String>) -> PageResult {
    let me = ctx.require_user()?;
    let refused = |e: DomainError| match e {
        DomainError::Forbidden(_) => PageError::NotFound(ctx.t),
        other => PageError::Internal(other.to_string()),
    };
    let accounts = admin::accounts(domain, me).await.map_err(refused)?;
    let audit = admin::audit_log(domain, me)
        .await
        .map_err(refused)?
        .into_iter()
        .map(|e| AuditLine {
            when: e.changed_at.format(&Rfc3339).unwrap_or_default(),
            who: e.changed_by.unwrap_or_else(|| ctx.t.get("admin.command_line").to_owned()),
            account: e.account,
            change: e.change,
            before: e.old_value,
            after: e.new_value,
        })
        .collect();
    let roles = [Role::Player, Role::Director, Role::GlobalDirector, Role::Admin].map(Role::as_str).to_vec();
    render_with(status, &AdminPage { chrome: ctx.chrome("admin.title"), accounts, roles, audit, error })
}

/// `GET /admin`.
pub async fn show(State(domain): State<Domain>, ctx: Ctx) -> PageResult {
    page(&domain, &ctx, StatusCode::OK, None).await
}

/// What an account's form sends.
#[derive(Deserialize)]
pub struct AccountForm {
    #[serde(default)]
    csrf: String,
    #[serde(default)]
    role: String,
    #[serde(default)]
    disabled: String,
}

/// `POST /admin/accounts/{username}`: changes an account's role and state.
pub async fn update(
    State(domain): State<Domain>,
    ctx: Ctx,
    PagePath(username): PagePath<String>,
    PageForm(form): PageForm<AccountForm>,
) -> PageResult {
    ctx.check_csrf(&form.csrf)?;
    let me = ctx.require_user()?.clone();
    let role = serde_json::from_value::<Role>(serde_json::Value::String(form.role.clone())).ok();
    let patch = AccountPatch { role, disabled: Some(form.disabled == "true") };
    match admin::update_account(&domain, Some(&me), &username, &patch).await {
        Ok(_) => Ok(Redirect::to("/admin").into_response()),
        Err(DomainError::Forbidden(_) | DomainError::NotFound(_)) => Err(PageError::NotFound(ctx.t)),
        Err(DomainError::Internal(e)) => Err(PageError::Internal(e.to_string())),
        Err(other) => page(&domain, &ctx, StatusCode::CONFLICT, Some(other.to_string())).await,
    }
}
