//! `GET /tournaments/{id}/desk`: the directors' desk as a page (issue 20 §2), with the
//! form for the existing decisions (adjudicate, forfeit, correct). Anyone but the
//! tournament's directors finds no such page.

use axum::extract::State;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Redirect};
use serde::Deserialize;
use time::format_description::well_known::Rfc3339;
use time::OffsetDateTime;

use super::{render_with, Chrome, Ctx, PageError, PageForm, PagePath, PageResult};
use crate::domain::tournaments::{self, Decision};
use crate::domain::{Domain, DomainError};

/// A running game on the desk.
pub struct GameLine {
    id: i64,
    first: String,
    second: String,
    to_move: String,
    deadline: String,
    overdue: bool,
    ply: i32,
    offered_by: String,
}

/// A decision of the audit trail.
pub struct DecisionLine {
    when: String,
    who: String,
    game: i64,
    kind: String,
    before: String,
    after: String,
    reason: String,
}

/// A withdrawal.
pub struct WithdrawalLine {
    section: String,
    username: String,
    when: String,
}

/// The pairing of a Swiss section's last round, explained (issue 42 §4).
pub struct ExplainedRound {
    section: i64,
    round: u32,
    heading: String,
    verdict: String,
    sentences: Vec<String>,
}

/// The desk page.
#[derive(askama::Template)]
#[template(path = "desk.html")]
pub struct DeskPage {
    chrome: Chrome,
    heading: String,
    tournament_id: i64,
    running_out: Vec<GameLine>,
    draw_offers: Vec<GameLine>,
    decisions: Vec<DecisionLine>,
    withdrawals: Vec<WithdrawalLine>,
    pairings: Vec<ExplainedRound>,
    error: Option<String>,
}

fn time_text(at: Option<OffsetDateTime>) -> String {
    at.and_then(|at| at.format(&Rfc3339).ok()).unwrap_or_default()
}

async fn page(domain: &Domain, ctx: &Ctx, id: i64, status: StatusCode, error: Option<String>) -> PageResult {
    let me = ctx.require_user()?;
    let desk = match tournaments::desk(domain, me, id).await {
        Ok(desk) => desk,
        Err(DomainError::NotFound(_) | DomainError::Forbidden(_)) => return Err(PageError::NotFound(ctx.t)),
        Err(other) => return Err(PageError::Internal(other.to_string())),
    };
    // Each Swiss section's last round, explained in the reader's language.
    let mut pairings = Vec::new();
    let view = tournaments::get(domain, id).await.map_err(|e| PageError::Internal(e.to_string()))?;
    for section in view.sections.iter().filter(|s| s.pairing == tournaments::PairingSystem::Swiss) {
        let Ok(round) = u32::try_from(section.current_round) else { continue };
        if round == 0 {
            continue;
        }
        let say = |key: &str, args: &[(&str, &str)]| ctx.t.format(key, args);
        if let Ok(explained) = tournaments::pairing_explanation(domain, section.id, round, &say).await {
            let number = round.to_string();
            pairings.push(ExplainedRound {
                section: section.id,
                round,
                heading: ctx
                    .t
                    .format("desk.pairing_round", &[("section", &section.name), ("round", &number)]),
                verdict: ctx
                    .t
                    .get(if explained.identical {
                        "desk.pairing_identical"
                    } else {
                        "desk.pairing_different"
                    })
                    .to_owned(),
                sentences: explained.sentences,
            });
        }
    }
    let line = |g: tournaments::DeskGame| GameLine {
        id: g.game_id,
        first: g.first,
        second: g.second,
        to_move: g.to_move,
        deadline: time_text(g.deadline),
        overdue: g.overdue,
        ply: g.ply,
        offered_by: g.draw_offered_by.unwrap_or_default(),
    };
    render_with(
        status,
        &DeskPage {
            chrome: ctx.chrome("desk.title"),
            heading: format!("{} — {}", desk.name, ctx.t.get("desk.title")),
            tournament_id: id,
            running_out: desk.running_out.into_iter().map(line).collect(),
            draw_offers: desk.draw_offers.into_iter().map(line).collect(),
            decisions: desk
                .decisions
                .into_iter()
                .map(|d| DecisionLine {
                    when: time_text(Some(d.entry.changed_at)),
                    who: d.entry.changed_by,
                    game: d.game_id,
                    kind: d.entry.kind,
                    before: d.entry.old_result,
                    after: d.entry.new_result,
                    reason: d.entry.reason,
                })
                .collect(),
            withdrawals: desk
                .withdrawals
                .into_iter()
                .map(|w| WithdrawalLine {
                    section: w.section,
                    username: w.username,
                    when: time_text(w.withdrawn_at),
                })
                .collect(),
            pairings,
            error,
        },
    )
}

/// `GET /tournaments/{id}/desk`.
pub async fn show(State(domain): State<Domain>, ctx: Ctx, PagePath(id): PagePath<i64>) -> PageResult {
    page(&domain, &ctx, id, StatusCode::OK, None).await
}

/// What the decision form sends.
#[derive(Deserialize)]
pub struct DecisionForm {
    #[serde(default)]
    csrf: String,
    #[serde(default)]
    game: String,
    #[serde(default)]
    action: String,
    #[serde(default)]
    result: String,
    #[serde(default)]
    reason: String,
}

/// `POST /tournaments/{id}/desk`: a director's decision on one of the tournament's games.
pub async fn decide(
    State(domain): State<Domain>,
    ctx: Ctx,
    PagePath(id): PagePath<i64>,
    PageForm(form): PageForm<DecisionForm>,
) -> PageResult {
    ctx.check_csrf(&form.csrf)?;
    let me = ctx.require_user()?.clone();
    let refuse = |message: String| page(&domain, &ctx, id, StatusCode::UNPROCESSABLE_ENTITY, Some(message));
    let decision = match form.action.as_str() {
        "adjudicate" => Decision::Adjudication,
        "forfeit" => Decision::Forfeit,
        "correct" => Decision::Correction,
        _ => return refuse(ctx.t.get("desk.error.action").to_owned()).await,
    };
    let Ok(game) = form.game.trim().parse::<i64>() else {
        return refuse(ctx.t.get("desk.error.game").to_owned()).await;
    };
    // Only the games of this tournament are decided from its desk.
    let in_tournament =
        tournaments::desk_game_in(&domain, id, game).await.map_err(|e| PageError::Internal(e.to_string()))?;
    if !in_tournament {
        return refuse(ctx.t.get("desk.error.game").to_owned()).await;
    }
    match tournaments::decide(&domain, &me, game, decision, form.result.trim(), &form.reason).await {
        Ok(_) => Ok(Redirect::to(&format!("/tournaments/{id}/desk")).into_response()),
        Err(DomainError::Forbidden(_) | DomainError::NotFound(_)) => Err(PageError::NotFound(ctx.t)),
        Err(DomainError::Internal(e)) => Err(PageError::Internal(e.to_string())),
        Err(other) => {
            let status = if matches!(other, DomainError::Conflict(_)) {
                StatusCode::CONFLICT
            } else {
                StatusCode::UNPROCESSABLE_ENTITY
            };
            page(&domain, &ctx, id, status, Some(other.to_string())).await
        }
    }
}
