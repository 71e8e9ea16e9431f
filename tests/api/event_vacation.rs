//! A section's vacation allowance (issue 20 §3): validated on creation, shown with the
//! section and on its page, kept by every game of the section (in each game's view) and
//! used by the clocks: only that many days of a player's leave stop them.

use reqwest::StatusCode;
use serde_json::{json, Value};
use time::format_description::well_known::Rfc3339;
use time::{Duration, OffsetDateTime};

use crate::support::{three_days, TestApp};
use crate::tournaments::{create_section, create_tournament, start, with_role};

fn deadline(view: &Value) -> OffsetDateTime {
    OffsetDateTime::parse(view["deadline"].as_str().expect("a deadline"), &Rfc3339).unwrap()
}

#[tokio::test]
async fn a_sections_vacation_allowance_is_validated_shown_and_caps_the_leave_its_games_count() {
    let app = TestApp::spawn().await;
    let director = with_role(&app, "director", "director").await;
    let tournament = create_tournament(&app, &director, "Corrispondenza 2026").await;
    let sections = format!("/api/tournaments/{tournament}/sections");
    for (extra, why) in [
        (json!({"vacation_days": 0}), "at least a day"),
        (json!({"vacation_days": 400}), "at most a year"),
        (json!({"vacation_days": 5, "vacation_allowed": false}), "only where leave stops the clocks"),
    ] {
        let mut body = json!({"name": "X", "variant": "xiangqi", "time_control": three_days(), "pairing": "round-robin"});
        if let (Value::Object(body), Value::Object(extra)) = (&mut body, extra) {
            body.extend(extra);
        }
        app.post(&sections, Some(&director), body).await.expect(StatusCode::UNPROCESSABLE_ENTITY);
        let _ = why;
    }
    let section = create_section(&app, &director, tournament, json!({"vacation_days": 2})).await;
    let path = format!("/api/sections/{section}");
    assert_eq!(app.get(&path, None).await.expect(StatusCode::OK)["vacation_days"], 2);
    let tournament_view = app.get(&format!("/api/tournaments/{tournament}"), None).await;
    assert_eq!(tournament_view.expect(StatusCode::OK)["sections"][0]["vacation_days"], 2);
    // Changed before the start (0 removes it), fixed after it.
    let patched = crate::tournaments::patch(&app, &path, Some(&director), json!({"vacation_days": 0})).await;
    assert!(patched.expect(StatusCode::OK)["vacation_days"].is_null());
    let patched = crate::tournaments::patch(&app, &path, Some(&director), json!({"vacation_days": 2})).await;
    assert_eq!(patched.expect(StatusCode::OK)["vacation_days"], 2);

    let alice = app.register("alice").await;
    let bob = app.register("bob").await;
    for player in ["alice", "bob"] {
        app.post(&format!("{path}/entries"), Some(&director), json!({"username": player}))
            .await
            .expect(StatusCode::CREATED);
    }
    let games = start(&app, &director, section).await;
    let late = crate::tournaments::patch(&app, &path, Some(&director), json!({"vacation_days": 3})).await;
    late.expect(StatusCode::CONFLICT);
    let page = app.get_text(&format!("/sections/{section}/rounds")).await;
    assert!(page.contains("at most 2 days of each player&#39;s leave per game stop the clocks"), "{page}");
    let italian =
        app.client.get(format!("{}/sections/{section}/rounds", app.address)).header("accept-language", "it");
    let page = italian.send().await.unwrap().text().await.unwrap();
    assert!(page.contains("al massimo 2 giorni"), "{page}");

    // The section's game, and a friendly game between the same players with no allowance.
    let tournament_game = games[0];
    let view = app.game(tournament_game).await;
    assert_eq!(view["vacation_days"], 2, "reported in the game's view");
    let to_move = view["seats"][0]["username"].as_str().unwrap().to_owned();
    let (mover, other) = if to_move == "alice" { (&alice, &bob) } else { (&bob, &alice) };
    let friendly = app.start_game("xiangqi", mover, other, three_days()).await;
    assert!(app.game(friendly).await["vacation_days"].is_null());
    let three_days_on = deadline(&app.game(friendly).await);
    assert_eq!(deadline(&view), three_days_on, "both start now with three days");

    // Five days of leave: the friendly game's clock stops for all five, the section's for
    // two of them (whole days of the server's zone, UTC here).
    let leave = app.post("/api/vacation", Some(mover), json!({"days": 5})).await;
    let until = leave.expect(StatusCode::OK)["on_leave_until"].as_str().unwrap().to_owned();
    let until = OffsetDateTime::parse(&until, &Rfc3339).unwrap();
    // Leave is taken in whole days (the first is today): what is left of it from now on.
    let leave_left = until - (three_days_on - Duration::days(3));
    assert!(leave_left > Duration::days(4), "{leave_left}");
    assert_eq!(deadline(&app.game(friendly).await), three_days_on + leave_left);
    // The allowance counts days as the leave does: today (from now, noon) and tomorrow,
    // to the midnight after it.
    let now = three_days_on - Duration::days(3);
    let second_midnight = now.replace_time(time::Time::MIDNIGHT) + Duration::days(2);
    assert_eq!(deadline(&app.game(tournament_game).await), three_days_on + (second_midnight - now));

    // Past the section game's deadline (and before the friendly one's), the sweep ends
    // the section's game on time and leaves the other.
    app.clock.advance(Duration::days(5) + Duration::minutes(1));
    let ended = app.sweep().await;
    assert_eq!(ended, vec![tournament_game]);
    let after = app.game(tournament_game).await;
    assert_eq!((after["status"].as_str(), after["reason"].as_str()), (Some("finished"), Some("timeout")));
    assert_eq!(app.game(friendly).await["status"], "active");
}
