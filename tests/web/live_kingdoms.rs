//! A live Game of the Seven Kingdoms in Chromium (issue 22): three players fill an open
//! challenge of three seats made with the web form (live Fischer), are led to the game,
//! and play a round and more by clicking, while every other page (the players' and a
//! spectator's) follows each move without a reload; seats resign one after the other
//! until one alliance is left. The event-to-redraw time is measured with the browser's
//! performance API and written to `target/web-e2e/live-kingdoms-redraw.txt`.

use fantoccini::{Client, Locator};
use serde_json::{json, Value};

use crate::browser::{
    browser, click, connected, fill, follows, live_click, live_resign, mark_page, redraw_times,
    still_the_same_page, wait_css, wait_for_text, write_redraw_note, Stage,
};

/// The game as the API shows it to the page's account (the page's own session cookie).
async fn game_state(client: &Client, game: &str) -> Value {
    let script = "const done = arguments[arguments.length - 1]; \
                  fetch(`/api/games/${arguments[0]}`).then((r) => r.json()).then(done, (e) => done(String(e)));";
    client.execute_async(script, vec![json!(game)]).await.expect("the game's view")
}

/// The points of a Seven Kingdoms move text: "Qin 騎 a13-e16" → ("a13", "e16").
fn points(text: &str) -> (String, String) {
    let last = text.split_whitespace().last().expect("a move");
    let (from, to) = last.split_once(['-', 'x', ':']).expect("from and to");
    (from.to_owned(), to.to_owned())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_live_seven_kingdoms_game_of_three_seats_is_followed_by_every_page_in_chromium() {
    let Some(stage) = Stage::open("live-kingdoms").await else { return };
    let qin = stage.player("qin", true).await;
    let chu = stage.player("chu", true).await;
    let han = stage.player("han", true).await;
    let watcher = browser(&stage.driver, true, &stage.profiles.join("watcher")).await;

    // An open challenge of three seats by the form, live Fischer 5 min + 5 s.
    qin.goto(&format!("{}/challenges/new", stage.base)).await.unwrap();
    qin.find(Locator::Css("#variant")).await.unwrap().select_by_value("seven-kingdoms").await.unwrap();
    fill(&qin, "#seats", "3").await;
    qin.find(Locator::Css("#color")).await.unwrap().select_by_value("first").await.unwrap();
    qin.find(Locator::Css("#tc_kind")).await.unwrap().select_by_value("live-fischer").await.unwrap();
    fill(&qin, "#base_minutes", "5").await;
    fill(&qin, "#increment_seconds", "5").await;
    click(&qin, "form.card button[type=submit]").await;
    wait_css(&qin, "#open-challenges tr[data-waiting]").await;
    // Chu takes a seat and waits; Han takes the last one: the game starts and all three
    // are led to it.
    chu.goto(&format!("{}/challenges", stage.base)).await.unwrap();
    click(&chu, "button.accept").await;
    wait_css(&chu, "#open-challenges tr[data-waiting] .joined").await;
    han.goto(&format!("{}/challenges", stage.base)).await.unwrap();
    click(&han, "button.accept").await;
    for page in [&qin, &chu, &han] {
        wait_css(page, "#live #game").await;
    }
    let url = han.current_url().await.unwrap().to_string();
    for page in [&qin, &chu] {
        assert_eq!(page.current_url().await.unwrap().as_str(), url, "every player is led to the game");
    }
    let game = url.rsplit('/').next().unwrap().to_owned();
    watcher.goto(&url).await.unwrap();
    for page in [&qin, &chu, &han, &watcher] {
        connected(page).await;
        mark_page(page).await;
    }
    wait_for_text(&qin, "#watchers", "4").await;
    assert!(watcher.find(Locator::Css("#resign")).await.is_err(), "no controls for a spectator");

    // Whose seat is whose: the host took seat 0 (Qin), the others were drawn.
    let state = game_state(&qin, &game).await;
    assert_eq!(state["seat_count"], 3, "{state}");
    let named = [("qin", &qin), ("chu", &chu), ("han", &han)];
    let by_seat: Vec<&Client> = (0..3)
        .map(|seat| {
            let name = state["seats"][seat]["username"].as_str().unwrap();
            named.iter().find(|(n, _)| *n == name).expect("a player of the game").1
        })
        .collect();
    assert!(std::ptr::eq(by_seat[0], &qin), "the host took the first seat");

    // A whole round by clicking: the seven kingdoms move in their order (seven-kingdoms.md
    // "Players and alliances"), so a seat moves for each of its kingdoms. After each move
    // every other page shows the piece on its point, the turn marker and the running
    // clock on the seat to move, and the move form only on that player's page.
    let mut state = state;
    for ply in 0..7 {
        assert_eq!(state["ply"], ply, "{state}");
        let seat = state["to_move_seat"].as_u64().expect("a seat to move") as usize;
        let mover = by_seat[seat];
        let mine = game_state(mover, &game).await;
        let text = mine["legal_moves"][0].as_str().expect("a legal move").to_owned();
        let (from, to) = points(&text);
        live_click(mover, &format!(r#"g.piece[data-point="{from}"]"#), &to).await;
        state = loop {
            let now = game_state(&watcher, &game).await;
            if now["ply"] == ply + 1 {
                break now;
            }
            tokio::time::sleep(std::time::Duration::from_millis(50)).await;
        };
        let next = state["to_move_seat"].as_u64().unwrap() as usize;
        for (other_seat, page) in by_seat.iter().enumerate().filter(|(s, _)| *s != seat) {
            follows(page, &to, next as u8, other_seat == next).await;
        }
        follows(&watcher, &to, next as u8, false).await;
    }
    let moves = crate::browser::text_of(&watcher, "#moves").await;
    for kingdom in ["Qin", "Chu", "Han", "Qi", "Wei", "Zhao", "Yan"] {
        assert!(moves.contains(kingdom), "{kingdom} moved: {moves}");
    }
    let (mut times, mut requests) = (Vec::new(), Vec::new());
    for page in [&qin, &chu, &han, &watcher] {
        let (redraws, panels) = redraw_times(page).await;
        times.extend(redraws);
        requests.extend(panels);
    }

    // Seat 1 resigns: the game goes on without it, every page shows it.
    live_resign(by_seat[1]).await;
    for page in [&qin, &chu, &han, &watcher] {
        wait_for_text(page, r#"li[data-seat="1"]"#, "resigned").await;
    }
    // Then seat 2: one alliance is left and the game ends on every page.
    live_resign(by_seat[2]).await;
    for page in [&qin, &chu, &han, &watcher] {
        wait_css(page, "#result").await;
        wait_for_text(page, "#result", "alliance").await;
        still_the_same_page(page, "a Seven Kingdoms player or the spectator").await;
    }

    write_redraw_note(
        "live-kingdoms-redraw.txt",
        "Seven Kingdoms, 3 seats and a spectator: ",
        times,
        requests,
    );
    stage.close(vec![qin, chu, han, watcher]).await;
}
