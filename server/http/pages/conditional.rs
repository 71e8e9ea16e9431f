//! The game page's conditional moves (#17 §3): the waiting player's lines, a form to
//! enter one as text moves (no JavaScript needed; `static/board.js` fills it by clicks on
//! the board), and a delete button per line. The lines go through the same domain
//! functions as `/api/games/{id}/conditional-moves`.

use axum::extract::State;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Redirect};
use serde::Deserialize;

use super::game::{load, page_with_lines, GamePage};
use super::{refusal_text, render_with, Ctx, PageError, PageForm, PagePath, PageResult};
use crate::domain::games::{self, GameStatus, GameView};
use crate::domain::{Domain, DomainError};

/// The conditional-moves card of a waiting player.
pub struct ConditionalCard {
    /// The lines: id, and the moves in words (`if h9g7 → h0g2; if i9h9 → i0h0`).
    pub lines: Vec<(i64, String)>,
    /// The text typed into the form (kept after a refusal).
    pub text: String,
    /// Why the last line was refused.
    pub error: Option<String>,
}

/// The card for the viewer of `view`: `None` unless they play this two-player game, it
/// goes on and the opponent is to move.
pub(super) async fn card(
    domain: &Domain,
    ctx: &Ctx,
    view: &GameView,
) -> Result<Option<ConditionalCard>, PageError> {
    let Some(me) = &ctx.user else { return Ok(None) };
    let mine = view.seats.iter().find(|s| s.username == me.username).map(|s| s.seat);
    let waiting = view.status == GameStatus::Active
        && view.seat_count == 2
        && !view.time_control.is_live()
        && mine.is_some()
        && view.to_move_seat.is_some()
        && view.to_move_seat != mine;
    if !waiting {
        return Ok(None);
    }
    let lines =
        games::list_lines(domain, view.id, me.id).await.map_err(|e| PageError::Internal(e.to_string()))?;
    let lines = lines
        .into_iter()
        .map(|line| {
            let words: Vec<String> = line
                .display
                .chunks(2)
                .map(|pair| format!("{} {} → {}", ctx.t.get("game.conditional.if"), pair[0], pair[1]))
                .collect();
            (line.id, words.join("; "))
        })
        .collect();
    Ok(Some(ConditionalCard { lines, text: String::new(), error: None }))
}

/// What the line form sends.
#[derive(Deserialize)]
pub struct LineForm {
    #[serde(default)]
    csrf: String,
    /// The moves, separated by spaces (a Flickering series by commas).
    #[serde(default)]
    line: String,
    #[serde(default)]
    ply: String,
}

/// `POST /games/{id}/conditional`: enters a line; a refusal shows the page again with
/// the reason and the text typed.
pub async fn create(
    State(domain): State<Domain>,
    ctx: Ctx,
    PagePath(id): PagePath<i64>,
    PageForm(form): PageForm<LineForm>,
) -> PageResult {
    ctx.check_csrf(&form.csrf)?;
    let me = ctx.require_user()?.clone();
    let moves: Vec<String> = form.line.split_whitespace().map(str::to_owned).collect();
    let ply = form.ply.trim().parse::<i32>().ok();
    match games::create_line(&domain, id, me.id, &moves, ply).await {
        Ok(_) => Ok(Redirect::to(&format!("/games/{id}#conditional")).into_response()),
        Err(error) => refused(&domain, &ctx, id, error, form.line).await,
    }
}

/// What a delete button sends: one line's id, or none for all.
#[derive(Deserialize)]
pub struct DeleteForm {
    #[serde(default)]
    csrf: String,
    #[serde(default)]
    line: Option<i64>,
}

/// `POST /games/{id}/conditional/delete`: deletes one line (or all).
pub async fn delete(
    State(domain): State<Domain>,
    ctx: Ctx,
    PagePath(id): PagePath<i64>,
    PageForm(form): PageForm<DeleteForm>,
) -> PageResult {
    ctx.check_csrf(&form.csrf)?;
    let me = ctx.require_user()?.clone();
    match games::delete_lines(&domain, id, me.id, form.line).await {
        Ok(()) => Ok(Redirect::to(&format!("/games/{id}#conditional")).into_response()),
        Err(error) => refused(&domain, &ctx, id, error, String::new()).await,
    }
}

/// The page again with the refusal in the card (or the move error's place).
async fn refused(domain: &Domain, ctx: &Ctx, id: i64, error: DomainError, text: String) -> PageResult {
    let status = match &error {
        DomainError::NotFound(_) => return Err(PageError::NotFound(ctx.t)),
        DomainError::Internal(e) => return Err(PageError::Internal(e.to_string())),
        DomainError::Forbidden(_) => StatusCode::FORBIDDEN,
        _ => StatusCode::UNPROCESSABLE_ENTITY,
    };
    let message = refusal_text(ctx.t, &error);
    let view = load(domain, ctx, id).await?;
    let mut page: GamePage = page_with_lines(domain, ctx, &view).await?;
    match page.conditional.as_mut() {
        Some(card) => {
            card.text = text;
            card.error = Some(message);
        }
        None => page.move_error = Some(message),
    }
    render_with(status, &page)
}
