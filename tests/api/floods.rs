//! No single client floods the others (issue 36 §2, §4, §5): verification mails limited per
//! account and per address mailed (through the real SMTP sink), sign-ups per client
//! address, password resets that cost a hash only with a valid token and answer before
//! their work, game imports capped per request and per day and kept out of the home
//! page's latest results.

use reqwest::StatusCode;
use serde_json::{json, Value};
use time::Duration;

use crate::support::smtp::SmtpSink;
use crate::support::{Reply, TestApp, User};

/// The app sending through `sink`, its client addresses read from `X-Forwarded-For`.
async fn app_with(sink: &SmtpSink) -> TestApp {
    let url = sink.url();
    TestApp::spawn_with(move |settings| {
        settings.mail.smtp_url = Some(url.into());
        settings.mail.poll_interval_ms = 100;
        settings.application.client_address_header = Some("X-Forwarded-For".to_owned());
    })
    .await
}

/// Waits until the outbox has no mail pending or being sent (the senders are done).
async fn outbox_settled(app: &TestApp) {
    for _ in 0..400 {
        let waiting: i64 = sqlx::query_scalar(
            "select count(*) from notification where mail_state in ('pending', 'sending')",
        )
        .fetch_one(&app.domain.pool)
        .await
        .unwrap();
        if waiting == 0 {
            return;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    panic!("the outbox still has mails to send");
}

/// Accounts stored.
async fn accounts(app: &TestApp) -> i64 {
    sqlx::query_scalar("select count(*) from account").fetch_one(&app.domain.pool).await.unwrap()
}

/// POST `body` to `path` as from the client address `from` → the reply and its
/// `Retry-After`.
async fn post_from(app: &TestApp, path: &str, from: &str, body: Value) -> (Reply, Option<u64>) {
    let response = app
        .client
        .post(format!("{}{path}", app.address))
        .header("x-forwarded-for", from)
        .json(&body)
        .send()
        .await
        .expect("request");
    let retry_after = response.headers().get("retry-after").map(|v| v.to_str().unwrap().parse().unwrap());
    let status = response.status();
    let body = serde_json::from_str(&response.text().await.unwrap()).unwrap_or(Value::Null);
    (Reply { status, body }, retry_after)
}

/// The CSRF token of a page's first form.
fn form_token(page: &str) -> String {
    let marker = r#"name="csrf" value=""#;
    let start = page.find(marker).expect("a form") + marker.len();
    page[start..].split('"').next().unwrap().to_owned()
}

/// PATCH `user`'s address to `email` → the reply and its `Retry-After`.
/// Gives `user` the address `email` and follows the verification link mailed to it.
async fn verify_address(app: &TestApp, sink: &SmtpSink, user: &User, email: &str) {
    change_address(app, user, email).await.0.expect(StatusCode::OK);
    let mail = sink.wait_for(email, 1).await.remove(0);
    let verify =
        crate::support::smtp::link(mail["text"].as_str().unwrap(), &format!("{}/email/verify?", app.address));
    assert_eq!(app.client.get(&verify).send().await.unwrap().status(), StatusCode::OK);
}

async fn change_address(app: &TestApp, user: &User, email: &str) -> (Reply, Option<u64>) {
    let response = app
        .client
        .patch(format!("{}/api/accounts/me", app.address))
        .bearer_auth(&user.token)
        .json(&json!({ "email": email }))
        .send()
        .await
        .expect("request");
    let retry_after = response.headers().get("retry-after").map(|v| v.to_str().unwrap().parse().unwrap());
    let status = response.status();
    let body = serde_json::from_str(&response.text().await.unwrap()).unwrap_or(Value::Null);
    (Reply { status, body }, retry_after)
}

/// Asserts a refusal by the mail limit: 429, `Retry-After` within the hour, the one error
/// shape with its code.
#[track_caller]
fn assert_mail_limited((reply, retry_after): &(Reply, Option<u64>)) {
    assert_eq!(reply.expect(StatusCode::TOO_MANY_REQUESTS)["errors"][0]["code"], "email.too-many-mails");
    let seconds = retry_after.expect("a 429 says when to try again");
    assert!((1..=3600).contains(&seconds), "Retry-After {seconds} is within the hour");
}

#[tokio::test]
async fn an_address_changed_over_and_over_is_mailed_three_times_an_hour() {
    let sink = SmtpSink::start();
    let app = app_with(&sink).await;
    let mallory = app.register("mallory").await;
    let mut answers = Vec::new();
    for n in 0..10 {
        // Back and forth between a stranger's address and another: each change mails.
        let email = if n % 2 == 0 { "victim@example.org" } else { "other@example.org" };
        answers.push(change_address(&app, &mallory, email).await);
    }
    for (n, answer) in answers.iter().enumerate() {
        if n < 3 {
            answer.0.expect(StatusCode::OK);
        } else {
            assert_mail_limited(answer);
        }
    }
    // A refused change changes nothing: the third address (the victim's) stays.
    let me = app.get("/api/accounts/me", Some(&mallory)).await;
    assert_eq!(me.body["email"], "victim@example.org");
    outbox_settled(&app).await;
    assert_eq!(sink.messages_to("victim@example.org").len(), 2, "changes 1 and 3");
    assert_eq!(sink.messages_to("other@example.org").len(), 1, "change 2");
    // An hour later the account may ask again.
    app.clock.advance(Duration::minutes(61));
    change_address(&app, &mallory, "mallory@example.org").await.0.expect(StatusCode::OK);
    sink.wait_for("mallory@example.org", 1).await;
}

#[tokio::test]
async fn sign_ups_and_changes_naming_a_strangers_address_mail_it_three_times_an_hour() {
    let sink = SmtpSink::start();
    let app = app_with(&sink).await;
    let mut replies = Vec::new();
    for n in 0..10 {
        // From ten addresses: the limit is the mailed address's, not the client's.
        let body = json!({"username": format!("bomber{n}"), "password": "a long secret", "email": "victim@example.org"});
        replies.push(post_from(&app, "/api/accounts", &format!("198.51.100.{n}"), body).await);
    }
    for (n, reply) in replies.iter().enumerate() {
        if n < 3 {
            reply.0.expect(StatusCode::CREATED);
        } else {
            assert_mail_limited(reply);
        }
    }
    assert_eq!(accounts(&app).await, 3, "a sign-up refused makes no account");
    // Another account naming the address is refused too, before mailing anything.
    let eve = app.register("eve").await;
    let refused_known = change_address(&app, &eve, "VICTIM@example.org").await;
    assert_mail_limited(&refused_known);
    // The answer is the same for an address an account has verified: it says nothing
    // about the address's owner.
    let alice = app.register("alice").await;
    verify_address(&app, &sink, &alice, "alice@example.org").await;
    for name in ["bob", "carol"] {
        let user = app.register(name).await;
        change_address(&app, &user, "alice@example.org").await.0.expect(StatusCode::OK);
    }
    let refused_owned = change_address(&app, &eve, "alice@example.org").await;
    assert_mail_limited(&refused_owned);
    assert_eq!(refused_owned.0.body["errors"], refused_known.0.body["errors"]);
    assert_eq!(refused_owned.1, refused_known.1);
    outbox_settled(&app).await;
    assert_eq!(sink.messages_to("victim@example.org").len(), 3);
    assert_eq!(sink.messages_to("alice@example.org").len(), 3, "alice's own and two strangers'");
}

#[tokio::test]
async fn sign_ups_are_limited_per_client_address() {
    let app = TestApp::spawn_with(|settings| {
        settings.application.client_address_header = Some("X-Forwarded-For".to_owned());
        settings.auth.signups_per_address = 3;
    })
    .await;
    for n in 0..3 {
        let body = json!({"username": format!("sock{n}"), "password": "a long secret"});
        post_from(&app, "/api/accounts", "203.0.113.5", body).await.0.expect(StatusCode::CREATED);
    }
    let body = json!({"username": "sock3", "password": "a long secret"});
    let (refused, retry_after) = post_from(&app, "/api/accounts", "203.0.113.5", body.clone()).await;
    assert_eq!(refused.expect(StatusCode::TOO_MANY_REQUESTS)["errors"][0]["code"], "signup.rate-limited");
    assert!(retry_after.is_some_and(|s| (1..=3600).contains(&s)), "{retry_after:?}");
    assert_eq!(accounts(&app).await, 3);
    // Another address, and the sign-up form, which shares the limit.
    post_from(&app, "/api/accounts", "203.0.113.6", body).await.0.expect(StatusCode::CREATED);
    let form = app.client.get(format!("{}/signup", app.address)).send().await.unwrap();
    let cookie = form.headers()["set-cookie"].to_str().unwrap().split(';').next().unwrap().to_owned();
    let page = form.text().await.unwrap();
    let token = form_token(&page);
    let refused = app
        .client
        .post(format!("{}/signup", app.address))
        .header("cookie", cookie)
        .header("x-forwarded-for", "203.0.113.5")
        .header("content-type", "application/x-www-form-urlencoded")
        .body(
            url::form_urlencoded::Serializer::new(String::new())
                .extend_pairs([
                    ("csrf", token.as_str()),
                    ("username", "sock4"),
                    ("password", "a long secret"),
                ])
                .finish(),
        )
        .send()
        .await
        .unwrap();
    assert_eq!(refused.status(), StatusCode::TOO_MANY_REQUESTS);
    assert!(refused.headers().contains_key("retry-after"));
    assert_eq!(accounts(&app).await, 4);
}

#[tokio::test]
async fn a_reset_request_is_answered_before_its_work_for_a_known_address_as_for_an_unknown_one() {
    let sink = SmtpSink::start();
    let app = app_with(&sink).await;
    let alice = app.register("alice").await;
    verify_address(&app, &sink, &alice, "alice@example.org").await;
    // The work for a known address (a reset row, a mail) waits behind a lock on the
    // account; the answer does not: it is given before the work, as for an unknown one.
    let mut blocker = app.domain.pool.begin().await.unwrap();
    sqlx::query("select 1 from account where username = 'alice' for update")
        .execute(&mut *blocker)
        .await
        .unwrap();
    for email in ["alice@example.org", "nobody@example.org"] {
        let answer = tokio::time::timeout(
            std::time::Duration::from_secs(20),
            app.post("/api/password-reset", None, json!({ "email": email })),
        )
        .await
        .expect("answered while the work waits");
        answer.expect(StatusCode::ACCEPTED);
    }
    let pending: i64 =
        sqlx::query_scalar("select count(*) from password_reset").fetch_one(&app.domain.pool).await.unwrap();
    assert_eq!(pending, 0, "the work has not been done yet");
    blocker.rollback().await.unwrap();
    sink.wait_for_subject("alice@example.org", "password").await;
}

#[tokio::test]
async fn reset_mails_to_one_address_are_limited_whatever_the_clients() {
    let sink = SmtpSink::start();
    let app = app_with(&sink).await;
    let alice = app.register("alice").await;
    verify_address(&app, &sink, &alice, "alice@example.org").await;
    for n in 0..8 {
        let (reply, _) = post_from(
            &app,
            "/api/password-reset",
            &format!("192.0.2.{n}"),
            json!({"email": "alice@example.org"}),
        )
        .await;
        assert_eq!(reply.status, StatusCode::ACCEPTED, "the answer never changes");
    }
    // The requests' work runs after their answers: wait for the resets, then the mails.
    for _ in 0..400 {
        let requests_done: i64 = sqlx::query_scalar(
            "select count(*) from notification where kind = 'password-reset' or kind = 'verify-email'",
        )
        .fetch_one(&app.domain.pool)
        .await
        .unwrap();
        if requests_done >= 4 {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    tokio::time::sleep(std::time::Duration::from_millis(500)).await;
    outbox_settled(&app).await;
    let resets = sink
        .messages_to("alice@example.org")
        .into_iter()
        .filter(|m| m["text"].as_str().is_some_and(|t| t.contains("/password/reset?token=")))
        .count();
    assert_eq!(resets, 3, "three reset mails an hour to one address");
}

#[tokio::test]
async fn a_reset_confirmed_with_a_forged_token_hashes_no_password() {
    let app = TestApp::spawn().await;
    app.register("alice").await;
    let hashing = app.password_hashing.clone().expect("an app of this process");
    let before = hashing.started();
    for n in 0..20 {
        let body = json!({"token": format!("{n:064x}"), "password": "a brand new secret"});
        let refused = app.post("/api/password-reset/confirm", None, body).await;
        assert_eq!(
            refused.expect(StatusCode::UNPROCESSABLE_ENTITY)["errors"][0]["code"],
            "password-reset.invalid"
        );
    }
    assert_eq!(hashing.started(), before, "no forged token waited for a hash, nor got one");
}

/// Four one-line Xiangqi games, one a line.
const FOUR_GAMES: &str = "h2e2 h9g7\nb0c2 h7h0\nh2e2 b9c7\nc3c4 c6c5\n";

#[tokio::test]
async fn a_file_of_more_games_than_a_request_may_import_is_refused_whole() {
    let app = TestApp::spawn_with(|settings| settings.imports.max_games_per_request = 3).await;
    let alice = app.register("alice").await;
    let refused = app.post("/api/games/import", Some(&alice), json!({ "record": FOUR_GAMES })).await;
    let error = &refused.expect(StatusCode::PAYLOAD_TOO_LARGE)["errors"][0];
    assert_eq!(error["code"], "import.too-many-games");
    assert!(error["detail"].as_str().unwrap().contains("at most 3"), "{error}");
    assert_eq!((error["meta"]["games"].as_u64(), error["meta"]["limit"].as_u64()), (Some(4), Some(3)));
    let stored: i64 =
        sqlx::query_scalar("select count(*) from game").fetch_one(&app.domain.pool).await.unwrap();
    assert_eq!(stored, 0);
    let three: String = FOUR_GAMES.lines().take(3).map(|l| format!("{l}\n")).collect();
    let imported = app.post("/api/games/import", Some(&alice), json!({ "record": three })).await;
    assert_eq!(imported.expect(StatusCode::CREATED)["games"].as_array().unwrap().len(), 3);
}

#[tokio::test]
async fn an_account_imports_at_most_the_days_games() {
    let app = TestApp::spawn_with(|settings| settings.imports.games_per_account_per_day = 5).await;
    let alice = app.register("alice").await;
    let bob = app.register("bob").await;
    app.post("/api/games/import", Some(&alice), json!({ "record": FOUR_GAMES }))
        .await
        .expect(StatusCode::CREATED);
    app.clock.advance(Duration::hours(1));
    let two: String = FOUR_GAMES.lines().take(2).map(|l| format!("{l}\n")).collect();
    let response = app
        .client
        .post(format!("{}/api/games/import", app.address))
        .bearer_auth(&alice.token)
        .json(&json!({ "record": two }))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::TOO_MANY_REQUESTS);
    let retry_after: i64 = response.headers()["retry-after"].to_str().unwrap().parse().unwrap();
    assert_eq!(retry_after, 23 * 3600, "when the first four leave the day");
    let body: Value = response.json().await.unwrap();
    assert_eq!(body["errors"][0]["code"], "import.daily-limit");
    let stored: i64 =
        sqlx::query_scalar("select count(*) from game").fetch_one(&app.domain.pool).await.unwrap();
    assert_eq!(stored, 4, "the refused import stored nothing");
    app.post("/api/games/import", Some(&alice), json!({ "record": "h2e2 h9g7\n" }))
        .await
        .expect(StatusCode::CREATED);
    // Another account has its own day; the first's day moves on.
    app.post("/api/games/import", Some(&bob), json!({ "record": two.clone() }))
        .await
        .expect(StatusCode::CREATED);
    app.clock.advance(Duration::hours(23));
    app.post("/api/games/import", Some(&alice), json!({ "record": two })).await.expect(StatusCode::CREATED);
}

#[tokio::test]
async fn imported_games_are_not_latest_results_on_the_home_page() {
    let app = TestApp::spawn().await;
    let alice = app.register("alice").await;
    let bob = app.register("bob").await;
    let played = app.start_game("xiangqi", &alice, &bob, crate::support::three_days()).await;
    app.act(Some(&bob), played, "resign").await.expect(StatusCode::OK);
    app.clock.advance(Duration::minutes(1));
    let imported = app.post("/api/games/import", Some(&alice), json!({ "record": FOUR_GAMES })).await;
    let ids: Vec<i64> = imported.expect(StatusCode::CREATED)["games"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g["id"].as_i64().unwrap())
        .collect();
    let home = app.get_text("/").await;
    assert!(home.contains(&format!("/games/{played}\"")), "the game played here is a latest result");
    for id in &ids {
        assert!(!home.contains(&format!("/games/{id}\"")), "imported game {id} is not on the home page");
    }
    // They are history: the archive has them.
    let archive = app.get("/api/games?status=finished", None).await;
    let archived: Vec<i64> = archive
        .expect(StatusCode::OK)
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g["id"].as_i64().unwrap())
        .collect();
    assert!(ids.iter().all(|id| archived.contains(id)), "{archived:?}");
}
