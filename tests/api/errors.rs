//! Every error answers `{"errors":[{"detail":...}]}`, even before a handler runs.

use reqwest::StatusCode;
use serde_json::json;

use crate::support::TestApp;

#[tokio::test]
async fn healthz_answers_ok_when_the_database_is_reachable() {
    let app = TestApp::spawn().await;
    let response = app.client.get(format!("{}/healthz", app.address)).send().await.unwrap();
    assert_eq!(response.status(), StatusCode::OK);
    assert_eq!(response.text().await.unwrap(), "ok");
}

#[tokio::test]
async fn malformed_json_is_a_400_in_the_error_shape() {
    let app = TestApp::spawn().await;
    let reply = app.post_raw("/api/accounts", "application/json", "{not json".into()).await;
    reply.expect(StatusCode::BAD_REQUEST);
}

#[tokio::test]
async fn a_wrong_content_type_is_a_415_in_the_error_shape() {
    let app = TestApp::spawn().await;
    let reply = app.post_raw("/api/accounts", "text/plain", "{}".into()).await;
    reply.expect(StatusCode::UNSUPPORTED_MEDIA_TYPE);
}

#[tokio::test]
async fn a_body_with_missing_fields_is_a_422_in_the_error_shape() {
    let app = TestApp::spawn().await;
    app.post("/api/accounts", None, json!({"username": "alice"}))
        .await
        .expect(StatusCode::UNPROCESSABLE_ENTITY);
}

#[tokio::test]
async fn an_oversized_body_is_a_413_in_the_error_shape() {
    let app = TestApp::spawn().await;
    let huge = format!(r#"{{"username":"{}","password":"x"}}"#, "a".repeat(64 * 1024));
    let reply = app.post_raw("/api/accounts", "application/json", huge).await;
    reply.expect(StatusCode::PAYLOAD_TOO_LARGE);
}

#[tokio::test]
async fn unknown_routes_and_bad_ids_answer_in_the_error_shape() {
    let app = TestApp::spawn().await;
    app.get("/api/nothing-here", None).await.expect(StatusCode::NOT_FOUND);
    app.get("/api/games/not-a-number", None).await.expect(StatusCode::BAD_REQUEST);
    app.get("/api/games/999999", None).await.expect(StatusCode::NOT_FOUND);
    let reply = app.client.delete(format!("{}/api/games/1", app.address)).send().await.unwrap();
    assert_eq!(reply.status(), StatusCode::METHOD_NOT_ALLOWED);
}

#[tokio::test]
async fn the_openapi_document_describes_every_route() {
    let app = TestApp::spawn().await;
    let doc = app.get("/api/openapi.json", None).await.expect(StatusCode::OK).clone();
    for path in [
        "/api/accounts",
        "/api/tokens",
        "/api/challenges",
        "/api/challenges/{id}/accept",
        "/api/challenges/{id}/decline",
        "/api/challenges/{id}/cancel",
        "/api/games",
        "/api/games/{id}",
        "/api/games/{id}/moves",
        "/api/games/{id}/moves/check",
        "/api/games/{id}/resign",
        "/api/games/{id}/draw/offer",
        "/api/games/{id}/draw/accept",
        "/api/games/{id}/draw/decline",
        "/api/games/{id}/abort",
        "/api/games/{id}/claim",
        "/healthz",
    ] {
        assert!(doc["paths"][path].is_object(), "{path} is missing from /api/openapi.json");
    }
}

#[tokio::test]
async fn every_error_has_a_code_and_a_sentence() {
    let app = TestApp::spawn().await;
    let reply = app.post_raw("/api/accounts", "application/json", "{not json".into()).await;
    reply.expect(StatusCode::BAD_REQUEST);
    assert_eq!(reply.code(), "request.malformed-json");
    let reply = app.post_raw("/api/accounts", "text/plain", "{}".into()).await;
    reply.expect(StatusCode::UNSUPPORTED_MEDIA_TYPE);
    assert_eq!(reply.code(), "request.unsupported-media-type");
    let reply = app.post("/api/accounts", None, json!({"username": "alice"})).await;
    reply.expect(StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(reply.code(), "request.invalid-body");
    assert!(reply.detail().contains("password"), "{}", reply.detail());
    let huge = format!(r#"{{"username":"{}","password":"x"}}"#, "a".repeat(64 * 1024));
    let reply = app.post_raw("/api/accounts", "application/json", huge).await;
    assert_eq!(reply.code(), "request.body-too-large");
    let reply = app.get("/api/nothing-here", None).await;
    assert_eq!((reply.code(), reply.detail()), ("not-found", "not found"));
    let reply = app.get("/api/games/not-a-number", None).await;
    reply.expect(StatusCode::BAD_REQUEST);
    assert_eq!(reply.code(), "request.invalid-path");
    assert!(!reply.detail().contains("i64"), "no Rust type names: {}", reply.detail());
    let reply = app.get("/api/games/999999", None).await;
    assert_eq!(reply.code(), "not-found");
    let reply = app.post("/api/challenges", None, json!({})).await;
    reply.expect(StatusCode::UNAUTHORIZED);
    assert_eq!(reply.code(), "unauthorized");
}

#[tokio::test]
async fn an_invalid_time_control_is_a_sentence_not_rust_debug_output() {
    // Issue 23 §4: the detail read `invalid time control DaysPerMove { days: 0 }: …`.
    let app = TestApp::spawn().await;
    let alice = app.register("alice").await;
    let _bob = app.register("bob").await;
    let reply = app
        .post(
            "/api/challenges",
            Some(&alice),
            json!({"variant": "xiangqi", "opponent": "bob", "color": "first",
                   "time_control": {"kind": "days-per-move", "days": 0}}),
        )
        .await;
    reply.expect(StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(reply.code(), "time-control.invalid");
    assert_eq!(reply.detail(), "A move may take 1 to 365 days, not 0.");
    let reply = app
        .post(
            "/api/challenges",
            Some(&alice),
            json!({"variant": "xiangqi", "opponent": "bob", "color": "first", "start_position": "9/9 w",
                   "time_control": {"kind": "days-per-move", "days": 3}}),
        )
        .await;
    reply.expect(StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(reply.code(), "setup.start-position");
    assert!(reply.detail().starts_with("The start position cannot be used: "), "{}", reply.detail());
}
