//! The notification rows: written by the events in their own transactions (the
//! transactional outbox, #17 §2), listed in the app, and the accounts' mail settings.
//! The senders' claims and outcomes are in [`super::outbox`].

use serde_json::Value;
use sqlx::{PgConnection, PgPool};
use time::OffsetDateTime;

use crate::domain::error::DomainResult;
use crate::domain::notifications::{Kind, MailSettingsChange, Notification};

/// The NOTIFY channel of the accounts whose notifications changed (payload: account ids,
/// commas); every instance's live hub listens to it.
pub const NOTIFICATION_CHANNEL: &str = "tavoliere_notification";

/// What a notification is about.
#[derive(Clone, Debug, Default)]
pub struct About {
    /// A game.
    pub game_id: Option<i64>,
    /// A challenge.
    pub challenge_id: Option<i64>,
    /// A tournament.
    pub tournament_id: Option<i64>,
}

impl About {
    /// A game.
    pub fn game(game_id: i64) -> About {
        About { game_id: Some(game_id), ..About::default() }
    }
}

/// Notifies `account_id` of `kind` at `now`, in the caller's transaction.
///
/// # Errors
/// Database failure.
pub async fn notify(
    connection: &mut PgConnection,
    account_id: i64,
    kind: Kind,
    about: &About,
    details: Value,
    now: OffsetDateTime,
) -> DomainResult<()> {
    sqlx::query(
        r#"insert into notification (account_id, kind, game_id, challenge_id, tournament_id, details, created_at)
           values ($1, $2, $3, $4, $5, $6, $7)"#,
    )
    .bind(account_id)
    .bind(kind.as_str())
    .bind(about.game_id)
    .bind(about.challenge_id)
    .bind(about.tournament_id)
    .bind(details)
    .bind(now)
    .execute(connection)
    .await?;
    Ok(())
}

/// Notifies every player of `game_id` (but `except`, the one who acted) of `kind`, in the
/// caller's transaction.
///
/// # Errors
/// Database failure.
pub async fn notify_players(
    connection: &mut PgConnection,
    game_id: i64,
    kind: Kind,
    except: Option<i64>,
    details: Value,
    now: OffsetDateTime,
) -> DomainResult<()> {
    sqlx::query(
        r#"insert into notification (account_id, kind, game_id, details, created_at)
           select distinct account_id, $2, $1, $4, $5 from game_seat
           where game_id = $1 and account_id is distinct from $3"#,
    )
    .bind(game_id)
    .bind(kind.as_str())
    .bind(except)
    .bind(details)
    .bind(now)
    .execute(connection)
    .await?;
    Ok(())
}

/// Tells both players of the tournament game `game_id` that its round started, with the
/// pairing, in the transaction that created it.
///
/// # Errors
/// Database failure.
pub async fn notify_round_started(
    connection: &mut PgConnection,
    game_id: i64,
    now: OffsetDateTime,
) -> DomainResult<()> {
    sqlx::query(
        r#"insert into notification (account_id, kind, game_id, tournament_id, details, created_at)
           select s.account_id, 'round-started', g.game_id, g.tournament_id,
               jsonb_build_object('tournament', t.name, 'round', g.round, 'pairing',
                   (select string_agg(a.username, ' – ' order by o.seat)
                    from game_seat o join account a on a.account_id = o.account_id
                    where o.game_id = g.game_id)),
               $2
           from game g
           join game_seat s on s.game_id = g.game_id
           join tournament t on t.tournament_id = g.tournament_id
           where g.game_id = $1"#,
    )
    .bind(game_id)
    .bind(now)
    .execute(connection)
    .await?;
    Ok(())
}

/// Queues an account mail (verification, reset) to `to_address`: not in the in-app list,
/// sent whatever the settings.
///
/// # Errors
/// Database failure.
pub async fn account_mail(
    connection: &mut PgConnection,
    account_id: i64,
    kind: Kind,
    to_address: &str,
    details: Value,
    now: OffsetDateTime,
) -> DomainResult<()> {
    sqlx::query(
        r#"insert into notification (account_id, kind, details, to_address, in_app, created_at)
           values ($1, $2, $3, $4, false, $5)"#,
    )
    .bind(account_id)
    .bind(kind.as_str())
    .bind(details)
    .bind(to_address)
    .bind(now)
    .execute(connection)
    .await?;
    Ok(())
}

/// The chosen deliveries (kind, delivery), the digest hour and the time zone.
///
/// # Errors
/// Database failure (or no such account).
pub async fn settings(pool: &PgPool, account_id: i64) -> DomainResult<(Vec<(String, String)>, i16, String)> {
    let chosen: Vec<(String, String)> =
        sqlx::query_as(r#"select kind, delivery from notification_setting where account_id = $1"#)
            .bind(account_id)
            .fetch_all(pool)
            .await?;
    let (hour, zone): (i16, String) =
        sqlx::query_as(r#"select digest_hour, time_zone from account where account_id = $1"#)
            .bind(account_id)
            .fetch_one(pool)
            .await?;
    Ok((chosen, hour, zone))
}

/// Whether PostgreSQL knows the time zone `name` (its IANA database decides the digest's
/// local hour).
///
/// # Errors
/// Database failure.
pub async fn is_time_zone(pool: &PgPool, name: &str) -> DomainResult<bool> {
    Ok(sqlx::query_scalar(r#"select exists (select 1 from pg_timezone_names where name = $1)"#)
        .bind(name)
        .fetch_one(pool)
        .await?)
}

/// Stores a checked settings change in one transaction.
///
/// # Errors
/// Database failure.
pub async fn change_settings(
    pool: &PgPool,
    account_id: i64,
    change: &MailSettingsChange,
) -> DomainResult<()> {
    let mut tx = pool.begin().await?;
    for chosen in &change.deliveries {
        sqlx::query(
            r#"insert into notification_setting (account_id, kind, delivery) values ($1, $2, $3)
               on conflict (account_id, kind) do update set delivery = excluded.delivery"#,
        )
        .bind(account_id)
        .bind(chosen.kind.as_str())
        .bind(chosen.delivery.as_str())
        .execute(&mut *tx)
        .await?;
    }
    sqlx::query(
        r#"update account set digest_hour = coalesce($2, digest_hour), time_zone = coalesce($3, time_zone)
           where account_id = $1"#,
    )
    .bind(account_id)
    .bind(change.digest_hour)
    .bind(change.time_zone.as_deref())
    .execute(&mut *tx)
    .await?;
    tx.commit().await?;
    Ok(())
}

/// The newest in-app notifications of `account_id`.
///
/// # Errors
/// Database failure.
pub async fn list(
    pool: &PgPool,
    account_id: i64,
    before: Option<i64>,
    limit: i64,
) -> DomainResult<Vec<Notification>> {
    Ok(sqlx::query_as(
        r#"select notification_id as id, kind, game_id, challenge_id, tournament_id, details, created_at, read_at
           from notification
           where account_id = $1 and in_app and ($2::bigint is null or notification_id < $2)
           order by notification_id desc limit $3"#,
    )
    .bind(account_id)
    .bind(before)
    .bind(limit)
    .fetch_all(pool)
    .await?)
}

/// The number of unread in-app notifications of `account_id`.
///
/// # Errors
/// Database failure.
pub async fn unread(pool: &PgPool, account_id: i64) -> DomainResult<i64> {
    Ok(sqlx::query_scalar(
        r#"select count(*) from notification where account_id = $1 and in_app and read_at is null"#,
    )
    .bind(account_id)
    .fetch_one(pool)
    .await?)
}

/// Marks read the unread notifications of `account_id` up to id `up_to` (all: `None`).
///
/// # Errors
/// Database failure.
pub async fn mark_read(
    pool: &PgPool,
    account_id: i64,
    up_to: Option<i64>,
    now: OffsetDateTime,
) -> DomainResult<()> {
    sqlx::query(
        r#"update notification set read_at = $3
           where account_id = $1 and in_app and read_at is null
               and ($2::bigint is null or notification_id <= $2)"#,
    )
    .bind(account_id)
    .bind(up_to)
    .bind(now)
    .execute(pool)
    .await?;
    Ok(())
}
