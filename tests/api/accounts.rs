//! Registration, tokens, cookie sessions, the login rate limit.

use reqwest::StatusCode;
use serde_json::json;

use crate::support::TestApp;

#[tokio::test]
async fn a_registered_player_gets_a_token_that_identifies_them() {
    let app = TestApp::spawn().await;
    let alice = app.register("alice").await;
    let me = app.get("/api/accounts/me", Some(&alice)).await;
    assert_eq!(me.expect(StatusCode::OK)["username"], "alice");
    assert_eq!(me.body["role"], "player");
}

#[tokio::test]
async fn usernames_are_unique_regardless_of_case() {
    let app = TestApp::spawn().await;
    app.register("alice").await;
    let again =
        app.post("/api/accounts", None, json!({"username": "ALICE", "password": "long enough"})).await;
    again.expect(StatusCode::CONFLICT);
}

#[tokio::test]
async fn invalid_usernames_and_short_passwords_are_refused() {
    let app = TestApp::spawn().await;
    let cases = [
        (json!({"username": "al", "password": "long enough"}), "too short"),
        (json!({"username": "9lives", "password": "long enough"}), "starts with a digit"),
        (json!({"username": "bob smith", "password": "long enough"}), "has a space"),
        (json!({"username": "bob", "password": "short"}), "password too short"),
    ];
    for (body, why) in cases {
        let reply = app.post("/api/accounts", None, body).await;
        assert_eq!(reply.status, StatusCode::UNPROCESSABLE_ENTITY, "{why}: {}", reply.body);
    }
}

#[tokio::test]
async fn a_wrong_password_is_refused_and_repeated_failures_are_rate_limited() {
    let app = TestApp::spawn().await;
    app.register("alice").await;
    for _ in 0..5 {
        app.post("/api/tokens", None, json!({"username": "alice", "password": "wrong password"}))
            .await
            .expect(StatusCode::UNAUTHORIZED);
    }
    let limited =
        app.post("/api/tokens", None, json!({"username": "alice", "password": "password-of-alice"})).await;
    limited.expect(StatusCode::TOO_MANY_REQUESTS);
}

#[tokio::test]
async fn an_unknown_or_revoked_token_is_refused() {
    let app = TestApp::spawn().await;
    let mut alice = app.register("alice").await;
    assert_eq!(app.revoke_token(&alice).await, StatusCode::NO_CONTENT);
    app.get("/api/accounts/me", Some(&alice)).await.expect(StatusCode::UNAUTHORIZED);
    alice.token = "tav_made_up".into();
    app.get("/api/accounts/me", Some(&alice)).await.expect(StatusCode::UNAUTHORIZED);
}

#[tokio::test]
async fn a_cookie_session_logs_in_and_out() {
    let app = TestApp::spawn().await;
    app.register("alice").await;
    let browser = reqwest::Client::builder().cookie_store(true).build().unwrap();
    let login = browser
        .post(format!("{}/api/session", app.address))
        .json(&json!({"username": "alice", "password": "password-of-alice"}))
        .send()
        .await
        .unwrap();
    assert_eq!(login.status(), StatusCode::OK);
    let cookie = login.headers()["set-cookie"].to_str().unwrap().to_owned();
    assert!(cookie.contains("HttpOnly"), "{cookie}");
    let me = browser.get(format!("{}/api/accounts/me", app.address)).send().await.unwrap();
    assert_eq!(me.status(), StatusCode::OK);
    let token = login.headers()["x-csrf-token"].to_str().unwrap().to_owned();
    let logout = browser
        .delete(format!("{}/api/session", app.address))
        .header("x-csrf-token", token)
        .send()
        .await
        .unwrap();
    assert_eq!(logout.status(), StatusCode::NO_CONTENT);
    let after = browser.get(format!("{}/api/accounts/me", app.address)).send().await.unwrap();
    assert_eq!(after.status(), StatusCode::UNAUTHORIZED);
}

#[tokio::test]
async fn anonymous_requests_cannot_act() {
    let app = TestApp::spawn().await;
    app.get("/api/accounts/me", None).await.expect(StatusCode::UNAUTHORIZED);
    app.post(
        "/api/challenges",
        None,
        json!({"variant": "xiangqi", "time_control": {"kind": "days-per-move", "days": 3}}),
    )
    .await
    .expect(StatusCode::UNAUTHORIZED);
    app.post("/api/games/1/moves", None, json!({"move": "h2e2", "ply": 0}))
        .await
        .expect(StatusCode::UNAUTHORIZED);
}
