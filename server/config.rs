//! Layered configuration: `config/base.toml`, then `config/<environment>.toml`, then
//! `TAVOLIERE_`-prefixed environment variables (`__` separates levels).

use std::path::PathBuf;

use secrecy::SecretString;
use serde::Deserialize;

use crate::web::i18n::Lang;

/// Everything the server reads at start.
#[derive(Clone, Debug, Deserialize)]
pub struct Settings {
    /// HTTP listener and cookies.
    pub application: ApplicationSettings,
    /// External or embedded PostgreSQL.
    pub database: DatabaseSettings,
    /// Correspondence clocks.
    pub clocks: ClockSettings,
    /// Login protection.
    pub auth: AuthSettings,
    /// Live games over WebSocket.
    #[serde(default)]
    pub live: LiveSettings,
    /// Mail: the SMTP relay, the sender, the outbox workers and the deadline alarms.
    #[serde(default)]
    pub mail: MailSettings,
}

/// Mail (#17): where and how notifications are sent.
#[derive(Clone, Debug, Deserialize)]
#[serde(default)]
pub struct MailSettings {
    /// The SMTP relay: `smtp://host:port` (plain), `smtps://host:port` (TLS),
    /// `smtp://host:port?tls=starttls` (STARTTLS required); user and password may be in
    /// the URL. `None`: nothing is sent, each mail is logged and kept on the admin's
    /// outbox page.
    pub smtp_url: Option<SecretString>,
    /// The SMTP user, when not in the URL.
    pub smtp_username: Option<String>,
    /// The SMTP password, when not in the URL.
    pub smtp_password: Option<SecretString>,
    /// The `From` of every mail.
    pub from: String,
    /// How often each instance's sender looks for pending mail, in milliseconds (0: this
    /// instance sends none).
    pub poll_interval_ms: u64,
    /// Mails claimed at once by one sender.
    pub batch_size: i64,
    /// How long a claim holds before another instance may take the mail over (the sender
    /// that claimed it died), in seconds.
    pub claim_seconds: u64,
    /// Attempts before a mail the relay keeps refusing for now is given up.
    pub max_attempts: i32,
    /// How often the deadline alarms and the daily digests are looked for, in seconds (0
    /// disables them).
    pub alarm_interval_seconds: u64,
    /// The first deadline alarm: when this percentage of the time to move is used.
    pub alarm_percent_used: u8,
    /// The second deadline alarm: this many hours before the deadline.
    pub alarm_hours_before: u32,
}

impl Default for MailSettings {
    fn default() -> MailSettings {
        MailSettings {
            smtp_url: None,
            smtp_username: None,
            smtp_password: None,
            from: "Tavoliere <tavoliere@localhost>".to_owned(),
            poll_interval_ms: 1000,
            batch_size: 32,
            claim_seconds: 120,
            max_attempts: 8,
            alarm_interval_seconds: 60,
            alarm_percent_used: 80,
            alarm_hours_before: 24,
        }
    }
}

/// Live games: clocks and socket limits.
#[derive(Clone, Debug, Deserialize)]
#[serde(default)]
pub struct LiveSettings {
    /// How often the live clock task looks for flagged players, in milliseconds
    /// (0 disables it).
    pub flag_interval_ms: u64,
    /// A socket that sends nothing (not even a ping) for this long is closed.
    pub idle_timeout_seconds: u64,
    /// Largest client message answered; a longer one gets a `too_large` error event.
    pub max_message_bytes: usize,
    /// Events queued per socket; a socket further behind is told to resync.
    pub queue_capacity: usize,
    /// How often an instance confirms its watcher counts in the database; counts not
    /// confirmed for three heartbeats (an instance that died) stop counting.
    pub presence_heartbeat_seconds: u64,
    /// How often each instance re-reads the watched games that changed without an
    /// announcement reaching it (one lost when an instance died just after a move's
    /// commit), in milliseconds; 0 disables it.
    #[serde(default = "default_resync_interval_ms")]
    pub resync_interval_ms: u64,
    /// Sockets open at once from one client address (IPv6: one /64 network); more are
    /// refused with 429.
    pub max_sockets_per_address: usize,
    /// Sockets open at once signed in as one account; more are refused with 429.
    pub max_sockets_per_account: usize,
    /// Client messages a socket may send per second on average; faster ones get a
    /// `rate_limited` error and are dropped (a socket that keeps on is closed).
    pub messages_per_second: u32,
    /// Client messages a socket may send at once before the rate applies.
    pub message_burst: u32,
    /// Watcher counts are sent to a game's sockets at most once per this many
    /// milliseconds (sockets joining and leaving in between give one update).
    pub watchers_interval_ms: u64,
}

fn default_resync_interval_ms() -> u64 {
    5000
}

impl Default for LiveSettings {
    fn default() -> LiveSettings {
        LiveSettings {
            flag_interval_ms: 100,
            idle_timeout_seconds: 60,
            max_message_bytes: 4096,
            queue_capacity: 64,
            presence_heartbeat_seconds: 10,
            resync_interval_ms: default_resync_interval_ms(),
            max_sockets_per_address: 50,
            max_sockets_per_account: 20,
            messages_per_second: 10,
            message_burst: 20,
            watchers_interval_ms: 500,
        }
    }
}

/// HTTP listener settings.
#[derive(Clone, Debug, Deserialize)]
pub struct ApplicationSettings {
    /// Address to bind.
    pub host: String,
    /// Port to bind; 0 picks a free one (tests).
    pub port: u16,
    /// Whether session cookies carry the `Secure` flag.
    pub secure_cookies: bool,
    /// Largest accepted request body in bytes.
    pub body_limit_bytes: usize,
    /// The request header a trusted reverse proxy sets to the client's address (e.g.
    /// `X-Forwarded-For`, whose last entry is taken, or `X-Real-IP`); `None`: the socket
    /// peer is the client. Set it only behind a proxy that overwrites or appends it, or
    /// clients could choose their own address.
    #[serde(default)]
    pub client_address_header: Option<String>,
    /// At shutdown, how long the open requests may take to finish, and then the
    /// background tasks (each); the process exits within about twice this.
    #[serde(default = "default_shutdown_grace_seconds")]
    pub shutdown_grace_seconds: u64,
    /// The language of readers who ask for none: pages and tables of visitors with no
    /// language setting and no supported `Accept-Language` (`en` when absent).
    #[serde(default)]
    pub default_language: Lang,
    /// The site's absolute URL, used in every link of a mail (e.g.
    /// `https://tavoliere.example`); unset: `http://<host>:<the bound port>`.
    #[serde(default)]
    pub base_url: Option<String>,
}

fn default_shutdown_grace_seconds() -> u64 {
    4
}

/// Database settings.
#[derive(Clone, Debug, Deserialize)]
pub struct DatabaseSettings {
    /// External database URL; `None` means the embedded private cluster.
    pub url: Option<SecretString>,
    /// Pool size.
    pub max_connections: u32,
    /// Where the embedded cluster lives.
    pub embedded_data_dir: PathBuf,
    /// Port of the embedded cluster on 127.0.0.1 (0 = any free port).
    pub embedded_port: u16,
}

/// Correspondence clock settings.
#[derive(Clone, Debug, Deserialize)]
pub struct ClockSettings {
    /// Period of the timeout sweep; 0 disables the background task (tests drive it).
    pub sweep_interval_seconds: u64,
}

/// Login rate limits and the cost of password hashing.
#[derive(Clone, Debug, Deserialize)]
#[serde(default)]
pub struct AuthSettings {
    /// Failed logins allowed per username and client address in a window.
    pub login_attempts: u32,
    /// Window length.
    pub login_window_seconds: u64,
    /// Failed logins allowed per client address in a window, whatever the usernames (one
    /// password tried on many accounts). IPv6 addresses count by /64 network.
    pub login_attempts_per_address: u32,
    /// Failed logins allowed per username in a window, whatever the addresses.
    pub login_attempts_per_username: u32,
    /// Memory for password hashes computed at once, in MiB: each argon2id hash takes
    /// 19 MiB, so this bounds the concurrent hashes (logins, sign-ups) to
    /// `max(1, this / 19)`; further ones wait.
    pub password_hash_memory_mib: u32,
}

impl Default for AuthSettings {
    fn default() -> AuthSettings {
        AuthSettings {
            login_attempts: 5,
            login_window_seconds: 60,
            login_attempts_per_address: 20,
            login_attempts_per_username: 20,
            password_hash_memory_mib: 64,
        }
    }
}

impl Settings {
    /// Reads the layered configuration from `config/` in the working directory.
    ///
    /// # Errors
    /// A file that does not parse or a value of the wrong type.
    pub fn load() -> Result<Settings, config::ConfigError> {
        let base =
            std::env::current_dir().map(|d| d.join("config")).unwrap_or_else(|_| PathBuf::from("config"));
        let environment = std::env::var("TAVOLIERE_ENVIRONMENT").unwrap_or_else(|_| "local".to_owned());
        config::Config::builder()
            .add_source(config::File::from(base.join("base.toml")).required(false))
            .add_source(config::File::from(base.join(format!("{environment}.toml"))).required(false))
            .add_source(config::Environment::with_prefix("TAVOLIERE").prefix_separator("_").separator("__"))
            .set_default("application.host", "127.0.0.1")?
            .set_default("application.port", 8000)?
            .set_default("application.secure_cookies", true)?
            .set_default("application.body_limit_bytes", 65536)?
            .set_default("database.max_connections", 20)?
            .set_default("database.embedded_data_dir", "data/postgres")?
            .set_default("database.embedded_port", 0)?
            .set_default("clocks.sweep_interval_seconds", 30)?
            .set_default("auth.login_attempts", 5)?
            .set_default("auth.login_window_seconds", 60)?
            .build()?
            .try_deserialize()
    }
}
