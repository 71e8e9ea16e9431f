//! E-mail (#17 §1, §2) through a real SMTP server process (`support::smtp`): the
//! verification, the password reset, the notifications' mails (headers, both parts,
//! links followed against the running server), the settings, the outbox.

use reqwest::StatusCode;
use serde_json::{json, Value};
use time::Duration;

use crate::support::smtp::{link, SmtpSink};
use tavoliere::domain::clock::Clock;

use crate::support::{three_days, TestApp, User};

/// The app sending through `sink`.
async fn app_with(sink: &SmtpSink) -> TestApp {
    let url = sink.url();
    TestApp::spawn_with(move |settings| {
        settings.mail.smtp_url = Some(url.into());
        settings.mail.poll_interval_ms = 100;
    })
    .await
}

/// The app without a relay, its sender running.
async fn app_without_relay() -> TestApp {
    TestApp::spawn_with(|settings| settings.mail.poll_interval_ms = 100).await
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
    // The last character changed (to another one: a signature may end in 0).
    let other = if verify.ends_with('0') { '1' } else { '0' };
    let forged = format!("{}{other}", &verify[..verify.len() - 1]);
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
    assert_eq!(mail_states(&app, "alice", "password-reset").await, ["sent"]);
    let stored: i64 =
        sqlx::query_scalar("select count(*) from notification where details::text like '%' || $1 || '%'")
            .bind(&token)
            .fetch_one(&app.domain.pool)
            .await
            .unwrap();
    assert_eq!(stored, 0, "the outbox no longer holds the token");
    // Two browsers signed in before the reset.
    let sessions = [
        cookie_session(&app, "alice", "password-of-alice").await,
        cookie_session(&app, "alice", "password-of-alice").await,
    ];
    for cookie in &sessions {
        assert_eq!(me_with_cookie(&app, cookie).await, StatusCode::OK);
    }
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
    for cookie in &sessions {
        assert_eq!(
            me_with_cookie(&app, cookie).await,
            StatusCode::UNAUTHORIZED,
            "every cookie session ended"
        );
    }
    let fresh = cookie_session(&app, "alice", "a brand new secret").await;
    assert_eq!(me_with_cookie(&app, &fresh).await, StatusCode::OK, "a new session works");
}

/// Signs in with a cookie session (`POST /api/session`) → the cookie.
async fn cookie_session(app: &TestApp, name: &str, password: &str) -> String {
    let response = app
        .client
        .post(format!("{}/api/session", app.address))
        .json(&json!({"username": name, "password": password}))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::OK);
    let cookie = response.headers()[reqwest::header::SET_COOKIE].to_str().unwrap();
    cookie.split(';').next().unwrap().to_owned()
}

/// `GET /api/accounts/me` with `cookie` → the status.
async fn me_with_cookie(app: &TestApp, cookie: &str) -> StatusCode {
    let request =
        app.client.get(format!("{}/api/accounts/me", app.address)).header(reqwest::header::COOKIE, cookie);
    request.send().await.unwrap().status()
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

/// The state of the outbox rows of `kind` for `account` (waits until none is pending).
async fn mail_states(app: &TestApp, account: &str, kind: &str) -> Vec<String> {
    for _ in 0..400 {
        let states: Vec<String> = sqlx::query_scalar(
            "select n.mail_state from notification n join account a using (account_id)
             where a.username = $1 and n.kind = $2 order by n.notification_id",
        )
        .bind(account)
        .bind(kind)
        .fetch_all(&app.domain.pool)
        .await
        .unwrap();
        if states.iter().all(|s| s != "pending" && s != "sending") {
            return states;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    panic!("the outbox of {account} still has pending {kind} mails");
}

#[tokio::test]
async fn a_move_mails_your_move_with_the_game_and_a_one_click_unsubscribe() {
    let sink = SmtpSink::start();
    let app = app_with(&sink).await;
    let alice = verified(&app, &sink, "alice").await;
    let bob = verified(&app, &sink, "bob").await;
    let game = app.start_game("xiangqi", &alice, &bob, three_days()).await;
    app.post_move(&alice, game, "h2e2", 0).await.expect(StatusCode::CREATED);
    let mail = sink.wait_for_subject("bob@example.org", "Your move").await;
    let headers = &mail["headers"];
    assert!(
        headers["subject"].as_str().unwrap().contains(&format!("Your move in game {game} against alice")),
        "{headers}"
    );
    assert!(headers["message-id"].as_str().unwrap().starts_with("<notification-"), "{headers}");
    assert_eq!(headers["list-unsubscribe-post"], "List-Unsubscribe=One-Click");
    let unsubscribe = headers["list-unsubscribe"].as_str().unwrap();
    assert!(unsubscribe.starts_with('<') && unsubscribe.ends_with('>'), "{unsubscribe}");
    let unsubscribe = unsubscribe.trim_matches(['<', '>']).to_owned();
    assert!(unsubscribe.starts_with(&format!("{}/notifications/unsubscribe?", app.address)));
    let text = mail["text"].as_str().unwrap();
    let html = mail["html"].as_str().unwrap();
    let game_url = format!("{}/games/{game}", app.address);
    assert!(text.contains(&game_url), "the text part has the game's absolute URL: {text}");
    assert!(text.contains("C2=5"), "the move in bob's notation (WXF): {text}");
    assert!(html.contains(&format!("href=\"{game_url}\"")), "{html}");
    assert!(text.contains(&unsubscribe), "the text part has the unsubscribe link too");
    let page = app.client.get(&game_url).send().await.unwrap();
    assert_eq!(page.status(), StatusCode::OK, "the game's link works");
    // A person following the link gets a confirmation form first (link checkers change nothing).
    let form = app.client.get(&unsubscribe).send().await.unwrap();
    assert_eq!(form.status(), StatusCode::OK);
    let settings = app.get("/api/notifications/settings", Some(&bob)).await;
    assert_eq!(settings.body["deliveries"][0], json!({"kind": "your-move", "delivery": "immediately"}));
    // The mail client's one-click POST (RFC 8058): no cookie, no form token.
    let clicked = reqwest::Client::new()
        .post(&unsubscribe)
        .header("content-type", "application/x-www-form-urlencoded")
        .body("List-Unsubscribe=One-Click")
        .send()
        .await
        .unwrap();
    assert_eq!(clicked.status(), StatusCode::OK);
    let settings = app.get("/api/notifications/settings", Some(&bob)).await;
    assert_eq!(settings.body["deliveries"][0], json!({"kind": "your-move", "delivery": "off"}));
    // A forged link does nothing.
    let forged = unsubscribe.replace("kind=your-move", "kind=challenge");
    let refused =
        reqwest::Client::new().post(&forged).body("List-Unsubscribe=One-Click").send().await.unwrap();
    assert_eq!(refused.status(), StatusCode::BAD_REQUEST);
    app.post_move(&bob, game, "h9g7", 1).await.expect(StatusCode::CREATED);
    sink.wait_for_subject("alice@example.org", "Your move").await;
    app.post_move(&alice, game, "h0g2", 2).await.expect(StatusCode::CREATED);
    assert_eq!(mail_states(&app, "bob", "your-move").await, ["sent", "skipped"], "off: no second mail");
    let moves = sink.messages_to("bob@example.org");
    assert_eq!(
        moves.iter().filter(|m| m["headers"]["subject"].as_str().unwrap().contains("Your move")).count(),
        1
    );
    let listed = app.get("/api/notifications", Some(&bob)).await;
    // The challenge and both moves.
    assert_eq!(listed.body["unread"], 3, "the app still lists both moves: {}", listed.body);
    assert_eq!(listed.body["notifications"][0]["kind"], "your-move");
    assert_eq!(listed.body["notifications"][0]["game_id"], game);
}

#[tokio::test]
async fn a_refused_move_leaves_no_notification_and_live_games_mail_no_moves() {
    let sink = SmtpSink::start();
    let app = app_with(&sink).await;
    let alice = verified(&app, &sink, "alice").await;
    let bob = verified(&app, &sink, "bob").await;
    let game = app.start_game("xiangqi", &alice, &bob, three_days()).await;
    app.post_move(&alice, game, "a0a5", 0).await.expect(StatusCode::UNPROCESSABLE_ENTITY);
    app.post_move(&alice, game, "h2e2", 5).await.expect(StatusCode::CONFLICT);
    let fischer = json!({"kind": "live-fischer", "base_seconds": 300, "increment_seconds": 2});
    let live = app.start_game("xiangqi", &alice, &bob, fischer).await;
    app.post_move(&alice, live, "h2e2", 0).await.expect(StatusCode::CREATED);
    let rows: i64 = sqlx::query_scalar("select count(*) from notification where kind = 'your-move'")
        .fetch_one(&app.domain.pool)
        .await
        .unwrap();
    assert_eq!(rows, 0, "a refused move and a live game's move notify nobody");
}

#[tokio::test]
async fn a_game_a_law_ended_mails_both_players_the_result_and_the_ruling() {
    let sink = SmtpSink::start();
    let app = app_with(&sink).await;
    let alice = verified(&app, &sink, "alice").await;
    let bob = verified(&app, &sink, "bob").await;
    // Red mates at once: the chariot to a9 (the other covers the eighth rank).
    let fields = json!({"variant": "xiangqi", "time_control": three_days(),
                        "start_position": "3k5/8R/9/9/9/9/9/9/9/R3K4 w - - 0 1"});
    let game = app.start_game_with(&alice, &bob, fields).await;
    let moved = app.post_move(&alice, game, "a0a9", 0).await;
    assert_eq!(moved.expect(StatusCode::CREATED)["status"], "finished");
    for name in ["alice@example.org", "bob@example.org"] {
        let mail = sink.wait_for_subject(name, "is over").await;
        let subject = mail["headers"]["subject"].as_str().unwrap();
        assert!(subject.contains(&format!("Game {game} is over: alice won")), "{subject}");
        let text = mail["text"].as_str().unwrap();
        assert!(text.contains("checkmate"), "the reason: {text}");
        assert!(text.contains(&format!("{}/games/{game}", app.address)));
    }
    let ruling = app.game(game).await["ruling"].clone();
    assert_eq!(ruling["law"], "checkmate", "{ruling}");
    let mail = sink.wait_for_subject("bob@example.org", "is over").await;
    let text = mail["text"].as_str().unwrap();
    assert!(
        text.contains("a9") || text.contains("R9"),
        "the ruling's paragraph names the mating move: {text}"
    );
    assert_eq!(
        mail_states(&app, "bob", "your-move").await,
        Vec::<String>::new(),
        "no 'your move' after the end"
    );
}

#[tokio::test]
async fn challenges_draw_offers_and_the_unread_count_reach_the_players() {
    let sink = SmtpSink::start();
    let app = app_with(&sink).await;
    let alice = verified(&app, &sink, "alice").await;
    let bob = verified(&app, &sink, "bob").await;
    let challenge = app
        .post(
            "/api/challenges",
            Some(&alice),
            json!({"variant": "shogi", "opponent": "bob", "color": "first",
                                                       "time_control": three_days()}),
        )
        .await
        .expect(StatusCode::CREATED)["id"]
        .as_i64()
        .unwrap();
    let mail = sink.wait_for_subject("bob@example.org", "alice challenges you to shogi").await;
    assert!(mail["text"].as_str().unwrap().contains(&format!("{}/challenges", app.address)));
    let game = app.accept(&bob, challenge).await;
    let mail = sink.wait_for_subject("alice@example.org", "bob accepted your challenge").await;
    assert!(mail["text"].as_str().unwrap().contains(&format!("{}/games/{game}", app.address)));
    app.act(Some(&alice), game, "draw/offer").await.expect(StatusCode::OK);
    sink.wait_for_subject("bob@example.org", &format!("alice offers a draw in game {game}")).await;
    let listed = app.get("/api/notifications", Some(&bob)).await;
    let kinds: Vec<&str> = listed.body["notifications"]
        .as_array()
        .unwrap()
        .iter()
        .map(|n| n["kind"].as_str().unwrap())
        .collect();
    assert_eq!(kinds, ["draw-offer", "challenge"], "newest first");
    assert_eq!(listed.body["unread"], 2);
    let read = app.post("/api/notifications/read", Some(&bob), json!({})).await;
    assert_eq!(read.expect(StatusCode::OK)["unread"], 0);
    assert!(listed.body["notifications"][0].get("details").is_some());
}

#[tokio::test]
async fn a_refusal_for_now_is_retried_with_backoff() {
    let sink = SmtpSink::start_with(&["--fail-first", "1"]);
    let app = app_with(&sink).await;
    let alice = app.register("alice").await;
    app.patch("/api/accounts/me", Some(&alice), json!({"email": "alice@example.org"}))
        .await
        .expect(StatusCode::OK);
    let mut waited = 0;
    let (attempts, next): (i32, Option<time::OffsetDateTime>) = loop {
        let row: (i32, Option<time::OffsetDateTime>, String) =
            sqlx::query_as("select attempts, next_attempt_at, mail_state from notification")
                .fetch_one(&app.domain.pool)
                .await
                .unwrap();
        if row.0 == 1 && row.2 == "pending" {
            break (row.0, row.1);
        }
        waited += 1;
        assert!(waited < 400, "the first attempt was not refused and scheduled again: {row:?}");
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    };
    assert_eq!(attempts, 1);
    assert_eq!(next, Some(app.clock.now() + Duration::seconds(30)), "retried 30 s later");
    assert!(sink.messages().is_empty());
    app.clock.advance(Duration::seconds(31));
    sink.wait_for("alice@example.org", 1).await;
    assert_eq!(mail_states(&app, "alice", "verify-email").await, ["sent"]);
}

#[tokio::test]
async fn with_no_smtp_the_mail_is_logged_and_listed_for_the_admin() {
    let app = app_without_relay().await;
    let alice = app.register("alice").await;
    app.patch("/api/accounts/me", Some(&alice), json!({"email": "alice@example.org"}))
        .await
        .expect(StatusCode::OK);
    assert_eq!(mail_states(&app, "alice", "verify-email").await, ["logged"]);
    sqlx::query("update account set role = 'admin'").execute(&app.domain.pool).await.unwrap();
    let credentials = json!({"username": "alice", "password": "password-of-alice"});
    let token = app.post("/api/tokens", None, credentials).await.body["token"].as_str().unwrap().to_owned();
    let admin = User { name: "alice".into(), token };
    let outbox = app.get("/api/admin/outbox", Some(&admin)).await;
    let row = &outbox.expect(StatusCode::OK)[0];
    assert_eq!(row["mail_state"], "logged");
    assert_eq!(row["address"], "alice@example.org");
    assert!(row["logged_subject"].as_str().unwrap().contains("Confirm"), "{row}");
    assert!(row["logged_text"].as_str().unwrap().contains("/email/verify?"), "what would be sent: {row}");
}

#[tokio::test]
async fn a_player_without_a_verified_address_is_told_in_the_app_and_sent_no_mail() {
    let sink = SmtpSink::start();
    let app = app_with(&sink).await;
    let alice = app.register("alice").await;
    let bob = app.register("bob").await;
    // An address given but not verified counts as none.
    app.patch("/api/accounts/me", Some(&bob), json!({"email": "bob@example.org"}))
        .await
        .expect(StatusCode::OK);
    let game = app.start_game("xiangqi", &alice, &bob, three_days()).await;
    app.post_move(&alice, game, "h2e2", 0).await.expect(StatusCode::CREATED);
    // Settled by the move's own statement (one write; no sender claims it).
    assert_eq!(mail_states(&app, "bob", "your-move").await, ["skipped"]);
    let rows = your_move_rows_now(&app, "bob").await;
    assert_eq!(rows, [("skipped".to_owned(), 0, Some("no verified address".to_owned()))], "never claimed");
    let listed = app.get("/api/notifications", Some(&bob)).await;
    assert_eq!(listed.expect(StatusCode::OK)["notifications"][0]["kind"], "your-move", "{}", listed.body);
    let mails = sink.messages_to("bob@example.org");
    assert!(mails.iter().all(|m| !m["headers"]["subject"].as_str().unwrap().contains("Your move")));
}

/// The states of `account`'s "your move" rows as the move's statement left them (read at
/// once: no sender has had the time to claim them, which `mail_states` waits for).
async fn your_move_rows_now(app: &TestApp, account: &str) -> Vec<(String, i32, Option<String>)> {
    sqlx::query_as(
        "select n.mail_state, n.attempts, n.last_error from notification n join account a using (account_id)
         where a.username = $1 and n.kind = 'your-move' order by n.notification_id",
    )
    .bind(account)
    .fetch_all(&app.domain.pool)
    .await
    .unwrap()
}

#[tokio::test]
async fn a_your_move_row_the_settings_decide_is_settled_by_the_moves_own_statement() {
    let sink = SmtpSink::start();
    let app = app_with(&sink).await;
    let alice = verified(&app, &sink, "alice").await;
    let bob = verified(&app, &sink, "bob").await;
    let carol = app.register("carol").await;
    let game = app.start_game("xiangqi", &alice, &bob, three_days()).await;
    let other = app.start_game("xiangqi", &bob, &carol, three_days()).await;
    let set = |delivery: &str| json!({"deliveries": [{"kind": "your-move", "delivery": delivery}]});
    // Delivery in the digest, off, then immediately (bob is verified).
    app.patch("/api/notifications/settings", Some(&bob), set("digest")).await.expect(StatusCode::OK);
    app.post_move(&alice, game, "h2e2", 0).await.expect(StatusCode::CREATED);
    app.post_move(&bob, game, "h9g7", 1).await.expect(StatusCode::CREATED);
    app.patch("/api/notifications/settings", Some(&bob), set("off")).await.expect(StatusCode::OK);
    app.post_move(&alice, game, "h0g2", 2).await.expect(StatusCode::CREATED);
    app.post_move(&bob, game, "b9c7", 3).await.expect(StatusCode::CREATED);
    app.patch("/api/notifications/settings", Some(&bob), set("immediately")).await.expect(StatusCode::OK);
    app.post_move(&alice, game, "b0c2", 4).await.expect(StatusCode::CREATED);
    // carol has no verified address.
    app.post_move(&bob, other, "h2e2", 0).await.expect(StatusCode::CREATED);
    // A claim counts an attempt: the settled rows have none, they were never claimed.
    let off = Some("off in the account's settings".to_owned());
    let rows = your_move_rows_now(&app, "bob").await;
    assert_eq!(rows[..2], [("digest".to_owned(), 0, None), ("skipped".to_owned(), 0, off)]);
    assert_eq!(
        your_move_rows_now(&app, "carol").await,
        [("skipped".to_owned(), 0, Some("no verified address".to_owned()))]
    );
    // The sender claims and mails the row left to it.
    assert_eq!(mail_states(&app, "bob", "your-move").await, ["digest", "skipped", "sent"]);
    assert_eq!(your_move_rows_now(&app, "bob").await[2].1, 1, "one attempt: the mail");
}

async fn queue_due(app: &TestApp) -> (u64, u64) {
    let settings = tavoliere::config::MailSettings::default();
    tavoliere::mail::alarms::queue_due(&app.domain, &settings).await.expect("queue the alarms and digests")
}

#[tokio::test]
async fn a_correspondence_game_runs_into_both_deadline_alarms_by_the_clock() {
    let sink = SmtpSink::start();
    let app = app_with(&sink).await;
    let alice = verified(&app, &sink, "alice").await;
    let bob = verified(&app, &sink, "bob").await;
    let game = app.start_game("xiangqi", &alice, &bob, three_days()).await;
    app.post_move(&alice, game, "h2e2", 0).await.expect(StatusCode::CREATED);
    // Bob has three days. 47 hours in: neither alarm.
    app.clock.advance(Duration::hours(47));
    assert_eq!(queue_due(&app).await.0, 0);
    // 24 hours before the deadline.
    app.clock.advance(Duration::hours(2));
    assert_eq!(queue_due(&app).await.0, 1);
    assert_eq!(queue_due(&app).await.0, 0, "each alarm fires once");
    let mail = sink.wait_for_subject("bob@example.org", "left for your move").await;
    let subject = mail["headers"]["subject"].as_str().unwrap();
    assert!(subject.contains(&format!("Game {game}: 23 h 0 min left")), "{subject}");
    let text = mail["text"].as_str().unwrap();
    assert!(text.contains("2026-03-04 12:00 UTC"), "the deadline in bob's time zone: {text}");
    assert!(text.contains(&format!("{}/games/{game}", app.address)));
    // 80% of the 72 hours: 57.6 hours in.
    app.clock.advance(Duration::hours(8));
    assert_eq!(queue_due(&app).await.0, 0);
    app.clock.advance(Duration::hours(1));
    assert_eq!(queue_due(&app).await.0, 1);
    let alarms = mail_states(&app, "bob", "deadline-alarm").await;
    assert_eq!(alarms, ["sent", "sent"]);
    assert!(mail_states(&app, "alice", "deadline-alarm").await.is_empty(), "alice is not to move");
    // A move ends the turn: its alarms are no longer due.
    app.post_move(&bob, game, "h9g7", 1).await.expect(StatusCode::CREATED);
    app.clock.advance(Duration::hours(1));
    assert_eq!(queue_due(&app).await.0, 0);
}

#[tokio::test]
async fn an_alarm_queued_before_the_move_is_not_mailed_after_it() {
    let sink = SmtpSink::start();
    let app = TestApp::spawn_with({
        let url = sink.url();
        // No sender running: the test sends by hand, after the move.
        move |settings| {
            settings.mail.smtp_url = Some(url.into());
            settings.mail.poll_interval_ms = 0;
        }
    })
    .await;
    let alice = app.register("alice").await;
    let bob = app.register("bob").await;
    sqlx::query("update account set email = username || '@example.org', email_verified_at = now()")
        .execute(&app.domain.pool)
        .await
        .unwrap();
    let game = app.start_game("xiangqi", &alice, &bob, three_days()).await;
    app.post_move(&alice, game, "h2e2", 0).await.expect(StatusCode::CREATED);
    app.clock.advance(Duration::hours(50));
    assert_eq!(queue_due(&app).await.0, 1);
    app.post_move(&bob, game, "h9g7", 1).await.expect(StatusCode::CREATED);
    let mailer = tavoliere::mail::Mailer::new(
        &tavoliere::config::MailSettings { smtp_url: Some(sink.url().into()), ..Default::default() },
        app.address.clone(),
        tavoliere::storage::outbox::signing_key(&app.domain.pool).await.unwrap(),
    )
    .unwrap();
    let sender = tavoliere::mail::sender::Sender::new(app.domain.clone(), mailer, Default::default());
    sender.drain().await;
    assert_eq!(mail_states(&app, "bob", "deadline-alarm").await, ["skipped"], "bob has moved");
    assert!(sink
        .messages_to("bob@example.org")
        .iter()
        .all(|m| !m["headers"]["subject"].as_str().unwrap().contains("left")));
}

#[tokio::test]
async fn the_daily_digest_lists_the_games_to_move_at_the_readers_hour() {
    let sink = SmtpSink::start();
    let app = app_with(&sink).await;
    let alice = verified(&app, &sink, "alice").await;
    let bob = verified(&app, &sink, "bob").await;
    let carol = app.register("carol").await;
    let first = app.start_game("xiangqi", &alice, &bob, three_days()).await;
    let second = app.start_game("xiangqi", &carol, &bob, json!({"kind": "days-per-move", "days": 1})).await;
    app.post_move(&alice, first, "h2e2", 0).await.expect(StatusCode::CREATED);
    app.post_move(&carol, second, "h2e2", 0).await.expect(StatusCode::CREATED);
    // The clock shows 12:00 UTC: 13:00 in Rome. Draw offers go to the digest, not at once.
    let change = json!({"deliveries": [{"kind": "digest", "delivery": "immediately"},
                                       {"kind": "draw-offer", "delivery": "digest"}],
                        "digest_hour": 13, "time_zone": "Europe/Rome"});
    app.patch("/api/notifications/settings", Some(&bob), change).await.expect(StatusCode::OK);
    let bad = json!({"time_zone": "Mars/Olympus"});
    app.patch("/api/notifications/settings", Some(&bob), bad).await.expect(StatusCode::UNPROCESSABLE_ENTITY);
    app.act(Some(&alice), first, "draw/offer").await.expect(StatusCode::OK);
    assert_eq!(mail_states(&app, "bob", "draw-offer").await, ["digest"]);
    assert_eq!(queue_due(&app).await.1, 1);
    assert_eq!(queue_due(&app).await.1, 0, "one a day");
    let mail = sink.wait_for_subject("bob@example.org", "digest").await;
    let text = mail["text"].as_str().unwrap();
    let (urgent, later) =
        (text.find(&format!("/games/{second}")).unwrap(), text.find(&format!("/games/{first}")).unwrap());
    assert!(urgent < later, "the game with the earlier deadline first: {text}");
    assert!(text.contains("Draw offered"), "the draw offer left for the digest: {text}");
    assert!(mail["html"].as_str().unwrap().contains(&format!("/games/{second}")));
    // The sender marks what the digest listed after the relay took it, before it records the
    // digest itself as sent: wait for that, not for the mail in the sink.
    assert_eq!(mail_states(&app, "bob", "digest").await, ["sent"]);
    assert_eq!(mail_states(&app, "bob", "draw-offer").await, ["sent"], "listed once");
    // The next day at the same hour, another.
    app.clock.advance(Duration::days(1));
    assert_eq!(queue_due(&app).await.1, 1);
    // Alice asked for none.
    assert_eq!(mail_states(&app, "alice", "digest").await, Vec::<String>::new());
}

#[tokio::test]
async fn a_mail_claimed_by_an_instance_that_dies_before_sending_is_sent_once_by_another() {
    use crate::support::process::ServerProcess;
    let stalled = SmtpSink::start_with(&["--stall"]);
    let good = SmtpSink::start();
    let database_url = crate::support::Cluster::get().fresh_database().await;
    let settings = |smtp: &SmtpSink| {
        vec![
            ("TAVOLIERE_DATABASE__URL", database_url.clone()),
            ("TAVOLIERE_MAIL__SMTP_URL", smtp.url()),
            ("TAVOLIERE_MAIL__POLL_INTERVAL_MS", "50".to_owned()),
            ("TAVOLIERE_MAIL__CLAIM_SECONDS", "3".to_owned()),
        ]
    };
    let first_settings = settings(&stalled);
    let first_env: Vec<(&str, &str)> = first_settings.iter().map(|(k, v)| (*k, v.as_str())).collect();
    let mut first = ServerProcess::start_with(&first_env);
    let app = TestApp::attach(&first.address, &database_url).await;
    let alice = app.register("alice").await;
    app.patch("/api/accounts/me", Some(&alice), json!({"email": "alice@example.org"}))
        .await
        .expect(StatusCode::OK);
    // The first instance claims the mail and hangs in the SMTP conversation (the relay
    // never answers its data)...
    for attempt in 0.. {
        let state: String = sqlx::query_scalar("select mail_state from notification")
            .fetch_one(&app.domain.pool)
            .await
            .unwrap();
        if state == "sending" {
            break;
        }
        assert!(attempt < 200, "the first instance never claimed the mail");
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    tokio::time::sleep(std::time::Duration::from_millis(300)).await;
    // ... and dies there.
    first.kill();
    assert!(stalled.messages().is_empty());
    let second_settings = settings(&good);
    let second_env: Vec<(&str, &str)> = second_settings.iter().map(|(k, v)| (*k, v.as_str())).collect();
    let _second = ServerProcess::start_with(&second_env);
    let mail = good.wait_for("alice@example.org", 1).await.remove(0);
    assert!(mail["text"].as_str().unwrap().contains("/email/verify?"));
    assert_eq!(mail_states(&app, "alice", "verify-email").await, ["sent"]);
    let attempts: i32 =
        sqlx::query_scalar("select attempts from notification").fetch_one(&app.domain.pool).await.unwrap();
    assert_eq!(attempts, 2, "claimed by the dead instance, then by the second once its claim ran out");
    tokio::time::sleep(std::time::Duration::from_millis(500)).await;
    assert_eq!(good.messages().len() + stalled.messages().len(), 1, "sent once");
}

#[tokio::test]
async fn two_instances_send_every_queued_mail_exactly_once() {
    let sink = SmtpSink::start();
    let configure = |from: &'static str| {
        let url = sink.url();
        move |settings: &mut tavoliere::config::Settings| {
            settings.mail.smtp_url = Some(url.into());
            settings.mail.batch_size = 5;
            settings.mail.poll_interval_ms = 100;
            settings.mail.from = from.to_owned();
        }
    };
    let app = TestApp::spawn_with(configure("One <one@localhost>")).await;
    let _other =
        TestApp::spawn_on_with(&app.database_url, app.clock.clone(), configure("Two <two@localhost>")).await;
    app.register("alice").await;
    sqlx::query(
        "insert into notification (account_id, kind, to_address, details, in_app, created_at)
         select 1, 'verify-email', 'n' || i || '@example.org',
             jsonb_build_object('email', 'x@example.org', 'expires', 0), false, now()
         from generate_series(1, 300) as i",
    )
    .execute(&app.domain.pool)
    .await
    .unwrap();
    let states = mail_states(&app, "alice", "verify-email").await;
    assert_eq!(states.iter().filter(|s| *s == "sent").count(), 300, "{states:?}");
    tokio::time::sleep(std::time::Duration::from_millis(300)).await;
    let messages = sink.messages();
    assert_eq!(messages.len(), 300, "every mail once");
    let mut recipients: Vec<&str> = messages.iter().map(|m| m["rcpt_tos"][0].as_str().unwrap()).collect();
    recipients.sort_unstable();
    recipients.dedup();
    assert_eq!(recipients.len(), 300, "no recipient twice");
    let by_one = messages.iter().filter(|m| m["headers"]["from"] == "One <one@localhost>").count();
    assert!(by_one > 0 && by_one < 300, "both instances took part: {by_one} of 300 by the first");
}

/// The unread counts the socket hears until one is `wanted` (at most a few): the senders
/// announce the count again when they claim a notification, at their own time, so a count
/// sent before the change may still arrive after it.
async fn unread_reaching(socket: &mut crate::live::Socket, wanted: i64) -> i64 {
    let mut unread = -1;
    for _ in 0..6 {
        unread = socket.next_of("notifications").await["unread"].as_i64().unwrap();
        if unread == wanted {
            break;
        }
    }
    unread
}

#[tokio::test]
async fn a_signed_in_live_socket_hears_its_unread_count_and_the_page_header_shows_it() {
    use crate::live::Socket;
    let app = app_without_relay().await;
    let alice = app.register("alice").await;
    let bob = app.register("bob").await;
    let game = app.start_game("xiangqi", &alice, &bob, three_days()).await;
    let mut socket = Socket::open(&app, game, Some(&bob), None).await;
    // The challenge bob received is unread.
    assert_eq!(socket.next_of("notifications").await["unread"], 1);
    app.post_move(&alice, game, "h2e2", 0).await.expect(StatusCode::CREATED);
    assert_eq!(unread_reaching(&mut socket, 2).await, 2, "the move's notification");
    // Every page's header shows the count, and the list page lists them.
    let page = app
        .client
        .get(format!("{}/notifications", app.address))
        .bearer_auth(&bob.token)
        .send()
        .await
        .unwrap();
    let page = page.text().await.unwrap();
    assert!(page.contains(r#"<span class="unread" id="unread-count">2</span>"#), "{page}");
    assert!(page.contains(&format!(r#"href="/games/{game}""#)), "{page}");
    app.post("/api/notifications/read", Some(&bob), json!({})).await.expect(StatusCode::OK);
    assert_eq!(unread_reaching(&mut socket, 0).await, 0);
    // A spectator hears no count.
    let mut watcher = Socket::open(&app, game, None, None).await;
    let first = watcher.next().await;
    assert_ne!(first["type"], "notifications");
}

#[tokio::test]
async fn a_round_start_and_a_directors_decision_are_mailed_with_the_pairing() {
    let sink = SmtpSink::start();
    let app = app_with(&sink).await;
    let alice = verified(&app, &sink, "alice").await;
    let bob = verified(&app, &sink, "bob").await;
    let director = app.register("director").await;
    sqlx::query("update account set role = 'director' where username = 'director'")
        .execute(&app.domain.pool)
        .await
        .unwrap();
    let credentials = json!({"username": "director", "password": "password-of-director"});
    let token = app.post("/api/tokens", None, credentials).await.body["token"].as_str().unwrap().to_owned();
    let director = User { name: director.name, token };
    let tournament = app
        .post("/api/tournaments", Some(&director), json!({"name": "Autumn Cup", "season": "2026"}))
        .await
        .expect(StatusCode::CREATED)["id"]
        .as_i64()
        .unwrap();
    let section = app
        .post(
            &format!("/api/tournaments/{tournament}/sections"),
            Some(&director),
            json!({"name": "A", "variant": "xiangqi", "time_control": three_days(), "pairing": "round-robin"}),
        )
        .await
        .expect(StatusCode::CREATED)["id"]
        .as_i64()
        .unwrap();
    for (seed, player) in [&alice, &bob].into_iter().enumerate() {
        let entry = json!({"username": player.name, "seed": seed + 1});
        app.post(&format!("/api/sections/{section}/entries"), Some(&director), entry)
            .await
            .expect(StatusCode::CREATED);
    }
    let started = app.post(&format!("/api/sections/{section}/start"), Some(&director), json!({})).await;
    let game = started.expect(StatusCode::CREATED)["games"][0].as_i64().unwrap();
    for address in ["alice@example.org", "bob@example.org"] {
        let mail = sink.wait_for_subject(address, "Autumn Cup: round 1 has started").await;
        let text = mail["text"].as_str().unwrap();
        assert!(text.contains("alice – bob") || text.contains("bob – alice"), "the pairing: {text}");
        assert!(text.contains(&format!("{}/games/{game}", app.address)));
    }
    let decided = app
        .post(
            &format!("/api/games/{game}/adjudicate"),
            Some(&director),
            json!({"result": "1-0", "reason": "adjourned position won"}),
        )
        .await;
    decided.expect(StatusCode::OK);
    for address in ["alice@example.org", "bob@example.org"] {
        let mail = sink.wait_for_subject(address, &format!("A director's decision on game {game}")).await;
        assert!(mail["text"].as_str().unwrap().contains("adjudication"), "{mail}");
    }
    assert_eq!(
        mail_states(&app, "alice", "game-end").await,
        Vec::<String>::new(),
        "told once, as a decision"
    );
}

#[tokio::test]
async fn the_end_of_a_leave_is_announced_a_day_before() {
    let sink = SmtpSink::start();
    let app = app_with(&sink).await;
    let bob = verified(&app, &sink, "bob").await;
    // Three whole days from 1 March 12:00: the leave ends at midnight after 3 March (#17 §4).
    app.post("/api/vacation", Some(&bob), json!({"days": 3})).await.expect(StatusCode::OK);
    app.clock.advance(Duration::hours(35));
    queue_due(&app).await;
    assert!(mail_states(&app, "bob", "vacation-ending").await.is_empty());
    app.clock.advance(Duration::hours(2));
    queue_due(&app).await;
    queue_due(&app).await;
    assert_eq!(mail_states(&app, "bob", "vacation-ending").await, ["sent"], "once");
    let mail = sink.wait_for_subject("bob@example.org", "Your leave ends").await;
    assert!(mail["headers"]["subject"].as_str().unwrap().contains("2026-03-04 00:00 UTC"), "{mail}");
}
