//! Correspondence clocks: the timeout sweep (with an injectable clock), Fischer
//! increments, vacation, restarts.

use std::sync::Arc;

use reqwest::StatusCode;
use serde_json::json;
use time::Duration;

use crate::support::fake_rules::FakeRules;
use crate::support::{three_days, TestApp};

const DAY: i64 = 86_400;

#[tokio::test]
async fn a_game_is_lost_on_time_once_the_deadline_has_passed_and_not_before() {
    let app = TestApp::spawn_fake().await;
    let alice = app.register("alice").await;
    let bob = app.register("bob").await;
    let game = app.start_game("xiangqi", &alice, &bob, three_days()).await;
    app.clock.advance(Duration::days(2));
    assert!(app.sweep().await.is_empty(), "two of three days used: still running");
    app.clock.advance(Duration::days(1) + Duration::minutes(1));
    assert_eq!(app.sweep().await, vec![game]);
    let state = app.game(game).await;
    assert_eq!(state["status"], "finished");
    assert_eq!(state["result"], "0-1", "alice was to move and ran out of time");
    assert_eq!(state["reason"], "timeout");
    assert!(app.sweep().await.is_empty(), "a finished game is not ended twice");
}

#[tokio::test]
async fn a_move_after_the_deadline_is_refused_and_stores_nothing() {
    let app = TestApp::spawn_fake().await;
    let alice = app.register("alice").await;
    let bob = app.register("bob").await;
    let game = app.start_game("xiangqi", &alice, &bob, three_days()).await;
    app.clock.advance(Duration::days(4));
    let late = app.post_move(&alice, game, "m1", 0).await;
    late.expect(StatusCode::CONFLICT);
    assert!(late.detail().contains("time"), "{}", late.detail());
    assert_eq!(app.stored_moves(game).await, 0);
}

#[tokio::test]
async fn on_time_a_side_that_cannot_possibly_win_only_draws() {
    let app = TestApp::spawn_with(Some(Arc::new(FakeRules { bare_kings: true }))).await;
    let alice = app.register("alice").await;
    let bob = app.register("bob").await;
    let game = app.start_game("xiangqi", &alice, &bob, three_days()).await;
    app.clock.advance(Duration::days(4));
    assert_eq!(app.sweep().await, vec![game]);
    let state = app.game(game).await;
    assert_eq!(state["result"], "1/2-1/2");
    assert_eq!(state["reason"], "timeout-insufficient-material");
}

#[tokio::test]
async fn a_fischer_clock_adds_the_increment_up_to_the_cap() {
    let app = TestApp::spawn_fake().await;
    let alice = app.register("alice").await;
    let bob = app.register("bob").await;
    let fischer = json!({"kind": "fischer", "initial_days": 30, "increment_days": 3, "cap_days": 45});
    let game = app.start_game("shogi", &alice, &bob, fischer).await;
    app.clock.advance(Duration::days(1));
    let state = app.post_move(&alice, game, "m1", 0).await;
    let body = state.expect(StatusCode::CREATED);
    assert_eq!(body["seats"][0]["remaining_seconds"], 32 * DAY, "30 - 1 + 3 days");
    app.post_move(&bob, game, "m1", 1).await.expect(StatusCode::CREATED);
    for ply in 2..14 {
        let mover = if ply % 2 == 0 { &alice } else { &bob };
        app.post_move(mover, game, "m1", ply).await.expect(StatusCode::CREATED);
    }
    let state = app.game(game).await;
    assert_eq!(state["seats"][0]["remaining_seconds"], 45 * DAY, "capped at 45 days");
}

#[tokio::test]
async fn moves_in_days_carries_the_saved_time_forward() {
    let app = TestApp::spawn_fake().await;
    let alice = app.register("alice").await;
    let bob = app.register("bob").await;
    let control = json!({"kind": "moves-in-days", "moves": 2, "days": 10});
    let game = app.start_game("minishogi", &alice, &bob, control).await;
    app.clock.advance(Duration::days(1));
    app.post_move(&alice, game, "m1", 0).await.expect(StatusCode::CREATED);
    app.post_move(&bob, game, "m1", 1).await.expect(StatusCode::CREATED);
    app.clock.advance(Duration::days(1));
    let body = app.post_move(&alice, game, "m1", 2).await.expect(StatusCode::CREATED).clone();
    assert_eq!(body["seats"][0]["remaining_seconds"], 18 * DAY, "10 - 2 days used + 10 new after two moves");
}

#[tokio::test]
async fn leave_stops_the_clock_and_comes_out_of_the_yearly_allowance() {
    let app = TestApp::spawn_fake().await;
    let alice = app.register("alice").await;
    let bob = app.register("bob").await;
    let game = app.start_game("xiangqi", &alice, &bob, three_days()).await;
    let leave = app.post("/api/vacation", Some(&alice), json!({"days": 10})).await;
    let status = leave.expect(StatusCode::OK);
    assert_eq!(status["allowance_days"], 45);
    assert_eq!(status["used_days"], 10);
    app.post("/api/vacation", Some(&alice), json!({"days": 1})).await.expect(StatusCode::CONFLICT);
    app.clock.advance(Duration::days(12));
    assert!(app.sweep().await.is_empty(), "10 days of leave + 2 days used of 3");
    app.clock.advance(Duration::days(1) + Duration::minutes(1));
    assert_eq!(app.sweep().await, vec![game], "leave over, the 3 days are gone");
    let too_much = app.post("/api/vacation", Some(&alice), json!({"days": 36})).await;
    too_much.expect(StatusCode::UNPROCESSABLE_ENTITY);
}

#[tokio::test]
async fn ending_leave_early_restarts_the_clock() {
    let app = TestApp::spawn_fake().await;
    let alice = app.register("alice").await;
    let bob = app.register("bob").await;
    let game = app.start_game("xiangqi", &alice, &bob, three_days()).await;
    app.post("/api/vacation", Some(&alice), json!({"days": 20})).await.expect(StatusCode::OK);
    app.clock.advance(Duration::days(1));
    let ended = app.post("/api/vacation/end", Some(&alice), json!({})).await;
    assert!(ended.expect(StatusCode::OK)["on_leave_until"].is_null());
    app.clock.advance(Duration::days(3) + Duration::minutes(1));
    assert_eq!(app.sweep().await, vec![game], "one day of leave, then three days");
}

#[tokio::test]
async fn a_game_that_forbids_leave_keeps_its_clock_running() {
    let app = TestApp::spawn_fake().await;
    let alice = app.register("alice").await;
    let bob = app.register("bob").await;
    let id = app
        .post(
            "/api/challenges",
            Some(&alice),
            json!({"variant": "xiangqi", "opponent": "bob", "color": "first",
                   "time_control": three_days(), "vacation_allowed": false}),
        )
        .await
        .expect(StatusCode::CREATED)["id"]
        .as_i64()
        .unwrap();
    let game = app.accept(&bob, id).await;
    app.post("/api/vacation", Some(&alice), json!({"days": 10})).await.expect(StatusCode::OK);
    app.clock.advance(Duration::days(3) + Duration::minutes(1));
    assert_eq!(app.sweep().await, vec![game]);
}

#[tokio::test]
async fn a_restart_gives_nobody_free_time() {
    let app = TestApp::spawn_fake().await;
    let alice = app.register("alice").await;
    let bob = app.register("bob").await;
    let game = app.start_game("xiangqi", &alice, &bob, three_days()).await;
    app.post_move(&alice, game, "m1", 0).await.expect(StatusCode::CREATED);
    // The server is down for four days; a new instance starts on the same database.
    app.clock.advance(Duration::days(4));
    let restarted =
        TestApp::spawn_on(&app.database_url, app.clock.clone(), Some(Arc::new(FakeRules::default()))).await;
    assert_eq!(restarted.sweep().await, vec![game]);
    let state = restarted.game(game).await;
    assert_eq!(state["result"], "1-0", "bob ran out of time while the server was down");
}
