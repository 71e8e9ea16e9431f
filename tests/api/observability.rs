//! Issue #19 §3: request ids in answers, errors and logs; the Prometheus endpoint, its
//! protection, its own listener; JSON logs.

use reqwest::StatusCode;
use serde_json::{json, Value};

use crate::support::cluster::Cluster;
use crate::support::process::{field, ServerProcess};
use crate::support::TestApp;

#[tokio::test]
async fn every_answer_has_a_request_id_and_errors_quote_it() {
    let app = TestApp::spawn().await;
    let reply = app.client.get(format!("{}/api/games/999999", app.address)).send().await.unwrap();
    assert_eq!(reply.status(), StatusCode::NOT_FOUND);
    let id = reply.headers()["x-request-id"].to_str().unwrap().to_owned();
    assert_eq!(id.len(), 32, "a fresh id: {id}");
    let body: Value = reply.json().await.unwrap();
    assert_eq!(body["request_id"], id.as_str(), "{body}");
    assert_eq!(body["errors"][0]["code"], "not-found");

    // A proxy's id is kept; a strange one is replaced.
    let kept = app
        .client
        .get(format!("{}/api/games/999999", app.address))
        .header("x-request-id", "edge-42")
        .send()
        .await
        .unwrap();
    assert_eq!(kept.headers()["x-request-id"], "edge-42");
    let replaced = app
        .client
        .get(format!("{}/healthz", app.address))
        .header("x-request-id", "<script>")
        .send()
        .await
        .unwrap();
    assert_ne!(replaced.headers()["x-request-id"], "<script>");
}

#[tokio::test]
async fn metrics_count_requests_by_route_and_moves_by_outcome() {
    let app = TestApp::spawn().await;
    let (alice, bob) = (app.register("alice").await, app.register("bob").await);
    let game = app.start_game("xiangqi", &alice, &bob, crate::support::three_days()).await;
    app.post_move(&alice, game, "h2e2", 0).await.expect(StatusCode::CREATED);
    app.post_move(&alice, game, "h2e2", 1).await;
    let metrics = app.get_text("/metrics").await;
    for expected in [
        r#"tavoliere_http_requests_total{route="/api/games/{id}/moves",method="POST",status="201"}"#,
        r#"tavoliere_moves_total{result="accepted",code="none"}"#,
        r#"tavoliere_moves_total{result="refused",code="move.not-your-turn"}"#,
        r#"tavoliere_moves_by_path_total{path="#,
        r#"tavoliere_http_request_duration_seconds_bucket{route="/api/games/{id}/moves",method="POST",le="0.005"}"#,
        "tavoliere_database_up 1",
        r#"tavoliere_db_pool_connections{state="idle"}"#,
        r#"tavoliere_db_move_connections{state="idle"}"#,
        "tavoliere_db_move_connections_max ",
        "tavoliere_live_sockets ",
        "tavoliere_notification_queue_depth ",
        // The game just played on is kept for its next move.
        "tavoliere_game_cache_games 1",
    ] {
        assert!(metrics.contains(expected), "{expected} in:\n{metrics}");
    }
    assert!(!metrics.contains(&format!("/api/games/{game}/")), "routes are patterns, not paths");
}

#[tokio::test]
async fn with_a_token_metrics_answer_only_its_bearer() {
    let app = TestApp::spawn_with(|settings| settings.metrics.token = Some("s3cret-token".to_owned())).await;
    let url = format!("{}/metrics", app.address);
    let anonymous = app.client.get(&url).send().await.unwrap();
    assert_eq!(anonymous.status(), StatusCode::NOT_FOUND);
    let wrong = app.client.get(&url).bearer_auth("guess").send().await.unwrap();
    assert_eq!(wrong.status(), StatusCode::NOT_FOUND);
    let bearer = app.client.get(&url).bearer_auth("s3cret-token").send().await.unwrap();
    assert_eq!(bearer.status(), StatusCode::OK);
    assert!(bearer.text().await.unwrap().contains("tavoliere_database_up"));
}

#[tokio::test(flavor = "multi_thread")]
async fn json_logs_carry_the_request_id_and_metrics_can_have_their_own_listener() {
    let database_url = Cluster::get().fresh_database().await;
    let server = tokio::task::block_in_place(|| {
        ServerProcess::start_with(&[
            ("TAVOLIERE_DATABASE__URL", &database_url),
            ("TAVOLIERE_LOG__FORMAT", "json"),
            ("TAVOLIERE_METRICS__LISTEN", "127.0.0.1:0"),
        ])
    });
    let client = reqwest::Client::new();
    let reply = client
        .post(format!("{}/api/accounts", server.address))
        .header("x-request-id", "trace-me-7")
        .json(&json!({"username": "x", "password": "short"}))
        .send()
        .await
        .unwrap();
    assert!(reply.status().is_client_error());
    // The access line is written as the response leaves: on a busy machine a moment after
    // the client has read it.
    let mut log = server.log();
    let mut found = None;
    for _ in 0..100 {
        found = log
            .iter()
            .filter_map(|line| serde_json::from_str::<Value>(line).ok())
            .find(|line| line.to_string().contains("trace-me-7"));
        if found.is_some() {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
        log = server.log();
    }
    let line = found.unwrap_or_else(|| panic!("a JSON log line with the request id: {log:#?}"));
    assert!(line.get("timestamp").is_some() && line.get("level").is_some(), "{line}");

    // The access line of a signed-in request names the client's address and the account
    // (issue 40 §5).
    client
        .post(format!("{}/api/accounts", server.address))
        .json(&json!({"username": "ada", "password": "a long secret"}))
        .send()
        .await
        .unwrap();
    let token: Value = client
        .post(format!("{}/api/tokens", server.address))
        .json(&json!({"username": "ada", "password": "a long secret"}))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let me = client
        .get(format!("{}/api/accounts/me", server.address))
        .bearer_auth(token["token"].as_str().expect("a token"))
        .header("x-request-id", "who-asked-8")
        .send()
        .await
        .unwrap();
    assert_eq!(me.status(), StatusCode::OK);
    let mut access = None;
    for _ in 0..100 {
        access = server
            .log()
            .into_iter()
            .filter(|line| line.contains("who-asked-8") && line.contains("finished processing request"))
            .find_map(|line| serde_json::from_str::<Value>(&line).ok());
        if access.is_some() {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    let access = access.unwrap_or_else(|| panic!("an access line for who-asked-8: {:#?}", server.log()));
    let text = access.to_string();
    assert!(text.contains(r#""account":"ada""#) && text.contains(r#""client":"127.0.0.1""#), "{text}");

    let listener_line =
        log.iter().find(|line| line.contains("metrics served on their own listener")).expect("logged");
    let port = field(listener_line, "127.0.0.1:").expect("the metrics address");
    let metrics = client.get(format!("http://127.0.0.1:{port}/metrics")).send().await.unwrap();
    assert_eq!(metrics.status(), StatusCode::OK);
    let metrics = metrics.text().await.unwrap();
    assert!(metrics.contains(r#"route="/api/accounts""#));
    // Every metric says what it counts (issue 40 §5).
    for line in metrics.lines().filter(|line| !line.starts_with('#') && !line.is_empty()) {
        let name = line.split(['{', ' ']).next().unwrap();
        let base = ["_bucket", "_sum", "_count"]
            .iter()
            .fold(name, |name, suffix| name.strip_suffix(suffix).unwrap_or(name));
        assert!(metrics.contains(&format!("# HELP {base} ")), "no # HELP for {base}: {metrics}");
    }
}
