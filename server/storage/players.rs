//! The public reads of a player's profile (issue 18 §3): the account's public facts, its
//! results per variant and its tournaments. Ratings are in `storage::ratings`.

use sqlx::{PgPool, Postgres, QueryBuilder};
use time::OffsetDateTime;

use super::keyset::After;
use crate::domain::players::PlayerSummary;

/// What anyone may see of an account.
#[derive(Debug, sqlx::FromRow)]
pub(crate) struct PublicAccount {
    pub(crate) account_id: i64,
    pub(crate) username: String,
    pub(crate) created_at: OffsetDateTime,
    /// The interface language chosen (`auto`: the browser's).
    pub(crate) language: String,
}

/// The account named `username` (any case), if any.
pub(crate) async fn public_account(pool: &PgPool, username: &str) -> sqlx::Result<Option<PublicAccount>> {
    sqlx::query_as::<_, PublicAccount>(
        r#"select account_id, username, created_at, language from account
           where lower(username) = lower($1)"#,
    )
    .bind(username)
    .fetch_optional(pool)
    .await
}

/// A player's finished games counted by variant and outcome.
#[derive(Debug, sqlx::FromRow)]
pub(crate) struct ResultCount {
    pub(crate) variant: String,
    pub(crate) wins: i64,
    pub(crate) draws: i64,
    pub(crate) losses: i64,
}

/// Wins, draws and losses of `account_id` per variant (finished games).
pub(crate) async fn results_by_variant(pool: &PgPool, account_id: i64) -> sqlx::Result<Vec<ResultCount>> {
    sqlx::query_as::<_, ResultCount>(
        r#"select g.variant,
                  count(*) filter (where s.outcome = 'win') as wins,
                  count(*) filter (where s.outcome = 'draw') as draws,
                  count(*) filter (where s.outcome = 'loss') as losses
           from game_seat s join game g on g.game_id = s.game_id
           where s.account_id = $1 and g.status = 'finished'
           group by g.variant order by g.variant"#,
    )
    .bind(account_id)
    .fetch_all(pool)
    .await
}

/// A tournament a player entered.
#[derive(Debug, sqlx::FromRow)]
pub(crate) struct PlayerTournament {
    pub(crate) tournament_id: i64,
    pub(crate) name: String,
    pub(crate) status: String,
}

/// The tournaments `account_id` entered (a section of them), newest first.
pub(crate) async fn tournaments_of(pool: &PgPool, account_id: i64) -> sqlx::Result<Vec<PlayerTournament>> {
    sqlx::query_as::<_, PlayerTournament>(
        r#"select distinct t.tournament_id, t.name, t.status
           from entry e join section s using (section_id) join tournament t using (tournament_id)
           where e.account_id = $1 order by t.tournament_id desc limit 100"#,
    )
    .bind(account_id)
    .fetch_all(pool)
    .await
}

/// The filters of the list of players (all optional).
#[derive(Debug, Default)]
pub(crate) struct PlayerFilter {
    /// The name starts with this (any case).
    pub(crate) name: Option<String>,
    /// With a rating in this variant...
    pub(crate) variant: Option<String>,
    /// ...and this pool.
    pub(crate) pool: Option<&'static str>,
}

/// The accounts matching `filter` (not disabled) after `after`, newest first by
/// (created_at, account_id), at most `limit`.
pub(crate) async fn page(
    pool: &PgPool,
    filter: &PlayerFilter,
    after: Option<After>,
    limit: i64,
) -> sqlx::Result<Vec<PlayerSummary>> {
    let mut query = QueryBuilder::<Postgres>::new(
        "select a.account_id, a.username, a.created_at as member_since from account a where a.disabled_at is null",
    );
    if let Some(name) = &filter.name {
        query.push(" and starts_with(lower(a.username), lower(").push_bind(name.clone()).push("))");
    }
    if let Some(variant) = &filter.variant {
        query.push(" and exists (select 1 from rating r where r.account_id = a.account_id and r.variant = ");
        query.push_bind(variant.clone());
        if let Some(rating_pool) = filter.pool {
            query.push(" and r.pool = ").push_bind(rating_pool);
        }
        query.push(")");
    }
    if let Some(after) = after {
        after.push_condition(&mut query, "a.created_at", "a.account_id");
    }
    query.push(" order by a.created_at desc, a.account_id desc limit ").push_bind(limit);
    query.build_query_as::<PlayerSummary>().fetch_all(pool).await
}
