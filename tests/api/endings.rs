//! A game's stored result and reason: the database accepts exactly what the server's
//! enums name (`storage::endings`, migration 20261125600001), and the API shows them as
//! stored.

use reqwest::StatusCode;
use tavoliere::storage::endings::{GameReason, GameResult};

use crate::support::{three_days, TestApp};

async fn store(app: &TestApp, game: i64, result: &str, reason: &str) -> Result<(), sqlx::Error> {
    sqlx::query("update game set status = 'finished', result = $2, reason = $3 where game_id = $1")
        .bind(game)
        .bind(result)
        .bind(reason)
        .execute(&app.domain.pool)
        .await
        .map(|_| ())
}

#[tokio::test]
async fn the_database_takes_every_result_and_reason_the_server_names_and_nothing_else() {
    let app = TestApp::spawn().await;
    let alice = app.register("alice").await;
    let bob = app.register("bob").await;
    let game = app.start_game("xiangqi", &alice, &bob, three_days()).await;
    for reason in GameReason::all() {
        store(&app, game, "1-0", reason.as_str()).await.unwrap_or_else(|e| panic!("{reason}: {e}"));
        let state = app.game(game).await;
        assert_eq!(state["reason"], reason.as_str());
    }
    for result in ["1-0", "0-1", "1/2-1/2", "0-0", "2-1-3", "1-1-3-4-5-6-7"] {
        assert_eq!(result.parse::<GameResult>().map(|r| r.to_string()).as_deref(), Ok(result));
        store(&app, game, result, "checkmate").await.unwrap_or_else(|e| panic!("{result}: {e}"));
        let reply = app.get(&format!("/api/games/{game}"), None).await;
        assert_eq!(reply.expect(StatusCode::OK)["result"], result, "shown as stored");
    }
    for (result, reason) in
        [("1-0", "perpetual_check"), ("1-0", "won"), ("2-0", "checkmate"), ("*", "checkmate")]
    {
        assert!(result.parse::<GameResult>().is_err() || reason.parse::<GameReason>().is_err());
        let refused = store(&app, game, result, reason).await.expect_err("a name the server does not know");
        let constraint = refused.as_database_error().and_then(|e| e.constraint().map(str::to_owned));
        assert!(
            matches!(constraint.as_deref(), Some("game_result_check" | "game_reason_check")),
            "{result} {reason}: {refused}"
        );
    }
}
