//! The two games that do not fit "two players, one move a turn": Flickering chess (a turn
//! is a series of moves, stored one row per move with the turn's number; issue 8) and the
//! Seven Kingdoms (3 to 7 seats filled by accepting, per-seat clocks, a seat that times out
//! leaves and the game goes on; issue 9). Played through the REST API with the real rules.

use reqwest::StatusCode;
use serde_json::{json, Value};
use time::Duration;

use crate::support::{three_days, TestApp, User};

fn texts(state: &Value, field: &str) -> Vec<String> {
    state["moves"].as_array().unwrap().iter().map(|m| m[field].as_str().unwrap_or("").to_owned()).collect()
}

#[tokio::test]
async fn a_flickering_game_through_the_api() {
    let app = TestApp::spawn().await;
    let white = app.register("white").await;
    let black = app.register("black").await;
    let game = app.start_game("flickering", &white, &black, three_days()).await;
    let start = app.game(game).await;
    assert_eq!(start["legal_moves"].as_array().unwrap().len(), 20, "the first moves of a series");
    assert_eq!(start["seats"][0]["color"], "first");
    assert_eq!(start["display_notation"], "algebraic");

    // A series in coordinates: one turn, two stored moves sharing the turn number.
    let state = app.post_move(&white, game, "e2e4, d2d4", 0).await.expect(StatusCode::CREATED).clone();
    assert_eq!(state["ply"], 2, "the ply counts stored moves");
    assert_eq!(texts(&state, "canonical"), ["e2e4", "d2d4"]);
    assert_eq!(texts(&state, "display"), ["e4", "d4"]);
    assert_eq!(state["moves"][0]["turn_number"], state["moves"][1]["turn_number"]);
    assert_eq!(state["to_move_seat"], 1);

    // A stale ply, the same piece twice, a move of the wrong side: refused, nothing stored.
    app.post_move(&black, game, "e7e5", 1).await.expect(StatusCode::CONFLICT);
    app.post_move(&black, game, "g8f6, f6g4", 2).await.expect(StatusCode::UNPROCESSABLE_ENTITY);
    app.post_move(&black, game, "g1f3", 2).await.expect(StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(app.stored_moves(game).await, 2);

    // Algebraic with the series label: three moves, the bishop freed by e5's neighbour.
    let state = app.post_move(&black, game, "b) e5, d5, Bb4+", 2).await.expect(StatusCode::CREATED).clone();
    assert_eq!(state["ply"], 5);
    assert_eq!(texts(&state, "canonical")[2..], ["e7e5", "d7d5", "f8b4"]);
    let turns: Vec<i64> =
        state["moves"].as_array().unwrap().iter().map(|m| m["turn_number"].as_i64().unwrap()).collect();
    assert_eq!(turns, [1, 1, 2, 2, 2]);

    // Building the next series move by move: the legal continuations and whether it may end.
    let options = app.get(&format!("/api/games/{game}/series?prefix="), None).await;
    let options = options.expect(StatusCode::OK);
    assert_eq!(options["can_end"], false, "a series has at least one move");
    assert!(options["next"].as_array().unwrap().contains(&json!("c2c3")), "{options}");
    let options = app.get(&format!("/api/games/{game}/series?prefix=c2c3"), None).await;
    let options = options.expect(StatusCode::OK);
    assert_eq!(options["can_end"], true, "c3 blocks the check: the series may end");
    assert!(!options["next"].as_array().unwrap().iter().any(|m| m.as_str().unwrap().starts_with("c3")));
    let options = app.get(&format!("/api/games/{game}/series?prefix=g1f3"), None).await;
    assert_eq!(options.expect(StatusCode::OK)["can_end"], false, "the king is still in check");
    app.get(&format!("/api/games/{game}/series?prefix=a1a5"), None)
        .await
        .expect(StatusCode::UNPROCESSABLE_ENTITY);

    // In check, a series that leaves the king attacked is refused.
    app.post_move(&white, game, "g1f3", 5).await.expect(StatusCode::UNPROCESSABLE_ENTITY);
    let state = app.post_move(&white, game, "c2c3, g1f3", 5).await.expect(StatusCode::CREATED).clone();
    assert_eq!(state["ply"], 7);

    // The record groups each series; the board of a ply inside a series shows the turn
    // before it.
    let record = app.get_text(&format!("/games/{game}/record/record")).await;
    assert!(record.contains("e4, d4"), "{record}");
    assert!(record.contains("[White \"white\"]"), "{record}");
    let mid = app.get_text(&format!("/games/{game}/board.svg?ply=6")).await;
    let before = app.get_text(&format!("/games/{game}/board.svg?ply=5")).await;
    assert_eq!(mid, before, "ply 6 is inside White's second series");

    let resigned = app.act(Some(&black), game, "resign").await;
    assert_eq!(resigned.expect(StatusCode::OK)["result"], "1-0");
}

#[tokio::test]
async fn a_flickering_series_that_mates_ends_the_game() {
    let app = TestApp::spawn().await;
    let white = app.register("white").await;
    let black = app.register("black").await;
    let start = "k7/8/2K5/8/8/8/8/7R w - - 0 1";
    let game = app
        .start_game_with(
            &white,
            &black,
            json!({"variant": "flickering", "start_position": start, "time_control": three_days()}),
        )
        .await;
    // Kb6 then Rh8: no series of Black frees the king (flickering-chess.md "Mate").
    let check =
        app.post(&format!("/api/games/{game}/moves/check"), Some(&white), json!({"move": "Kb6, Rh8"})).await;
    assert_eq!(check.expect(StatusCode::OK)["reason"], "checkmate");
    let state = app.post_move(&white, game, "Kb6, Rh8", 0).await.expect(StatusCode::CREATED).clone();
    assert_eq!(state["status"], "finished");
    assert_eq!(state["result"], "1-0");
    assert_eq!(state["reason"], "checkmate");
    assert_eq!(state["seats"][0]["outcome"], "win");
    assert_eq!(state["seats"][1]["outcome"], "loss");
    app.post_move(&black, game, "Ka7", 2).await.expect(StatusCode::CONFLICT);
}

/// `host` opens a Seven Kingdoms challenge of three days a move with `fields` (seats,
/// color, start position...) → the challenge.
async fn open_seven_kingdoms(app: &TestApp, host: &User, mut fields: Value) -> Value {
    fields["variant"] = json!("seven-kingdoms");
    fields["time_control"] = three_days();
    app.post("/api/challenges", Some(host), fields).await.expect(StatusCode::CREATED).clone()
}

/// Creates a Seven Kingdoms challenge by `host` (seat 0: Qin) for `guests.len() + 1` seats
/// and has every guest accept → the game.
pub(crate) async fn seven_kingdoms_game(app: &TestApp, host: &User, guests: &[&User]) -> i64 {
    let seats = guests.len() + 1;
    let challenge = open_seven_kingdoms(app, host, json!({"seats": seats, "color": "first"})).await;
    assert_eq!(challenge["seat_count"], seats);
    assert_eq!(challenge["entrants"], json!([host.name]));
    let id = challenge["id"].as_i64().unwrap();
    let path = format!("/api/challenges/{id}/accept");
    app.post(&path, Some(host), json!({})).await.expect(StatusCode::FORBIDDEN);
    for (i, guest) in guests.iter().enumerate() {
        let reply = app.post(&path, Some(guest), json!({})).await;
        if i + 1 < guests.len() {
            let taken = reply.expect(StatusCode::OK);
            assert_eq!(taken["game_id"], Value::Null, "the game waits for every seat");
            assert_eq!(taken["seats_taken"], i + 2);
            app.post(&path, Some(guest), json!({})).await.expect(StatusCode::CONFLICT);
        } else {
            let body = reply.expect(StatusCode::CREATED);
            assert_eq!(body["seats_taken"], seats);
            return body["game_id"].as_i64().unwrap();
        }
    }
    unreachable!("at least two guests")
}

/// Plays the first legal move of whoever is to move; returns the new state.
async fn play_first_legal(app: &TestApp, users: &[User], state: &Value) -> Value {
    let seat = state["to_move_seat"].as_i64().unwrap() as usize;
    let username = state["seats"][seat]["username"].as_str().unwrap();
    let user = users.iter().find(|u| u.name == username).unwrap();
    let text = state["legal_moves"][0].as_str().unwrap();
    let ply = state["ply"].as_i64().unwrap();
    let game = state["id"].as_i64().unwrap();
    app.post_move(user, game, text, ply).await.expect(StatusCode::CREATED).clone()
}

#[tokio::test]
async fn a_seven_seat_game_goes_on_when_a_player_times_out() {
    let app = TestApp::spawn().await;
    let mut users = Vec::new();
    for name in ["qin", "chu", "han", "qi_", "wei", "zhao", "yan"] {
        users.push(app.register(name).await);
    }
    let guests: Vec<&User> = users[1..].iter().collect();
    let game = seven_kingdoms_game(&app, &users[0], &guests).await;
    let mut state = app.game(game).await;
    assert_eq!(state["seat_count"], 7);
    let labels: Vec<&str> =
        state["seats"].as_array().unwrap().iter().map(|s| s["color"].as_str().unwrap()).collect();
    assert_eq!(labels, ["Qin", "Chu", "Han", "Qi", "Wei", "Zhao", "Yan"]);
    assert_eq!(state["seats"][0]["username"], "qin", "the host took the first seat");
    assert_eq!(state["to_move_seat"], 0);
    assert_eq!(state["side_to_move"], "Qin");

    // A full round: every kingdom moves once, each on its own seat's turn.
    for expected_seat in 0..7 {
        assert_eq!(state["to_move_seat"], expected_seat);
        state = play_first_legal(&app, &users, &state).await;
    }
    assert_eq!(state["ply"], 7);
    let turns: Vec<i64> =
        state["moves"].as_array().unwrap().iter().map(|m| m["turn_number"].as_i64().unwrap()).collect();
    assert_eq!(turns, [1, 2, 3, 4, 5, 6, 7]);
    // Another seat cannot move for Qin; draws by agreement do not exist here.
    let text = state["legal_moves"][0].as_str().unwrap().to_owned();
    app.post_move(&users[1], game, &text, 7).await.expect(StatusCode::CONFLICT);
    app.act(Some(&users[1]), game, "draw/offer").await.expect(StatusCode::UNPROCESSABLE_ENTITY);

    // Qin does not move within the three days: its kingdom leaves, the game goes on with Chu.
    app.clock.advance(Duration::days(3) + Duration::minutes(1));
    assert_eq!(app.sweep().await, vec![game]);
    let state = app.game(game).await;
    assert_eq!(state["status"], "active");
    assert_eq!(state["seats"][0]["status"], "timed-out");
    assert_eq!(state["seats"][1]["status"], "playing");
    assert_eq!(state["to_move_seat"], 1, "the turn passed to Chu");
    assert_eq!(state["ply"], 7, "a timeout is not a move");
    assert!(state["deadline"].is_string(), "Chu's clock runs");
    app.post_move(&users[0], game, &text, 7).await.expect(StatusCode::CONFLICT);

    // Chu plays on; the next round skips Qin.
    let mut state = state;
    for expected_seat in 1..7 {
        assert_eq!(state["to_move_seat"], expected_seat);
        state = play_first_legal(&app, &users, &state).await;
    }
    assert_eq!(state["to_move_seat"], 1, "Qin is skipped");

    // The other players resign but Chu: one alliance is left and the game ends.
    for seat in [2, 3, 4, 5, 6] {
        let username = state["seats"][seat]["username"].as_str().unwrap().to_owned();
        let user = users.iter().find(|u| u.name == username).unwrap();
        state = app.act(Some(user), game, "resign").await.expect(StatusCode::OK).clone();
        assert_eq!(state["seats"][seat]["status"], "resigned");
    }
    assert_eq!(state["status"], "finished");
    assert_eq!(state["reason"], "last-alliance");
    // seven-kingdoms.md "Defeat of a kingdom and victory": without a hegemon the most
    // captures win and equal counts share the win. Nobody captured anything, so every
    // seat, the ones that left included (they keep their captures), shares first place.
    assert_eq!(state["seats"][1]["place"], 1, "{state}");
    assert!(state["seats"].as_array().unwrap().iter().all(|s| s["outcome"] == "draw" && s["place"] == 1));
    let places: Vec<String> =
        state["seats"].as_array().unwrap().iter().map(|s| s["place"].as_i64().unwrap().to_string()).collect();
    assert_eq!(state["result"], places.join("-"), "the result lists the places in seat order");

    // The record in the spec's notation, seats leaving included, replays in the rules.
    let record = app.get_text(&format!("/games/{game}/record/record")).await;
    assert!(record.contains("timeout seat 0"), "{record}");
    assert!(record.contains("resign seat 6"), "{record}");
    let replayed = tavoliere_rules::notation::seven_kingdoms::parse_record(&record)
        .unwrap_or_else(|e| panic!("{record}: {e}"));
    assert!(replayed.is_over());
}

#[tokio::test]
async fn a_three_seat_game_gives_the_host_two_allies() {
    let app = TestApp::spawn().await;
    let qin = app.register("qin").await;
    let chu = app.register("chu").await;
    let qi = app.register("qi_").await;
    let game = seven_kingdoms_game(&app, &qin, &[&chu, &qi]).await;
    let state = app.game(game).await;
    assert_eq!(state["seat_count"], 3);
    let labels: Vec<&str> =
        state["seats"].as_array().unwrap().iter().map(|s| s["color"].as_str().unwrap()).collect();
    assert_eq!(labels, ["Qin+Han+Yan", "Chu+Zhao", "Qi+Wei"], "seven-kingdoms.md \"Players and alliances\"");
    let mut names: Vec<&str> =
        state["seats"].as_array().unwrap().iter().map(|s| s["username"].as_str().unwrap()).collect();
    names.sort_unstable();
    assert_eq!(names, ["chu", "qi_", "qin"]);
}

#[tokio::test]
async fn a_capture_that_makes_a_hegemon_ends_the_game_with_scores_per_seat() {
    let app = TestApp::spawn().await;
    let qin = app.register("qin").await;
    let chu = app.register("chu").await;
    let qi = app.register("qi_").await;
    // Qin has captured 29 pieces; its deputy takes Chu's broadsword for the thirtieth
    // (seven-kingdoms.md "Defeat of a kingdom and victory": hegemony by thirty pieces).
    let start = "players: 3\nturn: Qin\nemperor: j10\n\
                 Qin: 將 a19, 偏 c3\nChu: 將 c7, 刀 c5, 劍 m2\nQi: 將 s19, 刀 r19\n\
                 Qin record: captured 29, generals 0, value 40, lost 0\n\
                 Han record: captured 0, generals 0, value 0, lost 0, defeated resigned\n\
                 Zhao record: captured 0, generals 0, value 0, lost 0, defeated resigned\n\
                 Wei record: captured 2, generals 0, value 3, lost 0, defeated resigned\n\
                 Yan record: captured 0, generals 0, value 0, lost 0, defeated resigned\n";
    let challenge =
        open_seven_kingdoms(&app, &qin, json!({"seats": 3, "color": "first", "start_position": start})).await;
    let id = challenge["id"].as_i64().unwrap();
    let four = json!({"variant": "seven-kingdoms", "seats": 4, "start_position": start, "time_control": three_days()});
    let refused = app.post("/api/challenges", Some(&qin), four).await;
    assert_eq!(refused.status, StatusCode::UNPROCESSABLE_ENTITY, "a three-player position for four");
    app.post(&format!("/api/challenges/{id}/accept"), Some(&chu), json!({})).await.expect(StatusCode::OK);
    let game = app.accept(&qi, id).await;
    let state = app.game(game).await;
    assert_eq!(state["seats"][0]["score"], 29, "captures so far");
    let state = app.post_move(&qin, game, "Qin 偏 c3xc5", 0).await.expect(StatusCode::CREATED).clone();
    assert_eq!(state["status"], "finished");
    assert_eq!(state["reason"], "hegemony-pieces");
    let seat = |n: usize| state["seats"][n].clone();
    assert_eq!((seat(0)["outcome"].clone(), seat(0)["place"].clone()), (json!("win"), json!(1)));
    assert_eq!((seat(0)["score"].clone(), seat(0)["secondary_score"].clone()), (json!(30), json!(41)));
    assert_eq!(seat(1)["outcome"], "loss");
    // Qi's seat commands Wei, whose two captures rank it above Chu's none.
    assert_eq!((seat(2)["place"].clone(), seat(2)["score"].clone()), (json!(2), json!(2)));
    assert_eq!(seat(1)["place"], 3);
    assert_eq!(state["result"], "1-3-2");
    let stored: Vec<(i32, Option<i32>, Option<i32>)> =
        sqlx::query_as("select seat, place, score from game_seat where game_id = $1 order by seat")
            .bind(game)
            .fetch_all(&app.domain.pool)
            .await
            .unwrap();
    assert_eq!(stored, [(0, Some(1), Some(30)), (1, Some(3), Some(0)), (2, Some(2), Some(2))]);
}

#[tokio::test]
async fn a_flickering_threefold_repetition_is_claimed_as_a_draw() {
    let app = TestApp::spawn().await;
    let white = app.register("white").await;
    let black = app.register("black").await;
    let game = app.start_game("flickering", &white, &black, three_days()).await;
    app.act(Some(&white), game, "claim").await.expect(StatusCode::UNPROCESSABLE_ENTITY);
    // Knights out and back twice: the start position stands a third time, White to move
    // (flickering-chess.md "End of the game": threefold repetition is a claimable draw).
    let shuffle = ["Nf3, Nc3", "Nf6, Nc6", "Ng1, Nb1", "Ng8, Nb8"];
    let mut ply = 0;
    for round in 0..2 {
        for (i, series) in shuffle.iter().enumerate() {
            let mover = if i % 2 == 0 { &white } else { &black };
            let state = app.post_move(mover, game, series, ply).await.expect(StatusCode::CREATED).clone();
            ply = state["ply"].as_i64().unwrap();
            assert_eq!(state["status"], "active", "round {round}: a repetition is only claimed");
        }
    }
    assert_eq!(ply, 16, "two moves a series");
    app.act(Some(&black), game, "claim").await.expect(StatusCode::CONFLICT);
    let state = app.act(Some(&white), game, "claim").await.expect(StatusCode::OK).clone();
    assert_eq!(state["result"], "1/2-1/2");
    assert_eq!(state["reason"], "repetition");
    assert_eq!(state["ruling"]["law"], "repetition", "{state}");
    assert_eq!(app.game(game).await["ruling"]["law"], "repetition");
}

#[tokio::test]
async fn a_seat_is_given_up_before_the_game_starts() {
    let app = TestApp::spawn().await;
    let host = app.register("qin").await;
    let chu = app.register("chu").await;
    let han = app.register("han").await;
    let qi = app.register("qi_").await;
    let id = open_seven_kingdoms(&app, &host, json!({"seats": 3})).await["id"].as_i64().unwrap();
    let accept = format!("/api/challenges/{id}/accept");
    let leave = format!("/api/challenges/{id}/leave");
    app.post(&accept, Some(&chu), json!({})).await.expect(StatusCode::OK);
    app.post(&leave, Some(&han), json!({})).await.expect(StatusCode::CONFLICT);
    app.post(&leave, Some(&host), json!({})).await.expect(StatusCode::CONFLICT);
    let left = app.post(&leave, Some(&chu), json!({})).await;
    assert_eq!(left.expect(StatusCode::OK)["entrants"], json!(["qin"]), "chu's seat is free again");
    // Two new players fill the seats: the game starts without chu.
    app.post(&accept, Some(&han), json!({})).await.expect(StatusCode::OK);
    let game = app.accept(&qi, id).await;
    let mut names: Vec<String> = app.game(game).await["seats"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["username"].as_str().unwrap().to_owned())
        .collect();
    names.sort_unstable();
    assert_eq!(names, ["han", "qi_", "qin"]);
    // Every seated player reads the accepted challenge and finds the game there (the
    // waiting page leads them to it); chu, who gave up the seat, and others do not.
    for seated in [&host, &han, &qi] {
        let challenge = app.get(&format!("/api/challenges/{id}"), Some(seated)).await;
        assert_eq!(challenge.expect(StatusCode::OK)["game_id"], game, "{}", seated.name);
    }
    app.get(&format!("/api/challenges/{id}"), Some(&chu)).await.expect(StatusCode::NOT_FOUND);
    app.post(&leave, Some(&han), json!({})).await.expect(StatusCode::CONFLICT);
    app.post("/api/challenges/999/leave", Some(&han), json!({})).await.expect(StatusCode::NOT_FOUND);
}

#[tokio::test]
async fn seats_that_ran_out_one_after_the_other_all_leave_in_one_sweep() {
    let app = TestApp::spawn().await;
    let qin = app.register("qin").await;
    let chu = app.register("chu").await;
    let qi = app.register("qi_").await;
    let game = seven_kingdoms_game(&app, &qin, &[&chu, &qi]).await;
    // Nobody moves for a week of three-day clocks (the server was down, say): the first
    // seat ran out after three days, the second three days later; the third still has
    // time, and is the last alliance.
    app.clock.advance(Duration::days(7));
    assert_eq!(app.sweep().await, vec![game]);
    let state = app.game(game).await;
    let statuses: Vec<&str> =
        state["seats"].as_array().unwrap().iter().map(|s| s["status"].as_str().unwrap()).collect();
    assert_eq!(statuses, ["timed-out", "timed-out", "playing"]);
    assert_eq!(state["status"], "finished");
    assert_eq!(state["reason"], "last-alliance");
    let exits: Vec<(i32, time::OffsetDateTime)> = sqlx::query_as(
        "select seat, exited_at from game_seat where game_id = $1 and exit is not null order by seat",
    )
    .bind(game)
    .fetch_all(&app.domain.pool)
    .await
    .unwrap();
    assert_eq!(exits[1].1 - exits[0].1, Duration::days(3), "the second clock started at the first deadline");
    assert!(app.sweep().await.is_empty());
}

#[tokio::test]
async fn the_last_seat_of_a_challenge_is_taken_once() {
    let app = TestApp::spawn().await;
    let host = app.register("qin").await;
    let chu = app.register("chu").await;
    let mut late = Vec::new();
    for name in ["han", "qi_", "wei", "zhao"] {
        late.push(app.register(name).await);
    }
    let id = open_seven_kingdoms(&app, &host, json!({"seats": 3})).await["id"].as_i64().unwrap();
    let path = format!("/api/challenges/{id}/accept");
    app.post(&path, Some(&chu), json!({})).await.expect(StatusCode::OK);
    // Four players race for the one seat left.
    let replies =
        futures::future::join_all(late.iter().map(|user| app.post(&path, Some(user), json!({})))).await;
    let statuses: Vec<StatusCode> = replies.iter().map(|r| r.status).collect();
    assert_eq!(statuses.iter().filter(|s| **s == StatusCode::CREATED).count(), 1, "{statuses:?}");
    assert_eq!(statuses.iter().filter(|s| **s == StatusCode::CONFLICT).count(), 3, "{statuses:?}");
    let games: i64 =
        sqlx::query_scalar("select count(*) from game").fetch_one(&app.domain.pool).await.unwrap();
    assert_eq!(games, 1);
}

#[tokio::test]
async fn a_seat_leaving_on_another_instance_is_not_missed_by_a_move_on_the_copy() {
    let app = TestApp::spawn().await;
    let other = TestApp::spawn_on(&app.database_url, app.clock.clone()).await;
    let users = [app.register("qin").await, app.register("chu").await, app.register("qi_").await];
    let game = seven_kingdoms_game(&app, &users[0], &[&users[1], &users[2]]).await;
    // Two moves on the first instance: it keeps a copy of the game after them.
    let mut state = app.game(game).await;
    for _ in 0..2 {
        state = play_first_legal(&app, &users, &state).await;
    }
    // A seat that is not to move resigns on the other instance: the turn stays, the game
    // goes on without that seat's kingdoms.
    let mover = state["to_move_seat"].as_i64().unwrap();
    let leaver = (mover + 1) % 3;
    let name = state["seats"][leaver as usize]["username"].as_str().unwrap();
    let leaving = users.iter().find(|u| u.name == name).unwrap();
    other.act(Some(leaving), game, "resign").await.expect(StatusCode::OK);
    let after_exit = other.game(game).await;
    assert_eq!(after_exit["to_move_seat"], mover);
    let moved = play_first_legal(&app, &users, &after_exit).await;
    let fresh = other.game(game).await;
    assert_eq!(moved["seats"][leaver as usize]["status"], "resigned");
    assert_eq!(moved["position"], fresh["position"]);
    assert_eq!(moved["to_move_seat"], fresh["to_move_seat"]);
    assert_eq!(moved["legal_moves"], fresh["legal_moves"]);
}
