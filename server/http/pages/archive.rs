//! The game archive (finished games, searched by player, variant and result) and the
//! record downloads `GET /games/{id}/record/{format}`.

use axum::extract::{Query, State};
use axum::http::header::{CONTENT_DISPOSITION, CONTENT_TYPE};
use axum::http::StatusCode;
use axum::response::IntoResponse;
use serde::Deserialize;

use super::{render_with, Chrome, Ctx, PageError, PagePath, PageResult};
use crate::domain::games::{self, GameStatus};
use crate::domain::{Domain, DomainError};
use crate::web::records::{self, RecordFormat, RecordWriteError};

/// The archive's search fields, kept as typed.
#[derive(Debug, Default, Deserialize)]
pub struct ArchiveQuery {
    #[serde(default)]
    player: String,
    #[serde(default)]
    variant: String,
    #[serde(default)]
    result: String,
}

/// One archived game.
pub struct ArchiveLine {
    id: i64,
    variant: String,
    players: String,
    result: String,
    ply: i32,
}

/// The archive page.
#[derive(askama::Template)]
#[template(path = "archive.html")]
pub struct ArchivePage {
    chrome: Chrome,
    query: ArchiveQuery,
    games: Vec<ArchiveLine>,
    player_error: Option<String>,
}

/// `GET /archive?player=&variant=&result=`.
pub async fn show(
    State(domain): State<Domain>,
    ctx: Ctx,
    Query(mut query): Query<ArchiveQuery>,
) -> PageResult {
    if query.player.trim().is_empty() {
        if let Some(me) = &ctx.user {
            query.player = me.username.clone();
        }
    }
    let mut player_error = None;
    let mut found = Vec::new();
    let player = query.player.trim().to_owned();
    if !player.is_empty() {
        match games::list_for_player(&domain, &player, Some(GameStatus::Finished)).await {
            Ok(list) => found = list,
            Err(DomainError::NotFound(_) | DomainError::Invalid(_)) => {
                player_error = Some(ctx.t.get("archive.error.player").to_owned());
            }
            Err(other) => return Err(PageError::Internal(other.to_string())),
        }
    }
    // An unknown result asked for matches no game.
    let wanted = query.result.parse::<games::GameResult>().ok();
    let games = found
        .into_iter()
        .filter(|g| query.variant.is_empty() || g.variant == query.variant)
        .filter(|g| query.result.is_empty() || g.result.is_some() && g.result == wanted)
        .map(|g| ArchiveLine {
            id: g.id,
            variant: ctx.t.get(&format!("variant.{}", g.variant)).to_owned(),
            players: g.players.join(" – "),
            result: g.result.map(|r| r.to_string()).unwrap_or_default(),
            ply: g.ply,
        })
        .collect();
    let status = if player_error.is_some() { StatusCode::UNPROCESSABLE_ENTITY } else { StatusCode::OK };
    render_with(status, &ArchivePage { chrome: ctx.chrome("archive.title"), query, games, player_error })
}

/// `GET /games/{id}/record/{format}`: the record as a download.
pub async fn record(
    State(domain): State<Domain>,
    ctx: Ctx,
    PagePath((id, format)): PagePath<(i64, String)>,
) -> PageResult {
    let Some(format) = RecordFormat::from_name(&format) else { return Err(PageError::NotFound(ctx.t)) };
    if format == RecordFormat::Record {
        return match games::record_text(&domain, id).await {
            Ok(Some(text)) => Ok(download(id, format, text)),
            Ok(None) | Err(DomainError::NotFound(_)) => Err(PageError::NotFound(ctx.t)),
            Err(other) => Err(PageError::Internal(other.to_string())),
        };
    }
    let view = match games::view(&domain, id).await {
        Ok(view) => view,
        Err(DomainError::NotFound(_)) => return Err(PageError::NotFound(ctx.t)),
        Err(other) => return Err(PageError::Internal(other.to_string())),
    };
    let text = match records::write_view(&view, format) {
        Ok(text) => text,
        Err(RecordWriteError::Unsupported(_)) => return Err(PageError::NotFound(ctx.t)),
        Err(e) => return Err(PageError::Internal(format!("game {id}: {e}"))),
    };
    Ok(download(id, format, text))
}

fn download(id: i64, format: RecordFormat, text: String) -> axum::response::Response {
    let disposition = format!("attachment; filename=\"tavoliere-{id}.{}\"", format.extension());
    (
        StatusCode::OK,
        [(CONTENT_TYPE, "text/plain; charset=utf-8".to_owned()), (CONTENT_DISPOSITION, disposition)],
        text,
    )
        .into_response()
}
