//! The game flow through the REST API with the real rules (Xiangqi unless said otherwise): turns, plies, errors that
//! store nothing, dry runs, resignation, draws, abort, the game list, authorization.

use reqwest::StatusCode;
use serde_json::json;

use crate::support::{three_days, TestApp, User};

async fn game_between(app: &TestApp) -> (User, User, i64) {
    let alice = app.register("alice").await;
    let bob = app.register("bob").await;
    let game = app.start_game("xiangqi", &alice, &bob, three_days()).await;
    (alice, bob, game)
}

#[tokio::test]
async fn players_alternate_and_each_move_is_stored_with_its_display_form() {
    let app = TestApp::spawn().await;
    let (alice, bob, game) = game_between(&app).await;
    let state = app.post_move(&alice, game, "h2e2", 0).await;
    let body = state.expect(StatusCode::CREATED);
    assert_eq!(body["ply"], 1);
    assert_eq!(body["to_move"], "bob");
    assert_eq!(body["side_to_move"], "second");
    assert_eq!(body["moves"][0]["display"], "C2=5", "shown in WXF");
    app.post_move(&bob, game, "H8+7", 1).await.expect(StatusCode::CREATED);
    let state = app.game(game).await;
    assert_eq!(state["ply"], 2);
    assert_eq!(state["moves"][1]["canonical"], "h9g7", "stored in the canonical notation (ICCS)");
    assert_eq!(state["moves"][1]["display"], "h8+7", "WXF, Black in lower case");
    assert_eq!(state["moves"][1]["seat"], 1);
    assert_eq!(state["moves"][1]["turn_number"], 2);
    let position = state["position"].as_str().unwrap();
    assert!(position.starts_with("rnbakab1r/9/1c4nc1/"), "{position}");
    assert!(position.contains("/1C2C4/"), "{position}");
    assert!(state["legal_moves"].as_array().unwrap().contains(&json!("e2e6")), "the cannon takes the pawn");
    assert!(state["deadline"].is_string());
    assert_eq!(app.stored_moves(game).await, 2);
}

#[tokio::test]
async fn a_stale_ply_is_a_conflict_and_stores_nothing() {
    let app = TestApp::spawn().await;
    let (alice, bob, game) = game_between(&app).await;
    app.post_move(&alice, game, "h2e2", 0).await.expect(StatusCode::CREATED);
    let stale = app.post_move(&bob, game, "h9g7", 0).await;
    stale.expect(StatusCode::CONFLICT);
    assert!(stale.detail().contains("stale"), "{}", stale.detail());
    assert_eq!(stale.code(), "move.stale-ply");
    app.post_move(&bob, game, "h9g7", 5).await.expect(StatusCode::CONFLICT);
    assert_eq!(app.stored_moves(game).await, 1);
}

#[tokio::test]
async fn moving_out_of_turn_is_a_conflict_and_stores_nothing() {
    let app = TestApp::spawn().await;
    let (_alice, bob, game) = game_between(&app).await;
    let reply = app.post_move(&bob, game, "h9g7", 0).await;
    reply.expect(StatusCode::CONFLICT);
    assert!(reply.detail().contains("not your turn"), "{}", reply.detail());
    assert_eq!(reply.code(), "move.not-your-turn");
    assert_eq!(app.stored_moves(game).await, 0);
}

#[tokio::test]
async fn illegal_and_unreadable_moves_are_422_with_the_rules_code_and_a_sentence_and_store_nothing() {
    let app = TestApp::spawn().await;
    let (alice, _bob, game) = game_between(&app).await;
    let illegal = app.post_move(&alice, game, "a0a5", 0).await;
    illegal.expect(StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(illegal.code(), "illegal-move.blocked");
    assert_eq!(illegal.detail(), "a0a5 is not legal: the piece's way is blocked.");
    assert_eq!(illegal.body["errors"][0]["meta"]["move"], "a0a5");
    let unreadable = app.post_move(&alice, game, "??", 0).await;
    unreadable.expect(StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(unreadable.code(), "notation.unreadable");
    assert_eq!(unreadable.detail(), "“??” is not a move in any notation of this game.");
    // Issue 15 §4: a typo in ICCS is refused, never read as another notation's move.
    let typo = app.post_move(&alice, game, "a4a5", 0).await;
    typo.expect(StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(typo.code(), "illegal-move.no-piece");
    assert_eq!(app.stored_moves(game).await, 0);
    assert_eq!(app.game(game).await["ply"], 0);
}

#[tokio::test]
async fn a_player_cannot_move_in_another_players_game() {
    let app = TestApp::spawn().await;
    let (_alice, _bob, game) = game_between(&app).await;
    let mallory = app.register("mallory").await;
    app.post_move(&mallory, game, "h2e2", 0).await.expect(StatusCode::FORBIDDEN);
    app.act(Some(&mallory), game, "resign").await.expect(StatusCode::FORBIDDEN);
    app.act(Some(&mallory), game, "abort").await.expect(StatusCode::FORBIDDEN);
    app.act(Some(&mallory), game, "draw/offer").await.expect(StatusCode::FORBIDDEN);
    app.post(&format!("/api/games/{game}/moves/check"), Some(&mallory), json!({"move": "h2e2"}))
        .await
        .expect(StatusCode::FORBIDDEN);
    app.act(None, game, "resign").await.expect(StatusCode::UNAUTHORIZED);
    app.post_move(&mallory, 424242, "h2e2", 0).await.expect(StatusCode::NOT_FOUND);
    assert_eq!(app.stored_moves(game).await, 0);
}

#[tokio::test]
async fn a_mating_move_ends_the_game_and_later_moves_are_refused() {
    let app = TestApp::spawn().await;
    let alice = app.register("alice").await;
    let bob = app.register("bob").await;
    // Black to move: the rook on i9 mates on the back rank (the other rook holds rank 1).
    let mate_in_one = "3k4r/9/9/9/9/9/9/9/r8/4K4 b - - 0 1";
    let game = app
        .start_game_with(
            &alice,
            &bob,
            json!({"variant": "xiangqi", "start_position": mate_in_one, "time_control": three_days()}),
        )
        .await;
    assert_eq!(app.game(game).await["to_move"], "bob", "black moves first in this position");
    app.post_move(&alice, game, "e0f0", 0).await.expect(StatusCode::CONFLICT);
    let over = app.post_move(&bob, game, "i9i0", 0).await;
    let body = over.expect(StatusCode::CREATED);
    assert_eq!(body["status"], "finished");
    assert_eq!(body["result"], "0-1");
    assert_eq!(body["reason"], "checkmate");
    assert_eq!(body["seats"][1]["outcome"], "win");
    assert_eq!(body["seats"][0]["outcome"], "loss");
    assert_eq!(body["legal_moves"], json!([]));
    app.post_move(&alice, game, "e0f0", 1).await.expect(StatusCode::CONFLICT);
    assert_eq!(app.stored_moves(game).await, 1);
}

#[tokio::test]
async fn a_dry_run_says_what_the_move_would_do_and_stores_nothing() {
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
    // The rook checks six times, the king steps up and back.
    let moves =
        ["i0i9", "e9e8", "i9i8", "e8e9", "i8i9", "e9e8", "i9i8", "e8e9", "i8i9", "e9e8", "i9i8", "e8e9"];
    for (ply, text) in moves.iter().enumerate() {
        let mover = if ply % 2 == 0 { &alice } else { &bob };
        app.post_move(mover, game, text, ply as i64).await.expect(StatusCode::CREATED);
    }
    let check_path = format!("/api/games/{game}/moves/check");
    // xiangqi.md (CXQ): the seventh consecutive check by one piece loses.
    let check = app.post(&check_path, Some(&alice), json!({"move": "i8i9"})).await;
    let body = check.expect(StatusCode::OK);
    assert_eq!(body["message"], "this move would lose by perpetual check");
    assert_eq!(body["ends_game"], true);
    assert_eq!(body["reason"], "perpetual-check");
    let quiet = app.post(&check_path, Some(&alice), json!({"move": "R1=2"})).await;
    assert_eq!(quiet.expect(StatusCode::OK)["canonical"], "i8h8", "WXF read, ICCS answered");
    assert_eq!(quiet.body["ends_game"], false);
    app.post(&check_path, Some(&alice), json!({"move": "i8a9"}))
        .await
        .expect(StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(app.stored_moves(game).await, 12);
    assert_eq!(app.game(game).await["status"], "active");
}

#[tokio::test]
async fn resigning_gives_the_game_to_the_opponent() {
    let app = TestApp::spawn().await;
    let (alice, _bob, game) = game_between(&app).await;
    let body = app.act(Some(&alice), game, "resign").await.expect(StatusCode::OK).clone();
    assert_eq!(body["result"], "0-1");
    assert_eq!(body["reason"], "resignation");
    app.act(Some(&alice), game, "resign").await.expect(StatusCode::CONFLICT);
}

#[tokio::test]
async fn a_draw_offer_can_be_declined_then_accepted() {
    let app = TestApp::spawn().await;
    let (alice, bob, game) = game_between(&app).await;
    app.act(Some(&bob), game, "draw/accept").await.expect(StatusCode::CONFLICT);
    app.act(Some(&alice), game, "draw/offer").await.expect(StatusCode::OK);
    app.act(Some(&alice), game, "draw/offer").await.expect(StatusCode::CONFLICT);
    app.act(Some(&alice), game, "draw/accept").await.expect(StatusCode::CONFLICT);
    let declined = app.act(Some(&bob), game, "draw/decline").await;
    assert!(declined.expect(StatusCode::OK)["draw_offer_seat"].is_null());
    app.act(Some(&bob), game, "draw/offer").await.expect(StatusCode::OK);
    let drawn = app.act(Some(&alice), game, "draw/accept").await;
    let body = drawn.expect(StatusCode::OK);
    assert_eq!(body["result"], "1/2-1/2");
    assert_eq!(body["reason"], "agreement");
    assert_eq!(body["seats"][0]["outcome"], "draw");
}

#[tokio::test]
async fn a_game_can_be_aborted_only_before_each_side_has_moved() {
    let app = TestApp::spawn().await;
    let (alice, bob, game) = game_between(&app).await;
    app.post_move(&alice, game, "h2e2", 0).await.expect(StatusCode::CREATED);
    let aborted = app.act(Some(&bob), game, "abort").await;
    let body = aborted.expect(StatusCode::OK);
    assert_eq!(body["status"], "aborted");
    assert!(body["result"].is_null());

    let second = app.start_game("xiangqi", &alice, &bob, three_days()).await;
    app.post_move(&alice, second, "h2e2", 0).await.expect(StatusCode::CREATED);
    app.post_move(&bob, second, "h9g7", 1).await.expect(StatusCode::CREATED);
    app.act(Some(&alice), second, "abort").await.expect(StatusCode::CONFLICT);
}

#[tokio::test]
async fn the_game_list_puts_the_players_turn_first_and_filters_by_status() {
    let app = TestApp::spawn().await;
    let (alice, bob, waiting) = game_between(&app).await;
    let my_turn = app.start_game("xiangqi", &bob, &alice, three_days()).await;
    let finished = app.start_game("xiangqi", &alice, &bob, three_days()).await;
    app.act(Some(&alice), finished, "resign").await.expect(StatusCode::OK);
    app.post_move(&alice, waiting, "h2e2", 0).await.expect(StatusCode::CREATED);
    app.post_move(&bob, my_turn, "h2e2", 0).await.expect(StatusCode::CREATED);

    let list = app.get("/api/games?player=alice", None).await;
    let games = list.expect(StatusCode::OK).as_array().unwrap().clone();
    assert_eq!(games.len(), 3);
    assert_eq!(games[0]["id"], my_turn, "alice's turn first");
    assert_eq!(games[0]["your_turn"], true);
    let active = app.get("/api/games?player=alice&status=active", None).await;
    assert_eq!(active.expect(StatusCode::OK).as_array().unwrap().len(), 2);
    let finished_list = app.get("/api/games?status=finished", Some(&alice)).await;
    assert_eq!(finished_list.expect(StatusCode::OK)[0]["id"], finished);
    app.get("/api/games?player=alice&status=sleeping", None).await.expect(StatusCode::UNPROCESSABLE_ENTITY);
    app.get("/api/games?player=nobody", None).await.expect(StatusCode::NOT_FOUND);
}

/// Sente's king has entered the camp with ten more pieces there and 28 points: a valid
/// declaration under the 27-point rule (shogi.md "Impasse").
const IMPASSE: &str = "+P+P+P+P+P4/+P+P+P+P+P1K2/9/9/9/9/9/9/4k4 b RB8P4g4s4n4l 1";

#[tokio::test]
async fn a_claim_is_judged_by_the_rules_on_the_claimants_turn() {
    let app = TestApp::spawn().await;
    let alice = app.register("alice").await;
    let bob = app.register("bob").await;
    let none = app.start_game("xiangqi", &alice, &bob, three_days()).await;
    let refused = app.act(Some(&alice), none, "claim").await;
    refused.expect(StatusCode::UNPROCESSABLE_ENTITY);
    assert!(refused.detail().contains("no claim"), "{}", refused.detail());
    assert_eq!(refused.code(), "claim.none-in-variant");

    let id = app
        .post(
            "/api/challenges",
            Some(&alice),
            json!({"variant": "shogi", "ruleset": "shogi-27", "opponent": "bob", "color": "first",
                   "start_position": IMPASSE, "time_control": three_days()}),
        )
        .await
        .expect(StatusCode::CREATED)["id"]
        .as_i64()
        .unwrap();
    let game = app.accept(&bob, id).await;
    app.act(Some(&bob), game, "claim").await.expect(StatusCode::CONFLICT);
    let claimed = app.act(Some(&alice), game, "claim").await;
    let body = claimed.expect(StatusCode::OK);
    assert_eq!(body["result"], "1-0");
    assert_eq!(body["reason"], "impasse-declaration");
    // The claim's ruling is shown, in the answer and when the game is read again
    // (issue 15 §2: every law explained).
    assert_eq!(body["ruling"]["law"], "impasse-declaration", "{body}");
    assert_eq!(app.game(game).await["ruling"]["law"], "impasse-declaration");
}

/// Under the 24-point rule either player may ask for the impasse count, on either turn
/// (shogi.md "Impasse"; issue 23 §3): here gote asks on sente's turn, and loses on points.
#[tokio::test]
async fn either_player_may_ask_for_the_impasse_count() {
    let app = TestApp::spawn().await;
    let alice = app.register("alice").await;
    let bob = app.register("bob").await;
    let fields = json!({"variant": "shogi", "ruleset": "shogi-24", "start_position": IMPASSE,
                        "time_control": three_days()});
    let game = app.start_game_with(&alice, &bob, fields).await;
    assert_eq!(app.game(game).await["to_move"], "alice", "sente's turn");
    let counted = app.act(Some(&bob), game, "claim").await;
    let body = counted.expect(StatusCode::OK);
    assert_eq!(body["result"], "1-0", "gote has 16 points, sente 28: {body}");
    assert_eq!(body["reason"], "impasse-24");
    assert_eq!(body["ruling"]["law"], "impasse-24", "{body}");
    assert_eq!(app.game(game).await["ruling"]["law"], "impasse-24");
}

#[tokio::test]
async fn in_a_handicap_game_the_side_the_rules_name_moves_first() {
    let app = TestApp::spawn().await;
    let alice = app.register("alice").await;
    let bob = app.register("bob").await;
    let id = app
        .post(
            "/api/challenges",
            Some(&alice),
            json!({"variant": "shogi", "handicap": "two-pieces", "opponent": "bob", "color": "first",
                   "time_control": three_days()}),
        )
        .await
        .expect(StatusCode::CREATED)["id"]
        .as_i64()
        .unwrap();
    let game = app.accept(&bob, id).await;
    let state = app.game(game).await;
    assert_eq!(state["handicap"], "two-pieces");
    assert_eq!(state["to_move"], "bob", "the handicap giver (gote, second seat) starts");
    assert_eq!(state["side_to_move"], "second");
    assert!(state["position"].as_str().unwrap().starts_with("lnsgkgsnl/9/"), "no rook, no bishop");
    app.post_move(&alice, game, "7g7f", 0).await.expect(StatusCode::CONFLICT);
    app.post_move(&bob, game, "3c3d", 0).await.expect(StatusCode::CREATED);
}

#[tokio::test]
async fn two_instances_on_one_database_play_the_same_game_correctly() {
    let app = TestApp::spawn().await;
    let other = TestApp::spawn_on(&app.database_url, app.clock.clone()).await;
    let (alice, bob, game) = game_between(&app).await;
    // Each instance keeps its own cache of rules games; a stale entry must be rebuilt.
    app.post_move(&alice, game, "h2e2", 0).await.expect(StatusCode::CREATED);
    other.post_move(&bob, game, "h9g7", 1).await.expect(StatusCode::CREATED);
    other.post_move(&alice, game, "h0g2", 2).await.expect(StatusCode::CREATED);
    let state = app.post_move(&bob, game, "i9h9", 3).await.expect(StatusCode::CREATED).clone();
    assert_eq!(state["moves"].as_array().unwrap().len(), 4);
    assert_eq!(state["moves"][2]["display"], "H2+3");
    assert_eq!(state["moves"][3]["canonical"], "i9h9");
    // The first instance's entry was at ply 1 when bob moved at ply 3: it was rebuilt.
    let seen = other.game(game).await;
    assert_eq!(seen["position"], state["position"]);
    assert_eq!(seen["moves"], state["moves"]);
    app.post_move(&alice, game, "h2e2", 4).await.expect(StatusCode::UNPROCESSABLE_ENTITY);
}
