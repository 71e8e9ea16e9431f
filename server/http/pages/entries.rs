//! Joining and withdrawing by form (issue 38 §3): `POST /sections/{id}/join` enters the
//! signed-in player (or, for a director, the player named in `username`);
//! `POST /sections/{id}/withdraw` first answers a confirmation page saying what the
//! section's rule does to the player's games, and withdraws once it is confirmed. Refusals
//! come back on the tournament page, in the reader's language.

use axum::extract::State;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Redirect, Response};
use serde::Deserialize;
use tavoliere_tournament::withdrawal::WithdrawalRule;

use super::tournaments::page;
use super::{render, Chrome, Ctx, PageError, PageForm, PagePath, PageResult};
use crate::domain::tournaments::{self, SectionView, WithdrawalPreview};
use crate::domain::{Domain, DomainError, ErrorKind};
use crate::web::i18n::Texts;

/// The section `id`, or the site's 404 page.
pub(crate) async fn section_or_404(domain: &Domain, ctx: &Ctx, id: i64) -> Result<SectionView, PageError> {
    match tournaments::section(domain, id).await {
        Ok(section) => Ok(section),
        Err(DomainError::NotFound(_)) => Err(PageError::NotFound(ctx.t)),
        Err(other) => Err(PageError::Internal(other.to_string())),
    }
}

/// Back to the section on its tournament's page.
pub(crate) fn to_section(section: &SectionView) -> Response {
    Redirect::to(&format!("/tournaments/{}#section-{}", section.tournament_id, section.id)).into_response()
}

/// The HTTP status of a refusal, as the API would answer it.
pub(crate) fn refusal_status(error: &DomainError) -> StatusCode {
    match error.kind() {
        ErrorKind::Conflict => StatusCode::CONFLICT,
        ErrorKind::Forbidden => StatusCode::FORBIDDEN,
        ErrorKind::NotFound => StatusCode::NOT_FOUND,
        ErrorKind::RateLimited => StatusCode::TOO_MANY_REQUESTS,
        _ => StatusCode::UNPROCESSABLE_ENTITY,
    }
}

/// A refusal of an entry in the reader's language: the section's limits in the sentences
/// about ratings; the catalogue's `refusal.<code>` otherwise, or the domain's sentence.
fn entry_refusal(t: Texts, error: &DomainError, section: &SectionView, username: Option<&str>) -> String {
    let limit = |value: Option<i32>| value.map(|v| v.to_string()).unwrap_or_default();
    match (error.code(), error) {
        ("entry.rating-too-low" | "entry.rating-too-high" | "entry.unrated", _) => t.format(
            &format!("refusal.{}", error.code()),
            &[("min", &limit(section.rating_min)), ("max", &limit(section.rating_max))],
        ),
        (_, DomainError::Forbidden(_)) => t.get("refusal.entry.not-director").to_owned(),
        (_, DomainError::Invalid(_)) if username.is_some() => {
            t.format("refusal.entry.no-account", &[("name", username.unwrap_or_default())])
        }
        _ => super::refusal_text(t, error),
    }
}

/// The join form: a director may name another player.
#[derive(Deserialize)]
pub struct JoinForm {
    #[serde(default)]
    csrf: String,
    #[serde(default)]
    username: String,
}

/// `POST /sections/{id}/join`.
pub async fn join(
    State(domain): State<Domain>,
    ctx: Ctx,
    PagePath(id): PagePath<i64>,
    PageForm(form): PageForm<JoinForm>,
) -> PageResult {
    ctx.check_csrf(&form.csrf)?;
    let me = ctx.require_user()?.clone();
    let section = section_or_404(&domain, &ctx, id).await?;
    let username = Some(form.username.trim()).filter(|name| !name.is_empty());
    match tournaments::register(&domain, &me, id, username, None).await {
        Ok(_) => Ok(to_section(&section)),
        Err(DomainError::Internal(e)) => Err(PageError::Internal(e.to_string())),
        Err(error) => {
            let text = entry_refusal(ctx.t, &error, &section, username);
            page(&domain, &ctx, section.tournament_id, refusal_status(&error), Some(text)).await
        }
    }
}

/// The withdraw form: `confirm=yes` once the player has read the consequences.
#[derive(Deserialize)]
pub struct WithdrawForm {
    #[serde(default)]
    csrf: String,
    #[serde(default)]
    confirm: String,
}

/// The confirmation page of a withdrawal.
#[derive(askama::Template)]
#[template(path = "withdraw_confirm.html")]
pub struct WithdrawPage {
    chrome: Chrome,
    section_id: i64,
    tournament_id: i64,
    question: String,
    consequences: Vec<String>,
}

/// What withdrawing does, in words: the section's rule, then what it does to this
/// player's games now.
fn consequences(t: Texts, preview: &WithdrawalPreview) -> Vec<String> {
    if !preview.started {
        return vec![t.get("withdraw.before_start").to_owned()];
    }
    let mut lines = vec![t
        .get(match preview.rule {
            WithdrawalRule::ForfeitUnplayed => "withdraw.rule.forfeit",
            WithdrawalRule::AnnulIfFewerThanHalfPlayed => "withdraw.rule.annul",
        })
        .to_owned()];
    if preview.annulled > 0 {
        lines.push(t.format("withdraw.annulled", &[("count", &preview.annulled.to_string())]));
    }
    if preview.forfeited > 0 {
        lines.push(t.format("withdraw.forfeited", &[("count", &preview.forfeited.to_string())]));
    }
    if preview.annulled == 0 && preview.forfeited == 0 {
        lines.push(t.get("withdraw.nothing_changes").to_owned());
    }
    if preview.later_rounds {
        lines.push(t.get("withdraw.later_rounds").to_owned());
    }
    if preview.swiss {
        lines.push(t.get("withdraw.swiss").to_owned());
    }
    lines.push(t.get("withdraw.final").to_owned());
    lines
}

/// `POST /sections/{id}/withdraw`: the confirmation page, then (with `confirm=yes`) the
/// withdrawal.
pub async fn withdraw(
    State(domain): State<Domain>,
    ctx: Ctx,
    PagePath(id): PagePath<i64>,
    PageForm(form): PageForm<WithdrawForm>,
) -> PageResult {
    ctx.check_csrf(&form.csrf)?;
    let me = ctx.require_user()?.clone();
    let section = section_or_404(&domain, &ctx, id).await?;
    let refuse =
        |status: StatusCode, text: String| page(&domain, &ctx, section.tournament_id, status, Some(text));
    if form.confirm != "yes" {
        let preview = match tournaments::withdrawal_preview(&domain, &me, id).await {
            Ok(preview) => preview,
            Err(DomainError::NotFound(_)) => {
                return refuse(StatusCode::CONFLICT, ctx.t.get("refusal.entry.not-entered").to_owned()).await
            }
            Err(other) => return Err(PageError::Internal(other.to_string())),
        };
        let mut chrome = ctx.chrome("withdraw.title");
        chrome.title = ctx.t.format("withdraw.title", &[("section", &section.name)]);
        return render(&WithdrawPage {
            chrome,
            section_id: id,
            tournament_id: section.tournament_id,
            question: ctx.t.format("withdraw.question", &[("section", &section.name)]),
            consequences: consequences(ctx.t, &preview),
        });
    }
    match tournaments::withdraw(&domain, &me, id, &me.username, None).await {
        Ok(_) => Ok(to_section(&section)),
        Err(DomainError::Internal(e)) => Err(PageError::Internal(e.to_string())),
        Err(DomainError::NotFound(_) | DomainError::Conflict(_)) => {
            refuse(StatusCode::CONFLICT, ctx.t.get("refusal.entry.not-entered").to_owned()).await
        }
        Err(error) => refuse(refusal_status(&error), super::refusal_text(ctx.t, &error)).await,
    }
}
