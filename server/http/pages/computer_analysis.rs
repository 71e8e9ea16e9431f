//! The computer analysis on a finished game's page (issue 41 §5): the request form (no
//! JavaScript needed), the analysis' state, and once done the evaluation chart (its
//! points step the board to their ply, `?ply=N`) and the moves the engine marks
//! (`?!`, `?`, `??`) with its better move. A section of its own below the game panel,
//! rendered by its own template (`templates/game_computer_analysis.html`). (The analysis
//! *board*, where a reader explores variations, is [`super::analysis`].)

use axum::extract::State;
use axum::response::{IntoResponse, Redirect};
use serde::Deserialize;
use tavoliere_rules::variant::{Notation, Variant};

use super::{refusal_text, render_with, Ctx, FormToken, PageError, PageForm, PagePath, PageResult};
use crate::analysis::judgement::winning_chances;
use crate::analysis::uci::Score;
use crate::analysis::{self, AnalysisStatus, AnalysisView, PlyScore};
use crate::domain::games::{GameStatus, GameView};
use crate::domain::rules_adapter;
use crate::domain::DomainError;
use crate::http::AppState;
use crate::web::eval_chart::{eval_chart, EvalPoint};
use crate::web::i18n::Texts;

/// A move the engine marks.
pub struct MarkLine {
    /// `12.` or `12…`.
    number: String,
    /// The move played, in the reader's notation, and its mark.
    played: String,
    mark: &'static str,
    /// The engine's better move, in the reader's notation.
    best: String,
    /// The ply (the link to the board there).
    ply: i32,
}

/// The analysis section of a game page.
#[derive(askama::Template)]
#[template(path = "game_computer_analysis.html")]
pub struct AnalysisSection {
    t: Texts,
    csrf: FormToken,
    id: i64,
    /// The request form (a signed-in reader, a finished game, nothing requested yet).
    offer: bool,
    /// Queued, running or failed: the words.
    state: Option<String>,
    /// Done: the chart (SVG), the engine and depth, the marked moves.
    chart: Option<String>,
    engine: String,
    marks: Vec<MarkLine>,
    /// A refusal of the request, in the reader's language.
    error: Option<String>,
}

/// The section for the game `view`, `None` when there is nothing to show (an active game,
/// a variant the engine cannot play, no engine and no stored analysis).
///
/// # Errors
/// The stored analysis cannot be read.
pub async fn section(state: &AppState, ctx: &Ctx, view: &GameView) -> Result<Option<String>, PageError> {
    if view.status == GameStatus::Active || analysis::engine_variant(view).is_err() {
        return Ok(None);
    }
    let stored =
        analysis::find(&state.domain, view.id).await.map_err(|e| PageError::Internal(e.to_string()))?;
    let t = ctx.t;
    let mut section = AnalysisSection {
        t,
        csrf: ctx.csrf.clone(),
        id: view.id,
        offer: false,
        state: None,
        chart: None,
        engine: String::new(),
        marks: Vec::new(),
        error: None,
    };
    match stored {
        // Nothing to show: no engine, or a visitor (only accounts may ask).
        None if state.analysis.is_none() || ctx.user.is_none() => return Ok(None),
        None => section.offer = true,
        Some(found) => match found.status {
            AnalysisStatus::Done => done(&mut section, ctx, view, &found)?,
            status => {
                section.state =
                    Some(t.get(&format!("computer_analysis.status.{}", status_name(status))).to_owned())
            }
        },
    }
    Ok(Some(askama::Template::render(&section)?))
}

fn status_name(status: AnalysisStatus) -> &'static str {
    match status {
        AnalysisStatus::Queued => "queued",
        AnalysisStatus::Running => "running",
        AnalysisStatus::Done => "done",
        AnalysisStatus::Failed => "failed",
    }
}

/// The chart and the marked moves of a finished analysis.
fn done(
    section: &mut AnalysisSection,
    ctx: &Ctx,
    view: &GameView,
    found: &AnalysisView,
) -> Result<(), PageError> {
    let internal = |e: String| PageError::Internal(format!("analysis of game {}: {e}", view.id));
    let variant: Variant =
        rules_adapter::parse_variant(&view.variant).map_err(|e| internal(e.to_string()))?;
    let notation = match ctx.prefs.notation_for(variant) {
        Notation::Auto => variant.display_notation(),
        chosen => chosen,
    };
    // The game replayed, to write the played and the better moves in the reader's notation.
    let mut game = rules_adapter::new_game(
        variant,
        &view.ruleset,
        view.handicap.as_deref(),
        view.start_position.as_deref(),
        view.seat_count as usize,
    )
    .map_err(|e| internal(e.to_string()))?;
    let mut labels = Vec::with_capacity(found.plies.len());
    for ply in &found.plies {
        let best = match (&ply.judgement, &ply.best) {
            (Some(_), Some(best)) => {
                let mut tried = game.clone();
                tried
                    .play(best)
                    .ok()
                    .and_then(|_| tried.display_moves(notation).pop())
                    .unwrap_or(best.clone())
            }
            _ => String::new(),
        };
        game.play(&ply.played).map_err(|e| internal(e.to_string()))?;
        let played = game.display_moves(notation).pop().unwrap_or_default();
        let number =
            if ply.ply % 2 == 1 { format!("{}.", ply.ply / 2 + 1) } else { format!("{}…", ply.ply / 2) };
        let score = match ply.score {
            PlyScore::Cp(cp) => format!("{:+.2}", f64::from(cp) / 100.0),
            PlyScore::Mate(n) => format!("#{n}"),
        };
        labels.push(format!("{number} {played} {score}"));
        if let Some(judgement) = ply.judgement {
            section.marks.push(MarkLine { number, played, mark: judgement.mark(), best, ply: ply.ply });
        }
    }
    let points: Vec<EvalPoint<'_>> = found
        .plies
        .iter()
        .zip(&labels)
        .map(|(ply, label)| EvalPoint {
            ply: ply.ply,
            chances: match ply.score {
                PlyScore::Cp(cp) => winning_chances(Score::Cp(cp)),
                PlyScore::Mate(n) => winning_chances(Score::Mate(n)),
            },
            label,
            mark: ply.judgement.map_or("", |j| j.mark()),
        })
        .collect();
    section.chart = eval_chart(view.id, &points);
    section.engine = ctx.t.format(
        "computer_analysis.engine",
        &[
            ("engine", found.engine.as_deref().unwrap_or("")),
            ("depth", &found.depth.unwrap_or(0).to_string()),
        ],
    );
    Ok(())
}

/// The request form.
#[derive(Deserialize)]
pub struct RequestForm {
    #[serde(default)]
    csrf: String,
}

/// `POST /games/{id}/computer-analysis`: asks for the game's analysis, then back to the game.
pub async fn request(
    State(state): State<AppState>,
    ctx: Ctx,
    PagePath(id): PagePath<i64>,
    PageForm(form): PageForm<RequestForm>,
) -> PageResult {
    ctx.check_csrf(&form.csrf)?;
    let me = ctx.require_user()?.clone();
    match analysis::request(&state.domain, state.analysis.as_ref(), id, me.id).await {
        Ok(_) => Ok(Redirect::to(&format!("/games/{id}#computer-analysis")).into_response()),
        Err(DomainError::NotFound(_)) => Err(PageError::NotFound(ctx.t)),
        Err(DomainError::Internal(e)) => Err(PageError::Internal(e.to_string())),
        Err(error) => {
            let section = AnalysisSection {
                t: ctx.t,
                csrf: ctx.csrf.clone(),
                id,
                offer: false,
                state: None,
                chart: None,
                engine: String::new(),
                marks: Vec::new(),
                error: Some(refusal_text(ctx.t, &error)),
            };
            let status = crate::http::error::ApiError::describe(&error).status();
            let page = RefusalPage {
                chrome: ctx.chrome("computer_analysis.title"),
                section: askama::Template::render(&section)?,
                id,
            };
            render_with(status, &page)
        }
    }
}

/// A refused request: the reason and the way back to the game.
#[derive(askama::Template)]
#[template(
    source = r#"{% extends "layout.html" %}{% block content %}{{ section|safe }}<p><a href="/games/{{ id }}">{{ chrome.t.get("computer_analysis.back") }}</a></p>{% endblock %}"#,
    ext = "html"
)]
struct RefusalPage {
    chrome: super::Chrome,
    section: String,
    id: i64,
}
