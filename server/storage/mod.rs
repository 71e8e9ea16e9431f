//! PostgreSQL: the pool, the migrations runner and the embedded private cluster.

pub mod alarms;
pub mod email;
pub mod embedded;
pub mod endings;
pub mod games;
pub mod notifications;
pub mod notify;
pub mod outbox;
pub mod presence;
pub mod vacation;

use std::time::Duration;

use secrecy::ExposeSecret;
use sqlx::postgres::{PgConnectOptions, PgPoolOptions};
use sqlx::{ConnectOptions, PgPool};

use crate::config::DatabaseSettings;
use embedded::{EmbeddedPostgres, EMBEDDED_DATABASE};

/// The database the server runs on, with the private cluster that holds it (if embedded).
#[derive(Debug)]
pub struct Database {
    /// Connection pool.
    pub pool: PgPool,
    /// The private cluster, when no external URL is configured.
    pub embedded: Option<EmbeddedPostgres>,
}

/// Connects to the configured database, starting the private cluster when no URL is set,
/// and runs the migrations.
///
/// # Errors
/// The cluster cannot start, the database is unreachable, or a migration fails.
pub async fn open(settings: &DatabaseSettings) -> anyhow::Result<Database> {
    let (url, embedded) = match &settings.url {
        Some(url) => (url.expose_secret().to_owned(), None),
        None => {
            let data_dir = settings.embedded_data_dir.clone();
            let port = settings.embedded_port;
            let cluster =
                tokio::task::spawn_blocking(move || EmbeddedPostgres::start(&data_dir, port)).await??;
            create_database_if_missing(&cluster.url("postgres"), EMBEDDED_DATABASE).await?;
            (cluster.url(EMBEDDED_DATABASE), Some(cluster))
        }
    };
    let pool = connect(&url, settings.max_connections).await?;
    migrate(&pool).await?;
    Ok(Database { pool, embedded })
}

/// A pool on `url` (statements are not logged: they may carry secrets).
///
/// # Errors
/// Invalid URL or unreachable server.
pub async fn connect(url: &str, max_connections: u32) -> anyhow::Result<PgPool> {
    let options: PgConnectOptions = url.parse::<PgConnectOptions>()?.disable_statement_logging();
    Ok(PgPoolOptions::new()
        .max_connections(max_connections)
        .acquire_timeout(Duration::from_secs(10))
        // No ping before every checkout: it is one more round trip per transaction (a
        // move is a handful of them). A connection that died meanwhile fails its first
        // statement instead and is dropped by the pool; connections idle for a minute are
        // closed, so a restarted server leaves few stale ones behind.
        .test_before_acquire(false)
        .idle_timeout(Duration::from_secs(60))
        .connect_with(options)
        .await?)
}

/// Runs the embedded migrations (`migrations/`).
///
/// # Errors
/// A migration fails or the history does not match.
pub async fn migrate(pool: &PgPool) -> anyhow::Result<()> {
    sqlx::migrate!("./migrations").run(pool).await?;
    Ok(())
}

/// Creates database `name` through the maintenance database at `admin_url`, if absent.
///
/// # Errors
/// The server is unreachable or refuses.
pub async fn create_database_if_missing(admin_url: &str, name: &str) -> anyhow::Result<()> {
    let admin = connect(admin_url, 1).await?;
    let exists: bool = sqlx::query_scalar(r#"select exists (select 1 from pg_database where datname = $1)"#)
        .bind(name)
        .fetch_one(&admin)
        .await?;
    if !exists {
        // Identifiers cannot be bound; the name is ours and quoted.
        sqlx::query(&format!(r#"create database "{}""#, name.replace('"', ""))).execute(&admin).await?;
    }
    admin.close().await;
    Ok(())
}
