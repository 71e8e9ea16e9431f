//! PostgreSQL LISTEN/NOTIFY: how every instance learns that a game changed.
//!
//! Every committed change of a game (a move, a result, a draw offer, a seat leaving) is
//! announced by [`Announcer`] just after its commit, batched, from a connection of its
//! own; the domain hands the view it built to this instance's sockets directly
//! (`crate::domain::LocalRooms`). A transaction that NOTIFYs holds a database-wide lock
//! from its commit until it ends, its WAL flush included (PostgreSQL's
//! `PreCommit_Notify`), so durable transactions that notify commit one at a time: on this
//! project's two-core machine pgbench's TPC-B went from 4536 to 1883 transactions per
//! second with one `pg_notify` added. Changes therefore commit without it, and one
//! connection per instance sends the changes committed meanwhile in one NOTIFY, without
//! waiting for its flush. A change it could not send (the instance died just after the
//! commit) is caught by the hub's periodic resync (`crate::live::hub::resync`).
//!
//! Each server instance holds ONE listening connection ([`listen`]) and relays the payloads
//! to its sockets (`crate::live::Hub`). A payload lists changes
//! `"<game id>:<ply>:<revision>"` separated by commas, within PostgreSQL's 8000-byte
//! limit; subscribers read the new state from the database unless they have that revision
//! already. The same connection hears the watcher counts' channel
//! (`super::presence`) and the revoked tokens' ([`TOKEN_CHANNEL`]).

use sqlx::postgres::PgListener;
use sqlx::{Connection, PgConnection, PgPool};
use tokio::sync::{mpsc, oneshot};

use super::notifications::NOTIFICATION_CHANNEL;
use super::presence::WATCHERS_CHANNEL;

/// The channel every game change is announced on.
pub const GAME_CHANNEL: &str = "tavoliere_game";

/// The channel a revoked bearer token's digest (hex) is announced on: every instance
/// forgets it from its cache of checked tokens (`crate::domain::accounts::TokenCache`).
pub const TOKEN_CHANNEL: &str = "tavoliere_token";

/// The channel an account's id is announced on when an admin disables it: every instance
/// closes the account's live sockets (issue 20 §1: a disabled account can no longer move).
pub const ACCOUNT_DISABLED_CHANNEL: &str = "tavoliere_account_disabled";

/// A game changed (a move, a result, a draw offer): game id, ply and revision (the game
/// row's, migration 000800) after the change.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GameChanged {
    /// The game.
    pub game_id: i64,
    /// Its ply after the change.
    pub ply: i32,
    /// The game row's revision after the change; [`GameChanged::UNKNOWN`] when not known
    /// (the game must be read to learn what changed).
    pub revision: i64,
}

impl GameChanged {
    /// The revision of a change whose revision is not known.
    pub const UNKNOWN: i64 = -1;

    /// A change of `game_id` not known in detail: whoever watches it reads it again.
    pub fn unknown(game_id: i64) -> GameChanged {
        GameChanged { game_id, ply: -1, revision: GameChanged::UNKNOWN }
    }

    /// The NOTIFY payload.
    pub fn payload(self) -> String {
        format!("{}:{}:{}", self.game_id, self.ply, self.revision)
    }

    /// Reads one change written by [`GameChanged::payload`] (or without its revision, as
    /// older instances write it); `None` for anything else.
    pub fn parse(payload: &str) -> Option<GameChanged> {
        let mut fields = payload.split(':');
        let game_id = fields.next()?.parse().ok()?;
        let ply = fields.next()?.parse().ok()?;
        let revision = match fields.next() {
            Some(revision) => revision.parse().ok()?,
            None => GameChanged::UNKNOWN,
        };
        if fields.next().is_some() {
            return None;
        }
        Some(GameChanged { game_id, ply, revision })
    }

    /// Reads a payload of changes separated by commas (as [`Announcer`] sends them);
    /// unreadable entries are skipped.
    pub fn parse_all(payload: &str) -> Vec<GameChanged> {
        payload.split(',').filter_map(GameChanged::parse).collect()
    }
}

/// Largest payload the announcer sends (PostgreSQL refuses 8000 bytes and more).
const PAYLOAD_LIMIT: usize = 7900;

/// The payloads announcing `changes`: the latest ply of each game once, as few payloads
/// as the size limit allows.
fn batch_payloads(changes: &[GameChanged]) -> Vec<String> {
    let mut latest: Vec<GameChanged> = Vec::with_capacity(changes.len());
    for change in changes {
        match latest.iter_mut().find(|c| c.game_id == change.game_id) {
            Some(kept) => {
                kept.ply = kept.ply.max(change.ply);
                kept.revision = kept.revision.max(change.revision);
            }
            None => latest.push(*change),
        }
    }
    pack(latest.into_iter().map(GameChanged::payload))
}

/// Entries joined by commas into as few payloads as the size limit allows.
fn pack(entries: impl Iterator<Item = String>) -> Vec<String> {
    let mut payloads: Vec<String> = Vec::new();
    for entry in entries {
        match payloads.last_mut() {
            Some(last) if last.len() + 1 + entry.len() <= PAYLOAD_LIMIT => {
                last.push(',');
                last.push_str(&entry);
            }
            _ => payloads.push(entry),
        }
    }
    payloads
}

/// The payloads on [`NOTIFICATION_CHANNEL`] telling `accounts` (each once) of a new
/// notification: their ids separated by commas, within the payload limit.
fn account_payloads(accounts: &mut Vec<i64>) -> Vec<String> {
    accounts.sort_unstable();
    accounts.dedup();
    pack(accounts.iter().map(i64::to_string))
}

#[derive(Debug)]
enum Announcement {
    Change(GameChanged),
    /// Accounts with a new notification no sender will announce (settled when stored).
    Accounts(Vec<i64>),
    /// Answered once everything announced before it was sent.
    Flush(oneshot::Sender<()>),
}

/// Announces committed game changes on [`GAME_CHANNEL`] after their commit, batched, from
/// one connection of its own (see the module documentation for why).
#[derive(Clone, Debug)]
pub struct Announcer {
    queue: mpsc::UnboundedSender<Announcement>,
}

impl Announcer {
    /// Starts the sending task (it connects on the first announcement).
    pub fn start(pool: &PgPool) -> Announcer {
        let (queue, received) = mpsc::unbounded_channel();
        let options = pool.connect_options();
        tokio::spawn(send_announcements(options, received));
        Announcer { queue }
    }

    /// Announces a committed change (returns at once).
    pub fn announce(&self, change: GameChanged) {
        let _ = self.queue.send(Announcement::Change(change));
    }

    /// Tells the sockets of `accounts` (on every instance, [`NOTIFICATION_CHANNEL`]) that
    /// they have a new notification, after its commit, in the next batch (returns at once).
    pub fn tell_accounts(&self, accounts: Vec<i64>) {
        if !accounts.is_empty() {
            let _ = self.queue.send(Announcement::Accounts(accounts));
        }
    }

    /// Waits until everything announced so far was sent (or given up): graceful shutdown.
    pub async fn flush(&self) {
        let (done, sent) = oneshot::channel();
        if self.queue.send(Announcement::Flush(done)).is_ok() {
            let _ = sent.await;
        }
    }
}

/// The shortest time between two of the announcer's statements. Under load the moves of
/// one statement of several (`super::move_writes`) are announced by their requests one
/// after another within about a millisecond; waiting for the rest of them makes one NOTIFY
/// of what would be three or four (each a statement, and a wake-up of every listening
/// connection): the load bench gained 7% with no NOTIFY at all (2026-11-27). A change made
/// when none was sent for this long is sent at once; the others wait at most this long
/// (only other instances' sockets wait: this instance's hear of its changes directly).
const ANNOUNCEMENT_GAP: std::time::Duration = std::time::Duration::from_millis(1);

/// The announcer's task: takes every change queued meanwhile and sends them in one
/// statement, committed without waiting for its WAL flush (a lost announcement is
/// recovered by the resync; the change itself was durable already).
async fn send_announcements(
    options: std::sync::Arc<sqlx::postgres::PgConnectOptions>,
    mut received: mpsc::UnboundedReceiver<Announcement>,
) {
    let mut connection: Option<PgConnection> = None;
    let mut last_sent: Option<tokio::time::Instant> = None;
    while let Some(first) = received.recv().await {
        if let Some(last) = last_sent.filter(|last| last.elapsed() < ANNOUNCEMENT_GAP) {
            tokio::time::sleep_until(last + ANNOUNCEMENT_GAP).await;
        }
        let mut changes = Vec::new();
        let mut accounts = Vec::new();
        let mut flushes = Vec::new();
        let mut next = Some(first);
        while let Some(announcement) = next {
            match announcement {
                Announcement::Change(change) => changes.push(change),
                Announcement::Accounts(told) => accounts.extend(told),
                Announcement::Flush(done) => flushes.push(done),
            }
            next = received.try_recv().ok();
        }
        if !changes.is_empty() || !accounts.is_empty() {
            let mut channels = Vec::new();
            let mut payloads = Vec::new();
            for payload in batch_payloads(&changes) {
                channels.push(GAME_CHANNEL);
                payloads.push(payload);
            }
            for payload in account_payloads(&mut accounts) {
                channels.push(NOTIFICATION_CHANNEL);
                payloads.push(payload);
            }
            last_sent = Some(tokio::time::Instant::now());
            // One retry on a fresh connection; after that the resync catches up.
            for _ in 0..2 {
                if connection.is_none() {
                    match PgConnection::connect_with(&options).await {
                        Ok(opened) => connection = Some(opened),
                        Err(error) => {
                            tracing::warn!(%error, "live: cannot connect to announce game changes");
                            continue;
                        }
                    }
                }
                let Some(open) = connection.as_mut() else { continue };
                let sent = sqlx::query(
                    r#"select set_config('synchronous_commit', 'off', true), pg_notify(c, p)
                       from unnest($1::text[], $2::text[]) as x(c, p)"#,
                )
                .bind(&channels)
                .bind(&payloads)
                .execute(&mut *open)
                .await;
                match sent {
                    Ok(_) => break,
                    Err(error) => {
                        tracing::warn!(%error, "live: announcing game changes failed");
                        connection = None;
                    }
                }
            }
        }
        for done in flushes {
            let _ = done.send(());
        }
    }
    if let Some(open) = connection {
        let _ = open.close().await;
    }
}

/// A listening connection on [`GAME_CHANNEL`], the watcher counts' [`WATCHERS_CHANNEL`],
/// the revoked tokens' [`TOKEN_CHANNEL`], the disabled accounts'
/// [`ACCOUNT_DISABLED_CHANNEL`] and the notifications' channel (one per instance).
///
/// # Errors
/// The database is unreachable.
pub async fn listen(pool: &PgPool) -> Result<PgListener, sqlx::Error> {
    let mut listener = PgListener::connect_with(pool).await?;
    listener
        .listen_all([
            GAME_CHANNEL,
            WATCHERS_CHANNEL,
            TOKEN_CHANNEL,
            ACCOUNT_DISABLED_CHANNEL,
            NOTIFICATION_CHANNEL,
        ])
        .await?;
    Ok(listener)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn payloads_round_trip_and_garbage_is_refused() {
        let change = GameChanged { game_id: 42, ply: 7, revision: 9 };
        assert_eq!(GameChanged::parse(&change.payload()), Some(change));
        assert_eq!(GameChanged::parse_all(&change.payload()), vec![change]);
        assert_eq!(
            GameChanged::parse_all("1:2:3,x,3:4"),
            vec![
                GameChanged { game_id: 1, ply: 2, revision: 3 },
                GameChanged { game_id: 3, ply: 4, revision: GameChanged::UNKNOWN }
            ]
        );
        assert_eq!(GameChanged::parse("42"), None);
        assert_eq!(GameChanged::parse("x:1"), None);
        assert_eq!(GameChanged::parse("1:2:3:4"), None);
    }

    #[test]
    fn a_batch_announces_each_games_latest_ply_within_the_payload_limit() {
        let change = |game_id, ply| GameChanged { game_id, ply, revision: i64::from(ply) * 2 };
        let payloads = batch_payloads(&[change(1, 3), change(2, 8), change(1, 4), change(1, 2)]);
        assert_eq!(payloads, vec!["1:4:8,2:8:16".to_owned()]);
        let many: Vec<GameChanged> = (0..2000).map(|g| change(1_000_000 + g, 100)).collect();
        let payloads = batch_payloads(&many);
        assert!(payloads.len() > 1, "{} bytes in one payload", payloads[0].len());
        assert!(payloads.iter().all(|p| p.len() <= PAYLOAD_LIMIT));
        let back: Vec<GameChanged> = payloads.iter().flat_map(|p| GameChanged::parse_all(p)).collect();
        assert_eq!(back, many);
    }

    #[test]
    fn accounts_are_told_once_each_within_the_payload_limit() {
        assert_eq!(account_payloads(&mut vec![7, 3, 7, 12]), vec!["3,7,12".to_owned()]);
        let mut many: Vec<i64> = (0..3000).map(|a| 1_000_000_000 + a).collect();
        let payloads = account_payloads(&mut many.clone());
        assert!(payloads.len() > 1 && payloads.iter().all(|p| p.len() <= PAYLOAD_LIMIT));
        let back: Vec<i64> = payloads.iter().flat_map(|p| crate::live::accounts::parse_accounts(p)).collect();
        many.sort_unstable();
        assert_eq!(back, many);
    }
}
