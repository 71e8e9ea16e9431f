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

#[derive(sqlx::FromRow)]
pub(crate) struct MySectionRow {
    pub(crate) tournament_id: i64,
    pub(crate) tournament: String,
    pub(crate) section_id: i64,
    pub(crate) section: String,
    pub(crate) variant: String,
    pub(crate) status: String,
    pub(crate) entry_status: String,
}

/// The sections a player is entered in, with their games, for the dashboard.
///
/// # Errors
/// Database failure.
pub async fn for_player(domain: &Domain, account_id: i64) -> DomainResult<Vec<MySection>> {
    let rows = sqlx::query_as::<_, MySectionRow>(
        r#"select t.tournament_id, t.name as tournament, s.section_id, s.name as section, s.variant,
                  s.status, e.status as entry_status
           from entry e join section s using (section_id) join tournament t using (tournament_id)
           where e.account_id = $1 order by t.tournament_id desc, s.section_id"#,
    )
    .bind(account_id)
    .fetch_all(&domain.pool)
    .await?;
    let mut out = Vec::with_capacity(rows.len());
    for row in rows {
        let games = sqlx::query_as::<_, MyGame>(
            r#"select g.game_id, g.round, opp.username as opponent,
                      case when mine.seat = 0 then 'first' else 'second' end as color,
                      g.status, g.result, g.tournament_result,
                      (g.status = 'active' and g.turn_seat = mine.seat) as your_turn
               from game g
               join game_seat mine on mine.game_id = g.game_id and mine.account_id = $2
               join game_seat other on other.game_id = g.game_id and other.seat <> mine.seat
               join account opp on opp.account_id = other.account_id
               where g.section_id = $1 order by g.round, g.board"#,
        )
        .bind(row.section_id)
        .bind(account_id)
        .fetch_all(&domain.pool)
        .await?;
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
