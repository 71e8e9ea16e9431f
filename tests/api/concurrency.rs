//! Exactly once: concurrent submissions of the same ply store one move.

use reqwest::StatusCode;

use crate::support::{three_days, TestApp};

/// Three legal moves for each of the first three plies, whichever was played before.
const CANDIDATES: [[&str; 3]; 3] =
    [["h2e2", "b2e2", "h0g2"], ["h9g7", "b9c7", "h7e7"], ["a3a4", "c3c4", "g3g4"]];

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn concurrent_submissions_for_the_same_ply_store_exactly_one_move() {
    let app = TestApp::spawn().await;
    let alice = app.register("alice").await;
    let bob = app.register("bob").await;
    let game = app.start_game("xiangqi", &alice, &bob, three_days()).await;
    let app = std::sync::Arc::new(app);
    for ply in 0..3i64 {
        let mover = if ply % 2 == 0 { alice.clone() } else { bob.clone() };
        let attempts: Vec<_> = (0..16)
            .map(|i| {
                let app = app.clone();
                let mover = mover.clone();
                let text = CANDIDATES[ply as usize][i % 3];
                tokio::spawn(async move { app.post_move(&mover, game, text, ply).await.status })
            })
            .collect();
        let mut created = 0;
        for attempt in attempts {
            match attempt.await.unwrap() {
                StatusCode::CREATED => created += 1,
                StatusCode::CONFLICT => {}
                other => panic!("unexpected status {other}"),
            }
        }
        assert_eq!(created, 1, "exactly one of 16 submissions for ply {ply} wins");
        assert_eq!(app.stored_moves(game).await, ply + 1);
    }
}
