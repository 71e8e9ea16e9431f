//! The stored challenges and the seats taken in them (the decisions are in
//! `crate::domain::challenges`).

use sqlx::types::Json;
use sqlx::{PgPool, Postgres, QueryBuilder, Transaction};
use time::OffsetDateTime;

use crate::domain::challenges::ChallengeView;
use crate::domain::time_control::TimeControl;
use crate::storage::keyset::After;

/// A challenge as accepting reads it.
#[derive(sqlx::FromRow)]
pub(crate) struct ChallengeRow {
    pub(crate) challenger_id: i64,
    pub(crate) opponent_id: Option<i64>,
    pub(crate) variant: String,
    pub(crate) ruleset: String,
    pub(crate) handicap: Option<String>,
    pub(crate) start_position: Option<String>,
    pub(crate) challenger_seat: String,
    pub(crate) time_control: Json<TimeControl>,
    pub(crate) vacation_allowed: bool,
    pub(crate) status: String,
    pub(crate) seat_count: i32,
    pub(crate) rated: bool,
}

/// A challenge to insert.
pub(crate) struct NewChallengeRow<'a> {
    pub(crate) challenger_id: i64,
    pub(crate) opponent_id: Option<i64>,
    pub(crate) variant: &'a str,
    pub(crate) ruleset: &'a str,
    pub(crate) handicap: Option<&'a str>,
    pub(crate) start_position: Option<&'a str>,
    pub(crate) seat_count: i32,
    pub(crate) challenger_seat: &'a str,
    pub(crate) time_control: TimeControl,
    pub(crate) vacation_allowed: bool,
    pub(crate) created_at: OffsetDateTime,
    pub(crate) rated: bool,
    /// The finished game this challenge offers to play again (issue 37 §5).
    pub(crate) rematch_of: Option<i64>,
}

/// The rematch offered after a game: the latest challenge made for it.
#[derive(Clone, Debug, sqlx::FromRow)]
pub(crate) struct RematchRow {
    pub(crate) challenge_id: i64,
    pub(crate) challenger_id: i64,
    pub(crate) challenger: String,
    pub(crate) status: String,
    pub(crate) game_id: Option<i64>,
}

/// The latest rematch challenge made after `game_id`, if any.
pub(crate) async fn rematch_of(
    executor: impl sqlx::PgExecutor<'_>,
    game_id: i64,
) -> sqlx::Result<Option<RematchRow>> {
    sqlx::query_as(
        r#"select c.challenge_id, c.challenger_id, a.username as challenger, c.status, c.game_id
           from challenge c join account a on a.account_id = c.challenger_id
           where c.rematch_of = $1 order by c.challenge_id desc limit 1"#,
    )
    .bind(game_id)
    .fetch_optional(executor)
    .await
}

const CHALLENGE_VIEW: &str = r#"select c.challenge_id as id, ch.username as challenger,
    op.username as opponent, c.variant, c.ruleset, c.handicap, c.start_position, c.seat_count,
    c.challenger_seat as color, c.time_control, c.vacation_allowed, c.status, c.game_id,
    c.created_at, c.rated,
    array[ch.username] || array(select a.username from challenge_entrant e
        join account a using (account_id) where e.challenge_id = c.challenge_id
        order by e.joined_at, a.username) as entrants
    from challenge c join account ch on ch.account_id = c.challenger_id
    left join account op on op.account_id = c.opponent_id"#;

/// Inserts a challenge → its id.
pub(crate) async fn insert(
    executor: impl sqlx::PgExecutor<'_>,
    new: &NewChallengeRow<'_>,
) -> sqlx::Result<i64> {
    sqlx::query_scalar(
        r#"insert into challenge (challenger_id, opponent_id, variant, ruleset, handicap,
               seat_count, challenger_seat, time_control, vacation_allowed, created_at, start_position,
               rated, rematch_of)
           values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)
           returning challenge_id"#,
    )
    .bind(new.challenger_id)
    .bind(new.opponent_id)
    .bind(new.variant)
    .bind(new.ruleset)
    .bind(new.handicap)
    .bind(new.seat_count)
    .bind(new.challenger_seat)
    .bind(Json(new.time_control))
    .bind(new.vacation_allowed)
    .bind(new.created_at)
    .bind(new.start_position)
    .bind(new.rated)
    .bind(new.rematch_of)
    .fetch_one(executor)
    .await
}

/// One challenge as clients see it.
pub(crate) async fn view(
    executor: impl sqlx::PgExecutor<'_>,
    challenge_id: i64,
) -> sqlx::Result<Option<ChallengeView>> {
    sqlx::query_as::<_, ChallengeView>(&format!("{CHALLENGE_VIEW} where c.challenge_id = $1"))
        .bind(challenge_id)
        .fetch_optional(executor)
        .await
}

/// The open challenges `account_id` may accept or has made, newest first (at most 200).
pub(crate) async fn open_for(pool: &PgPool, account_id: i64) -> sqlx::Result<Vec<ChallengeView>> {
    sqlx::query_as::<_, ChallengeView>(&format!(
        "{CHALLENGE_VIEW} where c.status = 'open' and (c.opponent_id is null \
         or c.opponent_id = $1 or c.challenger_id = $1) order by c.challenge_id desc limit 200"
    ))
    .bind(account_id)
    .fetch_all(pool)
    .await
}

/// The filters of the open challenges' list (all optional).
#[derive(Debug, Default)]
pub(crate) struct ChallengeFilter {
    /// Who reads: besides the open challenges addressed to nobody, those addressed to or
    /// made by this account (a visitor sees the lobby's alone).
    pub(crate) viewer: Option<i64>,
    pub(crate) variant: Option<String>,
    pub(crate) rated: Option<bool>,
    pub(crate) challenger: Option<i64>,
}

/// The open challenges matching `filter` after `after`, newest first by (created_at,
/// challenge_id), at most `limit`.
pub(crate) async fn open_page(
    pool: &PgPool,
    filter: &ChallengeFilter,
    after: Option<After>,
    limit: i64,
) -> sqlx::Result<Vec<ChallengeView>> {
    let mut query = QueryBuilder::<Postgres>::new(format!("{CHALLENGE_VIEW} where c.status = 'open'"));
    match filter.viewer {
        Some(viewer) => {
            query.push(" and (c.opponent_id is null or c.opponent_id = ").push_bind(viewer);
            query.push(" or c.challenger_id = ").push_bind(viewer).push(")");
        }
        None => {
            query.push(" and c.opponent_id is null");
        }
    }
    if let Some(variant) = &filter.variant {
        query.push(" and c.variant = ").push_bind(variant.clone());
    }
    if let Some(rated) = filter.rated {
        query.push(" and c.rated = ").push_bind(rated);
    }
    if let Some(challenger) = filter.challenger {
        query.push(" and c.challenger_id = ").push_bind(challenger);
    }
    if let Some(after) = after {
        after.push_condition(&mut query, "c.created_at", "c.challenge_id");
    }
    query.push(" order by c.created_at desc, c.challenge_id desc limit ").push_bind(limit);
    query.build_query_as::<ChallengeView>().fetch_all(pool).await
}

/// Locks a challenge for accepting it.
pub(crate) async fn lock(
    tx: &mut Transaction<'_, Postgres>,
    challenge_id: i64,
) -> sqlx::Result<Option<ChallengeRow>> {
    sqlx::query_as::<_, ChallengeRow>(
        r#"select challenger_id, opponent_id, variant, ruleset, handicap, start_position, challenger_seat,
                  time_control, vacation_allowed, status, seat_count, rated
           from challenge where challenge_id = $1 for update"#,
    )
    .bind(challenge_id)
    .fetch_optional(&mut **tx)
    .await
}

/// Locks a challenge and reads who made it, for whom, and its status.
pub(crate) async fn lock_parties(
    tx: &mut Transaction<'_, Postgres>,
    challenge_id: i64,
) -> sqlx::Result<Option<(i64, Option<i64>, String)>> {
    sqlx::query_as(
        r#"select challenger_id, opponent_id, status from challenge
           where challenge_id = $1 for update"#,
    )
    .bind(challenge_id)
    .fetch_optional(&mut **tx)
    .await
}

/// The accounts that took a seat besides the challenger, first come first.
pub(crate) async fn entrants(
    tx: &mut Transaction<'_, Postgres>,
    challenge_id: i64,
) -> sqlx::Result<Vec<i64>> {
    sqlx::query_scalar(
        r#"select account_id from challenge_entrant where challenge_id = $1 order by joined_at"#,
    )
    .bind(challenge_id)
    .fetch_all(&mut **tx)
    .await
}

/// Records that `account_id` took a seat.
pub(crate) async fn insert_entrant(
    tx: &mut Transaction<'_, Postgres>,
    challenge_id: i64,
    account_id: i64,
    now: OffsetDateTime,
) -> sqlx::Result<()> {
    sqlx::query(r#"insert into challenge_entrant (challenge_id, account_id, joined_at) values ($1, $2, $3)"#)
        .bind(challenge_id)
        .bind(account_id)
        .bind(now)
        .execute(&mut **tx)
        .await?;
    Ok(())
}

/// Gives up the seat of `account_id` → whether it had one.
pub(crate) async fn delete_entrant(
    tx: &mut Transaction<'_, Postgres>,
    challenge_id: i64,
    account_id: i64,
) -> sqlx::Result<bool> {
    let left = sqlx::query(r#"delete from challenge_entrant where challenge_id = $1 and account_id = $2"#)
        .bind(challenge_id)
        .bind(account_id)
        .execute(&mut **tx)
        .await?;
    Ok(left.rows_affected() > 0)
}

/// Marks the challenge accepted by `account_id` with its game.
pub(crate) async fn mark_accepted(
    tx: &mut Transaction<'_, Postgres>,
    challenge_id: i64,
    game_id: i64,
    account_id: i64,
) -> sqlx::Result<()> {
    sqlx::query(
        r#"update challenge set status = 'accepted', game_id = $2, opponent_id = $3
           where challenge_id = $1"#,
    )
    .bind(challenge_id)
    .bind(game_id)
    .bind(account_id)
    .execute(&mut **tx)
    .await?;
    Ok(())
}

/// Sets the challenge's status (`declined`, `cancelled`).
pub(crate) async fn set_status(
    tx: &mut Transaction<'_, Postgres>,
    challenge_id: i64,
    status: &str,
) -> sqlx::Result<()> {
    sqlx::query(r#"update challenge set status = $2 where challenge_id = $1"#)
        .bind(challenge_id)
        .bind(status)
        .execute(&mut **tx)
        .await?;
    Ok(())
}
