//! The public home page, profiles and leaderboards (issue 18 §2, §3) as plain HTML: a
//! visitor reads everything without an account and without JavaScript; a player gets
//! the accept buttons of the lobby.

use reqwest::StatusCode;
use serde_json::{json, Value};

use crate::support::{attribute_after, TestApp};

/// The REST API of the app under test, for setting the scene.
pub(crate) struct Api {
    address: String,
    client: reqwest::Client,
}

impl Api {
    pub(crate) fn of(app: &TestApp) -> Api {
        Api::at(&app.address)
    }

    pub(crate) fn at(address: &str) -> Api {
        Api { address: address.to_owned(), client: reqwest::Client::new() }
    }

    pub(crate) async fn post(&self, path: &str, token: Option<&str>, body: Value) -> Value {
        let mut request = self.client.post(format!("{}{path}", self.address)).json(&body);
        if let Some(token) = token {
            request = request.bearer_auth(token);
        }
        let response = request.send().await.expect("request");
        assert!(response.status().is_success(), "POST {path}: {}", response.status());
        response.json().await.unwrap_or(Value::Null)
    }

    /// Registers `name` → a bearer token.
    pub(crate) async fn register(&self, name: &str) -> String {
        let password = format!("password-of-{name}");
        self.post("/api/accounts", None, json!({"username": name, "password": password})).await;
        let token = self.post("/api/tokens", None, json!({"username": name, "password": password})).await;
        token["token"].as_str().unwrap().to_owned()
    }

    /// A rated Xiangqi game `first` (seat 0) against `second` → its id.
    pub(crate) async fn game(&self, first: &str, second: (&str, &str)) -> i64 {
        let challenge = json!({"variant": "xiangqi", "opponent": second.0, "color": "first", "rated": true,
                               "time_control": {"kind": "days-per-move", "days": 3}});
        let id = self.post("/api/challenges", Some(first), challenge).await["id"].as_i64().unwrap();
        self.post(&format!("/api/challenges/{id}/accept"), Some(second.1), json!({})).await["game_id"]
            .as_i64()
            .unwrap()
    }
}

#[tokio::test]
async fn visitors_see_the_lobby_games_results_and_leaderboards_and_players_can_accept() {
    let app = TestApp::spawn().await;
    let api = Api::of(&app);
    let alice = api.register("alice").await;
    let bob = api.register("bob").await;
    let carol = api.register("carol").await;
    let open =
        json!({"variant": "shogi", "rated": true, "time_control": {"kind": "days-per-move", "days": 5}});
    let challenge = api.post("/api/challenges", Some(&alice), open).await["id"].as_i64().unwrap();
    let playing = api.game(&alice, ("bob", &bob)).await;
    api.post(&format!("/api/games/{playing}/moves"), Some(&alice), json!({"move": "h2e2", "ply": 0})).await;
    let finished = api.game(&carol, ("bob", &bob)).await;
    api.post(&format!("/api/games/{finished}/resign"), Some(&bob), json!({})).await;

    let mut visitor = app.browser();
    let home = visitor.get("/").await;
    assert_eq!(home.status, StatusCode::OK);
    let section = |id: &str| {
        let start =
            home.body.find(&format!(r#"<section id="{id}""#)).unwrap_or_else(|| panic!("section {id}"));
        let end = home.body[start..].find("</section>").unwrap() + start;
        home.body[start..end].to_owned()
    };
    let lobby = section("lobby");
    assert!(
        lobby.contains("alice") && lobby.contains("Shogi") && lobby.contains("5 days per move"),
        "{lobby}"
    );
    assert!(!lobby.contains("/accept"), "a visitor gets no accept button");
    assert!(lobby.contains(r#"href="/login""#));
    let in_play = section("playing");
    assert!(in_play.contains(&format!(r#"src="/games/{playing}/board.svg?ply=1""#)), "{in_play}");
    assert!(in_play.contains("alice – bob"));
    assert!(!in_play.contains(&format!("/games/{finished}\"")), "a finished game is not in play");
    let recent = section("recent");
    assert!(recent.contains(&format!(r#"href="/games/{finished}""#)) && recent.contains("1-0"), "{recent}");
    assert!(section("leaderboards").contains(r#"href="/leaderboards/xiangqi/correspondence""#));
    assert!(home.body.contains(r#"src="/static/home.js?v="#), "live updates are an enhancement");
    // The small board and the game itself are public.
    let board = visitor.get(&format!("/games/{playing}/board.svg?ply=1")).await;
    assert_eq!(board.status, StatusCode::OK);
    assert!(board.body.contains("<svg"));
    let game = visitor.get(&format!("/games/{finished}")).await;
    assert!(game.body.contains("<title>carol – bob"), "the title names the players");
    assert!(game.body.contains("1500? → 1662 (+162)"), "the rating change is on the game page");

    let mut dora = app.browser();
    dora.sign_up("dora").await;
    let home = dora.get("/").await;
    assert!(home.body.contains(&format!(r#"action="/challenges/{challenge}/accept""#)));
    assert!(home.body.contains(r#"id="my-turn""#), "a player's own sections come first");
    let accepted = dora.post(&format!("/challenges/{challenge}/accept"), &[("csrf", &home.csrf())]).await;
    assert!(accepted.location().starts_with("/games/"), "{}", accepted.location());
    let home = dora.get("/").await;
    let lobby_now = &home.body[home.body.find(r#"id="lobby""#).unwrap()..];
    assert!(!lobby_now.contains(&format!("data-challenge=\"{challenge}\"")), "accepted: out of the lobby");
}

#[tokio::test]
async fn profiles_and_leaderboards_are_pages_anyone_can_read() {
    let app = TestApp::spawn().await;
    let api = Api::of(&app);
    let _alice = api.register("alice").await;
    let bob = api.register("bob").await;
    let carol = api.register("carol").await;
    for _ in 0..2 {
        let game = api.game(&carol, ("bob", &bob)).await;
        api.post(&format!("/api/games/{game}/resign"), Some(&bob), json!({})).await;
    }
    let current = api.game(&carol, ("bob", &bob)).await;
    let mut visitor = app.browser();
    let profile = visitor.get("/players/carol").await;
    assert_eq!(profile.status, StatusCode::OK);
    let body = &profile.body;
    assert!(body.contains(r#"id="ratings""#) && body.contains("Xiangqi"), "{body}");
    assert!(body.contains(r#"<svg"#) && body.contains(r#"class="rating-chart""#), "the chart is SVG");
    assert!(body.contains(r#"id="results""#));
    let results = &body[body.find(r#"id="results""#).unwrap()..];
    assert!(results.contains("<td>2</td><td>0</td><td>0</td>"), "two wins: {results}");
    assert!(body.contains(&format!(r#"href="/games/{current}""#)), "current games are listed");
    assert!(!body.contains("<script"), "no JavaScript needed");
    assert_eq!(visitor.get("/players/nobody").await.status, StatusCode::NOT_FOUND);
    let alice = visitor.get("/players/alice").await;
    assert_eq!(alice.status, StatusCode::OK, "a player without games has a profile too");

    let board = visitor.get("/leaderboards/xiangqi/correspondence").await;
    assert_eq!(board.status, StatusCode::OK);
    // Two games leave everyone provisional: nobody is listed yet, and the page says why.
    assert!(board.body.contains(r#"id="leaderboard""#));
    assert!(!board.body.contains("carol"), "provisional ratings are left off");
    assert_eq!(visitor.get("/leaderboards/seven-kingdoms/live").await.status, StatusCode::NOT_FOUND);
    let index = visitor.get("/leaderboards").await;
    assert_eq!(index.status, StatusCode::OK);
    assert!(attribute_after(&index.body, r#"href="/leaderboards/shogi/"#).is_some());
}
