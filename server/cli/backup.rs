//! `tavoliere admin backup <file>` and `admin restore <file>` (issue #19 §5): `pg_dump` /
//! `pg_restore` of the configured database, embedded or external, in PostgreSQL's custom
//! format.
//!
//! A restore loads the file into a new database `<name>_restoring` first, and only when
//! that succeeded replaces the configured database with it: a damaged file leaves the
//! database as it was. It is refused while another process uses the database (issue 36
//! §5), unless `--force`: on the private cluster, a process holding its users lock (a
//! server, or another command; the restore holds the cluster alone while it works, so a
//! server starting meanwhile waits for it); on any database, another session of
//! [`storage::APPLICATION_NAME`] connected to it (a server on another machine, which holds
//! no lock here).

use std::path::{Path, PathBuf};
use std::process::Command;

use anyhow::{bail, Context};
use secrecy::ExposeSecret;

use crate::config::Settings;
use crate::storage::{self, embedded};

/// The refusal of a restore beside another process.
const IN_USE: &str = "another process uses the database (a running server?): stop it first, or \
                      give --force to replace the database under it; the database is unchanged";

/// Writes `database` (the configured one) to `file`; prints `backup written to <file> (<n>
/// bytes)`.
///
/// # Errors
/// `pg_dump` fails.
pub async fn backup(settings: &Settings, database: storage::Database, file: &Path) -> anyhow::Result<()> {
    // The file holds password hashes, tokens and addresses: readable by its owner alone,
    // from its first byte (pg_dump keeps the mode of a file it truncates).
    private_file(file)?;
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

/// Replaces `database` (the configured one) with the backup `file`; prints `restored
/// <file>`. Refused while another process uses the database, unless `force`.
///
/// # Errors
/// Another process uses the database (without `force`), the file cannot be read by
/// `pg_restore`, or the database cannot be replaced.
pub async fn restore(
    settings: &Settings,
    mut database: storage::Database,
    file: &Path,
    force: bool,
) -> anyhow::Result<()> {
    let url = database_url(settings, &database);
    database.pool.close().await;
    let held_alone = match (&mut database.embedded, force) {
        (Some(cluster), false) => Some(cluster.try_use_alone()?),
        _ => None,
    };
    let result = match held_alone {
        Some(false) => Err(anyhow::anyhow!(IN_USE)),
        _ => replace(&url, file, force).await,
    };
    if let (Some(true), Some(cluster)) = (held_alone, &mut database.embedded) {
        cluster.share()?;
    }
    super::leave(database).await?;
    result?;
    println!("restored {}", file.display());
    Ok(())
}

async fn replace(url: &str, file: &Path, force: bool) -> anyhow::Result<()> {
    let mut parsed = url::Url::parse(url).context("the database URL")?;
    let name = parsed.path().trim_start_matches('/').to_owned();
    if name.is_empty() || name.contains('"') {
        bail!("the database URL names no usable database");
    }
    let restoring = format!("{name}_restoring");
    parsed.set_path("/postgres");
    let admin = storage::connect(parsed.as_str(), 1).await?;
    if !force && others_connected(&admin, &name).await? {
        admin.close().await;
        bail!(IN_USE);
    }
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

/// Whether sessions of another Tavoliere process are connected to database `name` (a
/// server keeps at least its listening connection open). This command's own pool is closed
/// by now, but the backends of its connections may take a moment to go: looked at for up
/// to two seconds before the answer is yes.
async fn others_connected(admin: &sqlx::PgPool, name: &str) -> anyhow::Result<bool> {
    for _ in 0..20 {
        let others: i64 = sqlx::query_scalar(
            r#"select count(*) from pg_stat_activity
               where datname = $1 and application_name = $2 and pid <> pg_backend_pid()"#,
        )
        .bind(name)
        .bind(storage::APPLICATION_NAME)
        .fetch_one(admin)
        .await?;
        if others == 0 {
            return Ok(false);
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    Ok(true)
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
