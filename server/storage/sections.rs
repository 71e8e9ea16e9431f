//! The stored sections of tournaments: their settings, entries, byes and games, the
//! directors' decisions on those games and their audit trail (the decisions are in
//! `crate::domain::tournaments`).

use sqlx::types::Json;
use sqlx::{PgPool, Postgres, Transaction};
use tavoliere_tournament::standings::TieBreak;
use tavoliere_tournament::{ByePoints, Scoring};
use time::OffsetDateTime;

use crate::domain::time_control::TimeControl;
use crate::domain::tournaments::{CorrectionView, EntryView};
use crate::storage::endings::{GameReason, GameResult, GameStatus};

/// A section row.
#[derive(sqlx::FromRow)]
pub(crate) struct SectionRow {
    pub(crate) section_id: i64,
    pub(crate) tournament_id: i64,
    pub(crate) name: String,
    pub(crate) variant: String,
    pub(crate) ruleset: String,
    pub(crate) time_control: Json<TimeControl>,
    pub(crate) vacation_allowed: bool,
    pub(crate) pairing: String,
    pub(crate) start_policy: String,
    pub(crate) swiss_rounds: Option<i32>,
    pub(crate) scoring: Json<Scoring>,
    pub(crate) bye_points: Json<ByePoints>,
    pub(crate) tie_breaks: Json<Vec<TieBreak>>,
    pub(crate) withdrawal_rule: String,
    pub(crate) status: String,
    pub(crate) current_round: i32,
    /// The handicap of every game (migration 20261126100002).
    pub(crate) handicap: Option<String>,
    /// Rated games, and the draw order by rating (migration 20261127200001).
    pub(crate) rated: bool,
    pub(crate) seeding: String,
    /// The vacation allowance of its games (migration 20261127200002).
    pub(crate) vacation_days: Option<i32>,
    /// The rating limits of self-registration (migration 20261128500001).
    pub(crate) rating_min: Option<i32>,
    pub(crate) rating_max: Option<i32>,
    /// Swiss: the edition of the FIDE (Dutch) System and the acceleration (migration
    /// 20261128300001).
    pub(crate) dutch_edition: String,
    pub(crate) acceleration: String,
}

const SECTION_COLUMNS: &str = r#"section_id, tournament_id, name, variant, ruleset, time_control,
    vacation_allowed, pairing, start_policy, swiss_rounds, scoring, bye_points, tie_breaks, withdrawal_rule,
    status, current_round, handicap, rated, seeding, vacation_days, rating_min, rating_max, dutch_edition,
    acceleration"#;

/// A section to insert, its settings validated and named as stored.
pub(crate) struct NewSectionRow<'a> {
    pub(crate) tournament_id: i64,
    pub(crate) name: &'a str,
    pub(crate) variant: &'a str,
    pub(crate) ruleset: &'a str,
    pub(crate) time_control: TimeControl,
    pub(crate) vacation_allowed: bool,
    pub(crate) pairing: &'a str,
    pub(crate) start_policy: &'a str,
    pub(crate) swiss_rounds: Option<i32>,
    pub(crate) scoring: Scoring,
    pub(crate) tie_breaks: &'a [TieBreak],
    pub(crate) withdrawal_rule: &'a str,
    pub(crate) created_at: OffsetDateTime,
    pub(crate) bye_points: ByePoints,
    pub(crate) handicap: Option<&'a str>,
    pub(crate) rated: bool,
    pub(crate) seeding: &'a str,
    pub(crate) vacation_days: Option<i32>,
    pub(crate) rating_min: Option<i32>,
    pub(crate) rating_max: Option<i32>,
    pub(crate) dutch_edition: &'a str,
    pub(crate) acceleration: &'a str,
}

/// Changes to a section row (`None` keeps a column).
#[derive(Default)]
pub(crate) struct SectionChange<'a> {
    pub(crate) name: Option<&'a str>,
    pub(crate) ruleset: Option<&'a str>,
    pub(crate) time_control: Option<TimeControl>,
    pub(crate) vacation_allowed: Option<bool>,
    pub(crate) start_policy: Option<&'a str>,
    pub(crate) swiss_rounds: Option<i32>,
    pub(crate) scoring: Option<Scoring>,
    pub(crate) tie_breaks: Option<&'a [TieBreak]>,
    pub(crate) withdrawal_rule: Option<&'a str>,
    pub(crate) status: Option<&'a str>,
    pub(crate) bye_points: Option<ByePoints>,
    /// `Some(None)` removes the handicap.
    pub(crate) handicap: Option<Option<&'a str>>,
    pub(crate) rated: Option<bool>,
    pub(crate) seeding: Option<&'a str>,
    /// `Some(None)` removes the allowance.
    pub(crate) vacation_days: Option<Option<i32>>,
    /// `Some(None)` removes the limit.
    pub(crate) rating_min: Option<Option<i32>>,
    /// `Some(None)` removes the limit.
    pub(crate) rating_max: Option<Option<i32>>,
    pub(crate) dutch_edition: Option<&'a str>,
    pub(crate) acceleration: Option<&'a str>,
}

/// The section `section_id`, locked for update when `lock`.
pub(crate) async fn section(
    executor: impl sqlx::PgExecutor<'_>,
    section_id: i64,
    lock: bool,
) -> sqlx::Result<Option<SectionRow>> {
    let lock = if lock { " for update" } else { "" };
    sqlx::query_as::<_, SectionRow>(&format!(
        "select {SECTION_COLUMNS} from section where section_id = $1{lock}"
    ))
    .bind(section_id)
    .fetch_optional(executor)
    .await
}

/// Inserts a section → its id.
pub(crate) async fn insert(
    executor: impl sqlx::PgExecutor<'_>,
    new: &NewSectionRow<'_>,
) -> sqlx::Result<i64> {
    sqlx::query_scalar(
        r#"insert into section (tournament_id, name, variant, ruleset, time_control, vacation_allowed,
               pairing, start_policy, swiss_rounds, scoring, tie_breaks, withdrawal_rule, created_at, bye_points,
               handicap, rated, seeding, vacation_days, rating_min, rating_max, dutch_edition, acceleration)
           values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20,
               $21, $22)
           returning section_id"#,
    )
    .bind(new.tournament_id)
    .bind(new.name)
    .bind(new.variant)
    .bind(new.ruleset)
    .bind(Json(new.time_control))
    .bind(new.vacation_allowed)
    .bind(new.pairing)
    .bind(new.start_policy)
    .bind(new.swiss_rounds)
    .bind(Json(new.scoring))
    .bind(Json(new.tie_breaks))
    .bind(new.withdrawal_rule)
    .bind(new.created_at)
    .bind(Json(new.bye_points))
    .bind(new.handicap)
    .bind(new.rated)
    .bind(new.seeding)
    .bind(new.vacation_days)
    .bind(new.rating_min)
    .bind(new.rating_max)
    .bind(new.dutch_edition)
    .bind(new.acceleration)
    .fetch_one(executor)
    .await
}

/// Changes the section's columns that `change` gives.
pub(crate) async fn update(
    tx: &mut Transaction<'_, Postgres>,
    section_id: i64,
    change: &SectionChange<'_>,
) -> sqlx::Result<()> {
    sqlx::query(
        r#"update section set name = coalesce($2, name), ruleset = coalesce($3, ruleset),
               time_control = coalesce($4, time_control), vacation_allowed = coalesce($5, vacation_allowed),
               start_policy = coalesce($6, start_policy), swiss_rounds = coalesce($7, swiss_rounds),
               scoring = coalesce($8, scoring), tie_breaks = coalesce($9, tie_breaks),
               withdrawal_rule = coalesce($10, withdrawal_rule), status = coalesce($11, status),
               bye_points = coalesce($12, bye_points),
               handicap = case when $13 then $14 else handicap end,
               rated = coalesce($15, rated), seeding = coalesce($16, seeding),
               vacation_days = case when $17 then $18 else vacation_days end,
               rating_min = case when $19 then $20 else rating_min end,
               rating_max = case when $21 then $22 else rating_max end,
               dutch_edition = coalesce($23, dutch_edition), acceleration = coalesce($24, acceleration)
           where section_id = $1"#,
    )
    .bind(section_id)
    .bind(change.name)
    .bind(change.ruleset)
    .bind(change.time_control.map(Json))
    .bind(change.vacation_allowed)
    .bind(change.start_policy)
    .bind(change.swiss_rounds)
    .bind(change.scoring.map(Json))
    .bind(change.tie_breaks.map(Json))
    .bind(change.withdrawal_rule)
    .bind(change.status)
    .bind(change.bye_points.map(Json))
    .bind(change.handicap.is_some())
    .bind(change.handicap.flatten())
    .bind(change.rated)
    .bind(change.seeding)
    .bind(change.vacation_days.is_some())
    .bind(change.vacation_days.flatten())
    .bind(change.rating_min.is_some())
    .bind(change.rating_min.flatten())
    .bind(change.rating_max.is_some())
    .bind(change.rating_max.flatten())
    .bind(change.dutch_edition)
    .bind(change.acceleration)
    .execute(&mut **tx)
    .await?;
    Ok(())
}

/// Gives a game just made for a section the section's vacation allowance.
pub(crate) async fn set_game_vacation_days(
    tx: &mut Transaction<'_, Postgres>,
    game_id: i64,
    days: i32,
) -> sqlx::Result<()> {
    sqlx::query("update game set vacation_days = $2 where game_id = $1")
        .bind(game_id)
        .bind(days)
        .execute(&mut **tx)
        .await?;
    Ok(())
}

/// Marks the section running (or a later round paired): its last round with games.
pub(crate) async fn set_round(
    tx: &mut Transaction<'_, Postgres>,
    section_id: i64,
    current_round: i32,
) -> sqlx::Result<()> {
    sqlx::query("update section set status = 'running', current_round = $2 where section_id = $1")
        .bind(section_id)
        .bind(current_round)
        .execute(&mut **tx)
        .await?;
    Ok(())
}

/// The section's entries in draw order (seed, then registration), with each player's
/// rating in `variant` and `pool` (rounded).
pub(crate) async fn entries(
    pool: &PgPool,
    section_id: i64,
    variant: &str,
    rating_pool: &str,
) -> sqlx::Result<Vec<EntryView>> {
    sqlx::query_as::<_, EntryView>(
        r#"select a.username, e.seed, e.status, round(r.rating)::integer as rating
           from entry e join account a using (account_id)
           left join rating r on r.account_id = e.account_id and r.variant = $2 and r.pool = $3
           where e.section_id = $1
           order by e.seed asc nulls last, e.registered_at, e.account_id"#,
    )
    .bind(section_id)
    .bind(variant)
    .bind(rating_pool)
    .fetch_all(pool)
    .await
}

/// The section's players (id, username, rating in `variant` and `pool` rounded) in draw
/// order.
pub(crate) async fn players(
    pool: &PgPool,
    section_id: i64,
    variant: &str,
    rating_pool: &str,
) -> sqlx::Result<Vec<(i64, String, Option<i32>)>> {
    sqlx::query_as(
        r#"select e.account_id, a.username, round(r.rating)::integer
           from entry e join account a using (account_id)
           left join rating r on r.account_id = e.account_id and r.variant = $2 and r.pool = $3
           where e.section_id = $1 order by e.seed asc nulls last, e.registered_at, e.account_id"#,
    )
    .bind(section_id)
    .bind(variant)
    .bind(rating_pool)
    .fetch_all(pool)
    .await
}

/// Seeds the entries by rating in `variant` and `pool` (best first; players without a
/// rating there after them, in order of registration): the draw order of a section
/// seeded by rating, fixed at its start.
pub(crate) async fn seed_by_rating(
    tx: &mut Transaction<'_, Postgres>,
    section_id: i64,
    variant: &str,
    rating_pool: &str,
) -> sqlx::Result<()> {
    sqlx::query(
        r#"update entry e set seed = ranked.n
           from (select e.account_id,
                        row_number() over (order by r.rating desc nulls last, e.registered_at, e.account_id) as n
                 from entry e
                 left join rating r on r.account_id = e.account_id and r.variant = $2 and r.pool = $3
                 where e.section_id = $1) ranked
           where e.section_id = $1 and e.account_id = ranked.account_id"#,
    )
    .bind(section_id)
    .bind(variant)
    .bind(rating_pool)
    .execute(&mut **tx)
    .await?;
    Ok(())
}

/// The current rating of `account_id` in `variant` and `pool`, rounded (`None` before
/// their first rated game there).
pub(crate) async fn rating_of(
    executor: impl sqlx::PgExecutor<'_>,
    account_id: i64,
    variant: &str,
    rating_pool: &str,
) -> sqlx::Result<Option<i32>> {
    sqlx::query_scalar(
        r#"select round(rating)::integer from rating where account_id = $1 and variant = $2 and pool = $3"#,
    )
    .bind(account_id)
    .bind(variant)
    .bind(rating_pool)
    .fetch_optional(executor)
    .await
}

/// The entered accounts in draw order: the active ones, or all (`all`).
pub(crate) async fn entered(
    tx: &mut Transaction<'_, Postgres>,
    section_id: i64,
    all: bool,
) -> sqlx::Result<Vec<i64>> {
    sqlx::query_scalar(
        r#"select account_id from entry where section_id = $1 and ($2 or status = 'active')
           order by seed asc nulls last, registered_at, account_id"#,
    )
    .bind(section_id)
    .bind(all)
    .fetch_all(&mut **tx)
    .await
}

/// The accounts that have withdrawn from the section.
pub(crate) async fn withdrawn(
    executor: impl sqlx::PgExecutor<'_>,
    section_id: i64,
) -> sqlx::Result<Vec<i64>> {
    sqlx::query_scalar("select account_id from entry where section_id = $1 and status = 'withdrawn'")
        .bind(section_id)
        .fetch_all(executor)
        .await
}

/// Enters `account_id` → whether it was not entered yet.
pub(crate) async fn insert_entry(
    tx: &mut Transaction<'_, Postgres>,
    section_id: i64,
    account_id: i64,
    seed: Option<i32>,
    now: OffsetDateTime,
) -> sqlx::Result<bool> {
    let inserted = sqlx::query(
        r#"insert into entry (section_id, account_id, seed, registered_at) values ($1, $2, $3, $4)
           on conflict do nothing"#,
    )
    .bind(section_id)
    .bind(account_id)
    .bind(seed)
    .bind(now)
    .execute(&mut **tx)
    .await?;
    Ok(inserted.rows_affected() > 0)
}

/// The entered account named `username` (any case).
pub(crate) async fn entry_account(
    tx: &mut Transaction<'_, Postgres>,
    section_id: i64,
    username: &str,
) -> sqlx::Result<Option<i64>> {
    sqlx::query_scalar(
        r#"select e.account_id from entry e join account a using (account_id)
           where e.section_id = $1 and lower(a.username) = lower($2)"#,
    )
    .bind(section_id)
    .bind(username)
    .fetch_optional(&mut **tx)
    .await
}

/// Sets an entry's seed.
pub(crate) async fn set_seed(
    tx: &mut Transaction<'_, Postgres>,
    section_id: i64,
    account_id: i64,
    seed: Option<i32>,
) -> sqlx::Result<()> {
    sqlx::query("update entry set seed = $3 where section_id = $1 and account_id = $2")
        .bind(section_id)
        .bind(account_id)
        .bind(seed)
        .execute(&mut **tx)
        .await?;
    Ok(())
}

/// Removes an entry (before the section starts).
pub(crate) async fn delete_entry(
    tx: &mut Transaction<'_, Postgres>,
    section_id: i64,
    account_id: i64,
) -> sqlx::Result<()> {
    sqlx::query("delete from entry where section_id = $1 and account_id = $2")
        .bind(section_id)
        .bind(account_id)
        .execute(&mut **tx)
        .await?;
    Ok(())
}

/// Marks an active entry withdrawn → whether it was active.
pub(crate) async fn withdraw_entry(
    tx: &mut Transaction<'_, Postgres>,
    section_id: i64,
    account_id: i64,
    now: OffsetDateTime,
) -> sqlx::Result<bool> {
    let updated = sqlx::query(
        r#"update entry set status = 'withdrawn', withdrawn_at = $3
           where section_id = $1 and account_id = $2 and status = 'active'"#,
    )
    .bind(section_id)
    .bind(account_id)
    .bind(now)
    .execute(&mut **tx)
    .await?;
    Ok(updated.rows_affected() > 0)
}

/// Records a Swiss bye.
pub(crate) async fn insert_bye(
    tx: &mut Transaction<'_, Postgres>,
    section_id: i64,
    round: i32,
    account_id: i64,
) -> sqlx::Result<()> {
    sqlx::query("insert into section_bye (section_id, round, account_id) values ($1, $2, $3)")
        .bind(section_id)
        .bind(round)
        .bind(account_id)
        .execute(&mut **tx)
        .await?;
    Ok(())
}

/// The section's byes: (round, account), by round.
pub(crate) async fn byes(
    executor: impl sqlx::PgExecutor<'_>,
    section_id: i64,
) -> sqlx::Result<Vec<(i32, i64)>> {
    sqlx::query_as("select round, account_id from section_bye where section_id = $1 order by round")
        .bind(section_id)
        .fetch_all(executor)
        .await
}

/// A section game as stored.
#[derive(Debug, Clone, sqlx::FromRow)]
pub(crate) struct SectionGame {
    pub(crate) game_id: i64,
    pub(crate) round: i32,
    pub(crate) status: GameStatus,
    pub(crate) result: Option<GameResult>,
    pub(crate) reason: Option<GameReason>,
    pub(crate) tournament_result: Option<String>,
    pub(crate) first_id: i64,
    pub(crate) second_id: i64,
    pub(crate) tournament_id: Option<i64>,
}

const SECTION_GAME_COLUMNS: &str = r#"g.game_id, coalesce(g.round, 0) as round, g.status, g.result, g.reason,
    g.tournament_result, g.tournament_id,
    (select account_id from game_seat where game_id = g.game_id and seat = 0) as first_id,
    (select account_id from game_seat where game_id = g.game_id and seat = 1) as second_id"#;

/// The section's games by round and board.
pub(crate) async fn games(
    executor: impl sqlx::PgExecutor<'_>,
    section_id: i64,
) -> sqlx::Result<Vec<SectionGame>> {
    sqlx::query_as::<_, SectionGame>(&format!(
        "select {SECTION_GAME_COLUMNS} from game g where g.section_id = $1 order by g.round, g.board, g.game_id"
    ))
    .bind(section_id)
    .fetch_all(executor)
    .await
}

/// A game (of a tournament or not) locked for a director's decision.
pub(crate) async fn lock_game(
    tx: &mut Transaction<'_, Postgres>,
    game_id: i64,
) -> sqlx::Result<Option<SectionGame>> {
    sqlx::query_as::<_, SectionGame>(&format!(
        "select {SECTION_GAME_COLUMNS} from game g where g.game_id = $1 for update"
    ))
    .bind(game_id)
    .fetch_optional(&mut **tx)
    .await
}

/// Links a new game to its tournament, section, round and board.
pub(crate) async fn place_game(
    tx: &mut Transaction<'_, Postgres>,
    game_id: i64,
    tournament_id: i64,
    section_id: i64,
    round: i32,
    board: i32,
) -> sqlx::Result<()> {
    sqlx::query(
        r#"update game set tournament_id = $2, section_id = $3, round = $4, board = $5
           where game_id = $1"#,
    )
    .bind(game_id)
    .bind(tournament_id)
    .bind(section_id)
    .bind(round)
    .bind(board)
    .execute(&mut **tx)
    .await?;
    Ok(())
}

/// Stores a director's result (its stored name) on the game.
pub(crate) async fn store_decision(
    tx: &mut Transaction<'_, Postgres>,
    game_id: i64,
    result: &str,
) -> sqlx::Result<()> {
    sqlx::query("update game set tournament_result = $2 where game_id = $1")
        .bind(game_id)
        .bind(result)
        .execute(&mut **tx)
        .await?;
    Ok(())
}

/// One entry of a result's audit trail, to insert.
pub(crate) struct AuditEntry<'a> {
    pub(crate) game_id: i64,
    pub(crate) changed_by: i64,
    pub(crate) changed_at: OffsetDateTime,
    pub(crate) kind: &'a str,
    pub(crate) old_result: &'a str,
    pub(crate) new_result: &'a str,
    pub(crate) reason: &'a str,
}

/// Records a change of a result in the audit trail.
pub(crate) async fn insert_audit(
    tx: &mut Transaction<'_, Postgres>,
    entry: &AuditEntry<'_>,
) -> sqlx::Result<()> {
    sqlx::query(
        r#"insert into result_correction (game_id, changed_by, changed_at, kind, old_result, new_result, reason)
           values ($1, $2, $3, $4, $5, $6, $7)"#,
    )
    .bind(entry.game_id)
    .bind(entry.changed_by)
    .bind(entry.changed_at)
    .bind(entry.kind)
    .bind(entry.old_result)
    .bind(entry.new_result)
    .bind(entry.reason)
    .execute(&mut **tx)
    .await?;
    Ok(())
}

/// The audit trail of a game's result, oldest first.
pub(crate) async fn corrections(pool: &PgPool, game_id: i64) -> sqlx::Result<Vec<CorrectionView>> {
    sqlx::query_as::<_, CorrectionView>(
        r#"select a.username as changed_by, c.changed_at, c.kind, c.old_result, c.new_result, c.reason
           from result_correction c join account a on a.account_id = c.changed_by
           where c.game_id = $1 order by c.changed_at, c.result_correction_id"#,
    )
    .bind(game_id)
    .fetch_all(pool)
    .await
}

/// A section game as the rounds list shows it.
#[derive(Debug, Clone, sqlx::FromRow)]
pub(crate) struct RoundGameRow {
    pub(crate) game_id: i64,
    pub(crate) round: i32,
    pub(crate) board: i32,
    pub(crate) first: String,
    pub(crate) second: String,
    pub(crate) status: GameStatus,
    pub(crate) ply: i32,
    pub(crate) to_move: Option<String>,
    pub(crate) deadline: Option<OffsetDateTime>,
    pub(crate) result: Option<GameResult>,
    pub(crate) reason: Option<GameReason>,
    pub(crate) tournament_result: Option<String>,
    pub(crate) draw_offer: bool,
}

/// The section's games with their players, state and deadline, by round and board.
pub(crate) async fn round_games(pool: &PgPool, section_id: i64) -> sqlx::Result<Vec<RoundGameRow>> {
    sqlx::query_as::<_, RoundGameRow>(
        r#"select g.game_id, coalesce(g.round, 0) as round, coalesce(g.board, 0) as board,
                  coalesce(fa.username, f.player_name, '') as first,
                  coalesce(sa.username, s.player_name, '') as second,
                  g.status, g.current_ply as ply,
                  case when g.status = 'active' then ta.username end as to_move,
                  case when g.status = 'active' then g.deadline end as deadline,
                  g.result, g.reason, g.tournament_result,
                  g.draw_offer_seat is not null as draw_offer
           from game g
           join game_seat f on f.game_id = g.game_id and f.seat = 0
           left join account fa on fa.account_id = f.account_id
           join game_seat s on s.game_id = g.game_id and s.seat = 1
           left join account sa on sa.account_id = s.account_id
           left join game_seat t on t.game_id = g.game_id and t.seat = g.turn_seat
           left join account ta on ta.account_id = t.account_id
           where g.section_id = $1 order by g.round, g.board, g.game_id"#,
    )
    .bind(section_id)
    .fetch_all(pool)
    .await
}

/// The section's byes by round: (round, username).
pub(crate) async fn bye_names(pool: &PgPool, section_id: i64) -> sqlx::Result<Vec<(i32, String)>> {
    sqlx::query_as(
        r#"select b.round, a.username from section_bye b join account a using (account_id)
           where b.section_id = $1 order by b.round"#,
    )
    .bind(section_id)
    .fetch_all(pool)
    .await
}
