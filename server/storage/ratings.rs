//! The stored ratings (migration 20261126300001): each player's current Glicko-2 rating
//! per variant and pool (`rating`), every change (`rating_history`) and the rated seats'
//! ratings before and after their game (`game_seat`). The decisions are in
//! `crate::domain::ratings`.

use sqlx::types::Json;
use sqlx::{PgPool, Postgres, Transaction};
use time::OffsetDateTime;

use crate::domain::error::DomainResult;
use crate::domain::ratings::{Glicko, Pool, SeatRating};
use crate::domain::time_control::TimeControl;

/// A rated game's variant, time control and players (seat, account) in seat order.
pub(crate) struct RatedGame {
    pub(crate) variant: String,
    pub(crate) time_control: TimeControl,
    pub(crate) seats: Vec<(i32, i64)>,
}

/// The game if it is rated, with its seats that are accounts.
pub(crate) async fn rated_game(
    tx: &mut Transaction<'_, Postgres>,
    game_id: i64,
) -> DomainResult<Option<RatedGame>> {
    let game: Option<(String, Json<TimeControl>)> =
        sqlx::query_as(r#"select variant, time_control from game where game_id = $1 and rated"#)
            .bind(game_id)
            .fetch_optional(&mut **tx)
            .await?;
    let Some((variant, Json(time_control))) = game else { return Ok(None) };
    let seats: Vec<(i32, i64)> = sqlx::query_as(
        r#"select seat, account_id from game_seat
           where game_id = $1 and account_id is not null order by seat"#,
    )
    .bind(game_id)
    .fetch_all(&mut **tx)
    .await?;
    Ok(Some(RatedGame { variant, time_control, seats }))
}

/// Marks a game just made from a rated challenge as rated.
pub(crate) async fn mark_game_rated(tx: &mut Transaction<'_, Postgres>, game_id: i64) -> DomainResult<()> {
    sqlx::query("update game set rated = true where game_id = $1").bind(game_id).execute(&mut **tx).await?;
    Ok(())
}

/// A stored rating row.
#[derive(Clone, Debug, sqlx::FromRow)]
pub(crate) struct RatingRow {
    pub(crate) account_id: i64,
    pub(crate) variant: String,
    pub(crate) pool: String,
    pub(crate) rating: f64,
    pub(crate) deviation: f64,
    pub(crate) volatility: f64,
    pub(crate) games: i32,
    pub(crate) rated_at: OffsetDateTime,
}

impl RatingRow {
    pub(crate) fn glicko(&self) -> Glicko {
        Glicko { rating: self.rating, deviation: self.deviation, volatility: self.volatility }
    }
}

const RATING_COLUMNS: &str = "account_id, variant, pool, rating, deviation, volatility, games, rated_at";

/// Locks the ratings of `accounts` in `variant` and `pool`, in account order, making a
/// new player's (1500, RD 350, σ 0.06: `Glicko::new_player`) first: two games ending at
/// once for the same players wait for each other, the second rating from the first's
/// result, even for two first games.
pub(crate) async fn lock_ratings(
    tx: &mut Transaction<'_, Postgres>,
    accounts: &[i64],
    variant: &str,
    pool: Pool,
    now: OffsetDateTime,
) -> DomainResult<Vec<RatingRow>> {
    let mut sorted = accounts.to_vec();
    sorted.sort_unstable();
    let new = Glicko::new_player();
    sqlx::query(
        r#"insert into rating (account_id, variant, pool, rating, deviation, volatility, games, rated_at)
           select a, $2, $3, $4, $5, $6, 0, $7 from unnest($1::bigint[]) with ordinality as u(a, n)
           order by n
           on conflict (account_id, variant, pool) do nothing"#,
    )
    .bind(&sorted)
    .bind(variant)
    .bind(pool.as_str())
    .bind(new.rating)
    .bind(new.deviation)
    .bind(new.volatility)
    .bind(now)
    .execute(&mut **tx)
    .await?;
    Ok(sqlx::query_as::<_, RatingRow>(&format!(
        r#"select {RATING_COLUMNS} from rating
           where account_id = any($1) and variant = $2 and pool = $3
           order by account_id for update"#
    ))
    .bind(&sorted)
    .bind(variant)
    .bind(pool.as_str())
    .fetch_all(&mut **tx)
    .await?)
}

/// Stores one player's change (its rating row is locked: [`lock_ratings`]): the current
/// rating, a history row, and the seat's ratings before and after.
pub(crate) async fn store_change(
    tx: &mut Transaction<'_, Postgres>,
    game_id: i64,
    account_id: i64,
    variant: &str,
    pool: Pool,
    change: &SeatRating,
    now: OffsetDateTime,
) -> DomainResult<()> {
    let after = change.after;
    sqlx::query(
        r#"with current as (
               update rating set rating = $4, deviation = $5, volatility = $6, games = games + 1,
                   rated_at = $7
               where account_id = $1 and variant = $2 and pool = $3
           ), history as (
               insert into rating_history
                   (account_id, game_id, variant, pool, rating, deviation, volatility, recorded_at)
               values ($1, $8, $2, $3, $4, $5, $6, $7)
           )
           update game_seat set rating_before = $9, deviation_before = $10,
               rating_after = $4, deviation_after = $5
           where game_id = $8 and seat = $11"#,
    )
    .bind(account_id)
    .bind(variant)
    .bind(pool.as_str())
    .bind(after.rating)
    .bind(after.deviation)
    .bind(after.volatility)
    .bind(now)
    .bind(game_id)
    .bind(change.before.rating)
    .bind(change.before.deviation)
    .bind(change.seat)
    .execute(&mut **tx)
    .await?;
    Ok(())
}

/// Every rating of an account (each variant and pool it has played rated).
pub(crate) async fn ratings_of(pool: &PgPool, account_id: i64) -> sqlx::Result<Vec<RatingRow>> {
    sqlx::query_as::<_, RatingRow>(&format!(
        "select {RATING_COLUMNS} from rating where account_id = $1 order by variant, pool"
    ))
    .bind(account_id)
    .fetch_all(pool)
    .await
}

/// A rating with its player's name.
#[derive(sqlx::FromRow)]
pub(crate) struct NamedRating {
    pub(crate) username: String,
    #[sqlx(flatten)]
    pub(crate) rating: RatingRow,
}

/// The leaderboard of a variant and pool: players whose last rated game ended at
/// `active_since` or later and whose deviation at `now` is at most `max_deviation` (not
/// provisional), best first, at most `limit`. The deviation at `now` is Glickman's step 6
/// for every whole day since the last game, φ² + nσ² on the Glicko-2 scale (what
/// `domain::ratings::current` computes one day at a time).
pub(crate) async fn leaderboard(
    pool: &PgPool,
    variant: &str,
    rating_pool: Pool,
    active_since: OffsetDateTime,
    now: OffsetDateTime,
    max_deviation: f64,
    limit: i64,
) -> sqlx::Result<Vec<NamedRating>> {
    sqlx::query_as::<_, NamedRating>(
        r#"select a.username, r.account_id, r.variant, r.pool, r.rating, r.deviation, r.volatility,
                  r.games, r.rated_at
           from rating r join account a using (account_id)
           where r.variant = $1 and r.pool = $2 and r.rated_at >= $3 and r.games > 0
               and power(r.deviation / 173.7178, 2)
                   + floor(extract(epoch from ($4 - r.rated_at)) / 86400) * power(r.volatility, 2)
                   <= power($5 / 173.7178, 2)
           order by r.rating desc, a.username
           limit $6"#,
    )
    .bind(variant)
    .bind(rating_pool.as_str())
    .bind(active_since)
    .bind(now)
    .bind(max_deviation)
    .bind(limit)
    .fetch_all(pool)
    .await
}

/// One point of a rating history.
#[derive(Clone, Debug, sqlx::FromRow)]
pub(crate) struct HistoryRow {
    pub(crate) game_id: i64,
    pub(crate) rating: f64,
    pub(crate) deviation: f64,
    pub(crate) recorded_at: OffsetDateTime,
}

/// An account's rating history in a variant and pool, oldest first.
pub(crate) async fn history(
    pool: &PgPool,
    account_id: i64,
    variant: &str,
    rating_pool: Pool,
) -> sqlx::Result<Vec<HistoryRow>> {
    sqlx::query_as::<_, HistoryRow>(
        r#"select game_id, rating, deviation, recorded_at from rating_history
           where account_id = $1 and variant = $2 and pool = $3
           order by recorded_at, game_id"#,
    )
    .bind(account_id)
    .bind(variant)
    .bind(rating_pool.as_str())
    .fetch_all(pool)
    .await
}
