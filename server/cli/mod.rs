//! The command line: `serve`, `ready`, `migrate`, `admin ...`, `perft`, `replay`.

pub mod backup;
pub mod perft;
pub mod ready;
pub mod replay;

use std::io::Read;
use std::process::ExitCode;

use clap::{Parser, Subcommand};
use secrecy::SecretString;

use crate::config::Settings;
use crate::domain::accounts::{self, Role, Username};
use crate::domain::admin;
use crate::startup::Application;
use crate::{storage, telemetry};

/// `tavoliere --version`: the package's version and the commit it was built from
/// (`-dirty` when the tree had changes not committed), e.g. `0.1.0 (3f2a9c1b07de)`.
pub const VERSION: &str = concat!(env!("CARGO_PKG_VERSION"), " (", env!("TAVOLIERE_COMMIT"), ")");

/// Tavoliere: online play server for Xiangqi, Shogi, MiniShogi, Flickering chess and the
/// Seven Kingdoms.
#[derive(Debug, Parser)]
#[command(version = VERSION, about)]
pub struct Cli {
    /// What to do.
    #[command(subcommand)]
    pub command: Command,
}

/// The subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Serve HTTP (starts the private PostgreSQL cluster when no database URL is set).
    Serve,
    /// Ask the server configured here (its port, on the loopback address) whether it is
    /// ready: exit 0 when `/readyz` answers 200 within two seconds (the container's health
    /// check).
    Ready {
        /// The address to ask instead of the loopback address.
        #[arg(long, default_value = "127.0.0.1")]
        host: String,
    },
    /// Run the database migrations and exit.
    Migrate(DatabaseArgs),
    /// Administration.
    Admin(AdminArgs),
    /// Count move-generation leaf nodes.
    Perft(perft::Args),
    /// Replay a game record.
    Replay(replay::Args),
}

/// Which database an operator command may use.
#[derive(Debug, clap::Args)]
pub struct DatabaseArgs {
    /// Create the private PostgreSQL cluster when the configured data directory has none
    /// (otherwise the command refuses: run from the wrong directory, it would work on a new
    /// empty database).
    #[arg(long, global = true)]
    pub create_database: bool,
}

/// `tavoliere admin ...`.
#[derive(Debug, clap::Args)]
pub struct AdminArgs {
    /// The database choice.
    #[command(flatten)]
    pub database: DatabaseArgs,
    /// What to do.
    #[command(subcommand)]
    pub command: AdminCommand,
}

/// Administration subcommands.
#[derive(Debug, Subcommand)]
pub enum AdminCommand {
    /// Create an account, e.g. the first admin.
    CreateUser {
        /// Username.
        name: String,
        /// Role.
        #[arg(long, value_enum, default_value = "player")]
        role: Role,
        /// Read the password from standard input (otherwise from TAVOLIERE_ADMIN_PASSWORD).
        #[arg(long)]
        password_stdin: bool,
    },
    /// Grant or revoke a role: `player`, `director`, `global-director` or `admin`
    /// (recorded in the audit log as made by the command line).
    SetRole {
        /// Username.
        name: String,
        /// The new role.
        #[arg(value_enum)]
        role: Role,
    },
    /// Write the configured database (embedded or external) to a file (`pg_dump`, custom
    /// format).
    Backup {
        /// The file to write.
        file: std::path::PathBuf,
    },
    /// Replace the configured database with a backup. Refused while another process uses
    /// the database (a server: stop it first).
    Restore {
        /// The backup file.
        file: std::path::PathBuf,
        /// Replace the database even while other processes use it (their connections are
        /// ended; what they write meanwhile is lost).
        #[arg(long)]
        force: bool,
    },
}

/// Parses the arguments and runs the command.
pub fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        Command::Perft(args) => perft::run(args),
        Command::Replay(args) => replay::run(args),
        other => {
            // The settings come first: they choose the log format.
            let (settings, report) = match Settings::load_reporting() {
                Ok(loaded) => loaded,
                Err(error) => {
                    eprintln!("error: configuration: {error}");
                    return ExitCode::FAILURE;
                }
            };
            telemetry::init(settings.log.format);
            report.log();
            for warning in settings.warnings() {
                tracing::warn!("{warning}");
            }
            let runtime = match tokio::runtime::Runtime::new() {
                Ok(runtime) => runtime,
                Err(error) => {
                    eprintln!("error: {error}");
                    return ExitCode::FAILURE;
                }
            };
            match runtime.block_on(run(other, settings)) {
                Ok(()) => ExitCode::SUCCESS,
                Err(error) => {
                    eprintln!("error: {error:#}");
                    ExitCode::FAILURE
                }
            }
        }
    }
}

/// Raises the soft open-file limit to the hard one before serving, as the load generator
/// does: every live socket and pool connection is a file descriptor, and shells and service
/// managers start processes at a soft limit of 1,024 (systemd's default) under a far higher
/// hard limit, which would refuse the 1,025th socket. The embedded cluster's processes
/// inherit it (PostgreSQL caps its own use at `max_files_per_process`). Logged, so that an
/// operator sees the limit the server runs with (raise the hard one with `LimitNOFILE=` or
/// `ulimit -Hn`).
fn raise_open_file_limit() {
    match rlimit::increase_nofile_limit(u64::MAX) {
        Ok(limit) => tracing::info!(open_files = limit, "open-file limit"),
        Err(error) => tracing::warn!(%error, "cannot raise the open-file limit"),
    }
}

async fn run(command: Command, settings: Settings) -> anyhow::Result<()> {
    match command {
        Command::Serve => {
            raise_open_file_limit();
            Application::build(settings).await?.run_until_stopped().await
        }
        Command::Ready { host } => ready::run(&host, settings.application.port).await,
        Command::Migrate(choice) => {
            let database = open_for_command(&settings, &choice).await?;
            leave(database).await?;
            println!("migrations applied");
            Ok(())
        }
        Command::Admin(AdminArgs { database: choice, command }) => admin(command, &settings, &choice).await,
        Command::Perft(_) | Command::Replay(_) => anyhow::bail!("perft and replay run without a runtime"),
    }
}

/// Runs an administration command.
async fn admin(command: AdminCommand, settings: &Settings, choice: &DatabaseArgs) -> anyhow::Result<()> {
    match command {
        AdminCommand::CreateUser { name, role, password_stdin } => {
            let username = Username::parse(&name)?;
            let password = if password_stdin {
                let mut text = String::new();
                std::io::stdin().read_to_string(&mut text)?;
                text.trim_end_matches(['\r', '\n']).to_owned()
            } else {
                std::env::var("TAVOLIERE_ADMIN_PASSWORD").map_err(|_| {
                    anyhow::anyhow!("give the password with --password-stdin or TAVOLIERE_ADMIN_PASSWORD")
                })?
            };
            let database = open_for_command(settings, choice).await?;
            let result =
                accounts::register(&database.pool, &username, SecretString::from(password), role).await;
            leave(database).await?;
            let account = result?;
            println!("created {} ({})", account.username, account.role.as_str());
            Ok(())
        }
        AdminCommand::SetRole { name, role } => {
            let database = open_for_command(settings, choice).await?;
            let result = admin::set_role_by_command(&database.pool, &name, role).await;
            leave(database).await?;
            let account = result?;
            println!("{} is now {}", account.username, account.role);
            Ok(())
        }
        AdminCommand::Backup { file } => {
            let database = open_for_command(settings, choice).await?;
            backup::backup(settings, database, &file).await
        }
        AdminCommand::Restore { file, force } => {
            if !file.is_file() {
                anyhow::bail!("no backup file {}", file.display());
            }
            let database = open_for_command(settings, choice).await?;
            backup::restore(settings, database, &file, force).await
        }
    }
}

/// Opens the configured database for an operator command (a new private cluster only with
/// `--create-database`) and prints which one it is: `database: <where>`.
async fn open_for_command(settings: &Settings, choice: &DatabaseArgs) -> anyhow::Result<storage::Database> {
    let database = storage::open_existing(&settings.database, choice.create_database).await?;
    println!("database: {}", database.describe(&settings.database));
    Ok(database)
}

/// Closes the pool and leaves the private cluster: a command run beside a running server
/// (the way to create the first admin) leaves the cluster to the server; one run alone
/// stops the cluster it started (server/storage/embedded.rs).
pub(crate) async fn leave(database: storage::Database) -> anyhow::Result<()> {
    database.pool.close().await;
    if let Some(mut cluster) = database.embedded {
        tokio::task::spawn_blocking(move || cluster.stop()).await??;
    }
    Ok(())
}
