//! `POST /api/games/import`: a game record uploaded by a player or a director (issue 15
//! §7), replayed with the rules and stored as a finished game ([`imports::import`]).

use axum::extract::State;
use axum::http::StatusCode;
use base64::Engine as _;
use serde::Deserialize;
use serde_json::json;

use super::auth::AuthUser;
use super::error::{ApiError, ApiResult};
use super::extract::Json;
use super::AppState;
use crate::domain::imports::{self, ImportError, ImportedGame, RecordProblem};

/// A record to import.
#[derive(Debug, Deserialize, utoipa::ToSchema)]
pub struct ImportRequest {
    /// `xiangqi`, `shogi` or `minishogi`; detected from the record when left out (KIF,
    /// KI2 and CSA are Shogi; a PGN `Variant` tag; else the game whose rules read the
    /// moves).
    #[serde(default)]
    pub variant: Option<String>,
    /// The record's text: PGN (ICCS, WXF, Chinese or FIX moves), KIF, KI2, CSA, or one
    /// line of USI or ICCS moves.
    #[serde(default)]
    pub record: Option<String>,
    /// The record file's bytes in base64 instead of `record`: UTF-8 (with or without a
    /// byte order mark) or Shift_JIS, as KIF and KI2 files often are.
    #[serde(default)]
    pub record_base64: Option<String>,
}

/// A record's problem in the one error shape: the rules' code, a sentence naming the
/// place, and `meta` with `line`, `column`, `token` and `ply` where known, and `game` (its
/// number) in a file of several games.
pub fn record_problem(problem: &RecordProblem) -> ApiError {
    let mut meta = serde_json::Map::new();
    if let Some(line) = problem.line {
        meta.insert("line".into(), json!(line));
    }
    if let Some(column) = problem.column {
        meta.insert("column".into(), json!(column));
    }
    if let Some(token) = &problem.token {
        meta.insert("token".into(), json!(token));
    }
    if let Some(ply) = problem.ply {
        meta.insert("ply".into(), json!(ply));
    }
    if let Some(game) = problem.game {
        meta.insert("game".into(), json!(game));
    }
    let error = ApiError::coded(StatusCode::UNPROCESSABLE_ENTITY, problem.code, problem.detail.clone());
    if meta.is_empty() {
        error
    } else {
        error.with_meta(serde_json::Value::Object(meta))
    }
}

impl From<ImportError> for ApiError {
    fn from(error: ImportError) -> ApiError {
        match error {
            ImportError::Record(problem) => record_problem(&problem),
            ImportError::Records(problems) => {
                let mut each = problems.iter().map(record_problem);
                match each.next() {
                    Some(first) => first.with_more(each.collect()),
                    None => ApiError::new(StatusCode::UNPROCESSABLE_ENTITY, "The record does not replay."),
                }
            }
            ImportError::TooManyGames { games, limit } => ApiError::coded(
                StatusCode::PAYLOAD_TOO_LARGE,
                "import.too-many-games",
                format!("The record holds {games} games; at most {limit} are imported by one request."),
            )
            .with_meta(json!({"games": games, "limit": limit})),
            ImportError::Domain(error) => error.into(),
        }
    }
}

/// The record's text from a request: `record`, or `record_base64` decoded (UTF-8 or
/// Shift_JIS).
fn record_text(body: &ImportRequest) -> ApiResult<String> {
    match (&body.record, &body.record_base64) {
        (Some(text), None) => Ok(text.clone()),
        (None, Some(encoded)) => {
            let bytes = base64::engine::general_purpose::STANDARD.decode(encoded.trim()).map_err(|e| {
                ApiError::coded(
                    StatusCode::UNPROCESSABLE_ENTITY,
                    "import.invalid-base64",
                    format!("record_base64 is not base64: {e}."),
                )
            })?;
            Ok(tavoliere_rules::notation::shogi::game::decode(&bytes))
        }
        _ => Err(ApiError::coded(
            StatusCode::UNPROCESSABLE_ENTITY,
            "import.no-record",
            "Send the record as `record` (text) or as `record_base64` (the file's bytes), one of them.",
        )),
    }
}

#[utoipa::path(
    post,
    path = "/api/games/import",
    tag = "games",
    request_body = ImportRequest,
    security(("bearer" = []), ("session" = [])),
    responses(
        (status = 201, description = "the game (every game of a file of several: `games`), stored", body = ImportedGame),
        (status = 413, description = "the file holds more games than one request may import (`import.too-many-games`, `meta.limit` the most, `meta.games` the file's): nothing is replayed or stored"),
        (status = 422, description = "the record does not replay: `meta` names line, column, token and ply; in a file of several games one error per game that does not replay, `meta.game` its number, and nothing is stored"),
        (status = 429, description = "the account would pass the games it may import in 24 hours (`import.daily-limit`): nothing is stored; `Retry-After` says when there is room")
    )
)]
/// Imports a game record → 201 with the stored game (every game of a KIF, KI2, CSA or
/// PGN file of several). The record is validated move by move with the rules; a bad
/// record (any bad game of a file) stores nothing. Imported games are history: they are
/// in the archive, never in the home page's latest results or the games being played.
#[tracing::instrument(skip_all)]
pub async fn import(
    State(state): State<AppState>,
    AuthUser(me): AuthUser,
    Json(body): Json<ImportRequest>,
) -> ApiResult<(StatusCode, Json<ImportedGame>)> {
    let text = record_text(&body)?;
    let imported =
        imports::import(&state.domain, state.import_limits, me.id, body.variant.as_deref(), &text).await?;
    Ok((StatusCode::CREATED, Json(imported)))
}
