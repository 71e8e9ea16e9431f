//! Building and running the application: bind first, then the database, then serve.

use std::future::Future;
use std::sync::Arc;
use std::time::Duration;

use axum::extract::DefaultBodyLimit;
use axum::Router;
use sqlx::PgPool;
use tokio::net::TcpListener;
use tower_sessions::{Expiry, SessionManagerLayer};
use tower_sessions_sqlx_store::PostgresStore;

use crate::config::Settings;
use crate::domain::clock::{Clock, SystemClock};
use crate::domain::timeouts::{self, Due};
use crate::domain::Domain;
use crate::http::availability::DatabaseHealth;
use crate::http::connections::{ConnectionLimits, Connections};
use crate::http::limits::{LoginLimiter, PasswordHashing, SignupLimiter};
use crate::http::{self, AppState};
use crate::live;
use crate::mail;
use crate::storage::{self, embedded::EmbeddedPostgres};

/// Connections the `[metrics] listen` address takes at once (scrapers).
const METRICS_CONNECTIONS: usize = 16;

/// What can be swapped for tests: the time source and the database pool.
#[derive(Default)]
pub struct Dependencies {
    /// Time source; the system clock by default.
    pub clock: Option<Arc<dyn Clock>>,
    /// An existing, migrated pool; otherwise the configured database is opened.
    pub pool: Option<PgPool>,
}

/// A built application, bound to its port, not yet serving.
pub struct Application {
    listener: TcpListener,
    port: u16,
    router: Router,
    domain: Domain,
    /// The private cluster (shared with its supervisor), when no URL is configured.
    embedded: Option<Arc<std::sync::Mutex<EmbeddedPostgres>>>,
    database_health: Arc<DatabaseHealth>,
    sweep_every: Option<Duration>,
    session_store: PostgresStore,
    live: Arc<live::Hub>,
    live_flag_every: Option<Duration>,
    password_hashing: Arc<PasswordHashing>,
    shutdown_grace: Duration,
    /// After SIGTERM, how long to go on serving while `/readyz` answers 503.
    drain: Duration,
    /// `[metrics] listen`: the listener serving `/metrics` alone, and its router.
    metrics_listener: Option<(TcpListener, Router)>,
    mail_sender: Option<(mail::sender::Sender, Duration)>,
    mail_settings: crate::config::MailSettings,
    /// The analysis workers' service, when an engine is installed.
    analysis: Option<crate::analysis::Analysis>,
    /// The listener's connections and their limits.
    connections: Arc<Connections>,
}

impl Application {
    /// Builds with the default dependencies.
    ///
    /// # Errors
    /// The port cannot be bound or the database cannot be opened.
    pub async fn build(settings: Settings) -> anyhow::Result<Application> {
        Application::build_with(settings, Dependencies::default()).await
    }

    /// Binds the listener first (port 0 picks one), then opens the database (the private
    /// cluster if no URL is configured), runs the migrations and wires the router.
    ///
    /// # Errors
    /// The port cannot be bound or the database cannot be opened.
    pub async fn build_with(settings: Settings, deps: Dependencies) -> anyhow::Result<Application> {
        let address = format!("{}:{}", settings.application.host, settings.application.port);
        let listener = TcpListener::bind(&address).await?;
        let port = listener.local_addr()?.port();
        let (pool, embedded) = match deps.pool {
            Some(pool) => (pool, None),
            None => {
                let database = storage::open(&settings.database).await?;
                (database.pool, database.embedded)
            }
        };
        let session_store = PostgresStore::new(pool.clone());
        let at_start = Duration::from_secs(settings.database.connect_at_start_seconds);
        storage::at_start("migrating the sessions' table", at_start, || async {
            Ok(session_store.migrate().await?)
        })
        .await?;
        let domain = Domain {
            announcer: storage::notify::Announcer::start(&pool),
            moves: storage::move_writes::MoveWriter::new(
                storage::move_connections::MoveConnections::new(
                    &pool,
                    settings.database.move_connections,
                    Duration::from_millis(settings.database.acquire_timeout_ms),
                ),
                settings.database.move_batch,
                settings.database.move_backlog,
            ),
            pool,
            clock: deps.clock.unwrap_or_else(|| Arc::new(SystemClock)),
            games: Arc::default(),
            tokens: Arc::default(),
            rooms: Arc::default(),
            ratings: Arc::new(settings.ratings.clone()),
            time_zone: crate::domain::iccf_days::ZoneName::parse(&settings.clocks.time_zone)
                .map_err(|e| anyhow::anyhow!("clocks.time_zone: {e}"))?,
            // At most a day: a deadline is a timestamp.
            first_move: crate::domain::FirstMoveTime(time::Duration::seconds(
                settings.clocks.first_move_seconds.min(86_400) as i64,
            )),
            rules_work: Arc::default(),
        };
        if let Err(error) = domain.moves.connections().open_all().await {
            tracing::warn!(%error, "cannot open the moves' connections yet: they open when first needed");
        }
        let database_health = DatabaseHealth::new(domain.pool.clone());
        let base_url = settings
            .application
            .base_url
            .clone()
            .unwrap_or_else(|| format!("http://{}:{port}", settings.application.host));
        let key = storage::at_start("reading the signing key", at_start, || async {
            Ok(storage::outbox::signing_key(&domain.pool).await?)
        })
        .await?;
        let mailer = mail::Mailer::new(&settings.mail, base_url, key.clone())?;
        if !mailer.has_relay() {
            tracing::info!("no SMTP relay configured ([mail] smtp_url): mails are logged and listed on /admin/outbox, not sent");
        }
        let mail_sender = match settings.mail.poll_interval_ms {
            0 => None,
            ms => Some((
                mail::sender::Sender::new(
                    domain.clone(),
                    mailer.clone(),
                    settings.application.default_language,
                ),
                Duration::from_millis(ms),
            )),
        };
        let analysis = crate::analysis::Analysis::from_settings(&settings.analysis);
        let state = AppState::new(http::SharedState {
            database_health: Arc::clone(&database_health),
            metrics_token: settings.metrics.token.clone().filter(|token| !token.is_empty()),
            domain: domain.clone(),
            login_limiter: Arc::new(LoginLimiter::new(&settings.auth)),
            reset_limiter: Arc::new(LoginLimiter::new(&settings.auth)),
            signup_limiter: Arc::new(SignupLimiter::new(&settings.auth)),
            password_hashing: Arc::new(PasswordHashing::new(settings.auth.password_hash_memory_mib)),
            mail_quota: crate::domain::email::MailQuota::of(&settings.mail),
            import_limits: crate::domain::imports::ImportLimits::of(&settings.imports),
            form_cookie: http::pages::FormCookie::new(&key, settings.application.secure_cookies),
            client_address_header: client_address_header(&settings)?,
            live: Arc::new(live::Hub::new(domain.clone(), settings.live.clone())),
            default_language: settings.application.default_language,
            token_lifetime_days: settings.auth.token_lifetime_days,
            mail: Arc::new(mailer),
            analysis: analysis.clone(),
        });
        let live = Arc::clone(&state.live);
        // Every change made on this instance reaches its sockets directly.
        let watchers: std::sync::Weak<dyn crate::domain::Watchers> =
            Arc::downgrade(&live) as std::sync::Weak<live::Hub>;
        domain.rooms.attach(watchers);
        let password_hashing = Arc::clone(&state.password_hashing);
        let sessions = SessionManagerLayer::new(session_store.clone())
            .with_secure(settings.application.secure_cookies)
            .with_http_only(true)
            .with_same_site(tower_sessions::cookie::SameSite::Lax)
            .with_expiry(Expiry::OnInactivity(tower_sessions::cookie::time::Duration::days(30)));
        // The recorder is installed before the first request is counted.
        http::metrics::handle();
        let metrics_listener = match &settings.metrics.listen {
            Some(address) => {
                let listener = TcpListener::bind(address).await?;
                tracing::info!(address = %listener.local_addr()?, "metrics served on their own listener");
                let state = state.clone();
                let router = Router::new().route(
                    "/metrics",
                    axum::routing::get(move || {
                        let state = state.clone();
                        async move { http::metrics::render(&state).await }
                    }),
                );
                Some((listener, router))
            }
            None => None,
        };
        let router = http::router(
            state,
            sessions,
            Arc::clone(&database_health),
            Duration::from_secs(settings.application.request_timeout_seconds.max(1)),
        );
        let router = with_security_headers(router, settings.application.secure_cookies)
            .layer(DefaultBodyLimit::max(settings.application.body_limit_bytes));
        let connection_limits = ConnectionLimits::from_settings(&settings);
        tracing::info!(
            max_connections = connection_limits.max_connections,
            max_per_address = ?connection_limits.max_per_address,
            open_files = http::connections::open_file_limit(),
            header_timeout_seconds = connection_limits.header_timeout.as_secs(),
            "connection limits"
        );
        let sweep_every = match settings.clocks.sweep_interval_seconds {
            0 => None,
            seconds => Some(Duration::from_secs(seconds)),
        };
        let live_flag_every = match settings.live.flag_interval_ms {
            0 => None,
            ms => Some(Duration::from_millis(ms)),
        };
        Ok(Application {
            listener,
            port,
            router,
            domain,
            embedded: embedded.map(|cluster| Arc::new(std::sync::Mutex::new(cluster))),
            database_health,
            sweep_every,
            session_store,
            live,
            live_flag_every,
            password_hashing,
            shutdown_grace: Duration::from_secs(settings.application.shutdown_grace_seconds),
            drain: Duration::from_secs(settings.application.drain_seconds),
            metrics_listener,
            mail_sender,
            mail_settings: settings.mail.clone(),
            analysis,
            connections: Connections::new(connection_limits),
        })
    }

    /// The bound port.
    pub fn port(&self) -> u16 {
        self.port
    }

    /// The domain services (tests drive the timeout sweep through it).
    pub fn domain(&self) -> &Domain {
        &self.domain
    }

    /// The bound on password hashes at once (tests read its peak).
    pub fn password_hashing(&self) -> Arc<PasswordHashing> {
        Arc::clone(&self.password_hashing)
    }

    /// Serves until SIGTERM or Ctrl-C, then shuts down gracefully.
    ///
    /// # Errors
    /// The server fails.
    pub async fn run_until_stopped(self) -> anyhow::Result<()> {
        self.run_until(shutdown_signal()).await
    }

    /// Serves until `shutdown` completes; then finishes the open requests, stops the
    /// timeout task, closes the pool and stops the private cluster cleanly (leaves it,
    /// when another process uses it). The open requests, and then the background tasks,
    /// get `application.shutdown_grace_seconds` each: with the database down the shutdown
    /// still ends within seconds.
    ///
    /// # Errors
    /// The server fails.
    pub async fn run_until(
        mut self,
        shutdown: impl Future<Output = ()> + Send + 'static,
    ) -> anyhow::Result<()> {
        let (stop_tx, stop_rx) = tokio::sync::watch::channel(false);
        let sweeper = self
            .sweep_every
            .map(|every| tokio::spawn(timeouts::run(self.domain.clone(), Due::All, every, stop_rx.clone())));
        let session_cleaner =
            tokio::spawn(delete_expired_sessions(self.session_store.clone(), stop_rx.clone()));
        let live_flagger = self
            .live_flag_every
            .map(|every| tokio::spawn(timeouts::run(self.domain.clone(), Due::Live, every, stop_rx.clone())));
        let live_presence = tokio::spawn(live::presence::run(Arc::clone(&self.live), stop_rx.clone()));
        let live_resync = match self.live.settings().resync_interval_ms {
            0 => None,
            ms => Some(tokio::spawn(live::hub::resync(
                Arc::clone(&self.live),
                Duration::from_millis(ms),
                stop_rx.clone(),
            ))),
        };
        let prober = tokio::spawn(Arc::clone(&self.database_health).run(stop_rx.clone()));
        let metrics_upkeep = tokio::spawn(http::metrics::upkeep(stop_rx.clone()));
        // The supervisor's word that the database is gone for good: the server stops and
        // exits non-zero.
        let (fatal_tx, mut fatal_rx) = tokio::sync::watch::channel(None::<String>);
        let supervisor = self.embedded.as_ref().map(|cluster| {
            tokio::spawn(storage::supervise::run(
                Arc::clone(cluster),
                Arc::clone(&self.database_health),
                fatal_tx,
                stop_rx.clone(),
            ))
        });
        let mail_sender = self
            .mail_sender
            .take()
            .map(|(sender, every)| tokio::spawn(mail::sender::run(sender, every, stop_rx.clone())));
        let mail_alarms = match self.mail_settings.alarm_interval_seconds {
            0 => None,
            seconds => Some(tokio::spawn(mail::alarms::run(
                self.domain.clone(),
                self.mail_settings.clone(),
                Duration::from_secs(seconds),
                stop_rx.clone(),
            ))),
        };
        let analysis_workers = self.analysis.take().filter(|analysis| analysis.polls()).map(|analysis| {
            tokio::spawn(crate::analysis::worker::run(self.domain.clone(), analysis, stop_rx.clone()))
        });
        let metrics_server = self.metrics_listener.take().map(|(listener, router)| {
            let mut stop = stop_rx.clone();
            // A scraper or two: a small cap of its own, the main listener's timeouts.
            let connections = Connections::new(ConnectionLimits {
                max_connections: METRICS_CONNECTIONS,
                max_per_address: None,
                ..self.connections.limits()
            });
            tokio::spawn(async move {
                let stopped = async move {
                    let _ = stop.changed().await;
                };
                http::connections::serve(listener, router, connections, stopped).await;
            })
        });
        let live_listener = tokio::spawn(live::hub::listen(Arc::clone(&self.live), stop_rx));
        tracing::info!(port = self.port, "serving");
        let (signalled_tx, signalled) = tokio::sync::oneshot::channel();
        let mut fatal_seen = fatal_rx.clone();
        let health = Arc::clone(&self.database_health);
        let drain = self.drain;
        let live_sockets = Arc::clone(&self.live);
        let shutdown = async move {
            let fatal = tokio::select! {
                () = shutdown => false,
                () = async {
                    // No supervisor (an external database): no fatal word ever comes.
                    if fatal_seen.wait_for(Option::is_some).await.is_err() {
                        std::future::pending::<()>().await;
                    }
                } => true,
            };
            // Not ready from now on: a load balancer stops sending anything new, while
            // what it still sends during the drain is served (issue 40 §3).
            health.stop_readiness();
            if !fatal && !drain.is_zero() {
                tracing::info!(
                    seconds = drain.as_secs(),
                    "draining: /readyz answers 503; serving until the balancer has seen it"
                );
                tokio::time::sleep(drain).await;
            }
            live_sockets.close_sockets();
            let _ = signalled_tx.send(());
        };
        let serving =
            http::connections::serve(self.listener, self.router, Arc::clone(&self.connections), shutdown);
        let grace = self.shutdown_grace;
        // The open requests get the grace to finish (one waiting for an unreachable
        // database would take longer), then they are dropped.
        tokio::select! {
            () = serving => {}
            () = async {
                if signalled.await.is_ok() {
                    tokio::time::sleep(grace).await;
                } else {
                    std::future::pending::<()>().await;
                }
            } => {
                tracing::warn!(seconds = grace.as_secs(), "shutdown: open requests did not finish in time; dropped");
            }
        }
        let _ = stop_tx.send(true);
        let domain = self.domain.clone();
        let cleanup = async move {
            // The moves answered so far are announced to the other instances.
            domain.announcer.flush().await;
            for task in [
                sweeper,
                live_flagger,
                live_resync,
                supervisor,
                mail_sender,
                mail_alarms,
                analysis_workers,
                metrics_server,
                Some(metrics_upkeep),
            ]
            .into_iter()
            .flatten()
            {
                let _ = task.await;
            }
            let _ = session_cleaner.await;
            let _ = live_listener.await;
            let _ = live_presence.await;
            let _ = prober.await;
            domain.pool.close().await;
        };
        // With the database down each of these would wait for its connection timeout:
        // the background work gets the grace too, then the process goes on stopping.
        if tokio::time::timeout(grace, cleanup).await.is_err() {
            tracing::warn!(
                seconds = grace.as_secs(),
                "shutdown: background tasks did not finish in time (database unreachable?); left behind"
            );
        }
        let fatal = fatal_rx.borrow_and_update().clone();
        if let Some(cluster) = self.embedded.take() {
            // After the supervisor gave up, the cluster is left as it is: stopping is for
            // a healthy shutdown, and a postmaster that answers again is never stopped by
            // a server that could not see it (issue 36 §1).
            let give_up = fatal.is_some();
            let stopped = tokio::task::spawn_blocking(move || {
                let mut cluster = cluster.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
                if give_up {
                    cluster.leave_running();
                    Ok(false)
                } else {
                    cluster.stop()
                }
            });
            if stopped.await?? {
                tracing::info!("private PostgreSQL cluster stopped");
            }
        }
        match fatal {
            Some(reason) => Err(anyhow::anyhow!(reason)),
            None => Ok(()),
        }
    }
}

/// The headers every answer carries (unless it set them itself): the content security
/// policy, `X-Content-Type-Options: nosniff` (a download is never run as a script or
/// style), `Referrer-Policy: same-origin` (game and challenge addresses stay on this site),
/// and with secure cookies (served over HTTPS) `Strict-Transport-Security`.
fn with_security_headers(router: Router, secure_cookies: bool) -> Router {
    use axum::http::{header, HeaderValue};
    use tower_http::set_header::SetResponseHeaderLayer;
    let hsts = secure_cookies.then(|| HeaderValue::from_static("max-age=31536000"));
    router
        .layer(SetResponseHeaderLayer::if_not_present(
            header::CONTENT_SECURITY_POLICY,
            HeaderValue::from_static(crate::web::CONTENT_SECURITY_POLICY),
        ))
        .layer(SetResponseHeaderLayer::if_not_present(
            header::X_CONTENT_TYPE_OPTIONS,
            HeaderValue::from_static("nosniff"),
        ))
        .layer(SetResponseHeaderLayer::if_not_present(
            header::REFERRER_POLICY,
            HeaderValue::from_static("same-origin"),
        ))
        .layer(SetResponseHeaderLayer::if_not_present(
            header::STRICT_TRANSPORT_SECURITY,
            move |_: &axum::response::Response| hsts.clone(),
        ))
}

/// The configured client address header, checked at start.
fn client_address_header(settings: &Settings) -> anyhow::Result<Option<axum::http::HeaderName>> {
    match settings.application.client_address_header.as_deref().map(str::trim) {
        None | Some("") => Ok(None),
        Some(name) => Ok(Some(axum::http::HeaderName::try_from(name).map_err(|_| {
            anyhow::anyhow!("application.client_address_header: '{name}' is not a header name")
        })?)),
    }
}

/// Deletes expired sessions every hour until `shutdown` changes.
async fn delete_expired_sessions(store: PostgresStore, shutdown: tokio::sync::watch::Receiver<bool>) {
    use tower_sessions::session_store::ExpiredDeletion;
    crate::tasks::named("session-cleanup", Duration::from_secs(3600), shutdown, || async {
        if let Err(error) = store.delete_expired().await {
            tracing::warn!(%error, "deleting expired sessions failed");
        }
    })
    .await;
}

/// The first SIGTERM or Ctrl-C; from then on, another one ends the process at once (a
/// graceful shutdown is bounded, but an operator in a hurry is never ignored).
async fn shutdown_signal() {
    termination_signal().await;
    tracing::info!("shutting down");
    tokio::spawn(async {
        termination_signal().await;
        tracing::warn!("second signal: exiting at once");
        std::process::exit(1);
    });
}

async fn termination_signal() {
    let ctrl_c = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    #[cfg(unix)]
    let terminate = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut signal) => {
                signal.recv().await;
            }
            Err(_) => std::future::pending::<()>().await,
        }
    };
    #[cfg(not(unix))]
    let terminate = std::future::pending::<()>();
    tokio::select! {
        () = ctrl_c => {},
        () = terminate => {},
    }
}
