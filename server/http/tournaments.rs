//! `/api/tournaments`, `/api/sections`, the directors' game decisions and the tables
//! (JSON, CSV, printable HTML in Italian or English, TRF for Swiss sections).

use axum::extract::State;
use axum::http::header::{ACCEPT, ACCEPT_LANGUAGE, CONTENT_TYPE};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use serde::{Deserialize, Serialize};
use tavoliere_tournament::tables::csv::{crosstable_csv, grand_prix_csv};
use tavoliere_tournament::tables::html::{crosstable_html, escape, grand_prix_html};
use tavoliere_tournament::tables::{Crosstable, GrandPrixTable, Language};
use utoipa::openapi::path::{
    HttpMethod, OperationBuilder, ParameterBuilder, ParameterIn, PathItem, Paths, PathsBuilder,
};
use utoipa::openapi::{ContentBuilder, Ref, RefOr, Required, ResponseBuilder, Schema};
use utoipa::{IntoParams, PartialSchema, ToSchema};
use utoipa_axum::router::UtoipaMethodRouter;

use super::auth::AuthUser;
use super::error::{ApiError, ApiResult};
use super::extract::{Json, JsonOrEmpty, Path, Query};
use super::AppState;
use crate::domain::tournaments::{
    self, CorrectionView, Decision, GameDecision, MySection, NewSection, NewTournament, RoundStarted,
    SectionPatch, SectionView, StandingsView, TournamentPatch, TournamentSummary, TournamentView,
};
use crate::domain::Domain;
use crate::web::i18n::Lang;

#[utoipa::path(
    post,
    path = "/api/tournaments",
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
    tag = "tournaments",
    responses((status = 200, description = "the tournaments", body = Vec<TournamentSummary>))
)]
/// Every tournament.
pub async fn list(State(domain): State<Domain>) -> ApiResult<Json<Vec<TournamentSummary>>> {
    Ok(Json(tournaments::list(&domain).await?))
}

#[utoipa::path(
    get,
    path = "/api/tournaments/{id}",
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
/// The TRF(x) export of a Swiss section (plain text).
pub async fn trf(State(domain): State<Domain>, Path(id): Path<i64>) -> ApiResult<Response> {
    let text = tournaments::trf(&domain, id).await?;
    Ok(([(CONTENT_TYPE, "text/plain; charset=utf-8")], text).into_response())
}

// ---------------------------------------------------------------------------------------
// The tables: two tables, eight URLs, one handler.
// ---------------------------------------------------------------------------------------

/// A table of results people read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Table {
    /// A section's crosstable.
    Crosstable,
    /// A tournament's Grand Prix table.
    GrandPrix,
}

impl Table {
    const ALL: [Table; 2] = [Table::Crosstable, Table::GrandPrix];

    /// The URL that negotiates the format; `.json`, `.csv` and `.html` after it fix one.
    fn url(self) -> &'static str {
        match self {
            Table::Crosstable => "/api/sections/{id}/crosstable",
            Table::GrandPrix => "/api/tournaments/{id}/grand-prix",
        }
    }

    /// The name of its operations (`crosstable`, `crosstable_csv`...).
    fn operation(self) -> &'static str {
        match self {
            Table::Crosstable => "crosstable",
            Table::GrandPrix => "grand_prix",
        }
    }

    fn title(self) -> &'static str {
        match self {
            Table::Crosstable => "The crosstable",
            Table::GrandPrix => "The Grand Prix table",
        }
    }

    /// What `{id}` names.
    fn owner(self) -> &'static str {
        match self {
            Table::Crosstable => "Section id",
            Table::GrandPrix => "Tournament id",
        }
    }

    /// A reference to the table's JSON schema.
    fn schema_ref(self) -> RefOr<Schema> {
        let name = match self {
            Table::Crosstable => Crosstable::name(),
            Table::GrandPrix => GrandPrixTable::name(),
        };
        RefOr::Ref(Ref::from_schema_name(name))
    }

    /// The table's JSON schema and every schema it refers to.
    fn schemas(self) -> Vec<(String, RefOr<Schema>)> {
        fn of<T: ToSchema>() -> Vec<(String, RefOr<Schema>)> {
            let mut schemas = vec![(T::name().into_owned(), T::schema())];
            T::schemas(&mut schemas);
            schemas
        }
        match self {
            Table::Crosstable => of::<Crosstable>(),
            Table::GrandPrix => of::<GrandPrixTable>(),
        }
    }

    /// The table of section or tournament `id` in `format`.
    async fn answer(
        self,
        domain: &Domain,
        id: i64,
        format: Format,
        language: Language,
    ) -> ApiResult<Response> {
        Ok(match self {
            Table::Crosstable => format.write(&tournaments::crosstable(domain, id).await?, language),
            Table::GrandPrix => format.write(&tournaments::grand_prix(domain, id).await?, language),
        })
    }
}

/// A table's data as its writers see it.
trait TableData: Serialize {
    fn title(&self) -> &str;
    fn csv(&self, language: Language) -> String;
    fn html(&self, language: Language) -> String;
}

impl TableData for Crosstable {
    fn title(&self) -> &str {
        &self.title
    }
    fn csv(&self, language: Language) -> String {
        crosstable_csv(self, language)
    }
    fn html(&self, language: Language) -> String {
        crosstable_html(self, language)
    }
}

impl TableData for GrandPrixTable {
    fn title(&self) -> &str {
        &self.title
    }
    fn csv(&self, language: Language) -> String {
        grand_prix_csv(self, language)
    }
    fn html(&self, language: Language) -> String {
        grand_prix_html(self, language)
    }
}

/// The format of a table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Format {
    Json,
    Csv,
    Html,
}

impl Format {
    const ALL: [Format; 3] = [Format::Json, Format::Csv, Format::Html];

    /// The name in `?format=` and in the URL's extension.
    fn name(self) -> &'static str {
        match self {
            Format::Json => "json",
            Format::Csv => "csv",
            Format::Html => "html",
        }
    }

    fn media_type(self) -> &'static str {
        match self {
            Format::Json => "application/json",
            Format::Csv => "text/csv",
            Format::Html => "text/html",
        }
    }

    fn from_name(name: &str) -> Option<Format> {
        Format::ALL.into_iter().find(|format| format.name() == name)
    }

    /// By the Accept header: HTML or CSV when it names them, else JSON.
    fn from_accept(headers: &HeaderMap) -> Format {
        let accept = headers.get(ACCEPT).and_then(|v| v.to_str().ok()).unwrap_or("");
        if accept.contains("text/html") {
            Format::Html
        } else if accept.contains("text/csv") {
            Format::Csv
        } else {
            Format::Json
        }
    }

    fn write(self, table: &impl TableData, language: Language) -> Response {
        match self {
            Format::Json => Json(table).into_response(),
            Format::Csv => ([(CONTENT_TYPE, "text/csv; charset=utf-8")], table.csv(language)).into_response(),
            Format::Html => html_page(table.title(), language, &table.html(language)),
        }
    }
}

/// `?format=json|csv|html&lang=it|en`.
#[derive(Deserialize, Default, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct TableQuery {
    /// `json`, `csv` or `html` (default: by the Accept header, else JSON); ignored where the
    /// URL names the format.
    format: Option<String>,
    /// `it` or `en` (default: by the Accept-Language header, else the site's default
    /// language).
    lang: Option<String>,
}

/// Answers every table URL: the table, in the URL's format (`fixed`) or the negotiated one,
/// in the asked, accepted or site language.
async fn table(
    state: AppState,
    table: Table,
    id: i64,
    fixed: Option<Format>,
    query: TableQuery,
    headers: HeaderMap,
) -> ApiResult<Response> {
    let unknown = |what: &str, value: &str, known: &str| {
        ApiError::new(StatusCode::UNPROCESSABLE_ENTITY, format!("unknown {what} {value:?} ({known})"))
    };
    let language = match query.lang.as_deref() {
        Some(tag) => Lang::from_tag(tag).ok_or_else(|| unknown("lang", tag, "it, en"))?,
        None => {
            let accepted = headers.get(ACCEPT_LANGUAGE).and_then(|v| v.to_str().ok());
            Lang::from_accept_language(accepted).unwrap_or(state.default_language)
        }
    };
    let format = match (fixed, query.format.as_deref()) {
        (Some(format), _) => format,
        (None, Some(name)) => {
            Format::from_name(name).ok_or_else(|| unknown("format", name, "json, csv, html"))?
        }
        (None, None) => Format::from_accept(&headers),
    };
    let language = match language {
        Lang::It => Language::It,
        Lang::En => Language::En,
    };
    table.answer(&state.domain, id, format, language).await
}

/// The routes of the tables with their description: each table at its own URL (format by
/// `?format=` or the Accept header) and at one URL per format (`.json`, `.csv`, `.html`),
/// all answered by [`table`].
pub fn table_routes() -> impl Iterator<Item = UtoipaMethodRouter<AppState>> {
    let formats = [None, Some(Format::Json), Some(Format::Csv), Some(Format::Html)];
    Table::ALL.into_iter().flat_map(move |kind| {
        formats.into_iter().map(move |fixed| {
            let handler = move |State(state): State<AppState>,
                                Path(id): Path<i64>,
                                Query(query): Query<TableQuery>,
                                headers: HeaderMap| async move {
                table(state, kind, id, fixed, query, headers).await
            };
            (kind.schemas(), table_description(kind, fixed), get(handler))
        })
    })
}

/// The OpenAPI path item of a table URL.
fn table_description(kind: Table, fixed: Option<Format>) -> Paths {
    let (path, operation_id, summary) = match fixed {
        None => (
            kind.url().to_owned(),
            kind.operation().to_owned(),
            format!("{}: JSON, CSV or HTML by `?format=` or the Accept header.", kind.title()),
        ),
        Some(format) => (
            format!("{}.{}", kind.url(), format.name()),
            format!("{}_{}", kind.operation(), format.name()),
            format!("{} as {}.", kind.title(), format.name().to_uppercase()),
        ),
    };
    let id = ParameterBuilder::new()
        .name("id")
        .parameter_in(ParameterIn::Path)
        .required(Required::True)
        .description(Some(kind.owner()))
        .schema(Some(i64::schema()));
    let mut parameters = vec![id.build()];
    parameters.extend(TableQuery::into_params(|| Some(ParameterIn::Query)));
    let mut response = ResponseBuilder::new().description(kind.title().to_lowercase());
    for format in fixed.map_or(Format::ALL.to_vec(), |format| vec![format]) {
        let schema = if format == Format::Json { kind.schema_ref() } else { String::schema() };
        response = response.content(format.media_type(), ContentBuilder::new().schema(Some(schema)).build());
    }
    let operation = OperationBuilder::new()
        .operation_id(Some(operation_id))
        .summary(Some(summary))
        .tag("tournaments")
        .parameters(Some(parameters))
        .response("200", response.build());
    PathsBuilder::new().path(path, PathItem::new(HttpMethod::Get, operation)).build()
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
