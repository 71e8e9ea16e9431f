//! The connections of the move's fast path (`domain::games::move_on_copy`): one statement
//! each, no transaction, taken from a pool of their own.
//!
//! Why not the sqlx pool: sqlx 0.8 sends a `Sync` and waits for its answer every time a
//! connection goes back to its pool (`PoolConnection::return_to_pool` pings
//! unconditionally, to flush a rollback a dropped transaction left queued), one more round
//! trip of the database per move. The load bench measured 55–61% of TPC-B with it and
//! 62–67% without it (2026-11-27, 16 and 64 clients; docs/benchmarks.md "Load benchmark"). A fast-path
//! move is one autocommitted statement, so there is no rollback to flush. What else the
//! ping covered is covered here: a connection whose statement failed is dropped (it may be
//! broken); one given back in the middle of a statement (its request went away) is pinged
//! before its next use (sqlx would also read the rest of the cancelled statement's answer
//! before its next statement); one idle for over a second is pinged too, so that a
//! connection the database ended meanwhile (a restart, `pg_terminate_backend`) is replaced
//! at checkout instead of failing a move.
//!
//! The pool is deadpool's generic one; its connections are sqlx's, opened with the
//! options of the application's pool (same database, same statement logging). They are
//! all opened when the application starts ([`MoveConnections::open_all`]), and again when
//! first needed after one was dropped.

use std::time::Duration;

use deadpool::managed::{self, Metrics, RecycleError, RecycleResult};
use sqlx::postgres::PgConnectOptions;
use sqlx::{ConnectOptions, Connection, PgConnection, PgPool};

use crate::domain::{DomainError, DomainResult};

/// A connection idle for longer than this is pinged before it is used.
const IDLE_BEFORE_PING: Duration = Duration::from_secs(1);

/// How long a statement of these connections waits for a row lock before it fails
/// (`lock_timeout`): a game row held longer than this is not held by a move (those take
/// milliseconds) but by something slow, and a fast-path statement waiting for it would hold
/// up the moves of other games waiting for its connection (`super::move_writes`). The move
/// whose statement timed out is decided on the locked path instead, which waits.
pub const LOCK_TIMEOUT_MS: u64 = 100;

/// A connection of the pool and whether its last statement was left unfinished.
#[derive(Debug)]
pub struct MoveConnection {
    connection: PgConnection,
    unfinished: bool,
}

/// Opens and checks [`MoveConnection`]s for deadpool.
#[derive(Debug)]
pub struct Manager {
    options: PgConnectOptions,
}

impl managed::Manager for Manager {
    type Type = MoveConnection;
    type Error = sqlx::Error;

    async fn create(&self) -> Result<MoveConnection, sqlx::Error> {
        Ok(MoveConnection { connection: self.options.connect().await?, unfinished: false })
    }

    async fn recycle(
        &self,
        connection: &mut MoveConnection,
        metrics: &Metrics,
    ) -> RecycleResult<sqlx::Error> {
        if connection.unfinished || metrics.last_used() > IDLE_BEFORE_PING {
            // Reads what an unfinished statement left on the wire, then a round trip.
            connection.connection.ping().await.map_err(RecycleError::Backend)?;
            connection.unfinished = false;
        }
        Ok(())
    }
}

/// The pool of the fast path's connections.
#[derive(Clone, Debug)]
pub struct MoveConnections {
    pool: managed::Pool<Manager>,
}

impl MoveConnections {
    /// A pool of at most `size` connections opened like `pool`'s; a move waits at most
    /// `wait` for one (then 503, as for the application's pool).
    ///
    /// # Panics
    /// Never: the builder fails only without a runtime for the timeouts, which is given.
    pub fn new(pool: &PgPool, size: usize, wait: Duration) -> MoveConnections {
        let options = (*pool.connect_options()).clone().options([("lock_timeout", LOCK_TIMEOUT_MS)]);
        let timeouts = managed::Timeouts { wait: Some(wait), create: Some(wait), recycle: Some(wait) };
        let pool = managed::Pool::builder(Manager { options })
            .max_size(size.max(1))
            .timeouts(timeouts)
            .runtime(deadpool::Runtime::Tokio1)
            .build()
            .expect("a pool with a runtime for its timeouts");
        MoveConnections { pool }
    }

    /// Opens every connection of the pool now, instead of when a move first needs it.
    ///
    /// Why: a connection's start (a new backend, SCRAM authentication) is waited for by
    /// every move that arrives meanwhile. Opened when first needed, the first move after
    /// the application started took 10–12 ms in each of six live runs of 1,000 games
    /// (`tavoliere-loadgen`, 2026-11-27; about 1 ms once the connections are open), and
    /// the first moment `database.move_backlog` moves wait would wait for the second
    /// connection's start the same way.
    ///
    /// # Errors
    /// A connection cannot be opened (the database is down): the pool opens them when
    /// first needed then.
    pub async fn open_all(&self) -> DomainResult<()> {
        let size = self.pool.status().max_size;
        let opened = futures_util::future::try_join_all((0..size).map(|_| self.pool.get()))
            .await
            .map_err(unavailable)?;
        drop(opened);
        Ok(())
    }

    /// Whether `error` is a statement's failure to get a row lock within [`LOCK_TIMEOUT_MS`].
    pub fn lock_timed_out(error: &DomainError) -> bool {
        let DomainError::Internal(error) = error else { return false };
        let Some(sqlx::Error::Database(database)) = error.downcast_ref::<sqlx::Error>() else { return false };
        database.code().as_deref() == Some("55P03")
    }

    /// The pool's connections: (open, idle among them, at most).
    pub fn status(&self) -> (usize, usize, usize) {
        let status = self.pool.status();
        (status.size, status.available, status.max_size)
    }

    /// Runs `statement` on a connection of the pool. A connection whose statement fails
    /// is dropped (it may be broken); one whose statement is cancelled (the request went
    /// away) is checked before its next use.
    ///
    /// # Errors
    /// No connection within the wait (503), or the statement's error.
    pub async fn run<T>(
        &self,
        statement: impl AsyncFnOnce(&mut PgConnection) -> DomainResult<T>,
    ) -> DomainResult<T> {
        let mut connection = self.pool.get().await.map_err(unavailable)?;
        connection.unfinished = true;
        match statement(&mut connection.connection).await {
            Ok(value) => {
                connection.unfinished = false;
                Ok(value)
            }
            Err(error) => {
                drop(managed::Object::take(connection));
                Err(error)
            }
        }
    }
}

/// A connection could not be had: the database is down or every connection is busy.
fn unavailable(error: managed::PoolError<sqlx::Error>) -> DomainError {
    match error {
        managed::PoolError::Backend(error) => error.into(),
        managed::PoolError::Timeout(_) | managed::PoolError::Closed => DomainError::database_unavailable(),
        other => DomainError::Internal(anyhow::anyhow!("move connections: {other}")),
    }
}
