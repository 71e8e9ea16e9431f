//! The settings page: preferences kept on the account (they follow a fresh login in a new
//! browser), in the session for visitors, the move list in the chosen notation of each
//! game family, and refused values that change nothing.

use reqwest::StatusCode;

use crate::pages::{game_between, play};
use crate::support::{Browser, TestApp};

/// The move list of a game page.
fn move_list(body: &str) -> &str {
    let start = body.find(r#"id="moves""#).expect("a move list");
    let end = body[start..].find("</ol>").expect("the end of the move list") + start;
    &body[start..end]
}

/// The value of the selected option of the select `name`.
fn selected(body: &str, name: &str) -> String {
    let start = body.find(&format!(r#"<select id="{name}" name="{name}">"#)).expect("the select");
    let end = body[start..].find("</select>").unwrap() + start;
    let select = &body[start..end];
    let option = select.find(" selected>").expect("a selected option");
    let value = select[..option].rfind(r#"value=""#).unwrap() + r#"value=""#.len();
    select[value..option - 1].to_owned()
}

/// Form fields.
type Fields<'a> = &'a [(&'a str, &'a str)];

/// Saves the settings form with `fields`.
async fn save(browser: &mut Browser, fields: Fields<'_>) -> crate::support::Page {
    browser.submit("/settings", "/settings", fields).await
}

/// Logs `name` in (password `password-of-<name>`).
async fn log_in(browser: &mut Browser, name: &str) {
    let password = format!("password-of-{name}");
    let page = browser.submit("/login", "/login", &[("username", name), ("password", &password)]).await;
    assert_eq!(page.status, StatusCode::SEE_OTHER, "{}", page.body);
}

#[tokio::test]
async fn preferences_saved_while_signed_in_follow_a_fresh_login_in_another_browser() {
    let app = TestApp::spawn().await;
    let mut home = app.browser();
    home.sign_up("alice").await;
    let saved = save(
        &mut home,
        &[
            ("lang", "it"),
            ("piece_style", "western"),
            ("xiangqi_notation", "chinese"),
            ("shogi_notation", "usi"),
        ],
    )
    .await;
    assert_eq!(saved.status, StatusCode::SEE_OTHER, "{}", saved.body);

    // A new browser (new cookie jar) that asks for English.
    let mut office = app.browser();
    office.language = Some("en");
    let before = office.get("/login").await;
    assert!(before.body.contains(r#"<html lang="en">"#), "a visitor gets Accept-Language");
    log_in(&mut office, "alice").await;
    let settings = office.get("/settings").await;
    assert!(settings.body.contains(r#"<html lang="it">"#), "the account's language wins over the browser's");
    assert_eq!(selected(&settings.body, "lang"), "it");
    assert_eq!(selected(&settings.body, "piece_style"), "western");
    assert_eq!(selected(&settings.body, "xiangqi_notation"), "chinese");
    assert_eq!(selected(&settings.body, "shogi_notation"), "usi");
    assert!(settings.body.contains(r#"id="stored""#));

    // Back to automatic: the browser's language applies again, on every page.
    let saved = save(&mut office, &[("lang", "auto"), ("piece_style", "western")]).await;
    assert_eq!(saved.status, StatusCode::SEE_OTHER, "{}", saved.body);
    let dashboard = office.get("/").await;
    assert!(dashboard.body.contains(r#"<html lang="en">"#));
    home.language = Some("it");
    assert!(home.get("/").await.body.contains(r#"<html lang="it">"#));
    assert_eq!(selected(&home.get("/settings").await.body, "piece_style"), "western");
}

#[tokio::test]
async fn a_visitors_preferences_live_in_the_session_only() {
    let app = TestApp::spawn().await;
    let mut visitor = app.browser();
    let saved = save(&mut visitor, &[("lang", "it"), ("xiangqi_notation", "fix")]).await;
    assert_eq!(saved.status, StatusCode::SEE_OTHER, "{}", saved.body);
    let settings = visitor.get("/settings").await;
    assert!(settings.body.contains(r#"<html lang="it">"#));
    assert_eq!(selected(&settings.body, "xiangqi_notation"), "fix");
    assert!(!settings.body.contains(r#"id="vacation_days""#), "leave needs an account");
    let mut other = app.browser();
    assert_eq!(selected(&other.get("/settings").await.body, "xiangqi_notation"), "auto");
}

#[tokio::test]
async fn the_xiangqi_move_list_is_in_the_chosen_notation() {
    let app = TestApp::spawn().await;
    let (mut red, mut black, game) = game_between(&app, "xiangqi").await;
    assert_eq!(play(&mut red, &game, "h2e2").await.status, StatusCode::SEE_OTHER);
    assert_eq!(play(&mut black, &game, "h9g7").await.status, StatusCode::SEE_OTHER);
    let cases = [
        ("auto", ["C2=5", "h8+7"], "the usual notation is WXF"),
        ("wxf", ["C2=5", "h8+7"], "WXF"),
        ("iccs", ["h2e2", "h9g7"], "ICCS"),
        ("fix", ["Bh3e3", "Ch10g8"], "FIX western algebraic"),
        ("chinese", ["炮二平五", "马8进7"], "Chinese characters"),
    ];
    for (notation, expected, why) in cases {
        let saved = save(&mut red, &[("xiangqi_notation", notation)]).await;
        assert_eq!(saved.status, StatusCode::SEE_OTHER, "{why}: {}", saved.body);
        let page = red.get(&game).await;
        let list = move_list(&page.body);
        for text in expected {
            assert!(list.contains(text), "{why}: {text} in {list}");
        }
    }
    // The shogi setting does not touch Xiangqi; the opponent keeps their own choice.
    save(&mut red, &[("xiangqi_notation", "chinese"), ("shogi_notation", "usi")]).await;
    assert!(move_list(&red.get(&game).await.body).contains("炮二平五"));
    assert!(move_list(&black.get(&game).await.body).contains("C2=5"));
    // The piece style of the account draws the board.
    assert!(red.get(&game).await.body.contains(">帥</text>"), "traditional characters");
    save(&mut red, &[("piece_style", "western")]).await;
    let western = red.get(&game).await.body;
    assert!(western.contains(">K</text>") && !western.contains(">帥</text>"), "western letters");
}

#[tokio::test]
async fn the_move_list_alone_is_served_in_the_chosen_notation_for_live_mode() {
    let app = TestApp::spawn().await;
    let (mut red, mut black, game) = game_between(&app, "xiangqi").await;
    assert_eq!(play(&mut red, &game, "h2e2").await.status, StatusCode::SEE_OTHER);
    assert_eq!(play(&mut black, &game, "h9g7").await.status, StatusCode::SEE_OTHER);
    assert_eq!(play(&mut red, &game, "h0g2").await.status, StatusCode::SEE_OTHER);
    save(&mut red, &[("xiangqi_notation", "chinese")]).await;
    let list = red.get(&format!("{game}/moves")).await;
    assert_eq!(list.status, StatusCode::OK);
    assert_eq!(
        list.body,
        concat!(
            r#"<li value="1"><a href="?ply=1" data-ply="1" class="move">炮二平五</a> "#,
            r#"<a href="?ply=2" data-ply="2" class="move">马8进7</a></li>"#,
            r#"<li value="2"><a href="?ply=3" data-ply="3" class="move current" aria-current="step">马二进三</a></li>"#
        ),
        "the items of the page's list: one line per pair of turns, in Chinese, each a link to its position"
    );
    assert!(move_list(&red.get(&game).await.body).ends_with(&list.body), "the same items as the page");
    assert_eq!(list.headers.get("cache-control").and_then(|v| v.to_str().ok()), Some("no-store"));
    let wxf = black.get(&format!("{game}/moves")).await.body;
    assert!(wxf.contains(">C2=5</a> <a") && wxf.contains(">h8+7</a>"), "black keeps WXF: {wxf}");
    assert!(app.browser().get(&format!("{game}/moves")).await.body.contains("C2=5"), "visitors too");
    assert_eq!(red.get("/games/999999/moves").await.status, StatusCode::NOT_FOUND);
}

#[tokio::test]
async fn the_shogi_and_minishogi_move_lists_are_in_the_chosen_notation() {
    let app = TestApp::spawn().await;
    let (mut sente, mut gote, game) = game_between(&app, "shogi").await;
    assert_eq!(play(&mut sente, &game, "7g7f").await.status, StatusCode::SEE_OTHER);
    assert_eq!(play(&mut gote, &game, "3c3d").await.status, StatusCode::SEE_OTHER);
    let cases = [
        ("auto", ["P-7f", "P-3d"], "the usual notation of Shogi is western"),
        ("western", ["P-7f", "P-3d"], "western"),
        ("aise", ["P7f", "P3d"], "AISE"),
        ("usi", ["7g7f", "3c3d"], "USI"),
    ];
    for (notation, expected, why) in cases {
        let saved = save(&mut sente, &[("shogi_notation", notation)]).await;
        assert_eq!(saved.status, StatusCode::SEE_OTHER, "{why}: {}", saved.body);
        let list = move_list(&sente.get(&game).await.body).to_owned();
        for text in expected {
            assert!(list.contains(text), "{why}: {text} in {list}");
        }
        if notation == "aise" {
            assert!(!list.contains("P-7f"), "AISE has no hyphen after a piece without origin: {list}");
        }
    }

    // MiniShogi is of the same family: the one setting applies.
    let created = sente
        .submit(
            "/challenges/new",
            "/challenges",
            &[
                ("variant", "minishogi"),
                ("opponent", "bob"),
                ("color", "first"),
                ("tc_kind", "days-per-move"),
                ("days", "3"),
            ],
        )
        .await;
    assert_eq!(created.status, StatusCode::SEE_OTHER, "{}", created.body);
    let list = gote.get("/challenges").await;
    let accept = crate::support::attribute_after(&list.body, r#"<form method="post" action="/challenges/"#)
        .expect("the minishogi challenge");
    let mini = gote.post(&format!("/challenges/{accept}"), &[("csrf", &list.csrf())]).await;
    let mini = mini.location().to_owned();
    assert_eq!(play(&mut sente, &mini, "5e4d").await.status, StatusCode::SEE_OTHER);
    save(&mut sente, &[("shogi_notation", "usi")]).await;
    assert!(move_list(&sente.get(&mini).await.body).contains("5e4d"));
    save(&mut sente, &[("shogi_notation", "western")]).await;
    let western = move_list(&sente.get(&mini).await.body).to_owned();
    assert!(!western.contains("5e4d") && western.contains('-'), "{western}");
}

#[tokio::test]
async fn refused_values_answer_422_by_the_field_and_change_nothing() {
    let app = TestApp::spawn().await;
    let mut alice = app.browser();
    alice.sign_up("alice").await;
    let saved = save(&mut alice, &[("lang", "it"), ("xiangqi_notation", "iccs")]).await;
    assert_eq!(saved.status, StatusCode::SEE_OTHER, "{}", saved.body);
    let cases: [(Fields, &str, &str); 6] = [
        (&[("lang", "en"), ("xiangqi_notation", "klingon")], "xiangqi_notation-error", "unknown notation"),
        (
            &[("xiangqi_notation", "klingon"), ("vacation_days", "3")],
            "xiangqi_notation-error",
            "a refused value with valid leave days",
        ),
        (
            &[("lang", "en"), ("shogi_notation", "chinese")],
            "shogi_notation-error",
            "another family's notation",
        ),
        (&[("lang", "de")], "lang-error", "unknown language"),
        (&[("lang", "en"), ("piece_style", "<script>")], "piece_style-error", "unknown piece style"),
        (&[("lang", "en"), ("vacation_days", "many")], "vacation-error", "days not a number"),
    ];
    for (fields, error, why) in cases {
        let refused = save(&mut alice, fields).await;
        assert_eq!(refused.status, StatusCode::UNPROCESSABLE_ENTITY, "{why}");
        assert!(refused.body.contains(&format!(r#"id="{error}""#)), "{why}: {}", refused.body);
        assert!(!refused.body.contains("<script>"), "{why}: escaped");
        let settings = alice.get("/settings").await;
        assert_eq!(selected(&settings.body, "lang"), "it", "{why}: nothing changed");
        assert_eq!(selected(&settings.body, "xiangqi_notation"), "iccs", "{why}: nothing changed");
        assert!(settings.body.contains(": 0 giorni su 45."), "{why}: no leave started: {}", settings.body);
    }
    // Valid days start the leave, shown on the page.
    let started =
        save(&mut alice, &[("lang", "it"), ("xiangqi_notation", "iccs"), ("vacation_days", "3")]).await;
    assert_eq!(started.status, StatusCode::SEE_OTHER, "{}", started.body);
    let settings = alice.get("/settings").await;
    assert!(settings.body.contains(": 3 giorni su 45.") && settings.body.contains("In congedo fino al"));
}
