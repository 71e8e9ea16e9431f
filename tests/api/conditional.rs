//! Conditional moves (#17 §3): lines entered while the opponent is to move, played in the
//! opponent's move's transaction, cleared by a deviation, refused by a law, private.

use reqwest::StatusCode;
use serde_json::{json, Value};
use time::Duration;

use crate::support::{three_days, TestApp, User};

/// Moves in 30 days: unused time carries over, so a charge shows on the clock.
fn thirty_days() -> Value {
    json!({"kind": "moves-in-days", "moves": 10, "days": 30})
}

fn lines_path(game: i64) -> String {
    format!("/api/games/{game}/conditional-moves")
}

async fn lines_of(app: &TestApp, user: &User, game: i64) -> Vec<Value> {
    app.get(&lines_path(game), Some(user)).await.expect(StatusCode::OK).as_array().unwrap().clone()
}

async fn enter(app: &TestApp, user: &User, game: i64, moves: &[&str]) -> crate::support::Reply {
    app.post(&lines_path(game), Some(user), json!({ "moves": moves })).await
}

/// `(kind, details)` of the notifications of `name`, oldest first.
async fn notifications_of(app: &TestApp, name: &str) -> Vec<(String, Value)> {
    sqlx::query_as(
        "select n.kind, n.details from notification n join account a on a.account_id = n.account_id
         where a.username = $1 order by n.notification_id",
    )
    .bind(name)
    .fetch_all(&app.domain.pool)
    .await
    .unwrap()
}

async fn line_rows(app: &TestApp, game: i64) -> i64 {
    sqlx::query_scalar("select count(*) from conditional_line where game_id = $1")
        .bind(game)
        .fetch_one(&app.domain.pool)
        .await
        .unwrap()
}

/// A correspondence Xiangqi game where alice (Red) has played h2e2: bob to move.
async fn game_after_red_opens(app: &TestApp, alice: &User, bob: &User) -> i64 {
    let game = app.start_game("xiangqi", alice, bob, thirty_days()).await;
    app.post_move(alice, game, "h2e2", 0).await.expect(StatusCode::CREATED);
    game
}

#[tokio::test]
async fn a_matching_line_is_played_at_once_and_advances() {
    let app = TestApp::spawn().await;
    let alice = app.register("alice").await;
    let bob = app.register("bob").await;
    let game = game_after_red_opens(&app, &alice, &bob).await;
    // Notations as everywhere in the API: WXF is read too, answered canonical.
    let entered = enter(&app, &alice, game, &["h9g7", "H2+3", "i9h9", "i0h0"]).await;
    let line = entered.expect(StatusCode::CREATED).clone();
    assert_eq!(line["moves"], json!(["h9g7", "h0g2", "i9h9", "i0h0"]));
    assert_eq!(line["ply"], 1);
    assert_eq!(line["display"].as_array().unwrap().len(), 4);
    let before = app.game(game).await["seats"][0]["remaining_ms"].as_i64().unwrap();

    app.clock.advance(Duration::hours(5));
    let view = app.post_move(&bob, game, "h9g7", 1).await.expect(StatusCode::CREATED).clone();
    assert_eq!(view["ply"], 3, "bob's move and alice's reply");
    assert_eq!(view["moves"][2]["canonical"], "h0g2");
    assert_eq!(view["moves"][2]["played_at"], view["moves"][1]["played_at"], "replied at that instant");
    assert_eq!(view["seats"][0]["remaining_ms"].as_i64().unwrap(), before, "the reply cost alice nothing");
    assert_eq!(view["to_move"], "bob");
    assert_eq!(app.stored_moves(game).await, 3);
    let left = lines_of(&app, &alice, game).await;
    assert_eq!(left.len(), 1);
    assert_eq!(left[0]["moves"], json!(["i9h9", "i0h0"]), "the line advanced");
    assert_eq!(left[0]["ply"], 3);

    let told = notifications_of(&app, "alice").await;
    assert!(!told.iter().any(|(kind, _)| kind == "your-move"), "alice was not to move: {told:?}");
    let (_, details) = told.iter().find(|(kind, _)| kind == "conditional-move").expect("alice told");
    assert_eq!(details["played"], true);
    assert_eq!(details["lines_left"], 1);
    let bob_told = notifications_of(&app, "bob").await;
    assert!(bob_told.iter().any(|(kind, d)| kind == "your-move" && d["ply"] == 3), "{bob_told:?}");

    // The second pair ends the line.
    let view = app.post_move(&bob, game, "i9h9", 3).await.expect(StatusCode::CREATED).clone();
    assert_eq!(view["ply"], 5);
    assert_eq!(view["moves"][4]["canonical"], "i0h0");
    assert!(lines_of(&app, &alice, game).await.is_empty(), "played to its end");
    assert_eq!(line_rows(&app, game).await, 0);
    // Alice plays on by hand, and the fast path is back (no lines left).
    app.post_move(&bob, game, "b9c7", 5).await.expect(StatusCode::CREATED);
    app.post_move(&alice, game, "b0c2", 6).await.expect(StatusCode::CREATED);
}

#[tokio::test]
async fn a_deviating_move_clears_every_line_of_the_waiting_player() {
    let app = TestApp::spawn().await;
    let alice = app.register("alice").await;
    let bob = app.register("bob").await;
    let game = game_after_red_opens(&app, &alice, &bob).await;
    enter(&app, &alice, game, &["h9g7", "h0g2"]).await.expect(StatusCode::CREATED);
    enter(&app, &alice, game, &["b9c7", "b0c2"]).await.expect(StatusCode::CREATED);
    // Sharing the first pair agrees; answering h9g7 otherwise contradicts.
    enter(&app, &alice, game, &["h9g7", "h0g2", "i9h9", "i0h0"]).await.expect(StatusCode::CREATED);
    let contradicting = enter(&app, &alice, game, &["h9g7", "b0c2"]).await;
    contradicting.expect(StatusCode::CONFLICT);
    assert_eq!(contradicting.code(), "conditional.contradicts");
    assert_eq!(lines_of(&app, &alice, game).await.len(), 3);

    let view = app.post_move(&bob, game, "c6c5", 1).await.expect(StatusCode::CREATED).clone();
    assert_eq!(view["ply"], 2, "no reply");
    assert_eq!(view["to_move"], "alice");
    assert!(lines_of(&app, &alice, game).await.is_empty());
    assert_eq!(line_rows(&app, game).await, 0);
    let told = notifications_of(&app, "alice").await;
    assert!(told.iter().any(|(kind, d)| kind == "your-move" && d["ply"] == 2), "{told:?}");
    assert!(!told.iter().any(|(kind, _)| kind == "conditional-move"));
}

#[tokio::test]
async fn a_reply_that_would_lose_by_a_law_is_not_played_and_its_owner_is_told() {
    let app = TestApp::spawn().await;
    let alice = app.register("alice").await;
    let bob = app.register("bob").await;
    let lone_rook = "4k4/9/9/9/9/9/9/9/9/3K4R w - - 0 1";
    let game = app
        .start_game_with(
            &alice,
            &bob,
            json!({"variant": "xiangqi", "start_position": lone_rook, "time_control": three_days()}),
        )
        .await;
    // The rook checks, the king steps up and back (as in games::a_dry_run_...): the
    // seventh consecutive check by one piece loses (xiangqi.md, CXQ).
    let moves = ["i0i9", "e9e8", "i9i8", "e8e9", "i8i9", "e9e8", "i9i8", "e8e9", "i8i9", "e9e8", "i9i8"];
    for (ply, text) in moves.iter().enumerate() {
        let mover = if ply % 2 == 0 { &alice } else { &bob };
        app.post_move(mover, game, text, ply as i64).await.expect(StatusCode::CREATED);
    }
    // Legal when entered (the law is applied when the reply would be played).
    enter(&app, &alice, game, &["e8e9", "i8i9"]).await.expect(StatusCode::CREATED);
    let view = app.post_move(&bob, game, "e8e9", 11).await.expect(StatusCode::CREATED).clone();
    assert_eq!(view["ply"], 12, "the reply was not played");
    assert_eq!(view["status"], "active");
    assert_eq!(view["to_move"], "alice");
    assert!(lines_of(&app, &alice, game).await.is_empty(), "the lines went");
    let told = notifications_of(&app, "alice").await;
    let (_, details) = told.iter().find(|(kind, _)| kind == "conditional-move").expect("alice told");
    assert_eq!(details["played"], false);
    assert!(details["why"].as_str().unwrap().contains("perpetual check"), "{details}");
    assert!(told.iter().any(|(kind, d)| kind == "your-move" && d["ply"] == 12), "{told:?}");
}

#[tokio::test]
async fn two_instances_racing_on_the_opponents_move_play_the_reply_once() {
    let app = TestApp::spawn().await;
    let other = TestApp::spawn_on(&app.database_url, app.clock.clone()).await;
    let alice = app.register("alice").await;
    let bob = app.register("bob").await;
    let game = game_after_red_opens(&app, &alice, &bob).await;
    let line = ["h9g7", "h0g2", "i9h9", "i0h0", "b9c7", "b0c2"];
    enter(&other, &alice, game, &line).await.expect(StatusCode::CREATED);
    for (round, ply) in [1_i64, 3, 5].into_iter().enumerate() {
        let theirs = line[round * 2];
        let (a, b) =
            tokio::join!(app.post_move(&bob, game, theirs, ply), other.post_move(&bob, game, theirs, ply));
        let won = [&a, &b].iter().filter(|r| r.status == StatusCode::CREATED).count();
        assert_eq!(won, 1, "round {round}: one move stored ({:?} / {:?})", a.status, b.status);
        for reply in [&a, &b].into_iter().filter(|r| r.status != StatusCode::CREATED) {
            reply.expect(StatusCode::CONFLICT);
        }
        assert_eq!(app.stored_moves(game).await, ply + 2, "round {round}: the reply stored once");
    }
    let view = other.game(game).await;
    let canonical: Vec<&str> =
        view["moves"].as_array().unwrap().iter().map(|m| m["canonical"].as_str().unwrap()).collect();
    assert_eq!(canonical, ["h2e2", "h9g7", "h0g2", "i9h9", "i0h0", "b9c7", "b0c2"]);
    let played = notifications_of(&app, "alice").await.into_iter().filter(|(k, _)| k == "conditional-move");
    assert_eq!(played.count(), 3, "one notification per reply");
    // Both instances go on with the game from their copies.
    other.post_move(&bob, game, "c6c5", 7).await.expect(StatusCode::CREATED);
    app.post_move(&alice, game, "c3c4", 8).await.expect(StatusCode::CREATED);
}

#[tokio::test]
async fn lines_are_private_to_their_owner() {
    let app = TestApp::spawn().await;
    let alice = app.register("alice").await;
    let bob = app.register("bob").await;
    let carol = app.register("carol").await;
    let game = game_after_red_opens(&app, &alice, &bob).await;
    let line = enter(&app, &alice, game, &["h9g7", "h0g2"]).await.expect(StatusCode::CREATED).clone();
    let id = line["id"].as_i64().unwrap();

    assert!(lines_of(&app, &bob, game).await.is_empty(), "the opponent sees only their own");
    let stranger = app.get(&lines_path(game), Some(&carol)).await;
    stranger.expect(StatusCode::FORBIDDEN);
    assert!(stranger.body["errors"][0]["detail"].is_string(), "the one error shape");
    app.get(&lines_path(game), None).await.expect(StatusCode::UNAUTHORIZED);
    app.get(&lines_path(game + 100), Some(&alice)).await.expect(StatusCode::NOT_FOUND);
    // Nobody but alice deletes it; the game's view says nothing of it.
    app.delete(&format!("{}/{id}", lines_path(game)), Some(&bob)).await.expect(StatusCode::NOT_FOUND);
    app.delete(&format!("{}/{id}", lines_path(game)), Some(&carol)).await.expect(StatusCode::FORBIDDEN);
    app.delete(&lines_path(game), Some(&bob)).await.expect(StatusCode::NO_CONTENT);
    assert_eq!(line_rows(&app, game).await, 1);
    let public = app.get_text(&format!("/api/games/{game}")).await;
    assert!(!public.contains("h0g2"), "the public view shows no line");
    app.delete(&format!("{}/{id}", lines_path(game)), Some(&alice)).await.expect(StatusCode::NO_CONTENT);
    assert_eq!(line_rows(&app, game).await, 0);
}

#[tokio::test]
async fn bad_lines_are_refused_and_change_nothing() {
    let app = TestApp::spawn().await;
    let alice = app.register("alice").await;
    let bob = app.register("bob").await;
    let carol = app.register("carol").await;
    let game = game_after_red_opens(&app, &alice, &bob).await;
    let cases: [(&User, Value, StatusCode, &str); 8] = [
        (&alice, json!({"moves": ["h9g7", "h0h9"]}), StatusCode::UNPROCESSABLE_ENTITY, "an illegal reply"),
        (
            &alice,
            json!({"moves": ["a0a1", "h0g2"]}),
            StatusCode::UNPROCESSABLE_ENTITY,
            "not the opponent's move",
        ),
        (&alice, json!({"moves": ["h9g7"]}), StatusCode::UNPROCESSABLE_ENTITY, "no reply"),
        (&alice, json!({"moves": ["h9g7", "zz"]}), StatusCode::UNPROCESSABLE_ENTITY, "unreadable"),
        (&alice, json!({"moves": ["h9g7", "h0g2"], "ply": 0}), StatusCode::CONFLICT, "a stale ply"),
        (&bob, json!({"moves": ["h0g2", "h9g7"]}), StatusCode::CONFLICT, "bob is to move"),
        (&carol, json!({"moves": ["h9g7", "h0g2"]}), StatusCode::FORBIDDEN, "not carol's game"),
        (&alice, json!({"moves": "h9g7 h0g2"}), StatusCode::UNPROCESSABLE_ENTITY, "not a list"),
    ];
    for (user, body, status, why) in cases {
        let reply = app.post(&lines_path(game), Some(user), body).await;
        assert_eq!(reply.status, status, "{why}: {:?}", reply.body);
        assert!(reply.body["errors"][0]["detail"].is_string(), "{why}: the one error shape");
    }
    assert_eq!(line_rows(&app, game).await, 0);
    let live = app
        .start_game(
            "xiangqi",
            &alice,
            &bob,
            json!({"kind": "live-fischer", "base_seconds": 300, "increment_seconds": 5}),
        )
        .await;
    app.post_move(&alice, live, "h2e2", 0).await.expect(StatusCode::CREATED);
    let refused = enter(&app, &alice, live, &["h9g7", "h0g2"]).await;
    assert_eq!((refused.status, refused.code()), (StatusCode::UNPROCESSABLE_ENTITY, "conditional.live"));
    app.post(&lines_path(game + 100), Some(&alice), json!({"moves": ["h9g7", "h0g2"]}))
        .await
        .expect(StatusCode::NOT_FOUND);
    app.act(Some(&bob), game, "resign").await.expect(StatusCode::OK);
    let over = enter(&app, &alice, game, &["h9g7", "h0g2"]).await;
    over.expect(StatusCode::CONFLICT);
    assert_eq!(over.code(), "game-over");
    assert_eq!(line_rows(&app, game).await, 0);
    assert!(lines_of(&app, &alice, game).await.is_empty());
}

#[tokio::test]
async fn the_next_moves_of_a_line_being_entered_are_offered() {
    let app = TestApp::spawn().await;
    let alice = app.register("alice").await;
    let bob = app.register("bob").await;
    let game = game_after_red_opens(&app, &alice, &bob).await;
    let next = |line: &str| format!("{}/next?line={}", lines_path(game), line);
    let theirs = app.get(&next(""), Some(&alice)).await.expect(StatusCode::OK).clone();
    assert_eq!(theirs["reply"], false);
    assert!(theirs["next"].as_array().unwrap().contains(&json!("h9g7")), "{theirs}");
    let mine = app.get(&next("H8%2B7"), Some(&alice)).await.expect(StatusCode::OK).clone();
    assert_eq!(mine["line"], json!(["h9g7"]), "WXF read, answered canonical");
    assert_eq!(mine["reply"], true);
    assert!(mine["next"].as_array().unwrap().contains(&json!("h0g2")), "{mine}");
    app.get(&next("zz"), Some(&alice)).await.expect(StatusCode::UNPROCESSABLE_ENTITY);
    app.get(&next(""), Some(&bob)).await.expect(StatusCode::CONFLICT);
}
