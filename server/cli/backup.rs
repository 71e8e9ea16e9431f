//! `tavoliere admin backup <file>` and `admin restore <file>` (issue #19 §5): `pg_dump` /
//! `pg_restore` of the configured database, embedded or external, in PostgreSQL's custom
//! format.
//!
//! A restore loads the file into a new database `<name>_restoring` first, and only when
//! that succeeded replaces the configured database with it: a damaged file leaves the
//! database as it was. Stop the servers before a restore (their connections are ended).

use std::path::{Path, PathBuf};
use std::process::Command;

use anyhow::{bail, Context};
use secrecy::ExposeSecret;

use crate::config::Settings;
use crate::storage::{self, embedded};

/// Writes the configured database to `file`; prints `backup written to <file> (<n> bytes)`.
///
/// # Errors
/// The database cannot be reached or `pg_dump` fails.
pub async fn backup(settings: &Settings, file: &Path) -> anyhow::Result<()> {
    // The file holds password hashes, tokens and addresses: readable by its owner alone,
    // from its first byte (pg_dump keeps the mode of a file it truncates).
    private_file(file)?;
    let database = storage::open(&settings.database).await?;
    let url = database_url(settings, &database);
    let dumped = run(
        "pg_dump",
        &["--format=custom", "--no-owner", "--file", &file.display().to_string(), "--dbname", &url],
    );
    super::leave(database).await?;
    dumped?;
    let bytes = std::fs::metadata(file).with_context(|| format!("reading {}", file.display()))?.len();
    println!("backup written to {} ({bytes} bytes)", file.display());
    Ok(())
}

/// Replaces the configured database with the backup `file`; prints `restored <file>`.
///
/// # Errors
/// The file cannot be read by `pg_restore`, or the database cannot be replaced.
pub async fn restore(settings: &Settings, file: &Path) -> anyhow::Result<()> {
    if !file.is_file() {
        bail!("no backup file {}", file.display());
    }
    let database = storage::open(&settings.database).await?;
    let url = database_url(settings, &database);
    database.pool.close().await;
    let result = replace(&url, file).await;
    super::leave(database).await?;
    result?;
    println!("restored {}", file.display());
    Ok(())
}

async fn replace(url: &str, file: &Path) -> anyhow::Result<()> {
    let mut parsed = url::Url::parse(url).context("the database URL")?;
    let name = parsed.path().trim_start_matches('/').to_owned();
    if name.is_empty() || name.contains('"') {
        bail!("the database URL names no usable database");
    }
    let restoring = format!("{name}_restoring");
    parsed.set_path("/postgres");
    let admin = storage::connect(parsed.as_str(), 1).await?;
    // Identifiers cannot be bound; both names are checked above and quoted.
    sqlx::query(&format!(r#"drop database if exists "{restoring}" with (force)"#)).execute(&admin).await?;
    sqlx::query(&format!(r#"create database "{restoring}""#)).execute(&admin).await?;
    parsed.set_path(&format!("/{restoring}"));
    if let Err(error) = run(
        "pg_restore",
        &["--no-owner", "--exit-on-error", "--dbname", parsed.as_str(), &file.display().to_string()],
    ) {
        let _ = sqlx::query(&format!(r#"drop database "{restoring}""#)).execute(&admin).await;
        admin.close().await;
        return Err(error.context("the backup was not restored; the database is unchanged"));
    }
    sqlx::query(&format!(r#"drop database "{name}" with (force)"#)).execute(&admin).await?;
    sqlx::query(&format!(r#"alter database "{restoring}" rename to "{name}""#)).execute(&admin).await?;
    admin.close().await;
    Ok(())
}

/// Creates `file` (or empties it) with mode 0600, whatever the umask and the mode it had.
fn private_file(file: &Path) -> anyhow::Result<()> {
    use std::os::unix::fs::{OpenOptionsExt, PermissionsExt};
    let opened = std::fs::OpenOptions::new()
        .write(true)
        .create(true)
        .truncate(true)
        .mode(0o600)
        .open(file)
        .with_context(|| format!("creating {}", file.display()))?;
    opened
        .set_permissions(std::fs::Permissions::from_mode(0o600))
        .with_context(|| format!("making {} private", file.display()))?;
    Ok(())
}

fn database_url(settings: &Settings, database: &storage::Database) -> String {
    match (&settings.database.url, &database.embedded) {
        (Some(url), _) => url.expose_secret().to_owned(),
        (None, Some(cluster)) => cluster.url(embedded::EMBEDDED_DATABASE),
        (None, None) => unreachable!("storage::open starts the embedded cluster when no URL is set"),
    }
}

/// Runs a PostgreSQL client program (beside the server binaries, else on `PATH`).
fn run(program: &str, args: &[&str]) -> anyhow::Result<()> {
    let path = embedded::find_bin_dir()
        .ok()
        .map(|dir| dir.join(program))
        .filter(|path| path.is_file())
        .unwrap_or_else(|| PathBuf::from(program));
    let output = Command::new(&path).args(args).output().with_context(|| format!("running {program}"))?;
    if !output.status.success() {
        bail!("{program} failed: {}", String::from_utf8_lossy(&output.stderr).trim());
    }
    Ok(())
}
