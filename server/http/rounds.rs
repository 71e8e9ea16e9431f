//! A section's rounds and games for everyone (issue 20 §2): `GET /api/sections/{id}/rounds`
//! and the section's games as one record file, `GET /api/sections/{id}/games/{format}`
//! (PGN with ICCS, WXF, FIX or Chinese moves for Xiangqi, KIF or CSA for Shogi and MiniShogi).

use axum::extract::State;
use axum::http::header::{CONTENT_DISPOSITION, CONTENT_TYPE};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};

use super::error::{ApiError, ApiResult};
use super::extract::{Json, Path};
use crate::domain::games;
use crate::domain::tournaments::{self, PairingExplanationView, RoundsView};
use crate::domain::{Domain, DomainError};
use crate::web::i18n::{Lang, Texts};
use crate::web::records::{self, RecordFormat, RecordWriteError};

#[utoipa::path(
    get,
    path = "/api/sections/{id}/rounds",
    tag = "tournaments",
    params(("id" = i64, Path, description = "Section id")),
    responses((status = 200, description = "the rounds with their games and byes", body = RoundsView))
)]
/// A section's rounds: each game's players, colours, status, ply, whose move, deadline,
/// result and ruling, and the byes (public).
pub async fn rounds(State(domain): State<Domain>, Path(id): Path<i64>) -> ApiResult<Json<RoundsView>> {
    Ok(Json(tournaments::rounds(&domain, id).await?))
}

#[utoipa::path(
    get,
    path = "/api/sections/{id}/rounds/{n}/pairing-explanation",
    tag = "tournaments",
    params(
        ("id" = i64, Path, description = "Section id"),
        ("n" = u32, Path, description = "Round number")
    ),
    responses(
        (status = 200, description = "the round paired again from the rounds before it, with the rule that decided each bracket, pair and bye", body = PairingExplanationView),
        (status = 404, description = "unknown section or a round not paired"),
        (status = 409, description = "an earlier round has a game in play"),
        (status = 422, description = "not a Swiss section, or its earlier rounds no longer pair")
    )
)]
/// Why a Swiss round was paired as it was (public): per bracket its players, moved-down
/// players, S1, S2 and exchanges; per pair the opponents passed over and why, and the colour
/// rule; the bye; and whether pairing the round again gives exactly the round as it is.
pub async fn pairing_explanation(
    State(domain): State<Domain>,
    Path((id, n)): Path<(i64, u32)>,
) -> ApiResult<Json<PairingExplanationView>> {
    let english = Texts::new(Lang::En);
    Ok(Json(tournaments::pairing_explanation(&domain, id, n, &|key, args| english.format(key, args)).await?))
}

/// The section's games in `format`, one after the other in round and board order (CSA
/// games separated by its `/` line, as CSA files of several games are).
///
/// # Errors
/// Unknown section (404), a format not offered for the section's variant (422).
pub async fn section_records(
    domain: &Domain,
    section_id: i64,
    format: RecordFormat,
) -> Result<String, DomainError> {
    let view = tournaments::rounds(domain, section_id).await?;
    let mut texts = Vec::new();
    for game in view.rounds.iter().flat_map(|r| &r.games) {
        let game = games::view(domain, game.game_id).await?;
        match records::write_view(&game, format) {
            Ok(text) => texts.push(text.trim_end().to_owned()),
            Err(RecordWriteError::Unsupported(name)) => {
                return Err(DomainError::Invalid(format!(
                    "{name} records are not offered for this section's variant"
                )))
            }
            Err(e) => return Err(DomainError::Internal(anyhow::anyhow!("game {}: {e}", game.id))),
        }
    }
    let separator = if format == RecordFormat::Csa { "\n/\n" } else { "\n\n" };
    Ok(texts.join(separator) + "\n")
}

#[utoipa::path(
    get,
    path = "/api/sections/{id}/games/{format}",
    tag = "tournaments",
    params(
        ("id" = i64, Path, description = "Section id"),
        ("format" = String, Path, description = "`pgn-iccs`, `pgn-wxf`, `pgn-fix`, `pgn-chinese` (Xiangqi), `kif`, `csa` (Shogi, MiniShogi)")
    ),
    responses(
        (status = 200, description = "every game of the section in one file", content_type = "text/plain"),
        (status = 422, description = "a format not offered for the section's variant")
    )
)]
/// Every game of a section as one record file (public).
pub async fn games_file(
    State(domain): State<Domain>,
    Path((id, format)): Path<(i64, String)>,
) -> Result<Response, ApiError> {
    let Some(format) = RecordFormat::from_name(&format).filter(|f| !matches!(f, RecordFormat::Record)) else {
        return Err(DomainError::Invalid(format!("unknown record format {format}")).into());
    };
    let text = section_records(&domain, id, format).await?;
    let disposition = format!("attachment; filename=\"section-{id}.{}\"", format.extension());
    Ok((
        StatusCode::OK,
        [(CONTENT_TYPE, "text/plain; charset=utf-8".to_owned()), (CONTENT_DISPOSITION, disposition)],
        text,
    )
        .into_response())
}
