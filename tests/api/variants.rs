//! The whole correspondence flow of each variant through the REST API, with the real
//! rules: challenge, accept, moves in several notations, illegal moves, dry runs, the end.

use reqwest::StatusCode;
use serde_json::{json, Value};

use crate::support::{three_days, TestApp, User};

async fn play(app: &TestApp, game: i64, players: [&User; 2], moves: &[&str]) -> Value {
    let mut state = Value::Null;
    for (ply, text) in moves.iter().enumerate() {
        let mover = players[ply % 2];
        let reply = app.post_move(mover, game, text, ply as i64).await;
        state = reply.expect(StatusCode::CREATED).clone();
        assert_eq!(state["ply"], ply as i64 + 1, "after {text}");
    }
    state
}

#[tokio::test]
async fn a_xiangqi_game_through_the_api() {
    let app = TestApp::spawn().await;
    let red = app.register("red").await;
    let black = app.register("black").await;
    let game = app.start_game("xiangqi", &red, &black, three_days()).await;
    let start = app.game(game).await;
    assert_eq!(start["legal_moves"].as_array().unwrap().len(), 44, "xiangqi start position");
    assert_eq!(start["side_to_move"], "first");

    let illegal = app.post_move(&red, game, "a0a5", 0).await;
    illegal.expect(StatusCode::UNPROCESSABLE_ENTITY);
    assert!(illegal.detail().contains("a0a5"), "the rules' reason names the move: {}", illegal.detail());
    app.post_move(&red, game, "Z9=9", 0).await.expect(StatusCode::UNPROCESSABLE_ENTITY);

    // WXF, then ICCS: both stored as ICCS, shown in WXF.
    let state = play(&app, game, [&red, &black], &["C2=5", "h9g7", "h0g2", "i9h9"]).await;
    assert_eq!(state["moves"][0]["canonical"], "h2e2");
    assert_eq!(state["moves"][0]["display"], "C2=5");
    assert_eq!(state["display_notation"], "wxf");
    assert_eq!(state["side_to_move"], "first");
    let check =
        app.post(&format!("/api/games/{game}/moves/check"), Some(&red), json!({"move": "e2e6"})).await;
    assert_eq!(check.expect(StatusCode::OK)["canonical"], "e2e6");
    let resigned = app.act(Some(&black), game, "resign").await;
    let body = resigned.expect(StatusCode::OK);
    assert_eq!(body["result"], "1-0");
    assert_eq!(app.stored_moves(game).await, 4);
}

#[tokio::test]
async fn a_shogi_game_through_the_api() {
    let app = TestApp::spawn().await;
    let sente = app.register("sente").await;
    let gote = app.register("gote").await;
    let game = app.start_game("shogi", &sente, &gote, three_days()).await;
    let start = app.game(game).await;
    assert_eq!(start["legal_moves"].as_array().unwrap().len(), 30, "shogi start position");
    assert_eq!(start["ruleset"], "shogi-24");

    app.post_move(&sente, game, "2b3c", 0).await.expect(StatusCode::UNPROCESSABLE_ENTITY);
    // Western, USI, a promoting capture, a recapture.
    let state = play(&app, game, [&sente, &gote], &["P-7f", "3c3d", "8h2b+", "3a2b"]).await;
    assert_eq!(state["moves"][0]["canonical"], "7g7f");
    assert_eq!(state["moves"][0]["display"], "P-7f");
    assert_eq!(state["moves"][2]["canonical"], "8h2b+");
    assert!(state["position"].as_str().unwrap().contains(' '), "an SFEN: {}", state["position"]);
    let drop =
        app.post(&format!("/api/games/{game}/moves/check"), Some(&sente), json!({"move": "B*5e"})).await;
    assert_eq!(drop.expect(StatusCode::OK)["canonical"], "B*5e", "the captured bishop can be dropped");
    app.act(Some(&sente), game, "draw/offer").await.expect(StatusCode::OK);
    let drawn = app.act(Some(&gote), game, "draw/accept").await;
    assert_eq!(drawn.expect(StatusCode::OK)["result"], "1/2-1/2");
}

#[tokio::test]
async fn a_minishogi_game_through_the_api() {
    let app = TestApp::spawn().await;
    let sente = app.register("sente").await;
    let gote = app.register("gote").await;
    let game = app.start_game("minishogi", &sente, &gote, three_days()).await;
    let mut state = app.game(game).await;
    assert_eq!(state["ruleset"], "aise");
    for ply in 0..6 {
        let legal: Vec<String> =
            serde_json::from_value(state["legal_moves"].clone()).expect("legal moves are strings");
        assert!(!legal.is_empty(), "moves left at ply {ply}");
        let mover = if ply % 2 == 0 { &sente } else { &gote };
        state = app.post_move(mover, game, &legal[0], ply).await.expect(StatusCode::CREATED).clone();
        if state["status"] != "active" {
            break;
        }
    }
    assert!(state["moves"][0]["display"].is_string(), "moves are shown in the display notation");
    assert_eq!(app.stored_moves(game).await, state["ply"].as_i64().unwrap());
    if state["status"] == "active" {
        let resigned = app.act(Some(&sente), game, "resign").await;
        assert_eq!(resigned.expect(StatusCode::OK)["result"], "0-1");
    }
}
