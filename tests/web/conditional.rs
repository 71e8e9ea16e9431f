//! The game page's conditional moves without JavaScript (#17 §3): enter a line as text,
//! see it, have it played, delete lines; CSRF as every form.

use reqwest::StatusCode;

use crate::pages::{game_between, play};
use crate::support::{attribute_after, Browser};

/// Posts `line` through the page's conditional form.
async fn enter(browser: &mut Browser, game: &str, line: &str) -> crate::support::Page {
    let page = browser.get(game).await;
    assert!(page.body.contains(r#"id="conditional-form""#), "the waiting player's form");
    let form = &page.body[page.body.find(r#"id="conditional-form""#).unwrap()..];
    let ply = attribute_after(form, r#"name="ply" value=""#).expect("the form's ply");
    browser
        .post(&format!("{game}/conditional"), &[("csrf", &page.csrf()), ("line", line), ("ply", &ply)])
        .await
}

#[tokio::test]
async fn a_waiting_player_enters_sees_and_deletes_lines_through_the_form() {
    let app = crate::support::TestApp::spawn().await;
    let (mut alice, mut bob, game) = game_between(&app, "xiangqi").await;
    assert_eq!(play(&mut alice, &game, "h2e2").await.status, StatusCode::SEE_OTHER);
    assert!(!bob.get(&game).await.body.contains("conditional-form"), "bob is to move: no lines to enter");

    let refused = enter(&mut alice, &game, "h9g7 h0h9").await;
    assert_eq!(refused.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(refused.body.contains(r#"id="conditional-error""#), "the reason is shown");
    assert!(refused.body.contains(r#"value="h9g7 h0h9""#), "the text typed is kept");
    let no_token = alice.post(&format!("{game}/conditional"), &[("line", "h9g7 h0g2"), ("ply", "1")]).await;
    assert_eq!(no_token.status, StatusCode::FORBIDDEN, "a form without its CSRF token changes nothing");
    assert!(alice.get(&game).await.body.contains(r#"id="conditional-none""#));

    let entered = enter(&mut alice, &game, "h9g7 H2+3 i9h9 i0h0").await;
    assert_eq!(entered.status, StatusCode::SEE_OTHER, "{}", entered.body);
    assert!(entered.location().ends_with("#conditional"));
    let page = alice.get(&game).await;
    assert!(page.body.contains(r#"id="conditional-lines""#));
    assert!(!bob.get(&game).await.body.contains("conditional-lines"), "private to alice");

    // Bob's move matches: alice's reply is on the board at once, the line advanced.
    assert_eq!(play(&mut bob, &game, "h9g7").await.status, StatusCode::SEE_OTHER);
    let page = alice.get(&game).await;
    assert!(page.body.contains(r#"data-ply="3""#), "bob's move and alice's reply");
    assert_eq!(page.body.matches("data-line=").count(), 1, "one line left");

    // Delete it with its button.
    let line = attribute_after(&page.body, r#"<li data-line=""#).expect("a line");
    let deleted =
        alice.post(&format!("{game}/conditional/delete"), &[("csrf", &page.csrf()), ("line", &line)]).await;
    assert_eq!(deleted.status, StatusCode::SEE_OTHER);
    assert!(alice.get(&game).await.body.contains(r#"id="conditional-none""#));
}

#[tokio::test]
async fn an_open_iccf_challenge_and_its_game_name_the_day_accounting() {
    let app = crate::support::TestApp::spawn().await;
    let mut alice = app.browser();
    alice.sign_up("alice").await;
    let fields = [
        ("variant", "xiangqi"),
        ("color", "first"),
        ("tc_kind", "days-per-move"),
        ("days", "3"),
        ("iccf_days", "on"),
    ];
    let created = alice.submit("/challenges/new", "/challenges", &fields).await;
    assert_eq!(created.status, StatusCode::SEE_OTHER, "{}", created.body);
    let home = crate::support::TestApp::browser(&app).get("/").await;
    assert!(home.body.contains("whole days (ICCF) in the server&#39;s time zone"), "{}", home.body);
    let mut bob = app.browser();
    bob.sign_up("bob").await;
    let list = bob.get("/challenges").await;
    let accept = attribute_after(&list.body, r#"<form method="post" action="/challenges/"#).expect("open");
    let accepted = bob.post(&format!("/challenges/{accept}"), &[("csrf", &list.csrf())]).await;
    let game = bob.get(accepted.location()).await;
    assert!(game.body.contains("whole days (ICCF) in UTC"), "the game names the server's zone");
}
