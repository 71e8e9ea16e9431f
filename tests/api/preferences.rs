//! `GET/PATCH /api/accounts/me/preferences`: the account's language, piece style and
//! move-list notations.

use reqwest::StatusCode;
use serde_json::{json, Value};

use crate::support::{Reply, TestApp, User};

async fn patch(app: &TestApp, user: Option<&User>, body: Value) -> Reply {
    let mut request = app.client.patch(format!("{}/api/accounts/me/preferences", app.address)).json(&body);
    if let Some(user) = user {
        request = request.bearer_auth(&user.token);
    }
    let response = request.send().await.expect("request");
    let status = response.status();
    let body = response.json().await.unwrap_or(Value::Null);
    Reply { status, body }
}

#[tokio::test]
async fn preferences_start_automatic_and_a_patch_changes_only_its_fields() {
    let app = TestApp::spawn().await;
    let alice = app.register("alice").await;
    let defaults = app.get("/api/accounts/me/preferences", Some(&alice)).await;
    assert_eq!(
        defaults.expect(StatusCode::OK),
        &json!({"language": "auto", "piece_style": "traditional", "xiangqi_notation": "auto", "shogi_notation": "auto"})
    );
    let changed = patch(&app, Some(&alice), json!({"xiangqi_notation": "chinese", "language": "it"})).await;
    assert_eq!(changed.expect(StatusCode::OK)["xiangqi_notation"], "chinese");
    let changed = patch(&app, Some(&alice), json!({"shogi_notation": "usi"})).await;
    assert_eq!(
        changed.expect(StatusCode::OK),
        &json!({"language": "it", "piece_style": "traditional", "xiangqi_notation": "chinese", "shogi_notation": "usi"})
    );
    let bob = app.register("bob").await;
    let theirs = app.get("/api/accounts/me/preferences", Some(&bob)).await;
    assert_eq!(theirs.expect(StatusCode::OK)["language"], "auto", "one account's change is its own");
}

#[tokio::test]
async fn bad_preferences_are_refused_with_the_error_shape_and_change_nothing() {
    let app = TestApp::spawn().await;
    let alice = app.register("alice").await;
    patch(&app, Some(&alice), json!({"piece_style": "western"})).await.expect(StatusCode::OK);
    let cases = [
        (json!({"language": "de"}), "language", "unknown language"),
        (
            json!({"xiangqi_notation": "usi", "language": "it"}),
            "xiangqi notation",
            "another family's notation",
        ),
        (json!({"shogi_notation": "chinese"}), "shogi notation", "another family's notation"),
        (json!({"piece_style": 3}), "piece_style", "not a string"),
        (json!({"notation": "usi"}), "notation", "unknown field"),
    ];
    for (body, mentions, why) in cases {
        let refused = patch(&app, Some(&alice), body).await;
        assert_eq!(refused.status, StatusCode::UNPROCESSABLE_ENTITY, "{why}: {}", refused.body);
        assert!(refused.detail().contains(mentions), "{why}: {}", refused.body);
        let now = app.get("/api/accounts/me/preferences", Some(&alice)).await;
        assert_eq!(
            now.expect(StatusCode::OK),
            &json!({"language": "auto", "piece_style": "western", "xiangqi_notation": "auto", "shogi_notation": "auto"}),
            "{why}: nothing changed"
        );
    }
    patch(&app, None, json!({"language": "it"})).await.expect(StatusCode::UNAUTHORIZED);
    app.get("/api/accounts/me/preferences", None).await.expect(StatusCode::UNAUTHORIZED);
}

#[tokio::test]
async fn the_database_refuses_unknown_preference_values() {
    let app = TestApp::spawn().await;
    app.register("alice").await;
    for (column, value) in [
        ("language", "de"),
        ("piece_style", "cartoon"),
        ("xiangqi_notation", "usi"),
        ("shogi_notation", "wxf"),
    ] {
        let query = format!("update account set {column} = $1");
        let refused = sqlx::query(&query).bind(value).execute(&app.domain.pool).await;
        let error = refused.expect_err(column).to_string();
        assert!(error.contains(&format!("account_{column}_check")), "{column}: {error}");
    }
}

#[tokio::test]
async fn the_openapi_document_lists_the_values_of_each_preference() {
    let app = TestApp::spawn().await;
    let doc = app.get("/api/openapi.json", None).await.expect(StatusCode::OK).clone();
    let patch = &doc["paths"]["/api/accounts/me/preferences"]["patch"];
    assert_eq!(
        patch["requestBody"]["content"]["application/json"]["schema"]["$ref"],
        "#/components/schemas/PreferencesPatch"
    );
    let schemas = &doc["components"]["schemas"];
    assert_eq!(schemas["XiangqiNotation"]["enum"], json!(["auto", "wxf", "iccs", "fix", "chinese"]));
    assert_eq!(schemas["ShogiNotation"]["enum"], json!(["auto", "western", "aise", "usi"]));
    assert_eq!(schemas["Language"]["enum"], json!(["auto", "en", "it"]));
    assert_eq!(schemas["PieceStyle"]["enum"], json!(["traditional", "western"]));
    assert!(schemas["Preferences"]["properties"]["shogi_notation"].is_object());
}

/// Issue 20 §4: the REST game view shows the moves in the reader's notation: `?notation=`,
/// else the signed-in reader's preference, else the variant's own (WXF, western).
#[tokio::test]
async fn the_game_view_follows_the_readers_notation() {
    let app = TestApp::spawn().await;
    let alice = app.register("alice").await;
    let bob = app.register("bob").await;
    let game = app.start_game("xiangqi", &alice, &bob, crate::support::three_days()).await;
    app.post_move(&alice, game, "h2e2", 0).await.expect(StatusCode::CREATED);
    let shown = |view: &Value| (view["moves"][0]["display"].clone(), view["display_notation"].clone());
    let visitor = app.get(&format!("/api/games/{game}"), None).await.expect(StatusCode::OK).clone();
    assert_eq!(shown(&visitor), (json!("C2=5"), json!("wxf")), "a visitor sees WXF");
    for (name, text) in [("iccs", "h2e2"), ("fix", "Bh3e3"), ("chinese", "炮二平五"), ("wxf", "C2=5")] {
        let view =
            app.get(&format!("/api/games/{game}?notation={name}"), None).await.expect(StatusCode::OK).clone();
        assert_eq!(shown(&view), (json!(text), json!(name)));
        assert_eq!(view["moves"][0]["canonical"], "h2e2", "the canonical text stays");
    }
    patch(&app, Some(&bob), json!({"xiangqi_notation": "chinese"})).await.expect(StatusCode::OK);
    let bobs = app.get(&format!("/api/games/{game}"), Some(&bob)).await.expect(StatusCode::OK).clone();
    assert_eq!(shown(&bobs), (json!("炮二平五"), json!("chinese")), "the reader's preference");
    let asked =
        app.get(&format!("/api/games/{game}?notation=iccs"), Some(&bob)).await.expect(StatusCode::OK).clone();
    assert_eq!(shown(&asked), (json!("h2e2"), json!("iccs")), "the query wins over the preference");
    let refused = app.get(&format!("/api/games/{game}?notation=usi"), None).await;
    refused.expect(StatusCode::UNPROCESSABLE_ENTITY);
}
