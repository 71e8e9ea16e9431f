//! `GET /archive/export/{format}?player=...` (or `?tournament=...`, with any other filter
//! of the archive): every game of a player's or a tournament's search as one file, PGN or
//! KIF or CSA, the games of the variants that have that record one after another. The
//! file is streamed a page of the archive at a time (issue 18 §3: "streamed, not built
//! in memory"): at most one page of records is held at once.

use axum::body::{Body, Bytes};
use axum::extract::State;
use axum::http::header::{CONTENT_DISPOSITION, CONTENT_TYPE};
use axum::http::StatusCode;
use axum::response::IntoResponse;
use futures_util::stream;

use super::archive::record_of;
use super::{Ctx, PageError, PagePath, PageQuery, PageResult};
use crate::domain::archive::{self, ArchiveQuery};
use crate::domain::{Domain, DomainError};
use crate::storage::archive::{After, ArchiveFilter};
use crate::web::records::RecordFormat;

/// Games read (and records written) per step of the stream.
const BATCH: usize = 100;

/// Where the stream is: the next page starts after `after`; `done` after the last.
struct Cursor {
    domain: Domain,
    filter: ArchiveFilter,
    format: RecordFormat,
    after: Option<After>,
    done: bool,
}

/// The next chunk of the file: the records of the next page of games (`None` at the end).
async fn next_chunk(mut cursor: Cursor) -> Option<(Result<Bytes, DomainError>, Cursor)> {
    if cursor.done {
        return None;
    }
    let page = match archive::page(&cursor.domain, &cursor.filter, cursor.after, BATCH).await {
        Ok(page) => page,
        Err(error) => {
            cursor.done = true;
            return Some((Err(error), cursor));
        }
    };
    cursor.done = page.next.is_none();
    cursor.after = page.games.last().and_then(archive::after);
    let mut chunk = String::new();
    for game in &page.games {
        match record_of(&cursor.domain, game.id, cursor.format).await {
            Ok(Some(text)) => {
                chunk.push_str(text.trim_end());
                chunk.push_str("\n\n");
            }
            // A game of another family has no record in this format: left out.
            Ok(None) => {}
            Err(error) => {
                cursor.done = true;
                return Some((Err(error), cursor));
            }
        }
    }
    Some((Ok(Bytes::from(chunk)), cursor))
}

/// `GET /archive/export/{format}`: the search's games as one streamed file.
pub async fn export(
    State(domain): State<Domain>,
    ctx: Ctx,
    PagePath(format): PagePath<String>,
    PageQuery(query): PageQuery<ArchiveQuery>,
) -> PageResult {
    let Some(format) = RecordFormat::from_name(&format).filter(|f| *f != RecordFormat::Record) else {
        return Err(PageError::NotFound(ctx.t));
    };
    let named = |field: &Option<String>| field.as_deref().is_some_and(|v| !v.trim().is_empty());
    if !named(&query.player) && !named(&query.tournament) {
        // A bulk export is of a player's or a tournament's games, not of the whole archive.
        return Err(PageError::NotFound(ctx.t));
    }
    let filter = match archive::filter_of(&domain, &query).await {
        Ok(filter) => filter,
        Err(DomainError::Internal(error)) => return Err(PageError::Internal(error.to_string())),
        Err(_) => return Err(PageError::NotFound(ctx.t)),
    };
    let start = Cursor { domain, filter, format, after: None, done: false };
    let body = Body::from_stream(stream::unfold(start, next_chunk));
    let name = query.player.as_deref().or(query.tournament.as_deref()).unwrap_or("games");
    let safe: String = name.chars().filter(|c| c.is_ascii_alphanumeric() || *c == '_' || *c == '-').collect();
    let disposition = format!("attachment; filename=\"tavoliere-{safe}.{}\"", format.extension());
    Ok((
        StatusCode::OK,
        [(CONTENT_TYPE, "text/plain; charset=utf-8".to_owned()), (CONTENT_DISPOSITION, disposition)],
        body,
    )
        .into_response())
}
