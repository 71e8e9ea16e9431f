//! The import form (issue 15 §7): `GET /import` shows it, `POST /import` imports the
//! pasted record through [`imports::import`], the function behind `POST
//! /api/games/import`, and goes to the stored game's page. Works without JavaScript; the
//! form carries the session's CSRF token.

use axum::extract::State;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Redirect};
use serde::Deserialize;

use super::{render, render_with, Chrome, Ctx, PageError, PageForm, PageResult};
use crate::domain::imports::{self, ImportError, RecordProblem};
use crate::domain::DomainError;
use crate::http::AppState;

/// The variants the form offers ("" = detect from the record).
pub const VARIANTS: [&str; 4] = ["", "xiangqi", "shogi", "minishogi"];

/// What the form sends.
#[derive(Debug, Default, Deserialize)]
pub struct ImportForm {
    #[serde(default)]
    csrf: String,
    #[serde(default)]
    variant: String,
    #[serde(default)]
    record: String,
}

/// The import page.
#[derive(askama::Template)]
#[template(path = "import.html")]
pub struct ImportPage {
    chrome: Chrome,
    form: ImportForm,
    error: Option<String>,
}

/// `GET /import`.
pub async fn form(ctx: Ctx) -> PageResult {
    ctx.require_user()?;
    render(&ImportPage { chrome: ctx.chrome("import.title"), form: ImportForm::default(), error: None })
}

/// A record's problem in the reader's language: its place, its token and the rules'
/// reason (the catalogue's `refusal.<code>`, else the English sentence).
fn problem_text(ctx: &Ctx, problem: &RecordProblem) -> String {
    let token = problem.token.clone().unwrap_or_default();
    let reason = ctx
        .t
        .lookup(&format!("refusal.{}", problem.code))
        .map(|text| text.replace("{move}", &token))
        .filter(|text| !text.contains('{'))
        .unwrap_or_else(|| problem.detail.clone());
    match (problem.line, problem.column) {
        (Some(line), Some(column)) => ctx.t.format(
            "import.error.place",
            &[
                ("line", &line.to_string()),
                ("column", &column.to_string()),
                ("token", &token),
                ("reason", &reason),
            ],
        ),
        _ => reason,
    }
}

/// `POST /import` (the limits of the API's import: games per file, games per day).
pub async fn submit(
    State(state): State<AppState>,
    ctx: Ctx,
    PageForm(form): PageForm<ImportForm>,
) -> PageResult {
    ctx.check_csrf(&form.csrf)?;
    let me = ctx.require_user()?.clone();
    let variant = Some(form.variant.as_str()).filter(|v| !v.is_empty());
    let mut status = StatusCode::UNPROCESSABLE_ENTITY;
    let mut retry_after = None;
    let error = match imports::import(&state.domain, state.import_limits, me.id, variant, &form.record).await
    {
        Ok(imported) => return Ok(Redirect::to(&format!("/games/{}", imported.game.id)).into_response()),
        Err(ImportError::Record(problem)) => problem_text(&ctx, &problem),
        Err(ImportError::Records(problems)) => problems
            .iter()
            .map(|p| {
                let game = p.game.unwrap_or(1).to_string();
                ctx.t.format("import.error.game", &[("game", &game), ("problem", &problem_text(&ctx, p))])
            })
            .collect::<Vec<_>>()
            .join(" · "),
        Err(ImportError::TooManyGames { games, limit }) => {
            status = StatusCode::PAYLOAD_TOO_LARGE;
            ctx.t.format(
                "import.error.too_many",
                &[("games", &games.to_string()), ("limit", &limit.to_string())],
            )
        }
        Err(ImportError::Domain(DomainError::Internal(e))) => return Err(PageError::Internal(e.to_string())),
        Err(ImportError::Domain(error)) => {
            if let Some(seconds) = error.retry_after() {
                status = StatusCode::TOO_MANY_REQUESTS;
                retry_after = Some(seconds);
            }
            super::refusal_text(ctx.t, &error)
        }
    };
    let page = ImportPage { chrome: ctx.chrome("import.title"), form, error: Some(error) };
    let mut response = render_with(status, &page)?;
    if let Some(seconds) = retry_after {
        response.headers_mut().insert(axum::http::header::RETRY_AFTER, seconds.into());
    }
    Ok(response)
}
