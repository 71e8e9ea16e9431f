//! A test application with a browser-like HTTP client: it keeps its cookies (the session's,
//! a visitor's form token),
//! does not follow redirects, and reads the CSRF token from the pages.

#[path = "../api/support/cluster.rs"]
pub mod cluster;

use reqwest::header::{HeaderMap, ACCEPT_LANGUAGE, COOKIE, LOCATION, SET_COOKIE};
use reqwest::StatusCode;
use tavoliere::config::Settings;
use tavoliere::startup::{Application, Dependencies};

/// A running application on its own database.
pub struct TestApp {
    /// `http://127.0.0.1:<port>`.
    pub address: String,
    /// Its database (for what only the command line does, e.g. the first admin).
    pub database_url: String,
}

fn settings(database_url: &str) -> Settings {
    let mut settings = Settings::built_in("local");
    settings.application.port = 0;
    settings.application.body_limit_bytes = 16 * 1024;
    settings.database.url = Some(database_url.to_owned().into());
    // A test machine under load may take over the production second to open a connection.
    settings.database.acquire_timeout_ms = 10_000;
    settings.database.max_connections = 10;
    settings.database.embedded_data_dir = "unused".into();
    settings.clocks.sweep_interval_seconds = 0;
    settings.mail.alarm_interval_seconds = 0;
    // Every test signs its players up from 127.0.0.1; the limit per address has its own
    // test (tests/api/floods.rs).
    settings.auth.signups_per_address = 10_000;
    settings
}

impl TestApp {
    /// The app with the real rules on a fresh database.
    pub async fn spawn() -> TestApp {
        let database_url = cluster::Cluster::get().fresh_database().await;
        let deps = Dependencies { clock: None, pool: None };
        let app = Application::build_with(settings(&database_url), deps).await.expect("build the app");
        let address = format!("http://127.0.0.1:{}", app.port());
        tokio::spawn(app.run_until(std::future::pending()));
        let database_url = database_url.to_string();
        TestApp { address, database_url }
    }

    /// A new browser (no cookies yet).
    pub fn browser(&self) -> Browser {
        Browser {
            address: self.address.clone(),
            client: reqwest::Client::builder().redirect(reqwest::redirect::Policy::none()).build().unwrap(),
            cookies: std::collections::BTreeMap::new(),
            language: None,
        }
    }
}

/// A response page.
#[derive(Debug)]
pub struct Page {
    pub status: StatusCode,
    pub headers: HeaderMap,
    pub body: String,
}

impl Page {
    /// The redirect target.
    pub fn location(&self) -> &str {
        self.headers.get(LOCATION).and_then(|v| v.to_str().ok()).unwrap_or("")
    }

    /// The CSRF token of the page's first form.
    #[track_caller]
    pub fn csrf(&self) -> String {
        attribute_after(&self.body, r#"name="csrf" value=""#).expect("a form with a CSRF token")
    }
}

/// The text after `marker` up to the next `"`.
pub fn attribute_after(body: &str, marker: &str) -> Option<String> {
    let start = body.find(marker)? + marker.len();
    let end = body[start..].find('"')? + start;
    Some(body[start..end].to_owned())
}

/// The text of the element with `id` on a page: its first text up to the next tag, the
/// escapes undone.
#[track_caller]
pub fn element_text(body: &str, id: &str) -> String {
    let start = body.find(&format!(r#"id="{id}""#)).unwrap_or_else(|| panic!("no #{id} in {body}"));
    let text = &body[start..];
    let text = &text[text.find('>').expect("a tag") + 1..];
    let escaped = text[..text.find('<').unwrap_or(text.len())].trim();
    [
        ("&#39;", "'"),
        ("&#x27;", "'"),
        ("&quot;", "\""),
        ("&#34;", "\""),
        ("&lt;", "<"),
        ("&gt;", ">"),
        ("&#38;", "&"),
        ("&amp;", "&"),
    ]
    .iter()
    .fold(escaped.to_owned(), |text, (entity, c)| text.replace(entity, c))
}

/// Percent-encodes a form value.
fn encode(value: &str) -> String {
    value
        .bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' => (b as char).to_string(),
            b' ' => "+".to_owned(),
            _ => format!("%{b:02X}"),
        })
        .collect()
}

/// A browser: its cookies by name.
pub struct Browser {
    address: String,
    client: reqwest::Client,
    cookies: std::collections::BTreeMap<String, String>,
    /// `Accept-Language` to send.
    pub language: Option<&'static str>,
}

impl Browser {
    async fn send(&mut self, mut request: reqwest::RequestBuilder) -> Page {
        if !self.cookies.is_empty() {
            let pairs: Vec<String> =
                self.cookies.iter().map(|(name, value)| format!("{name}={value}")).collect();
            request = request.header(COOKIE, pairs.join("; "));
        }
        if let Some(language) = self.language {
            request = request.header(ACCEPT_LANGUAGE, language);
        }
        let response = request.send().await.expect("request");
        for set in response.headers().get_all(SET_COOKIE).iter().filter_map(|v| v.to_str().ok()) {
            let pair = set.split(';').next().unwrap_or("");
            let (name, value) = pair.split_once('=').unwrap_or((pair, ""));
            // A cookie set empty or already expired is removed.
            let removed = value.is_empty() || set.to_ascii_lowercase().contains("max-age=0");
            if removed {
                self.cookies.remove(name.trim());
            } else {
                self.cookies.insert(name.trim().to_owned(), value.to_owned());
            }
        }
        let status = response.status();
        let headers = response.headers().clone();
        let body = response.text().await.unwrap_or_default();
        Page { status, headers, body }
    }

    /// GET `path`.
    pub async fn get(&mut self, path: &str) -> Page {
        let request = self.client.get(format!("{}{path}", self.address));
        self.send(request).await
    }

    /// POST a form to `path`.
    pub async fn post(&mut self, path: &str, fields: &[(&str, &str)]) -> Page {
        let body: Vec<String> = fields.iter().map(|(k, v)| format!("{}={}", encode(k), encode(v))).collect();
        let request = self
            .client
            .post(format!("{}{path}", self.address))
            .header("content-type", "application/x-www-form-urlencoded")
            .body(body.join("&"));
        self.send(request).await
    }

    /// GETs `form_page` for its token, then posts `fields` plus the token to `action`.
    pub async fn submit(&mut self, form_page: &str, action: &str, fields: &[(&str, &str)]) -> Page {
        let csrf = self.get(form_page).await.csrf();
        let mut all = vec![("csrf", csrf.as_str())];
        all.extend_from_slice(fields);
        self.post(action, &all).await
    }

    /// Signs up `name` (password `password-of-<name>`), signed in afterwards.
    pub async fn sign_up(&mut self, name: &str) {
        let password = format!("password-of-{name}");
        let page = self.submit("/signup", "/signup", &[("username", name), ("password", &password)]).await;
        assert_eq!(page.status, StatusCode::SEE_OTHER, "{}", page.body);
        assert_eq!(page.location(), "/");
    }
}

/// The REST API beside the pages, for what a test sets up faster than by its forms.
pub mod api {
    use reqwest::{Method, StatusCode};
    use serde_json::{json, Value};

    /// A bearer token of `name` (signed up with the password `password-of-<name>`).
    pub async fn token(address: &str, name: &str) -> String {
        let body = json!({"username": name, "password": format!("password-of-{name}")});
        let (status, answer) = call(address, None, Method::POST, "/api/tokens", Some(body)).await;
        assert_eq!(status, StatusCode::CREATED, "a token for {name}: {answer}");
        answer["token"].as_str().expect("a token").to_owned()
    }

    /// `method` `path` as `token`, with `body` as JSON → the status and the answer (`null`
    /// when it is not JSON).
    pub async fn call(
        address: &str,
        token: Option<&str>,
        method: Method,
        path: &str,
        body: Option<Value>,
    ) -> (StatusCode, Value) {
        let mut request = reqwest::Client::new().request(method, format!("{address}{path}"));
        if let Some(token) = token {
            request = request.bearer_auth(token);
        }
        if let Some(body) = body {
            request = request.json(&body);
        }
        let reply = request.send().await.expect("a request to the API");
        let status = reply.status();
        (status, reply.json().await.unwrap_or(Value::Null))
    }
}
