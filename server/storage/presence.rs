//! Live presence: how many sockets each server instance has on each game (the table
//! `live_presence`), so that every instance can show the watcher count over all of them.
//!
//! An instance writes only its own rows ([`write`], [`heartbeat`], [`withdraw`]) and
//! announces a change on [`WATCHERS_CHANNEL`] (payload `"<game id>:<instance id>"`) in the
//! same transaction; the others re-read the sum ([`others`]). Rows whose `seen_at` is
//! older than the time to live are ignored and pruned ([`prune`]): an instance that died
//! stops counting. Times are the database's (`now()`), the one clock all instances share.

use sqlx::{PgPool, Postgres, Transaction};

/// The channel on which a change of a game's watcher count is announced.
pub const WATCHERS_CHANNEL: &str = "tavoliere_watchers";

/// The watcher count of a game changed on some instance.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WatchersChanged {
    /// The game.
    pub game_id: i64,
    /// The instance whose sockets changed.
    pub instance_id: String,
}

impl WatchersChanged {
    /// Reads a payload `"<game id>:<instance id>"`; `None` for anything else.
    pub fn parse(payload: &str) -> Option<WatchersChanged> {
        let (game, instance) = payload.split_once(':')?;
        Some(WatchersChanged { game_id: game.parse().ok()?, instance_id: instance.to_owned() })
    }
}

/// Stores `instance`'s socket counts of `games` (a count of 0 removes the row), refreshes
/// their `seen_at` and announces each game on [`WATCHERS_CHANNEL`], in one transaction.
///
/// # Errors
/// Database failure.
pub async fn write(pool: &PgPool, instance: &str, games: &[(i64, usize)]) -> Result<(), sqlx::Error> {
    let mut tx = pool.begin().await?;
    let present: Vec<(i64, usize)> = games.iter().copied().filter(|&(_, sockets)| sockets > 0).collect();
    upsert(&mut tx, instance, &present).await?;
    let gone: Vec<i64> = games.iter().filter(|&&(_, sockets)| sockets == 0).map(|&(game, _)| game).collect();
    sqlx::query(r#"delete from live_presence where instance_id = $1 and game_id = any($2)"#)
        .bind(instance)
        .bind(&gone)
        .execute(&mut *tx)
        .await?;
    let ids: Vec<i64> = games.iter().map(|(game, _)| *game).collect();
    announce(&mut tx, &ids, &vec![instance.to_owned(); ids.len()]).await?;
    tx.commit().await
}

/// The heartbeat: rewrites all of `instance`'s rows from its current counts (`games`, all
/// positive) with a fresh `seen_at` and removes its other rows. Only rows that were
/// missing (pruned while this instance was stalled, or lost in a database crash) are
/// announced: the others were announced when they changed.
///
/// # Errors
/// Database failure.
pub async fn heartbeat(pool: &PgPool, instance: &str, games: &[(i64, usize)]) -> Result<(), sqlx::Error> {
    let mut tx = pool.begin().await?;
    let inserted = upsert(&mut tx, instance, games).await?;
    let ids: Vec<i64> = games.iter().map(|(game, _)| *game).collect();
    let removed: Vec<i64> = sqlx::query_scalar(
        r#"delete from live_presence where instance_id = $1 and game_id <> all($2) returning game_id"#,
    )
    .bind(instance)
    .bind(&ids)
    .fetch_all(&mut *tx)
    .await?;
    let changed: Vec<i64> = inserted.into_iter().chain(removed).collect();
    announce(&mut tx, &changed, &vec![instance.to_owned(); changed.len()]).await?;
    tx.commit().await
}

/// Deletes the rows not seen for `ttl_seconds` (instances that died) and announces their
/// games.
///
/// # Errors
/// Database failure.
pub async fn prune(pool: &PgPool, ttl_seconds: f64) -> Result<(), sqlx::Error> {
    let mut tx = pool.begin().await?;
    let stale: Vec<(String, i64)> = sqlx::query_as(
        r#"delete from live_presence where seen_at < now() - make_interval(secs => $1)
           returning instance_id, game_id"#,
    )
    .bind(ttl_seconds)
    .fetch_all(&mut *tx)
    .await?;
    let (instances, games): (Vec<String>, Vec<i64>) = stale.into_iter().unzip();
    announce(&mut tx, &games, &instances).await?;
    tx.commit().await
}

/// Deletes all of `instance`'s rows and announces their games (at shutdown).
///
/// # Errors
/// Database failure.
pub async fn withdraw(pool: &PgPool, instance: &str) -> Result<(), sqlx::Error> {
    let mut tx = pool.begin().await?;
    let games: Vec<i64> =
        sqlx::query_scalar(r#"delete from live_presence where instance_id = $1 returning game_id"#)
            .bind(instance)
            .fetch_all(&mut *tx)
            .await?;
    announce(&mut tx, &games, &vec![instance.to_owned(); games.len()]).await?;
    tx.commit().await
}

/// Sockets on `game_id` at every instance but `instance`, counting rows seen within
/// `ttl_seconds`.
///
/// # Errors
/// Database failure.
pub async fn others(
    pool: &PgPool,
    game_id: i64,
    instance: &str,
    ttl_seconds: f64,
) -> Result<usize, sqlx::Error> {
    let sockets: i64 = sqlx::query_scalar(
        r#"select coalesce(sum(sockets), 0)::bigint from live_presence
           where game_id = $1 and instance_id <> $2 and seen_at >= now() - make_interval(secs => $3)"#,
    )
    .bind(game_id)
    .bind(instance)
    .bind(ttl_seconds)
    .fetch_one(pool)
    .await?;
    Ok(usize::try_from(sockets).unwrap_or(0))
}

/// Inserts or updates `instance`'s rows of `games`; returns the games whose row was new.
async fn upsert(
    tx: &mut Transaction<'_, Postgres>,
    instance: &str,
    games: &[(i64, usize)],
) -> Result<Vec<i64>, sqlx::Error> {
    if games.is_empty() {
        return Ok(Vec::new());
    }
    let ids: Vec<i64> = games.iter().map(|(game, _)| *game).collect();
    let sockets: Vec<i32> = games.iter().map(|(_, n)| i32::try_from(*n).unwrap_or(i32::MAX)).collect();
    // `xmax = 0` holds for a freshly inserted row, not for one the conflict updated.
    sqlx::query_scalar(
        r#"insert into live_presence (instance_id, game_id, sockets, seen_at)
           select $1, g.game_id, g.sockets, now() from unnest($2::bigint[], $3::int[]) as g(game_id, sockets)
           on conflict on constraint live_presence_pkey
           do update set sockets = excluded.sockets, seen_at = excluded.seen_at
           returning case when xmax = 0 then game_id end"#,
    )
    .bind(instance)
    .bind(&ids)
    .bind(&sockets)
    .fetch_all(&mut **tx)
    .await
    .map(|rows: Vec<Option<i64>>| rows.into_iter().flatten().collect())
}

async fn announce(
    tx: &mut Transaction<'_, Postgres>,
    games: &[i64],
    instances: &[String],
) -> Result<(), sqlx::Error> {
    if games.is_empty() {
        return Ok(());
    }
    sqlx::query(
        r#"select pg_notify($1, g.game_id::text || ':' || g.instance_id)
           from unnest($2::bigint[], $3::text[]) as g(game_id, instance_id)"#,
    )
    .bind(WATCHERS_CHANNEL)
    .bind(games)
    .bind(instances)
    .execute(&mut **tx)
    .await?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn payloads_are_read_and_garbage_is_refused() {
        assert_eq!(
            WatchersChanged::parse("42:ab12"),
            Some(WatchersChanged { game_id: 42, instance_id: "ab12".to_owned() })
        );
        assert_eq!(WatchersChanged::parse("42"), None);
        assert_eq!(WatchersChanged::parse("x:ab12"), None);
    }
}
