//! Correspondence clocks: the timeout sweep (with an injectable clock), Fischer
//! increments, vacation, restarts.

use reqwest::StatusCode;
use serde_json::json;
use time::Duration;

use crate::support::{three_days, TestApp};

const DAY: i64 = 86_400;

#[tokio::test]
async fn a_game_is_lost_on_time_once_the_deadline_has_passed_and_not_before() {
    let app = TestApp::spawn().await;
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
    let app = TestApp::spawn().await;
    let alice = app.register("alice").await;
    let bob = app.register("bob").await;
    let game = app.start_game("xiangqi", &alice, &bob, three_days()).await;
    app.clock.advance(Duration::days(4));
    let late = app.post_move(&alice, game, "h2e2", 0).await;
    late.expect(StatusCode::CONFLICT);
    assert!(late.detail().contains("time"), "{}", late.detail());
    assert_eq!(app.stored_moves(game).await, 0);
}

#[tokio::test]
async fn on_time_a_side_that_cannot_possibly_win_only_draws() {
    let app = TestApp::spawn().await;
    let alice = app.register("alice").await;
    let bob = app.register("bob").await;
    // Bare kings: bob, who would win on alice's time, has nothing left to mate with.
    let bare_kings = "4k4/9/9/9/9/9/9/9/9/3K5 w - - 0 1";
    let game = app
        .start_game_with(
            &alice,
            &bob,
            json!({"variant": "xiangqi", "start_position": bare_kings, "time_control": three_days()}),
        )
        .await;
    assert_eq!(app.game(game).await["start_position"], bare_kings);
    app.clock.advance(Duration::days(4));
    assert_eq!(app.sweep().await, vec![game]);
    let state = app.game(game).await;
    assert_eq!(state["result"], "1/2-1/2");
    assert_eq!(state["reason"], "timeout-insufficient-material");
}

#[tokio::test]
async fn a_fischer_clock_adds_the_increment_up_to_the_cap() {
    let app = TestApp::spawn().await;
    let alice = app.register("alice").await;
    let bob = app.register("bob").await;
    let fischer = json!({"kind": "fischer", "initial_days": 30, "increment_days": 3, "cap_days": 45});
    let game = app.start_game("shogi", &alice, &bob, fischer).await;
    app.clock.advance(Duration::days(1));
    // Fourteen pawn steps, no position repeated.
    let moves = [
        "7g7f", "3c3d", "2g2f", "8c8d", "6g6f", "4c4d", "1g1f", "9c9d", "9g9f", "1c1d", "5g5f", "5c5d",
        "4g4f", "6c6d",
    ];
    let state = app.post_move(&alice, game, moves[0], 0).await;
    let body = state.expect(StatusCode::CREATED);
    assert_eq!(body["seats"][0]["remaining_seconds"], 32 * DAY, "30 - 1 + 3 days");
    for (ply, text) in moves.iter().enumerate().skip(1) {
        let mover = if ply % 2 == 0 { &alice } else { &bob };
        app.post_move(mover, game, text, ply as i64).await.expect(StatusCode::CREATED);
    }
    let state = app.game(game).await;
    assert_eq!(state["seats"][0]["remaining_seconds"], 45 * DAY, "capped at 45 days");
}

#[tokio::test]
async fn moves_in_days_carries_the_saved_time_forward() {
    let app = TestApp::spawn().await;
    let alice = app.register("alice").await;
    let bob = app.register("bob").await;
    let control = json!({"kind": "moves-in-days", "moves": 2, "days": 10});
    let game = app.start_game("minishogi", &alice, &bob, control).await;
    app.clock.advance(Duration::days(1));
    app.post_move(&alice, game, "5d5c", 0).await.expect(StatusCode::CREATED);
    app.post_move(&bob, game, "1b1c", 1).await.expect(StatusCode::CREATED);
    app.clock.advance(Duration::days(1));
    let body = app.post_move(&alice, game, "4e4d", 2).await.expect(StatusCode::CREATED).clone();
    assert_eq!(body["seats"][0]["remaining_seconds"], 18 * DAY, "10 - 2 days used + 10 new after two moves");
}

#[tokio::test]
async fn leave_stops_the_clock_and_comes_out_of_the_yearly_allowance() {
    let app = TestApp::spawn().await;
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
    let app = TestApp::spawn().await;
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
    let app = TestApp::spawn().await;
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
    let app = TestApp::spawn().await;
    let alice = app.register("alice").await;
    let bob = app.register("bob").await;
    let game = app.start_game("xiangqi", &alice, &bob, three_days()).await;
    app.post_move(&alice, game, "h2e2", 0).await.expect(StatusCode::CREATED);
    // The server is down for four days; a new instance starts on the same database.
    app.clock.advance(Duration::days(4));
    let restarted = TestApp::spawn_on(&app.database_url, app.clock.clone()).await;
    assert_eq!(restarted.sweep().await, vec![game]);
    let state = restarted.game(game).await;
    assert_eq!(state["result"], "1-0", "bob ran out of time while the server was down");
}
