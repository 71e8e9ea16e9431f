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

/// The tournament `tournament_id` as the list shows it.
pub(crate) async fn summary(pool: &PgPool, tournament_id: i64) -> sqlx::Result<Option<TournamentSummary>> {
    sqlx::query_as::<_, TournamentSummary>(
        "select tournament_id as id, name, season, status, created_at from tournament where tournament_id = $1",
    )
    .bind(tournament_id)
    .fetch_optional(pool)
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
                  (g.status = 'active' and g.turn_seat = mine.seat) as your_turn,
                  case when g.status = 'active' then g.deadline end as deadline
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

/// Makes `account_id` follow the tournament (nothing when it does already).
pub(crate) async fn follow(
    pool: &PgPool,
    tournament_id: i64,
    account_id: i64,
    now: OffsetDateTime,
) -> sqlx::Result<()> {
    sqlx::query(
        r#"insert into tournament_follower (tournament_id, account_id, followed_at) values ($1, $2, $3)
           on conflict do nothing"#,
    )
    .bind(tournament_id)
    .bind(account_id)
    .bind(now)
    .execute(pool)
    .await?;
    Ok(())
}

/// Stops `account_id` following the tournament.
pub(crate) async fn unfollow(pool: &PgPool, tournament_id: i64, account_id: i64) -> sqlx::Result<()> {
    sqlx::query("delete from tournament_follower where tournament_id = $1 and account_id = $2")
        .bind(tournament_id)
        .bind(account_id)
        .execute(pool)
        .await?;
    Ok(())
}

/// Whether `account_id` follows the tournament.
pub(crate) async fn follows(pool: &PgPool, tournament_id: i64, account_id: i64) -> sqlx::Result<bool> {
    sqlx::query_scalar(
        "select exists (select 1 from tournament_follower where tournament_id = $1 and account_id = $2)",
    )
    .bind(tournament_id)
    .bind(account_id)
    .fetch_one(pool)
    .await
}

/// Tells the tournament's followers that its registration opened, in the transaction that
/// opened it.
pub(crate) async fn notify_registration_open(
    tx: &mut Transaction<'_, Postgres>,
    tournament_id: i64,
    now: OffsetDateTime,
) -> sqlx::Result<()> {
    sqlx::query(
        r#"insert into notification (account_id, kind, tournament_id, details, created_at)
           select f.account_id, 'registration-open', t.tournament_id,
               jsonb_build_object('tournament', t.name), $2
           from tournament_follower f join tournament t using (tournament_id)
           where f.tournament_id = $1"#,
    )
    .bind(tournament_id)
    .bind(now)
    .execute(&mut **tx)
    .await?;
    Ok(())
}

/// A director's announcement on a tournament's page.
#[derive(Debug, sqlx::FromRow)]
pub(crate) struct AnnouncementRow {
    pub(crate) author: String,
    pub(crate) body: String,
    pub(crate) created_at: OffsetDateTime,
}

/// How many announcements the tournament has made since `since`.
pub(crate) async fn announcements_since(
    tx: &mut Transaction<'_, Postgres>,
    tournament_id: i64,
    since: OffsetDateTime,
) -> sqlx::Result<i64> {
    sqlx::query_scalar(
        "select count(*) from tournament_announcement where tournament_id = $1 and created_at > $2",
    )
    .bind(tournament_id)
    .bind(since)
    .fetch_one(&mut **tx)
    .await
}

/// Stores an announcement and, in the same statement, its `announcement` notice to the
/// tournament's active entrants and followers (each once; not its author).
pub(crate) async fn announce(
    tx: &mut Transaction<'_, Postgres>,
    tournament_id: i64,
    author_id: i64,
    body: &str,
    now: OffsetDateTime,
) -> sqlx::Result<()> {
    sqlx::query(
        r#"with made as (
               insert into tournament_announcement (tournament_id, author_id, body, created_at)
               values ($1, $2, $3, $4)
               returning tournament_id
           )
           insert into notification (account_id, kind, tournament_id, details, created_at)
           select who.account_id, 'announcement', t.tournament_id,
               jsonb_build_object('tournament', t.name, 'text', $3::text), $4
           from made
           join tournament t using (tournament_id)
           join lateral (
               select e.account_id from entry e join section s using (section_id)
               where s.tournament_id = t.tournament_id and e.status = 'active'
               union
               select f.account_id from tournament_follower f where f.tournament_id = t.tournament_id
           ) who on true
           where who.account_id <> $2"#,
    )
    .bind(tournament_id)
    .bind(author_id)
    .bind(body)
    .bind(now)
    .execute(&mut **tx)
    .await?;
    Ok(())
}

/// The tournament's latest `limit` announcements, newest first.
pub(crate) async fn announcements(
    pool: &PgPool,
    tournament_id: i64,
    limit: i64,
) -> sqlx::Result<Vec<AnnouncementRow>> {
    sqlx::query_as::<_, AnnouncementRow>(
        r#"select a.username as author, n.body, n.created_at
           from tournament_announcement n join account a on a.account_id = n.author_id
           where n.tournament_id = $1
           order by n.created_at desc, n.announcement_id desc
           limit $2"#,
    )
    .bind(tournament_id)
    .bind(limit)
    .fetch_all(pool)
    .await
}

/// Notes every round of the section whose games all have their result (finished, or
/// decided by a director) and was not noted yet, and tells the section's active players
/// and the tournament's followers that its results are final, in one statement: the
/// primary key of `round_final` lets one caller note a round, however many instances look
/// at once. Returns the rounds noted.
pub(crate) async fn note_final_rounds(
    pool: &PgPool,
    section_id: i64,
    now: OffsetDateTime,
) -> sqlx::Result<Vec<i32>> {
    sqlx::query_scalar(
        r#"with noted as (
               insert into round_final (section_id, round, noted_at)
               select g.section_id, g.round, $2 from game g
               where g.section_id = $1 and g.round is not null
               group by g.section_id, g.round
               having bool_and(g.status = 'finished' or g.tournament_result is not null)
               on conflict do nothing
               returning section_id, round
           ),
           told as (
               insert into notification (account_id, kind, tournament_id, details, created_at)
               select who.account_id, 'round-finished', s.tournament_id,
                   jsonb_build_object('tournament', t.name, 'section', s.name, 'section_id',
                       s.section_id, 'round', noted.round),
                   $2
               from noted
               join section s on s.section_id = noted.section_id
               join tournament t on t.tournament_id = s.tournament_id
               join lateral (
                   select e.account_id from entry e where e.section_id = s.section_id and e.status = 'active'
                   union
                   select f.account_id from tournament_follower f where f.tournament_id = s.tournament_id
               ) who on true
           )
           select round from noted order by round"#,
    )
    .bind(section_id)
    .bind(now)
    .fetch_all(pool)
    .await
}

/// The section of a tournament game (`None` for a casual game).
pub(crate) async fn section_of_game(pool: &PgPool, game_id: i64) -> sqlx::Result<Option<i64>> {
    Ok(sqlx::query_scalar::<_, Option<i64>>("select section_id from game where game_id = $1")
        .bind(game_id)
        .fetch_optional(pool)
        .await?
        .flatten())
}

/// Where a tournament game belongs: its tournament, section and round.
#[derive(Debug, sqlx::FromRow)]
pub(crate) struct GamePlaceRow {
    pub(crate) tournament_id: i64,
    pub(crate) tournament: String,
    pub(crate) section_id: i64,
    pub(crate) section: String,
    pub(crate) round: i32,
}

/// The tournament, section and round of game `game_id` (`None` for a casual game).
pub(crate) async fn game_place(pool: &PgPool, game_id: i64) -> sqlx::Result<Option<GamePlaceRow>> {
    sqlx::query_as::<_, GamePlaceRow>(
        r#"select t.tournament_id, t.name as tournament, s.section_id, s.name as section,
                  coalesce(g.round, 0) as round
           from game g join section s on s.section_id = g.section_id
           join tournament t on t.tournament_id = s.tournament_id
           where g.game_id = $1"#,
    )
    .bind(game_id)
    .fetch_optional(pool)
    .await
}

/// A section as the list of tournaments shows it.
#[derive(Debug, sqlx::FromRow)]
pub(crate) struct SectionSummaryRow {
    pub(crate) tournament_id: i64,
    pub(crate) section_id: i64,
    pub(crate) name: String,
    pub(crate) variant: String,
    pub(crate) time_control: Json<crate::domain::time_control::TimeControl>,
    pub(crate) entrants: i64,
}

/// The sections of `tournaments` with their number of active entrants, by tournament and
/// section.
pub(crate) async fn section_summaries(
    pool: &PgPool,
    tournaments: &[i64],
) -> sqlx::Result<Vec<SectionSummaryRow>> {
    sqlx::query_as::<_, SectionSummaryRow>(
        r#"select s.tournament_id, s.section_id, s.name, s.variant, s.time_control,
                  (select count(*) from entry e where e.section_id = s.section_id and e.status = 'active')
                      as entrants
           from section s where s.tournament_id = any($1)
           order by s.tournament_id, s.section_id"#,
    )
    .bind(tournaments)
    .fetch_all(pool)
    .await
}

/// When the games of each of `tournaments` began and ended: (tournament, first game's
/// start, last result), for the tournaments with games.
pub(crate) async fn game_dates(
    pool: &PgPool,
    tournaments: &[i64],
) -> sqlx::Result<Vec<(i64, OffsetDateTime, Option<OffsetDateTime>)>> {
    sqlx::query_as(
        r#"select s.tournament_id, min(g.created_at), max(g.finished_at)
           from section s join game g on g.section_id = s.section_id
           where s.tournament_id = any($1) group by s.tournament_id"#,
    )
    .bind(tournaments)
    .fetch_all(pool)
    .await
}
