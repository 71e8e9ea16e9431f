//! Rated tournaments (issue 18 §1): a section may be rated (its games change the ratings
//! through the same ending as rated challenges) and seeded by rating, and its standings,
//! crosstable and the Grand Prix table show each player's rating.

use reqwest::StatusCode;
use serde_json::{json, Value};

use crate::support::{three_days, TestApp, User};
use crate::tournaments::{create_section, create_tournament, start, with_role};

/// `winner` beats `loser` in a rated correspondence Xiangqi game (both 1500 before their
/// first: 1662 and 1338 after).
async fn rated_win(app: &TestApp, winner: &User, loser: &User) {
    let fields = json!({"variant": "xiangqi", "time_control": three_days(), "rated": true});
    let game = app.start_game_with(winner, loser, fields).await;
    app.act(Some(loser), game, "resign").await.expect(StatusCode::OK);
}

fn names(entries: &Value) -> Vec<(String, Value, Value)> {
    entries
        .as_array()
        .unwrap()
        .iter()
        .map(|e| (e["username"].as_str().unwrap().to_owned(), e["seed"].clone(), e["rating"].clone()))
        .collect()
}

#[tokio::test]
async fn a_rated_section_seeded_by_rating_rates_its_games_and_shows_the_ratings() {
    let app = TestApp::spawn().await;
    let director = with_role(&app, "director", "director").await;
    let tournament = create_tournament(&app, &director, "Rated open").await;
    let sections = format!("/api/tournaments/{tournament}/sections");

    // A rated section must be ratable: no handicap.
    let body = json!({"name": "H", "variant": "shogi", "time_control": three_days(), "pairing": "round-robin",
                      "handicap": "two-pieces", "rated": true});
    let refused = app.post(&sections, Some(&director), body).await;
    assert_eq!(
        refused.expect(StatusCode::UNPROCESSABLE_ENTITY)["errors"][0]["code"],
        "challenge.unrated-setup"
    );
    let bad_seeding = json!({"name": "S", "variant": "xiangqi", "time_control": three_days(),
                             "pairing": "round-robin", "seeding": "age"});
    assert!(app.post(&sections, Some(&director), bad_seeding).await.status.is_client_error());
    // The default is as before: unrated, seeded by registration.
    let plain = create_section(&app, &director, tournament, json!({"name": "Plain"})).await;
    let shown = app.get(&format!("/api/sections/{plain}"), None).await.expect(StatusCode::OK).clone();
    assert_eq!((shown["rated"].clone(), shown["seeding"].clone()), (json!(false), json!("registration")));

    let section = create_section(
        &app,
        &director,
        tournament,
        json!({"name": "Elite", "rated": true, "seeding": "rating"}),
    )
    .await;
    let path = format!("/api/sections/{section}");
    let shown = app.get(&path, None).await.expect(StatusCode::OK).clone();
    assert_eq!((shown["rated"].clone(), shown["seeding"].clone()), (json!(true), json!("rating")));

    // Four players registered in the order a, b, c, d; c and d have ratings (carla 1662 after
    // beating d, d 1338), a and b none.
    let players: Vec<User> = register_all(&app, ["anna", "bruno", "carla", "dario"]).await;
    rated_win(&app, &players[2], &players[3]).await;
    let open = json!({"status": "registration"});
    let tournament_path = format!("/api/tournaments/{tournament}");
    crate::tournaments::patch(&app, &tournament_path, Some(&director), open).await.expect(StatusCode::OK);
    for player in &players {
        let entry = app.post(&format!("{path}/entries"), Some(player), json!({})).await;
        entry.expect(StatusCode::CREATED);
    }
    // A section seeded by rating takes no seeds from its director.
    let seeded = app
        .post(&format!("{path}/entries"), Some(&director), json!({"username": "director", "seed": 1}))
        .await;
    seeded.expect(StatusCode::CONFLICT);
    let seed =
        crate::tournaments::patch(&app, &format!("{path}/entries/anna"), Some(&director), json!({"seed": 1}))
            .await;
    assert_eq!(seed.status, StatusCode::CONFLICT, "{:?}", seed.body);

    let before = app.get(&path, None).await.expect(StatusCode::OK).clone();
    assert_eq!(
        names(&before["entries"]),
        vec![
            ("anna".into(), Value::Null, Value::Null),
            ("bruno".into(), Value::Null, Value::Null),
            ("carla".into(), Value::Null, json!(1662)),
            ("dario".into(), Value::Null, json!(1338)),
        ],
        "registration order before the start, with the ratings"
    );
    let games = start(&app, &director, section).await;
    let after = app.get(&path, None).await.expect(StatusCode::OK).clone();
    assert_eq!(
        names(&after["entries"]),
        vec![
            ("carla".into(), json!(1), json!(1662)),
            ("dario".into(), json!(2), json!(1338)),
            ("anna".into(), json!(3), Value::Null),
            ("bruno".into(), json!(4), Value::Null),
        ],
        "rated players by rating, then the unrated by registration"
    );
    // Berger round 1 of four: seed 1 meets seed 4 (c against b), seed 2 seed 3.
    let mut game = None;
    for &id in &games {
        let view = app.game(id).await;
        assert_eq!(view["rated"], true, "every game of a rated section is rated");
        let round: i32 = sqlx::query_scalar("select round from game where game_id = $1")
            .bind(id)
            .fetch_one(&app.domain.pool)
            .await
            .unwrap();
        let seats = (view["seats"][0]["username"].clone(), view["seats"][1]["username"].clone());
        if seats == (json!("carla"), json!("bruno")) {
            assert_eq!(round, 1, "the first seed meets the last in round 1");
            game = Some(id);
        }
    }
    let game = game.expect("carla (seed 1) has the first move against bruno (seed 4)");

    // A game of the section ends: both ratings change once, through the game's ending.
    let b = &players[1];
    let ended = app.act(Some(b), game, "resign").await.expect(StatusCode::OK).clone();
    assert_eq!(ended["seats"][0]["rating_before"], 1662);
    assert!(ended["seats"][0]["rating_after"].as_i64().unwrap() > 1662);
    assert_eq!(ended["seats"][1]["rating_before"], 1500);
    assert!(ended["seats"][1]["rating_after"].as_i64().unwrap() < 1500);
    let history: i64 = sqlx::query_scalar("select count(*) from rating_history where game_id = $1")
        .bind(game)
        .fetch_one(&app.domain.pool)
        .await
        .unwrap();
    assert_eq!(history, 2, "one history row per player");
    let b_rating = ended["seats"][1]["rating_after"].clone();
    let c_rating = ended["seats"][0]["rating_after"].clone();

    // The standings, the crosstable (JSON, HTML, CSV) and the Grand Prix table show them.
    let standings = app.get(&format!("{path}/standings"), None).await.expect(StatusCode::OK).clone();
    let line = |name: &str| {
        standings["standings"].as_array().unwrap().iter().find(|l| l["username"] == name).unwrap().clone()
    };
    assert_eq!(line("carla")["rating"], c_rating);
    assert_eq!(line("bruno")["rating"], b_rating);
    assert_eq!(line("anna")["rating"], Value::Null);
    let crosstable = app.get(&format!("{path}/crosstable.json"), None).await.expect(StatusCode::OK).clone();
    let row = crosstable["rows"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["player"]["name"] == "dario")
        .unwrap()
        .clone();
    assert_eq!(row["player"]["rating"], 1338);
    let html = app.get_text(&format!("{path}/crosstable.html?lang=en")).await;
    assert!(html.contains("<th scope=\"col\" class=\"rating\">Rating</th>"), "{html}");
    assert!(html.contains("<td class=\"rating\">1338</td>"), "{html}");
    let csv = app.get_text(&format!("{path}/crosstable.csv?lang=en")).await;
    assert!(csv.lines().next().unwrap().contains(",Player,Rating,"), "{csv}");
    assert!(csv.contains(",dario,1338,"), "{csv}");
    let gp = app.get(&format!("/api/tournaments/{tournament}/grand-prix.json"), None).await;
    let gp = gp.expect(StatusCode::OK).clone();
    let d = gp["rows"].as_array().unwrap().iter().find(|r| r["player"]["name"] == "dario").unwrap().clone();
    assert_eq!(d["player"]["rating"], 1338);
    let gp_html = app.get_text(&format!("/api/tournaments/{tournament}/grand-prix.html?lang=en")).await;
    assert!(gp_html.contains("<td class=\"rating\">1338</td>"), "{gp_html}");

    // Fixed once started.
    let late = crate::tournaments::patch(&app, &path, Some(&director), json!({"rated": false})).await;
    late.expect(StatusCode::CONFLICT);
}

async fn register_all<const N: usize>(app: &TestApp, names: [&str; N]) -> Vec<User> {
    let mut users = Vec::new();
    for name in names {
        users.push(app.register(name).await);
    }
    users
}
