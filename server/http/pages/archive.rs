//! The game archive (issue 18 §3: finished games searched by player, opponent, variant,
//! result, end reason, dates, tournament and rating, a page at a time), the record
//! downloads `GET /games/{id}/record/{format}` and the streamed bulk export of a search
//! (`archive_export.rs`).

use axum::extract::State;
use axum::http::header::{CONTENT_DISPOSITION, CONTENT_TYPE};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use tavoliere_rules::variant::Variant;

use super::game::record_label_key;
use super::{render_with, Chrome, Ctx, PageError, PagePath, PageQuery, PageResult};
use crate::domain::archive::{self, ArchiveQuery};
use crate::domain::games::{self, GameReason};
use crate::domain::{Domain, DomainError};
use crate::http::error::ApiError;
use crate::web::records::{self, RecordFormat, RecordWriteError};

/// One archived game.
pub struct ArchiveLine {
    id: i64,
    variant: String,
    players: String,
    result: String,
    ply: i32,
    finished: String,
    rated: bool,
    /// The record downloads: format name and label.
    records: Vec<(&'static str, String)>,
}

/// The archive page.
#[derive(askama::Template)]
#[template(path = "archive.html")]
pub struct ArchivePage {
    chrome: Chrome,
    query: ArchiveQuery,
    games: Vec<ArchiveLine>,
    /// The refusal of the search, by the field it is about.
    player_error: Option<String>,
    error: Option<String>,
    /// The link to the next page.
    next: Option<String>,
    /// The bulk exports of this search (a player's or a tournament's games): link, label.
    exports: Vec<(String, String)>,
    /// Every end reason: stored name, words.
    reasons: Vec<(&'static str, String)>,
}

impl ArchivePage {
    fn field<'a>(&self, value: &'a Option<String>) -> &'a str {
        value.as_deref().unwrap_or("")
    }
}

/// The query string of a search without its cursor (each value escaped).
fn query_string(query: &ArchiveQuery) -> String {
    let fields = [
        ("player", &query.player),
        ("opponent", &query.opponent),
        ("variant", &query.variant),
        ("result", &query.result),
        ("reason", &query.reason),
        ("from", &query.from),
        ("to", &query.to),
        ("tournament", &query.tournament),
        ("rated", &query.rated),
    ];
    fields
        .iter()
        .filter_map(|(name, value)| Some(format!("{name}={}", escape(value.as_deref()?))))
        .collect::<Vec<_>>()
        .join("&")
}

/// Percent-encodes a query value (everything but unreserved characters).
fn escape(value: &str) -> String {
    value
        .bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' => (b as char).to_string(),
            other => format!("%{other:02X}"),
        })
        .collect()
}

/// The formats a bulk export is offered in: one per notation family (the games of the
/// variants that have it go in).
const EXPORTS: [RecordFormat; 4] =
    [RecordFormat::PgnIccs, RecordFormat::PgnWxf, RecordFormat::Kif, RecordFormat::Csa];

/// `GET /archive?player=&opponent=&variant=&result=&reason=&from=&to=&tournament=&rated=&cursor=`:
/// the finished games, newest first, a page at a time. A signed-in player's first visit
/// shows their own games; the form's empty player searches everybody's.
pub async fn show(
    State(domain): State<Domain>,
    ctx: Ctx,
    PageQuery(mut query): PageQuery<ArchiveQuery>,
) -> PageResult {
    let t = ctx.t;
    if query.player.is_none() {
        query.player = ctx.user.as_ref().map(|me| me.username.clone());
    }
    let (mut player_error, mut error) = (None, None);
    let mut games = Vec::new();
    let mut next = None;
    match archive::search(&domain, &query).await {
        Ok(page) => {
            let date = time::macros::format_description!("[year]-[month]-[day]");
            games = page
                .games
                .iter()
                .map(|g| ArchiveLine {
                    id: g.id,
                    variant: t.get(&format!("variant.{}", g.variant)).to_owned(),
                    players: g.players.join(" – "),
                    result: match (&g.result, g.reason) {
                        (Some(result), Some(reason)) => {
                            format!("{result} · {}", t.get(&format!("reason.{reason}")))
                        }
                        (Some(result), None) => result.to_string(),
                        _ => String::new(),
                    },
                    ply: g.ply,
                    finished: g.finished_at.and_then(|at| at.format(&date).ok()).unwrap_or_default(),
                    rated: g.rated,
                    records: g
                        .variant
                        .parse::<Variant>()
                        .map(|v| {
                            RecordFormat::for_variant(v)
                                .iter()
                                .map(|f| (f.name(), t.get(&record_label_key(v, *f)).to_owned()))
                                .collect()
                        })
                        .unwrap_or_default(),
                })
                .collect();
            next = page.next.map(|cursor| {
                let query = query_string(&query);
                format!("/archive?{query}{}cursor={cursor}", if query.is_empty() { "" } else { "&" })
            });
        }
        Err(DomainError::NotFound(_)) => player_error = Some(t.get("archive.error.player").to_owned()),
        Err(e) if e.kind() == crate::domain::ErrorKind::Invalid => error = Some(super::refusal_text(t, &e)),
        Err(other) => return Err(PageError::Internal(other.to_string())),
    }
    let bounded =
        [&query.player, &query.tournament].iter().any(|f| f.as_deref().is_some_and(|v| !v.trim().is_empty()));
    let exports = if bounded && !games.is_empty() {
        let search = query_string(&query);
        EXPORTS
            .iter()
            .map(|f| {
                (
                    format!("/archive/export/{}?{search}", f.name()),
                    t.get(&format!("record.{}", f.name())).to_owned(),
                )
            })
            .collect()
    } else {
        Vec::new()
    };
    let status = if player_error.is_some() || error.is_some() {
        StatusCode::UNPROCESSABLE_ENTITY
    } else {
        StatusCode::OK
    };
    let reasons = GameReason::all().map(|r| (r.as_str(), t.get(&format!("reason.{r}")).to_owned())).collect();
    let page = ArchivePage {
        chrome: ctx.chrome("archive.title"),
        query,
        games,
        player_error,
        error,
        next,
        exports,
        reasons,
    };
    render_with(status, &page)
}

/// `GET /games/{id}/record/{format}`: the record as a download. A format that does not
/// exist, or that the game's variant cannot be written in, and an unknown game answer 404
/// in the one error shape (a link to a download is followed by tools as often as by
/// browsers).
pub async fn record(
    State(domain): State<Domain>,
    PagePath((id, name)): PagePath<(i64, String)>,
) -> Result<Response, ApiError> {
    let unknown = || ApiError::new(StatusCode::NOT_FOUND, format!("there is no record format {name:?}"));
    let format = RecordFormat::from_name(&name).ok_or_else(unknown)?;
    let view = match games::view(&domain, id).await {
        Ok(view) => view,
        Err(DomainError::NotFound(_)) => {
            return Err(ApiError::new(StatusCode::NOT_FOUND, format!("there is no game {id}")))
        }
        Err(other) => return Err(other.into()),
    };
    let variant: Variant = view.variant.parse().map_err(|_| unknown())?;
    if !RecordFormat::for_variant(variant).contains(&format) {
        return Err(ApiError::new(
            StatusCode::NOT_FOUND,
            format!("{name} records are not offered for {} games", variant.name()),
        ));
    }
    let text = if format == RecordFormat::Record {
        games::record_text(&domain, id).await?
    } else {
        let written = records::write_view(&view, format);
        Some(written.map_err(|e| DomainError::Internal(anyhow::anyhow!("game {id}: {e}")))?)
    };
    Ok(download(format.file_name(variant, id), text.ok_or_else(unknown)?))
}

/// Game `id`'s record in `format`; `None` when its variant has no such record.
///
/// # Errors
/// Unknown game (404); a record that cannot be written (500).
pub(crate) async fn record_of(
    domain: &Domain,
    id: i64,
    format: RecordFormat,
) -> Result<Option<String>, DomainError> {
    if format == RecordFormat::Record {
        return games::record_text(domain, id).await;
    }
    let view = games::view(domain, id).await?;
    match records::write_view(&view, format) {
        Ok(text) => Ok(Some(text)),
        Err(RecordWriteError::Unsupported(_)) => Ok(None),
        Err(e) => Err(DomainError::Internal(anyhow::anyhow!("game {id}: {e}"))),
    }
}

fn download(file_name: String, text: String) -> Response {
    let disposition = format!("attachment; filename=\"{file_name}\"");
    (
        StatusCode::OK,
        [(CONTENT_TYPE, "text/plain; charset=utf-8".to_owned()), (CONTENT_DISPOSITION, disposition)],
        text,
    )
        .into_response()
}
