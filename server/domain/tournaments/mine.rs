//! The player's view: their sections and games.

use super::*;

/// A tournament game from one player's side.
#[derive(Debug, Serialize, sqlx::FromRow, utoipa::ToSchema)]
pub struct MyGame {
    /// Game id.
    pub game_id: i64,
    /// Round.
    pub round: Option<i32>,
    /// The opponent's username.
    pub opponent: String,
    /// `first` or `second`: the player's side.
    pub color: String,
    /// Game status.
    pub status: GameStatus,
    /// Board result once over.
    pub result: Option<BoardResult>,
    /// A director's decision, if any.
    pub tournament_result: Option<String>,
    /// Whether it is the player's turn.
    pub your_turn: bool,
    /// When the player to move runs out of time (active games).
    #[serde(with = "time::serde::rfc3339::option")]
    pub deadline: Option<OffsetDateTime>,
}

/// One of a player's sections with their games.
#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct MySection {
    /// Tournament id.
    pub tournament_id: i64,
    /// Tournament name.
    pub tournament: String,
    /// Section id.
    pub section_id: i64,
    /// Section name.
    pub section: String,
    /// Variant.
    #[schema(schema_with = rules_adapter::variant_name_schema)]
    pub variant: String,
    /// Section status.
    pub status: String,
    /// The player's entry status (`active` or `withdrawn`).
    pub entry_status: String,
    /// The player's games in the section.
    pub games: Vec<MyGame>,
}

/// The sections a player is entered in, with their games, for the dashboard.
///
/// # Errors
/// Database failure.
pub async fn for_player(domain: &Domain, account_id: i64) -> DomainResult<Vec<MySection>> {
    let rows = store::sections_of(&domain.pool, account_id).await?;
    let mut out = Vec::with_capacity(rows.len());
    for row in rows {
        let games = store::games_of_in(&domain.pool, row.section_id, account_id).await?;
        out.push(MySection {
            tournament_id: row.tournament_id,
            tournament: row.tournament,
            section_id: row.section_id,
            section: row.section,
            variant: row.variant,
            status: row.status,
            entry_status: row.entry_status,
            games,
        });
    }
    Ok(out)
}
