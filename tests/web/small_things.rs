//! The small things a player expects (issue 18 §4): the challenge form's ruleset and
//! handicap chosen from the rules crate's catalogue, a favicon, deadlines as a date
//! without JavaScript (a countdown with it).

use reqwest::StatusCode;
use tavoliere_rules::game::{Handicap, Ruleset};

use crate::home::Api;
use crate::support::TestApp;

#[tokio::test]
async fn the_challenge_form_offers_every_ruleset_and_handicap_in_select_boxes() {
    let app = TestApp::spawn().await;
    let mut host = app.browser();
    host.sign_up("gino").await;
    let form = host.get("/challenges/new").await;
    assert!(form.body.contains(r#"<select id="ruleset" name="ruleset">"#), "no free text for the ruleset");
    assert!(form.body.contains(r#"<select id="handicap" name="handicap">"#), "nor for the handicap");
    for ruleset in Ruleset::ALL {
        assert!(form.body.contains(&format!(r#"<option value="{}">"#, ruleset.name())), "{}", ruleset.name());
    }
    for game in ["xiangqi", "shogi", "minishogi"] {
        for handicap in Handicap::catalogue(game) {
            assert!(form.body.contains(&format!(r#"<option value="{}">"#, handicap.name())), "{handicap}");
        }
    }
    assert!(form.body.contains("sennichite; an impasse is won by declaration"), "each with its description");
    assert!(form.body.contains("White without rook and bishop"));
    let made = host
        .submit(
            "/challenges/new",
            "/challenges",
            &[
                ("variant", "shogi"),
                ("ruleset", "shogi-27"),
                ("handicap", "two-pieces"),
                ("color", "first"),
                ("tc_kind", "days-per-move"),
                ("days", "3"),
            ],
        )
        .await;
    assert_eq!(made.status, StatusCode::SEE_OTHER, "{}", made.body);
    let list = host.get("/challenges").await;
    assert!(list.body.contains("shogi-27"), "{}", list.body);
}

#[tokio::test]
async fn every_page_has_a_favicon_and_deadlines_are_dates_without_javascript() {
    let app = TestApp::spawn().await;
    let mut visitor = app.browser();
    let home = visitor.get("/").await;
    assert!(home.body.contains(r#"<link rel="icon" href="/static/favicon.svg?v="#));
    let icon = visitor.get("/static/favicon.svg").await;
    assert_eq!(icon.status, StatusCode::OK);
    assert!(icon.body.contains("<svg"));

    let api = Api::of(&app);
    let _alice = api.register("alice").await;
    let bob = api.register("bob").await;
    let game = api.game(&bob, ("alice", &_alice)).await;
    let page = visitor.get(&format!("/games/{game}")).await;
    // Three days per move from now: the date in UTC, the countdown's template and instant.
    let deadline = page.body.split(r#"<time datetime=""#).nth(1).expect("the deadline as a <time>");
    assert!(deadline.contains(r#"data-countdown="{days} d {hours} h {minutes} min""#), "{deadline}");
    let shown = deadline.split('>').nth(1).unwrap().split('<').next().unwrap();
    assert!(shown.ends_with(" UTC") && shown.len() == "2026-03-04 12:00 UTC".len(), "{shown}");
    assert!(page.body.contains(r#"src="/static/countdown.js?v="#));
    let script = visitor.get("/static/countdown.js").await;
    assert_eq!(script.status, StatusCode::OK);
}
