//! Login limits under concurrency: attempts counted before the password is checked, per
//! username and address, per address and per username; the bound on password hashes at
//! once; 429 with `Retry-After`.

use futures::future::join_all;
use reqwest::StatusCode;
use serde_json::json;

use crate::support::TestApp;

/// POST /api/tokens for `username` with `password` (and `forwarded` as X-Forwarded-For)
/// → the status and the Retry-After seconds.
async fn log_in(
    app: &TestApp,
    username: &str,
    password: &str,
    forwarded: Option<&str>,
) -> (StatusCode, Option<u64>) {
    let mut request = app
        .client
        .post(format!("{}/api/tokens", app.address))
        .json(&json!({"username": username, "password": password}));
    if let Some(address) = forwarded {
        request = request.header("x-forwarded-for", address);
    }
    let response = request.send().await.expect("login request");
    let retry_after = response
        .headers()
        .get("retry-after")
        .map(|value| value.to_str().expect("text").parse::<u64>().expect("Retry-After in seconds"));
    (response.status(), retry_after)
}

/// Asserts a 429 whose Retry-After is within the 60-second window.
#[track_caller]
fn assert_limited((status, retry_after): (StatusCode, Option<u64>)) {
    assert_eq!(status, StatusCode::TOO_MANY_REQUESTS);
    let seconds = retry_after.expect("every 429 carries Retry-After");
    assert!((1..=60).contains(&seconds), "Retry-After {seconds} is within the window");
}

#[tokio::test]
async fn fifty_parallel_wrong_passwords_check_exactly_the_limit() {
    let app = TestApp::spawn().await;
    app.register("alice").await;
    let replies = join_all((0..50).map(|_| log_in(&app, "alice", "wrong password", None))).await;
    let checked = replies.iter().filter(|(status, _)| *status == StatusCode::UNAUTHORIZED).count();
    assert_eq!(checked, 5, "exactly the limit of attempts reached the password check");
    for reply in replies.into_iter().filter(|(status, _)| *status != StatusCode::UNAUTHORIZED) {
        assert_limited(reply);
    }
    assert_limited(log_in(&app, "alice", "password-of-alice", None).await);
}

#[tokio::test]
async fn one_address_trying_one_password_on_many_usernames_is_limited() {
    let app = TestApp::spawn().await;
    for n in 0..20 {
        let (status, _) = log_in(&app, &format!("victim{n}"), "summer2026", None).await;
        assert_eq!(status, StatusCode::UNAUTHORIZED, "attempt {n} is checked");
    }
    assert_limited(log_in(&app, "victim20", "summer2026", None).await);
    // The session login and the login form share the limits.
    let session = app
        .client
        .post(format!("{}/api/session", app.address))
        .json(&json!({"username": "victim21", "password": "summer2026"}))
        .send()
        .await
        .unwrap();
    assert_eq!(session.status(), StatusCode::TOO_MANY_REQUESTS);
    assert!(session.headers().contains_key("retry-after"));
}

#[tokio::test]
async fn one_username_tried_from_many_addresses_is_limited() {
    let app = TestApp::spawn_with(|settings| {
        settings.application.client_address_header = Some("X-Forwarded-For".to_owned());
        settings.auth.login_attempts_per_username = 20;
    })
    .await;
    app.register("bob").await;
    for n in 0..20 {
        // Four tries from each of five addresses: under the limit of each address.
        let address = format!("203.0.113.{}", n / 4);
        let (status, _) = log_in(&app, "bob", "wrong password", Some(&address)).await;
        assert_eq!(status, StatusCode::UNAUTHORIZED, "attempt {n} is checked");
    }
    let (status, retry_after) = log_in(&app, "bob", "wrong password", Some("203.0.113.99")).await;
    assert_eq!(status, StatusCode::TOO_MANY_REQUESTS, "the username's ceiling");
    assert!(retry_after.is_some_and(|s| (1..=3600).contains(&s)), "within its hour: {retry_after:?}");
}

/// Issue 36 §5 (OWASP ASVS 2.2.1): the lockout counts failures per username and address;
/// strangers guessing from a few addresses lock out those addresses, not the owner.
#[tokio::test]
async fn strangers_guessing_from_four_addresses_do_not_lock_the_owner_out() {
    let app = TestApp::spawn_with(|settings| {
        settings.application.client_address_header = Some("X-Forwarded-For".to_owned());
    })
    .await;
    app.register("owner").await;
    for n in 0..20 {
        let address = format!("198.51.100.{}", n % 4);
        let (status, _) = log_in(&app, "owner", "wrong password", Some(&address)).await;
        assert_eq!(status, StatusCode::UNAUTHORIZED, "guess {n} is checked");
    }
    for n in 0..4 {
        let address = format!("198.51.100.{n}");
        assert_limited(log_in(&app, "owner", "password-of-owner", Some(&address)).await);
    }
    let (status, _) = log_in(&app, "owner", "password-of-owner", Some("192.0.2.77")).await;
    assert_eq!(status, StatusCode::CREATED, "the owner signs in from a fresh address");
}

#[tokio::test]
async fn the_trusted_proxy_header_tells_clients_apart_and_is_ignored_unless_configured() {
    let proxied = TestApp::spawn_with(|settings| {
        settings.application.client_address_header = Some("X-Forwarded-For".to_owned());
    })
    .await;
    proxied.register("carol").await;
    for _ in 0..5 {
        let (status, _) = log_in(&proxied, "carol", "wrong password", Some("10.0.0.1, 198.51.100.1")).await;
        assert_eq!(status, StatusCode::UNAUTHORIZED);
    }
    assert_limited(log_in(&proxied, "carol", "wrong password", Some("198.51.100.1")).await);
    let (status, _) = log_in(&proxied, "carol", "password-of-carol", Some("198.51.100.2")).await;
    assert_eq!(status, StatusCode::CREATED, "another client behind the proxy has its own count");

    let direct = TestApp::spawn().await;
    direct.register("dave").await;
    for n in 0..5 {
        let spoofed = format!("192.0.2.{n}");
        let (status, _) = log_in(&direct, "dave", "wrong password", Some(&spoofed)).await;
        assert_eq!(status, StatusCode::UNAUTHORIZED);
    }
    assert_limited(log_in(&direct, "dave", "wrong password", Some("192.0.2.200")).await);
}

#[tokio::test]
async fn password_hashes_run_at_most_the_configured_number_at_once() {
    // 40 MiB for hashes of 19 MiB: two at once.
    let app = TestApp::spawn_with(|settings| settings.auth.password_hash_memory_mib = 40).await;
    let hashing = app.password_hashing.clone().expect("an app of this process");
    assert_eq!(hashing.bound(), 2);
    let signups = join_all((0..12).map(|n| {
        app.post("/api/accounts", None, json!({"username": format!("player{n}"), "password": "long enough"}))
    }))
    .await;
    assert!(signups.iter().all(|reply| reply.status == StatusCode::CREATED), "{signups:?}");
    // Clients that give up while their hash waits or runs: the hash still holds its turn.
    let impatient = reqwest::Client::builder().timeout(std::time::Duration::from_millis(5)).build().unwrap();
    join_all((0..8).map(|n| {
        impatient
            .post(format!("{}/api/accounts", app.address))
            .json(&json!({"username": format!("gone{n}"), "password": "long enough"}))
            .send()
    }))
    .await;
    // Attempts in flight count against the address until they succeed: at most 20 at once.
    let names: Vec<String> = (0..16).map(|n| format!("player{}", n % 12)).collect();
    let logins = join_all(names.iter().map(|name| log_in(&app, name, "long enough", None))).await;
    assert!(logins.iter().all(|(status, _)| *status == StatusCode::CREATED), "{logins:?}");
    assert_eq!(hashing.peak(), 2, "the hashes overlapped, never more than two at once");
}
