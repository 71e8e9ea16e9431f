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

/// Reads of a game racing its moves (issue 24 item 2): every read of a game (the REST
/// view, the game page, its move list, the board image, the WebSocket handshake) sees
/// one consistent state, never a 500, while moves commit continuously. The readers use a
/// second instance on the same database, whose rules cache never holds the latest move,
/// so every read after a move reads the stored moves.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn reads_racing_continuous_moves_never_fail() {
    use std::sync::atomic::{AtomicBool, AtomicI64, Ordering};
    use std::sync::Arc;

    use tokio_tungstenite::tungstenite::client::IntoClientRequest;

    let app = TestApp::spawn().await;
    let reader = Arc::new(TestApp::spawn_on(&app.database_url, app.clock.clone()).await);
    let alice = app.register("alice").await;
    let bob = app.register("bob").await;
    let current = Arc::new(AtomicI64::new(app.start_game("xiangqi", &alice, &bob, three_days()).await));
    let done = Arc::new(AtomicBool::new(false));
    let readers: Vec<_> = (0..5)
        .map(|which| {
            let (reader, current, done) = (reader.clone(), current.clone(), done.clone());
            tokio::spawn(async move {
                let mut failures = Vec::new();
                let mut reads = 0;
                while !done.load(Ordering::Relaxed) {
                    let game = current.load(Ordering::Relaxed);
                    let path = match which {
                        0 => format!("/api/games/{game}"),
                        1 => format!("/games/{game}"),
                        2 => format!("/games/{game}/moves"),
                        3 => format!("/games/{game}/board.svg?ply=1"),
                        _ => {
                            let base = reader.address.replacen("http://", "ws://", 1);
                            let request =
                                format!("{base}/api/games/{game}/socket").into_client_request().unwrap();
                            reads += 1;
                            match tokio_tungstenite::connect_async(request).await {
                                Ok((mut ws, _)) => {
                                    let _ = ws.close(None).await;
                                }
                                Err(e) => failures.push(format!("socket of game {game}: {e}")),
                            }
                            continue;
                        }
                    };
                    reads += 1;
                    let reply = reader.client.get(format!("{}{path}", reader.address)).send().await.unwrap();
                    if reply.status() != StatusCode::OK {
                        failures.push(format!("GET {path}: {}", reply.status()));
                    }
                }
                (reads, failures)
            })
        })
        .collect();
    // Moves chosen among the legal ones, a new game whenever one ends.
    let mut seed = 12345u64;
    let mut view = app.game(current.load(Ordering::Relaxed)).await;
    for _ in 0..300 {
        let game = current.load(Ordering::Relaxed);
        if view["status"] != "active" {
            let next = app.start_game("xiangqi", &alice, &bob, three_days()).await;
            current.store(next, Ordering::Relaxed);
            view = app.game(next).await;
            continue;
        }
        let legal = view["legal_moves"].as_array().unwrap();
        seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        let text = legal[(seed >> 33) as usize % legal.len()].as_str().unwrap().to_owned();
        let mover = if view["to_move_seat"] == 0 { &alice } else { &bob };
        let ply = view["ply"].as_i64().unwrap();
        view = app.post_move(mover, game, &text, ply).await.expect(StatusCode::CREATED).clone();
    }
    done.store(true, Ordering::Relaxed);
    let mut total = 0;
    for reader in readers {
        let (reads, failures) = reader.await.unwrap();
        total += reads;
        assert!(
            failures.is_empty(),
            "{} of {reads} reads failed: {:?}",
            failures.len(),
            &failures[..failures.len().min(5)]
        );
    }
    assert!(total > 100, "the readers read while the moves were played ({total} reads)");
}
