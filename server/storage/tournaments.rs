//! The stored tournaments and their directors, and a player's sections and games (the
//! decisions are in `crate::domain::tournaments`; sections, entries and section games in
//! [`super::sections`]).

use sqlx::types::Json;
use sqlx::{PgPool, Postgres, QueryBuilder, Transaction};
use tavoliere_tournament::grand_prix::GrandPrixConfig;
use time::OffsetDateTime;

use crate::domain::tournaments::{MyGame, TournamentSummary};
use crate::storage::keyset::After;

/// A tournament row.
#[derive(sqlx::FromRow)]
pub(crate) struct TournamentRow {
    pub(crate) tournament_id: i64,
    pub(crate) name: String,
    pub(crate) description: String,
    pub(crate) season: Option<String>,
    pub(crate) status: String,
    pub(crate) grand_prix: Option<Json<GrandPrixConfig>>,
}

/// A tournament to insert.
pub(crate) struct NewTournamentRow<'a> {
    pub(crate) name: &'a str,
    pub(crate) description: &'a str,
    pub(crate) season: Option<&'a str>,
    pub(crate) grand_prix: Option<&'a GrandPrixConfig>,
    pub(crate) created_by: i64,
    pub(crate) created_at: OffsetDateTime,
}

/// Changes to a tournament row (`None` keeps a column).
#[derive(Default)]
pub(crate) struct TournamentChange<'a> {
    pub(crate) name: Option<&'a str>,
    pub(crate) description: Option<&'a str>,
    pub(crate) season: Option<&'a str>,
    pub(crate) status: Option<&'a str>,
    pub(crate) grand_prix: Option<&'a GrandPrixConfig>,
}

/// Inserts a tournament → its id.
pub(crate) async fn insert(
    tx: &mut Transaction<'_, Postgres>,
    new: &NewTournamentRow<'_>,
) -> sqlx::Result<i64> {
    sqlx::query_scalar(
        r#"insert into tournament (name, description, season, grand_prix, created_by, created_at)
           values ($1, $2, $3, $4, $5, $6) returning tournament_id"#,
    )
    .bind(new.name)
    .bind(new.description)
    .bind(new.season)
    .bind(new.grand_prix.map(Json))
    .bind(new.created_by)
    .bind(new.created_at)
    .fetch_one(&mut **tx)
    .await
}

/// The tournament `tournament_id`.
pub(crate) async fn row(pool: &PgPool, tournament_id: i64) -> sqlx::Result<Option<TournamentRow>> {
    sqlx::query_as::<_, TournamentRow>(
        r#"select tournament_id, name, description, season, status, grand_prix
           from tournament where tournament_id = $1"#,
    )
    .bind(tournament_id)
    .fetch_optional(pool)
    .await
}

/// Whether the tournament exists.
pub(crate) async fn exists(pool: &PgPool, tournament_id: i64) -> sqlx::Result<bool> {
    sqlx::query_scalar("select exists (select 1 from tournament where tournament_id = $1)")
        .bind(tournament_id)
        .fetch_one(pool)
        .await
}

/// The tournament's status, the row locked for update when `lock`.
pub(crate) async fn status(
    executor: impl sqlx::PgExecutor<'_>,
    tournament_id: i64,
    lock: bool,
) -> sqlx::Result<Option<String>> {
    let lock = if lock { " for update" } else { "" };
    sqlx::query_scalar(&format!("select status from tournament where tournament_id = $1{lock}"))
        .bind(tournament_id)
        .fetch_optional(executor)
        .await
}

/// The tournament's name.
pub(crate) async fn name(pool: &PgPool, tournament_id: i64) -> sqlx::Result<String> {
    sqlx::query_scalar("select name from tournament where tournament_id = $1")
        .bind(tournament_id)
        .fetch_one(pool)
        .await
}

/// The filters of the tournament list (all optional).
#[derive(Debug, Default)]
pub(crate) struct TournamentFilter {
    pub(crate) status: Option<&'static str>,
    pub(crate) season: Option<String>,
    /// With a section of this variant.
    pub(crate) variant: Option<String>,
    /// With this account entered in a section.
    pub(crate) player: Option<i64>,
}

/// The tournaments matching `filter` after `after`, newest first by (created_at,
/// tournament_id), at most `limit`.
pub(crate) async fn list(
    pool: &PgPool,
    filter: &TournamentFilter,
    after: Option<After>,
    limit: i64,
) -> sqlx::Result<Vec<TournamentSummary>> {
    let mut query = QueryBuilder::<Postgres>::new(
        "select t.tournament_id as id, t.name, t.season, t.status, t.created_at from tournament t where true",
    );
    if let Some(status) = filter.status {
        query.push(" and t.status = ").push_bind(status);
    }
    if let Some(season) = &filter.season {
        query.push(" and t.season = ").push_bind(season.clone());
    }
    if let Some(variant) = &filter.variant {
        query.push(
            " and exists (select 1 from section s where s.tournament_id = t.tournament_id and s.variant = ",
        );
        query.push_bind(variant.clone()).push(")");
    }
    if let Some(player) = filter.player {
        query.push(
            " and exists (select 1 from entry e join section s using (section_id) \
             where s.tournament_id = t.tournament_id and e.account_id = ",
        );
        query.push_bind(player).push(")");
    }
    if let Some(after) = after {
        after.push_condition(&mut query, "t.created_at", "t.tournament_id");
    }
    query.push(" order by t.created_at desc, t.tournament_id desc limit ").push_bind(limit);
    query.build_query_as::<TournamentSummary>().fetch_all(pool).await
}

/// Changes the tournament's columns that `change` gives.
pub(crate) async fn update(
    tx: &mut Transaction<'_, Postgres>,
    tournament_id: i64,
    change: &TournamentChange<'_>,
) -> sqlx::Result<()> {
    sqlx::query(
        r#"update tournament set name = coalesce($2, name), description = coalesce($3, description),
               season = coalesce($4, season), status = coalesce($5, status),
               grand_prix = coalesce($6, grand_prix)
           where tournament_id = $1"#,
    )
    .bind(tournament_id)
    .bind(change.name)
    .bind(change.description)
    .bind(change.season)
    .bind(change.status)
    .bind(change.grand_prix.map(Json))
    .execute(&mut **tx)
    .await?;
    Ok(())
}

/// Marks a tournament that has not started yet running (a section of it started).
pub(crate) async fn mark_running(tx: &mut Transaction<'_, Postgres>, tournament_id: i64) -> sqlx::Result<()> {
    sqlx::query(
        "update tournament set status = 'running' where tournament_id = $1 and status in ('draft', 'registration')",
    )
    .bind(tournament_id)
    .execute(&mut **tx)
    .await?;
    Ok(())
}

/// Whether `account_id` directs the tournament.
pub(crate) async fn directs(
    executor: impl sqlx::PgExecutor<'_>,
    tournament_id: i64,
    account_id: i64,
) -> sqlx::Result<bool> {
    sqlx::query_scalar(
        "select exists (select 1 from tournament_director where tournament_id = $1 and account_id = $2)",
    )
    .bind(tournament_id)
    .bind(account_id)
    .fetch_one(executor)
    .await
}

/// Makes `account_id` a director of the tournament (nothing when it is one already).
pub(crate) async fn add_director(
    executor: impl sqlx::PgExecutor<'_>,
    tournament_id: i64,
    account_id: i64,
) -> sqlx::Result<()> {
    sqlx::query(
        r#"insert into tournament_director (tournament_id, account_id) values ($1, $2)
           on conflict do nothing"#,
    )
    .bind(tournament_id)
    .bind(account_id)
    .execute(executor)
    .await?;
    Ok(())
}

/// The usernames of the tournament's directors, by name.
pub(crate) async fn directors(pool: &PgPool, tournament_id: i64) -> sqlx::Result<Vec<String>> {
    sqlx::query_scalar(
        r#"select a.username from tournament_director d join account a using (account_id)
           where d.tournament_id = $1 order by a.username"#,
    )
    .bind(tournament_id)
    .fetch_all(pool)
    .await
}

/// The ids of the tournament's sections, oldest first.
pub(crate) async fn section_ids(pool: &PgPool, tournament_id: i64) -> sqlx::Result<Vec<i64>> {
    sqlx::query_scalar("select section_id from section where tournament_id = $1 order by section_id")
        .bind(tournament_id)
        .fetch_all(pool)
        .await
}

/// A section a player is entered in.
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

/// The sections `account_id` is entered in, newest tournament first.
pub(crate) async fn sections_of(pool: &PgPool, account_id: i64) -> sqlx::Result<Vec<MySectionRow>> {
    sqlx::query_as::<_, MySectionRow>(
        r#"select t.tournament_id, t.name as tournament, s.section_id, s.name as section, s.variant,
                  s.status, e.status as entry_status
           from entry e join section s using (section_id) join tournament t using (tournament_id)
           where e.account_id = $1 order by t.tournament_id desc, s.section_id"#,
    )
    .bind(account_id)
    .fetch_all(pool)
    .await
}

/// The games of `account_id` in the section, from its side, by round and board.
pub(crate) async fn games_of_in(
    pool: &PgPool,
    section_id: i64,
    account_id: i64,
) -> sqlx::Result<Vec<MyGame>> {
    sqlx::query_as::<_, MyGame>(
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
    .bind(section_id)
    .bind(account_id)
    .fetch_all(pool)
    .await
}
