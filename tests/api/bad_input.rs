//! Issue 36: no single client takes the site down. §3 costly rules work off the async
//! workers; §6 NUL in text is bad input, never a server error; §7 what Schemathesis found
//! (the vacation overflow, a panic answered in the error shape).

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use reqwest::StatusCode;
use serde_json::{json, Value};
use tavoliere::domain::clock::{Clock, ManualClock};
use tavoliere::startup::{Application, Dependencies};
use time::macros::datetime;

use crate::support::{test_settings, three_days, Cluster, TestApp};

/// A Flickering chess start whose mate search cannot be decided within the rules' start
/// position budget (rules/tests/fuzz_regressions.rs): a tenth of a second or more of
/// search for every request naming it.
const COSTLY_START: &str = "r3k2r/p1ppqpb1/bn2pn11/3N3P/1p23Q/Q2rNq2/p1pPqppP/R3K2R w KQkq - 0";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn readyz_answers_while_costly_start_positions_are_judged_and_the_pool_stays_bounded() {
    let app = Arc::new(TestApp::spawn().await);
    let alice = app.register("alice").await;
    let work = Arc::clone(&app.domain.rules_work);
    let clients = work.bound() + 9;
    let posts: Vec<_> = (0..clients)
        .map(|_| {
            let (app, alice) = (Arc::clone(&app), alice.clone());
            tokio::spawn(async move {
                app.post(
                    "/api/challenges",
                    Some(&alice),
                    json!({"variant": "flickering", "start_position": COSTLY_START, "time_control": three_days()}),
                )
                .await
            })
        })
        .collect();
    // The pool is full (the others wait their turn, or are still on their way)...
    while work.running() < work.bound() {
        assert!(!posts.iter().all(tokio::task::JoinHandle::is_finished), "no costly request ran in the pool");
        tokio::task::yield_now().await;
    }
    // ...and the async workers still answer.
    let ready = app.client.get(format!("{}/readyz", app.address)).send().await.unwrap();
    assert_eq!(ready.status(), StatusCode::OK);
    assert!(
        posts.iter().any(|post| !post.is_finished()),
        "readyz was answered while costly requests were still in flight"
    );
    let mut judged = 0;
    for post in posts {
        let reply = post.await.unwrap();
        if reply.status == StatusCode::SERVICE_UNAVAILABLE {
            // Waited longer than the queue allows (a slow machine): refused, not queued on.
            assert_eq!(reply.code(), "busy", "{}", reply.body);
            continue;
        }
        reply.expect(StatusCode::UNPROCESSABLE_ENTITY);
        assert_eq!(reply.code(), "setup.start-position");
        assert!(
            reply.detail().contains("cannot be decided quickly"),
            "the reason is named: {}",
            reply.detail()
        );
        judged += 1;
    }
    assert!(judged >= work.bound(), "{judged} judged");
    assert!(work.peak() >= 1, "the judging ran in the pool");
    assert!(work.peak() <= work.bound(), "{} jobs at once, bound {}", work.peak(), work.bound());
    // An ordinary supplied start is still judged and accepted.
    let open = "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3";
    app.post(
        "/api/challenges",
        Some(&alice),
        json!({"variant": "flickering", "start_position": open, "time_control": three_days()}),
    )
    .await
    .expect(StatusCode::CREATED);
}

/// The accounts stored: a refused request stores nothing.
async fn account_count(app: &TestApp) -> i64 {
    sqlx::query_scalar("select count(*) from account").fetch_one(&app.domain.pool).await.unwrap()
}

#[tokio::test]
async fn nul_in_any_text_is_a_4xx_in_the_error_shape_never_a_500() {
    let app = TestApp::spawn().await;
    let alice = app.register("alice").await;
    let accounts = account_count(&app).await;

    // JSON bodies: 422 at the extractor, whatever the field.
    for (path, user, body) in [
        ("/api/tokens", None, json!({"username": "ali\u{0}ce", "password": "password-of-alice"})),
        ("/api/accounts", None, json!({"username": "bob\u{0}", "password": "a long password"})),
        (
            "/api/challenges",
            Some(&alice),
            json!({"variant": "xiangqi", "opponent": "bob\u{0}", "time_control": three_days()}),
        ),
        ("/api/games/import", Some(&alice), json!({"record": "[Red \"a\u{0}b\"]\n1. h2e2 h9g7\n"})),
    ] {
        let reply = app.post(path, user, body).await;
        reply.expect(StatusCode::UNPROCESSABLE_ENTITY);
        assert_eq!(reply.code(), "request.invalid-body", "{path}: {}", reply.body);
    }
    // A record file's bytes decoded on the server: refused by the import itself.
    use base64::Engine;
    let file = base64::engine::general_purpose::STANDARD.encode("[Red \"a\0b\"]\n1. h2e2 h9g7\n");
    let reply = app.post("/api/games/import", Some(&alice), json!({"record_base64": file})).await;
    reply.expect(StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(reply.code(), "import.invalid-text", "{}", reply.body);
    // An escaped backslash before `u0000` is no NUL: that text reaches the usual checks.
    let reply = app
        .post("/api/accounts", None, json!({"username": "bob\\u0000", "password": "a long password"}))
        .await;
    reply.expect(StatusCode::UNPROCESSABLE_ENTITY);
    assert_ne!(reply.code(), "request.invalid-body", "{}", reply.body);

    // A name in a path that holds NUL names nothing: 404; a query holding it: 422.
    for path in ["/api/players/ali%00ce", "/api/players/ali%00ce/ratings/xiangqi/live"] {
        app.get(path, Some(&alice)).await.expect(StatusCode::NOT_FOUND);
    }
    for path in ["/api/games?player=ali%00ce", "/api/players?name=%00", "/api/challenges?status=%00"] {
        let reply = app.get(path, Some(&alice)).await;
        reply.expect(StatusCode::UNPROCESSABLE_ENTITY);
        assert_eq!(reply.code(), "request.invalid-query", "{path}");
    }

    // The pages: a 404 page for a name, a 422 page for a query or a form.
    for (path, status) in [
        ("/players/ali%00ce", StatusCode::NOT_FOUND),
        ("/archive?player=ali%00ce", StatusCode::UNPROCESSABLE_ENTITY),
        ("/archive/export/pgn?player=%00", StatusCode::UNPROCESSABLE_ENTITY),
    ] {
        let page = app.client.get(format!("{}{path}", app.address)).send().await.unwrap();
        assert_eq!(page.status(), status, "{path}");
        assert!(page.text().await.unwrap().contains("<html"), "{path}: an HTML page");
    }
    let form = app
        .client
        .post(format!("{}/login", app.address))
        .header("content-type", "application/x-www-form-urlencoded")
        .body("csrf=x&username=ali%00ce&password=password-of-alice")
        .send()
        .await
        .unwrap();
    assert_eq!(form.status(), StatusCode::UNPROCESSABLE_ENTITY);

    assert_eq!(account_count(&app).await, accounts, "nothing was stored");
    // The same names without NUL are answered as usual.
    app.get("/api/players/alice", None).await.expect(StatusCode::OK);
    app.get("/api/games?player=alice", Some(&alice)).await.expect(StatusCode::OK);
}

#[tokio::test]
async fn a_leave_longer_than_a_year_is_refused_without_a_panic() {
    let app = TestApp::spawn().await;
    let alice = app.register("alice").await;
    for days in [999_999_999_u64, u64::from(u32::MAX), 367] {
        let reply = app.post("/api/vacation", Some(&alice), json!({"days": days})).await;
        reply.expect(StatusCode::UNPROCESSABLE_ENTITY);
    }
    let status = app.get("/api/vacation", Some(&alice)).await.expect(StatusCode::OK).clone();
    assert_eq!(status["on_leave_until"], Value::Null, "no leave was started");
    assert_eq!(status["used_days"], 0);
    // The documented maximum is in the description.
    let doc = app.get("/api/openapi.json", None).await.expect(StatusCode::OK).clone();
    assert_eq!(doc["components"]["schemas"]["StartLeave"]["properties"]["days"]["maximum"], 366);
}

/// A clock that panics when armed: a test's way to make a handler panic.
#[derive(Debug)]
struct ArmedClock {
    inner: ManualClock,
    armed: AtomicBool,
}

impl Clock for ArmedClock {
    fn now(&self) -> time::OffsetDateTime {
        assert!(!self.armed.load(Ordering::SeqCst), "the armed clock was read");
        self.inner.now()
    }
}

/// `tavoliere_panics_total` in the metrics text (0 before the first panic).
async fn panics_counted(app: &TestApp) -> f64 {
    let text = app.client.get(format!("{}/metrics", app.address)).send().await.unwrap().text().await.unwrap();
    text.lines()
        .find_map(|line| line.strip_prefix("tavoliere_panics_total "))
        .map_or(0.0, |value| value.trim().parse().unwrap())
}

#[tokio::test]
async fn a_panicking_handler_answers_500_in_the_error_shape_and_is_counted() {
    let database_url = Cluster::get().fresh_database().await;
    let clock = Arc::new(ArmedClock {
        inner: ManualClock::new(datetime!(2026-03-01 12:00 UTC)),
        armed: false.into(),
    });
    let deps = Dependencies { clock: Some(Arc::clone(&clock) as Arc<dyn Clock>), pool: None };
    let application = Application::build_with(test_settings(&database_url), deps).await.unwrap();
    let port = application.port();
    tokio::spawn(application.run_until(std::future::pending()));
    let app = TestApp::attach(&format!("http://127.0.0.1:{port}"), &database_url).await;
    let alice = app.register("alice").await;
    let before = panics_counted(&app).await;

    clock.armed.store(true, Ordering::SeqCst);
    let answer = app
        .client
        .get(format!("{}/api/vacation", app.address))
        .bearer_auth(&alice.token)
        .send()
        .await
        .expect("an answer, not a dropped connection");
    clock.armed.store(false, Ordering::SeqCst);
    assert_eq!(answer.status(), StatusCode::INTERNAL_SERVER_ERROR);
    let id = answer.headers()["x-request-id"].to_str().unwrap().to_owned();
    let body: Value = answer.json().await.unwrap();
    assert_eq!(body["errors"][0]["code"], "internal", "{body}");
    assert_eq!(body["request_id"], id.as_str(), "{body}");
    assert!(!body.to_string().contains("armed clock"), "the panic's text stays in the log: {body}");

    assert!(panics_counted(&app).await >= before + 1.0, "the panic is counted");
    // The server goes on serving.
    app.get("/api/vacation", Some(&alice)).await.expect(StatusCode::OK);
}
