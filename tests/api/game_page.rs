//! What the player's game page asks of the API (issue 37): the analysis board's stateless
//! legal moves and their limits, the rematch, and live clocks that start with each side's
//! first move, a game without a first move in time aborted, a flag that fell at 0.

use std::time::Duration;

use reqwest::StatusCode;
use serde_json::{json, Value};

use crate::support::{three_days, TestApp};

fn blitz() -> Value {
    json!({"kind": "live-fischer", "base_seconds": 180, "increment_seconds": 2})
}

#[tokio::test]
async fn legal_moves_come_from_the_rules_for_any_position_and_variation() {
    let app = TestApp::spawn().await;
    let start = app.post("/api/positions/legal-moves", None, json!({"variant": "shogi"})).await;
    let start = start.expect(StatusCode::OK);
    assert_eq!(start["legal_moves"].as_array().unwrap().len(), 30, "{start}");
    assert_eq!(start["side_to_move"], "first");
    // Any notation; the answer is canonical and in the display notation.
    let body = json!({"variant": "shogi", "moves": ["P-7f", "３四歩", "8h2b+"]});
    let after = app.post("/api/positions/legal-moves", None, body).await.expect(StatusCode::OK).clone();
    assert_eq!(after["moves"], json!(["7g7f", "3c3d", "8h2b+"]));
    assert_eq!(after["display"], json!(["P-7f", "P-3d", "Bx2b+"]));
    assert!(after["position"].as_str().unwrap().contains(" w B"), "sente holds the bishop: {after}");
    assert!(after["legal_moves"].as_array().unwrap().contains(&json!("3a2b")), "the silver takes back");
    // From a given position, to its end.
    let mate =
        json!({"variant": "xiangqi", "position": "3k5/8R/9/9/9/9/9/9/9/R3K4 w - - 0 1", "moves": ["a0a9"]});
    let ended = app.post("/api/positions/legal-moves", None, mate).await.expect(StatusCode::OK).clone();
    assert_eq!((ended["result"].as_str(), ended["reason"].as_str()), (Some("1-0"), Some("checkmate")));
    assert_eq!(ended["legal_moves"], json!([]));
    // Nothing was stored: no game exists.
    assert_eq!(app.get("/api/games?status=finished", None).await.expect(StatusCode::OK), &json!([]));
}

#[tokio::test]
async fn legal_moves_refuse_bad_questions_in_the_one_error_shape_and_bound_the_work() {
    let app = TestApp::spawn().await;
    let illegal = app
        .post("/api/positions/legal-moves", None, json!({"variant": "xiangqi", "moves": ["h2e2", "h2e2"]}))
        .await;
    illegal.expect(StatusCode::UNPROCESSABLE_ENTITY);
    assert!(
        illegal.code().starts_with("illegal-move.") || illegal.code().starts_with("notation."),
        "{}",
        illegal.code()
    );
    let unknown = app.post("/api/positions/legal-moves", None, json!({"variant": "chess"})).await;
    assert_eq!(
        unknown.expect(StatusCode::UNPROCESSABLE_ENTITY)["errors"][0]["code"],
        "setup.unknown-variant"
    );
    let position = app
        .post("/api/positions/legal-moves", None, json!({"variant": "shogi", "position": "no such sfen"}))
        .await;
    position.expect(StatusCode::UNPROCESSABLE_ENTITY);
    // At most 400 moves: a longer variation is refused before any move is played.
    let moves = vec!["h2e2"; 401];
    let long =
        app.post("/api/positions/legal-moves", None, json!({"variant": "xiangqi", "moves": moves})).await;
    assert_eq!(
        long.expect(StatusCode::UNPROCESSABLE_ENTITY)["errors"][0]["code"],
        "positions.too-many-moves"
    );
    // A body over 16 KiB is refused by its size, in the same shape.
    let padding = "x".repeat(20 * 1024);
    let big = app
        .post("/api/positions/legal-moves", None, json!({"variant": "xiangqi", "position": padding}))
        .await;
    let answer = big.expect(StatusCode::PAYLOAD_TOO_LARGE);
    assert!(answer["errors"][0]["detail"].is_string(), "{answer}");
    // The route is described like every route.
    let doc = app.get("/api/openapi.json", None).await.expect(StatusCode::OK).clone();
    let operation = &doc["paths"]["/api/positions/legal-moves"]["post"];
    assert!(operation.is_object(), "described");
    let request = &doc["components"]["schemas"]["LegalMovesRequest"];
    assert_eq!(request["properties"]["moves"]["maxItems"], 400, "{request}");
}

#[tokio::test]
async fn a_rematch_is_offered_with_the_settings_and_the_colours_swapped_and_accepted_by_asking_back() {
    let app = TestApp::spawn().await;
    let alice = app.register("alice").await;
    let bob = app.register("bob").await;
    let game = app.start_game("shogi", &alice, &bob, three_days()).await;
    let path = format!("/api/games/{game}/rematch");
    let early = app.post(&path, Some(&alice), json!({})).await;
    early.expect(StatusCode::CONFLICT);
    app.act(Some(&bob), game, "resign").await.expect(StatusCode::OK);
    let mallory = app.register("mallory").await;
    app.post(&path, Some(&mallory), json!({})).await.expect(StatusCode::FORBIDDEN);
    let offered = app.post(&path, Some(&alice), json!({})).await.expect(StatusCode::OK).clone();
    assert_eq!(offered["status"], "offered", "{offered}");
    let again = app.post(&path, Some(&alice), json!({})).await.expect(StatusCode::OK).clone();
    assert_eq!(again, offered, "one offer, however often asked");
    let challenge = app.get(&format!("/api/challenges/{}", offered["challenge_id"]), Some(&bob)).await;
    let challenge = challenge.expect(StatusCode::OK).clone();
    assert_eq!((challenge["opponent"].as_str(), challenge["color"].as_str()), (Some("bob"), Some("second")));
    assert_eq!(challenge["variant"], "shogi");
    let started = app.post(&path, Some(&bob), json!({})).await.expect(StatusCode::OK).clone();
    assert_eq!(started["status"], "started", "{started}");
    let rematch = app.game(started["game_id"].as_i64().unwrap()).await;
    assert_eq!(rematch["seats"][0]["username"], "bob", "colours swapped");
    assert_eq!(rematch["seats"][1]["username"], "alice");
    assert_eq!(rematch["time_control"], app.game(game).await["time_control"]);
    let after = app.post(&path, Some(&alice), json!({})).await.expect(StatusCode::OK).clone();
    assert_eq!(after["game_id"], started["game_id"], "asked after it started: that game");
}

/// Polls the game until it is no longer active (the live clock task runs every 100 ms).
async fn ended(app: &TestApp, game: i64) -> Value {
    for _ in 0..150 {
        let view = app.game(game).await;
        if view["status"] != "active" {
            return view;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    panic!("game {game} never ended");
}

#[tokio::test]
async fn a_live_clock_starts_with_each_sides_first_move() {
    let app = TestApp::spawn().await;
    let red = app.register("red").await;
    let black = app.register("black").await;
    let game = app.start_game("xiangqi", &red, &black, blitz()).await;
    let waiting = app.game(game).await;
    assert_eq!(waiting["awaits_first_move"], true, "{waiting}");
    // 20 seconds before Red's first move cost Red nothing (but the increment is added).
    app.clock.advance(time::Duration::seconds(20));
    let moved = app.post_move(&red, game, "h2e2", 0).await.expect(StatusCode::CREATED).clone();
    assert_eq!(moved["seats"][0]["remaining_ms"], 182_000, "{moved}");
    assert_eq!(moved["awaits_first_move"], true, "now Black's first move");
    app.clock.advance(time::Duration::seconds(25));
    let moved = app.post_move(&black, game, "h9g7", 1).await.expect(StatusCode::CREATED).clone();
    assert_eq!(moved["seats"][1]["remaining_ms"], 182_000, "{moved}");
    assert_eq!(moved["awaits_first_move"], false, "both sides moved: Red's clock runs");
    app.clock.advance(time::Duration::seconds(10));
    let moved = app.post_move(&red, game, "h0g2", 2).await.expect(StatusCode::CREATED).clone();
    assert_eq!(moved["seats"][0]["remaining_ms"], 174_000, "10 s charged, 2 s added: {moved}");
}

#[tokio::test]
async fn a_live_game_whose_first_move_does_not_come_in_time_is_aborted_not_lost() {
    let app = TestApp::spawn().await;
    let red = app.register("red").await;
    let black = app.register("black").await;
    // Red never moves.
    let game = app.start_game("xiangqi", &red, &black, blitz()).await;
    app.clock.advance(time::Duration::seconds(29));
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert_eq!(app.game(game).await["status"], "active", "the first-move time is 30 s");
    app.clock.advance(time::Duration::seconds(2));
    let view = ended(&app, game).await;
    assert_eq!((view["status"].as_str(), view["reason"].as_str()), (Some("aborted"), Some("aborted")));
    assert_eq!(view["result"], Value::Null, "nobody lost");
    // Black never answers.
    let game = app.start_game("xiangqi", &red, &black, blitz()).await;
    app.post_move(&red, game, "h2e2", 0).await.expect(StatusCode::CREATED);
    app.clock.advance(time::Duration::seconds(31));
    let view = ended(&app, game).await;
    assert_eq!(view["status"], "aborted", "{view}");
    assert_eq!(view["seats"][0]["outcome"], Value::Null);
    // A correspondence game keeps its clocks from the start.
    let game = app.start_game("xiangqi", &red, &black, three_days()).await;
    assert_eq!(app.game(game).await["awaits_first_move"], false);
}

#[tokio::test]
async fn a_flag_that_fell_leaves_nothing_on_its_clock() {
    let app = TestApp::spawn().await;
    let red = app.register("red").await;
    let black = app.register("black").await;
    let control = json!({"kind": "live-fischer", "base_seconds": 60, "increment_seconds": 0});
    let game = app.start_game("xiangqi", &red, &black, control).await;
    app.post_move(&red, game, "h2e2", 0).await.expect(StatusCode::CREATED);
    app.post_move(&black, game, "h9g7", 1).await.expect(StatusCode::CREATED);
    app.clock.advance(time::Duration::seconds(61));
    let view = ended(&app, game).await;
    assert_eq!((view["result"].as_str(), view["reason"].as_str()), (Some("0-1"), Some("timeout")));
    assert_eq!(view["seats"][0]["remaining_ms"], 0, "Red's flag fell: {view}");
    assert_eq!(view["seats"][1]["remaining_ms"], 60_000, "Black's clock as it was");
}
