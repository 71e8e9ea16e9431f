//! The move's fast path runs on connections of its own (`storage::move_connections`),
//! given back without the round trip sqlx's pool makes; what that round trip guarded
//! against is checked here: a statement cancelled halfway, a statement that failed.

use std::time::Duration;

use tavoliere::domain::DomainResult;
use tavoliere::storage::move_connections::MoveConnections;

use crate::support::TestApp;

async fn backend_and_value(moves: &MoveConnections, value: i32) -> DomainResult<(i32, i32)> {
    moves
        .run(async |connection| {
            Ok(sqlx::query_as("select pg_backend_pid(), $1::int").bind(value).fetch_one(connection).await?)
        })
        .await
}

#[tokio::test]
async fn a_connection_whose_statement_was_cancelled_answers_the_next_statement_with_its_own_result() {
    let app = TestApp::spawn().await;
    // One connection, so that the next statement gets the cancelled one's.
    let moves = MoveConnections::new(&app.domain.pool, 1, Duration::from_secs(10));
    let (first_backend, _) = backend_and_value(&moves, 1).await.unwrap();
    // The request goes away while its statement runs: the future is dropped.
    let slow = moves.run(async |connection| {
        sqlx::query("select pg_sleep(0.5), 7").execute(connection).await?;
        Ok(())
    });
    assert!(tokio::time::timeout(Duration::from_millis(100), slow).await.is_err(), "cancelled");
    // Without the check the connection would hand back the slow statement's row or fail.
    let (backend, value) = backend_and_value(&moves, 2).await.unwrap();
    assert_eq!(value, 2);
    assert_eq!(backend, first_backend, "the same connection, still usable");
    let (_, value) = backend_and_value(&moves, 3).await.unwrap();
    assert_eq!(value, 3);
}

#[tokio::test]
async fn a_connection_whose_statement_failed_is_replaced() {
    let app = TestApp::spawn().await;
    let moves = MoveConnections::new(&app.domain.pool, 1, Duration::from_secs(10));
    let (first_backend, _) = backend_and_value(&moves, 1).await.unwrap();
    let failed = moves
        .run(async |connection| {
            sqlx::query("select 1 / 0").execute(connection).await?;
            Ok(())
        })
        .await;
    assert!(failed.is_err(), "division by zero");
    let (backend, value) = backend_and_value(&moves, 2).await.unwrap();
    assert_eq!(value, 2);
    assert_ne!(backend, first_backend, "a failed statement's connection is not used again");
}

#[tokio::test]
async fn a_connection_the_database_ended_while_it_was_idle_is_replaced_before_the_next_move() {
    let app = TestApp::spawn().await;
    let moves = MoveConnections::new(&app.domain.pool, 1, Duration::from_secs(10));
    let (first_backend, _) = backend_and_value(&moves, 1).await.unwrap();
    // As a database restart or an administrator's pg_terminate_backend would.
    let ended: bool = sqlx::query_scalar("select pg_terminate_backend($1)")
        .bind(first_backend)
        .fetch_one(&app.domain.pool)
        .await
        .unwrap();
    assert!(ended);
    // Idle for longer than the pool trusts a connection unchecked.
    tokio::time::sleep(Duration::from_millis(1200)).await;
    let (backend, value) =
        backend_and_value(&moves, 2).await.expect("the next statement is not the one to fail");
    assert_eq!(value, 2);
    assert_ne!(backend, first_backend);
}
