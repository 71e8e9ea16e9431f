//! Tournaments through the REST API: a whole small round-robin, the withdrawal rule, the
//! result audit trail, Swiss rounds, the tables, and who may direct what.

use reqwest::StatusCode;
use serde_json::{json, Value};

use crate::support::{three_days, Reply, TestApp, User};

/// Registers `name` and gives the account `role` (the admin CLI's job in production).
pub(crate) async fn with_role(app: &TestApp, name: &str, role: &str) -> User {
    let user = app.register(name).await;
    sqlx::query("update account set role = $2 where lower(username) = lower($1)")
        .bind(name)
        .bind(role)
        .execute(&app.domain.pool)
        .await
        .unwrap();
    user
}

pub(crate) async fn patch(app: &TestApp, path: &str, user: Option<&User>, body: Value) -> Reply {
    let mut request = app.client.patch(format!("{}{path}", app.address)).json(&body);
    if let Some(user) = user {
        request = request.bearer_auth(&user.token);
    }
    let response = request.send().await.expect("request");
    let status = response.status();
    let text = response.text().await.unwrap_or_default();
    Reply { status, body: serde_json::from_str(&text).unwrap_or(Value::Null) }
}

/// GET `path` as text: status, content type, body.
async fn get_text(app: &TestApp, path: &str, accept: Option<&str>) -> (StatusCode, String, String) {
    let mut request = app.client.get(format!("{}{path}", app.address));
    if let Some(accept) = accept {
        request = request.header("accept", accept);
    }
    let response = request.send().await.expect("request");
    let status = response.status();
    let content_type =
        response.headers().get("content-type").and_then(|v| v.to_str().ok()).unwrap_or("").to_owned();
    (status, content_type, response.text().await.unwrap_or_default())
}

pub(crate) async fn create_tournament(app: &TestApp, director: &User, name: &str) -> i64 {
    app.post("/api/tournaments", Some(director), json!({"name": name, "season": "2026"}))
        .await
        .expect(StatusCode::CREATED)["id"]
        .as_i64()
        .unwrap()
}

/// The tournament takes registrations.
pub(crate) async fn open_registration(app: &TestApp, director: &User, tournament: i64) {
    let path = format!("/api/tournaments/{tournament}");
    patch(app, &path, Some(director), json!({"status": "registration"})).await.expect(StatusCode::OK);
}

pub(crate) async fn create_section(app: &TestApp, director: &User, tournament: i64, extra: Value) -> i64 {
    let mut body = json!({"name": "Xiangqi A", "variant": "xiangqi", "time_control": three_days(),
                          "pairing": "round-robin"});
    if let (Value::Object(body), Value::Object(extra)) = (&mut body, extra) {
        body.extend(extra);
    }
    app.post(&format!("/api/tournaments/{tournament}/sections"), Some(director), body)
        .await
        .expect(StatusCode::CREATED)["id"]
        .as_i64()
        .unwrap()
}

/// Four players p1..p4 entered by the director with seeds 1..4.
pub(crate) async fn four_players(app: &TestApp, director: &User, section: i64) -> Vec<User> {
    let mut players = Vec::new();
    for seed in 1..=4 {
        let player = app.register(&format!("player{seed}")).await;
        app.post(
            &format!("/api/sections/{section}/entries"),
            Some(director),
            json!({"username": player.name, "seed": seed}),
        )
        .await
        .expect(StatusCode::CREATED);
        players.push(player);
    }
    players
}

pub(crate) async fn start(app: &TestApp, director: &User, section: i64) -> Vec<i64> {
    let body = app.post(&format!("/api/sections/{section}/start"), Some(director), json!({})).await;
    body.expect(StatusCode::CREATED)["games"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g.as_i64().unwrap())
        .collect()
}

fn seat_names(game: &Value) -> (String, String) {
    (
        game["seats"][0]["username"].as_str().unwrap().to_owned(),
        game["seats"][1]["username"].as_str().unwrap().to_owned(),
    )
}

/// The standings line of `name`.
fn line<'a>(standings: &'a Value, name: &str) -> &'a Value {
    standings["standings"]
        .as_array()
        .unwrap()
        .iter()
        .find(|l| l["username"] == name)
        .unwrap_or_else(|| panic!("{name} missing from {standings}"))
}

/// A director, a tournament and its Swiss section "Open" of `rounds` rounds.
async fn swiss_section(app: &TestApp, rounds: u32) -> (User, i64, i64) {
    let director = with_role(app, "director", "director").await;
    let tournament = create_tournament(app, &director, "T").await;
    let fields = json!({"pairing": "swiss", "swiss_rounds": rounds, "name": "Open"});
    let section = create_section(app, &director, tournament, fields).await;
    (director, tournament, section)
}

pub(crate) async fn decide(
    app: &TestApp,
    director: &User,
    game: i64,
    action: &str,
    result: &str,
    reason: &str,
) -> Reply {
    app.post(
        &format!("/api/games/{game}/{action}"),
        Some(director),
        json!({"result": result, "reason": reason}),
    )
    .await
}

#[tokio::test]
async fn a_four_player_round_robin_from_creation_to_tables() {
    let app = TestApp::spawn().await;
    let director = with_role(&app, "director", "director").await;
    let tournament = create_tournament(&app, &director, "Campionato").await;
    let section = create_section(&app, &director, tournament, json!({})).await;
    let p = four_players(&app, &director, section).await;

    let games = start(&app, &director, section).await;
    assert_eq!(games.len(), 6, "4 players, single round-robin: every game created at once");
    let mut pairs = Vec::new();
    for &game in &games {
        let state = app.game(game).await;
        assert_eq!(state["status"], "active");
        assert!(state["deadline"].is_string(), "the clock runs from the start: {state}");
        assert_eq!(state["variant"], "xiangqi");
        pairs.push(seat_names(&state));
    }
    let expected: Vec<(String, String)> = [
        ("player1", "player4"),
        ("player2", "player3"),
        ("player4", "player3"),
        ("player1", "player2"),
        ("player2", "player4"),
        ("player3", "player1"),
    ]
    .iter()
    .map(|(a, b)| ((*a).to_owned(), (*b).to_owned()))
    .collect();
    assert_eq!(pairs, expected, "the Berger table for four players, first mover first");

    // Results: played, resigned, agreed drawn, adjudicated, forfeited, one still running.
    app.act(Some(&p[3]), games[0], "resign").await.expect(StatusCode::OK); // p1 beats p4
    app.act(Some(&p[1]), games[1], "resign").await.expect(StatusCode::OK); // p3 beats p2
    app.act(Some(&p[3]), games[2], "draw/offer").await.expect(StatusCode::OK);
    app.act(Some(&p[2]), games[2], "draw/accept").await.expect(StatusCode::OK); // p4 = p3
    decide(&app, &director, games[3], "adjudicate", "1-0", "won ending").await.expect(StatusCode::OK); // p1 beats p2
    decide(&app, &director, games[4], "forfeit", "forfeit-second-wins", "p2 never moved")
        .await
        .expect(StatusCode::OK); // p4 wins by forfeit
    let adjudicated = app.game(games[3]).await;
    assert_eq!(adjudicated["status"], "finished", "an adjudicated game is over");
    assert_eq!(adjudicated["reason"], "adjudication");

    let standings = app.get(&format!("/api/sections/{section}/standings"), None).await;
    let standings = standings.expect(StatusCode::OK);
    assert_eq!(line(standings, "player1")["points"], 2.0);
    assert_eq!(line(standings, "player1")["place"], json!({"first": 1, "last": 1}));
    assert_eq!(line(standings, "player3")["points"], 1.5);
    assert_eq!(line(standings, "player4")["points"], 1.5);
    assert_eq!(
        line(standings, "player3")["place"],
        json!({"first": 2, "last": 3}),
        "equal on Sonneborn-Berger, direct encounter and wins: a shared place"
    );
    assert_eq!(line(standings, "player4")["place"], json!({"first": 2, "last": 3}));
    assert_eq!(line(standings, "player4")["record"]["forfeit_wins"], 1);
    assert_eq!(line(standings, "player2")["points"], 0.0);
    assert_eq!(line(standings, "player2")["place"], json!({"first": 4, "last": 4}));
    assert_eq!(line(standings, "player3")["games_counted"], 2, "p3-p1 is still being played");

    let crosstable = app.get(&format!("/api/sections/{section}/crosstable.json"), None).await;
    let crosstable = crosstable.expect(StatusCode::OK);
    assert_eq!(crosstable["rows"].as_array().unwrap().len(), 4);
    assert_eq!(crosstable["rows"][0]["player"]["name"], "player1");
    let (status, content_type, csv) =
        get_text(&app, &format!("/api/sections/{section}/crosstable.csv?lang=en"), None).await;
    assert_eq!(status, StatusCode::OK);
    assert!(content_type.starts_with("text/csv"), "{content_type}");
    assert_eq!(csv.lines().count(), 5, "a header and four players:\n{csv}");
    let (status, content_type, html) =
        get_text(&app, &format!("/api/sections/{section}/crosstable?format=html&lang=en"), None).await;
    assert_eq!(status, StatusCode::OK);
    assert!(content_type.starts_with("text/html"));
    assert!(html.contains("<table class=\"crosstable\" lang=\"en\">"), "{html}");
    assert!(html.contains(&format!("/games/{}", games[0])), "cells link to their games: {html}");
    let (_, content_type, default) =
        get_text(&app, &format!("/api/sections/{section}/crosstable"), Some("text/html")).await;
    assert!(content_type.starts_with("text/html"), "the Accept header chooses HTML");
    assert!(default.contains("lang=\"en\""), "no lang, no Accept-Language: the site's default");

    let gp = app.get(&format!("/api/tournaments/{tournament}/grand-prix"), None).await;
    let gp = gp.expect(StatusCode::OK);
    assert_eq!(gp["rows"][0]["player"]["name"], "player1");
    assert_eq!(gp["rows"][0]["score"], 2.0);
    let (status, _, gp_html) =
        get_text(&app, &format!("/api/tournaments/{tournament}/grand-prix.html?lang=it"), None).await;
    assert_eq!(status, StatusCode::OK);
    assert!(gp_html.contains("Campionato"));

    // The dashboard: p3 sees the section and three games, one of them still to play.
    let mine = app.get("/api/accounts/me/tournaments", Some(&p[2])).await;
    let mine = mine.expect(StatusCode::OK);
    assert_eq!(mine[0]["section_id"], section);
    assert_eq!(mine[0]["games"].as_array().unwrap().len(), 3);
    let running: Vec<&Value> =
        mine[0]["games"].as_array().unwrap().iter().filter(|g| g["status"] == "active").collect();
    assert_eq!(running.len(), 1);
    assert_eq!(running[0]["opponent"], "player1");
    assert_eq!(running[0]["your_turn"], true, "p3 has the first move against p1");

    // The last game ends over the board: the tables follow.
    app.act(Some(&p[0]), games[5], "resign").await.expect(StatusCode::OK);
    let standings = app.get(&format!("/api/sections/{section}/standings"), None).await;
    let standings = standings.expect(StatusCode::OK);
    assert_eq!(line(standings, "player3")["points"], 2.5);
    assert_eq!(line(standings, "player3")["place"], json!({"first": 1, "last": 1}));
}

#[tokio::test]
async fn only_a_tournaments_own_directors_may_change_it() {
    let app = TestApp::spawn().await;
    let alice = with_role(&app, "alice", "director").await;
    let bob = with_role(&app, "bob", "director").await;
    let admin = with_role(&app, "root", "admin").await;
    let player = app.register("player").await;

    let refused = app.post("/api/tournaments", Some(&player), json!({"name": "Mine"})).await;
    refused.expect(StatusCode::FORBIDDEN);
    app.post("/api/tournaments", None, json!({"name": "Anon"})).await.expect(StatusCode::UNAUTHORIZED);

    let tournament = create_tournament(&app, &alice, "Alice's").await;
    let path = format!("/api/tournaments/{tournament}");
    patch(&app, &path, Some(&player), json!({"name": "Hijacked"})).await.expect(StatusCode::FORBIDDEN);
    patch(&app, &path, Some(&bob), json!({"name": "Hijacked"})).await.expect(StatusCode::FORBIDDEN);
    let section_body =
        json!({"name": "S", "variant": "shogi", "time_control": three_days(), "pairing": "round-robin"});
    app.post(&format!("{path}/sections"), Some(&bob), section_body.clone())
        .await
        .expect(StatusCode::FORBIDDEN);
    app.post(&format!("{path}/sections"), Some(&player), section_body).await.expect(StatusCode::FORBIDDEN);
    assert_eq!(app.get(&path, None).await.expect(StatusCode::OK)["name"], "Alice's", "nothing changed");

    let section = create_section(&app, &alice, tournament, json!({})).await;
    let players = four_players(&app, &alice, section).await;
    app.post(&format!("/api/sections/{section}/entries"), Some(&bob), json!({"username": "player"}))
        .await
        .expect(StatusCode::FORBIDDEN);
    app.post(&format!("/api/sections/{section}/start"), Some(&bob), json!({}))
        .await
        .expect(StatusCode::FORBIDDEN);
    app.post(&format!("/api/sections/{section}/start"), Some(&players[0]), json!({}))
        .await
        .expect(StatusCode::FORBIDDEN);
    let games = start(&app, &alice, section).await;
    decide(&app, &bob, games[0], "adjudicate", "1-0", "I say so").await.expect(StatusCode::FORBIDDEN);
    decide(&app, &players[0], games[0], "adjudicate", "1-0", "I say so").await.expect(StatusCode::FORBIDDEN);
    decide(&app, &bob, games[0], "result-corrections", "draw", "I say so")
        .await
        .expect(StatusCode::FORBIDDEN);
    app.post(&format!("/api/sections/{section}/entries/player1/withdraw"), Some(&bob), json!({}))
        .await
        .expect(StatusCode::FORBIDDEN);
    assert_eq!(app.game(games[0]).await["status"], "active", "the refused decisions changed nothing");

    // An admin may, and so may a director the tournament adds.
    patch(&app, &path, Some(&admin), json!({"description": "by the admin"})).await.expect(StatusCode::OK);
    app.post(&format!("{path}/directors"), Some(&alice), json!({"username": "bob"}))
        .await
        .expect(StatusCode::OK);
    let renamed = patch(&app, &path, Some(&bob), json!({"name": "Shared"})).await;
    assert_eq!(renamed.expect(StatusCode::OK)["name"], "Shared");
    patch(&app, &path, Some(&bob), json!({"status": "draft"})).await.expect(StatusCode::UNPROCESSABLE_ENTITY);
}

#[tokio::test]
async fn players_register_themselves_only_while_registration_is_open() {
    let app = TestApp::spawn().await;
    let director = with_role(&app, "director", "director").await;
    let player = app.register("player").await;
    let tournament = create_tournament(&app, &director, "Open").await;
    let section = create_section(&app, &director, tournament, json!({})).await;
    let entries = format!("/api/sections/{section}/entries");
    app.post(&entries, Some(&player), json!({})).await.expect(StatusCode::CONFLICT);
    open_registration(&app, &director, tournament).await;
    let entered = app.post(&entries, Some(&player), json!({})).await;
    assert_eq!(entered.expect(StatusCode::CREATED)["entries"][0]["username"], "player");
    app.post(&entries, Some(&player), json!({})).await.expect(StatusCode::CONFLICT);
    app.post(&entries, Some(&player), json!({"seed": 1})).await.expect(StatusCode::FORBIDDEN);
}

#[tokio::test]
async fn a_withdrawal_forfeits_the_unplayed_games_and_keeps_the_played_ones() {
    let app = TestApp::spawn().await;
    let director = with_role(&app, "director", "director").await;
    let tournament = create_tournament(&app, &director, "T").await;
    let section = create_section(&app, &director, tournament, json!({})).await;
    let p = four_players(&app, &director, section).await;
    let games = start(&app, &director, section).await;
    // games[1] is p2-p3: p2 wins it, then withdraws.
    app.act(Some(&p[2]), games[1], "resign").await.expect(StatusCode::OK);
    let withdrawn =
        app.post(&format!("/api/sections/{section}/entries/player2/withdraw"), Some(&p[1]), json!({})).await;
    let entry = withdrawn.expect(StatusCode::OK)["entries"]
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["username"] == "player2")
        .cloned();
    assert_eq!(entry.unwrap()["status"], "withdrawn");
    let standings = app.get(&format!("/api/sections/{section}/standings"), None).await;
    let standings = standings.expect(StatusCode::OK);
    assert_eq!(line(standings, "player2")["record"]["wins"], 1, "the finished game stands");
    assert_eq!(line(standings, "player2")["record"]["forfeit_losses"], 2);
    assert_eq!(line(standings, "player1")["record"]["forfeit_wins"], 1, "p1-p2 is forfeited to p1");
    assert_eq!(app.game(games[3]).await["status"], "finished", "the forfeited game is over");
    let trail = app.get(&format!("/api/games/{}/result-corrections", games[3]), None).await;
    let trail = trail.expect(StatusCode::OK);
    assert_eq!(trail[0]["kind"], "withdrawal");
    assert_eq!(trail[0]["changed_by"], "player2");
    assert_eq!(trail[0]["new_result"], "forfeit-first-wins");
    app.post(&format!("/api/sections/{section}/entries/player2/withdraw"), Some(&p[1]), json!({}))
        .await
        .expect(StatusCode::CONFLICT);
}

#[tokio::test]
async fn a_withdrawal_before_half_the_games_annuls_them_all_when_the_section_says_so() {
    let app = TestApp::spawn().await;
    let director = with_role(&app, "director", "director").await;
    let tournament = create_tournament(&app, &director, "T").await;
    let section = create_section(
        &app,
        &director,
        tournament,
        json!({"withdrawal_rule": "annul-if-fewer-than-half-played"}),
    )
    .await;
    let p = four_players(&app, &director, section).await;
    let games = start(&app, &director, section).await;
    app.act(Some(&p[2]), games[1], "resign").await.expect(StatusCode::OK); // p2 beats p3
    app.act(Some(&p[3]), games[0], "resign").await.expect(StatusCode::OK); // p1 beats p4
    app.post(
        &format!("/api/sections/{section}/entries/player2/withdraw"),
        Some(&director),
        json!({"reason": "moved abroad"}),
    )
    .await
    .expect(StatusCode::OK);
    let standings = app.get(&format!("/api/sections/{section}/standings"), None).await;
    let standings = standings.expect(StatusCode::OK);
    assert_eq!(
        line(standings, "player2")["games_scheduled"],
        0,
        "1 of 3 played: every game of p2 is annulled"
    );
    assert_eq!(line(standings, "player3")["points"], 0.0, "p3's loss to p2 no longer counts");
    assert_eq!(line(standings, "player3")["games_scheduled"], 2);
    assert_eq!(line(standings, "player1")["points"], 1.0, "games without p2 stand");
    assert_eq!(app.game(games[3]).await["status"], "aborted", "the unplayed p1-p2 is annulled");
    let trail = app.get(&format!("/api/games/{}/result-corrections", games[1]), None).await;
    let trail = trail.expect(StatusCode::OK);
    assert_eq!(trail[0]["old_result"], "first-wins");
    assert_eq!(trail[0]["new_result"], "annulled");
    assert_eq!(trail[0]["reason"], "moved abroad");
    assert_eq!(trail[0]["changed_by"], "director");
}

#[tokio::test]
async fn a_corrected_result_is_kept_in_the_audit_trail_and_counts() {
    let app = TestApp::spawn().await;
    let director = with_role(&app, "director", "director").await;
    let tournament = create_tournament(&app, &director, "T").await;
    let section = create_section(&app, &director, tournament, json!({"scoring": "3-2-1-0"})).await;
    four_players(&app, &director, section).await;
    let games = start(&app, &director, section).await;
    let game = games[0]; // p1-p4
    decide(&app, &director, game, "adjudicate", "1-0", " ").await.expect(StatusCode::UNPROCESSABLE_ENTITY);
    decide(&app, &director, game, "adjudicate", "forfeit-first-wins", "x")
        .await
        .expect(StatusCode::UNPROCESSABLE_ENTITY);
    decide(&app, &director, game, "adjudicate", "1-0", "clear win for Red").await.expect(StatusCode::OK);
    decide(&app, &director, game, "adjudicate", "0-1", "again").await.expect(StatusCode::CONFLICT);
    let corrected =
        decide(&app, &director, game, "result-corrections", "1/2-1/2", "analysis shows a draw").await;
    assert_eq!(corrected.expect(StatusCode::OK)["result"], "draw");

    let trail = app.get(&format!("/api/games/{game}/result-corrections"), None).await;
    let trail = trail.expect(StatusCode::OK).as_array().unwrap().clone();
    assert_eq!(trail.len(), 2);
    assert_eq!(trail[0]["kind"], "adjudication");
    assert_eq!(trail[0]["old_result"], "pending");
    assert_eq!(trail[0]["new_result"], "first-wins");
    assert_eq!(trail[1]["kind"], "correction");
    assert_eq!(trail[1]["old_result"], "first-wins");
    assert_eq!(trail[1]["new_result"], "draw");
    assert_eq!(trail[1]["reason"], "analysis shows a draw");
    assert_eq!(trail[1]["changed_by"], "director");
    assert!(trail[1]["changed_at"].is_string());

    let standings = app.get(&format!("/api/sections/{section}/standings"), None).await;
    let standings = standings.expect(StatusCode::OK);
    assert_eq!(line(standings, "player1")["points"], 2.0, "3/2/1/0: a draw is worth 2");
    assert_eq!(line(standings, "player4")["points"], 2.0);
}

#[tokio::test]
async fn a_swiss_section_is_paired_round_by_round_and_exports_trf() {
    let app = TestApp::spawn().await;
    let (director, tournament, section) = swiss_section(&app, 2).await;
    four_players(&app, &director, section).await;
    let round_one = start(&app, &director, section).await;
    assert_eq!(round_one.len(), 2);
    let next = format!("/api/sections/{section}/next-round");
    app.post(&next, Some(&director), json!({})).await.expect(StatusCode::CONFLICT);
    for &game in &round_one {
        decide(&app, &director, game, "adjudicate", "1-0", "end of round").await.expect(StatusCode::OK);
    }
    let round_two = app.post(&next, Some(&director), json!({})).await;
    let round_two = round_two.expect(StatusCode::CREATED);
    assert_eq!(round_two["games"].as_array().unwrap().len(), 2);
    assert_eq!(round_two["section"]["current_round"], 2);
    app.post(&next, Some(&director), json!({})).await.expect(StatusCode::CONFLICT);
    let (status, _, trf) = get_text(&app, &format!("/api/sections/{section}/trf"), None).await;
    assert_eq!(status, StatusCode::OK);
    assert!(trf.starts_with("012"), "{trf}");
    assert_eq!(trf.lines().filter(|l| l.starts_with("001")).count(), 4, "{trf}");

    // A round-robin section is exported too (issue 20 §4; tests/api/rounds.rs reads one back).
    let round_robin = create_section(&app, &director, tournament, json!({})).await;
    let (status, _, trf) = get_text(&app, &format!("/api/sections/{round_robin}/trf"), None).await;
    assert_eq!((status, trf.lines().filter(|l| l.starts_with("001")).count()), (StatusCode::OK, 0));
}

#[tokio::test]
async fn a_swiss_bye_scores_the_sections_bye_points_in_every_table() {
    let app = TestApp::spawn().await;
    let (director, _, section) = swiss_section(&app, 3).await;
    let shown = app.get(&format!("/api/sections/{section}"), None).await;
    assert_eq!(shown.expect(StatusCode::OK)["bye_points"], "win", "a win's points by default (FIDE C.04.1)");
    for seed in 1..=3 {
        let player = app.register(&format!("player{seed}")).await;
        let entry = json!({"username": player.name, "seed": seed});
        app.post(&format!("/api/sections/{section}/entries"), Some(&director), entry)
            .await
            .expect(StatusCode::CREATED);
    }
    // Round 1: 1 v 2, and 3 (the lowest-ranked) has the bye.
    let round_one = start(&app, &director, section).await;
    assert_eq!(round_one.len(), 1);
    decide(&app, &director, round_one[0], "adjudicate", "draw", "agreed").await.expect(StatusCode::OK);

    let standings_path = format!("/api/sections/{section}/standings");
    let standings = app.get(&standings_path, None).await;
    let standings = standings.expect(StatusCode::OK);
    assert_eq!(line(standings, "player3")["points"], 1.0, "the bye is worth a win");
    assert_eq!(line(standings, "player3")["record"]["byes"], 1);
    assert_eq!(line(standings, "player3")["games_counted"], 0);
    assert_eq!(line(standings, "player1")["points"], 0.5);

    let table = app.get(&format!("/api/sections/{section}/crosstable.json"), None).await;
    let table = table.expect(StatusCode::OK).clone();
    let row = table["rows"].as_array().unwrap().iter().find(|r| r["player"]["name"] == "player3").unwrap();
    assert_eq!(row["byes"], json!([1]));
    assert_eq!(row["points"], 1.0);
    let (status, _, csv) =
        get_text(&app, &format!("/api/sections/{section}/crosstable.csv?lang=en"), None).await;
    assert_eq!(status, StatusCode::OK);
    assert!(csv.lines().next().unwrap().contains("Bye (round)"), "{csv}");
    let (_, _, trf) = get_text(&app, &format!("/api/sections/{section}/trf"), None).await;
    let third = trf.lines().find(|l| l.starts_with("001    3")).unwrap_or_else(|| panic!("{trf}"));
    assert!(third.ends_with("0000 - U"), "{trf}");
    assert_eq!(&third[80..84], " 1.0", "{trf}");

    // A director may make the bye worth a draw: every table follows.
    let path = format!("/api/sections/{section}");
    let edited = patch(&app, &path, Some(&director), json!({"bye_points": "draw"})).await;
    assert_eq!(edited.expect(StatusCode::OK)["bye_points"], "draw");
    let standings = app.get(&standings_path, None).await;
    assert_eq!(line(standings.expect(StatusCode::OK), "player3")["points"], 0.5);
    let (_, _, trf) = get_text(&app, &format!("/api/sections/{section}/trf"), None).await;
    let third = trf.lines().find(|l| l.starts_with("001    3")).unwrap();
    assert_eq!(&third[80..84], " 0.5", "{trf}");

    // The next round: 3 may not have a second bye.
    let round_two =
        app.post(&format!("/api/sections/{section}/next-round"), Some(&director), json!({})).await;
    assert_eq!(round_two.expect(StatusCode::CREATED)["games"].as_array().unwrap().len(), 1);
    let byes: Vec<(i32, String)> = sqlx::query_as(
        "select b.round, a.username from section_bye b join account a using (account_id) where b.section_id = $1 order by b.round",
    )
    .bind(section)
    .fetch_all(&app.domain.pool)
    .await
    .unwrap();
    assert_eq!(byes.len(), 2);
    assert_ne!(byes[1].1, "player3", "{byes:?}");
}

#[tokio::test]
async fn bye_points_are_for_swiss_sections_and_never_negative() {
    let app = TestApp::spawn().await;
    let director = with_role(&app, "director", "director").await;
    let tournament = create_tournament(&app, &director, "T").await;
    let sections = format!("/api/tournaments/{tournament}/sections");
    let base = json!({"name": "A", "variant": "xiangqi", "time_control": three_days()});
    let with = |extra: Value| {
        let mut body = base.clone();
        if let (Value::Object(body), Value::Object(extra)) = (&mut body, extra) {
            body.extend(extra);
        }
        body
    };
    let reply = app
        .post(&sections, Some(&director), with(json!({"pairing": "round-robin", "bye_points": "draw"})))
        .await;
    reply.expect(StatusCode::UNPROCESSABLE_ENTITY);
    assert!(reply.detail().contains("Swiss"), "{}", reply.detail());
    let swiss = json!({"pairing": "swiss", "swiss_rounds": 3});
    let mut negative = with(swiss.clone());
    negative["bye_points"] = json!(-1);
    app.post(&sections, Some(&director), negative).await.expect(StatusCode::UNPROCESSABLE_ENTITY);
    let mut unknown = with(swiss.clone());
    unknown["bye_points"] = json!("half");
    let reply = app.post(&sections, Some(&director), unknown).await;
    assert!(reply.status.is_client_error(), "{}", reply.status);
    reply.expect(reply.status);
    let mut fixed = with(swiss);
    fixed["bye_points"] = json!(0.5);
    let created = app.post(&sections, Some(&director), fixed).await;
    assert_eq!(created.expect(StatusCode::CREATED)["bye_points"], 0.5);
    let round_robin = create_section(&app, &director, tournament, json!({})).await;
    let shown = app.get(&format!("/api/sections/{round_robin}"), None).await;
    assert!(
        shown.expect(StatusCode::OK)["bye_points"].is_null(),
        "a round-robin bye is no game and no points"
    );
    patch(&app, &format!("/api/sections/{round_robin}"), Some(&director), json!({"bye_points": "win"}))
        .await
        .expect(StatusCode::UNPROCESSABLE_ENTITY);
}

#[tokio::test]
async fn a_round_by_round_round_robin_starts_one_round_at_a_time() {
    let app = TestApp::spawn().await;
    let director = with_role(&app, "director", "director").await;
    let tournament = create_tournament(&app, &director, "T").await;
    let section = create_section(
        &app,
        &director,
        tournament,
        json!({"pairing": "double-round-robin", "start_policy": "round-by-round"}),
    )
    .await;
    four_players(&app, &director, section).await;
    assert_eq!(start(&app, &director, section).await.len(), 2);
    let next = format!("/api/sections/{section}/next-round");
    for round in 2..=6 {
        let started = app.post(&next, Some(&director), json!({})).await;
        assert_eq!(
            started.expect(StatusCode::CREATED)["games"].as_array().unwrap().len(),
            2,
            "round {round}"
        );
    }
    app.post(&next, Some(&director), json!({})).await.expect(StatusCode::CONFLICT);
    app.post(&format!("/api/sections/{section}/start"), Some(&director), json!({}))
        .await
        .expect(StatusCode::CONFLICT);
}

#[tokio::test]
async fn the_openapi_document_describes_the_tournament_routes() {
    let app = TestApp::spawn().await;
    let doc = app.get("/api/openapi.json", None).await.expect(StatusCode::OK).clone();
    for path in [
        "/api/tournaments",
        "/api/tournaments/{id}",
        "/api/tournaments/{id}/sections",
        "/api/tournaments/{id}/grand-prix",
        "/api/sections/{id}/entries",
        "/api/sections/{id}/start",
        "/api/sections/{id}/standings",
        "/api/sections/{id}/crosstable",
        "/api/sections/{id}/trf",
        "/api/games/{id}/adjudicate",
        "/api/games/{id}/forfeit",
        "/api/games/{id}/result-corrections",
        "/api/accounts/me/tournaments",
    ] {
        assert!(doc["paths"][path].is_object(), "{path} is missing from /api/openapi.json");
    }
    assert!(doc["paths"]["/api/accounts"].is_object(), "the server's own routes are still there");
    assert!(doc["components"]["schemas"]["NewSection"].is_object());
}

#[tokio::test]
async fn a_sections_settings_are_fixed_at_the_start_but_its_scoring_is_not() {
    let app = TestApp::spawn().await;
    let director = with_role(&app, "director", "director").await;
    let other = with_role(&app, "other", "director").await;
    let tournament = create_tournament(&app, &director, "T").await;
    let section = create_section(&app, &director, tournament, json!({})).await;
    let path = format!("/api/sections/{section}");
    patch(&app, &path, Some(&other), json!({"name": "Mine"})).await.expect(StatusCode::FORBIDDEN);
    let edited =
        patch(&app, &path, Some(&director), json!({"ruleset": "basic", "tie_breaks": ["wins"]})).await;
    let edited = edited.expect(StatusCode::OK);
    assert_eq!(edited["ruleset"], "basic");
    assert_eq!(edited["tie_breaks"], json!(["wins"]));
    patch(&app, &path, Some(&director), json!({"ruleset": "shogi-24"}))
        .await
        .expect(StatusCode::UNPROCESSABLE_ENTITY);
    four_players(&app, &director, section).await;
    let games = start(&app, &director, section).await;
    assert_eq!(app.game(games[0]).await["ruleset"], "basic", "the games use the section's ruleset");
    patch(&app, &path, Some(&director), json!({"time_control": three_days()}))
        .await
        .expect(StatusCode::CONFLICT);
    let rescored = patch(&app, &path, Some(&director), json!({"scoring": "3-2-1-0"})).await;
    assert_eq!(rescored.expect(StatusCode::OK)["scoring"]["win"], 3.0);
    let finished = patch(&app, &path, Some(&director), json!({"status": "finished"})).await;
    assert_eq!(finished.expect(StatusCode::OK)["status"], "finished");
    patch(&app, &path, Some(&director), json!({"status": "running"})).await.expect(StatusCode::CONFLICT);
}

#[tokio::test]
async fn the_grand_prix_table_adds_up_the_sections_by_the_tournaments_formula() {
    let app = TestApp::spawn().await;
    let director = with_role(&app, "director", "director").await;
    let gp = json!({"formula": {"kind": "placement-points", "table": [10, 6, 4]}, "best_sections": null,
                    "tie_breaks": ["sections-played"]});
    let tournament = app
        .post("/api/tournaments", Some(&director), json!({"name": "Grand Prix", "grand_prix": gp}))
        .await
        .expect(StatusCode::CREATED)["id"]
        .as_i64()
        .unwrap();
    for name in ["ann", "ben", "cat"] {
        app.register(name).await;
    }
    let mut games = Vec::new();
    for (section_name, opponent) in [("Xiangqi", "ben"), ("Shogi", "cat")] {
        let section = create_section(&app, &director, tournament, json!({"name": section_name})).await;
        for (seed, player) in [(1, "ann"), (2, opponent)] {
            app.post(
                &format!("/api/sections/{section}/entries"),
                Some(&director),
                json!({"username": player, "seed": seed}),
            )
            .await
            .expect(StatusCode::CREATED);
        }
        games.extend(start(&app, &director, section).await);
    }
    for &game in &games {
        decide(&app, &director, game, "adjudicate", "1-0", "ann was winning").await.expect(StatusCode::OK);
    }
    let table = app.get(&format!("/api/tournaments/{tournament}/grand-prix.json"), None).await;
    let table = table.expect(StatusCode::OK);
    assert_eq!(table["rows"][0]["player"]["name"], "ann");
    assert_eq!(table["rows"][0]["score"], 20.0, "first in both sections: 10 + 10");
    assert_eq!(table["rows"][1]["score"], 6.0);
    assert_eq!(table["rows"][1]["place"], json!({"first": 2, "last": 3}), "ben and cat share second place");
    assert_eq!(table["sections"].as_array().unwrap().len(), 2);
    let (status, content_type, csv) =
        get_text(&app, &format!("/api/tournaments/{tournament}/grand-prix?format=csv&lang=en"), None).await;
    assert_eq!(status, StatusCode::OK);
    assert!(content_type.starts_with("text/csv"));
    assert_eq!(csv.lines().count(), 4, "{csv}");
    app.get(&format!("/api/tournaments/{tournament}/grand-prix?format=pdf"), None)
        .await
        .expect(StatusCode::UNPROCESSABLE_ENTITY);
}

#[tokio::test]
async fn a_withdrawal_before_the_start_removes_the_entry_from_the_draw() {
    let app = TestApp::spawn().await;
    let director = with_role(&app, "director", "director").await;
    let tournament = create_tournament(&app, &director, "T").await;
    let section =
        create_section(&app, &director, tournament, json!({"start_policy": "round-by-round"})).await;
    four_players(&app, &director, section).await;
    let eve = app.register("eve").await;
    app.post(&format!("/api/sections/{section}/entries"), Some(&director), json!({"username": "eve"}))
        .await
        .expect(StatusCode::CREATED);
    let left =
        app.post(&format!("/api/sections/{section}/entries/eve/withdraw"), Some(&eve), json!({})).await;
    assert_eq!(left.expect(StatusCode::OK)["entries"].as_array().unwrap().len(), 4);
    assert_eq!(start(&app, &director, section).await.len(), 2, "four players: no byes");
    for _ in 2..=3 {
        let next = app.post(&format!("/api/sections/{section}/next-round"), Some(&director), json!({})).await;
        assert_eq!(next.expect(StatusCode::CREATED)["games"].as_array().unwrap().len(), 2);
    }
    let mine = app.get("/api/accounts/me/tournaments", Some(&eve)).await;
    assert_eq!(mine.expect(StatusCode::OK).as_array().unwrap().len(), 0);
}

#[tokio::test]
async fn a_minishogi_section_creates_real_games_under_its_ruleset() {
    let app = TestApp::spawn().await;
    let director = with_role(&app, "director", "director").await;
    let tournament = create_tournament(&app, &director, "T").await;
    let section = create_section(
        &app,
        &director,
        tournament,
        json!({"name": "MiniShogi", "variant": "minishogi", "ruleset": "aise", "vacation_allowed": false}),
    )
    .await;
    for (seed, name) in [(1, "sente"), (2, "gote")] {
        app.register(name).await;
        app.post(
            &format!("/api/sections/{section}/entries"),
            Some(&director),
            json!({"username": name, "seed": seed}),
        )
        .await
        .expect(StatusCode::CREATED);
    }
    let games = start(&app, &director, section).await;
    let game = app.game(games[0]).await;
    assert_eq!(game["variant"], "minishogi");
    assert_eq!(game["ruleset"], "aise");
    assert_eq!(game["vacation_allowed"], false);
    assert_eq!(seat_names(&game), ("sente".to_owned(), "gote".to_owned()));
    assert!(!game["legal_moves"].as_array().unwrap().is_empty(), "the real rules run the game: {game}");
    let wrong = json!({"name": "X", "variant": "minishogi", "ruleset": "cxq", "time_control": three_days(),
                       "pairing": "round-robin"});
    app.post(&format!("/api/tournaments/{tournament}/sections"), Some(&director), wrong)
        .await
        .expect(StatusCode::UNPROCESSABLE_ENTITY);
}

#[tokio::test]
async fn tournament_games_cannot_be_aborted_and_pair_two_player_variants_only() {
    let app = TestApp::spawn().await;
    let director = with_role(&app, "director", "director").await;
    let tournament = create_tournament(&app, &director, "T").await;
    let seven = json!({"name": "7K", "variant": "seven-kingdoms", "time_control": three_days(),
                       "pairing": "round-robin"});
    app.post(&format!("/api/tournaments/{tournament}/sections"), Some(&director), seven)
        .await
        .expect(StatusCode::UNPROCESSABLE_ENTITY);
    let section =
        create_section(&app, &director, tournament, json!({"name": "F", "variant": "flickering"})).await;
    let mut players = Vec::new();
    for (seed, name) in [(1, "white"), (2, "black")] {
        players.push(app.register(name).await);
        app.post(
            &format!("/api/sections/{section}/entries"),
            Some(&director),
            json!({"username": name, "seed": seed}),
        )
        .await
        .expect(StatusCode::CREATED);
    }
    let games = start(&app, &director, section).await;
    let game = app.game(games[0]).await;
    assert_eq!(game["variant"], "flickering");
    for player in &players {
        // Before anybody moved a casual game could be aborted; a tournament game cannot.
        let refused = app.act(Some(player), games[0], "abort").await;
        assert_eq!(refused.status, StatusCode::CONFLICT, "{}", refused.body);
        assert!(refused.detail().contains("director"), "{}", refused.detail());
    }
    assert_eq!(app.game(games[0]).await["status"], "active");
}

/// GET `path` with an `Accept-Language` header (or none): the body as text.
async fn text_in(app: &TestApp, path: &str, accept_language: Option<&str>) -> String {
    let mut request = app.client.get(format!("{}{path}", app.address));
    if let Some(accept_language) = accept_language {
        request = request.header("accept-language", accept_language);
    }
    let response = request.send().await.expect("request");
    assert_eq!(response.status(), StatusCode::OK);
    response.text().await.expect("text")
}

#[tokio::test]
async fn tables_and_pages_speak_the_readers_language_then_the_sites() {
    let configured = TestApp::spawn_with(|settings| {
        settings.application.default_language = tavoliere::web::i18n::Lang::It;
    });
    let (app, italian_site) = tokio::join!(TestApp::spawn(), configured);
    for (site, site_language) in [(&app, "en"), (&italian_site, "it")] {
        let director = with_role(site, "director", "director").await;
        let tournament = create_tournament(site, &director, "Campionato").await;
        let section = create_section(site, &director, tournament, json!({})).await;
        four_players(site, &director, section).await;
        let crosstable = format!("/api/sections/{section}/crosstable.html");
        let grand_prix = format!("/api/tournaments/{tournament}/grand-prix.csv");
        for path in [&crosstable, &grand_prix] {
            let italian = text_in(site, &format!("{path}?lang=it"), None).await;
            let english = text_in(site, &format!("{path}?lang=en"), None).await;
            assert_ne!(italian, english, "{path}: the two languages differ");
            // The reader's browser, by its preference order.
            assert_eq!(text_in(site, path, Some("it-IT,it;q=0.9,en;q=0.8")).await, italian, "{path}");
            assert_eq!(text_in(site, path, Some("de-DE,en;q=0.7,it;q=0.5")).await, english, "{path}");
            // `?lang=` wins over the header.
            assert_eq!(text_in(site, &format!("{path}?lang=en"), Some("it")).await, english, "{path}");
            // No language the tables speak: the site's default (`[application] default_language`).
            let default = if site_language == "it" { &italian } else { &english };
            assert_eq!(&text_in(site, path, None).await, default, "{path} without Accept-Language");
            assert_eq!(&text_in(site, path, Some("fr-FR")).await, default, "{path} in French");
        }
        // The pages follow the same default.
        let page = text_in(site, "/login", None).await;
        assert!(page.contains(&format!(r#"<html lang="{site_language}">"#)), "{page}");
        assert!(text_in(site, "/login", Some("it")).await.contains(r#"<html lang="it">"#));
    }
}

#[tokio::test]
async fn a_player_registers_with_an_empty_body_or_none() {
    let app = TestApp::spawn().await;
    let director = with_role(&app, "director", "director").await;
    let tournament = create_tournament(&app, &director, "Open").await;
    open_registration(&app, &director, tournament).await;
    let section = create_section(&app, &director, tournament, json!({})).await;
    let entries = format!("{}/api/sections/{section}/entries", app.address);
    let entrants = |section: &Value| -> Vec<String> {
        let entries = section["entries"].as_array().expect("entries").iter();
        entries.map(|entry| entry["username"].as_str().unwrap().to_owned()).collect()
    };

    // No body and no content type: the schema's "oneself".
    let ann = app.register("ann").await;
    let response = app.client.post(&entries).bearer_auth(&ann.token).send().await.unwrap();
    assert_eq!(response.status(), StatusCode::CREATED);
    assert_eq!(entrants(&response.json().await.unwrap()), ["ann"]);
    // An empty body with the JSON content type, and `{}`, do the same.
    let ben = app.register("ben").await;
    let response = app
        .client
        .post(&entries)
        .bearer_auth(&ben.token)
        .header("content-type", "application/json")
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::CREATED);
    let cat = app.register("cat").await;
    let section_now = app.post(&format!("/api/sections/{section}/entries"), Some(&cat), json!({})).await;
    assert_eq!(entrants(section_now.expect(StatusCode::CREATED)), ["ann", "ben", "cat"]);

    // A body that is there must still be JSON, and say so.
    let dan = app.register("dan").await;
    let response =
        app.client.post(&entries).bearer_auth(&dan.token).body("username=dan").send().await.unwrap();
    assert_eq!(response.status(), StatusCode::UNSUPPORTED_MEDIA_TYPE);
    let reply =
        app.post_raw(&format!("/api/sections/{section}/entries"), "application/json", "{".into()).await;
    assert!(reply.status.is_client_error(), "{reply:?}");
    // Nobody signed in: 401 before the body is looked at.
    let response = app.client.post(&entries).send().await.unwrap();
    assert_eq!(response.status(), StatusCode::UNAUTHORIZED);
    let section_now = app.get(&format!("/api/sections/{section}"), None).await;
    assert_eq!(entrants(section_now.expect(StatusCode::OK)), ["ann", "ben", "cat"]);
}

#[tokio::test]
async fn deciding_a_game_asks_who_before_what() {
    let app = TestApp::spawn().await;
    let alice = with_role(&app, "alice", "director").await;
    let bob = with_role(&app, "bob", "director").await;
    let admin = with_role(&app, "root", "admin").await;
    let tournament = create_tournament(&app, &alice, "Alice's").await;
    let section = create_section(&app, &alice, tournament, json!({})).await;
    let players = four_players(&app, &alice, section).await;
    let games = start(&app, &alice, section).await;
    let casual = app.start_game("xiangqi", &players[0], &players[1], three_days()).await;

    for action in ["adjudicate", "forfeit", "result-corrections"] {
        // A player, on a casual game or on their own tournament game: not a director.
        for game in [casual, games[0]] {
            let reply = decide(&app, &players[0], game, action, "1-0", "I won").await;
            reply.expect(StatusCode::FORBIDDEN);
        }
        // A director of another tournament, even with a result that means nothing.
        decide(&app, &bob, games[0], action, "a walkover", "").await.expect(StatusCode::FORBIDDEN);
        decide(&app, &bob, casual, action, "1-0", "mine").await.expect(StatusCode::FORBIDDEN);
        let missing = app.post(&format!("/api/games/{}/{action}", games[0]), Some(&bob), json!({})).await;
        missing.expect(StatusCode::FORBIDDEN);
        // Only who may decide learns what is wrong with the decision.
        let reply = decide(&app, &alice, games[0], action, "a walkover", "why not").await;
        reply.expect(StatusCode::UNPROCESSABLE_ENTITY);
        assert!(reply.detail().contains("unknown result"), "{}", reply.detail());
        let missing = app.post(&format!("/api/games/{}/{action}", games[0]), Some(&alice), json!({})).await;
        missing.expect(StatusCode::UNPROCESSABLE_ENTITY);
        let reply = decide(&app, &admin, casual, action, "1-0", "mine").await;
        reply.expect(StatusCode::UNPROCESSABLE_ENTITY);
        assert!(reply.detail().contains("not a tournament game"), "{}", reply.detail());
    }
    decide(&app, &alice, 999_999, "adjudicate", "1-0", "x").await.expect(StatusCode::NOT_FOUND);
    assert_eq!(app.game(casual).await["status"], "active", "nothing decided");
    assert_eq!(app.game(games[0]).await["status"], "active");
}

/// Issue 16 §2: a director's decision ends the game through the games' one ending path
/// and is announced like a resignation: a watcher's socket hears the result without any
/// resync (the tests run without one).
#[tokio::test]
async fn a_watcher_sees_a_directors_adjudication_at_once() {
    let app = TestApp::spawn().await;
    let director = with_role(&app, "director", "director").await;
    let tournament = create_tournament(&app, &director, "T").await;
    let section = create_section(&app, &director, tournament, json!({})).await;
    four_players(&app, &director, section).await;
    let game = start(&app, &director, section).await[0];
    let mut watcher = crate::live::Socket::open(&app, game, None, None).await;
    watcher.next_of("state").await;
    decide(&app, &director, game, "adjudicate", "0-1", "lost ending").await.expect(StatusCode::OK);
    let result = watcher.next_of("result").await;
    assert_eq!(result["status"], "finished");
    assert_eq!(result["result"], "0-1");
    assert_eq!(result["reason"], "adjudication");
    let view = app.game(game).await;
    assert_eq!(view["seats"][1]["outcome"], "win");
    assert_eq!(view["seats"][0]["outcome"], "loss");
}

/// Issue 42: the section's edition and acceleration, a round's pairing explained (and
/// paired again identically), a withdrawn player out of the next round with the absence
/// code in the TRF.
#[tokio::test]
async fn a_swiss_round_is_explained_and_a_withdrawn_player_is_left_out() {
    let app = TestApp::spawn().await;
    let director = with_role(&app, "director", "director").await;
    let tournament = create_tournament(&app, &director, "T").await;
    // The Baku acceleration adds a win's and a draw's points: 3-2-1-0 makes no sense of it.
    let baku = json!({"name": "Open", "variant": "xiangqi", "time_control": three_days(), "pairing": "swiss",
        "swiss_rounds": 5, "acceleration": "baku", "scoring": "3-2-1-0"});
    let reply = app.post(&format!("/api/tournaments/{tournament}/sections"), Some(&director), baku).await;
    reply.expect(StatusCode::UNPROCESSABLE_ENTITY);
    let fields = json!({"pairing": "swiss", "swiss_rounds": 5, "name": "Open", "acceleration": "baku"});
    let section = create_section(&app, &director, tournament, fields).await;
    let shown = app.get(&format!("/api/sections/{section}"), None).await;
    let shown = shown.expect(StatusCode::OK);
    assert_eq!((&shown["dutch_edition"], &shown["acceleration"]), (&json!("fide-2025"), &json!("baku")));
    let players = four_players(&app, &director, section).await;
    let round_one = start(&app, &director, section).await;
    let path = |round: u32| format!("/api/sections/{section}/rounds/{round}/pairing-explanation");
    let explained = app.get(&path(1), None).await;
    let explained = explained.expect(StatusCode::OK).clone();
    assert_eq!(explained["identical"], true, "{explained}");
    assert_eq!(explained["explanation"]["pairs"].as_array().unwrap().len(), 2, "{explained}");
    for pair in explained["explanation"]["pairs"].as_array().unwrap() {
        assert_eq!(pair["bracket"].as_u64().map(|b| b >= 1), Some(true), "{pair}");
        assert!(pair["colour"].is_string(), "{pair}");
    }
    let sentences = explained["sentences"].as_array().unwrap();
    assert!(sentences.iter().any(|s| s.as_str().unwrap().starts_with("Board 1:")), "{explained}");
    app.get(&path(2), None).await.expect(StatusCode::NOT_FOUND);

    for &game in &round_one {
        decide(&app, &director, game, "adjudicate", "1-0", "end of round").await.expect(StatusCode::OK);
    }
    let withdrawn = &players[3].name;
    app.post(&format!("/api/sections/{section}/entries/{withdrawn}/withdraw"), Some(&director), json!({}))
        .await
        .expect(StatusCode::OK);
    let (_, _, trf) = get_text(&app, &format!("/api/sections/{section}/trf"), None).await;
    let fourth = trf.lines().find(|l| l.starts_with("001    4")).unwrap_or_else(|| panic!("{trf}"));
    assert!(fourth.ends_with("0000 - Z"), "the withdrawn player is out of round 2:\n{trf}");
    assert!(trf.contains("192 FIDE_DUTCH_2025_BAKU"), "{trf}");
    let next = app.post(&format!("/api/sections/{section}/next-round"), Some(&director), json!({})).await;
    assert_eq!(
        next.expect(StatusCode::CREATED)["games"].as_array().unwrap().len(),
        1,
        "three players: a game and a bye"
    );
    let explained = app.get(&path(2), None).await;
    let explained = explained.expect(StatusCode::OK).clone();
    assert_eq!(explained["identical"], true, "{explained}");
    assert!(explained["explanation"]["bye"]["player"].is_i64(), "{explained}");
    // While round 2 is in play the TRF is the input that pairs it again: no game without a
    // result, its games as comments.
    let (_, _, trf) = get_text(&app, &format!("/api/sections/{section}/trf"), None).await;
    assert!(trf.contains("### round 2 not finished"), "{trf}");
    let read = tavoliere_tournament::trf::trf_import(&trf).unwrap();
    assert_eq!(read.round_to_pair(), 2, "{trf}");

    // Round-robins have no pairing explanation.
    let round_robin = create_section(&app, &director, tournament, json!({})).await;
    let path = format!("/api/sections/{round_robin}/rounds/1/pairing-explanation");
    app.get(&path, None).await.expect(StatusCode::UNPROCESSABLE_ENTITY);
}
