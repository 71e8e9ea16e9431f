//! The directors' pages in Chromium (issue 20): an admin makes an account a director on
//! the admin page; the director decides a result on the tournament's desk page, sees it
//! in the decisions with its audit trail, and the public rounds page shows it.

use fantoccini::Locator;
use serde_json::{json, Value};

use crate::browser::{click, fill, wait_css, wait_for_text, Stage};

/// A bearer token of `name` (signed up by its browser with `password-of-<name>`).
async fn token(base: &str, name: &str) -> String {
    let reply: Value = reqwest::Client::new()
        .post(format!("{base}/api/tokens"))
        .json(&json!({"username": name, "password": format!("password-of-{name}")}))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    reply["token"].as_str().expect("a token").to_owned()
}

async fn api(base: &str, token: &str, path: &str, body: Value) -> Value {
    let reply = reqwest::Client::new()
        .post(format!("{base}{path}"))
        .bearer_auth(token)
        .json(&body)
        .send()
        .await
        .unwrap();
    assert!(reply.status().is_success(), "{path}: {}", reply.status());
    reply.json().await.unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_admin_names_a_director_who_decides_a_result_on_the_desk_in_chromium() {
    let Some(stage) = Stage::open("desk").await else { return };
    let boss = stage.player("boss", true).await;
    let dora = stage.player("dora", true).await;
    let pool = sqlx::PgPool::connect(stage.database_url()).await.unwrap();
    sqlx::query("update account set role = 'admin' where username = 'boss'").execute(&pool).await.unwrap();

    // The admin page: Dora becomes a director.
    boss.goto(&format!("{}/admin", stage.base)).await.unwrap();
    let row = r#"tr[data-account="dora"]"#;
    boss.find(Locator::Css(&format!("{row} select[name=role]")))
        .await
        .unwrap()
        .select_by_value("director")
        .await
        .unwrap();
    click(&boss, &format!("{row} button[type=submit]")).await;
    wait_for_text(&boss, "#audit", "director").await;

    // Dora runs a round-robin of two through the API; one player offers a draw.
    let base = stage.base.clone();
    let dora_token = token(&base, "dora").await;
    let tournament =
        api(&base, &dora_token, "/api/tournaments", json!({"name": "Coppa"})).await["id"].as_i64().unwrap();
    let section = json!({"name": "A", "variant": "xiangqi", "pairing": "round-robin",
                         "time_control": {"kind": "days-per-move", "days": 3}});
    let section = api(&base, &dora_token, &format!("/api/tournaments/{tournament}/sections"), section).await
        ["id"]
        .as_i64()
        .unwrap();
    for name in ["boss", "dora"] {
        api(&base, &dora_token, &format!("/api/sections/{section}/entries"), json!({"username": name})).await;
    }
    let game = api(&base, &dora_token, &format!("/api/sections/{section}/start"), json!({})).await["games"]
        [0]
    .as_i64()
    .unwrap();
    let boss_token = token(&base, "boss").await;
    api(&base, &boss_token, &format!("/api/games/{game}/draw/offer"), json!({})).await;

    // The desk page: the offer waits; the director adjudicates with the form.
    dora.goto(&format!("{base}/tournaments/{tournament}/desk")).await.unwrap();
    wait_css(&dora, &format!(r#"#draw-offers tr[data-game="{game}"]"#)).await;
    fill(&dora, "#game", &game.to_string()).await;
    dora.find(Locator::Css("#action")).await.unwrap().select_by_value("adjudicate").await.unwrap();
    fill(&dora, "#result", "1/2-1/2").await;
    fill(&dora, "#reason", "dead drawn").await;
    click(&dora, "#decide button[type=submit]").await;
    wait_css(&dora, &format!(r#"#decisions tr[data-game="{game}"]"#)).await;
    wait_for_text(&dora, "#decisions", "dead drawn").await;
    wait_for_text(&dora, "#decisions", "pending → draw").await;
    assert!(dora.find(Locator::Css("#draw-offers")).await.is_err(), "the offer is gone with the game");

    // A decision on a game of another tournament is refused on this desk.
    fill(&dora, "#game", "999").await;
    fill(&dora, "#result", "1-0").await;
    fill(&dora, "#reason", "x").await;
    click(&dora, "#decide button[type=submit]").await;
    wait_css(&dora, "#desk-error").await;

    // The public rounds page shows the decision to a visitor.
    let visitor = crate::browser::browser(&stage.driver, true, &stage.profiles.join("visitor")).await;
    visitor.goto(&format!("{base}/sections/{section}/rounds")).await.unwrap();
    wait_for_text(&visitor, &format!(r#"tr[data-game="{game}"] .result"#), "adjudication").await;
    stage.close(vec![boss, dora, visitor]).await;
}
