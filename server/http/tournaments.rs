//! `/api/tournaments`, `/api/sections`, the directors' game decisions, the standings and
//! the TRF export of Swiss sections (the crosstable and Grand Prix tables are in
//! [`super::tables`]).

use axum::extract::{RawQuery, State};
use axum::http::header::CONTENT_TYPE;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use serde::Deserialize;
use utoipa::ToSchema;

use super::auth::AuthUser;
use super::error::ApiResult;
use super::extract::{Json, JsonOrEmpty, Path, Query};
use crate::domain::tournaments::{
    self, CorrectionView, Decision, GameDecision, MySection, NewSection, NewTournament, RoundStarted,
    SectionPatch, SectionView, StandingsView, TournamentPatch, TournamentQuery, TournamentSummary,
    TournamentView,
};
use crate::domain::Domain;

#[utoipa::path(
    post,
    path = "/api/tournaments",
    operation_id = "create_tournament",
    tag = "tournaments",
    request_body = NewTournament,
    security(("bearer" = []), ("session" = [])),
    responses((status = 201, description = "created", body = TournamentView))
)]
/// Creates a tournament (directors and admins) → 201.
#[tracing::instrument(skip_all)]
pub async fn create(
    State(domain): State<Domain>,
    AuthUser(me): AuthUser,
    Json(body): Json<NewTournament>,
) -> ApiResult<(StatusCode, Json<TournamentView>)> {
    Ok((StatusCode::CREATED, Json(tournaments::create(&domain, &me, body).await?)))
}

#[utoipa::path(
    get,
    path = "/api/tournaments",
    operation_id = "list_tournaments",
    tag = "tournaments",
    params(TournamentQuery),
    responses((
        status = 200,
        description = "the tournaments, newest first, a page at a time",
        body = Vec<TournamentSummary>,
        headers(
            ("Link" = String, description = "`<...&cursor=...>; rel=\"next\"`: the next page, same filters"),
            ("X-Next-Cursor" = String, description = "the `cursor` of the next page (absent on the last)"),
        )
    ))
)]
/// The tournaments, filtered, a page at a time.
pub async fn list(
    State(domain): State<Domain>,
    Query(query): Query<TournamentQuery>,
    RawQuery(raw): RawQuery,
) -> ApiResult<Response> {
    let page = tournaments::list(&domain, &query).await?;
    super::paging::paged(page.items, "/api/tournaments", raw.as_deref(), page.next)
}

#[utoipa::path(
    get,
    path = "/api/tournaments/{id}",
    operation_id = "show_tournament",
    tag = "tournaments",
    params(("id" = i64, Path, description = "Tournament id")),
    responses((status = 200, description = "the tournament", body = TournamentView))
)]
/// One tournament with its sections.
pub async fn show(State(domain): State<Domain>, Path(id): Path<i64>) -> ApiResult<Json<TournamentView>> {
    Ok(Json(tournaments::get(&domain, id).await?))
}

#[utoipa::path(
    patch,
    path = "/api/tournaments/{id}",
    operation_id = "update_tournament",
    tag = "tournaments",
    params(("id" = i64, Path, description = "Tournament id")),
    request_body = TournamentPatch,
    security(("bearer" = []), ("session" = [])),
    responses((status = 200, description = "the tournament", body = TournamentView))
)]
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
#[derive(Deserialize, ToSchema)]
pub struct UsernameBody {
    /// The account.
    username: String,
}

#[utoipa::path(
    post,
    path = "/api/tournaments/{id}/directors",
    tag = "tournaments",
    params(("id" = i64, Path, description = "Tournament id")),
    request_body = UsernameBody,
    security(("bearer" = []), ("session" = [])),
    responses((status = 200, description = "the tournament", body = TournamentView))
)]
/// Adds a director (its directors).
pub async fn add_director(
    State(domain): State<Domain>,
    AuthUser(me): AuthUser,
    Path(id): Path<i64>,
    Json(body): Json<UsernameBody>,
) -> ApiResult<Json<TournamentView>> {
    Ok(Json(tournaments::add_director(&domain, &me, id, &body.username).await?))
}

#[utoipa::path(
    post,
    path = "/api/tournaments/{id}/sections",
    tag = "tournaments",
    params(("id" = i64, Path, description = "Tournament id")),
    request_body = NewSection,
    security(("bearer" = []), ("session" = [])),
    responses((status = 201, description = "created", body = SectionView))
)]
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

#[utoipa::path(
    get,
    path = "/api/tournaments/{id}/sections",
    tag = "tournaments",
    params(("id" = i64, Path, description = "Tournament id")),
    responses((status = 200, description = "the sections", body = Vec<SectionView>))
)]
/// The sections of a tournament.
pub async fn list_sections(
    State(domain): State<Domain>,
    Path(id): Path<i64>,
) -> ApiResult<Json<Vec<SectionView>>> {
    Ok(Json(tournaments::get(&domain, id).await?.sections))
}

#[utoipa::path(
    get,
    path = "/api/sections/{id}",
    tag = "tournaments",
    params(("id" = i64, Path, description = "Section id")),
    responses((status = 200, description = "the section", body = SectionView))
)]
/// One section.
pub async fn show_section(State(domain): State<Domain>, Path(id): Path<i64>) -> ApiResult<Json<SectionView>> {
    Ok(Json(tournaments::section(&domain, id).await?))
}

#[utoipa::path(
    patch,
    path = "/api/sections/{id}",
    tag = "tournaments",
    params(("id" = i64, Path, description = "Section id")),
    request_body = SectionPatch,
    security(("bearer" = []), ("session" = [])),
    responses((status = 200, description = "the section", body = SectionView))
)]
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

/// A registration: oneself (an empty body, or no body at all) or, by a director, anyone
/// with a seed.
#[derive(Deserialize, Default, ToSchema)]
pub struct EntryRequest {
    /// Whom to register (directors only; default: the caller).
    username: Option<String>,
    /// Seed (directors only).
    seed: Option<i32>,
}

#[utoipa::path(
    post,
    path = "/api/sections/{id}/entries",
    operation_id = "register_entry",
    tag = "tournaments",
    params(("id" = i64, Path, description = "Section id")),
    request_body(
        content = Option<EntryRequest>,
        description = "optional: no body (or `{}`) registers the caller",
        content_type = "application/json"
    ),
    security(("bearer" = []), ("session" = [])),
    responses((status = 201, description = "the section", body = SectionView))
)]
/// Registers a player → 201.
pub async fn register(
    State(domain): State<Domain>,
    AuthUser(me): AuthUser,
    Path(id): Path<i64>,
    JsonOrEmpty(body): JsonOrEmpty<EntryRequest>,
) -> ApiResult<(StatusCode, Json<SectionView>)> {
    let view = tournaments::register(&domain, &me, id, body.username.as_deref(), body.seed).await?;
    Ok((StatusCode::CREATED, Json(view)))
}

/// A seed change.
#[derive(Deserialize, ToSchema)]
pub struct SeedRequest {
    /// The new seed; absent clears it.
    seed: Option<i32>,
}

#[utoipa::path(
    patch,
    path = "/api/sections/{id}/entries/{username}",
    tag = "tournaments",
    params(
        ("id" = i64, Path, description = "Section id"),
        ("username" = String, Path, description = "The player")
    ),
    request_body = SeedRequest,
    security(("bearer" = []), ("session" = [])),
    responses((status = 200, description = "the section", body = SectionView))
)]
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
#[derive(Deserialize, Default, ToSchema)]
pub struct ReasonBody {
    /// Why (kept in the audit trail).
    reason: Option<String>,
}

#[utoipa::path(
    post,
    path = "/api/sections/{id}/entries/{username}/withdraw",
    tag = "tournaments",
    params(
        ("id" = i64, Path, description = "Section id"),
        ("username" = String, Path, description = "The player")
    ),
    request_body = ReasonBody,
    security(("bearer" = []), ("session" = [])),
    responses((status = 200, description = "the section", body = SectionView))
)]
/// Withdraws a player (the player or a director); the section's rule decides their games.
pub async fn withdraw(
    State(domain): State<Domain>,
    AuthUser(me): AuthUser,
    Path((id, username)): Path<(i64, String)>,
    Json(body): Json<ReasonBody>,
) -> ApiResult<Json<SectionView>> {
    Ok(Json(tournaments::withdraw(&domain, &me, id, &username, body.reason.as_deref()).await?))
}

#[utoipa::path(
    post,
    path = "/api/sections/{id}/start",
    operation_id = "start_section",
    tag = "tournaments",
    params(("id" = i64, Path, description = "Section id")),
    security(("bearer" = []), ("session" = [])),
    responses((status = 201, description = "the first round", body = RoundStarted))
)]
/// Starts a section: pairings drawn, games created with clocks running → 201.
#[tracing::instrument(skip_all, fields(section.id = id))]
pub async fn start(
    State(domain): State<Domain>,
    AuthUser(me): AuthUser,
    Path(id): Path<i64>,
) -> ApiResult<(StatusCode, Json<RoundStarted>)> {
    Ok((StatusCode::CREATED, Json(tournaments::start(&domain, &me, id).await?)))
}

#[utoipa::path(
    post,
    path = "/api/sections/{id}/next-round",
    tag = "tournaments",
    params(("id" = i64, Path, description = "Section id")),
    security(("bearer" = []), ("session" = [])),
    responses((status = 201, description = "the round", body = RoundStarted))
)]
/// Starts the next round (Swiss, or round-by-round round-robin) → 201.
#[tracing::instrument(skip_all, fields(section.id = id))]
pub async fn next_round(
    State(domain): State<Domain>,
    AuthUser(me): AuthUser,
    Path(id): Path<i64>,
) -> ApiResult<(StatusCode, Json<RoundStarted>)> {
    Ok((StatusCode::CREATED, Json(tournaments::next_round(&domain, &me, id).await?)))
}

/// A director's decision: the result and why. Both fields are required; a missing one is
/// refused (422) only once the caller is known to direct the game's tournament.
#[derive(Deserialize, ToSchema)]
pub struct DecisionBody {
    /// `1-0`, `0-1`, `1/2-1/2` (adjudication), `+-`, `-+`, `--` (forfeits), or a result
    /// name (`first-wins`, `forfeit-second-wins`, `double-forfeit`, `annulled`...).
    #[serde(default)]
    #[schema(required = true)]
    result: String,
    /// Why (required, kept in the audit trail).
    #[serde(default)]
    #[schema(required = true)]
    reason: String,
}

async fn decide(
    domain: Domain,
    me: crate::domain::accounts::Account,
    id: i64,
    decision: Decision,
    body: DecisionBody,
) -> ApiResult<Json<GameDecision>> {
    Ok(Json(tournaments::decide(&domain, &me, id, decision, &body.result, &body.reason).await?))
}

#[utoipa::path(
    post,
    path = "/api/games/{id}/adjudicate",
    tag = "tournaments",
    params(("id" = i64, Path, description = "Game id")),
    request_body = DecisionBody,
    security(("bearer" = []), ("session" = [])),
    responses((status = 200, description = "the decision", body = GameDecision))
)]
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

#[utoipa::path(
    post,
    path = "/api/games/{id}/forfeit",
    tag = "tournaments",
    params(("id" = i64, Path, description = "Game id")),
    request_body = DecisionBody,
    security(("bearer" = []), ("session" = [])),
    responses((status = 200, description = "the decision", body = GameDecision))
)]
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

#[utoipa::path(
    post,
    path = "/api/games/{id}/result-corrections",
    tag = "tournaments",
    params(("id" = i64, Path, description = "Game id")),
    request_body = DecisionBody,
    security(("bearer" = []), ("session" = [])),
    responses((status = 200, description = "the decision", body = GameDecision))
)]
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

#[utoipa::path(
    get,
    path = "/api/games/{id}/result-corrections",
    tag = "tournaments",
    params(("id" = i64, Path, description = "Game id")),
    responses((status = 200, description = "the corrections", body = Vec<CorrectionView>))
)]
/// The audit trail of a game's result.
pub async fn corrections(
    State(domain): State<Domain>,
    Path(id): Path<i64>,
) -> ApiResult<Json<Vec<CorrectionView>>> {
    Ok(Json(tournaments::corrections(&domain, id).await?))
}

#[utoipa::path(
    get,
    path = "/api/sections/{id}/standings",
    tag = "tournaments",
    params(("id" = i64, Path, description = "Section id")),
    responses((status = 200, description = "the standings", body = StandingsView))
)]
/// A section's standings.
pub async fn standings(State(domain): State<Domain>, Path(id): Path<i64>) -> ApiResult<Json<StandingsView>> {
    Ok(Json(tournaments::standings(&domain, id).await?))
}

#[utoipa::path(
    get,
    path = "/api/accounts/me/tournaments",
    tag = "tournaments",
    security(("bearer" = []), ("session" = [])),
    responses((status = 200, description = "the sections", body = Vec<MySection>))
)]
/// The caller's sections and tournament games (dashboard).
pub async fn mine(State(domain): State<Domain>, AuthUser(me): AuthUser) -> ApiResult<Json<Vec<MySection>>> {
    Ok(Json(tournaments::for_player(&domain, me.id).await?))
}

#[utoipa::path(
    get,
    path = "/api/sections/{id}/trf",
    tag = "tournaments",
    params(("id" = i64, Path, description = "Section id")),
    responses((status = 200, description = "TRF(x) text", body = String, content_type = "text/plain"))
)]
/// The TRF16 export of a section, Swiss or round-robin (plain text): points in 1 / ½ / 0,
/// an `XXS` line for the section's own scoring when it is another.
pub async fn trf(State(domain): State<Domain>, Path(id): Path<i64>) -> ApiResult<Response> {
    let text = tournaments::trf(&domain, id).await?;
    Ok(([(CONTENT_TYPE, "text/plain; charset=utf-8")], text).into_response())
}
