//! The administration of accounts (issue 20 §1): roles granted and revoked by admins
//! through the REST API and the command line's `set-role`, each change in the audit log;
//! disabled accounts; tokens that expire and are listed and revoked by their owner.

use reqwest::StatusCode;
use serde_json::{json, Value};
use time::Duration;

use crate::support::{three_days, Reply, TestApp, User};

/// The first admin, as `tavoliere admin create-user --role admin` makes it.
pub(crate) async fn first_admin(app: &TestApp) -> User {
    let boss = app.register("boss").await;
    sqlx::query("update account set role = 'admin' where username = 'boss'")
        .execute(&app.domain.pool)
        .await
        .unwrap();
    // The token was checked at registration: a new one sees the role at once.
    let token = app
        .post("/api/tokens", None, json!({"username": "boss", "password": "password-of-boss"}))
        .await
        .expect(StatusCode::CREATED)["token"]
        .as_str()
        .unwrap()
        .to_owned();
    User { name: boss.name, token }
}

pub(crate) async fn patch_account(app: &TestApp, admin: &User, username: &str, body: Value) -> Reply {
    let request = app
        .client
        .patch(format!("{}/api/admin/accounts/{username}", app.address))
        .bearer_auth(&admin.token)
        .json(&body);
    let response = request.send().await.expect("request");
    let status = response.status();
    let text = response.text().await.unwrap_or_default();
    Reply { status, body: serde_json::from_str(&text).unwrap_or(Value::Null) }
}

async fn delete(app: &TestApp, path: &str, user: &User) -> StatusCode {
    let request = app.client.delete(format!("{}{path}", app.address)).bearer_auth(&user.token);
    request.send().await.expect("request").status()
}

#[tokio::test]
async fn an_admin_grants_and_revokes_roles_and_every_change_is_in_the_audit_log() {
    let app = TestApp::spawn().await;
    let boss = first_admin(&app).await;
    let dora = app.register("dora").await;
    let gina = app.register("gina").await;
    // Dora is a player: she cannot create a tournament (her token is now cached as a player's).
    let new = json!({"name": "Spring open"});
    app.post("/api/tournaments", Some(&dora), new.clone()).await.expect(StatusCode::FORBIDDEN);
    // Only admins manage accounts.
    patch_account(&app, &dora, "dora", json!({"role": "admin"})).await.expect(StatusCode::FORBIDDEN);
    app.get("/api/admin/audit", Some(&dora)).await.expect(StatusCode::FORBIDDEN);
    app.get("/api/admin/accounts", Some(&dora)).await.expect(StatusCode::FORBIDDEN);

    let dora_now = patch_account(&app, &boss, "Dora", json!({"role": "director"})).await;
    let dora_now = dora_now.expect(StatusCode::OK);
    assert_eq!(dora_now["username"], "dora");
    assert_eq!(dora_now["role"], "director");
    assert_eq!(dora_now["disabled"], false);
    // Her cached token follows the new role at once.
    let tournament = app.post("/api/tournaments", Some(&dora), new).await.expect(StatusCode::CREATED).clone();
    let tournament = tournament["id"].as_i64().unwrap();

    // A global director directs every tournament, not only their own.
    let section =
        json!({"name": "A", "variant": "xiangqi", "time_control": three_days(), "pairing": "round-robin"});
    let sections = format!("/api/tournaments/{tournament}/sections");
    app.post(&sections, Some(&gina), section.clone()).await.expect(StatusCode::FORBIDDEN);
    patch_account(&app, &boss, "gina", json!({"role": "global-director"})).await.expect(StatusCode::OK);
    app.post(&sections, Some(&gina), section).await.expect(StatusCode::CREATED);

    // Revoked: dora is a player again and cannot create tournaments.
    patch_account(&app, &boss, "dora", json!({"role": "player"})).await.expect(StatusCode::OK);
    app.post("/api/tournaments", Some(&dora), json!({"name": "x"})).await.expect(StatusCode::FORBIDDEN);
    // The same role again changes nothing and records nothing.
    patch_account(&app, &boss, "dora", json!({"role": "player"})).await.expect(StatusCode::OK);

    // The last admin keeps the role; with a second admin the first may step down.
    let reply = patch_account(&app, &boss, "boss", json!({"role": "director"})).await;
    let detail = reply.expect(StatusCode::CONFLICT)["errors"][0]["detail"].as_str().unwrap().to_owned();
    assert!(detail.contains("last admin"), "{detail}");
    patch_account(&app, &boss, "gina", json!({"role": "admin"})).await.expect(StatusCode::OK);
    patch_account(&app, &boss, "boss", json!({"role": "director"})).await.expect(StatusCode::OK);
    patch_account(&app, &boss, "nobody", json!({"role": "director"})).await.expect(StatusCode::FORBIDDEN);
    patch_account(&app, &gina, "nobody", json!({"role": "director"})).await.expect(StatusCode::NOT_FOUND);
    patch_account(&app, &gina, "dora", json!({"role": "emperor"}))
        .await
        .expect(StatusCode::UNPROCESSABLE_ENTITY);

    let log = app.get("/api/admin/audit", Some(&gina)).await.expect(StatusCode::OK).clone();
    let entries: Vec<(String, String, String, String, String)> = log
        .as_array()
        .unwrap()
        .iter()
        .map(|e| {
            let text = |k: &str| e[k].as_str().unwrap_or("").to_owned();
            (text("account"), text("changed_by"), text("change"), text("old_value"), text("new_value"))
        })
        .collect();
    let expected = [
        ("boss", "boss", "role", "admin", "director"),
        ("gina", "boss", "role", "global-director", "admin"),
        ("dora", "boss", "role", "director", "player"),
        ("gina", "boss", "role", "player", "global-director"),
        ("dora", "boss", "role", "player", "director"),
    ];
    let expected: Vec<(String, String, String, String, String)> = expected
        .iter()
        .map(|(a, b, c, d, e)| (a.to_string(), b.to_string(), c.to_string(), d.to_string(), e.to_string()))
        .collect();
    assert_eq!(entries, expected, "newest first, who changed what");
    assert!(log[0]["changed_at"].is_string());
    let accounts = app.get("/api/admin/accounts", Some(&gina)).await.expect(StatusCode::OK).clone();
    let roles: Vec<(&str, &str)> = accounts
        .as_array()
        .unwrap()
        .iter()
        .map(|a| (a["username"].as_str().unwrap(), a["role"].as_str().unwrap()))
        .collect();
    assert_eq!(roles, [("boss", "director"), ("dora", "player"), ("gina", "admin")]);
}

#[tokio::test]
async fn a_disabled_account_cannot_sign_in_use_its_tokens_or_move_and_its_game_goes_on() {
    let app = TestApp::spawn().await;
    let boss = first_admin(&app).await;
    let red = app.register("red").await;
    let black = app.register("black").await;
    let game = app.start_game("xiangqi", &red, &black, three_days()).await;
    app.post_move(&red, game, "h2e2", 0).await.expect(StatusCode::CREATED);

    // An admin cannot disable themself.
    patch_account(&app, &boss, "boss", json!({"disabled": true})).await.expect(StatusCode::CONFLICT);
    let reply = patch_account(&app, &boss, "black", json!({"disabled": true})).await;
    assert_eq!(reply.expect(StatusCode::OK)["disabled"], true);
    // Black's (cached) token is refused at once, so is a new sign-in and a move.
    app.get("/api/accounts/me", Some(&black)).await.expect(StatusCode::UNAUTHORIZED);
    app.post_move(&black, game, "h9g7", 1).await.expect(StatusCode::UNAUTHORIZED);
    let login = json!({"username": "black", "password": "password-of-black"});
    let refused = app.post("/api/tokens", None, login.clone()).await;
    assert_eq!(refused.expect(StatusCode::FORBIDDEN)["errors"][0]["detail"], "this account is disabled");
    app.post("/api/session", None, login.clone()).await.expect(StatusCode::FORBIDDEN);
    // A wrong password learns nothing about the account.
    let wrong = json!({"username": "black", "password": "wrong-password"});
    app.post("/api/tokens", None, wrong).await.expect(StatusCode::UNAUTHORIZED);
    // The game goes on to its deadline: still active, Black to move, nothing stored.
    let state = app.game(game).await;
    assert_eq!(state["status"], "active");
    assert_eq!(state["ply"], 1);
    app.clock.advance(Duration::days(3) + Duration::minutes(1));
    assert_eq!(app.sweep().await, vec![game]);
    assert_eq!(app.game(game).await["result"], "1-0");

    // Enabled again, the old token works.
    patch_account(&app, &boss, "black", json!({"disabled": false})).await.expect(StatusCode::OK);
    app.get("/api/accounts/me", Some(&black)).await.expect(StatusCode::OK);
    let log = app.get("/api/admin/audit", Some(&boss)).await.expect(StatusCode::OK).clone();
    let changes: Vec<(&str, &str, &str)> = log
        .as_array()
        .unwrap()
        .iter()
        .map(|e| {
            (
                e["change"].as_str().unwrap(),
                e["old_value"].as_str().unwrap(),
                e["new_value"].as_str().unwrap(),
            )
        })
        .collect();
    assert_eq!(changes, [("disabled", "true", "false"), ("disabled", "false", "true")]);
}

#[tokio::test]
async fn tokens_expire_and_their_owner_lists_and_revokes_them() {
    let app = TestApp::spawn().await;
    let ann = app.register("ann").await;
    let ben = app.register("ben").await;
    let login =
        |days: Value| json!({"username": "ann", "password": "password-of-ann", "expires_in_days": days});
    let short = app.post("/api/tokens", None, login(json!(1))).await.expect(StatusCode::CREATED).clone();
    let short = User { name: "ann".to_owned(), token: short["token"].as_str().unwrap().to_owned() };
    // More than the server's lifetime (90 days in the tests' configuration) is refused.
    app.post("/api/tokens", None, login(json!(91))).await.expect(StatusCode::UNPROCESSABLE_ENTITY);
    app.post("/api/tokens", None, login(json!(0))).await.expect(StatusCode::UNPROCESSABLE_ENTITY);

    let list = app.get("/api/tokens", Some(&ann)).await.expect(StatusCode::OK).clone();
    let list = list.as_array().unwrap().clone();
    assert_eq!(list.len(), 2, "{list:?}");
    let current: Vec<bool> = list.iter().map(|t| t["current"].as_bool().unwrap()).collect();
    assert_eq!(current, [false, true], "newest first; the request's own token is marked");
    assert!(list.iter().all(|t| t["expires_at"].is_string() && t.get("token").is_none()));
    let short_id = list[0]["id"].as_i64().unwrap();

    // The one-day token works today (and is cached), not after a day.
    app.get("/api/accounts/me", Some(&short)).await.expect(StatusCode::OK);
    app.clock.advance(Duration::days(1) + Duration::seconds(1));
    app.get("/api/accounts/me", Some(&short)).await.expect(StatusCode::UNAUTHORIZED);
    app.get("/api/accounts/me", Some(&ann)).await.expect(StatusCode::OK);

    // Only its owner revokes a token; once revoked it is refused.
    assert_eq!(delete(&app, &format!("/api/tokens/{short_id}"), &ben).await, StatusCode::NOT_FOUND);
    let ann_id = list[1]["id"].as_i64().unwrap();
    assert_eq!(delete(&app, &format!("/api/tokens/{ann_id}"), &ben).await, StatusCode::NOT_FOUND);
    app.get("/api/accounts/me", Some(&ann)).await.expect(StatusCode::OK);
    assert_eq!(delete(&app, &format!("/api/tokens/{ann_id}"), &ann).await, StatusCode::NO_CONTENT);
    app.get("/api/accounts/me", Some(&ann)).await.expect(StatusCode::UNAUTHORIZED);
}
