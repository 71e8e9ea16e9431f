//! Challenges: create, accept into a game, decline, cancel, and who may do what.

use reqwest::StatusCode;
use serde_json::json;

use crate::support::{three_days, TestApp};

#[tokio::test]
async fn an_accepted_challenge_becomes_a_game_with_the_chosen_seats() {
    let app = TestApp::spawn().await;
    let alice = app.register("alice").await;
    let bob = app.register("bob").await;
    let challenge = app
        .post(
            "/api/challenges",
            Some(&alice),
            json!({"variant": "xiangqi", "opponent": "bob", "color": "second", "time_control": three_days()}),
        )
        .await;
    let body = challenge.expect(StatusCode::CREATED);
    assert_eq!(body["ruleset"], "cxq", "the xiangqi default ruleset");
    assert_eq!(body["status"], "open");
    let game = app.accept(&bob, body["id"].as_i64().unwrap()).await;
    let state = app.game(game).await;
    assert_eq!(state["seats"][0]["username"], "bob", "alice chose the second seat");
    assert_eq!(state["seats"][1]["username"], "alice");
    assert_eq!(state["status"], "active");
    assert_eq!(state["ply"], 0);
    assert_eq!(state["seat_count"], 2);
}

#[tokio::test]
async fn an_open_challenge_can_be_accepted_by_anyone_but_its_author_and_only_once() {
    let app = TestApp::spawn().await;
    let alice = app.register("alice").await;
    let bob = app.register("bob").await;
    let carol = app.register("carol").await;
    let id = app
        .post("/api/challenges", Some(&alice), json!({"variant": "shogi", "time_control": three_days()}))
        .await
        .expect(StatusCode::CREATED)["id"]
        .as_i64()
        .unwrap();
    let listed = app.get("/api/challenges", Some(&carol)).await;
    assert_eq!(listed.expect(StatusCode::OK).as_array().unwrap().len(), 1, "carol sees the open challenge");
    app.post(&format!("/api/challenges/{id}/accept"), Some(&alice), json!({}))
        .await
        .expect(StatusCode::FORBIDDEN);
    app.accept(&carol, id).await;
    app.post(&format!("/api/challenges/{id}/accept"), Some(&bob), json!({}))
        .await
        .expect(StatusCode::CONFLICT);
}

#[tokio::test]
async fn a_directed_challenge_is_only_for_its_opponent() {
    let app = TestApp::spawn().await;
    let alice = app.register("alice").await;
    app.register("bob").await;
    let carol = app.register("carol").await;
    let id = app
        .post(
            "/api/challenges",
            Some(&alice),
            json!({"variant": "minishogi", "opponent": "bob", "time_control": three_days()}),
        )
        .await
        .expect(StatusCode::CREATED)["id"]
        .as_i64()
        .unwrap();
    app.post(&format!("/api/challenges/{id}/accept"), Some(&carol), json!({}))
        .await
        .expect(StatusCode::FORBIDDEN);
    app.post(&format!("/api/challenges/{id}/decline"), Some(&carol), json!({}))
        .await
        .expect(StatusCode::FORBIDDEN);
}

#[tokio::test]
async fn the_opponent_declines_and_the_author_cancels() {
    let app = TestApp::spawn().await;
    let alice = app.register("alice").await;
    let bob = app.register("bob").await;
    let make = || async {
        app.post(
            "/api/challenges",
            Some(&alice),
            json!({"variant": "xiangqi", "opponent": "bob", "time_control": three_days()}),
        )
        .await
        .expect(StatusCode::CREATED)["id"]
            .as_i64()
            .unwrap()
    };
    let declined = make().await;
    app.post(&format!("/api/challenges/{declined}/cancel"), Some(&bob), json!({}))
        .await
        .expect(StatusCode::FORBIDDEN);
    let reply = app.post(&format!("/api/challenges/{declined}/decline"), Some(&bob), json!({})).await;
    assert_eq!(reply.expect(StatusCode::OK)["status"], "declined");
    app.post(&format!("/api/challenges/{declined}/accept"), Some(&bob), json!({}))
        .await
        .expect(StatusCode::CONFLICT);

    let cancelled = make().await;
    let reply = app.post(&format!("/api/challenges/{cancelled}/cancel"), Some(&alice), json!({})).await;
    assert_eq!(reply.expect(StatusCode::OK)["status"], "cancelled");
    app.post(&format!("/api/challenges/{cancelled}/accept"), Some(&bob), json!({}))
        .await
        .expect(StatusCode::CONFLICT);
}

#[tokio::test]
async fn invalid_challenges_are_refused_with_a_reason() {
    let app = TestApp::spawn().await;
    let alice = app.register("alice").await;
    let cases = [
        (json!({"variant": "chess", "time_control": three_days()}), "unknown variant"),
        (
            json!({"variant": "xiangqi", "ruleset": "shogi-27", "time_control": three_days()}),
            "shogi ruleset for xiangqi",
        ),
        (
            json!({"variant": "shogi", "handicap": "chariot", "time_control": three_days()}),
            "xiangqi handicap for shogi",
        ),
        (json!({"variant": "shogi", "opponent": "nobody", "time_control": three_days()}), "unknown opponent"),
        (json!({"variant": "shogi", "opponent": "alice", "time_control": three_days()}), "oneself"),
        (json!({"variant": "shogi", "time_control": {"kind": "days-per-move", "days": 0}}), "zero days"),
        (
            json!({"variant": "shogi", "time_control": {"kind": "fischer", "initial_days": 30, "increment_days": 3, "cap_days": 10}}),
            "cap below start",
        ),
        (json!({"variant": "shogi", "time_control": {"kind": "hourglass"}}), "unknown time control"),
        (
            json!({"variant": "xiangqi", "start_position": "4k4/9 w", "time_control": three_days()}),
            "unreadable start position",
        ),
        (
            json!({"variant": "xiangqi", "start_position": "4k4/9/9/9/9/9/9/9/9/4K4 w - - 0 1",
                   "time_control": three_days()}),
            "kings facing each other",
        ),
        (
            json!({"variant": "shogi", "start_position": "rbsgk/4p/5/P4/KGSBR b - 1", "time_control": three_days()}),
            "a minishogi position for shogi",
        ),
        (json!({"variant": "seven-kingdoms", "seats": 2, "time_control": three_days()}), "7K with 2 seats"),
        (json!({"variant": "seven-kingdoms", "seats": 8, "time_control": three_days()}), "7K with 8 seats"),
        (
            json!({"variant": "seven-kingdoms", "opponent": "bob", "time_control": three_days()}),
            "a named opponent for a game of more seats",
        ),
        (json!({"variant": "xiangqi", "seats": 3, "time_control": three_days()}), "xiangqi for three"),
    ];
    for (body, why) in cases {
        let reply = app.post("/api/challenges", Some(&alice), body).await;
        assert_eq!(reply.status, StatusCode::UNPROCESSABLE_ENTITY, "{why}: {}", reply.body);
        assert!(!reply.detail().is_empty(), "{why}: a reason is given");
    }
}

#[tokio::test]
async fn a_handicap_challenge_records_the_handicap() {
    let app = TestApp::spawn().await;
    let alice = app.register("alice").await;
    let reply = app
        .post(
            "/api/challenges",
            Some(&alice),
            json!({"variant": "shogi", "ruleset": "shogi-27", "handicap": "bishop", "time_control": three_days()}),
        )
        .await;
    let body = reply.expect(StatusCode::CREATED);
    assert_eq!(body["handicap"], "bishop");
    assert_eq!(body["ruleset"], "shogi-27");
}
