//! The player's game page in Chromium (issue 37): stepping through a game by clicks and
//! keys without a reload while the game goes on, the analysis board exploring a capture
//! and discarding it, resign and abort asked first, live clocks that start with the first
//! moves, and a rematch offered and accepted from the pages.

use std::time::Duration;

use fantoccini::actions::{InputSource, KeyAction, KeyActions};
use fantoccini::key::Key;
use fantoccini::{Client, Locator};
use reqwest::Method;
use serde_json::{json, Value};

use crate::browser::{
    click, connected, live_click, live_resign, mark_page, still_the_same_page, text_of, wait_css,
    wait_for_text, Stage,
};
use crate::support::api;

/// The REST API of a stage's server, as its players (their passwords are
/// `password-of-<name>`).
struct Api {
    base: String,
}

impl Api {
    fn new(stage: &Stage) -> Api {
        Api { base: stage.base.clone() }
    }

    /// An account made through the API.
    async fn register(&self, name: &str) {
        let body = json!({"username": name, "password": format!("password-of-{name}")});
        let (status, _) = api::call(&self.base, None, Method::POST, "/api/accounts", Some(body)).await;
        assert_eq!(status, 201);
    }

    async fn post(&self, player: &str, path: &str, body: Value) -> Value {
        let token = api::token(&self.base, player).await;
        let (status, answer) = api::call(&self.base, Some(&token), Method::POST, path, Some(body)).await;
        assert!(status.is_success(), "POST {path}: {status} {answer}");
        answer
    }

    async fn game(&self, id: i64) -> Value {
        api::call(&self.base, None, Method::GET, &format!("/api/games/{id}"), None).await.1
    }

    /// A correspondence game of `first` (seat 0) and `second` → its id.
    async fn start(&self, first: &str, second: &str, variant: &str) -> i64 {
        let challenge = json!({"variant": variant, "opponent": second, "color": "first",
            "time_control": {"kind": "days-per-move", "days": 3}});
        let made = self.post(first, "/api/challenges", challenge).await;
        let path = format!("/api/challenges/{}/accept", made["id"]);
        self.post(second, &path, json!({})).await["game_id"].as_i64().unwrap()
    }

    async fn play(&self, player: &str, game: i64, text: &str, ply: i64) {
        self.post(player, &format!("/api/games/{game}/moves"), json!({"move": text, "ply": ply})).await;
    }
}

/// Presses `key` (to whatever has the focus: the page, not a field).
async fn press(client: &Client, key: Key) {
    let value: char = key.into();
    let keys =
        KeyActions::new("keyboard".to_owned()).then(KeyAction::Down { value }).then(KeyAction::Up { value });
    client.perform_actions(keys).await.expect("a key press");
}

/// Pieces on the board (not in hand).
async fn pieces(client: &Client) -> usize {
    client.find_all(Locator::Css("#board g.piece[data-square]")).await.unwrap().len()
}

async fn url(client: &Client) -> String {
    client.current_url().await.unwrap().to_string()
}

/// Waits up to 15 s until `check` holds (the pages change by their sockets, in their own
/// time); `what` names what never came.
async fn until(what: &str, mut check: impl AsyncFnMut() -> bool) {
    let deadline = std::time::Instant::now() + Duration::from_secs(15);
    while !check().await {
        assert!(std::time::Instant::now() < deadline, "never: {what}");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// Waits until nothing on the page matches `css` (a redraw may be on its way).
async fn wait_gone(client: &Client, css: &str) {
    until(&format!("{css} gone"), async || client.find(Locator::Css(css)).await.is_err()).await;
}

/// Waits until the page's title starts with `start`.
async fn wait_title(client: &Client, start: &str) {
    let what = format!("a title beginning with {start:?}");
    until(&what, async || client.title().await.unwrap_or_default().starts_with(start)).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_is_stepped_through_in_place_and_follows_its_moves_in_chromium() {
    let Some(stage) = Stage::open("steps").await else { return };
    let api = Api::new(&stage);
    let alice = stage.player("alice", true).await;
    api.register("bob").await;
    let game = api.start("alice", "bob", "xiangqi").await;
    // The cannon takes the horse over the cannon; the chariot takes the cannon.
    for (ply, (player, text)) in
        [("alice", "h2h9"), ("bob", "i9h9"), ("alice", "h0g2")].into_iter().enumerate()
    {
        api.play(player, game, text, ply as i64).await;
    }
    let page = format!("{}/games/{game}", stage.base);
    alice.goto(&page).await.unwrap();
    connected_or_following(&alice).await;
    mark_page(&alice).await;
    assert_eq!(pieces(&alice).await, 30);
    assert!(!alice.title().await.unwrap().starts_with("Your move"), "bob is to move");

    // A move of the list: its position, in place; the address follows.
    click(&alice, r##"#moves a[data-ply="1"]"##).await;
    wait_css(&alice, r#"#game[data-ply="1"]"#).await;
    assert_eq!(pieces(&alice).await, 31);
    assert!(url(&alice).await.ends_with(&format!("/games/{game}?ply=1")), "{}", url(&alice).await);
    // The keys: ← → Home End.
    press(&alice, Key::Left).await;
    wait_css(&alice, r#"#game[data-ply="0"]"#).await;
    assert_eq!(pieces(&alice).await, 32);
    press(&alice, Key::Right).await;
    wait_css(&alice, r#"#game[data-ply="1"]"#).await;
    press(&alice, Key::End).await;
    wait_css(&alice, r#"#game[data-ply="3"]"#).await;
    assert!(url(&alice).await.ends_with(&format!("/games/{game}")), "the game now: {}", url(&alice).await);
    press(&alice, Key::Home).await;
    wait_css(&alice, r#"#game[data-ply="0"]"#).await;
    assert!(url(&alice).await.ends_with("?ply=0"));
    // Turned round, still at the start.
    click(&alice, "#flip").await;
    wait_css(&alice, r#"#game[data-flipped="true"][data-ply="0"]"#).await;
    assert!(url(&alice).await.ends_with("?ply=0&flip=1"), "{}", url(&alice).await);

    // Bob moves while alice studies the start: the move joins the list, the board stays.
    api.play("bob", game, "b9c7", 3).await;
    wait_css(&alice, r##"#moves a[data-ply="4"]"##).await;
    wait_css(&alice, r#"#game[data-game-ply="4"]"#).await;
    let shown = alice.find(Locator::Css("#game")).await.unwrap().attr("data-ply").await.unwrap();
    assert_eq!(shown.as_deref(), Some("0"), "the position studied stays on the board");
    assert_eq!(pieces(&alice).await, 32);
    wait_title(&alice, "Your move").await;
    // Back to the game now: the move form; the next moves come in place.
    press(&alice, Key::End).await;
    wait_css(&alice, r#"#game[data-ply="4"] #move-form"#).await;
    api.play("alice", game, "a0a1", 4).await;
    wait_css(&alice, r#"#game[data-game-ply="5"][data-my-turn="false"]"#).await;
    api.play("bob", game, "a9a8", 5).await;
    wait_css(&alice, r#"#board g.piece[data-square="a8"]"#).await;
    wait_css(&alice, "#move-form").await;
    wait_title(&alice, "Your move").await;
    still_the_same_page(&alice, "alice").await;
    stage.close(vec![alice]).await;
}

/// Waits until a page that follows its game has its socket's first state (a correspondence
/// page has no connection mark: its live log says).
async fn connected_or_following(client: &Client) {
    until("the page hearing its socket", async || {
        let log =
            client.execute("return window.tavoliereLive ? window.tavoliereLive.log : null;", vec![]).await;
        log.ok().and_then(|l| l.as_array().cloned()).is_some_and(|l| !l.is_empty())
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_analysis_board_explores_a_capture_and_discards_it_in_chromium() {
    let Some(stage) = Stage::open("analysis").await else { return };
    let api = Api::new(&stage);
    let red = stage.player("red", true).await;
    api.register("black").await;
    let game = api.start("red", "black", "xiangqi").await;
    api.play("red", game, "h2e2", 0).await;
    red.goto(&format!("{}/games/{game}", stage.base)).await.unwrap();
    click(&red, "#analyse").await;
    wait_css(&red, "#analysis .board-wrap.js").await;
    mark_page(&red).await;
    assert_eq!(pieces(&red).await, 32);
    // Black's cannon takes the horse over Red's cannon: the dots come from the rules.
    click(&red, r#"g.piece[data-square="b7"]"#).await;
    click(&red, r#"circle.target[data-target="b0"]"#).await;
    wait_css(&red, "#line li a.current").await;
    assert_eq!(pieces(&red).await, 31, "the horse taken");
    assert!(url(&red).await.contains("m=b7b0"), "{}", url(&red).await);
    wait_css(&red, "#analysis .board-wrap.js").await;
    click(&red, r#"g.piece[data-square="h0"]"#).await;
    click(&red, r#"circle.target[data-target="g2"]"#).await;
    wait_css(&red, "#line li:nth-child(2) a.current").await;
    // Stepped back through the variation, then discarded.
    press(&red, Key::Left).await;
    wait_css(&red, "#line li:nth-child(1) a.current").await;
    click(&red, "#discard").await;
    wait_css(&red, "#line-empty").await;
    assert_eq!(pieces(&red).await, 32);
    still_the_same_page(&red, "the analysis board").await;
    assert_eq!(api.game(game).await["ply"], 1, "nothing was sent to the game");
    stage.close(vec![red]).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn resign_and_abort_ask_first_with_javascript_in_chromium() {
    let Some(stage) = Stage::open("asks").await else { return };
    let api = Api::new(&stage);
    let alice = stage.player("alice", true).await;
    api.register("bob").await;
    let game = api.start("alice", "bob", "xiangqi").await;
    alice.goto(&format!("{}/games/{game}", stage.base)).await.unwrap();
    connected_or_following(&alice).await;
    let question = alice.find(Locator::Css("#confirm-abort")).await.unwrap();
    assert!(!question.is_displayed().await.unwrap(), "asked only by the button");
    click(&alice, "#abort").await;
    let question = alice.find(Locator::Css("#confirm-abort")).await.unwrap();
    assert!(question.is_displayed().await.unwrap(), "the question");
    assert_eq!(api.game(game).await["status"], "active", "nothing changed yet");
    click(&alice, "#confirm-abort a.cancel").await;
    assert!(!alice.find(Locator::Css("#confirm-abort")).await.unwrap().is_displayed().await.unwrap());
    click(&alice, "#resign").await;
    click(&alice, "#resign-yes").await;
    wait_for_text(&alice, "#result", "0-1").await;
    wait_for_text(&alice, "#status", "Black wins by resignation").await;

    let game = api.start("alice", "bob", "shogi").await;
    alice.goto(&format!("{}/games/{game}", stage.base)).await.unwrap();
    connected_or_following(&alice).await;
    click(&alice, "#abort").await;
    click(&alice, "#abort-yes").await;
    wait_for_text(&alice, "#status", "No result").await;
    assert_eq!(api.game(game).await["status"], "aborted");
    stage.close(vec![alice]).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn live_clocks_start_with_the_first_moves_and_a_rematch_is_played_in_chromium() {
    let Some(stage) = Stage::open("first-moves").await else { return };
    let ann = stage.player("ann", true).await;
    let ben = stage.player("ben", true).await;
    let fischer = [("tc_kind", "live-fischer"), ("base_minutes", "5"), ("increment_seconds", "5")];
    let url_of_game = stage.game_with(&ann, &ben, "ben", "xiangqi", &fischer).await;
    for page in [&ann, &ben] {
        wait_css(page, "#live #game").await;
        connected(page).await;
        mark_page(page).await;
    }
    // No clock runs before Red's first move: its time to make it counts down instead.
    wait_css(&ann, r#"#first-move[data-seat="0"]"#).await;
    let before = text_of(&ann, r#"li[data-seat="0"] .clock"#).await;
    tokio::time::sleep(Duration::from_millis(1500)).await;
    assert_eq!(text_of(&ann, r#"li[data-seat="0"] .clock"#).await, before, "Red's clock waits");
    assert!(ann.find(Locator::Css(".clock.running")).await.is_err(), "no clock runs");
    live_click(&ann, r#"g.piece[data-square="h2"]"#, "e2").await;
    wait_css(&ben, r#"#first-move[data-seat="1"]"#).await;
    assert!(ben.find(Locator::Css(".clock.running")).await.is_err(), "nor Black's before its first move");
    live_click(&ben, r#"g.piece[data-square="h9"]"#, "g7").await;
    wait_css(&ann, r#"li[data-seat="0"] .clock.running"#).await;
    wait_gone(&ann, "#first-move").await;

    // Ann resigns; Ben asks for a rematch, Ann's page hears it and accepts: both pages go
    // to the new game, the colours swapped.
    live_resign(&ann).await;
    for page in [&ann, &ben] {
        wait_for_text(page, "#result", "0-1").await;
        still_the_same_page(page, "a player at the end").await;
    }
    click(&ben, "#rematch-button").await;
    wait_css(&ben, "#rematch-offered").await;
    wait_for_text(&ann, "#rematch-offer", "ben offers a rematch").await;
    click(&ann, "#rematch-accept").await;
    until("both players at the rematch", async || {
        let ann_at = url(&ann).await;
        ann_at != url_of_game && ann_at == url(&ben).await
    })
    .await;
    wait_css(&ben, "#move-form").await;
    wait_for_text(&ben, r#"li[data-seat="0"]"#, "ben").await;
    stage.close(vec![ann, ben]).await;
}
