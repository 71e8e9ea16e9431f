//! `/api/tournaments`, `/api/sections`, the directors' game decisions and the tables
//! (JSON, CSV, printable HTML in Italian or English, TRF for Swiss sections).

use axum::extract::State;
use axum::http::header::{ACCEPT, CONTENT_TYPE};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use serde::Deserialize;
use tavoliere_tournament::tables::csv::{crosstable_csv, grand_prix_csv};
use tavoliere_tournament::tables::html::{crosstable_html, escape, grand_prix_html};
use tavoliere_tournament::tables::Language;
use tavoliere_tournament::GameResult;

use super::auth::AuthUser;
use super::error::{ApiError, ApiResult};
use super::extract::{Json, Path, Query};
use crate::domain::tournaments::{
    self, CorrectionView, Decision, GameDecision, MySection, NewSection, NewTournament, RoundStarted,
    SectionPatch, SectionView, StandingsView, TournamentPatch, TournamentSummary, TournamentView,
};
use crate::domain::Domain;

pub mod openapi;

/// Creates a tournament (directors and admins) → 201.
#[tracing::instrument(skip_all)]
pub async fn create(
    State(domain): State<Domain>,
    AuthUser(me): AuthUser,
    Json(body): Json<NewTournament>,
) -> ApiResult<(StatusCode, Json<TournamentView>)> {
    Ok((StatusCode::CREATED, Json(tournaments::create(&domain, &me, body).await?)))
}

/// Every tournament.
pub async fn list(State(domain): State<Domain>) -> ApiResult<Json<Vec<TournamentSummary>>> {
    Ok(Json(tournaments::list(&domain).await?))
}

/// One tournament with its sections.
pub async fn show(State(domain): State<Domain>, Path(id): Path<i64>) -> ApiResult<Json<TournamentView>> {
    Ok(Json(tournaments::get(&domain, id).await?))
}

/// Edits a tournament (its directors).
#[tracing::instrument(skip_all, fields(tournament.id = id))]
pub async fn update(
    State(domain): State<Domain>,
    AuthUser(me): AuthUser,
    Path(id): Path<i64>,
    Json(body): Json<TournamentPatch>,
) -> ApiResult<Json<TournamentView>> {
    Ok(Json(tournaments::update(&domain, &me, id, body).await?))
}

/// A username in a body.
#[derive(Deserialize)]
pub struct UsernameBody {
    username: String,
}

/// Adds a director (its directors).
pub async fn add_director(
    State(domain): State<Domain>,
    AuthUser(me): AuthUser,
    Path(id): Path<i64>,
    Json(body): Json<UsernameBody>,
) -> ApiResult<Json<TournamentView>> {
    Ok(Json(tournaments::add_director(&domain, &me, id, &body.username).await?))
}

/// Adds a section (its directors) → 201.
#[tracing::instrument(skip_all, fields(tournament.id = id))]
pub async fn create_section(
    State(domain): State<Domain>,
    AuthUser(me): AuthUser,
    Path(id): Path<i64>,
    Json(body): Json<NewSection>,
) -> ApiResult<(StatusCode, Json<SectionView>)> {
    Ok((StatusCode::CREATED, Json(tournaments::create_section(&domain, &me, id, body).await?)))
}

/// The sections of a tournament.
pub async fn list_sections(
    State(domain): State<Domain>,
    Path(id): Path<i64>,
) -> ApiResult<Json<Vec<SectionView>>> {
    Ok(Json(tournaments::get(&domain, id).await?.sections))
}

/// One section.
pub async fn show_section(State(domain): State<Domain>, Path(id): Path<i64>) -> ApiResult<Json<SectionView>> {
    Ok(Json(tournaments::section(&domain, id).await?))
}

/// Edits a section (its directors).
#[tracing::instrument(skip_all, fields(section.id = id))]
pub async fn update_section(
    State(domain): State<Domain>,
    AuthUser(me): AuthUser,
    Path(id): Path<i64>,
    Json(body): Json<SectionPatch>,
) -> ApiResult<Json<SectionView>> {
    Ok(Json(tournaments::update_section(&domain, &me, id, body).await?))
}

/// A registration: oneself (no body fields) or, by a director, anyone with a seed.
#[derive(Deserialize, Default)]
pub struct EntryRequest {
    username: Option<String>,
    seed: Option<i32>,
}

/// Registers a player → 201.
pub async fn register(
    State(domain): State<Domain>,
    AuthUser(me): AuthUser,
    Path(id): Path<i64>,
    Json(body): Json<EntryRequest>,
) -> ApiResult<(StatusCode, Json<SectionView>)> {
    let view = tournaments::register(&domain, &me, id, body.username.as_deref(), body.seed).await?;
    Ok((StatusCode::CREATED, Json(view)))
}

/// A seed change.
#[derive(Deserialize)]
pub struct SeedRequest {
    seed: Option<i32>,
}

/// Sets a player's seed (directors, before the start).
pub async fn seed(
    State(domain): State<Domain>,
    AuthUser(me): AuthUser,
    Path((id, username)): Path<(i64, String)>,
    Json(body): Json<SeedRequest>,
) -> ApiResult<Json<SectionView>> {
    Ok(Json(tournaments::set_seed(&domain, &me, id, &username, body.seed).await?))
}

/// An optional reason.
#[derive(Deserialize, Default)]
pub struct ReasonBody {
    reason: Option<String>,
}

/// Withdraws a player (the player or a director); the section's rule decides their games.
pub async fn withdraw(
    State(domain): State<Domain>,
    AuthUser(me): AuthUser,
    Path((id, username)): Path<(i64, String)>,
    Json(body): Json<ReasonBody>,
) -> ApiResult<Json<SectionView>> {
    Ok(Json(tournaments::withdraw(&domain, &me, id, &username, body.reason.as_deref()).await?))
}

/// Starts a section: pairings drawn, games created with clocks running → 201.
#[tracing::instrument(skip_all, fields(section.id = id))]
pub async fn start(
    State(domain): State<Domain>,
    AuthUser(me): AuthUser,
    Path(id): Path<i64>,
) -> ApiResult<(StatusCode, Json<RoundStarted>)> {
    Ok((StatusCode::CREATED, Json(tournaments::start(&domain, &me, id).await?)))
}

/// Starts the next round (Swiss, or round-by-round round-robin) → 201.
#[tracing::instrument(skip_all, fields(section.id = id))]
pub async fn next_round(
    State(domain): State<Domain>,
    AuthUser(me): AuthUser,
    Path(id): Path<i64>,
) -> ApiResult<(StatusCode, Json<RoundStarted>)> {
    Ok((StatusCode::CREATED, Json(tournaments::next_round(&domain, &me, id).await?)))
}

/// A director's decision: the result and why.
#[derive(Deserialize)]
pub struct DecisionBody {
    /// `1-0`, `0-1`, `1/2-1/2` (adjudication), or a result name (`first-wins`,
    /// `forfeit-second-wins`, `double-forfeit`, `annulled`...).
    result: String,
    /// Why (required, kept in the audit trail).
    reason: String,
}

fn parse_result(text: &str) -> Result<GameResult, ApiError> {
    let named = match text {
        "1-0" => Some(GameResult::FirstWins),
        "0-1" => Some(GameResult::SecondWins),
        "1/2-1/2" | "½-½" => Some(GameResult::Draw),
        "+-" | "1-0 forfeit" => Some(GameResult::ForfeitFirstWins),
        "-+" | "0-1 forfeit" => Some(GameResult::ForfeitSecondWins),
        "--" => Some(GameResult::DoubleForfeit),
        _ => None,
    };
    named.or_else(|| serde_json::from_value(serde_json::Value::String(text.to_owned())).ok()).ok_or_else(
        || {
            ApiError::new(
                StatusCode::UNPROCESSABLE_ENTITY,
                format!(
                    "unknown result {text:?} (1-0, 0-1, 1/2-1/2, first-wins, second-wins, draw, \
                     forfeit-first-wins, forfeit-second-wins, double-forfeit, annulled)"
                ),
            )
        },
    )
}

async fn decide(
    domain: Domain,
    me: crate::domain::accounts::Account,
    id: i64,
    decision: Decision,
    body: DecisionBody,
) -> ApiResult<Json<GameDecision>> {
    let result = parse_result(&body.result)?;
    Ok(Json(tournaments::decide(&domain, &me, id, decision, result, &body.reason).await?))
}

/// Adjudicates an unfinished tournament game (its directors).
#[tracing::instrument(skip_all, fields(game.id = id))]
pub async fn adjudicate(
    State(domain): State<Domain>,
    AuthUser(me): AuthUser,
    Path(id): Path<i64>,
    Json(body): Json<DecisionBody>,
) -> ApiResult<Json<GameDecision>> {
    decide(domain, me, id, Decision::Adjudication, body).await
}

/// Records a forfeit (its directors).
#[tracing::instrument(skip_all, fields(game.id = id))]
pub async fn forfeit(
    State(domain): State<Domain>,
    AuthUser(me): AuthUser,
    Path(id): Path<i64>,
    Json(body): Json<DecisionBody>,
) -> ApiResult<Json<GameDecision>> {
    decide(domain, me, id, Decision::Forfeit, body).await
}

/// Corrects a result (its directors); kept in the audit trail.
#[tracing::instrument(skip_all, fields(game.id = id))]
pub async fn correct(
    State(domain): State<Domain>,
    AuthUser(me): AuthUser,
    Path(id): Path<i64>,
    Json(body): Json<DecisionBody>,
) -> ApiResult<Json<GameDecision>> {
    decide(domain, me, id, Decision::Correction, body).await
}

/// The audit trail of a game's result.
pub async fn corrections(
    State(domain): State<Domain>,
    Path(id): Path<i64>,
) -> ApiResult<Json<Vec<CorrectionView>>> {
    Ok(Json(tournaments::corrections(&domain, id).await?))
}

/// A section's standings.
pub async fn standings(State(domain): State<Domain>, Path(id): Path<i64>) -> ApiResult<Json<StandingsView>> {
    Ok(Json(tournaments::standings(&domain, id).await?))
}

/// The caller's sections and tournament games (dashboard).
pub async fn mine(State(domain): State<Domain>, AuthUser(me): AuthUser) -> ApiResult<Json<Vec<MySection>>> {
    Ok(Json(tournaments::for_player(&domain, me.id).await?))
}

/// The format of a table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Format {
    Json,
    Csv,
    Html,
}

/// `?format=json|csv|html&lang=it|en`.
#[derive(Deserialize, Default)]
pub struct TableQuery {
    format: Option<String>,
    lang: Option<String>,
}

fn negotiate(
    query: &TableQuery,
    headers: &HeaderMap,
    fixed: Option<Format>,
) -> ApiResult<(Format, Language)> {
    let language = match query.lang.as_deref() {
        None | Some("it") => Language::It,
        Some("en") => Language::En,
        Some(other) => {
            return Err(ApiError::new(
                StatusCode::UNPROCESSABLE_ENTITY,
                format!("unknown lang {other:?} (it, en)"),
            ))
        }
    };
    let format = match (fixed, query.format.as_deref()) {
        (Some(format), _) => format,
        (None, Some("json")) => Format::Json,
        (None, Some("csv")) => Format::Csv,
        (None, Some("html")) => Format::Html,
        (None, Some(other)) => {
            return Err(ApiError::new(
                StatusCode::UNPROCESSABLE_ENTITY,
                format!("unknown format {other:?} (json, csv, html)"),
            ))
        }
        (None, None) => {
            let accept = headers.get(ACCEPT).and_then(|v| v.to_str().ok()).unwrap_or("");
            if accept.contains("text/html") {
                Format::Html
            } else if accept.contains("text/csv") {
                Format::Csv
            } else {
                Format::Json
            }
        }
    };
    Ok((format, language))
}

/// A printable HTML page around a table fragment. The stylesheet is a file under
/// `static/`: the content security policy forbids inline styles.
fn html_page(title: &str, language: Language, fragment: &str) -> Response {
    let page = format!(
        "<!doctype html>\n<html lang=\"{lang}\">\n<head>\n<meta charset=\"utf-8\">\n<title>{title}</title>\n\
         <link rel=\"stylesheet\" href=\"/static/tables.css\">\n\
         </head>\n<body>\n{fragment}</body>\n</html>\n",
        lang = language.code(),
        title = escape(title),
    );
    ([(CONTENT_TYPE, "text/html; charset=utf-8")], page).into_response()
}

fn csv_response(text: String) -> Response {
    ([(CONTENT_TYPE, "text/csv; charset=utf-8")], text).into_response()
}

async fn crosstable_in(
    domain: Domain,
    id: i64,
    query: TableQuery,
    headers: HeaderMap,
    fixed: Option<Format>,
) -> ApiResult<Response> {
    let (format, language) = negotiate(&query, &headers, fixed)?;
    let table = tournaments::crosstable(&domain, id).await?;
    Ok(match format {
        Format::Json => Json(table).into_response(),
        Format::Csv => csv_response(crosstable_csv(&table, language)),
        Format::Html => html_page(&table.title, language, &crosstable_html(&table, language)),
    })
}

/// The crosstable: JSON, CSV or HTML by `?format=` or the Accept header.
pub async fn crosstable(
    State(domain): State<Domain>,
    Path(id): Path<i64>,
    Query(query): Query<TableQuery>,
    headers: HeaderMap,
) -> ApiResult<Response> {
    crosstable_in(domain, id, query, headers, None).await
}

/// The crosstable as JSON.
pub async fn crosstable_json(
    State(domain): State<Domain>,
    Path(id): Path<i64>,
    Query(query): Query<TableQuery>,
) -> ApiResult<Response> {
    crosstable_in(domain, id, query, HeaderMap::new(), Some(Format::Json)).await
}

/// The crosstable as CSV.
pub async fn crosstable_csv_file(
    State(domain): State<Domain>,
    Path(id): Path<i64>,
    Query(query): Query<TableQuery>,
) -> ApiResult<Response> {
    crosstable_in(domain, id, query, HeaderMap::new(), Some(Format::Csv)).await
}

/// The crosstable as a printable HTML page.
pub async fn crosstable_html_page(
    State(domain): State<Domain>,
    Path(id): Path<i64>,
    Query(query): Query<TableQuery>,
) -> ApiResult<Response> {
    crosstable_in(domain, id, query, HeaderMap::new(), Some(Format::Html)).await
}

async fn grand_prix_in(
    domain: Domain,
    id: i64,
    query: TableQuery,
    headers: HeaderMap,
    fixed: Option<Format>,
) -> ApiResult<Response> {
    let (format, language) = negotiate(&query, &headers, fixed)?;
    let table = tournaments::grand_prix(&domain, id).await?;
    Ok(match format {
        Format::Json => Json(table).into_response(),
        Format::Csv => csv_response(grand_prix_csv(&table, language)),
        Format::Html => html_page(&table.title, language, &grand_prix_html(&table, language)),
    })
}

/// The Grand Prix table: JSON, CSV or HTML by `?format=` or the Accept header.
pub async fn grand_prix(
    State(domain): State<Domain>,
    Path(id): Path<i64>,
    Query(query): Query<TableQuery>,
    headers: HeaderMap,
) -> ApiResult<Response> {
    grand_prix_in(domain, id, query, headers, None).await
}

/// The Grand Prix table as JSON.
pub async fn grand_prix_json(
    State(domain): State<Domain>,
    Path(id): Path<i64>,
    Query(query): Query<TableQuery>,
) -> ApiResult<Response> {
    grand_prix_in(domain, id, query, HeaderMap::new(), Some(Format::Json)).await
}

/// The Grand Prix table as CSV.
pub async fn grand_prix_csv_file(
    State(domain): State<Domain>,
    Path(id): Path<i64>,
    Query(query): Query<TableQuery>,
) -> ApiResult<Response> {
    grand_prix_in(domain, id, query, HeaderMap::new(), Some(Format::Csv)).await
}

/// The Grand Prix table as a printable HTML page.
pub async fn grand_prix_html_page(
    State(domain): State<Domain>,
    Path(id): Path<i64>,
    Query(query): Query<TableQuery>,
) -> ApiResult<Response> {
    grand_prix_in(domain, id, query, HeaderMap::new(), Some(Format::Html)).await
}

/// The TRF(x) export of a Swiss section (plain text).
pub async fn trf(State(domain): State<Domain>, Path(id): Path<i64>) -> ApiResult<Response> {
    let text = tournaments::trf(&domain, id).await?;
    Ok(([(CONTENT_TYPE, "text/plain; charset=utf-8")], text).into_response())
}
