//! The tournament pages in headless Chromium at a phone's width (375 CSS pixels, issue
//! 38): a player with JavaScript switched off finds the event from the header, joins its
//! section by the form, withdraws after the confirmation and joins again; once the section
//! is started its page shows the pairings linking their games and the directors'
//! announcements; no page is wider than the phone (wide tables scroll inside their box,
//! long words break).

use std::time::Duration;

use fantoccini::{Client, Locator};
use serde_json::json;

use crate::browser::{click, wait_for_text, Stage};
use crate::home::Api;

/// The width of the phone, in CSS pixels.
const PHONE: u32 = 375;

/// Makes the browser window as wide as a phone: the page's viewport is [`PHONE`] pixels.
async fn phone(client: &Client) {
    client.set_window_size(PHONE, 800).await.expect("resize the window");
    // The window's frame takes its part of the size: widen it until the viewport fits.
    let width = viewport_width(client).await;
    if width != PHONE {
        client.set_window_size(PHONE + (PHONE - width.min(PHONE)), 800).await.expect("resize the window");
    }
    assert_eq!(viewport_width(client).await, PHONE, "the viewport is a phone's");
}

async fn viewport_width(client: &Client) -> u32 {
    client.execute("return window.innerWidth", vec![]).await.expect("the viewport").as_u64().unwrap() as u32
}

/// Asserts that nothing of the page sticks out of the phone's width.
async fn fits_the_phone(client: &Client, what: &str) {
    let widths = client
        .execute("return [document.documentElement.scrollWidth, window.innerWidth]", vec![])
        .await
        .expect("the page's widths");
    let (page, viewport) = (widths[0].as_u64().unwrap(), widths[1].as_u64().unwrap());
    assert!(page <= viewport, "{what} is {page} px wide on a {viewport} px phone");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_player_joins_and_withdraws_on_a_phone_without_javascript_in_chromium() {
    let Some(stage) = Stage::open("tournaments").await else { return };
    let api = Api::at(&stage.base);
    let dora = api.register("dora").await;
    let pool = sqlx::PgPool::connect(stage.database_url()).await.unwrap();
    sqlx::query("update account set role = 'director' where username = 'dora'").execute(&pool).await.unwrap();
    let body = json!({"name": "Coppa d'Inverno per corrispondenza", "season": "2026",
                      "description": "Xiangqi per corrispondenza, tre giorni a mossa."});
    let tournament = api.post("/api/tournaments", Some(&dora), body).await["id"].as_i64().unwrap();
    let section = json!({"name": "Xiangqi A", "variant": "xiangqi", "pairing": "round-robin",
                         "time_control": {"kind": "days-per-move", "days": 3}});
    let section = api.post(&format!("/api/tournaments/{tournament}/sections"), Some(&dora), section).await
        ["id"]
        .as_i64()
        .unwrap();
    reqwest::Client::new()
        .patch(format!("{}/api/tournaments/{tournament}", stage.base))
        .bearer_auth(&dora)
        .json(&json!({"status": "registration"}))
        .send()
        .await
        .unwrap();
    for name in ["alessandro", "beatrice", "costanza"] {
        let player = api.register(name).await;
        api.post(&format!("/api/sections/{section}/entries"), Some(&player), json!({})).await;
    }

    // Carol, JavaScript off, on a phone: the header leads to the list, the list to the event.
    let carol = stage.player("carol", false).await;
    // A reader with JavaScript measures the pages as the phone draws them.
    let ruler = crate::browser::browser(&stage.driver, true, &stage.profiles.join("ruler")).await;
    phone(&ruler).await;
    carol.set_window_size(PHONE, 800).await.unwrap();
    carol.goto(&format!("{}/", stage.base)).await.unwrap();
    click(&carol, "#nav-tournaments").await;
    wait_for_text(&carol, "#group-registration", "Coppa d'Inverno").await;
    ruler.goto(&format!("{}/tournaments", stage.base)).await.unwrap();
    fits_the_phone(&ruler, "the list of tournaments").await;
    click(&carol, &format!(r#"#group-registration a[href="/tournaments/{tournament}"]"#)).await;
    wait_for_text(&carol, "h1", "Coppa d'Inverno").await;

    // Join, withdraw (confirmed), join again.
    click(&carol, &format!("#join-{section}")).await;
    wait_for_text(&carol, &format!("#section-{section} .entered"), "You are entered").await;
    click(&carol, &format!("#withdraw-{section}")).await;
    wait_for_text(&carol, "#withdraw-confirm", "simply removed").await;
    ruler.goto(&format!("{}/tournaments/{tournament}", stage.base)).await.unwrap();
    fits_the_phone(&ruler, "the tournament's page").await;
    click(&carol, "#confirm-withdraw").await;
    carol
        .wait()
        .at_most(Duration::from_secs(10))
        .for_element(Locator::Css(&format!("#join-{section}")))
        .await
        .expect("the join button again");
    click(&carol, &format!("#join-{section}")).await;
    wait_for_text(&carol, &format!("#section-{section} .entered"), "You are entered").await;

    // Started: four players, six games; the pairings link their games, on the phone too.
    api.post(&format!("/api/sections/{section}/start"), Some(&dora), json!({})).await;
    carol.refresh().await.unwrap();
    wait_for_text(&carol, &format!("#section-{section} table.pairings"), "in play").await;
    let link = carol
        .find(Locator::Css(&format!("#section-{section} table.pairings td.result a")))
        .await
        .expect("a pairing's game");
    let href = link.attr("href").await.unwrap().expect("a link");
    assert!(href.starts_with("/games/"), "{href}");
    // A director's announcement with a word longer than the phone is wide.
    let long = format!("Avviso: https://example.org/{}", "bando".repeat(60));
    sqlx::query(
        r#"insert into tournament_announcement (tournament_id, author_id, body, created_at)
           select $1, account_id, $2, now() from account where username = 'dora'"#,
    )
    .bind(tournament)
    .bind(&long)
    .execute(&pool)
    .await
    .unwrap();
    ruler.goto(&format!("{}/tournaments/{tournament}", stage.base)).await.unwrap();
    wait_for_text(&ruler, &format!("#section-{section}"), "Crosstable").await;
    wait_for_text(&ruler, "#announcements", "Avviso").await;
    fits_the_phone(&ruler, "the page of a running tournament, announcement, crosstable and pairings").await;
    link.click().await.unwrap();
    wait_for_text(&carol, "#game-event", "Round").await;
    ruler.goto(&format!("{}{href}", stage.base)).await.unwrap();
    fits_the_phone(&ruler, "a tournament game's page").await;
    click(&carol, "#game-event a").await;
    wait_for_text(&carol, "h1", "Coppa d'Inverno").await;
    stage.close(vec![carol, ruler]).await;
}
