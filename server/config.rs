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
    /// Logging.
    #[serde(default)]
    pub log: LogSettings,
    /// The Prometheus metrics endpoint.
    #[serde(default)]
    pub metrics: MetricsSettings,
    /// Glicko-2 ratings and leaderboards (issue 18 §1).
    #[serde(default)]
    pub ratings: RatingSettings,
    /// Mail: the SMTP relay, the sender, the outbox workers and the deadline alarms.
    #[serde(default)]
    pub mail: MailSettings,
    /// Game import: how many games a request and an account may bring in.
    #[serde(default)]
    pub imports: ImportSettings,
    /// Computer analysis of finished games with Fairy-Stockfish (issue 41).
    #[serde(default)]
    pub analysis: AnalysisSettings,
}

/// Computer analysis (issue 41): the engine, how deep it searches, its workers and the
/// limits of the requests.
#[derive(Clone, Debug, Deserialize)]
#[serde(default)]
pub struct AnalysisSettings {
    /// The engine's program. Unset: `fairy-stockfish` on the `PATH`, else
    /// `/usr/games/fairy-stockfish` (Debian's package). No program there: the feature is
    /// off (the API answers 503 `analysis.unavailable`, the game page offers nothing).
    pub engine: Option<PathBuf>,
    /// Depth of the search of each position (0: no depth limit, `nodes` alone).
    pub depth: u32,
    /// Nodes of the search of each position (0: no node limit, `depth` alone).
    pub nodes: u64,
    /// Engine processes (one game each) at once on this instance. 0: one per two cores;
    /// never more than the cores less one (at least one), so that play keeps a core.
    pub workers: usize,
    /// How often an idle worker looks for queued games, in milliseconds (0: this instance
    /// runs no workers; it queues requests that other instances analyse).
    pub poll_interval_ms: u64,
    /// How long a worker's claim on a game holds without news (it is renewed after every
    /// position searched) before another worker takes the game over, in seconds.
    pub claim_seconds: u64,
    /// An engine silent this long (one position's search, or its start) is killed and
    /// started again, in seconds.
    pub engine_timeout_seconds: u64,
    /// Claims of one game before it is given up as failed.
    pub max_attempts: i32,
    /// Analyses one account may request in 24 hours (a request for a game analysed or
    /// queued already costs nothing); more are refused with 429.
    pub requests_per_account_per_day: u32,
}

impl Default for AnalysisSettings {
    fn default() -> AnalysisSettings {
        AnalysisSettings {
            engine: None,
            depth: 12,
            nodes: 0,
            workers: 0,
            poll_interval_ms: 2000,
            claim_seconds: 120,
            engine_timeout_seconds: 60,
            max_attempts: 3,
            requests_per_account_per_day: 20,
        }
    }
}

/// Limits of the game import (`POST /api/games/import`, `/import`): imported games are
/// history, stored at once; one request or one account must not flood the archive.
#[derive(Clone, Debug, Deserialize)]
#[serde(default)]
pub struct ImportSettings {
    /// Games one record file may hold; a file with more is refused (413) before any is
    /// replayed.
    pub max_games_per_request: usize,
    /// Games one account may import in 24 hours; an import that would pass it is refused
    /// (429) and stores nothing.
    pub games_per_account_per_day: u32,
}

impl Default for ImportSettings {
    fn default() -> ImportSettings {
        ImportSettings { max_games_per_request: 100, games_per_account_per_day: 500 }
    }
}

/// Where `GET /metrics` is served and to whom.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(default)]
pub struct MetricsSettings {
    /// A bearer token: `/metrics` on the main port answers only requests that carry it.
    /// Unset: only clients on the loopback address get an answer there.
    pub token: Option<String>,
    /// An address of its own for `/metrics` (e.g. `127.0.0.1:9100`), without a token: for
    /// a scraper on a private network.
    pub listen: Option<String>,
}

/// Logging settings.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(default)]
pub struct LogSettings {
    /// Plain text (the default) or one JSON object per line.
    pub format: LogFormat,
}

/// How log lines are written.
#[derive(Clone, Copy, Debug, Default, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub enum LogFormat {
    /// Human-readable lines.
    #[default]
    Text,
    /// One JSON object per line, with the request's span (its request id).
    Json,
}

/// Ratings: when a rating is provisional and who the leaderboards list (the Glicko-2
/// constants are the rating system's, in `domain::ratings`).
#[derive(Clone, Debug, Deserialize)]
#[serde(default)]
pub struct RatingSettings {
    /// A rating whose deviation is above this is provisional (marked `?`, left off the
    /// leaderboards).
    pub provisional_deviation: f64,
    /// The leaderboards list players whose last rated game in the pool ended within this
    /// many days.
    pub leaderboard_active_days: u32,
}

impl Default for RatingSettings {
    fn default() -> RatingSettings {
        RatingSettings { provisional_deviation: 110.0, leaderboard_active_days: 90 }
    }
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
    /// Address verification mails one account may ask for in `verification_window_seconds`
    /// (changing its address, or signing up with one); more are refused with 429 (at least
    /// 1).
    pub verification_mails_per_account: u32,
    /// Verification and password reset mails of each kind to one address in
    /// `verification_window_seconds`, whoever asks: a stranger cannot flood an address by
    /// naming it in sign-ups or changes (429), nor by asking for resets (the answer is the
    /// same, no mail goes) (at least 1).
    pub verification_mails_per_address: u32,
    /// The window of the two limits above, in seconds.
    pub verification_window_seconds: u64,
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
            verification_mails_per_account: 3,
            verification_mails_per_address: 3,
            verification_window_seconds: 3600,
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
    /// Connections open at once (live sockets included); 0: the open-file limit less a
    /// reserve for the database connections, files and the cluster's supervision
    /// (`http::connections`).
    #[serde(default)]
    pub max_connections: usize,
    /// Connections open at once from one client address (IPv6: one /64); 0: no cap. Not
    /// applied behind a proxy (`client_address_header` set), whose own address every
    /// connection comes from.
    #[serde(default = "default_max_connections_per_address")]
    pub max_connections_per_address: usize,
    /// A request's head must arrive within this many seconds of the connection's opening
    /// or of the previous answer on it; a kept-alive connection idle that long is closed.
    #[serde(default = "default_header_timeout_seconds")]
    pub header_timeout_seconds: u64,
    /// A request (its body included) is answered within this many seconds, or gets 408.
    #[serde(default = "default_request_timeout_seconds")]
    pub request_timeout_seconds: u64,
    /// A client that takes nothing of what is written to it (an answer, a live socket's
    /// events) for this many seconds loses its connection.
    #[serde(default = "default_write_timeout_seconds")]
    pub write_timeout_seconds: u64,
    /// Behind a load balancer: after SIGTERM, how long the server goes on serving (with
    /// `/readyz` answering 503 at once) before it stops taking connections, so that the
    /// balancer's health checks see it leave before any connection is refused.
    #[serde(default)]
    pub drain_seconds: u64,
}

fn default_max_connections_per_address() -> usize {
    256
}

fn default_header_timeout_seconds() -> u64 {
    10
}

fn default_request_timeout_seconds() -> u64 {
    60
}

fn default_write_timeout_seconds() -> u64 {
    30
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
    /// How long a request waits for a free connection before it is answered 503, in
    /// milliseconds: short, so that an outage is answered at once instead of after a long
    /// wait.
    #[serde(default = "default_acquire_timeout_ms")]
    pub acquire_timeout_ms: u64,
    /// The connections of the move's fast path, a pool of their own beside
    /// `max_connections` (`storage::move_connections`: no round trip after each move),
    /// opened when needed; as many of its statements run at once (`storage::move_writes`).
    #[serde(default = "default_move_connections")]
    pub move_connections: usize,
    /// At most this many moves stored by one statement of the fast path: moves arriving
    /// while a statement runs are written together by the next statement
    /// (`storage::move_writes`); 1 writes every move alone.
    #[serde(default = "default_move_batch")]
    pub move_batch: usize,
    /// Moves waiting before another statement of the fast path starts beside the running
    /// ones (with `move_connections` above 1): fewer wait for a running statement and go out
    /// together with the next (`storage::move_writes`); 1 starts a statement whenever a
    /// connection is free.
    #[serde(default = "default_move_backlog")]
    pub move_backlog: usize,
    /// How long the start waits for an external database to answer (a database
    /// container starting beside the server), in seconds.
    #[serde(default = "default_connect_at_start_seconds")]
    pub connect_at_start_seconds: u64,
}

fn default_acquire_timeout_ms() -> u64 {
    1000
}

fn default_move_connections() -> usize {
    2
}

fn default_move_batch() -> usize {
    64
}

fn default_move_backlog() -> usize {
    8
}

fn default_connect_at_start_seconds() -> u64 {
    30
}

/// Correspondence clock settings.
#[derive(Clone, Debug, Deserialize)]
pub struct ClockSettings {
    /// Period of the timeout sweep; 0 disables the background task (tests drive it).
    pub sweep_interval_seconds: u64,
    /// The IANA time zone whose calendar days the ICCF day accounting counts when the
    /// event names none, and in which leave is counted in whole days (#17 §4).
    #[serde(default = "default_clock_time_zone")]
    pub time_zone: String,
    /// Live games of two players outside tournaments: each side's clock starts with its
    /// first move, which must come within this many seconds or the game is aborted
    /// (issue 37 §5).
    #[serde(default = "default_first_move_seconds")]
    pub first_move_seconds: u64,
}

fn default_first_move_seconds() -> u64 {
    30
}

fn default_clock_time_zone() -> String {
    "UTC".to_owned()
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
    /// Failed logins allowed per username, whatever the addresses, in
    /// `login_username_window_seconds`: a ceiling against guessing from many addresses,
    /// high enough that strangers cannot lock the owner out (OWASP ASVS 2.2.1: at most 100
    /// an hour); the lockout itself is per username and address.
    pub login_attempts_per_username: u32,
    /// The window of the per-username ceiling, in seconds.
    pub login_username_window_seconds: u64,
    /// Accounts made from one client address (IPv6: one /64) in `signup_window_seconds`;
    /// more sign-ups are refused with 429.
    pub signups_per_address: u32,
    /// The window of the sign-up limit, in seconds.
    pub signup_window_seconds: u64,
    /// Memory for password hashes computed at once, in MiB: each argon2id hash takes
    /// 19 MiB, so this bounds the concurrent hashes (logins, sign-ups) to
    /// `max(1, this / 19)`; further ones wait.
    pub password_hash_memory_mib: u32,
    /// How long a new API token works, in days, unless the request asks for less.
    pub token_lifetime_days: u32,
}

impl Default for AuthSettings {
    fn default() -> AuthSettings {
        AuthSettings {
            login_attempts: 5,
            login_window_seconds: 60,
            login_attempts_per_address: 20,
            login_attempts_per_username: 100,
            login_username_window_seconds: 3600,
            signups_per_address: 20,
            signup_window_seconds: 3600,
            password_hash_memory_mib: 64,
            token_lifetime_days: 90,
        }
    }
}

/// The configuration files built into the binary, so that a server started from any
/// directory (a systemd unit, `cargo install`, a container) has its defaults; files of the
/// same name on disk override them value by value.
const BUILT_IN: [(&str, &str); 3] = [
    ("base.toml", include_str!("../config/base.toml")),
    ("local.toml", include_str!("../config/local.toml")),
    ("production.toml", include_str!("../config/production.toml")),
];

/// The configuration files of `environment`, in the order they apply.
fn layer_names(environment: &str) -> [String; 2] {
    ["base.toml".to_owned(), format!("{environment}.toml")]
}

/// The built-in text of the configuration file `name`, if there is one.
fn built_in_text(name: &str) -> Option<&'static str> {
    BUILT_IN.iter().find(|(built_in, _)| *built_in == name).map(|(_, text)| *text)
}

/// Which configuration sources a start read, for the start-up log.
#[derive(Clone, Debug, Default)]
pub struct ConfigReport {
    /// The environment (`TAVOLIERE_ENVIRONMENT`, default `local`).
    pub environment: String,
    /// The directory searched for configuration files.
    pub directory: PathBuf,
    /// Built-in files used.
    pub built_in: Vec<String>,
    /// Files read from the directory.
    pub read: Vec<PathBuf>,
    /// Files looked for in the directory and not found (the built-in ones stand).
    pub not_found: Vec<PathBuf>,
    /// `TAVOLIERE_` environment variables set (names only: values may be secrets).
    pub environment_variables: Vec<String>,
}

impl ConfigReport {
    /// Logs what was read, at start-up.
    pub fn log(&self) {
        tracing::info!(
            environment = %self.environment,
            directory = %self.directory.display(),
            built_in = ?self.built_in,
            read = ?self.read,
            not_found = ?self.not_found,
            variables = ?self.environment_variables,
            "configuration loaded"
        );
    }
}

impl Settings {
    /// Reads the layered configuration: the built-in `base.toml` and
    /// `<environment>.toml`, then the files of the same names in the configuration
    /// directory (`TAVOLIERE_CONFIG_DIR`, default `config/` in the working directory),
    /// then `TAVOLIERE_`-prefixed environment variables.
    ///
    /// # Errors
    /// A file that does not parse or a value of the wrong type.
    pub fn load() -> Result<Settings, config::ConfigError> {
        Settings::load_reporting().map(|(settings, _)| settings)
    }

    /// [`Settings::load`], with the list of what was read.
    ///
    /// # Errors
    /// A file that does not parse or a value of the wrong type.
    pub fn load_reporting() -> Result<(Settings, ConfigReport), config::ConfigError> {
        let directory = match std::env::var_os("TAVOLIERE_CONFIG_DIR") {
            Some(directory) => PathBuf::from(directory),
            None => {
                std::env::current_dir().map(|d| d.join("config")).unwrap_or_else(|_| PathBuf::from("config"))
            }
        };
        let environment = std::env::var("TAVOLIERE_ENVIRONMENT").unwrap_or_else(|_| "local".to_owned());
        Settings::load_from(&directory, &environment)
    }

    /// Reads the configuration of `environment` with `directory` as the configuration
    /// directory (and the process's environment variables).
    ///
    /// # Errors
    /// A file that does not parse or a value of the wrong type.
    pub fn load_from(
        directory: &std::path::Path,
        environment: &str,
    ) -> Result<(Settings, ConfigReport), config::ConfigError> {
        let mut report = ConfigReport {
            environment: environment.to_owned(),
            directory: directory.to_path_buf(),
            ..ConfigReport::default()
        };
        let mut builder = config::Config::builder();
        for name in layer_names(environment) {
            if let Some(text) = built_in_text(&name) {
                builder = builder.add_source(config::File::from_str(text, config::FileFormat::Toml));
                report.built_in.push(name.clone());
            }
            let path = directory.join(&name);
            if path.is_file() {
                builder = builder.add_source(config::File::from(path.clone()));
                report.read.push(path);
            } else {
                report.not_found.push(path);
            }
        }
        report.environment_variables =
            std::env::vars().map(|(name, _)| name).filter(|name| name.starts_with("TAVOLIERE_")).collect();
        report.environment_variables.sort();
        let settings = builder
            .add_source(config::Environment::with_prefix("TAVOLIERE").prefix_separator("_").separator("__"))
            .build()?
            .try_deserialize()?;
        Ok((settings, report))
    }

    /// The built-in configuration of `environment` alone: no files from disk, no
    /// environment variables. Tests and benchmarks start from it and change what they
    /// need, so a new setting reaches them with its default.
    ///
    /// # Panics
    /// When the built-in files do not make valid settings (a test catches that).
    #[must_use]
    pub fn built_in(environment: &str) -> Settings {
        let mut builder = config::Config::builder();
        for text in layer_names(environment).iter().filter_map(|name| built_in_text(name)) {
            builder = builder.add_source(config::File::from_str(text, config::FileFormat::Toml));
        }
        builder
            .build()
            .and_then(config::Config::try_deserialize)
            .expect("the built-in configuration makes valid settings")
    }

    /// Values that make the site unusable or unsafe where it runs, each as a sentence for
    /// the start-up log.
    #[must_use]
    pub fn warnings(&self) -> Vec<String> {
        let mut warnings = Vec::new();
        let loopback = matches!(self.application.host.as_str(), "127.0.0.1" | "::1" | "localhost");
        if !loopback && self.application.client_address_header.is_none() {
            if self.application.secure_cookies {
                // The server speaks plain http; with no proxy in front it cannot be https.
                warnings.push(format!(
                    "application.secure_cookies is on and {} is served over plain http with no \
                     reverse proxy configured (application.client_address_header): browsers \
                     reaching it directly drop the Secure session cookie and every login fails \
                     with 403; serve it over https behind a proxy, or set \
                     application.secure_cookies = false on a trusted network",
                    self.application.host
                ));
            }
            warnings.push(format!(
                "listening on {} without application.client_address_header: behind a reverse \
                 proxy every client would share the proxy's address in login and socket limits",
                self.application.host
            ));
        }
        warnings
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_built_in_configuration_makes_valid_settings_in_every_environment() {
        for environment in ["local", "production", "test-of-an-unknown-name"] {
            let settings = Settings::built_in(environment);
            assert_eq!(settings.application.port, 8000);
            assert_eq!(settings.application.secure_cookies, environment != "local");
        }
    }

    #[test]
    fn files_in_the_configuration_directory_override_the_built_in_ones_value_by_value() {
        let directory = std::env::temp_dir().join(format!("tavoliere-config-{}", std::process::id()));
        std::fs::create_dir_all(&directory).expect("temporary directory");
        std::fs::write(directory.join("local.toml"), "[application]\nport = 8123\n").expect("write");
        let (settings, report) = Settings::load_from(&directory, "local").expect("load");
        std::fs::remove_dir_all(&directory).ok();
        assert_eq!(settings.application.port, 8123);
        // The built-in local.toml still applies where the file on disk is silent.
        assert!(!settings.application.secure_cookies);
        assert_eq!(report.read, vec![directory.join("local.toml")]);
        assert_eq!(report.not_found, vec![directory.join("base.toml")]);
        assert_eq!(report.built_in, vec!["base.toml".to_owned(), "local.toml".to_owned()]);
    }

    #[test]
    fn secure_cookies_on_plain_http_outside_loopback_are_warned_about() {
        let mut settings = Settings::built_in("production");
        assert!(settings.warnings().iter().any(|warning| warning.contains("secure_cookies")));
        settings.application.client_address_header = Some("X-Forwarded-For".to_owned());
        assert!(settings.warnings().is_empty());
        assert!(Settings::built_in("local").warnings().is_empty());
    }
}
