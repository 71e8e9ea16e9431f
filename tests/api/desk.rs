//! The directors' desk and a whole event (issue 20 §2 and its tests): a double
//! round-robin of six players played to the end through the API with a draw offer, a
//! result correction and a withdrawal; the desk shows what directors must watch, and the
//! public rounds, tables and exports agree with the games.

use reqwest::StatusCode;
use serde_json::{json, Value};
use tavoliere_rules::replay::{replay_text, ReplayOptions};
use tavoliere_rules::variant::Variant;
use time::Duration;

use crate::support::{TestApp, User};
use crate::tournaments::{create_section, create_tournament, decide, start, with_role};

/// The users of a game's two seats.
async fn seated<'a>(app: &TestApp, players: &'a [User], game: i64) -> (&'a User, &'a User) {
    let state = app.game(game).await;
    let user = |seat: usize| players.iter().find(|p| p.name == state["seats"][seat]["username"]).unwrap();
    (user(0), user(1))
}

fn ids(list: &Value) -> Vec<i64> {
    list.as_array().unwrap().iter().map(|g| g["game_id"].as_i64().unwrap()).collect()
}

#[tokio::test]
async fn a_double_round_robin_of_six_is_directed_from_the_desk_to_the_end() {
    let app = TestApp::spawn().await;
    let director = with_role(&app, "director", "director").await;
    let tournament = create_tournament(&app, &director, "Campionato sociale").await;
    let section = create_section(&app, &director, tournament, json!({"pairing": "double-round-robin"})).await;
    let mut players = Vec::new();
    for seed in 1..=6 {
        let player = app.register(&format!("player{seed}")).await;
        let entry = json!({"username": player.name, "seed": seed});
        app.post(&format!("/api/sections/{section}/entries"), Some(&director), entry)
            .await
            .expect(StatusCode::CREATED);
        players.push(player);
    }
    let games = start(&app, &director, section).await;
    assert_eq!(games.len(), 30, "a double round-robin of six: thirty games");

    // The desk is its directors' only.
    let desk_path = format!("/api/tournaments/{tournament}/desk");
    app.get(&desk_path, Some(&players[0])).await.expect(StatusCode::FORBIDDEN);
    app.get(&desk_path, None).await.expect(StatusCode::UNAUTHORIZED);
    app.get("/api/tournaments/999/desk", Some(&director)).await.expect(StatusCode::NOT_FOUND);
    let desk = app.get(&desk_path, Some(&director)).await.expect(StatusCode::OK).clone();
    assert_eq!(desk["running_out"], json!([]), "three days left everywhere");

    // A draw offer waits on the desk; a day before the deadlines every game is listed.
    let (first, _) = seated(&app, &players, games[0]).await;
    app.act(Some(first), games[0], "draw/offer").await.expect(StatusCode::OK);
    app.clock.advance(Duration::days(2) + Duration::hours(1));
    let desk = app.get(&desk_path, Some(&director)).await.expect(StatusCode::OK).clone();
    assert_eq!(ids(&desk["draw_offers"]), [games[0]]);
    assert_eq!(desk["draw_offers"][0]["draw_offered_by"], first.name.as_str());
    assert_eq!(desk["running_out"].as_array().unwrap().len(), 30, "every game within a day of its deadline");
    assert!(desk["running_out"].as_array().unwrap().iter().all(|g| g["overdue"] == false));

    // Played to the end: resignations of either side, drawn by agreement, adjudicated.
    for (i, &game) in games.iter().enumerate() {
        let (first, second) = seated(&app, &players, game).await;
        match i % 3 {
            0 if i > 0 => app.act(Some(first), game, "resign").await.expect(StatusCode::OK),
            0 => app
                .act(Some(seated(&app, &players, game).await.1), game, "draw/accept")
                .await
                .expect(StatusCode::OK),
            1 => app.act(Some(second), game, "resign").await.expect(StatusCode::OK),
            _ => decide(&app, &director, game, "adjudicate", "1/2-1/2", "equal ending")
                .await
                .expect(StatusCode::OK),
        };
    }
    // A correction: game 1 was scored the wrong way round.
    decide(&app, &director, games[1], "result-corrections", "0-1", "the arbiter's sheet")
        .await
        .expect(StatusCode::OK);
    // Player six withdraws after the last round: every game stays as played.
    let withdraw = format!("/api/sections/{section}/entries/player6/withdraw");
    app.post(&withdraw, Some(&players[5]), json!({})).await.expect(StatusCode::OK);

    let desk = app.get(&desk_path, Some(&director)).await.expect(StatusCode::OK).clone();
    assert_eq!(
        (desk["running_out"].clone(), desk["draw_offers"].clone()),
        (json!([]), json!([])),
        "nothing runs"
    );
    let kinds: Vec<&str> =
        desk["decisions"].as_array().unwrap().iter().map(|d| d["kind"].as_str().unwrap()).collect();
    assert_eq!(kinds.iter().filter(|k| **k == "adjudication").count(), 10);
    assert_eq!(kinds[0], "correction", "newest first");
    let correction = &desk["decisions"][0];
    assert_eq!(
        (correction["game_id"].as_i64(), correction["old_result"].as_str()),
        (Some(games[1]), Some("first-wins"))
    );
    assert_eq!(
        (correction["new_result"].as_str(), correction["changed_by"].as_str()),
        (Some("second-wins"), Some("director"))
    );
    assert_eq!(desk["withdrawals"][0]["username"], "player6");

    // The public rounds: ten rounds of three, every game over.
    let rounds =
        app.get(&format!("/api/sections/{section}/rounds"), None).await.expect(StatusCode::OK).clone();
    let rounds = rounds["rounds"].as_array().unwrap();
    assert_eq!(rounds.len(), 10);
    assert!(rounds.iter().all(|r| r["games"].as_array().unwrap().len() == 3));
    let pending: Vec<&Value> = rounds
        .iter()
        .flat_map(|r| r["games"].as_array().unwrap())
        .filter(|g| g["result"] == "pending")
        .collect();
    assert!(pending.is_empty(), "{pending:?}");
    // Standings: thirty games, thirty points in 1 / ½ / 0.
    let standings =
        app.get(&format!("/api/sections/{section}/standings"), None).await.expect(StatusCode::OK).clone();
    let total: f64 =
        standings["standings"].as_array().unwrap().iter().map(|l| l["points"].as_f64().unwrap()).sum();
    assert_eq!(total, 30.0);
    // The crosstable page and the rounds page name every player.
    let crosstable = app.get_text(&format!("/api/sections/{section}/crosstable.html?lang=en")).await;
    let rounds_page = app.get_text(&format!("/sections/{section}/rounds")).await;
    for name in ["player1", "player6"] {
        assert!(crosstable.contains(name) && rounds_page.contains(name), "{name} on the public pages");
    }
    // The exports: the TRF read back has every game decided and the same points; the PGN
    // file has the thirty games.
    let trf = app.get_text(&format!("/api/sections/{section}/trf")).await;
    let read = tavoliere_tournament::trf::trf_import(&trf).unwrap();
    assert_eq!(read.games.len(), 30);
    assert!(read.games.iter().all(|g| g.result != tavoliere_tournament::GameResult::Pending), "{trf}");
    assert_eq!(read.points.iter().map(|p| p.as_f64()).sum::<f64>(), 30.0, "{trf}");
    assert_eq!(read.planned_rounds, Some(10));
    let pgn = app.get_text(&format!("/api/sections/{section}/games/pgn-iccs")).await;
    let reports = replay_text(Variant::Xiangqi, &pgn, &ReplayOptions::default());
    assert_eq!(reports.len(), 30);
    assert!(reports.iter().all(|r| r.error.is_none() && r.result != "*"), "{pgn}");
}
