//! The import form (issue 15 §7): sign in, paste a record, land on the game's page; a bad
//! record is shown again with its place; a forged form is refused; the page of a game a
//! law ended explains the ruling.

use reqwest::StatusCode;

use crate::support::TestApp;

const LIU_DAHUA: &str = include_str!("../../rules/tests/data/records/liu-dahua-1125-iccs.pgn");

fn liu_dahua(number: usize) -> String {
    format!("[Event {}", LIU_DAHUA.split("[Event ").nth(number).expect("the game"))
}

#[tokio::test]
async fn a_pasted_record_becomes_a_game_page_with_its_ruling() {
    let app = TestApp::spawn().await;
    let mut browser = app.browser();
    // Only for the signed in.
    assert_eq!(browser.get("/import").await.status, StatusCode::SEE_OTHER);
    browser.sign_up("director").await;
    let form = browser.get("/import").await;
    assert_eq!(form.status, StatusCode::OK);
    assert!(form.body.contains(r#"<textarea id="record" name="record""#), "{}", form.body);
    // Game 881 (docs/rulings-audit.md): Black's perpetual check ends it at ply 136.
    let record = liu_dahua(881);
    let done = browser.submit("/import", "/import", &[("variant", ""), ("record", &record)]).await;
    assert_eq!(done.status, StatusCode::SEE_OTHER, "{}", done.body);
    let game = done.location().to_owned();
    assert!(game.starts_with("/games/"), "{game}");
    let page = browser.get(&game).await;
    assert_eq!(page.status, StatusCode::OK);
    assert!(page.body.contains("Liu Dahua") || page.body.contains("LIU DaHua"), "the players' names");
    assert!(page.body.contains(r#"<p class="ruling" id="ruling">"#), "{}", page.body);
    assert!(page.body.contains("Black loses by perpetual check at ply 136"), "{}", page.body);
    browser.language = Some("it");
    let page = browser.get(&game).await;
    assert!(page.body.contains("Nero perde per scacco perpetuo alla semimossa 136"), "{}", page.body);
}

#[tokio::test]
async fn a_bad_record_is_shown_again_with_its_place_and_a_forged_form_is_refused() {
    let app = TestApp::spawn().await;
    let mut browser = app.browser();
    browser.sign_up("player").await;
    let bad = "1. h2e2 h9g7\n2. h2e2 h7h0\n";
    let page = browser.submit("/import", "/import", &[("variant", "xiangqi"), ("record", bad)]).await;
    assert_eq!(page.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(page.body.contains(r#"id="import-error""#), "{}", page.body);
    assert!(page.body.contains("Line 2, column 4, “h2e2”"), "{}", page.body);
    assert!(page.body.contains("2. h2e2 h7h0"), "the record is kept in the form");
    browser.language = Some("it");
    let page = browser.submit("/import", "/import", &[("variant", "xiangqi"), ("record", bad)]).await;
    assert!(page.body.contains("Riga 2, colonna 4, «h2e2»"), "{}", page.body);
    let forged = browser.post("/import", &[("csrf", "forged"), ("record", &liu_dahua(1))]).await;
    assert_eq!(forged.status, StatusCode::FORBIDDEN);
}
