//! The admins' page (issue 20 §1): every account with its role and state, a form per
//! account, the audit log; hidden from everyone else; refused changes shown, not made.

use reqwest::StatusCode;

use crate::support::TestApp;

#[tokio::test]
async fn an_admin_changes_roles_and_disables_accounts_on_the_admin_page() {
    let app = TestApp::spawn().await;
    let mut boss = app.browser();
    boss.sign_up("boss").await;
    let mut dora = app.browser();
    dora.sign_up("dora").await;
    // Only admins find the page (the first admin comes from the command line).
    assert_eq!(boss.get("/admin").await.status, StatusCode::NOT_FOUND);
    let pool = sqlx::PgPool::connect(&app.database_url).await.unwrap();
    sqlx::query("update account set role = 'admin' where username = 'boss'").execute(&pool).await.unwrap();
    assert_eq!(dora.get("/admin").await.status, StatusCode::NOT_FOUND);
    let page = boss.get("/admin").await;
    assert_eq!(page.status, StatusCode::OK);
    assert!(page.body.contains(r#"data-account="dora""#), "every account is listed");

    // Dora becomes a global director; the change is in the audit log.
    let done = boss
        .submit("/admin", "/admin/accounts/dora", &[("role", "global-director"), ("disabled", "false")])
        .await;
    assert_eq!((done.status, done.location()), (StatusCode::SEE_OTHER, "/admin"));
    let page = boss.get("/admin").await;
    let audit = &page.body[page.body.find(r#"id="audit""#).expect("the audit log")..];
    assert!(
        audit.contains("<td>boss</td><td>dora</td><td>role</td><td>player</td><td>global-director</td>"),
        "{audit}"
    );
    let (role,): (String,) =
        sqlx::query_as("select role from account where username = 'dora'").fetch_one(&pool).await.unwrap();
    assert_eq!(role, "global-director");

    // Disabled, Dora's session signs her in no more.
    assert_eq!(dora.get("/settings").await.status, StatusCode::OK);
    boss.submit("/admin", "/admin/accounts/dora", &[("role", "global-director"), ("disabled", "true")]).await;
    let dashboard = dora.get("/").await;
    assert!(!dashboard.body.contains(r#"class="me">dora"#), "signed out: {}", dashboard.body);

    // The last admin cannot step down: refused on the page, nothing changed.
    let refused =
        boss.submit("/admin", "/admin/accounts/boss", &[("role", "player"), ("disabled", "false")]).await;
    assert_eq!(refused.status, StatusCode::CONFLICT);
    assert!(
        refused.body.contains(r#"id="admin-error""#) && refused.body.contains("last admin"),
        "{}",
        refused.body
    );
    let (role,): (String,) =
        sqlx::query_as("select role from account where username = 'boss'").fetch_one(&pool).await.unwrap();
    assert_eq!(role, "admin");
    // A form without its token changes nothing.
    let forged = boss.post("/admin/accounts/dora", &[("role", "admin"), ("disabled", "false")]).await;
    assert_eq!(forged.status, StatusCode::FORBIDDEN);
}
