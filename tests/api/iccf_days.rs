//! ICCF day accounting (#17 §4) through the API with the injectable clock: whole days in
//! the event's or the server's zone, the day of receipt free, leave in whole days charged
//! to each year apart. The tests' clock starts on 1 March 2026 at 12:00 UTC.

use reqwest::StatusCode;
use serde_json::{json, Value};
use tavoliere::domain::clock::Clock;
use time::macros::datetime;
use time::Duration;

use crate::support::TestApp;

const DAY: i64 = 86_400;

/// 10 moves in 5 days (unused time carries over, so charges show), ICCF days in `zone`.
fn iccf(zone: Option<&str>) -> Value {
    let mut control = json!({"kind": "moves-in-days", "moves": 10, "days": 5, "accounting": "iccf-days"});
    if let Some(zone) = zone {
        control["time_zone"] = json!(zone);
    }
    control
}

fn seconds(view: &Value, seat: usize) -> i64 {
    view["seats"][seat]["remaining_seconds"].as_i64().unwrap()
}

#[tokio::test]
async fn whole_days_of_the_events_zone_are_charged_and_the_day_of_receipt_is_free() {
    let app = TestApp::spawn().await;
    let alice = app.register("alice").await;
    let bob = app.register("bob").await;
    let game = app.start_game("xiangqi", &alice, &bob, iccf(Some("Europe/Rome"))).await;
    let view = app.game(game).await;
    assert_eq!(view["time_control"]["accounting"], "iccf-days");
    assert_eq!(view["time_control"]["time_zone"], "Europe/Rome", "shown with the game");
    // Received 1 March at 13:00 in Rome, five days: until the end of 6 March in Rome.
    assert_eq!(view["deadline"], "2026-03-06T23:00:00Z");
    let page = app.get_text(&format!("/games/{game}")).await;
    assert!(page.contains("Europe/Rome"), "the game page names the zone");

    // 22:30 UTC is 23:30 in Rome: still the day of receipt, free.
    app.clock.advance(Duration::minutes(10 * 60 + 30));
    let moved = app.post_move(&alice, game, "h2e2", 0).await.expect(StatusCode::CREATED).clone();
    assert_eq!(seconds(&moved, 0), 5 * DAY, "a move on the day of receipt costs nothing");
    // Bob received it at 23:30 in Rome; an hour later it is 2 March there: one day.
    app.clock.advance(Duration::hours(1));
    let moved = app.post_move(&bob, game, "h9g7", 1).await.expect(StatusCode::CREATED).clone();
    assert_eq!(seconds(&moved, 1), 4 * DAY, "one day charged, not one hour");
    // Alice received it on the 2nd (Rome); the 3rd, 4th and 5th pass before she moves.
    assert_eq!(moved["deadline"], "2026-03-07T23:00:00Z", "five days after the 2nd, Rome time");
    app.clock.advance(Duration::days(3));
    let moved = app.post_move(&alice, game, "h0g2", 2).await.expect(StatusCode::CREATED).clone();
    assert_eq!(seconds(&moved, 0), 2 * DAY);
    // Bob's four days end at the end of 9 March in Rome, not a minute before.
    assert_eq!(moved["deadline"], "2026-03-09T23:00:00Z");
    app.clock.advance(datetime!(2026-03-09 22:59 UTC) - app.clock.now());
    assert!(app.sweep().await.is_empty());
    app.clock.advance(Duration::minutes(2));
    assert_eq!(app.sweep().await, vec![game], "lost on time after the last day");
}

#[tokio::test]
async fn without_a_zone_of_the_event_the_servers_zone_counts() {
    let app = TestApp::spawn_with(|settings| settings.clocks.time_zone = "Europe/Rome".to_owned()).await;
    let alice = app.register("alice").await;
    let bob = app.register("bob").await;
    let game = app.start_game("xiangqi", &alice, &bob, iccf(None)).await;
    let view = app.game(game).await;
    assert_eq!(view["time_control"]["time_zone"], "Europe/Rome", "written into the game at its start");
    // The millisecond accounting stays the default and shows no new field.
    let plain = app.start_game("xiangqi", &alice, &bob, json!({"kind": "days-per-move", "days": 3})).await;
    assert_eq!(app.game(plain).await["time_control"], json!({"kind": "days-per-move", "days": 3}));
    let unknown =
        json!({"kind": "days-per-move", "days": 3, "accounting": "iccf-days", "time_zone": "Mars/Base"});
    let refused = app
        .post(
            "/api/challenges",
            Some(&alice),
            json!({"opponent": "bob", "variant": "xiangqi", "time_control": unknown}),
        )
        .await;
    assert_eq!(refused.status, StatusCode::UNPROCESSABLE_ENTITY, "{:?}", refused.body);
}

#[tokio::test]
async fn leave_is_whole_days_charged_to_each_year_and_not_to_the_iccf_clock() {
    let app = TestApp::spawn().await;
    let alice = app.register("alice").await;
    let bob = app.register("bob").await;
    let game = app.start_game("xiangqi", &alice, &bob, iccf(Some("UTC"))).await;
    // Five days of leave from 1 March at 12:00: the 1st to the 5th, ending at midnight.
    let leave =
        app.post("/api/vacation", Some(&alice), json!({"days": 5})).await.expect(StatusCode::OK).clone();
    assert_eq!(leave["used_days"], 5);
    assert_eq!(leave["on_leave_until"], "2026-03-06T00:00:00Z");
    // Alice's five days start on the 6th: she may move until the end of the 10th.
    assert_eq!(app.game(game).await["deadline"], "2026-03-11T00:00:00Z");
    app.clock.advance(Duration::days(5)); // 6 March, 12:00
    let moved = app.post_move(&alice, game, "h2e2", 0).await.expect(StatusCode::CREATED).clone();
    assert_eq!(seconds(&moved, 0), 4 * DAY, "leave days are free; the 6th costs one");

    // Ending a leave early charges the days begun: five days from the 26th, ended on the
    // 27th at noon, use two.
    app.clock.advance(Duration::days(20)); // 26 March
    app.post("/api/vacation", Some(&alice), json!({"days": 5})).await.expect(StatusCode::OK);
    app.clock.advance(Duration::days(1));
    let ended = app.post("/api/vacation/end", Some(&alice), json!({})).await.expect(StatusCode::OK).clone();
    assert_eq!(ended["used_days"], 5 + 2, "the 26th and 27th were begun");
}

#[tokio::test]
async fn a_leave_over_the_new_year_is_charged_to_each_year_apart() {
    // The tokens must outlive the ten months to December.
    let app = TestApp::spawn_with(|settings| settings.auth.token_lifetime_days = 400).await;
    let alice = app.register("alice").await;
    let bob = app.register("bob").await;
    // 45 days a year: alice uses 43 of 2026 first, bob 44.
    app.post("/api/vacation", Some(&alice), json!({"days": 43})).await.expect(StatusCode::OK);
    app.post("/api/vacation", Some(&bob), json!({"days": 44})).await.expect(StatusCode::OK);
    app.clock.advance(datetime!(2026-12-30 12:00 UTC) - app.clock.now());
    // 30 and 31 December fit alice's last two days of 2026; 3 more go to 2027.
    let leave =
        app.post("/api/vacation", Some(&alice), json!({"days": 5})).await.expect(StatusCode::OK).clone();
    assert_eq!(leave["used_days"], 45);
    assert_eq!(leave["on_leave_until"], "2027-01-04T00:00:00Z");
    // Bob has one day of 2026 left: 30 and 31 December are one too many.
    let refused = app.post("/api/vacation", Some(&bob), json!({"days": 3})).await;
    assert_eq!(refused.status, StatusCode::UNPROCESSABLE_ENTITY, "2 days wanted in 2026, 1 left");
    assert!(refused.detail().contains("2026"), "{}", refused.detail());
    app.clock.advance(Duration::days(3)); // 2 January 2027
    let status = app.get("/api/vacation", Some(&alice)).await.expect(StatusCode::OK).clone();
    assert_eq!(status["used_days"], 3, "1 to 3 January count in 2027");
}

#[tokio::test]
async fn a_tournament_section_chooses_iccf_days_for_its_games() {
    use crate::tournaments::{create_section, create_tournament, four_players, start, with_role};
    let app = TestApp::spawn().await;
    let director = with_role(&app, "director", "director").await;
    let tournament = create_tournament(&app, &director, "ICCF Cup").await;
    let section =
        create_section(&app, &director, tournament, json!({"time_control": iccf(Some("Europe/Rome"))})).await;
    let shown = app.get(&format!("/api/sections/{section}"), None).await;
    assert_eq!(shown.expect(StatusCode::OK)["time_control"]["accounting"], "iccf-days");
    four_players(&app, &director, section).await;
    for game in start(&app, &director, section).await {
        let view = app.game(game).await;
        assert_eq!(view["time_control"]["accounting"], "iccf-days", "game {game}");
        assert_eq!(view["time_control"]["time_zone"], "Europe/Rome");
        assert_eq!(view["deadline"], "2026-03-06T23:00:00Z", "five days after 1 March, Rome time");
    }
}
