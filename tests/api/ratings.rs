//! Ratings (issue 18 §1): a rated game's end changes both players' Glicko-2 ratings once,
//! in the variant and pool of the game, shown in the game view, the profile, the history
//! and the leaderboards; unrated games change nothing.

use reqwest::StatusCode;
use serde_json::{json, Value};
use time::Duration;

use crate::support::{three_days, TestApp, User};

/// A rated game of `variant` between `first` and `second` (first seat to `first`).
async fn rated_game(app: &TestApp, variant: &str, first: &User, second: &User, time_control: Value) -> i64 {
    app.start_game_with(
        first,
        second,
        json!({"variant": variant, "time_control": time_control, "rated": true}),
    )
    .await
}

async fn ratings_of(app: &TestApp, name: &str) -> Vec<Value> {
    let profile = app.get(&format!("/api/players/{name}"), None).await;
    profile.expect(StatusCode::OK)["ratings"].as_array().unwrap().clone()
}

async fn history_rows(app: &TestApp) -> i64 {
    sqlx::query_scalar("select count(*) from rating_history").fetch_one(&app.domain.pool).await.unwrap()
}

#[tokio::test]
async fn a_rated_game_changes_both_ratings_once_and_shows_them() {
    let app = TestApp::spawn().await;
    let alice = app.register("alice").await;
    let bob = app.register("bob").await;
    let game = rated_game(&app, "xiangqi", &alice, &bob, three_days()).await;
    let before = app.game(game).await;
    assert_eq!(before["rated"], true);
    for seat in before["seats"].as_array().unwrap() {
        assert_eq!(seat["rating_before"], Value::Null, "null until the game ends");
        assert_eq!(seat["rating_after"], Value::Null);
    }
    assert!(ratings_of(&app, "alice").await.is_empty(), "no rating before a rated game ends");

    let ended = app.act(Some(&bob), game, "resign").await;
    let view = ended.expect(StatusCode::OK).clone();
    // Two new players (1500, RD 350): the winner gains what the loser loses, and the
    // deviations fall from 350 to about 290 (the Glicko-2 figures of two equal newcomers).
    assert_eq!(view["seats"][0]["rating_before"], 1500);
    assert_eq!(view["seats"][0]["rating_after"], 1662);
    assert_eq!(view["seats"][1]["rating_before"], 1500);
    assert_eq!(view["seats"][1]["rating_after"], 1338);
    assert_eq!(app.game(game).await["seats"], view["seats"], "the stored view shows the same");

    let alice_ratings = ratings_of(&app, "alice").await;
    assert_eq!(
        alice_ratings,
        vec![json!({"variant": "xiangqi", "pool": "correspondence", "rating": 1662, "deviation": 290,
                    "games": 1, "provisional": true})]
    );
    assert_eq!(ratings_of(&app, "bob").await[0]["rating"], 1338);
    let history = app.get("/api/players/bob/ratings/xiangqi/correspondence", None).await;
    let history = history.expect(StatusCode::OK).as_array().unwrap().clone();
    assert_eq!(history.len(), 1);
    assert_eq!(history[0]["game_id"], game);
    assert_eq!(history[0]["rating"], 1338);

    // A second game starts from the first's ratings: the favourite gains less.
    let again = rated_game(&app, "xiangqi", &alice, &bob, three_days()).await;
    let view = app.act(Some(&bob), again, "resign").await.expect(StatusCode::OK).clone();
    assert_eq!(view["seats"][0]["rating_before"], 1662);
    let gain = view["seats"][0]["rating_after"].as_i64().unwrap() - 1662;
    assert!((1..162).contains(&gain), "the favourite's win is worth less: {gain}");
    assert_eq!(ratings_of(&app, "alice").await[0]["games"], 2);
    assert_eq!(history_rows(&app).await, 4);
}

#[tokio::test]
async fn unrated_games_and_other_pools_keep_their_own_ratings() {
    let app = TestApp::spawn().await;
    let alice = app.register("alice").await;
    let bob = app.register("bob").await;
    let casual = app.start_game("xiangqi", &alice, &bob, three_days()).await;
    let view = app.act(Some(&bob), casual, "resign").await.expect(StatusCode::OK).clone();
    assert_eq!(view["rated"], false);
    assert_eq!(view["seats"][0]["rating_after"], Value::Null);
    assert!(ratings_of(&app, "alice").await.is_empty(), "an unrated game changes no rating");

    let live = json!({"kind": "live-fischer", "base_seconds": 300, "increment_seconds": 3});
    let blitz = rated_game(&app, "shogi", &alice, &bob, live).await;
    app.act(Some(&alice), blitz, "draw/offer").await.expect(StatusCode::OK);
    let drawn = app.act(Some(&bob), blitz, "draw/accept").await.expect(StatusCode::OK).clone();
    assert_eq!(drawn["seats"][0]["rating_after"], 1500, "a draw between equals changes no rating");
    let ratings = ratings_of(&app, "alice").await;
    assert_eq!(ratings.len(), 1);
    assert_eq!(ratings[0]["variant"], "shogi");
    assert_eq!(ratings[0]["pool"], "live");
    assert!(ratings[0]["deviation"].as_i64().unwrap() < 350);
}

#[tokio::test]
async fn only_standard_two_player_games_can_be_rated() {
    let app = TestApp::spawn().await;
    let alice = app.register("alice").await;
    let _bob = app.register("bob").await;
    for body in [
        json!({"variant": "shogi", "handicap": "rook", "opponent": "bob", "time_control": three_days(), "rated": true}),
        json!({"variant": "seven-kingdoms", "seats": 3, "time_control": three_days(), "rated": true}),
        json!({"variant": "xiangqi", "opponent": "bob", "time_control": three_days(), "rated": true,
               "start_position": "3k5/9/9/9/9/9/9/9/4A4/4K4 w"}),
    ] {
        let refused = app.post("/api/challenges", Some(&alice), body.clone()).await;
        refused.expect(StatusCode::UNPROCESSABLE_ENTITY);
        assert_eq!(refused.code(), "challenge.unrated-setup", "{body}");
    }
    let count: i64 =
        sqlx::query_scalar("select count(*) from challenge").fetch_one(&app.domain.pool).await.unwrap();
    assert_eq!(count, 0, "nothing stored");
    let open = json!({"variant": "minishogi", "time_control": three_days(), "rated": true});
    let open = app.post("/api/challenges", Some(&alice), open).await;
    assert_eq!(open.expect(StatusCode::CREATED)["rated"], true);
}

#[tokio::test]
async fn two_instances_racing_to_end_a_rated_game_rate_it_once() {
    let app = TestApp::spawn().await;
    let other = TestApp::spawn_on(&app.database_url, app.clock.clone()).await;
    let alice = app.register("alice").await;
    let bob = app.register("bob").await;
    for round in 0..4 {
        // Both resign at once on two instances, and the clock's sweep runs on both.
        let game = rated_game(&app, "xiangqi", &alice, &bob, three_days()).await;
        app.clock.advance(Duration::days(4));
        let (a, b, _, _) = tokio::join!(
            app.act(Some(&alice), game, "resign"),
            other.act(Some(&bob), game, "resign"),
            app.sweep(),
            other.sweep(),
        );
        assert!(
            a.status.is_success() || b.status.is_success() || app.game(game).await["status"] == "finished"
        );
        let rows: i64 = sqlx::query_scalar("select count(*) from rating_history where game_id = $1")
            .bind(game)
            .fetch_one(&app.domain.pool)
            .await
            .unwrap();
        assert_eq!(rows, 2, "round {round}: one change per player");
        let view = app.game(game).await;
        assert!(view["seats"][0]["rating_after"].is_number());
    }
    for name in ["alice", "bob"] {
        assert_eq!(ratings_of(&app, name).await[0]["games"], 4, "{name}: four games, each counted once");
    }
}

#[tokio::test]
async fn deviation_grows_with_inactivity_and_leaderboards_list_active_settled_players() {
    let app = TestApp::spawn_with(|settings| {
        settings.ratings.provisional_deviation = 300.0;
        settings.ratings.leaderboard_active_days = 30;
    })
    .await;
    let alice = app.register("alice").await;
    let bob = app.register("bob").await;
    let carol = app.register("carol").await;
    for (winner, loser) in [(&alice, &bob), (&alice, &carol)] {
        let game = rated_game(&app, "xiangqi", winner, loser, three_days()).await;
        app.act(Some(loser), game, "resign").await.expect(StatusCode::OK);
    }
    let board = app.get("/api/leaderboards/xiangqi/correspondence", None).await;
    let players = board.expect(StatusCode::OK)["players"].as_array().unwrap().clone();
    let names: Vec<&str> = players.iter().map(|p| p["username"].as_str().unwrap()).collect();
    assert_eq!(names[0], "alice", "{board:?}", board = players);
    assert_eq!(players[0]["rank"], 1);
    assert_eq!(names.len(), 3);

    let settled = ratings_of(&app, "alice").await[0]["deviation"].as_i64().unwrap();
    app.clock.advance(Duration::days(20));
    let later = ratings_of(&app, "alice").await[0]["deviation"].as_i64().unwrap();
    assert!(later > settled, "20 days away: {settled} → {later}");
    app.clock.advance(Duration::days(11));
    let board = app.get("/api/leaderboards/xiangqi/correspondence", None).await;
    assert_eq!(board.expect(StatusCode::OK)["players"], json!([]), "nobody played in 30 days");

    let refused = app.get("/api/leaderboards/seven-kingdoms/correspondence", None).await;
    refused.expect(StatusCode::UNPROCESSABLE_ENTITY);
    app.get("/api/leaderboards/xiangqi/blitz", None).await.expect(StatusCode::UNPROCESSABLE_ENTITY);
    app.get("/api/players/nobody", None).await.expect(StatusCode::NOT_FOUND);
}
