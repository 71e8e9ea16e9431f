//! The archive (issue 18 §3): finished games searched by every filter, a page at a time
//! behind a cursor that stays right while games keep finishing, in REST and HTML, and the
//! streamed bulk export of a player's games.

use reqwest::StatusCode;
use serde_json::{json, Value};
use time::Duration;

use crate::support::{three_days, TestApp, User};

/// The ids of the games of a list.
fn ids(list: &Value) -> Vec<i64> {
    list.as_array().unwrap().iter().map(|g| g["id"].as_i64().unwrap()).collect()
}

async fn search(app: &TestApp, query: &str) -> Vec<i64> {
    ids(app.get(&format!("/api/games?{query}"), None).await.expect(StatusCode::OK))
}

/// Four finished games a day or more apart (2026-03-01, -02, -06, -07):
/// g1 alice–bob Xiangqi rated, bob resigns (1-0); g2 bob–carol Shogi, agreed draw;
/// g3 carol–alice Xiangqi, carol's time runs out (0-1); g4 alice–carol MiniShogi, alice
/// resigns (0-1). And one game still being played.
async fn scene(app: &TestApp) -> (User, User, User, [i64; 4]) {
    let alice = app.register("alice").await;
    let bob = app.register("bob").await;
    let carol = app.register("carol").await;
    let rated = json!({"variant": "xiangqi", "time_control": three_days(), "rated": true});
    let g1 = app.start_game_with(&alice, &bob, rated).await;
    app.act(Some(&bob), g1, "resign").await.expect(StatusCode::OK);
    app.clock.advance(Duration::days(1));
    let g2 = app.start_game("shogi", &bob, &carol, three_days()).await;
    app.act(Some(&bob), g2, "draw/offer").await.expect(StatusCode::OK);
    app.act(Some(&carol), g2, "draw/accept").await.expect(StatusCode::OK);
    app.clock.advance(Duration::days(1));
    let g3 = app.start_game("xiangqi", &carol, &alice, three_days()).await;
    app.clock.advance(Duration::days(3) + Duration::hours(1));
    assert_eq!(app.sweep().await, vec![g3]);
    app.clock.advance(Duration::days(1));
    let g4 = app.start_game("minishogi", &alice, &carol, three_days()).await;
    app.act(Some(&alice), g4, "resign").await.expect(StatusCode::OK);
    app.start_game("xiangqi", &bob, &alice, three_days()).await;
    (alice, bob, carol, [g1, g2, g3, g4])
}

#[tokio::test]
async fn every_filter_of_the_archive_finds_its_games() {
    let app = TestApp::spawn().await;
    let (alice, _bob, _carol, [g1, g2, g3, g4]) = scene(&app).await;
    assert_eq!(search(&app, "player=alice&status=finished").await, [g4, g3, g1], "newest first");
    let mine = app.get("/api/games?status=finished", Some(&alice)).await;
    assert_eq!(ids(mine.expect(StatusCode::OK)), [g4, g3, g1], "the caller's by default");
    assert_eq!(search(&app, "player=alice&opponent=carol").await, [g4, g3]);
    assert_eq!(search(&app, "opponent=bob&variant=shogi").await, [g2]);
    assert_eq!(search(&app, "variant=xiangqi").await, [g3, g1], "a visitor searches everybody's games");
    assert_eq!(search(&app, "result=1/2-1/2").await, [g2]);
    assert_eq!(search(&app, "result=0-1").await, [g4, g3]);
    assert_eq!(search(&app, "player=alice&result=win").await, [g3, g1]);
    assert_eq!(search(&app, "player=alice&result=loss").await, [g4]);
    assert_eq!(search(&app, "player=carol&result=draw").await, [g2]);
    assert_eq!(search(&app, "reason=timeout").await, [g3]);
    assert_eq!(search(&app, "reason=agreement").await, [g2]);
    assert_eq!(search(&app, "from=2026-03-06").await, [g4, g3]);
    assert_eq!(search(&app, "to=2026-03-02").await, [g2, g1], "the last day counts whole");
    assert_eq!(search(&app, "from=2026-03-02&to=2026-03-06").await, [g3, g2]);
    assert_eq!(search(&app, "rated=true").await, [g1]);
    assert_eq!(search(&app, "rated=false&player=bob").await, [g2]);
    assert_eq!(search(&app, "tournament=1").await, Vec::<i64>::new());
    for (query, code) in [
        ("result=win", "archive.invalid-result"),
        ("result=2-0", "archive.invalid-result"),
        ("reason=bored", "archive.invalid-reason"),
        ("from=yesterday", "archive.invalid-date"),
        ("tournament=first", "archive.invalid-tournament"),
        ("rated=maybe", "archive.invalid-rated"),
        ("cursor=abc", "archive.invalid-cursor"),
    ] {
        let refused = app.get(&format!("/api/games?{query}"), None).await;
        refused.expect(StatusCode::UNPROCESSABLE_ENTITY);
        assert_eq!(refused.code(), code, "{query}");
    }
    app.get("/api/games?opponent=nobody", None).await.expect(StatusCode::NOT_FOUND);
    app.get("/api/games?variant=xiangqi&status=active", None).await.expect(StatusCode::UNPROCESSABLE_ENTITY);
}

#[tokio::test]
async fn the_cursor_pages_through_the_archive_while_games_keep_finishing() {
    let app = TestApp::spawn().await;
    let (alice, bob, _carol, [g1, g2, g3, g4]) = scene(&app).await;
    let response = app.client.get(format!("{}/api/games?limit=2", app.address)).send().await.unwrap();
    assert_eq!(response.status(), StatusCode::OK);
    let next = response.headers()["x-next-cursor"].to_str().unwrap().to_owned();
    let link = response.headers()["link"].to_str().unwrap().to_owned();
    assert_eq!(link, format!("</api/games?limit=2&cursor={next}>; rel=\"next\""));
    assert_eq!(ids(&response.json().await.unwrap()), [g4, g3]);
    // A game finishes between the pages: it is newer than the cursor and shifts nothing.
    app.clock.advance(Duration::hours(1));
    let g5 = app.start_game("xiangqi", &alice, &bob, three_days()).await;
    app.act(Some(&alice), g5, "resign").await.expect(StatusCode::OK);
    let response =
        app.client.get(format!("{}/api/games?limit=2&cursor={next}", app.address)).send().await.unwrap();
    assert!(response.headers().get("x-next-cursor").is_none(), "the last page");
    assert_eq!(ids(&response.json().await.unwrap()), [g2, g1], "no game repeated or skipped");
    assert_eq!(search(&app, "limit=2").await, [g5, g4], "a new search starts with the new game");
}

#[tokio::test]
async fn the_archive_page_searches_pages_and_exports_without_javascript() {
    let app = TestApp::spawn().await;
    let (_alice, _bob, _carol, [g1, _g2, g3, g4]) = scene(&app).await;
    let page = app.get_text("/archive?player=&variant=xiangqi&limit=1").await;
    assert!(
        page.contains(&format!(r#"data-game="{g3}""#)) && !page.contains(&format!(r#"data-game="{g1}""#))
    );
    assert!(page.contains(r#"id="next-page""#), "a link to the next page");
    assert!(page.contains(&format!(r#"href="/games/{g3}/record/pgn-wxf""#)), "each game downloadable");
    let older = page.split(r#"id="next-page" "#).next().unwrap();
    let href = older.rsplit(r#"<a href=""#).next().unwrap().split('"').next().unwrap().replace("&amp;", "&");
    let second = app.get_text(&href).await;
    assert!(second.contains(&format!(r#"data-game="{g1}""#)), "{href}");
    let alices = app.get_text("/archive?player=alice&reason=timeout").await;
    assert!(
        alices.contains(&format!(r#"data-game="{g3}""#)) && !alices.contains(&format!(r#"data-game="{g4}""#))
    );
    assert!(alices.contains("/archive/export/pgn-iccs?player=alice"), "the bulk export of the search");

    let pgn = app.get_text("/archive/export/pgn-iccs?player=alice").await;
    assert_eq!(pgn.matches("[Event ").count(), 2, "alice's two Xiangqi games: {pgn}");
    assert!(pgn.contains(&format!("{g3}")) && pgn.contains(&format!("{g1}")));
    let kif = app.get_text("/archive/export/kif?player=alice").await;
    assert!(kif.contains("手数"), "her MiniShogi game as KIF: {kif}");
    let everything = app.client.get(format!("{}/archive/export/kif", app.address)).send().await.unwrap();
    assert_eq!(
        everything.status(),
        StatusCode::NOT_FOUND,
        "an export is of a player's or a tournament's games"
    );
}
