//! PostgreSQL LISTEN/NOTIFY: how every instance learns that a game changed.
//!
//! The domain functions call [`game_changed`] inside their transaction; PostgreSQL
//! delivers the notification to every listening connection only when (and if) that
//! transaction commits, so a listener never hears of a move that was rolled back. Each
//! server instance holds ONE listening connection ([`listen`]) and relays the payloads to
//! its sockets (`crate::live::Hub`). Payloads are tiny (`"<game id>:<ply>"`), far below
//! PostgreSQL's 8000-byte limit; subscribers read the new state from the database.
//! The same connection hears the watcher counts' channel (`super::presence`).

use sqlx::postgres::PgListener;
use sqlx::{PgPool, Postgres, Transaction};

use super::presence::WATCHERS_CHANNEL;

/// The channel every game change is announced on.
pub const GAME_CHANNEL: &str = "tavoliere_game";

/// The channel a revoked bearer token's digest (hex) is announced on: every instance
/// forgets it from its cache of checked tokens (`crate::domain::accounts::TokenCache`).
pub const TOKEN_CHANNEL: &str = "tavoliere_token";

/// A game changed (a move, a result, a draw offer): game id and ply after the change.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GameChanged {
    /// The game.
    pub game_id: i64,
    /// Its ply after the change.
    pub ply: i32,
}

impl GameChanged {
    /// The NOTIFY payload.
    pub fn payload(self) -> String {
        format!("{}:{}", self.game_id, self.ply)
    }

    /// Reads a payload written by [`GameChanged::payload`]; `None` for anything else.
    pub fn parse(payload: &str) -> Option<GameChanged> {
        let (game, ply) = payload.split_once(':')?;
        Some(GameChanged { game_id: game.parse().ok()?, ply: ply.parse().ok()? })
    }
}

/// Announces, at commit of `tx`, that `game_id` changed and is now at `ply`.
///
/// # Errors
/// Database failure.
pub async fn game_changed(
    tx: &mut Transaction<'_, Postgres>,
    game_id: i64,
    ply: i32,
) -> Result<(), sqlx::Error> {
    sqlx::query("select pg_notify($1, $2)")
        .bind(GAME_CHANNEL)
        .bind(GameChanged { game_id, ply }.payload())
        .execute(&mut **tx)
        .await?;
    Ok(())
}

/// A listening connection on [`GAME_CHANNEL`], the watcher counts' [`WATCHERS_CHANNEL`]
/// and the revoked tokens' [`TOKEN_CHANNEL`] (one per instance).
///
/// # Errors
/// The database is unreachable.
pub async fn listen(pool: &PgPool) -> Result<PgListener, sqlx::Error> {
    let mut listener = PgListener::connect_with(pool).await?;
    listener.listen_all([GAME_CHANNEL, WATCHERS_CHANNEL, TOKEN_CHANNEL]).await?;
    Ok(listener)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn payloads_round_trip_and_garbage_is_refused() {
        let change = GameChanged { game_id: 42, ply: 7 };
        assert_eq!(GameChanged::parse(&change.payload()), Some(change));
        assert_eq!(GameChanged::parse("42"), None);
        assert_eq!(GameChanged::parse("x:1"), None);
    }
}
