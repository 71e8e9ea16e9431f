//! The player's game page without JavaScript (issue 37): any position of the game by its
//! ply, the move links and the board turned round; resign and abort asked first; a stale
//! form move refused as the API refuses it; the status in words; the next game where it
//! is the player's move; the rematch; the analysis board; Japanese moves typed in the form.

use reqwest::{Method, StatusCode};
use serde_json::{json, Value};

use crate::pages::{game_between, play};
use crate::support::{api, attribute_after, element_text, Browser, Page, TestApp};

/// The board's SVG on a page.
fn board(body: &str) -> &str {
    let start = body.find(r#"id="board""#).expect("a board");
    let end = body[start..].find("</svg>").expect("the board's end") + start;
    &body[start..end]
}

/// Pieces on the board (not in hand).
fn pieces_on_board(body: &str) -> usize {
    board(body).matches(r#"class="piece" data-square="#).count()
}

/// The `href` of the link with `id` (written before its id).
fn href_of(body: &str, id: &str) -> Option<String> {
    let before = &body[..body.find(&format!(r#"id="{id}""#))?];
    let start = before.rfind("href=\"")? + "href=\"".len();
    Some(before[start..].split('"').next()?.replace("&#38;", "&"))
}

/// The `#game` element's attribute `name`.
fn game_attribute(body: &str, name: &str) -> String {
    let start = body.find(r#"id="game""#).expect("#game");
    attribute_after(&body[start..], &format!(r#"{name}=""#)).unwrap_or_else(|| panic!("no {name} on #game"))
}

/// An API token of `name` (signed up by its browser).
async fn token(app: &TestApp, name: &str) -> String {
    api::token(&app.address, name).await
}

/// POSTs `body` to the API as `token` → status and answer.
async fn post(app: &TestApp, token: &str, path: &str, body: Value) -> (StatusCode, Value) {
    api::call(&app.address, Some(token), Method::POST, path, Some(body)).await
}

/// GETs the API's view of game `path` (`/games/N`).
async fn view(app: &TestApp, path: &str) -> Value {
    let url = format!("{}/api{path}", app.address);
    reqwest::get(url).await.unwrap().json().await.unwrap()
}

/// A correspondence game of `first` (seat 0) against `second` from `start_position`, made
/// through the API → its page's path.
async fn game_from(app: &TestApp, first: &str, second: &str, variant: &str, start_position: &str) -> String {
    let (first_token, second_token) = (token(app, first).await, token(app, second).await);
    let challenge = json!({"variant": variant, "opponent": second, "color": "first",
        "start_position": start_position, "time_control": {"kind": "days-per-move", "days": 3}});
    let (status, made) = post(app, &first_token, "/api/challenges", challenge).await;
    assert_eq!(status, StatusCode::CREATED, "{made}");
    let path = format!("/api/challenges/{}/accept", made["id"]);
    let (status, accepted) = post(app, &second_token, &path, json!({})).await;
    assert_eq!(status, StatusCode::CREATED, "{accepted}");
    format!("/games/{}", accepted["game_id"])
}

/// Posts an action form (`resign`, `abort`, `rematch`...) from the game page, `confirm`
/// added when given.
async fn act(browser: &mut Browser, game: &str, action: &str, confirm: Option<&str>) -> Page {
    let csrf = browser.get(game).await.csrf();
    let mut fields = vec![("csrf", csrf.as_str()), ("action", action)];
    if let Some(confirm) = confirm {
        fields.push(("confirm", confirm));
    }
    browser.post(&format!("{game}/action"), &fields).await
}

#[tokio::test]
async fn any_position_of_the_game_is_shown_by_its_ply_with_links_to_every_move() {
    let app = TestApp::spawn().await;
    let (mut red, mut black, game) = game_between(&app, "xiangqi").await;
    // The cannon takes the horse over the cannon; the chariot takes the cannon.
    assert_eq!(play(&mut red, &game, "h2h9").await.status, StatusCode::SEE_OTHER);
    assert_eq!(play(&mut black, &game, "i9h9").await.status, StatusCode::SEE_OTHER);
    let now = red.get(&game).await;
    assert_eq!(pieces_on_board(&now.body), 30);
    assert_eq!(game_attribute(&now.body, "data-ply"), "2");
    for (ply, pieces, ahead) in [(0, 32, 2), (1, 31, 1), (2, 30, 0)] {
        let page = red.get(&format!("{game}?ply={ply}")).await;
        assert_eq!(page.status, StatusCode::OK);
        assert_eq!(game_attribute(&page.body, "data-ply"), ply.to_string(), "the position shown");
        assert_eq!(game_attribute(&page.body, "data-game-ply"), "2", "the game's own ply");
        assert_eq!(pieces_on_board(&page.body), pieces, "the position after {ply} moves");
        assert_eq!(page.body.matches(r#"class="move ahead""#).count(), ahead, "moves not yet shown at {ply}");
        let marked = board(&page.body).contains(r#"class="last-move""#);
        assert_eq!(marked, ply > 0, "the last move of ply {ply} is marked");
        // Every move links to its position, in the display notation.
        for n in 1..=2 {
            assert!(page.body.contains(&format!(r#"<a href="?ply={n}" data-ply="{n}""#)), "the link to {n}");
        }
        assert_eq!(page.body.contains(r#"id="studying""#), ply < 2, "the note of an earlier position");
    }
    let first = red.get(&format!("{game}?ply=1")).await;
    assert_eq!(href_of(&first.body, "step-first").as_deref(), Some("?ply=0"));
    assert_eq!(href_of(&first.body, "step-previous").as_deref(), Some("?ply=0"));
    assert_eq!(href_of(&first.body, "step-next").as_deref(), Some("?ply=2"));
    assert_eq!(href_of(&first.body, "step-last").as_deref(), Some("?ply=2"));
    assert!(!now.body.contains(r#"id="step-next""#), "nothing after the game now");
    assert!(first.body.contains(&format!(r#"href="{game}/board.svg?ply=1""#)), "the image of what is shown");
    // Out of range: clamped; not a number: ignored.
    for (asked, shown) in [("99", "2"), ("-3", "0"), ("abc", "2"), ("", "2"), ("1.5", "2")] {
        let page = red.get(&format!("{game}?ply={asked}")).await;
        assert_eq!(page.status, StatusCode::OK, "{asked}");
        assert_eq!(game_attribute(&page.body, "data-ply"), shown, "?ply={asked}");
    }
    // The panel live mode and the script swap in shows the same position.
    let panel = red.get(&format!("{game}/panel?ply=1")).await;
    assert_eq!(game_attribute(&panel.body, "data-ply"), "1");
    assert_eq!(pieces_on_board(&panel.body), 31);

    // Turned round by anyone: Red sees it from Black's side, Black from Red's, a visitor
    // too; the links keep it turned.
    assert_eq!(game_attribute(&now.body, "data-flipped"), "false");
    assert_eq!(game_attribute(&red.get(&format!("{game}?flip=1")).await.body, "data-flipped"), "true");
    assert_eq!(game_attribute(&black.get(&game).await.body, "data-flipped"), "true");
    assert_eq!(game_attribute(&black.get(&format!("{game}?flip=1")).await.body, "data-flipped"), "false");
    let visitor = app.browser().get(&format!("{game}?ply=1&flip=1")).await;
    assert_eq!(game_attribute(&visitor.body, "data-flipped"), "true");
    assert!(visitor.body.contains(r#"<a href="?ply=2&#38;flip=1" data-ply="2""#), "{}", visitor.body);
    assert_eq!(
        href_of(&visitor.body, "flip").as_deref(),
        Some("?ply=1&flip=0"),
        "the flip link turns it back"
    );
}

#[tokio::test]
async fn a_shogi_position_shows_the_hands_of_its_ply() {
    let app = TestApp::spawn().await;
    let (mut sente, mut gote, game) = game_between(&app, "shogi").await;
    for (who, text) in [(0, "7g7f"), (1, "3c3d"), (0, "8h2b+")] {
        let browser = if who == 0 { &mut sente } else { &mut gote };
        assert_eq!(play(browser, &game, text).await.status, StatusCode::SEE_OTHER, "{text}");
    }
    let before = gote.get(&format!("{game}?ply=2")).await;
    assert!(!before.body.contains(r#"data-hand="B""#), "nothing in hand yet");
    let after = gote.get(&format!("{game}?ply=3")).await;
    assert!(after.body.contains(r#"data-hand="B""#), "sente holds the bishop it took");
    assert_eq!(pieces_on_board(&after.body), 39);
}

#[tokio::test]
async fn resign_and_abort_ask_first_without_javascript() {
    let app = TestApp::spawn().await;
    let (mut alice, mut bob, game) = game_between(&app, "xiangqi").await;
    let page = alice.get(&game).await;
    assert!(page.body.contains(r#"id="abort""#) && page.body.contains(r#"id="resign""#));
    assert!(page.body.contains(r#"id="confirm-resign" hidden"#), "the question waits for the button");
    // The button alone asks and changes nothing.
    let asked = act(&mut alice, &game, "resign", None).await;
    assert_eq!(asked.status, StatusCode::OK);
    assert!(asked.body.contains(r#"id="confirm-resign">"#), "shown: {}", asked.body);
    assert!(asked.body.contains(r#"name="confirm" value="yes"><button type="submit" id="resign-yes""#));
    assert_eq!(view(&app, &game).await["status"], "active", "nothing changed");
    let asked = act(&mut alice, &game, "abort", Some("no")).await;
    assert!(asked.body.contains(r#"id="confirm-abort">"#));
    assert_eq!(view(&app, &game).await["status"], "active", "nothing changed");
    // Confirmed: done.
    let aborted = act(&mut alice, &game, "abort", Some("yes")).await;
    assert_eq!(aborted.status, StatusCode::SEE_OTHER);
    let stopped = view(&app, &game).await;
    assert_eq!((stopped["status"].as_str(), stopped["result"].as_str()), (Some("aborted"), None));

    let game2 = alice_challenges(&mut bob, &app).await;
    let page = bob.get(&game2).await;
    assert!(page.body.contains(r#"id="abort""#), "nobody has moved yet");
    assert_eq!(play(&mut bob, &game2, "h2e2").await.status, StatusCode::SEE_OTHER);
    let page = alice.get(&game2).await;
    assert!(page.body.contains(r#"id="abort""#), "Black has not moved yet");
    assert_eq!(play(&mut alice, &game2, "h9g7").await.status, StatusCode::SEE_OTHER);
    let page = alice.get(&game2).await;
    assert!(!page.body.contains(r#"id="abort""#), "both sides moved: no abort");
    let resigned = act(&mut alice, &game2, "resign", Some("yes")).await;
    assert_eq!(resigned.status, StatusCode::SEE_OTHER);
    assert_eq!(view(&app, &game2).await["result"], "1-0");
}

/// Bob challenges alice (bob first) and alice accepts → the game's path.
async fn alice_challenges(bob: &mut Browser, app: &TestApp) -> String {
    let fields = [
        ("variant", "xiangqi"),
        ("opponent", "alice"),
        ("color", "first"),
        ("tc_kind", "days-per-move"),
        ("days", "3"),
    ];
    let created = bob.submit("/challenges/new", "/challenges", &fields).await;
    assert_eq!(created.status, StatusCode::SEE_OTHER, "{}", created.body);
    let alice_token = token(app, "alice").await;
    let (_, open) = api::call(&app.address, Some(&alice_token), Method::GET, "/api/challenges", None).await;
    let id = open.as_array().and_then(|list| list.first()).map(|c| c["id"].clone()).expect("bob's challenge");
    let (status, accepted) =
        post(app, &alice_token, &format!("/api/challenges/{id}/accept"), json!({})).await;
    assert_eq!(status, StatusCode::CREATED, "{accepted}");
    format!("/games/{}", accepted["game_id"])
}

#[tokio::test]
async fn a_stale_form_move_is_refused_as_the_api_refuses_it_before_any_dry_run() {
    let app = TestApp::spawn().await;
    let (mut sente, mut gote, game) = game_between(&app, "shogi").await;
    let stale = sente.get(&game).await;
    assert_eq!(play(&mut sente, &game, "7g7f").await.status, StatusCode::SEE_OTHER);
    // From the tab opened before the move: P-2f for ply 0. In the game now (gote to move)
    // the text is illegal; it must be refused as stale, not judged on the new position.
    let refused =
        sente.post(&format!("{game}/move"), &[("csrf", &stale.csrf()), ("move", "P-2f"), ("ply", "0")]).await;
    assert_eq!(refused.status, StatusCode::CONFLICT, "as the API: 409");
    assert_eq!(
        element_text(&refused.body, "move-error"),
        "The game has moved on meanwhile: look at the board again"
    );
    let token = token(&app, "alice").await;
    let (status, answer) =
        post(&app, &token, &format!("/api{game}/moves"), json!({"move": "P-2f", "ply": 0})).await;
    assert_eq!(status, StatusCode::CONFLICT);
    assert_eq!(answer["errors"][0]["code"], "move.stale-ply", "the API's answer to the same move");
    // Confirmed or not, a stale ply plays nothing.
    let csrf = gote.get(&game).await.csrf();
    let confirmed = gote
        .post(&format!("{game}/move"), &[("csrf", &csrf), ("move", "3c3d"), ("ply", "0"), ("confirm", "1")])
        .await;
    assert_eq!(confirmed.status, StatusCode::CONFLICT);
    assert_eq!(view(&app, &game).await["ply"], 1, "nothing was played");

    // A move that would end the game asks, and the question carries the ply the player
    // saw.
    let (mut sente, mut gote, game) = game_between_named(&app, "minishogi", "carol", "dave").await;
    for (who, text) in [(0, "5e4d"), (1, "1a2b"), (0, "1e1b"), (1, "2b2c")] {
        let browser = if who == 0 { &mut sente } else { &mut gote };
        assert_eq!(play(browser, &game, text).await.status, StatusCode::SEE_OTHER, "{text}");
    }
    let asked = play(&mut sente, &game, "2e3d").await;
    let confirm = &asked.body[asked.body.find(r#"id="confirm""#).expect("the question")..];
    assert_eq!(attribute_after(confirm, r#"name="ply" value=""#).as_deref(), Some("4"));
}

#[tokio::test]
async fn the_status_says_check_and_names_the_winner_in_words() {
    let app = TestApp::spawn().await;
    let (mut red, mut black) = (app.browser(), app.browser());
    red.sign_up("red").await;
    black.sign_up("black").await;
    // The chariot checks along Black's back rank; the king steps aside.
    let game = game_from(&app, "red", "black", "xiangqi", "3k5/9/9/9/9/9/9/9/9/R3K4 w - - 0 1").await;
    assert_eq!(play(&mut red, &game, "a0a9").await.status, StatusCode::SEE_OTHER);
    let page = black.get(&game).await;
    assert_eq!(element_text(&page.body, "status"), "Your move · Check");
    assert_eq!(element_text(&red.get(&game).await.body, "status"), "black to move · Check");
    assert!(page.body.contains(r#"<sup class="check" title="check">+</sup>"#), "the check mark in the list");
    assert_eq!(play(&mut black, &game, "d9d8").await.status, StatusCode::SEE_OTHER);
    assert_eq!(element_text(&red.get(&game).await.body, "status"), "Your move");
    assert_eq!(act(&mut black, &game, "resign", Some("yes")).await.status, StatusCode::SEE_OTHER);
    assert_eq!(element_text(&red.get(&game).await.body, "status"), "Red wins by resignation");
    black.language = Some("it");
    assert_eq!(element_text(&black.get(&game).await.body, "status"), "Vince Rosso per abbandono");

    // Shogi names its sides as shogi does.
    let (_, mut gote, game) = game_between_named(&app, "shogi", "sente", "gote").await;
    assert_eq!(act(&mut gote, &game, "resign", Some("yes")).await.status, StatusCode::SEE_OTHER);
    assert_eq!(element_text(&gote.get(&game).await.body, "status"), "Sente (black) wins by resignation");
}

/// [`game_between`] for players named `first` and `second`.
async fn game_between_named(
    app: &TestApp,
    variant: &str,
    first: &str,
    second: &str,
) -> (Browser, Browser, String) {
    let (mut one, mut two) = (app.browser(), app.browser());
    one.sign_up(first).await;
    two.sign_up(second).await;
    let fields = [
        ("variant", variant),
        ("opponent", second),
        ("color", "first"),
        ("tc_kind", "days-per-move"),
        ("days", "3"),
    ];
    assert_eq!(one.submit("/challenges/new", "/challenges", &fields).await.status, StatusCode::SEE_OTHER);
    let list = two.get("/challenges").await;
    let accept =
        attribute_after(&list.body, r#"<form method="post" action="/challenges/"#).expect("a challenge");
    let accepted = two.post(&format!("/challenges/{accept}"), &[("csrf", &list.csrf())]).await;
    assert_eq!(accepted.status, StatusCode::SEE_OTHER);
    let game = accepted.location().to_owned();
    (one, two, game)
}

#[tokio::test]
async fn after_a_correspondence_move_the_page_links_the_next_game_where_it_is_your_move() {
    let app = TestApp::spawn().await;
    let (mut alice, mut bob, first) = game_between(&app, "xiangqi").await;
    let fields = [
        ("variant", "shogi"),
        ("opponent", "bob"),
        ("color", "first"),
        ("tc_kind", "days-per-move"),
        ("days", "3"),
    ];
    assert_eq!(alice.submit("/challenges/new", "/challenges", &fields).await.status, StatusCode::SEE_OTHER);
    let list = bob.get("/challenges").await;
    let accept = attribute_after(&list.body, r#"<form method="post" action="/challenges/"#).unwrap();
    let second =
        bob.post(&format!("/challenges/{accept}"), &[("csrf", &list.csrf())]).await.location().to_owned();
    assert!(!alice.get(&first).await.body.contains(r#"id="next-game""#), "alice's move here");
    let moved = play(&mut alice, &first, "h2e2").await;
    assert_eq!(moved.location(), first);
    let after = alice.get(&first).await;
    assert_eq!(href_of(&after.body, "next-game"), Some(second.clone()), "{}", after.body);
    assert_eq!(play(&mut alice, &second, "7g7f").await.status, StatusCode::SEE_OTHER);
    assert!(!alice.get(&second).await.body.contains(r#"id="next-game""#), "no game waits for alice");
    assert!(!bob.get(&first).await.body.contains(r#"id="next-game""#), "bob is to move here: no link");
}

#[tokio::test]
async fn a_rematch_is_offered_and_accepted_with_the_colours_swapped() {
    let app = TestApp::spawn().await;
    let (mut alice, mut bob, game) = game_between(&app, "xiangqi").await;
    assert!(!alice.get(&game).await.body.contains(r#"id="rematch""#), "not while the game goes on");
    assert_eq!(act(&mut bob, &game, "resign", Some("yes")).await.status, StatusCode::SEE_OTHER);
    let page = alice.get(&game).await;
    assert!(page.body.contains(r#"id="rematch-button""#));
    assert!(page.body.contains(r#"data-live="true""#), "a player's finished game hears its rematch");
    assert_eq!(act(&mut alice, &game, "rematch", None).await.location(), game, "offered: back to the game");
    assert!(alice.get(&game).await.body.contains(r#"id="rematch-offered""#));
    let offered = bob.get(&game).await;
    assert_eq!(element_text(&offered.body, "rematch-offer"), "alice offers a rematch, colours swapped.");
    let accepted = act(&mut bob, &game, "rematch", None).await;
    assert_eq!(accepted.status, StatusCode::SEE_OTHER);
    let rematch = accepted.location().to_owned();
    assert_ne!(rematch, game);
    let started = view(&app, &rematch).await;
    assert_eq!(started["seats"][0]["username"], "bob", "colours swapped: {started}");
    assert_eq!(started["seats"][1]["username"], "alice");
    assert_eq!(started["time_control"], view(&app, &game).await["time_control"], "same settings");
    let old = alice.get(&game).await;
    assert!(old.body.contains(&format!(r#"<a href="{rematch}" id="rematch-game">"#)));
    assert!(old.body.contains(&format!(r#"data-rematch-game="{}""#, &rematch["/games/".len()..])));
    // Asking again leads to the game started.
    assert_eq!(act(&mut alice, &game, "rematch", None).await.location(), rematch);
}

#[tokio::test]
async fn the_analysis_board_plays_a_variation_without_javascript_and_never_the_game() {
    let app = TestApp::spawn().await;
    let (mut red, mut black, game) = game_between(&app, "xiangqi").await;
    assert_eq!(play(&mut red, &game, "h2e2").await.status, StatusCode::SEE_OTHER);
    // A player's own correspondence game in play: open to them, not to others.
    let page = red.get(&game).await;
    assert_eq!(href_of(&page.body, "analyse"), Some(format!("{game}/analysis?ply=1")));
    let mut visitor = app.browser();
    assert_eq!(visitor.get(&format!("{game}/analysis")).await.status, StatusCode::FORBIDDEN);
    let start = red.get(&format!("{game}/analysis?ply=1")).await;
    assert_eq!(start.status, StatusCode::OK);
    assert_eq!(pieces_on_board(&start.body), 32);
    assert!(start.body.contains(r#"id="line-empty""#));
    assert_eq!(element_text(&start.body, "analysis-status"), "Black to move");
    // A capture tried by the form (Black's cannon takes the horse over Red's cannon): the
    // answer is the variation's own address.
    let tried = red.get(&format!("{game}/analysis?ply=1&move=b7b0")).await;
    assert_eq!(tried.status, StatusCode::SEE_OTHER, "{}", tried.body);
    let variation = tried.location().to_owned();
    assert_eq!(variation, format!("{game}/analysis?ply=1&m=b7b0"));
    let shown = red.get(&variation).await;
    assert_eq!(pieces_on_board(&shown.body), 31, "the horse taken");
    assert_eq!(element_text(&shown.body, "analysis-status"), "Red to move");
    // A second move, then back one step: the first move's position, the second listed.
    let two = red.get(&format!("{variation}&move=h0g2")).await.location().to_owned();
    let back = red.get(&format!("{two}&at=1")).await;
    assert_eq!(back.body.matches(r#"class="move ahead""#).count(), 1);
    let sent = attribute_after(&back.body, r#"data-moves=""#).unwrap_or_default();
    assert!(sent.contains("b7b0") && !sent.contains("h0g2"), "the moves shown: {sent}");
    // An illegal move is refused by the rules, the variation kept.
    let refused = red.get(&format!("{variation}&move=a0a5")).await;
    assert_eq!(refused.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(refused.body.contains(r#"id="analysis-error""#));
    assert_eq!(pieces_on_board(&refused.body), 31);
    // Discarded: the position of the game again.
    assert_eq!(href_of(&shown.body, "discard"), Some(format!("{game}/analysis?ply=1")));
    assert_eq!(pieces_on_board(&red.get(&format!("{game}/analysis?ply=1")).await.body), 32);
    // Nothing reached the game.
    assert_eq!(view(&app, &game).await["ply"], 1);
    assert_eq!(black.get(&format!("{game}/analysis")).await.status, StatusCode::OK, "Black plays it too");
    // Once over, anyone may analyse it.
    assert_eq!(act(&mut black, &game, "resign", Some("yes")).await.status, StatusCode::SEE_OTHER);
    assert_eq!(visitor.get(&format!("{game}/analysis?ply=0")).await.status, StatusCode::OK);
}

#[tokio::test]
async fn japanese_moves_are_played_by_the_form() {
    let app = TestApp::spawn().await;
    let (mut sente, mut gote, game) = game_between(&app, "shogi").await;
    assert_eq!(play(&mut sente, &game, "７六歩").await.status, StatusCode::SEE_OTHER);
    assert_eq!(play(&mut gote, &game, "△3四歩").await.status, StatusCode::SEE_OTHER);
    assert_eq!(play(&mut sente, &game, "２二角成").await.status, StatusCode::SEE_OTHER);
    let refused = play(&mut gote, &game, "▲同銀").await;
    assert_eq!(refused.status, StatusCode::UNPROCESSABLE_ENTITY, "Black's mark on White's move");
    assert_eq!(element_text(&refused.body, "move-error"), "▲同銀 names a player who is not to move.");
    assert_eq!(play(&mut gote, &game, "同　銀").await.status, StatusCode::SEE_OTHER);
    let moves: Vec<String> = view(&app, &game).await["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["canonical"].as_str().unwrap().to_owned())
        .collect();
    assert_eq!(moves, ["7g7f", "3c3d", "8h2b+", "3a2b"]);
}

#[tokio::test]
async fn a_correspondence_page_follows_its_game_over_the_live_socket() {
    let app = TestApp::spawn().await;
    let (mut alice, _bob, game) = game_between(&app, "xiangqi").await;
    let page = alice.get(&game).await;
    assert!(page.body.contains(r#"data-live="true""#), "a game in play is followed");
    assert!(page.body.contains("/static/live.js"));
    assert!(!page.body.contains(r#"id="live-bar""#), "without the live games' bar");
    assert_eq!(game_attribute(&page.body, "data-my-turn"), "true");
    assert_eq!(game_attribute(&page.body, "data-your-move"), "Your move");
}
