//! Several instances on one database: each keeps copies (of games after its moves, of
//! checked tokens) and nothing another instance did may be lost or ignored because of
//! them. A move is played on the copy only while the stored game is still at the copy's
//! revision (server/domain/games/moves.rs, `submit_move`); a revoked token is forgotten by
//! every instance at once.

use std::time::{Duration as StdDuration, Instant};

use reqwest::StatusCode;
use serde_json::json;
use time::Duration;

use crate::support::{three_days, TestApp, User};

/// Two instances on one database and a Xiangqi game where alice (first) and bob played
/// one move each on the first instance, which therefore keeps a copy of the game.
async fn game_copied_by_the_first(app: &TestApp) -> (TestApp, User, User, i64) {
    let other = TestApp::spawn_on(&app.database_url, app.clock.clone()).await;
    let alice = app.register("alice").await;
    let bob = app.register("bob").await;
    let game = app.start_game("xiangqi", &alice, &bob, three_days()).await;
    app.post_move(&alice, game, "h2e2", 0).await.expect(StatusCode::CREATED);
    app.post_move(&bob, game, "h9g7", 1).await.expect(StatusCode::CREATED);
    (other, alice, bob, game)
}

#[tokio::test]
async fn a_resignation_on_another_instance_stops_a_move_played_on_the_copy() {
    let app = TestApp::spawn().await;
    let (other, alice, bob, game) = game_copied_by_the_first(&app).await;
    other.act(Some(&bob), game, "resign").await.expect(StatusCode::OK);
    let late = app.post_move(&alice, game, "h0g2", 2).await;
    late.expect(StatusCode::CONFLICT);
    assert!(late.detail().contains("over"), "{}", late.detail());
    assert_eq!(app.stored_moves(game).await, 2);
    let state = app.game(game).await;
    assert_eq!(state["status"], "finished");
    assert_eq!(state["result"], "1-0");
}

#[tokio::test]
async fn a_draw_offer_made_on_another_instance_survives_the_offerers_move_on_the_copy() {
    let app = TestApp::spawn().await;
    let (other, alice, _bob, game) = game_copied_by_the_first(&app).await;
    other.act(Some(&alice), game, "draw/offer").await.expect(StatusCode::OK);
    let moved = app.post_move(&alice, game, "h0g2", 2).await;
    assert_eq!(moved.expect(StatusCode::CREATED)["draw_offer_seat"], 0, "the offer stands until bob moves");
    assert_eq!(app.game(game).await["draw_offer_seat"], 0);
}

#[tokio::test]
async fn leave_taken_after_the_copy_was_made_counts_in_the_next_deadline() {
    let app = TestApp::spawn().await;
    let (other, alice, bob, game) = game_copied_by_the_first(&app).await;
    // Bob is not to move: his leave changes no stored deadline, only the next one.
    other.post("/api/vacation", Some(&bob), json!({"days": 10})).await.expect(StatusCode::OK);
    let moved = app.post_move(&alice, game, "h0g2", 2).await.expect(StatusCode::CREATED).clone();
    let fresh = app.game(game).await;
    assert_eq!(moved["deadline"], fresh["deadline"], "the move's answer counts the leave as a read does");
    app.clock.advance(Duration::days(4));
    assert!(app.sweep().await.is_empty(), "3 days to move, 10 of them on leave");
    app.clock.advance(Duration::days(10));
    assert_eq!(app.sweep().await, vec![game], "13 days later bob has run out");
}

#[tokio::test]
async fn moves_alternate_between_instances_and_the_copies_catch_up() {
    let app = TestApp::spawn().await;
    let (other, alice, bob, game) = game_copied_by_the_first(&app).await;
    let moves = ["h0g2", "i9h9", "i0h0", "b9c7", "b2c2", "h7h3"];
    for (i, text) in moves.iter().enumerate() {
        let (instance, player) = match i % 4 {
            0 => (&other, &alice),
            1 => (&other, &bob),
            2 => (&app, &alice),
            _ => (&app, &bob),
        };
        let ply = 2 + i as i64;
        instance.post_move(player, game, text, ply).await.expect(StatusCode::CREATED);
        // The instance that did not store this move is one ply behind: stale for both.
        let idle = if std::ptr::eq(instance, &app) { &other } else { &app };
        let other_player = if std::ptr::eq(player, &alice) { &bob } else { &alice };
        idle.post_move(other_player, game, "a9a8", ply).await.expect(StatusCode::CONFLICT);
    }
    assert_eq!(app.stored_moves(game).await, 8);
    assert_eq!(app.game(game).await["moves"], other.game(game).await["moves"]);
}

#[tokio::test]
async fn a_token_revoked_on_one_instance_is_refused_by_the_others_at_once() {
    let app = TestApp::spawn().await;
    let other = TestApp::spawn_on(&app.database_url, app.clock.clone()).await;
    let alice = app.register("alice").await;
    // Both instances have checked (and keep) the token.
    app.get("/api/accounts/me", Some(&alice)).await.expect(StatusCode::OK);
    other.get("/api/accounts/me", Some(&alice)).await.expect(StatusCode::OK);
    assert_eq!(other.revoke_token(&alice).await, StatusCode::NO_CONTENT);
    other.get("/api/accounts/me", Some(&alice)).await.expect(StatusCode::UNAUTHORIZED);
    // The first instance hears of it by NOTIFY, long before its copy would expire.
    let started = Instant::now();
    loop {
        let status = app.get("/api/accounts/me", Some(&alice)).await.status;
        if status == StatusCode::UNAUTHORIZED {
            break;
        }
        assert_eq!(status, StatusCode::OK);
        assert!(started.elapsed() < StdDuration::from_secs(5), "the revoked token is still accepted");
        tokio::time::sleep(StdDuration::from_millis(20)).await;
    }
}

/// The revision the fast path relies on: a move bumps it by exactly one (the move's
/// statement sets it, the trigger stays out of its way), and any other change of the game
/// row, even one that does not mention it, bumps it too (migration 001000).
#[tokio::test]
async fn every_change_of_a_game_row_bumps_its_revision_once() {
    let app = TestApp::spawn().await;
    let (_other, alice, _bob, game) = game_copied_by_the_first(&app).await;
    let revision = || async {
        sqlx::query_scalar::<_, i64>("select revision from game where game_id = $1")
            .bind(game)
            .fetch_one(&app.domain.pool)
            .await
            .unwrap()
    };
    let before = revision().await;
    app.post_move(&alice, game, "h0g2", 2).await.expect(StatusCode::CREATED);
    assert_eq!(revision().await, before + 1, "a move");
    app.act(Some(&alice), game, "draw/offer").await.expect(StatusCode::OK);
    assert_eq!(revision().await, before + 2, "a draw offer");
    sqlx::query("update game set vacation_allowed = vacation_allowed where game_id = $1")
        .bind(game)
        .execute(&app.domain.pool)
        .await
        .unwrap();
    assert_eq!(revision().await, before + 3, "an update that leaves the revision alone");
}
