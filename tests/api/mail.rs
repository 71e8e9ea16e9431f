//! E-mail (#17 §1, §2) through a real SMTP server process (`support::smtp`): the
//! verification, the password reset, the notifications' mails (headers, both parts,
//! links followed against the running server), the settings, the outbox.

use reqwest::StatusCode;
use serde_json::{json, Value};
use time::Duration;

use crate::support::smtp::{link, SmtpSink};
use crate::support::{three_days, TestApp, User};

/// The app sending through `sink`.
async fn app_with(sink: &SmtpSink) -> TestApp {
    let url = sink.url();
    TestApp::spawn_with(move |settings| settings.mail.smtp_url = Some(url.into())).await
}

/// `name` registered with the address `<name>@example.org`, verified by following the
/// link of the mail the sink received.
async fn verified(app: &TestApp, sink: &SmtpSink, name: &str) -> User {
    let user = app.register(name).await;
    let address = format!("{name}@example.org");
    app.patch("/api/accounts/me", Some(&user), json!({"email": address})).await.expect(StatusCode::OK);
    let mail = sink.wait_for(&address, 1).await.remove(0);
    let verify = link(mail["text"].as_str().unwrap(), &format!("{}/email/verify?", app.address));
    let page = app.client.get(&verify).send().await.unwrap();
    assert_eq!(page.status(), StatusCode::OK, "following the verification link");
    user
}

#[tokio::test]
async fn an_address_is_verified_by_following_the_link_of_the_mail() {
    let sink = SmtpSink::start();
    let app = app_with(&sink).await;
    let alice = app.register("alice").await;
    let me = app.patch("/api/accounts/me", Some(&alice), json!({"email": "alice@example.org"})).await;
    assert_eq!(me.expect(StatusCode::OK)["email"], "alice@example.org");
    assert_eq!(me.body["email_verified"], false);
    let mail = sink.wait_for("alice@example.org", 1).await.remove(0);
    assert_eq!(mail["headers"]["to"], "alice@example.org");
    assert_eq!(mail["headers"]["from"], "Tavoliere <tavoliere@localhost>");
    assert!(mail["headers"]["subject"].as_str().unwrap().contains("Confirm"), "{mail:#}");
    assert_eq!(mail["content_type"], "multipart/alternative");
    assert!(mail["headers"].get("list-unsubscribe").is_none(), "an account mail has no unsubscribe");
    let text = mail["text"].as_str().unwrap();
    let html = mail["html"].as_str().unwrap();
    let verify = link(text, &format!("{}/email/verify?", app.address));
    assert!(html.contains(&verify.replace('&', "&#38;")), "the HTML part links the same: {html}");
    // A forged signature verifies nothing.
    let forged = format!("{}0", &verify[..verify.len() - 1]);
    let refused = app.client.get(&forged).send().await.unwrap();
    assert_eq!(refused.status(), StatusCode::BAD_REQUEST);
    assert_eq!(app.get("/api/accounts/me", Some(&alice)).await.body["email_verified"], false);
    let page = app.client.get(&verify).send().await.unwrap();
    assert_eq!(page.status(), StatusCode::OK);
    assert!(page.text().await.unwrap().contains("confirmed"));
    let me = app.get("/api/accounts/me", Some(&alice)).await;
    assert_eq!(me.body["email_verified"], true, "{}", me.body);
}

#[tokio::test]
async fn a_verification_link_expires_and_dies_with_a_changed_address() {
    let sink = SmtpSink::start();
    let app = app_with(&sink).await;
    let bob = app.register("bob").await;
    app.patch("/api/accounts/me", Some(&bob), json!({"email": "bob@example.org"}))
        .await
        .expect(StatusCode::OK);
    let first = sink.wait_for("bob@example.org", 1).await.remove(0);
    let old_link = link(first["text"].as_str().unwrap(), &format!("{}/email/verify?", app.address));
    app.patch("/api/accounts/me", Some(&bob), json!({"email": "bob@example.net"}))
        .await
        .expect(StatusCode::OK);
    let second = sink.wait_for("bob@example.net", 1).await.remove(0);
    let new_link = link(second["text"].as_str().unwrap(), &format!("{}/email/verify?", app.address));
    let stale = app.client.get(&old_link).send().await.unwrap();
    assert_eq!(stale.status(), StatusCode::BAD_REQUEST, "the link of the old address verifies nothing");
    app.clock.advance(Duration::hours(49));
    let expired = app.client.get(&new_link).send().await.unwrap();
    assert_eq!(expired.status(), StatusCode::BAD_REQUEST, "48 hours later the link has expired");
    assert_eq!(app.get("/api/accounts/me", Some(&bob)).await.body["email_verified"], false);
}

#[tokio::test]
async fn a_bad_address_is_refused_and_changes_nothing() {
    let app = TestApp::spawn().await;
    let carol = app.register("carol").await;
    let refused = app.patch("/api/accounts/me", Some(&carol), json!({"email": "not an address"})).await;
    assert_eq!(refused.expect(StatusCode::UNPROCESSABLE_ENTITY)["errors"][0]["code"], "email.invalid");
    let refused = app
        .post("/api/accounts", None, json!({"username": "dave", "password": "a long secret", "email": "x"}))
        .await;
    refused.expect(StatusCode::UNPROCESSABLE_ENTITY);
    let me = app.get("/api/accounts/me", Some(&carol)).await;
    assert_eq!(me.body["email"], Value::Null);
    let count: i64 =
        sqlx::query_scalar("select count(*) from account").fetch_one(&app.domain.pool).await.unwrap();
    assert_eq!(count, 1, "dave was not created");
}

#[tokio::test]
async fn the_address_is_never_shown_to_others_and_an_admin_sees_it() {
    let sink = SmtpSink::start();
    let app = app_with(&sink).await;
    let alice = verified(&app, &sink, "alice").await;
    let bob = app.register("bob").await;
    let game = app.start_game("xiangqi", &alice, &bob, three_days()).await;
    for path in
        [format!("/api/games/{game}"), "/api/games?player=alice".to_owned(), "/api/challenges".to_owned()]
    {
        let seen = app.get(&path, Some(&bob)).await;
        assert!(!seen.body.to_string().contains("alice@example.org"), "{path}: {}", seen.body);
    }
    let page = app.get_text(&format!("/games/{game}")).await;
    assert!(!page.contains("alice@example.org"));
    app.get("/api/admin/accounts/alice", Some(&bob)).await.expect(StatusCode::FORBIDDEN);
    app.get("/api/admin/outbox", Some(&bob)).await.expect(StatusCode::FORBIDDEN);
    sqlx::query("update account set role = 'admin' where username = 'bob'")
        .execute(&app.domain.pool)
        .await
        .unwrap();
    // A new token: the role is read with it (a checked token is trusted for 30 s).
    let credentials = json!({"username": "bob", "password": "password-of-bob"});
    let token = app.post("/api/tokens", None, credentials).await.body["token"].as_str().unwrap().to_owned();
    let admin = User { name: "bob".into(), token };
    let seen = app.get("/api/admin/accounts/alice", Some(&admin)).await;
    assert_eq!(seen.expect(StatusCode::OK)["email"], "alice@example.org");
}

#[tokio::test]
async fn a_password_is_reset_once_by_the_link_of_the_mail() {
    let sink = SmtpSink::start();
    let app = app_with(&sink).await;
    let alice = verified(&app, &sink, "alice").await;
    let known = app.post("/api/password-reset", None, json!({"email": "ALICE@example.org"})).await;
    let unknown = app.post("/api/password-reset", None, json!({"email": "nobody@example.org"})).await;
    assert_eq!(known.status, StatusCode::ACCEPTED);
    assert_eq!((unknown.status, &unknown.body), (known.status, &known.body), "the reply reveals nothing");
    let mail = sink.wait_for("alice@example.org", 2).await.remove(1);
    let text = mail["text"].as_str().unwrap();
    let reset = link(text, &format!("{}/password/reset?token=", app.address));
    let token = reset.rsplit("token=").next().unwrap().to_owned();
    // The token is stored hashed, and erased from the outbox once mailed.
    let stored: i64 =
        sqlx::query_scalar("select count(*) from notification where details::text like '%' || $1 || '%'")
            .bind(&token)
            .fetch_one(&app.domain.pool)
            .await
            .unwrap();
    assert_eq!(stored, 0, "the outbox no longer holds the token");
    // The form page of the link works.
    let form = app.client.get(&reset).send().await.unwrap();
    assert_eq!(form.status(), StatusCode::OK);
    let body = json!({"token": token, "password": "a brand new secret"});
    app.post("/api/password-reset/confirm", None, body.clone()).await.expect(StatusCode::NO_CONTENT);
    app.post("/api/password-reset/confirm", None, body).await.expect(StatusCode::UNPROCESSABLE_ENTITY);
    let old = json!({"username": "alice", "password": "password-of-alice"});
    app.post("/api/tokens", None, old).await.expect(StatusCode::UNAUTHORIZED);
    let new = json!({"username": "alice", "password": "a brand new secret"});
    app.post("/api/tokens", None, new).await.expect(StatusCode::CREATED);
    assert_eq!(app.revoke_token(&alice).await, StatusCode::UNAUTHORIZED, "the old tokens were revoked");
}

#[tokio::test]
async fn a_reset_link_expires_and_reset_requests_are_limited() {
    let sink = SmtpSink::start();
    let app = app_with(&sink).await;
    verified(&app, &sink, "alice").await;
    app.post("/api/password-reset", None, json!({"email": "alice@example.org"}))
        .await
        .expect(StatusCode::ACCEPTED);
    let mail = sink.wait_for("alice@example.org", 2).await.remove(1);
    let reset = link(mail["text"].as_str().unwrap(), &format!("{}/password/reset?token=", app.address));
    let token = reset.rsplit("token=").next().unwrap().to_owned();
    app.clock.advance(Duration::minutes(61));
    let late = app
        .post("/api/password-reset/confirm", None, json!({"token": token, "password": "another secret"}))
        .await;
    assert_eq!(late.expect(StatusCode::UNPROCESSABLE_ENTITY)["errors"][0]["code"], "password-reset.invalid");
    // As the login: 5 a minute per address and client; the 6th is refused with Retry-After.
    for _ in 0..4 {
        app.post("/api/password-reset", None, json!({"email": "alice@example.org"}))
            .await
            .expect(StatusCode::ACCEPTED);
    }
    let limited = app.post("/api/password-reset", None, json!({"email": "alice@example.org"})).await;
    limited.expect(StatusCode::TOO_MANY_REQUESTS);
}
