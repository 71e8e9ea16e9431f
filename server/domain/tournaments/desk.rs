//! The directors' desk of a tournament (issue 20 §2): the games that run out of time soon
//! or are overdue, the draw offers waiting for an answer, every result decision with its
//! audit trail, and the withdrawals. Claims are judged at once when made (they never
//! wait for a director), so none is pending here.

use super::*;
use crate::storage::desk as desk_store;

/// How far ahead a deadline counts as "nearly overdue".
pub const NEARLY_OVERDUE: time::Duration = time::Duration::hours(24);

/// A running game a director should look at.
#[derive(Clone, Debug, Serialize, sqlx::FromRow, utoipa::ToSchema)]
pub struct DeskGame {
    /// Game id.
    pub game_id: i64,
    /// Its section.
    pub section_id: Option<i64>,
    /// Its round.
    pub round: i32,
    /// The player of the first seat.
    pub first: String,
    /// The player of the second seat.
    pub second: String,
    /// Who is to move.
    pub to_move: String,
    /// When the player to move runs out of time.
    #[serde(with = "time::serde::rfc3339::option")]
    pub deadline: Option<OffsetDateTime>,
    /// Plies played.
    pub ply: i32,
    /// Who offered a draw that waits for an answer.
    pub draw_offered_by: Option<String>,
    /// Whether the deadline has passed (the clock task ends it at its next sweep).
    #[sqlx(default)]
    pub overdue: bool,
}

/// A decision on a result of one of the tournament's games, with the audit trail's who,
/// when and why.
#[derive(Debug, Serialize, sqlx::FromRow, utoipa::ToSchema)]
pub struct DeskDecision {
    /// The game.
    pub game_id: i64,
    /// Its section.
    pub section_id: Option<i64>,
    /// The entry of the game's audit trail.
    #[serde(flatten)]
    #[sqlx(flatten)]
    pub entry: CorrectionView,
}

/// A withdrawal from a section.
#[derive(Debug, Serialize, sqlx::FromRow, utoipa::ToSchema)]
pub struct DeskWithdrawal {
    /// The section.
    pub section_id: i64,
    /// Its name.
    pub section: String,
    /// Who withdrew.
    pub username: String,
    /// When.
    #[serde(with = "time::serde::rfc3339::option")]
    pub withdrawn_at: Option<OffsetDateTime>,
}

/// The directors' desk of a tournament.
#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct DeskView {
    /// The tournament.
    pub tournament_id: i64,
    /// Its name.
    pub name: String,
    /// Running games past their deadline or within a day of it, earliest first.
    pub running_out: Vec<DeskGame>,
    /// Running games with a draw offer waiting for an answer.
    pub draw_offers: Vec<DeskGame>,
    /// Every result decision, newest first.
    pub decisions: Vec<DeskDecision>,
    /// Withdrawals, latest first.
    pub withdrawals: Vec<DeskWithdrawal>,
}

/// The desk of a tournament (its directors, global directors and admins).
///
/// # Errors
/// Unknown tournament (404), not one of its directors (403).
pub async fn desk(domain: &Domain, actor: &Account, tournament_id: i64) -> DomainResult<DeskView> {
    let row = store::row(&domain.pool, tournament_id)
        .await?
        .ok_or_else(|| DomainError::NotFound(format!("no tournament {tournament_id}")))?;
    ensure_directs(&domain.pool, actor, tournament_id).await?;
    let now = domain.clock.now();
    let games = desk_store::watched_games(&domain.pool, tournament_id, now + NEARLY_OVERDUE).await?;
    let (mut running_out, mut draw_offers) = (Vec::new(), Vec::new());
    for mut game in games {
        game.overdue = game.deadline.is_some_and(|d| d <= now);
        let soon = game.deadline.is_some_and(|d| d < now + NEARLY_OVERDUE);
        if game.draw_offered_by.is_some() {
            draw_offers.push(game.clone());
        }
        if soon {
            running_out.push(game);
        }
    }
    Ok(DeskView {
        tournament_id,
        name: row.name,
        running_out,
        draw_offers,
        decisions: desk_store::decisions(&domain.pool, tournament_id).await?,
        withdrawals: desk_store::withdrawals(&domain.pool, tournament_id).await?,
    })
}

/// Whether game `game_id` is one of the tournament's (the desk decides only those).
///
/// # Errors
/// Database failure.
pub async fn desk_game_in(domain: &Domain, tournament_id: i64, game_id: i64) -> DomainResult<bool> {
    Ok(desk_store::game_in(&domain.pool, tournament_id, game_id).await?)
}
