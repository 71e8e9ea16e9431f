//! PostgreSQL: the pool, the migrations runner and the embedded private cluster.

pub mod accounts;
pub mod alarms;
pub mod analysis;
pub mod archive;
pub mod challenges;
pub mod conditional;
pub mod desk;
pub mod email;
pub mod embedded;
pub mod endings;
pub mod games;
pub mod health;
pub mod home;
pub mod imports;
pub mod keyset;
pub mod move_connections;
pub mod move_writes;
pub mod notifications;
pub mod notify;
pub mod outbox;
pub mod players;
pub mod preferences;
pub mod presence;
pub mod ratings;
pub mod sections;
pub mod supervise;
pub mod tournaments;
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

/// The `application_name` of every connection Tavoliere opens: `admin restore` looks for
/// other sessions of it on an external database (a server using it).
pub const APPLICATION_NAME: &str = "tavoliere";

impl Database {
    /// Which database this is, for the output of an operator command: the private
    /// cluster's directory and port, or the external URL without its password.
    pub fn describe(&self, settings: &DatabaseSettings) -> String {
        match (&self.embedded, &settings.url) {
            (Some(cluster), _) => {
                format!("the private cluster in {} (port {})", cluster.data_dir().display(), cluster.port())
            }
            (None, Some(url)) => match url::Url::parse(url.expose_secret()) {
                Ok(mut parsed) => {
                    let _ = parsed.set_password(None);
                    parsed.to_string()
                }
                Err(_) => "the configured database URL".to_owned(),
            },
            (None, None) => "the configured database".to_owned(),
        }
    }
}

/// [`open`] for an operator command (`migrate`, `admin ...`): with no database URL, the
/// private cluster must already exist in the configured data directory, unless `create`
/// (`--create-database`): run from the wrong directory, a command would otherwise make a
/// new empty cluster there and work on it.
///
/// # Errors
/// No cluster and not `create`, or as [`open`].
pub async fn open_existing(settings: &DatabaseSettings, create: bool) -> anyhow::Result<Database> {
    if settings.url.is_none() && !create && !EmbeddedPostgres::exists_in(&settings.embedded_data_dir)? {
        anyhow::bail!(
            "no database in {}: an operator command uses the database `tavoliere serve` uses, \
             found from the working directory's config/ and the TAVOLIERE_ variables (run it \
             where the server runs, or set TAVOLIERE_DATABASE__EMBEDDED_DATA_DIR or \
             TAVOLIERE_DATABASE__URL); give --create-database to make a new one there",
            settings.embedded_data_dir.display()
        );
    }
    // A command may wait for its connection longer than a request does (the short wait
    // answers clients at once during an outage): a cluster just started, on a busy
    // machine, may take more than a second.
    let mut settings = settings.clone();
    settings.acquire_timeout_ms = settings.acquire_timeout_ms.max(COMMAND_ACQUIRE_TIMEOUT_MS);
    open(&settings).await
}

/// How long an operator command waits for a database connection, at least.
const COMMAND_ACQUIRE_TIMEOUT_MS: u64 = 10_000;

/// Connects to the configured database, starting the private cluster when no URL is set,
/// and runs the migrations.
///
/// # Errors
/// The cluster cannot start, the database is unreachable, or a migration fails.
pub async fn open(settings: &DatabaseSettings) -> anyhow::Result<Database> {
    let (url, embedded) = match &settings.url {
        Some(url) => {
            let url = url.expose_secret().to_owned();
            wait_for_database(&url, Duration::from_secs(settings.connect_at_start_seconds)).await?;
            (url, None)
        }
        None => {
            let data_dir = settings.embedded_data_dir.clone();
            let port = settings.embedded_port;
            let cluster =
                tokio::task::spawn_blocking(move || EmbeddedPostgres::start(&data_dir, port)).await??;
            create_database_if_missing(&cluster.url("postgres"), EMBEDDED_DATABASE).await?;
            (cluster.url(EMBEDDED_DATABASE), Some(cluster))
        }
    };
    log_where(settings, &url, embedded.as_ref());
    let limit = Duration::from_secs(settings.connect_at_start_seconds);
    let acquire_timeout = Duration::from_millis(settings.acquire_timeout_ms);
    let pool = at_start("opening the pool", limit, || async {
        connect_waiting(&url, settings.max_connections, acquire_timeout).await
    })
    .await?;
    at_start("migrating", limit, || migrate(&pool)).await?;
    Ok(Database { pool, embedded })
}

/// Runs a step of the start until it succeeds, fails for another reason than a database
/// that is unreachable or too slow to hand out a connection (a machine loaded at the
/// start of a rolling restart: the serving pool gives up after a second), or `limit` has
/// passed; each failed try is logged.
///
/// # Errors
/// The step's last error.
pub async fn at_start<T, Fut>(
    what: &'static str,
    limit: Duration,
    mut step: impl FnMut() -> Fut,
) -> anyhow::Result<T>
where
    Fut: std::future::Future<Output = anyhow::Result<T>>,
{
    let deadline = tokio::time::Instant::now() + limit;
    loop {
        match step().await {
            Ok(value) => return Ok(value),
            Err(error) if is_unavailable_at_all(&error) && tokio::time::Instant::now() < deadline => {
                tracing::warn!(error = %format!("{error:#}"), "{what}: the database does not answer yet; trying again in a second");
                tokio::time::sleep(Duration::from_secs(1)).await;
            }
            Err(error) => return Err(error),
        }
    }
}

/// Whether anything in `error`'s chain is a database error that [`is_unavailable`] (the
/// session store's errors and the domain's included).
fn is_unavailable_at_all(error: &anyhow::Error) -> bool {
    error.chain().any(|cause| {
        cause.downcast_ref::<sqlx::Error>().is_some_and(is_unavailable)
            || cause.downcast_ref::<sqlx::migrate::MigrateError>().is_some_and(|migrate| {
                matches!(migrate, sqlx::migrate::MigrateError::Execute(inner) if is_unavailable(inner))
            })
            || matches!(
                cause.downcast_ref::<tower_sessions_sqlx_store::SqlxStoreError>(),
                Some(tower_sessions_sqlx_store::SqlxStoreError::Sqlx(inner)) if is_unavailable(inner)
            )
            || cause.downcast_ref::<crate::domain::DomainError>().is_some_and(|domain| {
                domain.kind() == crate::domain::ErrorKind::Unavailable
                    || matches!(domain, crate::domain::DomainError::Internal(inner) if is_unavailable_at_all(inner))
            })
    })
}

/// Says once, at start, which database this process uses (issue 40 §5): the private
/// cluster's data directory (and why it is not the configured one, as root) and port, or
/// the external server's host, port and database (never the user or the password).
fn log_where(settings: &DatabaseSettings, url: &str, embedded: Option<&EmbeddedPostgres>) {
    match embedded {
        Some(cluster) => {
            let configured = &settings.embedded_data_dir;
            let moved = !cluster.data_dir().ends_with(configured);
            if moved {
                tracing::info!(
                    data_dir = %cluster.data_dir().display(),
                    configured = %configured.display(),
                    port = cluster.port(),
                    "database: the private PostgreSQL cluster, in a directory of its own because it runs as \
                     the postgres account, which cannot reach the configured one"
                );
            } else {
                tracing::info!(data_dir = %cluster.data_dir().display(), port = cluster.port(), "database: the private PostgreSQL cluster");
            }
        }
        None => match url::Url::parse(url) {
            Ok(parsed) => tracing::info!(
                host = parsed.host_str().unwrap_or("(socket)"),
                port = parsed.port().unwrap_or(5432),
                database = parsed.path().trim_start_matches('/'),
                "database: an external PostgreSQL"
            ),
            Err(_) => tracing::info!("database: an external PostgreSQL"),
        },
    }
}

/// Waits up to `limit` for the database at `url` to accept a connection (a database
/// container starting at the same time as the server), logging each failed try.
async fn wait_for_database(url: &str, limit: Duration) -> anyhow::Result<()> {
    let options: PgConnectOptions = url.parse::<PgConnectOptions>()?.disable_statement_logging();
    let deadline = tokio::time::Instant::now() + limit;
    loop {
        let attempt = match options.connect().await {
            Ok(connection) => sqlx::Connection::close(connection).await,
            Err(error) => Err(error),
        };
        match attempt {
            Ok(()) => return Ok(()),
            Err(error) if is_unavailable(&error) && tokio::time::Instant::now() < deadline => {
                tracing::warn!(%error, "the database does not answer yet; trying again in a second");
                tokio::time::sleep(Duration::from_secs(1)).await;
            }
            Err(error) => return Err(error.into()),
        }
    }
}

/// A pool on `url` (statements are not logged: they may carry secrets), for tools and
/// tests: a request waits up to 10 s for a connection.
///
/// # Errors
/// Invalid URL or unreachable server.
pub async fn connect(url: &str, max_connections: u32) -> anyhow::Result<PgPool> {
    connect_waiting(url, max_connections, Duration::from_secs(10)).await
}

/// A pool on `url` whose requests wait up to `acquire_timeout` for a connection.
///
/// # Errors
/// Invalid URL or unreachable server.
pub async fn connect_waiting(
    url: &str,
    max_connections: u32,
    acquire_timeout: Duration,
) -> anyhow::Result<PgPool> {
    let options: PgConnectOptions =
        url.parse::<PgConnectOptions>()?.disable_statement_logging().application_name(APPLICATION_NAME);
    Ok(PgPoolOptions::new()
        .max_connections(max_connections)
        .acquire_timeout(acquire_timeout)
        // No ping before every checkout: it is one more round trip per transaction (a
        // move is a handful of them). A connection that died meanwhile fails its first
        // statement instead and is dropped by the pool; connections idle for a minute are
        // closed, so a restarted server leaves few stale ones behind.
        .test_before_acquire(false)
        .idle_timeout(Duration::from_secs(60))
        .connect_with(options)
        .await?)
}

/// Whether `error` means the database cannot be reached now (down, restarting, refusing
/// connections, or no connection free within the acquire timeout), as opposed to a
/// refusal of the statement: the request is answered 503 and may be tried again.
pub fn is_unavailable(error: &sqlx::Error) -> bool {
    match error {
        sqlx::Error::PoolTimedOut | sqlx::Error::PoolClosed | sqlx::Error::Io(_) | sqlx::Error::Tls(_) => {
            true
        }
        sqlx::Error::Protocol(_) | sqlx::Error::WorkerCrashed => true,
        // Class 08: connection exceptions; 57P01-57P03: the server is shutting down or
        // starting (admin_shutdown, crash_shutdown, cannot_connect_now).
        sqlx::Error::Database(db) => db
            .code()
            .is_some_and(|code| code.starts_with("08") || matches!(&*code, "57P01" | "57P02" | "57P03")),
        _ => false,
    }
}

/// Runs the embedded migrations (`migrations/`).
///
/// # Errors
/// A migration fails or the history does not match.
pub async fn migrate(pool: &PgPool) -> anyhow::Result<()> {
    let mut migrator = sqlx::migrate!("./migrations");
    // A rollback: a newer release migrated this database and this binary does not know
    // its latest migrations. Every migration keeps the previous release working
    // (DEVELOPERS.md "Migrations and upgrades"), so it serves on it (issue 40 §2).
    migrator.set_ignore_missing(true);
    // Every step on one connection, closed at the end rather than handed back: a
    // connection dropped goes back to the pool on a task of its own, and a `Pool::close`
    // meanwhile may miss it and leave it open (an operator command's `admin restore` closes
    // its pool and then looks for other sessions on the database).
    let mut connection = pool.acquire().await?;
    let before = applied_migrations(&mut connection).await?;
    migrator.run(&mut *connection).await?;
    let after = applied_migrations(&mut connection).await?;
    connection.close().await?;
    let applied: Vec<i64> = after.iter().filter(|version| !before.contains(version)).copied().collect();
    let known: std::collections::BTreeSet<i64> = migrator.iter().map(|migration| migration.version).collect();
    let unknown: Vec<i64> = after.iter().filter(|version| !known.contains(version)).copied().collect();
    if applied.is_empty() {
        tracing::info!(migrations = after.len(), latest = ?after.last(), "the database schema is up to date");
    } else {
        tracing::info!(?applied, "migrations applied");
    }
    if !unknown.is_empty() {
        tracing::warn!(
            versions = ?unknown,
            "the database has migrations this binary does not know: a newer release ran them; serving on it \
             (every migration keeps the previous release working)"
        );
    }
    Ok(())
}

/// The versions of the migrations applied to the database, oldest first (none before the
/// first run).
async fn applied_migrations(connection: &mut sqlx::PgConnection) -> anyhow::Result<Vec<i64>> {
    let exists: Option<String> = sqlx::query_scalar("select to_regclass('_sqlx_migrations')::text")
        .fetch_one(&mut *connection)
        .await?;
    if exists.is_none() {
        return Ok(Vec::new());
    }
    Ok(sqlx::query_scalar("select version from _sqlx_migrations where success order by version")
        .fetch_all(&mut *connection)
        .await?)
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

#[cfg(test)]
mod tests {
    /// Statements that can break the binary of the release before (which keeps running
    /// beside the new one during a zero-downtime upgrade, DEVELOPERS.md "Migrations and
    /// upgrades"), as lower-case text a statement contains.
    const BREAKING: [&str; 9] = [
        "drop table",
        "drop column",
        "rename ",
        " type ",
        "set not null",
        "drop trigger",
        "drop constraint",
        "drop function",
        "drop not null",
    ];

    /// Migrations written before the rule, which cannot be annotated now: a changed
    /// migration no longer matches the checksum of the databases that ran it. Each was
    /// checked by hand against the binary before it (see DEVELOPERS.md).
    const BEFORE_THE_RULE: [&str; 4] = [
        "20261122000900_deadline_lookup_without_deadline_index.sql",
        "20261122001000_revision_bump_only_when_not_set.sql",
        "20261125500001_imported_games.sql",
        "20261126100001_account_administration.sql",
    ];

    /// The breaking statements of migration `text` that no `-- upgrade:` line explains.
    fn unexplained(text: &str) -> Vec<&'static str> {
        if text.lines().any(|line| line.trim_start().starts_with("-- upgrade:")) {
            return Vec::new();
        }
        let code: String = text
            .lines()
            .filter(|line| !line.trim_start().starts_with("--"))
            .collect::<Vec<_>>()
            .join(" ")
            .to_lowercase();
        BREAKING.into_iter().filter(|statement| code.contains(statement)).collect()
    }

    #[test]
    fn migrations_that_could_break_the_previous_binary_say_why_they_do_not() {
        let directory = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("migrations");
        let mut found = Vec::new();
        for entry in std::fs::read_dir(&directory).expect("the migrations directory") {
            let path = entry.expect("an entry").path();
            let name = path.file_name().and_then(|n| n.to_str()).unwrap_or_default().to_owned();
            if BEFORE_THE_RULE.contains(&name.as_str()) {
                continue;
            }
            let text = std::fs::read_to_string(&path).expect("a migration");
            found.extend(
                unexplained(&text).into_iter().map(|statement| format!("{name}: `{}`", statement.trim())),
            );
        }
        assert!(
            found.is_empty(),
            "these migrations may break the running older binary; add a line `-- upgrade: <why the \
             previous release still works>` or split them (DEVELOPERS.md): {found:?}"
        );
        for name in BEFORE_THE_RULE {
            assert!(directory.join(name).exists(), "{name} is listed but gone");
        }
    }

    #[test]
    fn a_dropped_column_needs_its_reason_and_a_comment_does_not_count() {
        assert_eq!(unexplained("alter table game drop column ruleset;"), vec!["drop column"]);
        assert!(unexplained("-- we could drop column x later\nalter table game add column y int;").is_empty());
        let explained =
            "-- upgrade: the previous release never reads ruleset\nalter table game drop column ruleset;";
        assert!(unexplained(explained).is_empty());
    }
}
