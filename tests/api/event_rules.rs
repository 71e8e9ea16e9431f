//! Rules per event (issue 20 §3): a section carries its CXQ limits in its ruleset,
//! validated on creation, shown with the section, used by every game of the section and
//! reported in each game's view; a limit of 4 ends a perpetual check series earlier.

use reqwest::StatusCode;
use serde_json::json;

use crate::support::{three_days, TestApp};
use crate::tournaments::{create_section, create_tournament, four_players, start, with_role};

const FOUR: &str = "cxq(series=4,pieces=3,effective=120,progress=30,length=300)";

#[tokio::test]
async fn a_sections_cxq_limits_go_to_every_game_and_a_limit_of_four_ends_a_series_earlier() {
    let app = TestApp::spawn().await;
    let director = with_role(&app, "director", "director").await;
    let tournament = create_tournament(&app, &director, "Blitz sociale").await;
    // Validated on creation: unknown limits and limits out of bounds are refused.
    for bad in ["cxq(series=0)", "cxq(speed=2)", "cxq(series=4"] {
        let body = json!({"name": "X", "variant": "xiangqi", "time_control": three_days(),
                          "pairing": "round-robin", "ruleset": bad});
        let reply = app.post(&format!("/api/tournaments/{tournament}/sections"), Some(&director), body).await;
        assert_eq!(
            reply.expect(StatusCode::UNPROCESSABLE_ENTITY)["errors"][0]["code"],
            "setup.unknown-ruleset",
            "{bad}"
        );
    }
    let section = create_section(&app, &director, tournament, json!({"ruleset": "cxq(series=4)"})).await;
    let shown = app.get(&format!("/api/sections/{section}"), None).await.expect(StatusCode::OK).clone();
    assert_eq!(shown["ruleset"], FOUR, "shown with every limit");
    let tournament_view =
        app.get(&format!("/api/tournaments/{tournament}"), None).await.expect(StatusCode::OK).clone();
    assert_eq!(tournament_view["sections"][0]["ruleset"], FOUR, "on the tournament too");
    four_players(&app, &director, section).await;
    let games = start(&app, &director, section).await;
    for game in games {
        assert_eq!(app.game(game).await["ruleset"], FOUR, "every game of the section, in its view");
    }

    // The same limits in a game from a start where a lone rook checks: the fifth check in
    // a row by one piece loses under a limit of 4 (the seventh under the published 6).
    let alice = app.register("alice").await;
    let bob = app.register("bob").await;
    let lone_rook = "4k4/9/9/9/9/9/9/9/9/3K4R w - - 0 1";
    for (ruleset, checks_allowed) in [("cxq(series=4)", 4), ("cxq", 6)] {
        let fields = json!({"variant": "xiangqi", "start_position": lone_rook, "ruleset": ruleset,
                            "time_control": three_days()});
        let game = app.start_game_with(&alice, &bob, fields).await;
        let checks = ["i0i9", "i9i8", "i8i9", "i9i8", "i8i9", "i9i8", "i8i9"];
        let replies = ["e9e8", "e8e9"];
        let mut ply = 0;
        for (n, check) in checks.iter().enumerate() {
            let reply = app.post_move(&alice, game, check, ply).await;
            let body = reply.expect(StatusCode::CREATED).clone();
            ply += 1;
            if n == checks_allowed {
                assert_eq!(
                    (body["status"].as_str(), body["reason"].as_str()),
                    (Some("finished"), Some("perpetual-check"))
                );
                assert_eq!(body["result"], "0-1", "{ruleset}: check {} loses", n + 1);
                assert_eq!(body["ruling"]["law"], "perpetual-check");
                break;
            }
            assert_eq!(body["status"], "active", "{ruleset}: check {} is allowed", n + 1);
            app.post_move(&bob, game, replies[n % 2], ply).await.expect(StatusCode::CREATED);
            ply += 1;
        }
    }
}
