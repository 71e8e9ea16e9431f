//! Issue 40 §2 and §5: a binary starts on a database migrated by a newer release (a
//! rollback) and says so; the start log says where the database is and what the
//! migrations did, once.

use std::time::Duration;

use crate::support::process::ServerProcess;
use crate::support::Cluster;

/// The lines of `server`'s log containing `text`, waiting up to 5 s for one (the log is
/// read by a thread).
async fn logged(server: &ServerProcess, text: &str) -> Vec<String> {
    for _ in 0..100 {
        let lines: Vec<String> = server.log().into_iter().filter(|line| line.contains(text)).collect();
        if !lines.is_empty() {
            return lines;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    Vec::new()
}

#[tokio::test(flavor = "multi_thread")]
async fn a_newer_releases_migrations_are_tolerated_and_the_start_log_says_what_it_found() {
    // An empty database (the test cluster's fresh ones come migrated already).
    let template = Cluster::get().fresh_database().await;
    let (server_part, _) = template.rsplit_once('/').expect("a database name");
    let name = format!("empty_{}", uuid::Uuid::new_v4().simple());
    let admin = sqlx::PgPool::connect(&template).await.expect("the test cluster");
    sqlx::query(&format!(r#"create database "{name}""#)).execute(&admin).await.expect("an empty database");
    admin.close().await;
    let url = format!("{server_part}/{name}");

    // First start: the database is external and every migration is applied.
    let mut first = tokio::task::block_in_place(|| ServerProcess::start(&url));
    let place = logged(&first, "database: an external PostgreSQL").await;
    assert_eq!(place.len(), 1, "said once: {:#?}", first.log());
    assert!(place[0].contains("127.0.0.1"), "the host is named: {}", place[0]);
    let applied = logged(&first, "migrations applied").await;
    assert_eq!(applied.len(), 1, "{:#?}", first.log());
    assert!(applied[0].contains("applied=["), "the versions are named: {}", applied[0]);
    tokio::task::block_in_place(|| first.terminate());

    // A newer release ran a migration this binary does not know.
    let pool = sqlx::PgPool::connect(&url).await.expect("the test database");
    sqlx::query(
        "insert into _sqlx_migrations (version, description, success, checksum, execution_time)
         values (99991231000000, 'a newer release', true, '\\x00', 1)",
    )
    .execute(&pool)
    .await
    .expect("a migration of a newer release");
    pool.close().await;

    // The rollback: this binary serves on it, says the schema is up to date and names the
    // migration it does not know.
    let second = tokio::task::block_in_place(|| ServerProcess::start(&url));
    let ready = reqwest::get(format!("{}/readyz", second.address)).await.expect("served");
    assert_eq!(ready.status(), reqwest::StatusCode::OK);
    let current = logged(&second, "the database schema is up to date").await;
    assert_eq!(current.len(), 1, "{:#?}", second.log());
    assert!(logged(&second, "migrations applied").await.is_empty(), "nothing new to apply");
    let unknown = logged(&second, "this binary does not know").await;
    assert_eq!(unknown.len(), 1, "{:#?}", second.log());
    assert!(unknown[0].contains("99991231000000"), "{}", unknown[0]);
}
