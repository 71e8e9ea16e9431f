//! A section's rounds for everyone (issue 20 §2): the JSON and the page list each round's
//! games with players, colours, status, ply, whose move, deadline, result and ruling; the
//! section's games come as one record file that the project's own reader reads back.

use reqwest::StatusCode;
use serde_json::{json, Value};
use tavoliere_rules::replay::{replay_text, ReplayOptions};
use tavoliere_rules::variant::Variant;

use crate::support::{TestApp, User};
use crate::tournaments::{create_section, create_tournament, decide, four_players, start, with_role};

/// The game of the round list with id `game`.
fn listed(rounds: &Value, game: i64) -> &Value {
    rounds["rounds"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|r| r["games"].as_array().unwrap())
        .find(|g| g["game_id"] == game)
        .expect("the game is listed")
}

/// `name`'s user among `players`.
fn user<'a>(players: &'a [User], name: &str) -> &'a User {
    players.iter().find(|p| p.name == name).unwrap()
}

#[tokio::test]
async fn a_sections_rounds_list_every_game_and_its_games_come_as_one_file() {
    let app = TestApp::spawn().await;
    let director = with_role(&app, "director", "director").await;
    let tournament = create_tournament(&app, &director, "Winter cup").await;
    let section = create_section(&app, &director, tournament, json!({})).await;
    let players = four_players(&app, &director, section).await;
    let games = start(&app, &director, section).await;
    assert_eq!(games.len(), 6, "a round-robin of four: six games, every one started");

    let path = format!("/api/sections/{section}/rounds");
    let rounds = app.get(&path, None).await.expect(StatusCode::OK).clone();
    assert_eq!(rounds["current_round"], 3);
    let shape: Vec<(i64, usize)> = rounds["rounds"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| (r["round"].as_i64().unwrap(), r["games"].as_array().unwrap().len()))
        .collect();
    assert_eq!(shape, [(1, 2), (2, 2), (3, 2)], "three rounds of two boards");
    let first = listed(&rounds, games[0]);
    assert_eq!(first["status"], "active");
    assert_eq!(first["ply"], 0);
    assert_eq!(first["to_move"], first["first"], "the first seat moves first");
    assert!(first["deadline"].is_string());
    assert_eq!(first["result"], "pending");

    // Three moves in one game, one resigned, one adjudicated by the director, a draw offer.
    let state = app.game(games[0]).await;
    let red = user(&players, state["seats"][0]["username"].as_str().unwrap());
    let black = user(&players, state["seats"][1]["username"].as_str().unwrap());
    for (ply, text) in ["h2e2", "h9g7", "e2e6"].iter().enumerate() {
        let mover = if ply % 2 == 0 { red } else { black };
        app.post_move(mover, games[0], text, ply as i64).await.expect(StatusCode::CREATED);
    }
    let resigner = app.game(games[1]).await["seats"][1]["username"].as_str().unwrap().to_owned();
    app.act(Some(user(&players, &resigner)), games[1], "resign").await.expect(StatusCode::OK);
    decide(&app, &director, games[2], "adjudicate", "1/2-1/2", "level ending").await.expect(StatusCode::OK);
    app.post(
        &format!("/api/games/{}/draw/offer", games[3]),
        Some(user(&players, app.game(games[3]).await["seats"][0]["username"].as_str().unwrap())),
        json!({}),
    )
    .await
    .expect(StatusCode::OK);

    let rounds = app.get(&path, None).await.expect(StatusCode::OK).clone();
    let played = listed(&rounds, games[0]);
    assert_eq!((played["ply"].as_i64(), played["to_move"].as_str()), (Some(3), Some(black.name.as_str())));
    let resigned = listed(&rounds, games[1]);
    assert_eq!(resigned["status"], "finished");
    assert_eq!(resigned["result"], "first-wins");
    assert_eq!(resigned["board_result"], "1-0");
    assert_eq!(resigned["reason"], "resignation");
    assert!(resigned["deadline"].is_null() && resigned["to_move"].is_null());
    let adjudicated = listed(&rounds, games[2]);
    assert_eq!(
        (adjudicated["result"].as_str(), adjudicated["reason"].as_str()),
        (Some("draw"), Some("adjudication"))
    );
    assert_eq!(listed(&rounds, games[3])["draw_offer"], true, "a pending draw offer shows");
    app.get("/api/sections/999/rounds", None).await.expect(StatusCode::NOT_FOUND);

    // The page lists the same, for visitors too.
    let page = app.get_text(&format!("/sections/{section}/rounds")).await;
    for text in ["Round 1", "Round 3", "player1", "player4", "resignation", "adjudication", "pgn-wxf"] {
        assert!(page.contains(text), "the rounds page shows {text}");
    }

    // Every game of the section as one PGN file, read back by the project's own reader.
    for format in ["pgn-iccs", "pgn-wxf", "pgn-fix", "pgn-chinese"] {
        let file = app.get_text(&format!("/api/sections/{section}/games/{format}")).await;
        let reports = replay_text(Variant::Xiangqi, &file, &ReplayOptions::default());
        assert_eq!(reports.len(), 6, "six games in the {format} file");
        assert!(reports.iter().all(|r| r.error.is_none()), "{reports:?}");
        let plies: Vec<u32> = reports.iter().map(|r| r.plies).collect();
        assert_eq!(plies, [3, 0, 0, 0, 0, 0], "the moves of each game in round and board order");
        let results: Vec<&str> = reports.iter().map(|r| r.result.as_str()).collect();
        assert_eq!(&results[..3], ["*", "1-0", "1/2-1/2"], "{format}:\n{file}");
    }
    // The TRF export of the round-robin, read back by the pairing crate's own reader.
    let trf = app.get_text(&format!("/api/sections/{section}/trf")).await;
    let read = tavoliere_tournament::trf::trf_import(&trf).unwrap();
    assert_eq!(read.players.len(), 4);
    assert_eq!(read.planned_rounds, Some(3));
    // No round is finished yet: the file is the input for pairing round 1 (as pairing
    // programs read it), and every game of the three rounds, played or in play, follows
    // as a `###` comment (tournament/src/trf.rs).
    assert!(read.games.is_empty(), "no finished round:\n{trf}");
    let comments: Vec<&str> = trf.lines().filter(|line| line.starts_with("### round")).collect();
    assert_eq!(comments.len(), 6, "every game of the three rounds:\n{trf}");
    assert!(trf.contains("### round 1 not finished: 2 w - 3 b 1-0\n"), "the resignation:\n{trf}");
    assert!(trf.contains("### round 2 not finished: 4 w - 3 b 0.5-0.5\n"), "the adjudicated draw:\n{trf}");
    let wrong = app.get(&format!("/api/sections/{section}/games/kif"), None).await;
    wrong.expect(StatusCode::UNPROCESSABLE_ENTITY);
    app.get(&format!("/api/sections/{section}/games/nonsense"), None)
        .await
        .expect(StatusCode::UNPROCESSABLE_ENTITY);
}
