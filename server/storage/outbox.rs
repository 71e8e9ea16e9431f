//! The mail outbox: the senders of any number of instances claim pending notification
//! rows with `FOR UPDATE SKIP LOCKED` (no two claim one row), each claim holding until
//! `claimed_until`, and record the outcome. A row whose claim ran out (its instance died
//! between claiming and recording) is claimed again: see [`claim`] for the window in
//! which a mail can then go out twice.

use rand::RngCore;
use serde::Serialize;
use serde_json::Value;
use sqlx::PgPool;
use time::OffsetDateTime;

use crate::domain::error::DomainResult;

/// A claimed notification with what the sender needs of its account.
#[derive(Clone, Debug, sqlx::FromRow)]
pub struct Claimed {
    /// The notification.
    pub notification_id: i64,
    /// Its account.
    pub account_id: i64,
    /// Its kind's stored name.
    pub kind: String,
    /// What it is about.
    pub game_id: Option<i64>,
    /// What it is about.
    pub challenge_id: Option<i64>,
    /// What it is about.
    pub tournament_id: Option<i64>,
    /// Its details.
    pub details: Value,
    /// An account mail's address.
    pub to_address: Option<String>,
    /// Attempts so far, this one included.
    pub attempts: i32,
    /// The account's name.
    pub username: String,
    /// The account's verified address, if any.
    pub verified_email: Option<String>,
    /// The account's language setting (`auto`, `en`, `it`).
    pub language: String,
    /// The account's chosen delivery of this kind, if any.
    pub delivery: Option<String>,
    /// The account's time zone (times in its mails are local).
    pub time_zone: String,
    /// `sending` when claimed; `skipped` or `digest` when the claim settled it (nothing
    /// more to do but tell the account's sockets).
    pub mail_state: String,
}

/// The key that signs the mails' links: made by the first instance, shared by all.
///
/// # Errors
/// Database failure.
pub async fn signing_key(pool: &PgPool) -> DomainResult<Vec<u8>> {
    let mut fresh = [0u8; 32];
    rand::rngs::OsRng.fill_bytes(&mut fresh);
    sqlx::query(r#"insert into signing_key (signing_key_id, key) values (1, $1) on conflict do nothing"#)
        .bind(fresh.as_slice())
        .execute(pool)
        .await?;
    Ok(sqlx::query_scalar(r#"select key from signing_key where signing_key_id = 1"#).fetch_one(pool).await?)
}

/// Claims up to `limit` rows due at `now` (pending and due, or claimed by a sender whose
/// claim ran out), until `until`, counting the attempt.
///
/// A row whose mail the account's settings alone decide is settled by the same statement
/// instead of being claimed (its state in [`Claimed::mail_state`]; the decision is the
/// database function `notification_mail_decision`, migration 20261128000001, which the
/// move's statement also uses for its "your move" row): kinds other than
/// `account_kinds` (whose mails go to the address they name) are `skipped` for an account
/// without a verified address or with the kind's delivery `off`, and left for the
/// `digest` when it asks for that (the digest itself excepted); `off_kinds` are the kinds
/// whose default delivery is off. Those rows cost one write, not a claim and a record.
/// The "your move" of a correspondence move (the most frequent row) is settled by the
/// move's own statement already and never reaches the claim unless it is to be mailed.
///
/// The duplicate window: a sender that dies after the relay accepted a mail (its 250
/// reply to the message's data) and before [`record`] committed leaves the row claimed;
/// once the claim runs out another sender sends it again. That window is the time between
/// the relay's reply and the commit (milliseconds), and SMTP itself allows the same
/// duplicate (a reply lost after the relay accepted). The second copy has the same
/// `Message-ID`, which lets mail clients drop it. A sender that dies before the relay's
/// reply causes no duplicate: the relay discards a message whose data never ended.
///
/// # Errors
/// Database failure.
pub async fn claim(
    pool: &PgPool,
    now: OffsetDateTime,
    until: OffsetDateTime,
    limit: i64,
    (account_kinds, off_kinds): (&[&str], &[&str]),
) -> DomainResult<Vec<Claimed>> {
    Ok(sqlx::query_as(
        r#"with due as (
               select n.notification_id, a.username,
                   case when a.email_verified_at is not null then a.email end as verified_email,
                   a.language, s.delivery, a.time_zone,
                   case when d.state = 'pending' then 'sending' else d.state end as settled_state,
                   d.reason
               from notification n
               join account a on a.account_id = n.account_id
               left join notification_setting s on s.account_id = n.account_id and s.kind = n.kind
               cross join lateral notification_mail_decision(n.account_id, n.kind, n.kind = any($4), n.kind = any($5)) d
               where (n.mail_state = 'pending' and (n.next_attempt_at is null or n.next_attempt_at <= $1))
                  or (n.mail_state = 'sending' and n.claimed_until < $1)
               order by n.notification_id
               limit $3
               for update of n skip locked
           )
           update notification n set mail_state = due.settled_state, attempts = n.attempts + 1,
               claimed_until = case when due.settled_state = 'sending' then $2 end,
               last_error = case when due.settled_state = 'skipped' then due.reason else n.last_error end
           from due where n.notification_id = due.notification_id
           returning n.notification_id, n.account_id, n.kind, n.game_id, n.challenge_id, n.tournament_id,
               n.details, n.to_address, n.attempts, due.username, due.verified_email, due.language,
               due.delivery, due.time_zone, n.mail_state"#,
    )
    .bind(now)
    .bind(until)
    .bind(limit)
    .bind(account_kinds)
    .bind(off_kinds)
    .fetch_all(pool)
    .await?)
}

/// How a claimed row ends (or waits).
#[derive(Clone, Debug)]
pub enum Outcome {
    /// Handed to the relay.
    Sent,
    /// Logged (no relay configured): the subject and the text, kept for the admin's page.
    Logged(String, String),
    /// Left for the daily digest.
    Digest,
    /// Not mailed: why (off, no verified address, stale).
    Skipped(String),
    /// Refused for good, or out of attempts.
    Failed(String),
    /// Tried again at the time given.
    Retry(OffsetDateTime, String),
}

impl Outcome {
    /// The stored state, when to try again, and the error or reason.
    fn stored(&self) -> (&'static str, Option<OffsetDateTime>, Option<&str>) {
        match self {
            Outcome::Sent => ("sent", None, None),
            Outcome::Logged(..) => ("logged", None, None),
            Outcome::Digest => ("digest", None, None),
            Outcome::Skipped(why) => ("skipped", None, Some(why)),
            Outcome::Failed(why) => ("failed", None, Some(why)),
            Outcome::Retry(at, why) => ("pending", Some(*at), Some(why)),
        }
    }

    /// Whether a mail left for the relay (or the log): its outcome is recorded at once,
    /// so that the duplicate window of [`claim`] stays the time of one commit.
    pub fn mailed(&self) -> bool {
        matches!(self, Outcome::Sent | Outcome::Logged(..))
    }
}

/// Records the outcome of a claimed row (only while it is still claimed: a row another
/// sender took over after this claim ran out is that sender's). A password reset's link
/// is erased once mailed.
///
/// # Errors
/// Database failure.
pub async fn record(
    pool: &PgPool,
    notification_id: i64,
    outcome: &Outcome,
    now: OffsetDateTime,
) -> DomainResult<()> {
    let (state, next, error) = outcome.stored();
    let (subject, text) = match outcome {
        Outcome::Logged(subject, text) => (Some(subject.as_str()), Some(text.as_str())),
        _ => (None, None),
    };
    sqlx::query(
        r#"update notification set mail_state = $2, next_attempt_at = $3, last_error = $4, claimed_until = null,
               logged_subject = $6, logged_text = $7,
               mailed_at = case when $2 in ('sent', 'logged') then $5 else mailed_at end,
               details = case when kind = 'password-reset' and $2 in ('sent', 'logged', 'failed')
                              then '{}'::jsonb else details end
           where notification_id = $1 and mail_state = 'sending'"#,
    )
    .bind(notification_id)
    .bind(state)
    .bind(next)
    .bind(error)
    .bind(now)
    .bind(subject)
    .bind(text)
    .execute(pool)
    .await?;
    Ok(())
}

/// Records the outcomes of claimed rows whose mail did not leave (skipped, left for the
/// digest, failed, to be tried again) in one statement: one commit for a batch instead
/// of one per row (a "your move" per correspondence move, most of them skipped, would
/// otherwise cost every move a second commit). As [`record`], only rows still claimed.
///
/// # Errors
/// Database failure.
pub async fn record_unmailed(pool: &PgPool, outcomes: &[(i64, Outcome)]) -> DomainResult<()> {
    if outcomes.is_empty() {
        return Ok(());
    }
    let mut ids = Vec::with_capacity(outcomes.len());
    let mut states = Vec::with_capacity(outcomes.len());
    let mut nexts = Vec::with_capacity(outcomes.len());
    let mut errors = Vec::with_capacity(outcomes.len());
    for (id, outcome) in outcomes {
        let (state, next, error) = outcome.stored();
        ids.push(*id);
        states.push(state);
        nexts.push(next);
        errors.push(error);
    }
    sqlx::query(
        r#"update notification n set mail_state = o.state, next_attempt_at = o.next, last_error = o.error,
               claimed_until = null,
               details = case when n.kind = 'password-reset' and o.state = 'failed'
                              then '{}'::jsonb else n.details end
           from unnest($1::bigint[], $2::text[], $3::timestamptz[], $4::text[]) as o(id, state, next, error)
           where n.notification_id = o.id and n.mail_state = 'sending'"#,
    )
    .bind(&ids)
    .bind(&states)
    .bind(&nexts)
    .bind(&errors)
    .execute(pool)
    .await?;
    Ok(())
}

/// A row of the admin's outbox page.
#[derive(Clone, Debug, Serialize, sqlx::FromRow, utoipa::ToSchema)]
pub struct OutboxRow {
    /// Notification id.
    pub id: i64,
    /// Account name.
    pub username: String,
    /// The address it goes to (the account's, or an account mail's).
    pub address: Option<String>,
    /// Kind.
    pub kind: String,
    /// `pending`, `sending`, `sent`, `logged`, `digest`, `skipped`, `failed`.
    pub mail_state: String,
    /// Attempts so far.
    pub attempts: i32,
    /// The last error or the reason it was skipped.
    pub last_error: Option<String>,
    /// When it was made.
    #[serde(with = "time::serde::rfc3339")]
    pub created_at: OffsetDateTime,
    /// When it was mailed (or logged).
    #[serde(with = "time::serde::rfc3339::option")]
    pub mailed_at: Option<OffsetDateTime>,
    /// With no relay configured: the subject the mail would have had.
    pub logged_subject: Option<String>,
    /// With no relay configured: its text part (a reset link withheld).
    pub logged_text: Option<String>,
}

/// The newest `limit` rows of the outbox (the admin's page).
///
/// # Errors
/// Database failure.
/// Mails waiting to be sent (pending or claimed): the notification queue's depth.
pub async fn pending_count(pool: &PgPool) -> DomainResult<i64> {
    Ok(sqlx::query_scalar("select count(*) from notification where mail_state in ('pending', 'sending')")
        .fetch_one(pool)
        .await?)
}

pub async fn recent(pool: &PgPool, limit: i64) -> DomainResult<Vec<OutboxRow>> {
    Ok(sqlx::query_as(
        r#"select n.notification_id as id, a.username, coalesce(n.to_address, a.email) as address, n.kind,
               n.mail_state, n.attempts, n.last_error, n.created_at, n.mailed_at, n.logged_subject,
               n.logged_text
           from notification n join account a using (account_id)
           order by n.notification_id desc limit $1"#,
    )
    .bind(limit)
    .fetch_all(pool)
    .await?)
}

/// `at` as the local date and time of `zone` (`2026-03-04 13:00 Europe/Rome`).
///
/// # Errors
/// Database failure.
pub async fn local_time(pool: &PgPool, at: OffsetDateTime, zone: &str) -> DomainResult<String> {
    Ok(sqlx::query_scalar(r#"select to_char($1 at time zone $2, 'YYYY-MM-DD HH24:MI') || ' ' || $2"#)
        .bind(at)
        .bind(zone)
        .fetch_one(pool)
        .await?)
}

/// A game where it is the digest reader's move.
#[derive(Clone, Debug, sqlx::FromRow)]
pub struct GameToMove {
    /// The game.
    pub game_id: i64,
    /// Its variant.
    pub variant: String,
    /// When the reader's time runs out.
    pub deadline: Option<OffsetDateTime>,
    /// The other players, by name.
    pub opponents: String,
}

/// The active games where it is `account_id`'s move, the earliest deadline first.
///
/// # Errors
/// Database failure.
pub async fn games_to_move(pool: &PgPool, account_id: i64) -> DomainResult<Vec<GameToMove>> {
    Ok(sqlx::query_as(
        r#"select g.game_id, g.variant, g.deadline,
               coalesce((select string_agg(coalesce(a.username, o.player_name), ', ' order by o.seat)
                         from game_seat o left join account a on a.account_id = o.account_id
                         where o.game_id = g.game_id and o.account_id is distinct from $1), '') as opponents
           from game g join game_seat s on s.game_id = g.game_id and s.seat = g.turn_seat
           where s.account_id = $1 and g.status = 'active'
           order by g.deadline nulls last, g.game_id"#,
    )
    .bind(account_id)
    .fetch_all(pool)
    .await?)
}

/// The notifications of `account_id` left for the digest `digest_id` (made before it):
/// (kind, game).
///
/// # Errors
/// Database failure.
pub async fn digest_notices(
    pool: &PgPool,
    account_id: i64,
    digest_id: i64,
) -> DomainResult<Vec<(String, Option<i64>)>> {
    Ok(sqlx::query_as(
        r#"select kind, game_id from notification
           where account_id = $1 and mail_state = 'digest' and notification_id < $2
           order by notification_id"#,
    )
    .bind(account_id)
    .bind(digest_id)
    .fetch_all(pool)
    .await?)
}

/// Marks the notifications the digest `digest_id` listed as mailed.
///
/// # Errors
/// Database failure.
pub async fn digested(
    pool: &PgPool,
    account_id: i64,
    digest_id: i64,
    now: OffsetDateTime,
) -> DomainResult<()> {
    sqlx::query(
        r#"update notification set mail_state = 'sent', mailed_at = $3
           where account_id = $1 and mail_state = 'digest' and notification_id < $2"#,
    )
    .bind(account_id)
    .bind(digest_id)
    .bind(now)
    .execute(pool)
    .await?;
    Ok(())
}

/// Announces on `channel` that `accounts` have new notifications (the live sockets of
/// every instance then read their unread counts).
///
/// # Errors
/// Database failure.
pub async fn announce(pool: &PgPool, channel: &str, accounts: &[i64]) -> DomainResult<()> {
    let payload = accounts.iter().map(i64::to_string).collect::<Vec<_>>().join(",");
    sqlx::query(r#"select pg_notify($1, $2)"#).bind(channel).bind(payload).execute(pool).await?;
    Ok(())
}
