//! `GET /games/{id}/board.svg?ply=N&flip=1&style=western`: the board of a game after `N`
//! moves (default: now), as SVG for embedding in forums and mails.

use axum::extract::State;
use axum::http::header::{CACHE_CONTROL, CONTENT_TYPE};
use axum::http::StatusCode;
use axum::response::IntoResponse;
use serde::Deserialize;

use super::{PageError, PagePath, PageQuery, PageResult};
use crate::domain::games;
use crate::domain::{Domain, DomainError};
use crate::web::board::{self, BoardOptions, PieceStyle};
use crate::web::i18n::{Lang, Texts};

/// Query of the board image.
#[derive(Debug, Deserialize)]
pub struct BoardQuery {
    /// Moves to show (0 = the start); the current position when absent or too large.
    ply: Option<u32>,
    /// `1` or `true`: from the second player's side.
    flip: Option<String>,
    /// `traditional` (default) or `western`.
    style: Option<String>,
}

/// The SVG of game `id` after `ply` moves. Deliberately sessionless: images embedded in
/// forums and mails must not open a session per fetch.
pub async fn svg(
    State(domain): State<Domain>,
    PagePath(id): PagePath<i64>,
    PageQuery(query): PageQuery<BoardQuery>,
) -> PageResult {
    let (view, fen, shown) = match games::position_at(&domain, id, query.ply.map(|p| p as usize)).await {
        Ok(read) => read,
        Err(DomainError::NotFound(_)) => return Err(PageError::NotFound(Texts::new(Lang::En))),
        Err(other) => return Err(PageError::Internal(other.to_string())),
    };
    let internal = |e: String| PageError::Internal(format!("board of game {id}: {e}"));
    let last_turn = view.last_turn(shown);
    let style = PieceStyle::from_setting(query.style.as_deref().unwrap_or(""));
    let options = BoardOptions {
        last_move: last_turn.as_deref(),
        flipped: matches!(query.flip.as_deref(), Some("1" | "true")),
        style,
    };
    let variant: tavoliere_rules::variant::Variant =
        view.variant.parse().map_err(|_| internal(format!("variant {}", view.variant)))?;
    let svg = board::render(variant, &fen, options).map_err(|e| internal(e.to_string()))?;
    Ok((
        StatusCode::OK,
        [(CONTENT_TYPE, "image/svg+xml; charset=utf-8"), (CACHE_CONTROL, "public, max-age=60")],
        svg,
    )
        .into_response())
}
