//! Small leaks and gaps: private challenges, security headers, bad ids on pages, the
//! answers of `/static`, seat counts the variant does not allow.

use reqwest::header::CONTENT_TYPE;
use reqwest::StatusCode;
use serde_json::json;

use crate::support::{three_days, TestApp};

#[tokio::test]
async fn a_challenge_addressed_to_someone_is_shown_to_its_two_parties_only() {
    let app = TestApp::spawn().await;
    let alice = app.register("alice").await;
    let bob = app.register("bob").await;
    let carol = app.register("carol").await;
    let private = app
        .post(
            "/api/challenges",
            Some(&alice),
            json!({"variant": "xiangqi", "opponent": "bob", "time_control": three_days()}),
        )
        .await
        .expect(StatusCode::CREATED)["id"]
        .as_i64()
        .unwrap();
    let path = format!("/api/challenges/{private}");
    app.get(&path, None).await.expect(StatusCode::NOT_FOUND);
    app.get(&path, Some(&carol)).await.expect(StatusCode::NOT_FOUND);
    assert_eq!(app.get(&path, Some(&alice)).await.expect(StatusCode::OK)["opponent"], "bob");
    assert_eq!(app.get(&path, Some(&bob)).await.expect(StatusCode::OK)["challenger"], "alice");
    let unknown = app.get("/api/challenges/999999", Some(&carol)).await;
    assert_eq!(unknown.detail(), "no challenge 999999");
    assert_eq!(
        app.get(&path, Some(&carol)).await.detail(),
        format!("no challenge {private}"),
        "as if unknown"
    );

    let open = app
        .post("/api/challenges", Some(&alice), json!({"variant": "shogi", "time_control": three_days()}))
        .await
        .expect(StatusCode::CREATED)["id"]
        .as_i64()
        .unwrap();
    app.get(&format!("/api/challenges/{open}"), None).await.expect(StatusCode::OK);
}

#[tokio::test]
async fn every_answer_carries_nosniff_and_a_referrer_policy_and_hsts_only_with_secure_cookies() {
    let app = TestApp::spawn().await;
    for path in ["/", "/login", "/api/openapi.json", "/static/site.css", "/static/none.css", "/no/such/page"]
    {
        let response = app.client.get(format!("{}{path}", app.address)).send().await.unwrap();
        let headers = response.headers();
        assert_eq!(headers["x-content-type-options"], "nosniff", "{path}");
        assert_eq!(headers["referrer-policy"], "same-origin", "{path}");
        assert!(!headers.contains_key("strict-transport-security"), "{path}: no HSTS over plain HTTP");
    }
    let secure = TestApp::spawn_with(|settings| settings.application.secure_cookies = true).await;
    let response = secure.client.get(format!("{}/login", secure.address)).send().await.unwrap();
    assert_eq!(response.headers()["strict-transport-security"], "max-age=31536000");
}

#[tokio::test]
async fn bad_ids_on_pages_answer_the_sites_error_page() {
    let app = TestApp::spawn().await;
    let gets = [
        "/games/abc",
        "/games/abc/moves",
        "/games/1x/board.svg",
        "/games/x/record/pgn",
        "/games/99999999999999999999",
    ];
    for path in gets {
        let response = app.client.get(format!("{}{path}", app.address)).send().await.unwrap();
        assert_eq!(response.status(), StatusCode::NOT_FOUND, "{path}");
        assert!(response.headers()[CONTENT_TYPE].to_str().unwrap().starts_with("text/html"), "{path}");
        let body = response.text().await.unwrap();
        assert!(body.contains("Page not found") && body.contains("</html>"), "{path}: {body}");
    }
    let italian = app
        .client
        .post(format!("{}/challenges/abc/accept", app.address))
        .header("accept-language", "it")
        .header(CONTENT_TYPE, "application/x-www-form-urlencoded")
        .body("csrf=x")
        .send()
        .await
        .unwrap();
    assert_eq!(italian.status(), StatusCode::NOT_FOUND);
    assert!(italian.text().await.unwrap().contains("Pagina non trovata"));
}

#[tokio::test]
async fn static_misses_and_impossible_names_answer_with_a_body() {
    let app = TestApp::spawn().await;
    let missing = app.get("/static/no-such-file.css", None).await;
    assert_eq!(missing.expect(StatusCode::NOT_FOUND)["errors"][0]["detail"], "not found");
    let long_name = format!("/static/{}", "a".repeat(300));
    app.get(&long_name, None).await.expect(StatusCode::URI_TOO_LONG);
    let long_path = format!("/static/{}", vec!["b".repeat(100); 20].join("/"));
    app.get(&long_path, None).await.expect(StatusCode::URI_TOO_LONG);
    // What is there is still served.
    assert!(app.get_text("/static/site.css").await.contains("body"));
}

#[tokio::test]
async fn a_seat_count_the_variant_does_not_allow_is_refused() {
    let app = TestApp::spawn().await;
    let alice = app.register("alice").await;
    let refused = app
        .post(
            "/api/challenges",
            Some(&alice),
            json!({"variant": "xiangqi", "seat_count": 5, "time_control": three_days()}),
        )
        .await;
    refused.expect(StatusCode::UNPROCESSABLE_ENTITY);
    assert!(refused.detail().contains('5'), "{}", refused.detail());
    let differing = app
        .post(
            "/api/challenges",
            Some(&alice),
            json!({"variant": "seven-kingdoms", "seats": 3, "seat_count": 4, "time_control": three_days()}),
        )
        .await;
    differing.expect(StatusCode::UNPROCESSABLE_ENTITY);
    let count: i64 =
        sqlx::query_scalar("select count(*) from challenge").fetch_one(&app.domain.pool).await.unwrap();
    assert_eq!(count, 0, "nothing was created");
    let three = app
        .post(
            "/api/challenges",
            Some(&alice),
            json!({"variant": "seven-kingdoms", "seat_count": 3, "time_control": three_days()}),
        )
        .await;
    assert_eq!(three.expect(StatusCode::CREATED)["seat_count"], 3);
    let two = app
        .post(
            "/api/challenges",
            Some(&alice),
            json!({"variant": "xiangqi", "seat_count": 2, "time_control": three_days()}),
        )
        .await;
    assert_eq!(two.expect(StatusCode::CREATED)["seat_count"], 2);
}

#[tokio::test]
async fn the_next_seat_is_told_it_is_their_move_when_the_seat_to_move_leaves() {
    let app = TestApp::spawn().await;
    let qin = app.register("qin").await;
    let chu = app.register("chu").await;
    let qi = app.register("qi_").await;
    let game = crate::seats_and_series::seven_kingdoms_game(&app, &qin, &[&chu, &qi]).await;
    let your_move = |name: &'static str| {
        let pool = app.domain.pool.clone();
        async move {
            let rows: Vec<(serde_json::Value,)> = sqlx::query_as(
                "select n.details from notification n join account a on a.account_id = n.account_id
                 where a.username = $1 and n.kind = 'your-move'",
            )
            .bind(name)
            .fetch_all(&pool)
            .await
            .unwrap();
            rows
        }
    };
    assert!(your_move("chu").await.is_empty() && your_move("qi_").await.is_empty());
    // Qin (to move) resigns: the game goes on and the turn passes to the next seat (the
    // guests' seats are drawn).
    app.act(Some(&qin), game, "resign").await.expect(StatusCode::OK);
    let next = app.game(game).await["to_move"].as_str().unwrap().to_owned();
    let (next, other, other_user) = if next == "chu" { ("chu", "qi_", &qi) } else { ("qi_", "chu", &chu) };
    assert_eq!(your_move(next).await, vec![(json!({"ply": 0}),)], "told once, in the exit's transaction");
    assert!(your_move(other).await.is_empty());
    // A seat that leaves when it is not its turn passes nothing on.
    app.act(Some(other_user), game, "resign").await.expect(StatusCode::OK);
    assert_eq!(your_move(next).await.len(), 1);
}
