//! The real-browser end-to-end tests: headless Chromium driven over WebDriver
//! (chromedriver) against a server started here. Xiangqi: two players sign up; one
//! challenges, the other accepts; they play by the move form with JavaScript switched off
//! (alice) and by click-to-move with it on (bob); bob offers a draw, alice accepts; the
//! dashboard shows the finished game (a screenshot of the game page is saved as
//! `target/web-e2e/game.png`). Shogi and MiniShogi are played to the end (promotion
//! chooser, drops from the hand, resignation), and a Flickering chess series is built
//! click by click.
//!
//! Without chromedriver the test is skipped with a message, unless `CI` is set: in CI it
//! must run.

use std::net::TcpListener;
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use fantoccini::{Client, ClientBuilder, Locator};
use serde_json::json;

use crate::support::TestApp;

/// chromedriver, stopped when dropped.
pub(crate) struct Driver {
    child: Child,
    url: String,
}

impl Drop for Driver {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn find_program(names: &[&str]) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    names.iter().find_map(|name| std::env::split_paths(&path).map(|dir| dir.join(name)).find(|p| p.is_file()))
}

fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0").and_then(|l| l.local_addr()).map(|a| a.port()).expect("a free port")
}

fn start_driver(program: &PathBuf) -> Driver {
    let port = free_port();
    let child = Command::new(program)
        .arg(format!("--port={port}"))
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("start chromedriver");
    let deadline = Instant::now() + Duration::from_secs(20);
    while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
        assert!(Instant::now() < deadline, "chromedriver did not open port {port}");
        std::thread::sleep(Duration::from_millis(50));
    }
    Driver { child, url: format!("http://127.0.0.1:{port}") }
}

pub(crate) fn artefact_dir() -> PathBuf {
    let target = std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("target"));
    target.join("web-e2e")
}

pub(crate) async fn browser(driver: &Driver, javascript: bool, profile: &std::path::Path) -> Client {
    let chromium = find_program(&["chromium", "chromium-browser", "google-chrome"]);
    let mut options = json!({
        "args": [
            "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
            "--disable-background-networking", "--disable-component-update", "--disable-sync",
            "--disable-dev-shm-usage", "--window-size=1100,1000",
            format!("--user-data-dir={}", profile.display()),
        ],
    });
    if let Some(binary) = chromium {
        options["binary"] = json!(binary);
    }
    if !javascript {
        options["prefs"] = json!({"profile.managed_default_content_settings.javascript": 2});
    }
    let mut capabilities = serde_json::Map::new();
    capabilities.insert("goog:chromeOptions".into(), options);
    ClientBuilder::new(hyper_util::client::legacy::connect::HttpConnector::new())
        .capabilities(capabilities)
        .connect(&driver.url)
        .await
        .expect("open a Chromium session")
}

/// Waits until the page at `css` contains `text`.
pub(crate) async fn wait_for_text(client: &Client, css: &str, text: &str) {
    let deadline = Instant::now() + Duration::from_secs(15);
    loop {
        if let Ok(element) = client.find(Locator::Css(css)).await {
            if element.text().await.map(|t| t.contains(text)).unwrap_or(false) {
                return;
            }
        }
        if Instant::now() > deadline {
            let source = client.source().await.unwrap_or_default();
            panic!("'{text}' never appeared in {css}; page:\n{source}");
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

pub(crate) async fn fill(client: &Client, css: &str, value: &str) {
    let field =
        client.wait().at_most(Duration::from_secs(10)).for_element(Locator::Css(css)).await.expect(css);
    field.clear().await.expect("clear");
    field.send_keys(value).await.expect("type");
}

pub(crate) async fn click(client: &Client, css: &str) {
    // A live page redraws parts of itself when the game moves on (the socket's events): an
    // element found just before a redraw is stale by the click, and is looked up again.
    for attempt in 0.. {
        let element = client
            .wait()
            .at_most(Duration::from_secs(10))
            .for_element(Locator::Css(css))
            .await
            .unwrap_or_else(|e| panic!("{css}: {e}"));
        match element.click().await {
            Ok(()) => return,
            Err(e) if attempt < 20 && e.to_string().contains("stale element") => {
                tokio::time::sleep(Duration::from_millis(100)).await;
            }
            Err(e) => panic!("click {css}: {e}"),
        }
    }
}

async fn sign_up(client: &Client, base: &str, name: &str) {
    client.goto(&format!("{base}/signup")).await.expect("signup page");
    fill(client, "#username", name).await;
    fill(client, "#password", &format!("password-of-{name}")).await;
    click(client, "form.card button[type=submit]").await;
    wait_for_text(client, "nav .me", name).await;
}

/// Plays `text` through the move form (typing).
pub(crate) async fn type_move(client: &Client, game_url: &str, text: &str, moves_after: usize) {
    client.goto(game_url).await.expect("game page");
    fill(client, "#move", text).await;
    click(client, "#play").await;
    wait_moves(client, moves_after).await;
}

/// Waits until the move list has `count` plies.
async fn wait_moves(client: &Client, count: usize) {
    let deadline = Instant::now() + Duration::from_secs(15);
    let mut text = String::new();
    loop {
        if let Ok(list) = client.find(Locator::Css("#moves")).await {
            text = list.text().await.unwrap_or_default();
            if text.split_whitespace().count() >= count {
                return;
            }
        }
        assert!(Instant::now() < deadline, "the move list never reached {count} plies: {text:?}");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// Plays by clicking the piece on `from` and the marked destination `to`.
async fn click_move(client: &Client, game_url: &str, from: &str, to: &str, moves_after: usize) {
    script_on(client, game_url).await;
    click(client, &format!(r#"g.piece[data-square="{from}"]"#)).await;
    click(client, &format!(r#"circle.target[data-target="{to}"]"#)).await;
    wait_moves(client, moves_after).await;
}

/// chromedriver, or `None` (the test is skipped) outside CI when it is not installed.
fn chromedriver() -> Option<PathBuf> {
    let found = find_program(&["chromedriver"]);
    if found.is_none() {
        if std::env::var_os("CI").is_some() {
            panic!("CI is set but chromedriver is missing: install chromium and chromium-driver");
        }
        eprintln!("SKIPPED browser test: chromedriver not found (apt-get install chromium chromium-driver)");
    }
    found
}

/// One browser test's server, chromedriver and browser profiles.
pub(crate) struct Stage {
    /// The server, kept running for the test's length.
    _app: TestApp,
    pub(crate) base: String,
    pub(crate) driver: Driver,
    pub(crate) profiles: PathBuf,
}

impl Stage {
    /// `None` (skipped) outside CI without chromedriver.
    pub(crate) async fn open(name: &str) -> Option<Stage> {
        let chromedriver = chromedriver()?;
        let app = TestApp::spawn().await;
        let base = app.address.clone();
        let driver = start_driver(&chromedriver);
        let profiles = std::env::temp_dir().join(format!("tavoliere-e2e-{name}-{}", std::process::id()));
        Some(Stage { _app: app, base, driver, profiles })
    }

    /// A browser (JavaScript on or off) of a new user `name`, signed up.
    /// The server's database (for what only the command line does, e.g. the first admin).
    pub(crate) fn database_url(&self) -> &str {
        &self._app.database_url
    }

    pub(crate) async fn player(&self, name: &str, javascript: bool) -> Client {
        let client = browser(&self.driver, javascript, &self.profiles.join(name)).await;
        sign_up(&client, &self.base, name).await;
        client
    }

    /// `host` challenges `guest_name` to `variant` taking the first seat; `guest` accepts
    /// from the list and lands on the game → its URL.
    pub(crate) async fn game(
        &self,
        host: &Client,
        guest: &Client,
        guest_name: &str,
        variant: &str,
    ) -> String {
        self.game_with(host, guest, guest_name, variant, &[]).await
    }

    /// [`Stage::game`] with a time control from the form: `tc_kind` and its fields.
    pub(crate) async fn game_with(
        &self,
        host: &Client,
        guest: &Client,
        guest_name: &str,
        variant: &str,
        time_control: &[(&str, &str)],
    ) -> String {
        host.goto(&format!("{}/challenges/new", self.base)).await.unwrap();
        host.find(Locator::Css("#variant")).await.unwrap().select_by_value(variant).await.unwrap();
        fill(host, "#opponent", guest_name).await;
        host.find(Locator::Css("#color")).await.unwrap().select_by_value("first").await.unwrap();
        for (field, value) in time_control {
            if *field == "tc_kind" {
                host.find(Locator::Css("#tc_kind")).await.unwrap().select_by_value(value).await.unwrap();
            } else {
                fill(host, &format!("#{field}"), value).await;
            }
        }
        click(host, "form.card button[type=submit]").await;
        wait_for_text(host, "#open-challenges", guest_name).await;
        guest.goto(&format!("{}/challenges", self.base)).await.unwrap();
        click(guest, "button.accept").await;
        guest
            .wait()
            .at_most(Duration::from_secs(10))
            .for_element(Locator::Css("#game"))
            .await
            .expect("the game page");
        guest.current_url().await.unwrap().to_string()
    }

    /// Closes the browsers, stops chromedriver and removes the profiles.
    pub(crate) async fn close(self, clients: Vec<Client>) {
        for client in clients {
            client.close().await.unwrap();
        }
        drop(self.driver);
        let _ = std::fs::remove_dir_all(self.profiles);
    }
}

/// Waits until the page's script has fetched the legal moves and marked the board.
pub(crate) async fn script_on(client: &Client, url: &str) {
    client.goto(url).await.expect("game page");
    client
        .wait()
        .at_most(Duration::from_secs(10))
        .for_element(Locator::Css(".board-wrap.js"))
        .await
        .expect("script on");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_players_finish_a_game_in_chromium() {
    let Some(stage) = Stage::open("xiangqi").await else { return };
    let base = stage.base.clone();
    let alice = stage.player("alice", false).await;
    let bob = stage.player("bob", true).await;
    // Alice challenges Bob to Xiangqi, taking Red; Bob accepts from the list.
    let game_url = stage.game(&alice, &bob, "bob", "xiangqi").await;

    // Alice types (JavaScript off), Bob clicks (JavaScript on).
    type_move(&alice, &game_url, "h2e2", 1).await;
    click_move(&bob, &game_url, "h9", "g7", 2).await;
    type_move(&alice, &game_url, "P7+1", 3).await;
    click_move(&bob, &game_url, "b7", "e7", 4).await;
    type_move(&alice, &game_url, "h0g2", 5).await;

    // Bob offers a draw by button; Alice accepts.
    bob.goto(&game_url).await.unwrap();
    click(&bob, "#offer-draw").await;
    // The click returns before the form's POST is answered: wait for the page
    // that says the offer is pending, or Alice may load the game before it.
    bob.wait()
        .at_most(Duration::from_secs(10))
        .for_element(Locator::Css("p.draw-offer"))
        .await
        .expect("the pending draw offer");
    alice.goto(&game_url).await.unwrap();
    click(&alice, "#accept-draw").await;
    wait_for_text(&alice, "#result", "1/2-1/2").await;

    std::fs::create_dir_all(artefact_dir()).unwrap();
    let png = alice.screenshot().await.expect("screenshot");
    std::fs::write(artefact_dir().join("game.png"), png).unwrap();

    // Both dashboards list it as finished.
    for client in [&alice, &bob] {
        client.goto(&base).await.unwrap();
        let finished = client.find(Locator::Css("#finished")).await.unwrap().html(false).await.unwrap();
        let path = game_url.trim_start_matches(&base);
        assert!(finished.contains(path), "finished games: {finished}");
    }
    stage.close(vec![alice, bob]).await;
}

/// Flickering chess in the browser: White builds a series by clicking (each click adds a
/// move and asks the server for the next legal ones), then submits it with the form's
/// button; Black types a whole series with JavaScript off.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_flickering_series_is_built_by_clicks_in_chromium() {
    let Some(stage) = Stage::open("series").await else { return };
    let white = stage.player("white", true).await;
    let black = stage.player("black", false).await;
    let game_url = stage.game(&white, &black, "black", "flickering").await;
    script_on(&white, &game_url).await;
    click(&white, r#"g.piece[data-point="e2"]"#).await;
    click(&white, r#"circle.target[data-target="e4"]"#).await;
    // The bishop freed by e4 may now move in the same series: the server says where.
    click(&white, r#"g.piece[data-point="f1"]"#).await;
    click(&white, r#"circle.target[data-target="c4"]"#).await;
    let field = white.find(Locator::Css("#move")).await.unwrap();
    assert_eq!(field.prop("value").await.unwrap().as_deref(), Some("e2e4, f1c4"));
    click(&white, "#play").await;
    wait_for_text(&white, "#moves", "Bc4").await;

    type_move(&black, &game_url, "e7e5, g8f6", 4).await;
    wait_for_text(&black, "#moves", "Nf6").await;
    let page = black.source().await.unwrap();
    assert!(page.contains("e4, Bc4"), "the series is one turn in the move list");
    stage.close(vec![white, black]).await;
}

/// Shogi in the browser to the end: click-to-move with the promotion chooser and a drop
/// from the hand (JavaScript on), typed moves (JavaScript off), then a resignation; and a
/// MiniShogi game typed to the end.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn shogi_and_minishogi_games_are_finished_in_chromium() {
    let Some(stage) = Stage::open("shogi").await else { return };
    let sente = stage.player("sente", true).await;
    let gote = stage.player("gote", false).await;
    for variant in ["shogi", "minishogi"] {
        let game_url = stage.game(&sente, &gote, "gote", variant).await;
        if variant == "shogi" {
            click_move(&sente, &game_url, "7g", "7f", 1).await;
            type_move(&gote, &game_url, "3c3d", 2).await;
            // The bishop takes on 2b, entering the zone: promotion is optional, asked.
            script_on(&sente, &game_url).await;
            click(&sente, r#"g.piece[data-square="8h"]"#).await;
            click(&sente, r#"circle.target[data-target="2b"]"#).await;
            click(&sente, ".promotion button:first-child").await;
            wait_moves(&sente, 3).await;
            type_move(&gote, &game_url, "3a2b", 4).await;
            // A drop of the captured bishop from the hand.
            script_on(&sente, &game_url).await;
            click(&sente, r#".hand-first g.piece[data-hand="B"]"#).await;
            click(&sente, r#"circle.target[data-target="5e"]"#).await;
            wait_moves(&sente, 5).await;
            let moves = sente.find(Locator::Css("#moves")).await.unwrap().text().await.unwrap();
            assert!(moves.contains("Bx2b+") && moves.contains("B*5e"), "promotion and drop: {moves}");
            gote.goto(&game_url).await.unwrap();
            resign(&gote).await;
            wait_for_text(&gote, "#result", "1-0").await;
        } else {
            // MiniShogi typed (USI and western): rook and bishop lost, gote resigns.
            for (ply, (player, text)) in
                [(&sente, "1e1b"), (&gote, "Kx1b"), (&sente, "5d5c"), (&gote, "4a5b"), (&sente, "Px5b")]
                    .into_iter()
                    .enumerate()
            {
                type_move(player, &game_url, text, ply + 1).await;
            }
            gote.goto(&game_url).await.unwrap();
            resign(&gote).await;
            wait_for_text(&gote, "#result", "1-0").await;
        }
    }
    // Both games are listed as finished.
    sente.goto(&stage.base).await.unwrap();
    let finished = sente.find(Locator::Css("#finished")).await.unwrap().text().await.unwrap();
    assert!(finished.to_lowercase().contains("minishogi"), "finished games: {finished}");
    stage.close(vec![sente, gote]).await;
}

/// Live mode in the browser: the page of a live game follows the moves made elsewhere
/// without a reload, and its move list stays in the notation the viewer chose (Chinese
/// here, where the default is WXF).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_live_game_page_follows_the_moves_in_the_chosen_notation_in_chromium() {
    let Some(stage) = Stage::open("live").await else { return };
    let base = stage.base.clone();
    let red = stage.player("red", true).await;
    red.goto(&format!("{base}/settings")).await.unwrap();
    red.find(Locator::Css("#xiangqi_notation")).await.unwrap().select_by_value("chinese").await.unwrap();
    click(&red, "form.card button[type=submit]").await;
    wait_for_text(&red, "nav .me", "red").await;

    // The game is made and played through the REST API: only live mode can bring the
    // moves to the open page.
    let api = reqwest::Client::new();
    let token = async |name: &str| -> String {
        let password = format!("password-of-{name}");
        if name != "red" {
            let created = api
                .post(format!("{base}/api/accounts"))
                .json(&json!({"username": name, "password": password}))
                .send()
                .await
                .unwrap();
            assert_eq!(created.status(), 201);
        }
        let reply = api
            .post(format!("{base}/api/tokens"))
            .json(&json!({"username": name, "password": password}))
            .send()
            .await
            .unwrap();
        reply.json::<serde_json::Value>().await.unwrap()["token"].as_str().unwrap().to_owned()
    };
    let red_token = token("red").await;
    let black_token = token("black").await;
    let post = async |token: &str, path: String, body: serde_json::Value| -> serde_json::Value {
        let reply = api.post(format!("{base}{path}")).bearer_auth(token).json(&body).send().await.unwrap();
        assert!(reply.status().is_success(), "POST {path}: {}", reply.status());
        reply.json().await.unwrap()
    };
    let live = json!({"kind": "live-fischer", "base_seconds": 600, "increment_seconds": 5});
    let challenge = post(
        &red_token,
        "/api/challenges".to_owned(),
        json!({"variant": "xiangqi", "opponent": "black", "color": "first", "time_control": live}),
    )
    .await;
    let accepted = post(&black_token, format!("/api/challenges/{}/accept", challenge["id"]), json!({})).await;
    let game = accepted["game_id"].as_i64().unwrap();

    red.goto(&format!("{base}/games/{game}")).await.unwrap();
    red.execute("window.notReloaded = true; return null;", vec![]).await.unwrap();
    post(&red_token, format!("/api/games/{game}/moves"), json!({"move": "h2e2", "ply": 0})).await;
    wait_for_text(&red, "#moves", "炮二平五").await;
    post(&black_token, format!("/api/games/{game}/moves"), json!({"move": "h9g7", "ply": 1})).await;
    wait_for_text(&red, "#moves", "马8进7").await;
    let lines = red.find_all(Locator::Css("#moves li")).await.unwrap();
    assert_eq!(lines.len(), 1, "one line per pair of moves, as the page draws it");
    assert_eq!(lines[0].text().await.unwrap(), "炮二平五 马8进7");
    let links = red.find_all(Locator::Css("#moves li a[data-ply]")).await.unwrap();
    assert_eq!(links.len(), 2, "each move links to its position");
    let same_page = red.execute("return window.notReloaded === true;", vec![]).await.unwrap();
    assert_eq!(same_page, json!(true), "the moves came without a reload");
    stage.close(vec![red]).await;
}

/// Waits until `css` matches an element of the page (without reloading it).
pub(crate) async fn wait_css(client: &Client, css: &str) {
    let deadline = Instant::now() + Duration::from_secs(15);
    loop {
        if client.find(Locator::Css(css)).await.is_ok() {
            return;
        }
        if Instant::now() > deadline {
            let source = client.source().await.unwrap_or_default();
            panic!("{css} never appeared; page:\n{source}");
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// The text of `css`, or "" while it is missing (a redraw may be swapping it).
pub(crate) async fn text_of(client: &Client, css: &str) -> String {
    match client.find(Locator::Css(css)).await {
        Ok(element) => element.text().await.unwrap_or_default(),
        Err(_) => String::new(),
    }
}

/// On the page of a live game: clicks the piece `piece` (a CSS selector) and the
/// destination `to`, once the redrawn board has its legal moves.
pub(crate) async fn live_click(client: &Client, piece: &str, to: &str) {
    let target = format!(r#"circle.target[data-target="{to}"]"#);
    for attempt in 1.. {
        settled(client).await;
        wait_css(client, "#move-form").await;
        wait_css(client, ".board-wrap.js").await;
        click(client, piece).await;
        // A redraw between the two clicks (a watcher or clock event) swaps the board and
        // its targets out: start again on the new board.
        let clicked =
            match client.wait().at_most(Duration::from_secs(5)).for_element(Locator::Css(&target)).await {
                Ok(element) => element.click().await.map_err(|e| e.to_string()),
                Err(e) => Err(e.to_string()),
            };
        match clicked {
            Ok(()) => return,
            Err(error) if attempt < 4 => eprintln!("live_click {piece} -> {to}, again: {error}"),
            Err(error) => panic!("click {target}: {error}"),
        }
    }
}

/// Waits until the live page has no redraw under way, so that a click does not land on
/// an element about to be swapped out.
pub(crate) async fn settled(client: &Client) {
    let deadline = Instant::now() + Duration::from_secs(15);
    while client.execute("return window.tavoliereLive.busy();", vec![]).await.unwrap() != json!(false) {
        assert!(Instant::now() < deadline, "the live page never settled");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// Clicks the button `css` of a settled live page.
pub(crate) async fn live_button(client: &Client, css: &str) {
    settled(client).await;
    click(client, css).await;
}

/// Resigns by the button and its confirmation (issue 37 §3), with JavaScript (the page
/// shows the question) or without (the server's answer asks).
pub(crate) async fn resign(client: &Client) {
    click(client, "#resign").await;
    click(client, "#resign-yes").await;
}

/// [`resign`] on a settled live page; a redraw between the two clicks (it hides the
/// question again) is met by asking again.
pub(crate) async fn live_resign(client: &Client) {
    for attempt in 1.. {
        live_button(client, "#resign").await;
        let yes =
            client.wait().at_most(Duration::from_secs(5)).for_element(Locator::Css("#resign-yes")).await;
        let clicked = match yes {
            Ok(button) => button.click().await.map_err(|e| e.to_string()),
            Err(e) => Err(e.to_string()),
        };
        match clicked {
            Ok(()) => return,
            Err(error) if attempt < 4 => eprintln!("live_resign, again: {error}"),
            Err(error) => panic!("#resign-yes: {error}"),
        }
    }
}

/// What another page of a live game must show after a move to `square`, `seat` now to
/// move, without a reload: the piece on its square, the turn marker and the running clock
/// on `seat` (its clock ticking; before the seat's first move of a game of two, its
/// first-move countdown instead: no clock runs until then, issue 37 §5), and the move form
/// for the player to move only.
pub(crate) async fn follows(client: &Client, square: &str, seat: u8, to_move: bool) {
    // Xiangqi and Shogi name squares, chess and the Seven Kingdoms points.
    wait_css(
        client,
        &format!(r#"#board g.piece[data-square="{square}"], #board g.piece[data-point="{square}"]"#),
    )
    .await;
    wait_css(client, &format!(r#"li.to-move[data-seat="{seat}"]"#)).await;
    let running =
        format!(r#"li[data-seat="{seat}"] .clock.running, .first-move[data-seat="{seat}"] .first-move-left"#);
    wait_css(client, &running).await;
    let before = text_of(client, &running).await;
    let deadline = Instant::now() + Duration::from_secs(5);
    while text_of(client, &running).await == before {
        assert!(Instant::now() < deadline, "the running clock of seat {seat} does not tick: {before}");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    if to_move {
        let field = client.find(Locator::Css("#move-form input[name=move]")).await.expect("the move form");
        assert!(field.is_enabled().await.unwrap(), "the move field is enabled for the player to move");
    } else {
        assert!(client.find(Locator::Css("input[name=move]")).await.is_err(), "no move field off turn");
    }
}

/// Marks the page; [`still_the_same_page`] checks the mark is there (no reload since).
pub(crate) async fn mark_page(client: &Client) {
    client.execute("window.notReloaded = true; return null;", vec![]).await.unwrap();
}

pub(crate) async fn still_the_same_page(client: &Client, who: &str) {
    let same = client.execute("return window.notReloaded === true;", vec![]).await.unwrap();
    assert_eq!(same, json!(true), "{who}'s page was reloaded");
}

/// The live page of `client` is connected.
pub(crate) async fn connected(client: &Client) {
    wait_css(client, r#"#connection[data-state="connected"]"#).await;
}

/// The durations (ms) from an event's arrival to the redrawn board, and of the panel's
/// requests alone, as the page measured them with the performance API.
pub(crate) async fn redraw_times(client: &Client) -> (Vec<f64>, Vec<f64>) {
    let times = client
        .execute(
            "return [performance.getEntriesByName('live-redraw').map((e) => e.duration), \
             performance.getEntriesByType('resource').filter((e) => e.name.endsWith('/panel')) \
             .map((e) => e.duration)];",
            vec![],
        )
        .await
        .unwrap();
    let list = |i: usize| times[i].as_array().unwrap().iter().filter_map(|t| t.as_f64()).collect();
    (list(0), list(1))
}

/// Prints the measured redraw times (after `what`) and keeps them in `target/web-e2e/<file>`.
pub(crate) fn write_redraw_note(file: &str, what: &str, times: Vec<f64>, requests: Vec<f64>) {
    let note = format!(
        "{what}event to redrawn board: {}\nthe panel's request alone: {}\n",
        summary(times),
        summary(requests)
    );
    eprint!("{note}");
    std::fs::create_dir_all(artefact_dir()).unwrap();
    std::fs::write(artefact_dir().join(file), note).unwrap();
}

/// "n measured, median, max" of `times`.
pub(crate) fn summary(mut times: Vec<f64>) -> String {
    times.sort_by(f64::total_cmp);
    match times.len() {
        0 => "none measured".to_owned(),
        n => format!("{n} measured, median {:.1} ms, max {:.1} ms", times[n / 2], times[n - 1]),
    }
}

/// Live games from the web form to the end, in three browsers that never reload: a
/// Xiangqi game (live Fischer) with a spectator, a dropped socket, a draw offer declined
/// and a resignation; a Shogi game (byoyomi) with a promotion and a drop, and a
/// Flickering chess series built by clicks, each resigned; a game lost on time. Every move
/// is made by clicking, and the other pages follow it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn live_games_are_played_to_the_end_without_reloading_in_chromium() {
    let Some(stage) = Stage::open("live-play").await else { return };
    let ann = stage.player("ann", true).await;
    let ben = stage.player("ben", true).await;
    let watcher = browser(&stage.driver, true, &stage.profiles.join("watcher")).await;

    // Xiangqi, live Fischer 5 min + 5 s, created by the form: accepting leads both players
    // to the game.
    let fischer = [("tc_kind", "live-fischer"), ("base_minutes", "5"), ("increment_seconds", "5")];
    let url = stage.game_with(&ann, &ben, "ben", "xiangqi", &fischer).await;
    wait_css(&ann, "#live #game").await;
    assert_eq!(ann.current_url().await.unwrap().as_str(), url, "the challenger is led to the game");
    watcher.goto(&url).await.unwrap();
    for page in [&ann, &ben, &watcher] {
        connected(page).await;
        mark_page(page).await;
    }
    wait_for_text(&ann, "#watchers", "3").await;
    let clock = text_of(&ann, r#"li[data-seat="0"] .clock"#).await;
    let (minutes, seconds) = clock.split_once(':').expect("minutes and seconds");
    assert!(["4", "5"].contains(&minutes) && seconds.len() == 2, "minutes and seconds, 5 at most: {clock}");
    wait_for_text(&ann, ".time-control", "5 min + 5 s").await;
    // The spectator has the same page without the controls.
    assert!(watcher.find(Locator::Css("#resign")).await.is_err(), "no controls for a spectator");

    // Red (ann) plays C2=5 by clicking; Black's page and the spectator's follow.
    live_click(&ann, r#"g.piece[data-square="h2"]"#, "e2").await;
    follows(&ben, "e2", 1, true).await;
    follows(&watcher, "e2", 1, false).await;
    assert!(watcher.find(Locator::Css("#resign")).await.is_err(), "no controls for a spectator");
    live_click(&ben, r#"g.piece[data-square="h9"]"#, "g7").await;
    follows(&ann, "g7", 0, true).await;

    // Ben's socket drops; ann moves meanwhile; ben's page resumes from its last ply.
    ben.execute("window.tavoliereLive.drop(3000); return null;", vec![]).await.unwrap();
    wait_css(&ben, r#"#connection[data-state="reconnecting"]"#).await;
    live_click(&ann, r#"g.piece[data-square="b0"]"#, "c2").await;
    follows(&watcher, "c2", 1, false).await;
    follows(&ben, "c2", 1, true).await;
    connected(&ben).await;
    let log = ben.execute("return window.tavoliereLive.log;", vec![]).await.unwrap();
    let plies: Vec<i64> = log
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["type"] == "move")
        .filter_map(|e| e["ply"].as_i64())
        .collect();
    assert_eq!(plies, [1, 2, 3], "every move once, in order: {log}");
    assert!(log.as_array().unwrap().iter().any(|e| e["type"] == "resume"), "resumed with since_ply: {log}");
    assert!(!log.as_array().unwrap().iter().any(|e| e["type"] == "duplicate"), "{log}");
    wait_moves(&ben, 3).await;
    assert_eq!(text_of(&ben, "#moves").await.split_whitespace().count(), 3, "no doubled move");

    // A draw offered by button arrives live; declined, the offer disappears on both pages.
    live_button(&ben, "#offer-draw").await;
    wait_css(&ann, "#accept-draw").await;
    wait_css(&ben, "p.draw-offer").await;
    live_button(&ann, "#decline-draw").await;
    wait_css(&ben, "#offer-draw").await;
    // Ann resigns: the result reaches every page.
    live_resign(&ann).await;
    for page in [&ann, &ben, &watcher] {
        wait_for_text(page, "#result", "0-1").await;
        wait_for_text(page, "#result", "resignation").await;
        still_the_same_page(page, "a player or the spectator").await;
    }
    let (mut times, mut requests) = (Vec::new(), Vec::new());
    for page in [&ann, &ben, &watcher] {
        let (redraws, panels) = redraw_times(page).await;
        times.extend(redraws);
        requests.extend(panels);
    }

    // Shogi, byoyomi 1 min + 3 × 30 s: a promotion, a capture and a drop, then gote
    // resigns.
    let byoyomi = [("tc_kind", "byoyomi"), ("base_minutes", "1"), ("period_seconds", "30"), ("periods", "3")];
    let url = stage.game_with(&ann, &ben, "ben", "shogi", &byoyomi).await;
    wait_css(&ann, "#live #game").await;
    assert_eq!(ann.current_url().await.unwrap().as_str(), url);
    for page in [&ann, &ben] {
        connected(page).await;
        mark_page(page).await;
    }
    // Byoyomi periods shown (read while no redraw swaps the clock out).
    wait_for_text(&ben, r#"li[data-seat="1"] .clock"#, "3×30s").await;
    live_click(&ann, r#"g.piece[data-square="7g"]"#, "7f").await;
    follows(&ben, "7f", 1, true).await;
    live_click(&ben, r#"g.piece[data-square="3c"]"#, "3d").await;
    follows(&ann, "3d", 0, true).await;
    live_click(&ann, r#"g.piece[data-square="8h"]"#, "2b").await;
    click(&ann, ".promotion button:first-child").await;
    follows(&ben, "2b", 1, true).await;
    live_click(&ben, r#"g.piece[data-square="3a"]"#, "2b").await;
    follows(&ann, "2b", 0, true).await;
    live_click(&ann, r#".hand-first g.piece[data-hand="B"]"#, "5e").await;
    follows(&ben, "5e", 1, true).await;
    let moves = text_of(&ben, "#moves").await;
    assert!(moves.contains("Bx2b+") && moves.contains("B*5e"), "promotion and drop: {moves}");
    live_resign(&ben).await;
    for page in [&ann, &ben] {
        wait_for_text(page, "#result", "1-0").await;
        still_the_same_page(page, "a shogi player").await;
        let (redraws, panels) = redraw_times(page).await;
        times.extend(redraws);
        requests.extend(panels);
    }

    // Flickering chess: a series built by clicks arrives as one turn.
    let url = stage.game_with(&ann, &ben, "ben", "flickering", &fischer).await;
    wait_css(&ann, "#live #game").await;
    assert_eq!(ann.current_url().await.unwrap().as_str(), url);
    for page in [&ann, &ben] {
        connected(page).await;
        mark_page(page).await;
    }
    live_click(&ann, r#"g.piece[data-point="e2"]"#, "e4").await;
    click(&ann, r#"g.piece[data-point="f1"]"#).await;
    click(&ann, r#"circle.target[data-target="c4"]"#).await;
    click(&ann, "#play").await;
    follows(&ben, "c4", 1, true).await;
    wait_for_text(&ben, "#moves", "e4, Bc4").await;
    live_resign(&ben).await;
    for page in [&ann, &ben] {
        wait_for_text(page, "#result", "1-0").await;
        still_the_same_page(page, "a Flickering chess player").await;
    }

    // A flag falls: 6 seconds for Red, whose clock starts once both sides have made
    // their first move, and who then does not move. The fallen flag shows 0:00.
    let blitz = [("tc_kind", "live-fischer"), ("base_minutes", "0.1"), ("increment_seconds", "0")];
    let url = stage.game_with(&ann, &ben, "ben", "xiangqi", &blitz).await;
    wait_css(&ann, "#live #game").await;
    assert_eq!(ann.current_url().await.unwrap().as_str(), url);
    for page in [&ann, &ben] {
        connected(page).await;
        mark_page(page).await;
    }
    live_click(&ann, r#"g.piece[data-square="h2"]"#, "e2").await;
    follows(&ben, "e2", 1, true).await;
    live_click(&ben, r#"g.piece[data-square="h9"]"#, "g7").await;
    for page in [&ann, &ben] {
        wait_for_text(page, "#result", "0-1").await;
        wait_for_text(page, "#result", "time out").await;
        wait_css(page, r#"li[data-seat="0"] .flag"#).await;
        wait_for_text(page, r#"li[data-seat="0"] .clock"#, "0:00").await;
        still_the_same_page(page, "a player whose game ended on time").await;
    }

    write_redraw_note("live-redraw.txt", "", times, requests);
    stage.close(vec![ann, ben, watcher]).await;
}
