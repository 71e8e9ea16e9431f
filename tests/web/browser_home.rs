//! The home page in headless Chromium (issue 18 §2): a visitor watches the small board of
//! a game being played follow its moves over the WebSocket without reloading, and a
//! player with JavaScript switched off accepts an open challenge from the lobby; the
//! deadline is a date for them and a countdown for a reader with JavaScript (§4).

use std::time::{Duration, Instant};

use fantoccini::{Client, Locator};
use serde_json::json;

use crate::browser::{browser, click, wait_for_text, Stage};
use crate::home::Api;

/// Waits until the element at `css` has `attribute` containing `text`.
async fn wait_for_attribute(client: &Client, css: &str, attribute: &str, text: &str) {
    let deadline = Instant::now() + Duration::from_secs(15);
    let mut seen = None;
    loop {
        if let Ok(element) = client.find(Locator::Css(css)).await {
            seen = element.attr(attribute).await.ok().flatten();
            if seen.as_deref().is_some_and(|value| value.contains(text)) {
                return;
            }
        }
        assert!(Instant::now() < deadline, "{css} never had {attribute} with {text:?}: {seen:?}");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

#[tokio::test]
async fn the_home_page_follows_a_game_and_its_lobby_accepts_challenges_in_chromium() {
    let Some(stage) = Stage::open("home").await else { return };
    let api = Api::at(&stage.base);
    let alice = api.register("alice").await;
    let bob = api.register("bob").await;
    let live = json!({"variant": "xiangqi", "opponent": "bob", "color": "first", "rated": true,
                      "time_control": {"kind": "live-fischer", "base_seconds": 600, "increment_seconds": 5}});
    let id = api.post("/api/challenges", Some(&alice), live).await["id"].as_i64().unwrap();
    let game = api.post(&format!("/api/challenges/{id}/accept"), Some(&bob), json!({})).await["game_id"]
        .as_i64()
        .unwrap();
    let open = json!({"variant": "shogi", "time_control": {"kind": "days-per-move", "days": 3}});
    api.post("/api/challenges", Some(&alice), open).await;

    // A visitor, JavaScript on, not signed in.
    let visitor = browser(&stage.driver, true, &stage.profiles.join("visitor")).await;
    visitor.goto(&format!("{}/", stage.base)).await.unwrap();
    let card = format!(r#"li[data-mini-game="{game}"] img.mini-board"#);
    wait_for_attribute(&visitor, &card, "src", "board.svg?ply=0").await;
    wait_for_text(&visitor, "#lobby", "alice").await;
    // Two moves elsewhere: the small board follows without a reload.
    api.post(&format!("/api/games/{game}/moves"), Some(&alice), json!({"move": "h2e2", "ply": 0})).await;
    wait_for_attribute(&visitor, &card, "src", "board.svg?ply=1").await;
    api.post(&format!("/api/games/{game}/moves"), Some(&bob), json!({"move": "h9g7", "ply": 1})).await;
    wait_for_attribute(&visitor, &card, "src", "board.svg?ply=2").await;
    wait_for_text(&visitor, &format!(r#"li[data-mini-game="{game}"] [data-mini-ply]"#), "2").await;
    api.post(&format!("/api/games/{game}/resign"), Some(&bob), json!({})).await;
    wait_for_text(&visitor, &format!(r#"li[data-mini-game="{game}"] [data-mini-result]"#), "1-0").await;

    // A player without JavaScript accepts the open challenge from the home page.
    let carol = stage.player("carol", false).await;
    carol.goto(&format!("{}/", stage.base)).await.unwrap();
    click(&carol, "#lobby button.accept").await;
    carol
        .wait()
        .at_most(Duration::from_secs(10))
        .for_element(Locator::Css("#game"))
        .await
        .expect("the game page");
    assert!(carol.current_url().await.unwrap().path().starts_with("/games/"));
    wait_for_text(&carol, ".players", "alice").await;
    // Without JavaScript the deadline is a date; with it, a countdown.
    wait_for_text(&carol, ".deadline time", " UTC").await;
    visitor.goto(carol.current_url().await.unwrap().as_ref()).await.unwrap();
    wait_for_text(&visitor, ".deadline time", "2 d 23 h").await;
    stage.close(vec![carol, visitor]).await;
}
