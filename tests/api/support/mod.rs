//! The test application: a fresh database, the app on port 0, typed helpers.

pub mod cluster;
pub mod process;
pub mod smtp;

use reqwest::StatusCode;
use serde_json::{json, Value};
use tavoliere::config::Settings;
use tavoliere::domain::clock::ManualClock;
use tavoliere::domain::Domain;
use tavoliere::startup::{Application, Dependencies};
use time::macros::datetime;

pub use cluster::Cluster;

/// A signed-up player with a bearer token.
#[derive(Clone, Debug)]
pub struct User {
    pub name: String,
    pub token: String,
}

/// A running application on its own database.
pub struct TestApp {
    pub address: String,
    pub client: reqwest::Client,
    pub clock: ManualClock,
    pub domain: Domain,
    pub database_url: String,
    /// The bound on password hashes of the app (`None` for a server attached to).
    pub password_hashing: Option<std::sync::Arc<tavoliere::http::limits::PasswordHashing>>,
}

/// A response: status and JSON body (`Value::Null` when empty or not JSON).
#[derive(Debug)]
pub struct Reply {
    pub status: StatusCode,
    pub body: Value,
}

impl Reply {
    /// The first error detail.
    pub fn detail(&self) -> &str {
        self.body["errors"][0]["detail"].as_str().unwrap_or("")
    }

    /// The first error's code.
    pub fn code(&self) -> &str {
        self.body["errors"][0]["code"].as_str().unwrap_or("")
    }

    /// Asserts the status and the error shape for 4xx: a code and a sentence.
    #[track_caller]
    pub fn expect(&self, status: StatusCode) -> &Value {
        assert_eq!(self.status, status, "body: {}", self.body);
        if status.is_client_error() {
            assert!(
                self.body["errors"][0]["detail"].is_string() && self.body["errors"][0]["code"].is_string(),
                "every error has the shape {{\"errors\":[{{\"code\":...,\"detail\":...}}]}}, got {}",
                self.body
            );
        }
        &self.body
    }
}

pub fn test_settings(database_url: &str) -> Settings {
    let mut settings = Settings::built_in("local");
    settings.application.port = 0;
    settings.application.body_limit_bytes = 16 * 1024;
    settings.database.url = Some(database_url.to_owned().into());
    // A test machine under load may take over the production second to open a connection.
    settings.database.acquire_timeout_ms = 10_000;
    settings.database.embedded_data_dir = "unused".into();
    settings.clocks.sweep_interval_seconds = 0;
    // No resync: a move's announcement must reach the other instances by itself (the
    // resync has its own test).
    settings.live.flag_interval_ms = 20;
    settings.live.resync_interval_ms = 0;
    // No mail sender (the mail tests start theirs); the alarm and digest task is driven by
    // the tests.
    settings.mail.poll_interval_ms = 0;
    settings.mail.alarm_interval_seconds = 0;
    // No analysis workers (the analysis tests start theirs): every app would poll the queue.
    settings.analysis.poll_interval_ms = 0;
    // Every test signs its players up from 127.0.0.1; the limit per address has its own
    // test (tests/api/floods.rs).
    settings.auth.signups_per_address = 10_000;
    settings
}

impl TestApp {
    /// The app (with the real rules, as always).
    pub async fn spawn() -> TestApp {
        TestApp::spawn_with(|_| {}).await
    }

    /// The app on a fresh database with [`test_settings`] changed by `configure`.
    pub async fn spawn_with(configure: impl FnOnce(&mut Settings)) -> TestApp {
        let database_url = Cluster::get().fresh_database().await;
        let clock = ManualClock::new(datetime!(2026-03-01 12:00 UTC));
        let mut settings = test_settings(&database_url);
        configure(&mut settings);
        TestApp::spawn_configured(database_url, settings, clock).await
    }

    /// Another app on an existing database (a restart).
    pub async fn spawn_on(database_url: &str, clock: ManualClock) -> TestApp {
        TestApp::spawn_configured(database_url.to_owned(), test_settings(database_url), clock).await
    }

    /// Another app on an existing database with [`test_settings`] changed by `configure`.
    pub async fn spawn_on_with(
        database_url: &str,
        clock: ManualClock,
        configure: impl FnOnce(&mut Settings),
    ) -> TestApp {
        let mut settings = test_settings(database_url);
        configure(&mut settings);
        TestApp::spawn_configured(database_url.to_owned(), settings, clock).await
    }

    /// The app with `settings` (on `database_url`) and `clock`, served in the background.
    async fn spawn_configured(database_url: String, settings: Settings, clock: ManualClock) -> TestApp {
        let deps = Dependencies { clock: Some(std::sync::Arc::new(clock.clone())), pool: None };
        let app = Application::build_with(settings, deps).await.expect("build the app");
        let address = format!("http://127.0.0.1:{}", app.port());
        let domain = app.domain().clone();
        let password_hashing = Some(app.password_hashing());
        tokio::spawn(app.run_until(std::future::pending()));
        TestApp {
            address,
            client: reqwest::Client::builder().build().unwrap(),
            clock,
            domain,
            database_url,
            password_hashing,
        }
    }

    /// Helpers for a server running elsewhere (another OS process) on `database_url`:
    /// requests go to `address`; `clock` is not that server's clock.
    pub async fn attach(address: &str, database_url: &str) -> TestApp {
        let clock = ManualClock::new(datetime!(2026-03-01 12:00 UTC));
        let pool = tavoliere::storage::connect(database_url, 2).await.expect("connect to the test database");
        let domain = Domain {
            announcer: tavoliere::storage::notify::Announcer::start(&pool),
            moves: tavoliere::storage::move_writes::MoveWriter::new(
                tavoliere::storage::move_connections::MoveConnections::new(
                    &pool,
                    2,
                    std::time::Duration::from_secs(10),
                ),
                64,
                8,
            ),
            pool,
            clock: std::sync::Arc::new(clock.clone()),
            games: Default::default(),
            tokens: Default::default(),
            rooms: Default::default(),
            ratings: Default::default(),
            time_zone: Default::default(),
            first_move: Default::default(),
            rules_work: Default::default(),
        };
        TestApp {
            address: address.to_owned(),
            client: reqwest::Client::builder().build().unwrap(),
            clock,
            domain,
            database_url: database_url.to_owned(),
            password_hashing: None,
        }
    }

    async fn send(&self, request: reqwest::RequestBuilder) -> Reply {
        let response = request.send().await.expect("request");
        let status = response.status();
        let text = response.text().await.unwrap_or_default();
        let body = serde_json::from_str(&text).unwrap_or(Value::Null);
        Reply { status, body }
    }

    /// DELETE /api/tokens/current with `user`'s token → the status.
    pub async fn revoke_token(&self, user: &User) -> StatusCode {
        let request =
            self.client.delete(format!("{}/api/tokens/current", self.address)).bearer_auth(&user.token);
        self.send(request).await.status
    }

    /// GET `path` (with a token if given).
    pub async fn get(&self, path: &str, user: Option<&User>) -> Reply {
        let mut request = self.client.get(format!("{}{path}", self.address));
        if let Some(user) = user {
            request = request.bearer_auth(&user.token);
        }
        self.send(request).await
    }

    /// POST JSON to `path` (with a token if given).
    pub async fn post(&self, path: &str, user: Option<&User>, body: Value) -> Reply {
        let mut request = self.client.post(format!("{}{path}", self.address)).json(&body);
        if let Some(user) = user {
            request = request.bearer_auth(&user.token);
        }
        self.send(request).await
    }

    /// DELETE `path` (with a token if given).
    pub async fn delete(&self, path: &str, user: Option<&User>) -> Reply {
        let mut request = self.client.delete(format!("{}{path}", self.address));
        if let Some(user) = user {
            request = request.bearer_auth(&user.token);
        }
        self.send(request).await
    }

    /// PATCH JSON to `path` (with a token if given).
    pub async fn patch(&self, path: &str, user: Option<&User>, body: Value) -> Reply {
        let mut request = self.client.patch(format!("{}{path}", self.address)).json(&body);
        if let Some(user) = user {
            request = request.bearer_auth(&user.token);
        }
        self.send(request).await
    }

    /// A raw POST with a given content type.
    pub async fn post_raw(&self, path: &str, content_type: &str, body: String) -> Reply {
        let request = self
            .client
            .post(format!("{}{path}", self.address))
            .header("content-type", content_type)
            .body(body);
        self.send(request).await
    }

    /// Registers `name` (password `password-of-<name>`) and gets a token.
    pub async fn register(&self, name: &str) -> User {
        let password = format!("password-of-{name}");
        self.post("/api/accounts", None, json!({"username": name, "password": password}))
            .await
            .expect(StatusCode::CREATED);
        let token = self
            .post("/api/tokens", None, json!({"username": name, "password": password}))
            .await
            .expect(StatusCode::CREATED)["token"]
            .as_str()
            .unwrap()
            .to_owned();
        User { name: name.to_owned(), token }
    }

    /// `first` challenges `second` (taking the first seat) and `second` accepts.
    pub async fn start_game(&self, variant: &str, first: &User, second: &User, time_control: Value) -> i64 {
        self.start_game_with(first, second, json!({"variant": variant, "time_control": time_control})).await
    }

    /// `first` challenges `second` with the challenge fields `fields` (variant, ruleset,
    /// start_position...; `first` takes the first seat) and `second` accepts.
    pub async fn start_game_with(&self, first: &User, second: &User, mut fields: Value) -> i64 {
        fields["opponent"] = json!(second.name);
        fields["color"] = json!("first");
        let challenge = self.post("/api/challenges", Some(first), fields).await;
        let id = challenge.expect(StatusCode::CREATED)["id"].as_i64().unwrap();
        self.accept(second, id).await
    }

    /// Accepts challenge `id` → game id.
    pub async fn accept(&self, user: &User, id: i64) -> i64 {
        self.post(&format!("/api/challenges/{id}/accept"), Some(user), json!({}))
            .await
            .expect(StatusCode::CREATED)["game_id"]
            .as_i64()
            .unwrap()
    }

    /// Submits `text` at `ply`.
    pub async fn post_move(&self, user: &User, game: i64, text: &str, ply: i64) -> Reply {
        self.post(&format!("/api/games/{game}/moves"), Some(user), json!({"move": text, "ply": ply})).await
    }

    /// The game state.
    pub async fn game(&self, game: i64) -> Value {
        self.get(&format!("/api/games/{game}"), None).await.expect(StatusCode::OK).clone()
    }

    /// A game action (resign, draw/offer, abort...).
    pub async fn act(&self, user: Option<&User>, game: i64, action: &str) -> Reply {
        self.post(&format!("/api/games/{game}/{action}"), user, json!({})).await
    }

    /// Number of stored move rows of `game`.
    pub async fn stored_moves(&self, game: i64) -> i64 {
        sqlx::query_scalar("select count(*) from move where game_id = $1")
            .bind(game)
            .fetch_one(&self.domain.pool)
            .await
            .unwrap()
    }

    /// The text of a page or download `path` (anonymous), asserting a 200.
    pub async fn get_text(&self, path: &str) -> String {
        let reply = self.client.get(format!("{}{path}", self.address)).send().await.expect("request");
        assert_eq!(reply.status(), StatusCode::OK, "GET {path}");
        reply.text().await.expect("body")
    }

    /// Runs the timeout sweep now.
    pub async fn sweep(&self) -> Vec<i64> {
        tavoliere::domain::timeouts::sweep(&self.domain).await.expect("sweep")
    }
}

/// Three days per move.
pub fn three_days() -> Value {
    json!({"kind": "days-per-move", "days": 3})
}
