//! Moves of different games arriving while a statement of the fast path runs are stored
//! together by the next statement (`storage::move_writes`), each under its own
//! conditions, and each alone again when that statement fails; a second statement starts
//! beside a running one only for a backlog of waiting moves; the connections are open before
//! the first move.

use std::sync::Arc;
use std::time::Duration;

use reqwest::StatusCode;
use tokio::sync::oneshot;
use tokio::task::JoinHandle;

use tavoliere::config::Settings;

use crate::support::{three_days, TestApp, User};

/// An app whose fast path has one connection, and `count` xiangqi games that have had
/// their first move (so that the instance keeps a copy of each for the next).
async fn app_with_games(count: usize) -> (Arc<TestApp>, Vec<(i64, User)>, Vec<User>) {
    app_with_games_configured(count, |settings| settings.database.move_connections = 1).await
}

/// [`app_with_games`] with the settings `configure` makes.
async fn app_with_games_configured(
    count: usize,
    configure: impl FnOnce(&mut Settings),
) -> (Arc<TestApp>, Vec<(i64, User)>, Vec<User>) {
    let app = TestApp::spawn_with(configure).await;
    let (mut games, mut reds) = (Vec::new(), Vec::new());
    for index in 0..count {
        let red = app.register(&format!("red{index}")).await;
        let black = app.register(&format!("black{index}")).await;
        let game = app.start_game("xiangqi", &red, &black, three_days()).await;
        app.post_move(&red, game, "h2e2", 0).await.expect(StatusCode::CREATED);
        games.push((game, black));
        reds.push(red);
    }
    (Arc::new(app), games, reds)
}

/// Takes one of the fast path's connections and holds it until the returned sender sends
/// (or is dropped).
async fn hold_a_move_connection(app: &TestApp) -> oneshot::Sender<()> {
    let moves = app.domain.moves.clone();
    let (release, released) = oneshot::channel::<()>();
    let (held, holding) = oneshot::channel::<()>();
    tokio::spawn(async move {
        moves
            .connections()
            .run(async |_connection| {
                let _ = held.send(());
                let _ = released.await;
                Ok(())
            })
            .await
    });
    holding.await.unwrap();
    release
}

/// Waits until the writer's (statements running, moves waiting) are `expected`.
async fn wait_for_writer_state(app: &TestApp, expected: (usize, usize)) {
    let moves = app.domain.moves.clone();
    wait_until(|| {
        let moves = moves.clone();
        async move { moves.state() == expected }
    })
    .await;
}

fn play_second_move(app: &Arc<TestApp>, game: i64, black: &User) -> JoinHandle<StatusCode> {
    let (app, black) = (app.clone(), black.clone());
    tokio::spawn(async move { app.post_move(&black, game, "h9g7", 1).await.status })
}

/// Holds the only move connection, plays the second move of the first game (whose
/// statement then waits for the connection) and then those of the others, waits until they
/// all wait for the next statement, and releases the connection. Returns the answers, in
/// the order of `games`.
async fn play_second_moves_behind_a_busy_connection(
    app: &Arc<TestApp>,
    games: &[(i64, User)],
) -> Vec<StatusCode> {
    let [(first_game, first_black), others @ ..] = games else { panic!("no game") };
    let release = hold_a_move_connection(app).await;
    let first = play_second_move(app, *first_game, first_black);
    // Its statement has started (one running) and took the move (none waiting).
    wait_for_writer_state(app, (1, 0)).await;
    let mut requests = vec![first];
    requests.extend(others.iter().map(|(game, black)| play_second_move(app, *game, black)));
    wait_for_writer_state(app, (1, others.len())).await;
    release.send(()).unwrap();
    futures::future::join_all(requests).await.into_iter().map(Result::unwrap).collect()
}

async fn wait_until<F: std::future::Future<Output = bool>>(mut condition: impl FnMut() -> F) {
    for _ in 0..500 {
        if condition().await {
            return;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    panic!("the condition never held");
}

/// The transaction that last wrote each game's row.
async fn writers(app: &TestApp, games: &[i64]) -> Vec<String> {
    let mut writers = Vec::new();
    for game in games {
        let xmin: String = sqlx::query_scalar("select xmin::text from game where game_id = $1")
            .bind(game)
            .fetch_one(&app.domain.pool)
            .await
            .unwrap();
        writers.push(xmin);
    }
    writers
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn moves_arriving_while_the_connection_is_busy_are_stored_by_one_statement_each_under_its_own_conditions(
) {
    let (app, games, reds) = app_with_games(4).await;
    let [a, b, c, d] = [&games[0], &games[1], &games[2], &games[3]].map(|(game, _)| *game);
    // Another instance changed game c since this one kept its copy: c's move must not be
    // stored from the copy (the locked path stores it from the stored game).
    sqlx::query("update game set revision = revision + 1 where game_id = $1")
        .bind(c)
        .execute(&app.domain.pool)
        .await
        .unwrap();
    let statuses = play_second_moves_behind_a_busy_connection(&app, &games).await;
    assert_eq!(statuses, [StatusCode::CREATED; 4]);
    let written = writers(&app, &[a, b, c, d]).await;
    assert_eq!(written[1], written[3], "b and d stored by one statement");
    assert_ne!(written[0], written[1], "a stored alone, before");
    assert_eq!(app.domain.moves.state(), (0, 0), "no statement left running, no move waiting");
    assert_ne!(written[2], written[1], "c's condition failed in the statement: stored under its lock");
    for (game, _) in &games {
        assert_eq!(app.stored_moves(*game).await, 2);
        let view = app.game(*game).await;
        assert_eq!(view["ply"], 2, "{view}");
        let made: Vec<i32> =
            sqlx::query_scalar("select moves_made from game_seat where game_id = $1 order by seat")
                .bind(game)
                .fetch_all(&app.domain.pool)
                .await
                .unwrap();
        assert_eq!(made, [1, 1], "game {game}");
        // The waiting player's "your move" row of each move, red's after black's move.
        let told: Vec<(String, i32)> = sqlx::query_as(
            "select a.username, (n.details->>'ply')::int from notification n
             join account a using (account_id)
             where n.game_id = $1 and n.kind = 'your-move' order by n.notification_id",
        )
        .bind(game)
        .fetch_all(&app.domain.pool)
        .await
        .unwrap();
        let index = games.iter().position(|(g, _)| g == game).unwrap();
        assert_eq!(told, [(format!("black{index}"), 1), (format!("red{index}"), 2)], "game {game}");
    }
    // The games go on from what was stored: the next move of each takes its copy.
    for ((game, _), red) in games.iter().zip(&reds) {
        app.post_move(red, *game, "h0g2", 2).await.expect(StatusCode::CREATED);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn when_the_statement_of_several_moves_fails_each_move_is_stored_alone_or_refused_alone() {
    let (app, games, _) = app_with_games(4).await;
    let [a, b, c, d] = [&games[0], &games[1], &games[2], &games[3]].map(|(game, _)| *game);
    // A row for d's next ply that the revision does not know of: d's move fails on the
    // primary key, and with it the statement of b, c and d.
    sqlx::query(
        "insert into move (game_id, ply, turn_number, seat, notation, position_key, played_at)
         select game_id, 2, 1, 1, 'h9g7', 0, now() from game where game_id = $1",
    )
    .bind(d)
    .execute(&app.domain.pool)
    .await
    .unwrap();
    let statuses = play_second_moves_behind_a_busy_connection(&app, &games).await;
    assert_eq!(
        statuses,
        [StatusCode::CREATED, StatusCode::CREATED, StatusCode::CREATED, StatusCode::CONFLICT]
    );
    let written = writers(&app, &[a, b, c, d]).await;
    assert_ne!(written[1], written[2], "b and c stored by statements of their own");
    for game in [a, b, c] {
        assert_eq!(app.stored_moves(game).await, 2);
    }
    let (ply, moves_made): (i32, i32) = sqlx::query_as(
        "select g.current_ply, s.moves_made from game g join game_seat s using (game_id)
         where g.game_id = $1 and s.seat = 1",
    )
    .bind(d)
    .fetch_one(&app.domain.pool)
    .await
    .unwrap();
    assert_eq!((ply, moves_made), (1, 0), "d's move refused, nothing of it stored");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_move_whose_game_is_held_by_a_slow_transaction_does_not_hold_up_other_games() {
    let (app, games, _) = app_with_games(2).await;
    let [(a, black_a), (b, black_b)] = [&games[0], &games[1]];
    // Something slow holds game a's row (an administrator's transaction left open).
    let mut lock = app.domain.pool.begin().await.unwrap();
    sqlx::query("select 1 from game where game_id = $1 for update")
        .bind(a)
        .execute(&mut *lock)
        .await
        .unwrap();
    let waiting = play_second_move(&app, *a, black_a);
    // On the only move connection a's statement waits for the lock at most
    // LOCK_TIMEOUT_MS, then a's move waits on the locked path: b's move is stored
    // meanwhile. Without the timeout b's would wait for the lock as long as a's.
    let other = play_second_move(&app, *b, black_b);
    let stored = tokio::time::timeout(Duration::from_secs(10), other).await;
    assert_eq!(stored.expect("b's move is not held up by a's lock").unwrap(), StatusCode::CREATED);
    assert!(!waiting.is_finished(), "a's move waits for its game");
    lock.commit().await.unwrap();
    assert_eq!(waiting.await.unwrap(), StatusCode::CREATED);
    assert_eq!(app.stored_moves(*a).await, 2);
    assert_eq!(app.stored_moves(*b).await, 2);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn another_statement_starts_beside_a_running_one_only_once_the_backlog_of_moves_waits() {
    // Two statements may run at once, the second only once three moves wait: a shorter
    // queue goes out whole with the next statement instead of in pieces.
    let (app, games, _) = app_with_games_configured(4, |settings| {
        settings.database.move_connections = 2;
        settings.database.move_backlog = 3;
        // The statements wait for the held connections meanwhile.
        settings.database.acquire_timeout_ms = 30_000;
    })
    .await;
    // Both connections held: the statements started wait for one, holding their moves.
    let releases = [hold_a_move_connection(&app).await, hold_a_move_connection(&app).await];
    // The first move starts a statement (none was running) and is taken by it.
    let mut requests = vec![play_second_move(&app, games[0].0, &games[0].1)];
    wait_for_writer_state(&app, (1, 0)).await;
    // Two more wait for the next statement: below the backlog, no second one starts.
    requests.push(play_second_move(&app, games[1].0, &games[1].1));
    requests.push(play_second_move(&app, games[2].0, &games[2].1));
    wait_for_writer_state(&app, (1, 2)).await;
    // The third waiting move reaches the backlog: a second statement takes all three.
    requests.push(play_second_move(&app, games[3].0, &games[3].1));
    wait_for_writer_state(&app, (2, 0)).await;
    for release in releases {
        release.send(()).unwrap();
    }
    let statuses: Vec<StatusCode> =
        futures::future::join_all(requests).await.into_iter().map(Result::unwrap).collect();
    assert_eq!(statuses, [StatusCode::CREATED; 4]);
    let ids: Vec<i64> = games.iter().map(|(game, _)| *game).collect();
    let written = writers(&app, &ids).await;
    assert_eq!(written[1], written[2], "the three waiting moves stored by one statement");
    assert_eq!(written[2], written[3], "the three waiting moves stored by one statement");
    assert_ne!(written[0], written[1], "the first stored by its own statement");
    assert_eq!(app.domain.moves.state(), (0, 0), "no statement left running, no move waiting");
}

#[tokio::test]
async fn the_fast_paths_connections_are_open_before_the_first_move() {
    // Opened when the application starts, not by the first moves (which would wait for a
    // new backend and its authentication).
    let app = TestApp::spawn_with(|settings| settings.database.move_connections = 3).await;
    assert_eq!(app.domain.moves.connections().status(), (3, 3, 3), "(open, idle, at most)");
}
