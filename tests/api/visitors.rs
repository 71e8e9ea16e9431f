//! Visitors (issue 18 §2): without an account anyone may read the public pages and
//! reads of the API, and can do nothing else — every write route answers 401 and changes
//! nothing.

use reqwest::{Method, StatusCode};
use serde_json::{json, Value};

use crate::support::{three_days, TestApp};

/// The writes anyone may make without an account: signing up and signing in, signing
/// out (of nothing: a no-op answered 204), and asking for and confirming a password reset
/// (#17: whoever forgot their password is not signed in); and one POST that writes
/// nothing: the analysis board's legal moves (issue 37 §2, a question with a body).
const OPEN_TO_VISITORS: [(&str, &str); 7] = [
    ("post", "/api/accounts"),
    ("post", "/api/tokens"),
    ("post", "/api/session"),
    ("delete", "/api/session"),
    ("post", "/api/password-reset"),
    ("post", "/api/password-reset/confirm"),
    ("post", "/api/positions/legal-moves"),
];

#[tokio::test]
async fn every_write_route_answers_401_to_a_visitor_and_changes_nothing() {
    let app = TestApp::spawn().await;
    let alice = app.register("alice").await;
    let bob = app.register("bob").await;
    let game = app.start_game("xiangqi", &alice, &bob, three_days()).await;
    let doc: Value = app.get("/api/openapi.json", None).await.expect(StatusCode::OK).clone();
    let mut tried = 0;
    for (path, item) in doc["paths"].as_object().unwrap() {
        for (method, _) in item.as_object().unwrap() {
            if method == "get" || OPEN_TO_VISITORS.contains(&(method.as_str(), path.as_str())) {
                continue;
            }
            // Every path parameter names something that exists (game 1, challenge 1...).
            let concrete = path
                .split('/')
                .map(|part| if part.starts_with('{') { game.to_string() } else { part.to_owned() })
                .collect::<Vec<_>>()
                .join("/");
            let method = Method::from_bytes(method.to_uppercase().as_bytes()).unwrap();
            let reply = app
                .client
                .request(method.clone(), format!("{}{concrete}", app.address))
                .json(&json!({}))
                .send()
                .await
                .unwrap();
            assert_eq!(reply.status(), StatusCode::UNAUTHORIZED, "{method} {concrete}");
            tried += 1;
        }
    }
    assert!(tried > 25, "the writes of the API: {tried}");
    let state = app.game(game).await;
    assert_eq!(state["status"], "active");
    assert_eq!(state["ply"], 0);
    for read in ["/api/players/alice", "/api/leaderboards/xiangqi/live", &format!("/api/games/{game}")] {
        app.get(read, None).await.expect(StatusCode::OK);
    }
}
