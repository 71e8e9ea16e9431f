//! The REST collections besides the archive (issue 18 §3): `/api/challenges`,
//! `/api/tournaments` and `/api/players` take filters and a cursor like `/api/games`, and
//! answer a page with its `next` cursor (`X-Next-Cursor`, `Link`); a page starts after the
//! last row of the one before, so rows added meanwhile shift and repeat nothing.

use reqwest::StatusCode;
use serde_json::{json, Value};

use crate::support::{three_days, TestApp, User};
use crate::tournaments::{create_section, create_tournament, with_role};

/// A page of `path` as `user`: the list and the next cursor (checked against the `Link`).
async fn page(app: &TestApp, path: &str, user: Option<&User>) -> (Vec<Value>, Option<String>) {
    let mut request = app.client.get(format!("{}{path}", app.address));
    if let Some(user) = user {
        request = request.bearer_auth(&user.token);
    }
    let response = request.send().await.unwrap();
    assert_eq!(response.status(), StatusCode::OK, "{path}");
    let next = response.headers().get("x-next-cursor").map(|v| v.to_str().unwrap().to_owned());
    if let Some(next) = &next {
        let link = response.headers()["link"].to_str().unwrap().to_owned();
        let (base, query) = path.split_once('?').unwrap_or((path, ""));
        let kept: Vec<&str> =
            query.split('&').filter(|p| !p.is_empty() && !p.starts_with("cursor=")).collect();
        let mut expected = format!("<{base}?{}", kept.join("&"));
        if !kept.is_empty() {
            expected.push('&');
        }
        assert_eq!(link, format!("{expected}cursor={next}>; rel=\"next\""));
    } else {
        assert!(response.headers().get("link").is_none());
    }
    (response.json::<Value>().await.unwrap().as_array().unwrap().clone(), next)
}

fn field(items: &[Value], name: &str) -> Vec<Value> {
    items.iter().map(|i| i[name].clone()).collect()
}

/// Walks every page of `path` (which has other parameters) two at a time, calling
/// `between` after the first page.
async fn walk(app: &TestApp, path: &str, user: Option<&User>, key: &str) -> Vec<Value> {
    let mut seen = Vec::new();
    let mut next: Option<String> = None;
    loop {
        let url = match &next {
            None => path.to_owned(),
            Some(cursor) => format!("{path}&cursor={cursor}"),
        };
        let (items, after) = page(app, &url, user).await;
        assert!(items.len() <= 2);
        seen.extend(field(&items, key));
        match after {
            None => return seen,
            Some(cursor) => next = Some(cursor),
        }
    }
}

async fn challenge(app: &TestApp, user: &User, fields: Value) -> i64 {
    let mut body = json!({"variant": "xiangqi", "time_control": three_days()});
    if let (Value::Object(body), Value::Object(extra)) = (&mut body, fields) {
        body.extend(extra);
    }
    app.post("/api/challenges", Some(user), body).await.expect(StatusCode::CREATED)["id"].as_i64().unwrap()
}

#[tokio::test]
async fn challenges_are_filtered_and_paged_by_a_cursor_stable_under_inserts() {
    let app = TestApp::spawn().await;
    let alice = app.register("alice").await;
    let bob = app.register("bob").await;
    let mut open = Vec::new();
    for fields in
        [json!({}), json!({"variant": "shogi"}), json!({"rated": true}), json!({"variant": "shogi"})]
    {
        open.push(challenge(&app, &alice, fields).await);
        app.clock.advance(time::Duration::seconds(1));
    }
    let bobs = challenge(&app, &bob, json!({})).await;
    app.clock.advance(time::Duration::seconds(1));
    let named = challenge(&app, &bob, json!({"opponent": "alice"})).await;
    app.clock.advance(time::Duration::seconds(1));

    // A visitor sees the lobby (challenges addressed to nobody), newest first.
    let (first, next) = page(&app, "/api/challenges?limit=2", None).await;
    assert_eq!(field(&first, "id"), vec![json!(bobs), json!(open[3])]);
    // A challenge made between two pages is newer than the cursor: it shifts nothing.
    let late = challenge(&app, &bob, json!({})).await;
    let (second, next) = page(&app, &format!("/api/challenges?limit=2&cursor={}", next.unwrap()), None).await;
    assert_eq!(field(&second, "id"), vec![json!(open[2]), json!(open[1])]);
    let (third, last) = page(&app, &format!("/api/challenges?limit=2&cursor={}", next.unwrap()), None).await;
    assert_eq!(field(&third, "id"), vec![json!(open[0])]);
    assert_eq!(last, None, "the last page has no next cursor");

    // Alice also sees the challenge addressed to her; the filters.
    let all = walk(&app, "/api/challenges?limit=2", Some(&alice), "id").await;
    assert_eq!(all.len(), 7);
    assert!(all.contains(&json!(named)) && all.contains(&json!(late)));
    let ids = |v: Vec<Value>| v.into_iter().map(|i| i.as_i64().unwrap()).collect::<Vec<_>>();
    assert_eq!(
        ids(walk(&app, "/api/challenges?limit=2&variant=shogi", None, "id").await),
        vec![open[3], open[1]]
    );
    assert_eq!(ids(walk(&app, "/api/challenges?limit=2&rated=true", None, "id").await), vec![open[2]]);
    let by_bob = ids(walk(&app, "/api/challenges?limit=2&challenger=bob", Some(&alice), "id").await);
    assert_eq!(by_bob, vec![late, named, bobs]);
    for (query, status, code) in [
        ("cursor=abc", StatusCode::UNPROCESSABLE_ENTITY, "challenge.invalid-cursor"),
        ("rated=maybe", StatusCode::UNPROCESSABLE_ENTITY, "challenge.invalid-rated"),
        ("challenger=nobody", StatusCode::NOT_FOUND, "not-found"),
    ] {
        let reply = app.get(&format!("/api/challenges?{query}"), None).await;
        assert_eq!((reply.status, reply.code()), (status, code), "{query}: {:?}", reply.body);
    }
    let unknown = app.get("/api/challenges?variant=chess", None).await;
    assert_eq!(unknown.status, StatusCode::UNPROCESSABLE_ENTITY);
}

#[tokio::test]
async fn tournaments_are_filtered_and_paged_by_a_cursor_stable_under_inserts() {
    let app = TestApp::spawn().await;
    let director = with_role(&app, "director", "director").await;
    let mut ids = Vec::new();
    for name in ["Spring", "Summer", "Autumn"] {
        ids.push(create_tournament(&app, &director, name).await);
        app.clock.advance(time::Duration::seconds(1));
    }
    create_section(&app, &director, ids[1], json!({"variant": "shogi", "name": "Shogi"})).await;
    let entered = app.register("entrant").await;
    let xiangqi = create_section(&app, &director, ids[0], json!({})).await;
    app.post(&format!("/api/sections/{xiangqi}/entries"), Some(&director), json!({"username": "entrant"}))
        .await
        .expect(StatusCode::CREATED);
    let path = format!("/api/tournaments/{}", ids[2]);
    crate::tournaments::patch(&app, &path, Some(&director), json!({"status": "registration"}))
        .await
        .expect(StatusCode::OK);

    let (first, next) = page(&app, "/api/tournaments?limit=2", None).await;
    assert_eq!(field(&first, "id"), vec![json!(ids[2]), json!(ids[1])]);
    assert!(first[0]["created_at"].is_string());
    let winter = create_tournament(&app, &director, "Winter").await;
    let (rest, last) = page(&app, &format!("/api/tournaments?limit=2&cursor={}", next.unwrap()), None).await;
    assert_eq!((field(&rest, "id"), last), (vec![json!(ids[0])], None));
    let all = walk(&app, "/api/tournaments?limit=2", None, "id").await;
    assert_eq!(all, vec![json!(winter), json!(ids[2]), json!(ids[1]), json!(ids[0])]);

    let one = |query: &'static str| {
        let app = &app;
        async move { walk(app, &format!("/api/tournaments?limit=2&{query}"), None, "id").await }
    };
    assert_eq!(one("variant=shogi").await, vec![json!(ids[1])]);
    assert_eq!(one("status=registration").await, vec![json!(ids[2])]);
    assert_eq!(one("player=entrant").await, vec![json!(ids[0])]);
    assert_eq!(one("season=2026").await.len(), 4);
    assert!(one("season=1999").await.is_empty());
    let _ = entered;
    for (query, status) in [
        ("status=postponed", StatusCode::UNPROCESSABLE_ENTITY),
        ("cursor=1-", StatusCode::UNPROCESSABLE_ENTITY),
        ("player=nobody", StatusCode::NOT_FOUND),
    ] {
        let reply = app.get(&format!("/api/tournaments?{query}"), None).await;
        reply.expect(status);
    }
    assert_eq!(app.get("/api/tournaments?cursor=x", None).await.code(), "tournament.invalid-cursor");
}

#[tokio::test]
async fn players_are_filtered_and_paged_by_a_cursor_stable_under_inserts() {
    let app = TestApp::spawn().await;
    let mut users = Vec::new();
    for name in ["marco", "maria", "luca", "mario"] {
        users.push(app.register(name).await);
        app.clock.advance(time::Duration::seconds(1));
    }
    let (first, next) = page(&app, "/api/players?limit=2", None).await;
    assert_eq!(field(&first, "username"), vec![json!("mario"), json!("luca")]);
    assert!(first[0]["member_since"].is_string());
    assert!(first[0].get("account_id").is_none(), "no internal ids");
    app.register("newcomer").await;
    let (rest, last) = page(&app, &format!("/api/players?limit=2&cursor={}", next.unwrap()), None).await;
    assert_eq!((field(&rest, "username"), last), (vec![json!("maria"), json!("marco")], None));

    let names = |query: &'static str| {
        let app = &app;
        async move { walk(app, &format!("/api/players?limit=2&{query}"), None, "username").await }
    };
    assert_eq!(names("name=MAR").await, vec![json!("mario"), json!("maria"), json!("marco")]);
    // Players with a rating in a variant (and pool).
    let game = app
        .start_game_with(
            &users[0],
            &users[2],
            json!({"variant": "xiangqi", "time_control": three_days(), "rated": true}),
        )
        .await;
    app.act(Some(&users[2]), game, "resign").await.expect(StatusCode::OK);
    assert_eq!(names("variant=xiangqi").await, vec![json!("luca"), json!("marco")]);
    assert_eq!(names("variant=xiangqi&pool=correspondence").await.len(), 2);
    assert!(names("variant=xiangqi&pool=live").await.is_empty());
    assert!(names("variant=shogi").await.is_empty());
    // A disabled account is not listed.
    sqlx::query("update account set disabled_at = now() where username = 'luca'")
        .execute(&app.domain.pool)
        .await
        .unwrap();
    assert_eq!(names("variant=xiangqi").await, vec![json!("marco")]);
    for query in ["pool=live", "variant=seven-kingdoms", "variant=xiangqi&pool=blitz", "cursor=abc"] {
        let reply = app.get(&format!("/api/players?{query}"), None).await;
        reply.expect(StatusCode::UNPROCESSABLE_ENTITY);
    }
    assert_eq!(app.get("/api/players?cursor=abc", None).await.code(), "player.invalid-cursor");
}

#[tokio::test]
async fn the_openapi_document_describes_the_filters_and_the_next_cursor() {
    let app = TestApp::spawn().await;
    let doc = app.get("/api/openapi.json", None).await.expect(StatusCode::OK).clone();
    for (path, filters) in [
        ("/api/challenges", &["variant", "rated", "challenger"][..]),
        ("/api/tournaments", &["status", "season", "variant", "player"][..]),
        ("/api/players", &["name", "variant", "pool"][..]),
    ] {
        let operation = &doc["paths"][path]["get"];
        let params: Vec<&str> =
            operation["parameters"].as_array().unwrap().iter().map(|p| p["name"].as_str().unwrap()).collect();
        for name in filters.iter().chain(&["cursor", "limit"]) {
            assert!(params.contains(name), "{path} documents {name}: {params:?}");
        }
        for p in operation["parameters"].as_array().unwrap() {
            assert!(p["description"].is_string(), "{path} {p}");
        }
        let headers = &operation["responses"]["200"]["headers"];
        assert!(headers["X-Next-Cursor"].is_object() && headers["Link"].is_object(), "{path}: {headers}");
    }
    let summary = &doc["components"]["schemas"]["PlayerSummary"]["properties"];
    assert!(summary["username"].is_object() && summary["member_since"].is_object(), "{summary}");
    assert!(summary.get("account_id").is_none());
}
