//! Route tests of every page: status, key content, escaping, CSRF, headers.

use reqwest::StatusCode;

use crate::support::{attribute_after, element_text, Browser, TestApp};

/// Two signed-up players in their own browsers, and a game of `variant` between them
/// (`first` has the first seat); returns the game path.
pub(crate) async fn game_between(app: &TestApp, variant: &str) -> (Browser, Browser, String) {
    let mut first = app.browser();
    let mut second = app.browser();
    first.sign_up("alice").await;
    second.sign_up("bob").await;
    let created = first
        .submit(
            "/challenges/new",
            "/challenges",
            &[
                ("variant", variant),
                ("opponent", "bob"),
                ("color", "first"),
                ("tc_kind", "days-per-move"),
                ("days", "3"),
            ],
        )
        .await;
    assert_eq!(created.status, StatusCode::SEE_OTHER, "{}", created.body);
    let list = second.get("/challenges").await;
    let accept = attribute_after(&list.body, r#"<form method="post" action="/challenges/"#)
        .expect("an open challenge");
    let accepted = second.post(&format!("/challenges/{accept}"), &[("csrf", &list.csrf())]).await;
    assert_eq!(accepted.status, StatusCode::SEE_OTHER);
    let game = accepted.location().to_owned();
    assert!(game.starts_with("/games/"), "{game}");
    (first, second, game)
}

/// Plays `text` through the move form.
pub(crate) async fn play(browser: &mut Browser, game: &str, text: &str) -> crate::support::Page {
    let page = browser.get(game).await;
    let ply = attribute_after(&page.body, r#"name="ply" value=""#).expect("the move form");
    browser.post(&format!("{game}/move"), &[("csrf", &page.csrf()), ("move", text), ("ply", &ply)]).await
}

#[tokio::test]
async fn signup_and_login_pages_render_with_csrf_and_security_headers() {
    let app = TestApp::spawn().await;
    let mut browser = app.browser();
    let page = browser.get("/signup").await;
    assert_eq!(page.status, StatusCode::OK);
    assert!(page.body.contains(r#"<form method="post" action="/signup""#));
    assert!(!page.csrf().is_empty());
    let csp = page.headers.get("content-security-policy").expect("a CSP header").to_str().unwrap();
    assert!(csp.contains("script-src 'self'") && csp.contains("frame-ancestors 'none'"), "{csp}");
    let cookie = page.headers.get("set-cookie").expect("a session cookie").to_str().unwrap();
    assert!(cookie.contains("HttpOnly") && cookie.contains("SameSite=Lax"), "{cookie}");
    let login = browser.get("/login").await;
    assert_eq!(login.status, StatusCode::OK);
    assert!(login.body.contains(r#"action="/login""#));
    assert_eq!(login.csrf(), page.csrf(), "one token per session");
}

#[tokio::test]
async fn forms_without_the_csrf_token_are_refused() {
    let app = TestApp::spawn().await;
    let mut browser = app.browser();
    browser.get("/signup").await;
    let page = browser.post("/signup", &[("username", "mallory"), ("password", "long enough pw")]).await;
    assert_eq!(page.status, StatusCode::FORBIDDEN);
    let page = browser
        .post("/signup", &[("csrf", "forged"), ("username", "mallory"), ("password", "xxxxxxxxxx")])
        .await;
    assert_eq!(page.status, StatusCode::FORBIDDEN);
    // Nothing was created: logging in fails.
    let login =
        browser.submit("/login", "/login", &[("username", "mallory"), ("password", "xxxxxxxxxx")]).await;
    assert_eq!(login.status, StatusCode::UNAUTHORIZED);
}

#[tokio::test]
async fn a_script_username_is_escaped_and_kept_with_an_error_by_the_field() {
    let app = TestApp::spawn().await;
    let mut browser = app.browser();
    let typed = "<script>alert(1)</script>";
    let page = browser.submit("/signup", "/signup", &[("username", typed), ("password", "password-1")]).await;
    assert_eq!(page.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(!page.body.contains("<script>alert"), "user text must be escaped");
    assert!(
        page.body.contains("&#60;script&#62;alert(1)&#60;/script&#62;")
            || page.body.contains("&lt;script&gt;"),
        "{}",
        page.body
    );
    assert!(page.body.contains(r#"id="username-error""#));
    // The password is never sent back.
    assert!(!page.body.contains("password-1"));
}

#[tokio::test]
async fn signup_login_logout_and_the_dashboard() {
    let app = TestApp::spawn().await;
    let mut browser = app.browser();
    let home = browser.get("/").await;
    assert_eq!(home.status, StatusCode::OK, "a visitor gets the home page, not the login form");
    assert!(home.body.contains(r#"id="intro""#) && !home.body.contains(r#"id="my-turn""#));
    browser.sign_up("carla").await;
    let dashboard = browser.get("/").await;
    assert_eq!(dashboard.status, StatusCode::OK);
    assert!(dashboard.body.contains("carla"));
    for section in ["my-turn", "waiting", "finished", "challenges", "tournaments"] {
        assert!(dashboard.body.contains(&format!(r#"id="{section}""#)), "section {section}");
    }
    let out = browser.post("/logout", &[("csrf", &dashboard.csrf())]).await;
    assert_eq!(out.status, StatusCode::SEE_OTHER);
    let signed_out = browser.get("/").await;
    assert!(signed_out.body.contains(r#"id="intro""#) && !signed_out.body.contains("my-turn"));
    let wrong =
        browser.submit("/login", "/login", &[("username", "carla"), ("password", "wrong password")]).await;
    assert_eq!(wrong.status, StatusCode::UNAUTHORIZED);
    assert!(wrong.body.contains(r#"value="carla""#), "the typed username is kept");
    let right =
        browser.submit("/login", "/login", &[("username", "carla"), ("password", "password-of-carla")]).await;
    assert_eq!(right.status, StatusCode::SEE_OTHER);
    assert!(browser.get("/").await.body.contains("carla"));
}

#[tokio::test]
async fn taken_usernames_are_reported_by_the_field() {
    let app = TestApp::spawn().await;
    app.browser().sign_up("dario").await;
    let mut other = app.browser();
    let page = other.submit("/signup", "/signup", &[("username", "dario"), ("password", "password-2")]).await;
    assert_eq!(page.status, StatusCode::CONFLICT);
    assert!(page.body.contains(r#"id="username-error""#) && page.body.contains(r#"value="dario""#));
}

#[tokio::test]
async fn login_is_rate_limited() {
    let app = TestApp::spawn().await;
    let mut browser = app.browser();
    browser.sign_up("elena").await;
    let mut last = None;
    for _ in 0..7 {
        last = Some(
            browser.submit("/login", "/login", &[("username", "elena"), ("password", "bad password")]).await,
        );
    }
    let last = last.expect("a page");
    assert_eq!(last.status, StatusCode::TOO_MANY_REQUESTS);
    let retry_after: u64 = last.headers["retry-after"].to_str().unwrap().parse().expect("seconds");
    assert!((1..=60).contains(&retry_after), "seconds left in the window: {retry_after}");
}

#[tokio::test]
async fn interface_language_follows_accept_language_then_the_setting() {
    let app = TestApp::spawn().await;
    let mut browser = app.browser();
    browser.language = Some("it-IT,it;q=0.9,en;q=0.5");
    let page = browser.get("/login").await;
    assert!(page.body.contains(r#"<html lang="it">"#) && page.body.contains("Accedi"));
    let saved = browser
        .submit(
            "/settings",
            "/settings",
            &[("lang", "en"), ("piece_style", "western"), ("notation", "canonical")],
        )
        .await;
    assert_eq!(saved.status, StatusCode::SEE_OTHER);
    let page = browser.get("/login").await;
    assert!(page.body.contains(r#"<html lang="en">"#) && page.body.contains("Log in"));
    let settings = browser.get("/settings").await;
    assert!(settings.body.contains(r#"<option value="western" selected>"#));
}

#[tokio::test]
async fn challenge_form_errors_by_field_keep_the_input_escaped() {
    let app = TestApp::spawn().await;
    let mut browser = app.browser();
    browser.sign_up("fabio").await;
    let page = browser.get("/challenges/new").await;
    assert_eq!(page.status, StatusCode::OK);
    assert!(page.body.contains(r#"name="variant""#) && page.body.contains(r#"name="tc_kind""#));
    let typed = "<script>x</script>";
    let page = browser
        .submit(
            "/challenges/new",
            "/challenges",
            &[("variant", "shogi"), ("opponent", typed), ("tc_kind", "days-per-move"), ("days", "zero")],
        )
        .await;
    assert_eq!(page.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(page.body.contains(r#"id="time-control-error""#));
    assert!(!page.body.contains("<script>x"));
    let page = browser
        .submit(
            "/challenges/new",
            "/challenges",
            &[("variant", "shogi"), ("opponent", "nobody"), ("tc_kind", "days-per-move"), ("days", "2")],
        )
        .await;
    assert_eq!(page.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(page.body.contains(r#"id="opponent-error""#) && page.body.contains(r#"value="nobody""#));
}

#[tokio::test]
async fn an_open_challenge_is_listed_and_accepted_by_anyone() {
    let app = TestApp::spawn().await;
    let mut host = app.browser();
    host.sign_up("gino").await;
    let made = host
        .submit(
            "/challenges/new",
            "/challenges",
            &[
                ("variant", "minishogi"),
                ("color", "random"),
                ("tc_kind", "fischer"),
                ("days", "3"),
                ("increment_days", "1"),
                ("cap_days", "5"),
            ],
        )
        .await;
    assert_eq!(made.status, StatusCode::SEE_OTHER, "{}", made.body);
    let mut guest = app.browser();
    guest.sign_up("ivo").await;
    let list = guest.get("/challenges").await;
    assert!(list.body.contains("gino") && list.body.contains("MiniShogi"));
    let dashboard = guest.get("/").await;
    assert!(dashboard.body.contains("/accept"), "open challenges on the dashboard");
    let id = attribute_after(&list.body, r#"action="/challenges/"#).unwrap();
    let accepted = guest.post(&format!("/challenges/{id}"), &[("csrf", &list.csrf())]).await;
    assert!(accepted.location().starts_with("/games/"));
}

#[tokio::test]
async fn a_xiangqi_game_by_form_to_a_draw_by_agreement() {
    let app = TestApp::spawn().await;
    let (mut red, mut black, game) = game_between(&app, "xiangqi").await;
    let page = red.get(&game).await;
    assert_eq!(page.status, StatusCode::OK);
    assert!(page.body.contains("<svg") && page.body.contains(r#"id="move-form""#));
    assert!(page.body.contains("alice") && page.body.contains("bob"));
    assert!(!black.get(&game).await.body.contains(r#"id="move-form""#), "not black's turn");
    // Any notation: ICCS, then WXF.
    assert_eq!(play(&mut red, &game, "h2e2").await.status, StatusCode::SEE_OTHER);
    assert_eq!(play(&mut black, &game, "H8+7").await.status, StatusCode::SEE_OTHER);
    // A refused move keeps the text and shows the error by the field.
    let refused = play(&mut red, &game, "<b>zz</b>").await;
    assert_eq!(refused.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(
        refused.body.contains(r#"id="move-error""#) && refused.body.contains("&#60;b&#62;zz")
            || refused.body.contains("&lt;b&gt;zz")
    );
    let page = red.get(&game).await;
    assert!(page.body.contains(r#"class="last-move""#));
    let moves = attribute_after(&page.body, r#"<ol class="moves" id="moves">"#);
    assert!(moves.is_none() || page.body.contains("C2=5"), "moves shown in WXF");
    // Draw: offer, then accept.
    let offered =
        red.post(&format!("{game}/action"), &[("csrf", &page.csrf()), ("action", "offer-draw")]).await;
    assert_eq!(offered.status, StatusCode::SEE_OTHER);
    let page = black.get(&game).await;
    assert!(page.body.contains(r#"id="accept-draw""#));
    let accepted =
        black.post(&format!("{game}/action"), &[("csrf", &page.csrf()), ("action", "accept-draw")]).await;
    assert_eq!(accepted.status, StatusCode::SEE_OTHER);
    let page = black.get(&game).await;
    assert!(page.body.contains(r#"id="result""#) && page.body.contains("1/2-1/2"), "{}", page.body);
    let dashboard = red.get("/").await;
    let finished = &dashboard.body[dashboard.body.find(r#"id="finished""#).unwrap()..];
    assert!(finished.contains(&format!(r#"href="{game}""#)));
}

#[tokio::test]
async fn shogi_and_minishogi_games_by_form_end_by_resignation() {
    let app = TestApp::spawn().await;
    let (mut sente, mut gote, game) = game_between(&app, "shogi").await;
    assert_eq!(play(&mut sente, &game, "7g7f").await.status, StatusCode::SEE_OTHER);
    assert_eq!(play(&mut gote, &game, "P-3d").await.status, StatusCode::SEE_OTHER);
    let page = gote.get(&game).await;
    assert!(page.body.contains(r#"data-flipped="true""#), "the second player sees the board turned");
    let resigned = gote
        .post(&format!("{game}/action"), &[("csrf", &page.csrf()), ("action", "resign"), ("confirm", "yes")])
        .await;
    assert_eq!(resigned.status, StatusCode::SEE_OTHER);
    assert!(sente.get(&game).await.body.contains("1-0"));

    let mut third = app.browser();
    third.sign_up("zeno").await;
    let made = third
        .submit(
            "/challenges/new",
            "/challenges",
            &[
                ("variant", "minishogi"),
                ("opponent", "alice"),
                ("color", "second"),
                ("tc_kind", "days-per-move"),
                ("days", "1"),
            ],
        )
        .await;
    assert_eq!(made.status, StatusCode::SEE_OTHER);
    let list = sente.get("/challenges").await;
    let id = attribute_after(&list.body, r#"action="/challenges/"#).unwrap();
    let mini =
        sente.post(&format!("/challenges/{id}"), &[("csrf", &list.csrf())]).await.location().to_owned();
    assert_eq!(play(&mut sente, &mini, "5e4d").await.status, StatusCode::SEE_OTHER);
    let page = third.get(&mini).await;
    assert!(page.body.contains(r#"class="last-move""#));
}

#[tokio::test]
async fn board_svg_route_serves_any_ply() {
    let app = TestApp::spawn().await;
    let (mut red, _black, game) = game_between(&app, "xiangqi").await;
    play(&mut red, &game, "h2e2").await;
    let now = red.get(&format!("{game}/board.svg")).await;
    assert_eq!(now.status, StatusCode::OK);
    assert!(now.headers["content-type"].to_str().unwrap().starts_with("image/svg+xml"));
    assert!(now.body.starts_with("<svg") && now.body.contains(r#"class="last-move""#));
    let start = red.get(&format!("{game}/board.svg?ply=0&style=western&flip=1")).await;
    assert_eq!(start.status, StatusCode::OK);
    assert!(!start.body.contains(r#"class="last-move""#) && !start.body.contains("帥"));
    assert!(start.body.contains(r#"data-square="h2""#) && !now.body.contains(r#"data-square="h2""#));
    assert_eq!(red.get("/games/999999/board.svg").await.status, StatusCode::NOT_FOUND);
    assert_eq!(red.get("/games/999999").await.status, StatusCode::NOT_FOUND);
}

/// A Flickering chess game by form: a whole series typed in one field, the board marking
/// every move of the last series.
#[tokio::test]
async fn flickering_board_is_drawn_on_the_page_and_as_svg() {
    let app = TestApp::spawn().await;
    let (mut white, _black, game) = game_between(&app, "flickering").await;
    let start = white.get(&game).await;
    assert!(start.body.contains(r#"class="board chess""#), "the page shows the board");
    assert_eq!(play(&mut white, &game, "e2e4,g1f3").await.status, StatusCode::SEE_OTHER);
    let now = white.get(&format!("{game}/board.svg")).await;
    assert_eq!(now.status, StatusCode::OK);
    assert!(now.body.starts_with("<svg") && now.body.contains("♘"));
    assert_eq!(now.body.matches(r#"class="last-move""#).count(), 4, "the whole series is marked");
    let before = white.get(&format!("{game}/board.svg?ply=0&style=western&flip=1")).await;
    assert_eq!(before.status, StatusCode::OK);
    assert!(!before.body.contains(r#"class="last-move""#) && before.body.contains(">N</text>"));
}

/// A three-seat Seven Kingdoms game by form: the seats are taken from the challenge list,
/// the game page shows the 19x19 board, every seat's kingdoms and captures, and takes a
/// move in the spec's notation; the record downloads in the spec's format.
#[tokio::test]
async fn a_seven_kingdoms_game_by_form() {
    let app = TestApp::spawn().await;
    let mut players = [app.browser(), app.browser(), app.browser()];
    for (browser, name) in players.iter_mut().zip(["qin", "chu", "qi_"]) {
        browser.sign_up(name).await;
    }
    let created = players[0]
        .submit(
            "/challenges/new",
            "/challenges",
            &[
                ("variant", "seven-kingdoms"),
                ("seats", "3"),
                ("color", "first"),
                ("tc_kind", "days-per-move"),
                ("days", "5"),
            ],
        )
        .await;
    assert_eq!(created.status, StatusCode::SEE_OTHER, "{}", created.body);
    let mut game = String::new();
    for (i, browser) in players[1..].iter_mut().enumerate() {
        let list = browser.get("/challenges").await;
        assert!(list.body.contains(&format!("{}/3", i + 1)), "seats taken so far: {}", list.body);
        let accept = attribute_after(&list.body, r#"<form method="post" action="/challenges/"#)
            .expect("an open challenge");
        let accepted = browser.post(&format!("/challenges/{accept}"), &[("csrf", &list.csrf())]).await;
        assert_eq!(accepted.status, StatusCode::SEE_OTHER);
        game = accepted.location().to_owned();
        if i == 0 {
            let waiting = browser.get("/challenges").await;
            assert!(waiting.body.contains("class=\"joined\""), "chu waits for the third seat");
            assert!(!waiting.body.contains("class=\"accept\""), "and cannot take a second seat");
            assert!(waiting.body.contains("class=\"leave\""), "but may give the seat up");
        }
    }
    assert!(game.starts_with("/games/"), "the last seat starts the game: {game}");
    let page = players[0].get(&game).await;
    assert!(page.body.contains("Qin+Han+Yan") && page.body.contains("Chu+Zhao"), "seats and kingdoms");
    assert!(page.body.contains(r#"id="move-form""#), "Qin moves first");
    assert!(!page.body.contains(r#"id="offer-draw""#), "no draws by agreement with three players");
    assert!(page.body.contains("/record/record"), "the record link");
    assert!(page.body.contains(">Seven Kingdoms record (spec notation)</a>"), "named, not a catalogue key");
    let moved = play(&mut players[0], &game, "Qin 騎 a7-d3").await;
    assert_eq!(moved.status, StatusCode::SEE_OTHER, "{}", moved.body);
    // The other seats are drawn: exactly one of the two guests (Chu's) may move now.
    let mut to_move = Vec::new();
    for (i, browser) in players.iter_mut().enumerate().skip(1) {
        let after = browser.get(&game).await;
        assert!(after.body.contains("Qin 騎 a7-d3"), "the move list");
        if after.body.contains(r#"id="move-form""#) {
            to_move.push(i);
        }
    }
    assert_eq!(to_move.len(), 1, "one seat to move");
    let refused = play(&mut players[to_move[0]], &game, "Chu 騎 a7-d3").await;
    assert_eq!(refused.status, StatusCode::UNPROCESSABLE_ENTITY);
    let record = players[2].get(&format!("{game}/record/record")).await;
    assert_eq!(record.status, StatusCode::OK);
    assert!(record.body.contains("moves:") && record.body.contains("Qin 騎 a7-d3"), "{}", record.body);
}

#[tokio::test]
async fn static_files_are_served() {
    let app = TestApp::spawn().await;
    let mut browser = app.browser();
    let css = browser.get("/static/site.css").await;
    assert_eq!(css.status, StatusCode::OK);
    assert!(css.body.contains("body"));
    assert_eq!(browser.get("/static/board.js").await.status, StatusCode::OK);
}

#[tokio::test]
async fn archive_search_and_record_downloads() {
    let app = TestApp::spawn().await;
    let (mut sente, mut gote, game) = game_between(&app, "shogi").await;
    play(&mut sente, &game, "7g7f").await;
    play(&mut gote, &game, "3c3d").await;
    let page = sente.get(&game).await;
    for format in ["kif", "csa", "usi"] {
        assert!(page.body.contains(&format!("{game}/record/{format}")), "link to {format}");
    }
    assert!(!page.body.contains("/record/pgn-iccs"));
    let resigned = sente
        .post(&format!("{game}/action"), &[("csrf", &page.csrf()), ("action", "resign"), ("confirm", "yes")])
        .await;
    assert_eq!(resigned.status, StatusCode::SEE_OTHER);

    let archive = gote.get("/archive").await;
    assert_eq!(archive.status, StatusCode::OK);
    assert!(archive.body.contains(r#"value="bob""#), "defaults to me");
    for variant in ["xiangqi", "shogi", "minishogi", "flickering", "seven-kingdoms"] {
        assert!(
            archive.body.contains(&format!(r#"<option value="{variant}""#)),
            "the search offers {variant}"
        );
    }
    assert!(archive.body.contains(&format!(r#"href="{game}""#)));
    let filtered = gote.get("/archive?player=alice&variant=xiangqi").await;
    assert!(!filtered.body.contains(&format!(r#"href="{game}""#)));
    let by_result = gote.get("/archive?player=alice&result=0-1").await;
    assert!(by_result.body.contains(&format!(r#"href="{game}""#)), "alice resigned: 0-1");
    let unknown = gote.get("/archive?player=%3Cscript%3Enobody").await;
    assert_eq!(unknown.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(unknown.body.contains(r#"id="player-error""#) && !unknown.body.contains("<script>nobody"));

    let usi = gote.get(&format!("{game}/record/usi")).await;
    assert_eq!(usi.status, StatusCode::OK);
    assert!(usi.headers["content-disposition"].to_str().unwrap().contains("attachment"));
    assert!(usi.body.trim_end().ends_with("moves 7g7f 3c3d"), "{}", usi.body);
    let csa = gote.get(&format!("{game}/record/csa")).await;
    assert!(csa.body.contains("+7776FU") && csa.body.contains("-3334FU"));
    let kif = gote.get(&format!("{game}/record/kif")).await;
    assert!(kif.status == StatusCode::OK && kif.body.contains("alice"));
    assert_eq!(gote.get(&format!("{game}/record/pgn-wxf")).await.status, StatusCode::NOT_FOUND);
    assert_eq!(gote.get(&format!("{game}/record/nonsense")).await.status, StatusCode::NOT_FOUND);
}

#[tokio::test]
async fn xiangqi_records_in_pgn() {
    let app = TestApp::spawn().await;
    let (mut red, _black, game) = game_between(&app, "xiangqi").await;
    play(&mut red, &game, "h2e2").await;
    let wxf = red.get(&format!("{game}/record/pgn-wxf")).await;
    assert_eq!(wxf.status, StatusCode::OK);
    assert!(wxf.body.contains(r#"[Red "alice"]"#) && wxf.body.contains("C2=5"), "{}", wxf.body);
    let iccs = red.get(&format!("{game}/record/pgn-iccs")).await;
    assert!(iccs.body.contains(r#"[Format "ICCS"]"#));
}

#[tokio::test]
async fn a_move_that_ends_the_game_asks_for_confirmation_first() {
    let app = TestApp::spawn().await;
    let (mut sente, mut gote, game) = game_between(&app, "minishogi").await;
    for (who, text) in [(0, "5e4d"), (1, "1a2b"), (0, "1e1b"), (1, "2b2c")] {
        let browser = if who == 0 { &mut sente } else { &mut gote };
        assert_eq!(play(browser, &game, text).await.status, StatusCode::SEE_OTHER, "{text}");
    }
    // 2e3d mates: the dry run says so and the page asks.
    let asked = play(&mut sente, &game, "2e3d").await;
    assert_eq!(asked.status, StatusCode::OK);
    assert!(asked.body.contains(r#"id="confirm""#) && asked.body.contains("1-0"), "{}", asked.body);
    assert!(!sente.get(&game).await.body.contains(r#"id="result""#), "not played yet");
    let page = sente.get(&game).await;
    let confirmed = sente
        .post(
            &format!("{game}/move"),
            &[("csrf", &page.csrf()), ("move", "2e3d"), ("ply", "4"), ("confirm", "1")],
        )
        .await;
    assert_eq!(confirmed.status, StatusCode::SEE_OTHER);
    let over = gote.get(&game).await;
    assert!(
        over.body.contains(r#"id="result""#) && over.body.contains("1-0") && over.body.contains("checkmate")
    );
}

#[tokio::test]
async fn board_images_do_not_open_sessions() {
    let app = TestApp::spawn().await;
    let (mut red, _black, game) = game_between(&app, "xiangqi").await;
    let mut stranger = app.browser();
    let image = stranger.get(&format!("{game}/board.svg")).await;
    assert_eq!(image.status, StatusCode::OK);
    assert!(image.headers.get("set-cookie").is_none(), "no session for an embedded image");
    assert!(red.get(&format!("{game}/board.svg")).await.body.contains("帥"), "traditional by default");
}

#[tokio::test]
async fn a_refused_move_reads_in_the_readers_language() {
    // Issue 15 §6: the page read "illegal move: a9a5: illegal move: the way is blocked", in
    // English inside the Italian page.
    let app = TestApp::spawn().await;
    let (mut red, mut black, game) = game_between(&app, "xiangqi").await;
    red.language = Some("it-IT,it;q=0.9");
    let refused = play(&mut red, &game, "a0a5").await;
    assert_eq!(refused.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(refused.body.contains(r#"<html lang="it">"#));
    assert_eq!(
        element_text(&refused.body, "move-error"),
        "a0a5 non è legale: la strada del pezzo è bloccata."
    );
    // A typo in ICCS is refused, not read as a FIX move (issue 15 §4).
    let typo = play(&mut red, &game, "a4a5").await;
    assert_eq!(
        element_text(&typo.body, "move-error"),
        "a4a5 non è legale: sulla casa di partenza non c'è un pezzo di chi ha il tratto."
    );
    // The English reader gets the English sentence of the same refusal.
    assert_eq!(play(&mut red, &game, "h2e2").await.status, StatusCode::SEE_OTHER);
    black.language = Some("en");
    let refused = play(&mut black, &game, "a9a5").await;
    assert_eq!(element_text(&refused.body, "move-error"), "a9a5 is not legal: the piece's way is blocked.");
    let refused = play(&mut black, &game, "zz").await;
    assert_eq!(element_text(&refused.body, "move-error"), "“zz” is not a move in any notation of this game.");
}

#[tokio::test]
async fn the_form_token_changes_at_login() {
    let app = TestApp::spawn().await;
    app.browser().sign_up("fabio").await;
    let mut browser = app.browser();
    let before = browser.get("/login").await.csrf();
    let login = browser
        .post("/login", &[("csrf", &before), ("username", "fabio"), ("password", "password-of-fabio")])
        .await;
    assert_eq!(login.status, StatusCode::SEE_OTHER);
    let after = browser.get("/settings").await.csrf();
    assert_ne!(after, before, "a token seen before signing in is not the signed-in session's");
    let stale = browser.post("/logout", &[("csrf", &before)]).await;
    assert_eq!(stale.status, StatusCode::FORBIDDEN);
    let out = browser.post("/logout", &[("csrf", &after)]).await;
    assert_eq!(out.status, StatusCode::SEE_OTHER);
}

/// Issue 16 §2: a move form without a readable ply is refused (the ply guards against a
/// move meant for an earlier position); it is not played at the current ply.
#[tokio::test]
async fn a_move_form_without_a_readable_ply_is_refused() {
    let app = TestApp::spawn().await;
    let (mut red, _black, game) = game_between(&app, "xiangqi").await;
    let page = red.get(&game).await;
    for ply in ["", "one", "1.5"] {
        let refused = red
            .post(&format!("{game}/move"), &[("csrf", &page.csrf()), ("move", "h2e2"), ("ply", ply)])
            .await;
        assert_eq!(refused.status, StatusCode::UNPROCESSABLE_ENTITY, "ply {ply:?}");
        assert!(refused.body.contains(r#"id="move-error""#), "the refusal is shown by the field");
    }
    let id = game.trim_start_matches("/games/");
    let moves = red.get(&format!("/api/games/{id}")).await;
    assert!(moves.body.contains(r#""ply":0"#), "nothing was played: {}", moves.body);
    assert_eq!(play(&mut red, &game, "h2e2").await.status, StatusCode::SEE_OTHER);
}
