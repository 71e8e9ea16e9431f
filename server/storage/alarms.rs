//! The deadline alarms and the daily digests (#17 §2): each found and queued by one
//! statement, idempotent, so any number of instances may run the task at once.

use sqlx::PgPool;
use time::OffsetDateTime;

use crate::domain::error::DomainResult;

/// Queues the deadline alarms due at `now` in correspondence games: when `percent_used`
/// percent of the turn's time to move is used, and `hours_before` hours before the
/// deadline (only in turns longer than that). A `deadline_alarm` row per alarm and turn
/// makes each fire once; two due together give one mail. Returns the alarms queued.
///
/// # Errors
/// Database failure.
pub async fn queue_deadline_alarms(
    pool: &PgPool,
    now: OffsetDateTime,
    percent_used: u8,
    hours_before: u32,
) -> DomainResult<u64> {
    let queued = sqlx::query(
        r#"with due as (
               select g.game_id, g.current_ply as ply, g.turn_seat as seat, s.account_id, a.alarm
               from game g
               join game_seat s on s.game_id = g.game_id and s.seat = g.turn_seat
               cross join (values ('percent-used'), ('hours-before')) as a(alarm)
               where g.status = 'active' and g.deadline is not null and $1 < g.deadline
                   and g.time_control->>'kind' not in ('live-fischer', 'byoyomi')
                   and case a.alarm
                       when 'percent-used'
                           then $1 >= g.turn_started_at + (g.deadline - g.turn_started_at) * ($2::float8 / 100)
                       else g.turn_started_at < g.deadline - make_interval(hours => $3)
                           and $1 >= g.deadline - make_interval(hours => $3)
                   end
           ), fresh as (
               insert into deadline_alarm (game_id, ply, seat, alarm)
               select game_id, ply, seat, alarm from due
               on conflict do nothing
               returning game_id, ply, seat, alarm
           )
           insert into notification (account_id, kind, game_id, details, created_at)
           select distinct on (f.game_id, f.ply, f.seat)
               d.account_id, 'deadline-alarm', f.game_id, jsonb_build_object('ply', f.ply, 'alarm', f.alarm), $1
           from fresh f join due d using (game_id, ply, seat, alarm)
           order by f.game_id, f.ply, f.seat, f.alarm"#,
    )
    .bind(now)
    .bind(f64::from(percent_used))
    .bind(hours_before as i32)
    .execute(pool)
    .await?;
    Ok(queued.rows_affected())
}

/// Queues the daily digest of every account whose digest hour it is in its time zone
/// (or up to two hours later) and that has not had one on that local date: those with the digest on (it lists the
/// games where it is their move) or with notifications left for it. Returns the digests
/// queued.
///
/// # Errors
/// Database failure.
pub async fn queue_digests(pool: &PgPool, now: OffsetDateTime) -> DomainResult<u64> {
    let queued = sqlx::query(
        r#"with due as (
               update account a set digest_sent_on = ($1 at time zone a.time_zone)::date
               where a.email_verified_at is not null
                   -- At the hour, or within two hours after it (an instance was down).
                   and extract(hour from ($1 at time zone a.time_zone)) - a.digest_hour between 0 and 2
                   and (a.digest_sent_on is null or a.digest_sent_on < ($1 at time zone a.time_zone)::date)
                   and (exists (select 1 from notification_setting s
                                where s.account_id = a.account_id and s.kind = 'digest'
                                    and s.delivery = 'immediately')
                        or exists (select 1 from notification n
                                   where n.account_id = a.account_id and n.mail_state = 'digest'))
               returning a.account_id, a.digest_sent_on
           )
           insert into notification (account_id, kind, details, in_app, created_at)
           select account_id, 'digest', jsonb_build_object('date', digest_sent_on), false, $1 from due"#,
    )
    .bind(now)
    .execute(pool)
    .await?;
    Ok(queued.rows_affected())
}

/// Queues "your leave ends" for every leave of more than a day that ends within the next
/// 24 hours at `now`, once per leave (instances running this at once are serialised by
/// a transaction-scoped advisory lock). Returns the notifications queued.
///
/// # Errors
/// Database failure.
pub async fn queue_vacation_endings(pool: &PgPool, now: OffsetDateTime) -> DomainResult<u64> {
    let mut tx = pool.begin().await?;
    // The lock's key: "mail" in ASCII; any number no other lock uses.
    sqlx::query("select pg_advisory_xact_lock(1835100524)").execute(&mut *tx).await?;
    let queued = sqlx::query(
        r#"insert into notification (account_id, kind, details, created_at)
           select v.account_id, 'vacation-ending',
               jsonb_build_object('vacation_id', v.vacation_id, 'ends', to_char(v.ends_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"')), $1
           from vacation v
           where v.starts_at <= $1 and v.ends_at > $1 and v.ends_at <= $1 + interval '24 hours'
               and v.ends_at - v.starts_at > interval '24 hours'
               and not exists (select 1 from notification n
                               where n.account_id = v.account_id and n.kind = 'vacation-ending'
                                   and n.details->>'vacation_id' = v.vacation_id::text)"#,
    )
    .bind(now)
    .execute(&mut *tx)
    .await?;
    tx.commit().await?;
    Ok(queued.rows_affected())
}
