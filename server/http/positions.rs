//! `/api/positions`: questions about positions that belong to no game (issue 37 §2: the
//! analysis board asks where pieces may go after a variation). Stateless: nothing is
//! stored, anyone may ask, and [`crate::domain::positions`] bounds the work of a question
//! (its moves; it runs in the bounded pool of rules work); this route bounds its body.

use crate::domain::positions::{self, Explored, Variation};
use crate::domain::rules_adapter;
use crate::domain::Domain;
use axum::extract::State;
use serde::Deserialize;

use super::error::ApiResult;
use super::extract::Json;

/// The largest body of a question, in bytes: a position and [`positions::MAX_MOVES`]
/// moves fit.
pub const MAX_BODY_BYTES: usize = 16 * 1024;

/// A variation to play from a position.
#[derive(Deserialize, utoipa::ToSchema)]
pub struct LegalMovesRequest {
    /// The variant's name.
    #[schema(schema_with = rules_adapter::variant_name_schema)]
    variant: String,
    /// The position (FEN for Xiangqi and Flickering chess, SFEN for Shogi and MiniShogi,
    /// the Seven Kingdoms position text); absent: the standard start.
    #[serde(default)]
    position: Option<String>,
    /// Moves played from it, in order, in any notation of the variant (a Flickering chess
    /// turn is a whole series, `e2e4,g1f3`); at most 400.
    #[serde(default)]
    #[schema(max_items = 400)]
    moves: Vec<String>,
    /// The ruleset (default: the variant's).
    #[serde(default)]
    ruleset: Option<String>,
}

#[utoipa::path(
    post,
    path = "/api/positions/legal-moves",
    tag = "games",
    request_body = LegalMovesRequest,
    responses(
        (status = 200, description = "the position after the moves and its legal moves", body = Explored),
        (status = 413, description = "a body of more than 16 KiB"),
        (status = 422, description = "more than 400 moves, an unknown variant or ruleset, an unreadable \
                                      position or a move the rules refuse (its code, e.g. `illegal-move.blocked`)"),
        (status = 503, description = "too many positions asked at once: try again"),
    )
)]
/// Plays `moves` from `position` by the rules of `variant` and answers the position they
/// lead to and its legal moves. Nothing is stored.
pub async fn legal_moves(
    State(domain): State<Domain>,
    Json(body): Json<LegalMovesRequest>,
) -> ApiResult<Json<Explored>> {
    let variation = Variation {
        variant: rules_adapter::parse_variant(&body.variant)?,
        ruleset: body.ruleset.filter(|r| !r.trim().is_empty()),
        position: body.position.filter(|p| !p.trim().is_empty()),
        moves: body.moves,
    };
    Ok(Json(positions::explore(&domain.rules_work, variation).await?))
}
