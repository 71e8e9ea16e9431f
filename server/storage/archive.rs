//! The archive search (issue 18 §3): finished games filtered by player, opponent,
//! variant, result, end reason, dates, tournament and rating, newest first, a page at a
//! time by keyset pagination on (finished_at, game_id) — a page starts after the last
//! game of the one before, so games finishing meanwhile never shift or repeat a page.
//! Every value is bound as a parameter (`QueryBuilder::push_bind`).

use sqlx::{PgPool, Postgres, QueryBuilder};
use time::OffsetDateTime;

use super::endings::{GameReason, GameResult, SeatOutcome};
use super::games::{summary_columns, GameSummary};
pub use super::keyset::After;

/// Who a filter names: an account, or a name only imported records give.
#[derive(Clone, Debug, PartialEq)]
pub enum PlayerRef {
    /// An account.
    Account(i64),
    /// A name of an imported record's seat.
    Name(String),
}

/// The archive's filters, all optional.
#[derive(Clone, Debug, Default)]
pub struct ArchiveFilter {
    /// Games of this player.
    pub player: Option<PlayerRef>,
    /// Games against this player (with `player`: games between the two).
    pub opponent: Option<PlayerRef>,
    /// The player's outcome (needs `player`).
    pub outcome: Option<SeatOutcome>,
    /// The game's result.
    pub result: Option<GameResult>,
    /// The variant's name.
    pub variant: Option<String>,
    /// How it ended.
    pub reason: Option<GameReason>,
    /// Finished at or after.
    pub from: Option<OffsetDateTime>,
    /// Finished before.
    pub until: Option<OffsetDateTime>,
    /// Of this tournament.
    pub tournament: Option<i64>,
    /// Rated or not.
    pub rated: Option<bool>,
}

/// A seat of the game `g` held by `who`. An account's games are listed from its seats
/// first (`game_seat_account_idx`), then read by id and sorted: a player's few thousand
/// games cost the same on every page, where walking the finished games newest first
/// looking for the player's would cost more the deeper the page (measured in
/// `benches/public.rs`: 400 ms a page at 1,000,000 games before, a few ms after).
fn push_seat(query: &mut QueryBuilder<'_, Postgres>, who: &PlayerRef, outcome: Option<SeatOutcome>) {
    let outcome_filter = |query: &mut QueryBuilder<'_, Postgres>| {
        if let Some(outcome) = outcome {
            query.push(" and s.outcome = ").push_bind(outcome);
        }
    };
    match who {
        PlayerRef::Account(id) => {
            query.push(" and g.game_id = any(array(select s.game_id from game_seat s where s.account_id = ");
            query.push_bind(*id);
            outcome_filter(query);
            query.push("))");
        }
        // Imported records' names have no index: the few such searches scan the seats.
        PlayerRef::Name(name) => {
            query.push(" and exists (select 1 from game_seat s where s.game_id = g.game_id and ");
            query.push("lower(s.player_name) = lower(").push_bind(name.clone()).push(")");
            outcome_filter(query);
            query.push(")");
        }
    }
}

/// The finished games matching `filter` after `after`, newest first, at most `limit`.
pub(crate) async fn search(
    pool: &PgPool,
    filter: &ArchiveFilter,
    after: Option<After>,
    limit: i64,
) -> sqlx::Result<Vec<GameSummary>> {
    let mut query = QueryBuilder::<Postgres>::new(format!(
        "select {} from game g where g.status = 'finished' and g.finished_at is not null",
        summary_columns("false")
    ));
    match (&filter.player, &filter.opponent) {
        // Two accounts: their games against each other, listed from the player's seats
        // joined to the opponent's (two lists of seats filtering each other cost a
        // quarter of a second at 1,000,000 games).
        (Some(PlayerRef::Account(player)), Some(PlayerRef::Account(opponent))) => {
            query.push(
                " and g.game_id = any(array(select s.game_id from game_seat s \
                 join game_seat o on o.game_id = s.game_id and o.seat <> s.seat and o.account_id = ",
            );
            query.push_bind(*opponent).push(" where s.account_id = ").push_bind(*player);
            if let Some(outcome) = filter.outcome {
                query.push(" and s.outcome = ").push_bind(outcome);
            }
            query.push("))");
        }
        (player, opponent) => {
            if let Some(player) = player {
                push_seat(&mut query, player, filter.outcome);
            }
            if let Some(opponent) = opponent {
                push_seat(&mut query, opponent, None);
            }
        }
    }
    if let Some(result) = &filter.result {
        query.push(" and g.result = ").push_bind(result.clone());
    }
    if let Some(variant) = &filter.variant {
        query.push(" and g.variant = ").push_bind(variant.clone());
    }
    if let Some(reason) = filter.reason {
        query.push(" and g.reason = ").push_bind(reason);
    }
    if let Some(from) = filter.from {
        query.push(" and g.finished_at >= ").push_bind(from);
    }
    if let Some(until) = filter.until {
        query.push(" and g.finished_at < ").push_bind(until);
    }
    if let Some(tournament) = filter.tournament {
        query.push(" and g.tournament_id = ").push_bind(tournament);
    }
    if let Some(rated) = filter.rated {
        query.push(" and g.rated = ").push_bind(rated);
    }
    if let Some(after) = after {
        after.push_condition(&mut query, "g.finished_at", "g.game_id");
    }
    query.push(" order by g.finished_at desc, g.game_id desc limit ").push_bind(limit);
    query.build_query_as::<GameSummary>().fetch_all(pool).await
}

/// Whether some imported record names a player `name` (who has no account).
pub(crate) async fn imported_name_exists(pool: &PgPool, name: &str) -> sqlx::Result<bool> {
    sqlx::query_scalar(
        "select exists (select 1 from game_seat where account_id is null and lower(player_name) = lower($1))",
    )
    .bind(name)
    .fetch_one(pool)
    .await
}
