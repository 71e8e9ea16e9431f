//! Live games over real WebSockets (tokio-tungstenite) against servers on port 0.

use std::time::Duration;

use futures::{SinkExt, StreamExt};
use reqwest::StatusCode;
use serde_json::{json, Value};
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream};

use crate::support::process::ServerProcess;
use crate::support::{TestApp, User};

/// Three minutes plus two seconds a move.
fn blitz() -> Value {
    json!({"kind": "live-fischer", "base_seconds": 180, "increment_seconds": 2})
}

/// The first Xiangqi moves of both sides (ICCS), all legal in this order.
const OPENING: [&str; 6] = ["h2e2", "h9g7", "h0g2", "i9h9", "i0h0", "b9c7"];

pub(crate) struct Socket {
    pub(crate) ws: WebSocketStream<MaybeTlsStream<TcpStream>>,
}

impl Socket {
    pub(crate) async fn open(
        app: &TestApp,
        game: i64,
        user: Option<&User>,
        since_ply: Option<i64>,
    ) -> Socket {
        let base = app.address.replacen("http://", "ws://", 1);
        let url = match since_ply {
            Some(ply) => format!("{base}/api/games/{game}/socket?since_ply={ply}"),
            None => format!("{base}/api/games/{game}/socket"),
        };
        let mut request = url.into_client_request().unwrap();
        if let Some(user) = user {
            request.headers_mut().insert("authorization", format!("Bearer {}", user.token).parse().unwrap());
        }
        let (ws, _) = tokio_tungstenite::connect_async(request).await.expect("websocket handshake");
        Socket { ws }
    }

    pub(crate) async fn send(&mut self, message: Value) {
        self.ws.send(Message::text(message.to_string())).await.expect("send");
    }

    pub(crate) async fn send_raw(&mut self, text: String) {
        self.ws.send(Message::text(text)).await.expect("send");
    }

    /// The next JSON event (5 s at most).
    pub(crate) async fn next(&mut self) -> Value {
        self.next_within(Duration::from_secs(5)).await.expect("an event within 5 s")
    }

    /// The next JSON event, `None` if none comes within `wait`.
    pub(crate) async fn next_within(&mut self, wait: Duration) -> Option<Value> {
        loop {
            let frame = tokio::time::timeout(wait, self.ws.next())
                .await
                .ok()?
                .expect("the socket is open")
                .expect("a frame");
            match frame {
                Message::Text(text) => return Some(serde_json::from_str(text.as_str()).expect("JSON event")),
                Message::Close(close) => panic!("socket closed: {close:?}"),
                _ => continue,
            }
        }
    }

    /// The next event of type `kind`, skipping others (watcher counts, clocks...).
    pub(crate) async fn next_of(&mut self, kind: &str) -> Value {
        loop {
            let event = self.next().await;
            if event["type"] == kind {
                return event;
            }
            assert_ne!(event["type"], "error", "unexpected error while waiting for {kind}: {event}");
        }
    }

    /// Reads events until a `state` or `watchers` event counts `count` watchers (fails
    /// after 5 s without one).
    pub(crate) async fn watchers_reach(&mut self, count: i64) {
        loop {
            let event = self.next().await;
            let seen = match event["type"].as_str() {
                Some("watchers") => &event["count"],
                Some("state" | "resume") => &event["watchers"],
                _ => continue,
            };
            if *seen == count {
                return;
            }
        }
    }

    pub(crate) async fn play(&mut self, text: &str, ply: i64) {
        self.send(json!({"type": "move", "move": text, "ply": ply})).await;
    }
}

/// Plays [`OPENING`] from two sockets in turn (connected to different instances): each
/// move must reach the other socket, and come back to the mover.
async fn play_opening_across(red: &mut Socket, black: &mut Socket) {
    for (ply, text) in OPENING.iter().enumerate() {
        let (mover, opponent) =
            if ply % 2 == 0 { (&mut *red, &mut *black) } else { (&mut *black, &mut *red) };
        mover.play(text, ply as i64).await;
        let seen = opponent.next_of("move").await;
        assert_eq!(seen["move"]["ply"], ply as i64 + 1, "the move reached the other instance");
        assert_eq!(seen["move"]["canonical"], *text);
        assert_eq!(mover.next_of("move").await["move"]["ply"], ply as i64 + 1);
    }
}

async fn live_game(app: &TestApp) -> (User, User, i64) {
    let red = app.register("red").await;
    let black = app.register("black").await;
    let game = app.start_game("xiangqi", &red, &black, blitz()).await;
    (red, black, game)
}

#[tokio::test]
async fn a_whole_live_game_is_played_and_watched_over_sockets() {
    let app = TestApp::spawn().await;
    let (red, black, game) = live_game(&app).await;
    let mut red_socket = Socket::open(&app, game, Some(&red), None).await;
    let state = red_socket.next_of("state").await;
    assert_eq!(state["you"], 0);
    assert_eq!(state["game"]["ply"], 0);
    assert_eq!(state["clock"]["remaining_ms"], json!([180_000, 180_000]));
    let mut black_socket = Socket::open(&app, game, Some(&black), None).await;
    assert_eq!(black_socket.next_of("state").await["you"], 1);
    let mut spectator = Socket::open(&app, game, None, None).await;
    let seen = spectator.next_of("state").await;
    assert_eq!(seen["you"], Value::Null);
    assert_eq!(seen["watchers"], 3, "three sockets watch the game");

    for (ply, text) in OPENING.iter().enumerate() {
        let (mover, opponent) = if ply % 2 == 0 {
            (&mut red_socket, &mut black_socket)
        } else {
            (&mut black_socket, &mut red_socket)
        };
        mover.play(text, ply as i64).await;
        for socket in [mover, opponent, &mut spectator] {
            let event = socket.next_of("move").await;
            assert_eq!(event["move"]["ply"], ply as i64 + 1);
            assert_eq!(event["move"]["canonical"], *text);
            let clock = socket.next_of("clock").await;
            if ply == 0 {
                // Black has yet to move: its clock waits for its first move (issue 37 §5).
                assert_eq!(clock["running_seat"], Value::Null, "{clock}");
                assert_eq!(clock["first_move_seat"], 1, "{clock}");
            } else {
                assert_eq!(clock["running_seat"], (ply as i64 + 1) % 2);
                assert_eq!(clock["first_move_seat"], Value::Null);
            }
        }
    }
    // Spectators may only watch.
    spectator.play("h7h0", 6).await;
    assert_eq!(spectator.next_of("error").await["code"], "unauthorized");

    black_socket.send(json!({"type": "draw", "action": "offer"})).await;
    assert_eq!(red_socket.next_of("draw_offer").await["seat"], 1);
    assert_eq!(black_socket.next_of("draw_offer").await["seat"], 1, "the offerer sees its offer too");
    red_socket.send(json!({"type": "draw", "action": "decline"})).await;
    assert_eq!(black_socket.next_of("draw_offer").await["seat"], Value::Null);
    black_socket.send(json!({"type": "resign"})).await;
    for socket in [&mut red_socket, &mut black_socket, &mut spectator] {
        let result = socket.next_of("result").await;
        assert_eq!(result["result"], "1-0");
        assert_eq!(result["reason"], "resignation");
    }
    let stored = app.game(game).await;
    assert_eq!(stored["ply"], 6, "the REST API sees the moves made over the socket");
    assert_eq!(stored["status"], "finished");
    assert_eq!(app.stored_moves(game).await, 6);
}

#[tokio::test]
async fn a_reconnecting_client_resumes_from_its_last_ply() {
    let app = TestApp::spawn().await;
    let (red, black, game) = live_game(&app).await;
    let mut red_socket = Socket::open(&app, game, Some(&red), None).await;
    red_socket.next_of("state").await;
    red_socket.play(OPENING[0], 0).await;
    red_socket.next_of("move").await;
    drop(red_socket);
    // Meanwhile black moves through REST: the same domain function.
    app.post_move(&black, game, OPENING[1], 1).await.expect(StatusCode::CREATED);

    let mut red_socket = Socket::open(&app, game, Some(&red), Some(1)).await;
    let resume = red_socket.next().await;
    assert_eq!(resume["type"], "resume", "{resume}");
    assert_eq!(resume["since_ply"], 1);
    assert_eq!(resume["ply"], 2);
    let missed = red_socket.next_of("move").await;
    assert_eq!(missed["move"]["ply"], 2, "exactly the missed move, no gap and no repeat");
    assert_eq!(missed["move"]["canonical"], OPENING[1]);
    assert!(missed["position"].is_string());
    red_socket.play(OPENING[2], 2).await;
    assert_eq!(red_socket.next_of("move").await["move"]["ply"], 3);
}

#[tokio::test]
async fn a_player_out_of_time_is_flagged_with_nobody_connected() {
    let app = TestApp::spawn().await;
    let red = app.register("red").await;
    let black = app.register("black").await;
    let control = json!({"kind": "byoyomi", "base_seconds": 5, "period_seconds": 10, "periods": 1});
    let game = app.start_game("xiangqi", &red, &black, control).await;
    // Both sides' first moves: only then does a clock run (issue 37 §5).
    app.post_move(&red, game, OPENING[0], 0).await.expect(StatusCode::CREATED);
    app.post_move(&black, game, OPENING[1], 1).await.expect(StatusCode::CREATED);
    app.post_move(&red, game, OPENING[2], 2).await.expect(StatusCode::CREATED);
    app.clock.advance(time::Duration::seconds(14));
    tokio::time::sleep(Duration::from_millis(200)).await;
    assert_eq!(app.game(game).await["status"], "active", "black still has 1 s of its period");
    app.clock.advance(time::Duration::seconds(2));
    let mut status = Value::Null;
    for _ in 0..100 {
        let view = app.game(game).await;
        if view["status"] != "active" {
            status = view;
            break;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert_eq!(status["status"], "finished", "the live clock task flagged black");
    assert_eq!(status["result"], "1-0");
    assert_eq!(status["reason"], "timeout");
    // A socket opened afterwards sees the result in the state.
    let mut socket = Socket::open(&app, game, None, None).await;
    assert_eq!(socket.next_of("state").await["game"]["reason"], "timeout");
}

#[tokio::test]
async fn two_instances_on_one_database_relay_moves_to_each_other() {
    let first = TestApp::spawn().await;
    let second = TestApp::spawn_on(&first.database_url, first.clock.clone()).await;
    let (red, black, game) = live_game(&first).await;
    let mut red_socket = Socket::open(&first, game, Some(&red), None).await;
    let mut black_socket = Socket::open(&second, game, Some(&black), None).await;
    red_socket.next_of("state").await;
    black_socket.next_of("state").await;
    play_opening_across(&mut red_socket, &mut black_socket).await;
    assert_eq!(first.stored_moves(game).await, 6);
}

#[tokio::test]
async fn two_server_processes_relay_alternate_moves_and_flag_a_player_once() {
    let database_url = crate::support::Cluster::get().fresh_database().await;
    let mut first = ServerProcess::start(&database_url);
    let mut second = ServerProcess::start(&database_url);
    let (api_first, api_second) = (
        TestApp::attach(&first.address, &database_url).await,
        TestApp::attach(&second.address, &database_url).await,
    );
    let red = api_first.register("red").await;
    let black = api_second.register("black").await;
    // No main time: every move has a fresh 5 s period, so the flag falls 5 s after the
    // last move (by the processes' real clocks).
    let control = json!({"kind": "byoyomi", "base_seconds": 0, "period_seconds": 5, "periods": 1});
    let game = api_first.start_game("xiangqi", &red, &black, control).await;
    let mut red_socket = Socket::open(&api_first, game, Some(&red), None).await;
    let mut black_socket = Socket::open(&api_second, game, Some(&black), None).await;
    red_socket.next_of("state").await;
    black_socket.next_of("state").await;
    play_opening_across(&mut red_socket, &mut black_socket).await;
    assert_eq!(api_second.stored_moves(game).await, 6);

    // From here on, every change of the game is announced by NOTIFY: count them.
    let mut changes = sqlx::postgres::PgListener::connect(&database_url).await.expect("listen");
    changes.listen(tavoliere::storage::notify::GAME_CHANNEL).await.expect("listen");
    // Red, to move, does not: both processes' clock tasks (every 20 ms) find the game.
    for socket in [&mut red_socket, &mut black_socket] {
        let result = loop {
            let event = socket.next_within(Duration::from_secs(15)).await.expect("the flag within 15 s");
            if event["type"] == "result" {
                break event;
            }
        };
        assert_eq!(result["reason"], "timeout", "{result}");
        assert_eq!(result["result"], "0-1");
    }
    assert!(first.is_running() && second.is_running(), "both processes ran their clock tasks");
    // Give a second flag every chance to happen (many sweep intervals of both).
    let mut notified = Vec::new();
    while let Ok(Ok(notification)) = tokio::time::timeout(Duration::from_millis(500), changes.recv()).await {
        notified.push(notification.payload().to_owned());
    }
    let ours: Vec<&String> = notified.iter().filter(|p| p.starts_with(&format!("{game}:"))).collect();
    assert_eq!(ours.len(), 1, "one change (the flag) was committed, not one per process: {notified:?}");
    for socket in [&mut red_socket, &mut black_socket] {
        while let Some(event) = socket.next_within(Duration::from_millis(200)).await {
            assert_ne!(event["type"], "result", "a second result: {event}");
        }
    }
    let flags: usize = [&first, &second]
        .iter()
        .map(|process| process.log().iter().filter(|l| l.contains("game ended on time")).count())
        .sum();
    assert_eq!(flags, 1, "exactly one process ended the game");
    let stored = api_first.game(game).await;
    assert_eq!(stored["status"], "finished");
    assert_eq!(stored["reason"], "timeout");
    assert!(first.is_running() && second.is_running());
}

#[tokio::test]
async fn watchers_are_counted_over_every_instance() {
    let first = TestApp::spawn().await;
    let second = TestApp::spawn_on(&first.database_url, first.clock.clone()).await;
    let (red, black, game) = live_game(&first).await;
    let mut red_socket = Socket::open(&first, game, Some(&red), None).await;
    assert_eq!(red_socket.next_of("state").await["watchers"], 1);
    let mut black_socket = Socket::open(&second, game, Some(&black), None).await;
    // Each instance hears of the other's socket (they are written as they change).
    red_socket.watchers_reach(2).await;
    black_socket.watchers_reach(2).await;
    let mut spectator = Socket::open(&second, game, None, None).await;
    assert_eq!(spectator.next_of("state").await["watchers"], 3, "one socket on the first, two on the second");
    red_socket.watchers_reach(3).await;
    spectator.ws.close(None).await.expect("close");
    red_socket.watchers_reach(2).await;
    black_socket.watchers_reach(2).await;

    // An instance that died without withdrawing its sockets stops counting once it has
    // missed its heartbeats.
    sqlx::query(
        "insert into live_presence (instance_id, game_id, sockets, seen_at)
         values ('dead', $1, 5, now() - interval '1 hour')",
    )
    .bind(game)
    .execute(&first.domain.pool)
    .await
    .unwrap();
    let mut late = Socket::open(&first, game, None, None).await;
    assert_eq!(late.next_of("state").await["watchers"], 3, "red, black and this one; not the dead five");
}

#[tokio::test]
async fn watcher_counts_of_a_silent_instance_expire_and_its_heartbeat_restores_them() {
    use tavoliere::storage::presence::{self, WATCHERS_CHANNEL};
    let database_url = crate::support::Cluster::get().fresh_database().await;
    let pool = tavoliere::storage::connect(&database_url, 2).await.unwrap();
    let mut announced = sqlx::postgres::PgListener::connect(&database_url).await.unwrap();
    announced.listen(WATCHERS_CHANNEL).await.unwrap();
    let mut next_announcement = async || {
        let notification = tokio::time::timeout(Duration::from_secs(5), announced.recv())
            .await
            .expect("an announcement within 5 s")
            .unwrap();
        notification.payload().to_owned()
    };
    presence::write(&pool, "a", &[(1, 2), (2, 1)]).await.unwrap();
    presence::write(&pool, "b", &[(1, 3)]).await.unwrap();
    assert_eq!(presence::others(&pool, 1, "a", 30.0).await.unwrap(), 3, "b's sockets, seen by a");
    assert_eq!(presence::others(&pool, 1, "b", 30.0).await.unwrap(), 2);
    let mut payloads = Vec::new();
    for _ in 0..3 {
        payloads.push(next_announcement().await);
    }
    payloads.sort();
    assert_eq!(payloads, ["1:a", "1:b", "2:a"], "every written count is announced");

    // b falls silent for longer than the time to live.
    sqlx::query("update live_presence set seen_at = now() - interval '1 minute' where instance_id = 'b'")
        .execute(&pool)
        .await
        .unwrap();
    assert_eq!(presence::others(&pool, 1, "a", 30.0).await.unwrap(), 0, "stale rows do not count");
    presence::prune(&pool, 30.0).await.unwrap();
    assert_eq!(next_announcement().await, "1:b", "the expiry is announced");
    // b was only stalled: its next heartbeat writes its row again and announces it.
    presence::heartbeat(&pool, "b", &[(1, 3)]).await.unwrap();
    assert_eq!(next_announcement().await, "1:b");
    assert_eq!(presence::others(&pool, 1, "a", 30.0).await.unwrap(), 3);
    // A heartbeat that finds its row in place announces nothing.
    presence::heartbeat(&pool, "b", &[(1, 3)]).await.unwrap();
    // a leaves game 2, then shuts down.
    presence::write(&pool, "a", &[(2, 0)]).await.unwrap();
    assert_eq!(next_announcement().await, "2:a", "not the heartbeat's unchanged row");
    presence::withdraw(&pool, "a").await.unwrap();
    assert_eq!(next_announcement().await, "1:a");
    assert_eq!(presence::others(&pool, 1, "b", 30.0).await.unwrap(), 0, "a's sockets are gone");
    let rows: i64 = sqlx::query_scalar("select count(*) from live_presence").fetch_one(&pool).await.unwrap();
    assert_eq!(rows, 1, "only b's row is left");
}

#[tokio::test]
async fn bad_messages_get_error_events_and_nothing_is_stored() {
    let app = TestApp::spawn().await;
    let (red, _black, game) = live_game(&app).await;
    let mut socket = Socket::open(&app, game, Some(&red), None).await;
    socket.next_of("state").await;

    socket.send_raw("{not json".to_owned()).await;
    assert_eq!(socket.next_of("error").await["code"], "malformed");
    socket.send(json!({"type": "castle"})).await;
    assert_eq!(socket.next_of("error").await["code"], "malformed");
    socket.play(OPENING[0], 3).await;
    let stale = socket.next_of("error").await;
    assert_eq!(stale["code"], "conflict", "{stale}");
    assert_eq!(stale["errors"][0]["code"], "move.stale-ply", "{stale}");
    socket.play("a0a5", 0).await; // the chariot cannot jump its own soldier
    let refused = socket.next_of("error").await;
    assert_eq!(refused["code"], "invalid", "the protocol's class, as before");
    // The same code and sentence as over REST (issue 15 §6).
    assert_eq!(refused["errors"][0]["code"], "illegal-move.blocked", "{refused}");
    assert_eq!(refused["errors"][0]["detail"], "a0a5 is not legal: the piece's way is blocked.");
    assert_eq!(refused["message"], refused["errors"][0]["detail"]);
    let huge = json!({"type": "move", "move": "x".repeat(10_000), "ply": 0}).to_string();
    socket.send_raw(huge).await;
    assert_eq!(socket.next_of("error").await["code"], "too_large");
    assert_eq!(app.stored_moves(game).await, 0, "nothing was stored");

    // The socket still works afterwards.
    socket.send(json!({"type": "ping", "id": 7})).await;
    assert_eq!(socket.next_of("pong").await["id"], 7);
    socket.play(OPENING[0], 0).await;
    assert_eq!(socket.next_of("move").await["move"]["ply"], 1);
}

#[tokio::test]
async fn an_unknown_game_has_no_socket() {
    let app = TestApp::spawn().await;
    let base = app.address.replacen("http://", "ws://", 1);
    let refused = tokio_tungstenite::connect_async(format!("{base}/api/games/999/socket")).await;
    match refused {
        Err(tokio_tungstenite::tungstenite::Error::Http(response)) => assert_eq!(response.status(), 404),
        other => panic!("expected a 404, got {other:?}"),
    }
}

#[tokio::test]
async fn an_idle_socket_is_closed() {
    let app = TestApp::spawn_with(|settings| settings.live.idle_timeout_seconds = 1).await;
    let address = app.address.replacen("http://", "ws://", 1);
    let (red, black) = (app.register("red").await, app.register("black").await);
    let game = app.start_game("xiangqi", &red, &black, blitz()).await;
    let (mut ws, _) = tokio_tungstenite::connect_async(format!("{address}/api/games/{game}/socket"))
        .await
        .expect("connect");
    let closed = tokio::time::timeout(Duration::from_secs(5), async {
        while let Some(Ok(frame)) = ws.next().await {
            if let Message::Close(close) = frame {
                return close.map(|c| u16::from(c.code));
            }
        }
        None
    })
    .await
    .expect("closed within 5 s");
    assert_eq!(closed, Some(1001), "closed as idle ('going away')");
}

#[tokio::test]
async fn a_flickering_series_is_one_message_and_one_move_event_per_move() {
    let app = TestApp::spawn().await;
    let white = app.register("white").await;
    let black = app.register("black").await;
    let game = app.start_game("flickering", &white, &black, blitz()).await;
    let mut white_socket = Socket::open(&app, game, Some(&white), None).await;
    white_socket.next_of("state").await;
    let mut black_socket = Socket::open(&app, game, Some(&black), None).await;
    black_socket.next_of("state").await;
    white_socket.play("e2e4, g1f3", 0).await;
    for socket in [&mut white_socket, &mut black_socket] {
        let first = socket.next_of("move").await;
        assert_eq!(first["move"]["canonical"], "e2e4");
        assert_eq!(first["position"], Value::Null, "not the latest move");
        let second = socket.next_of("move").await;
        assert_eq!(second["move"]["canonical"], "g1f3");
        assert_eq!(second["move"]["turn_number"], first["move"]["turn_number"], "one turn");
        assert!(second["position"].as_str().unwrap().contains(" b "), "Black to move");
        // Black's clock waits for its first move (issue 37 §5).
        assert_eq!(socket.next_of("clock").await["first_move_seat"], 1);
    }
    // A series whose second move is illegal: refused whole, nothing stored.
    black_socket.play("e7e5, e5e4", 2).await;
    assert_eq!(black_socket.next_of("error").await["code"], "invalid");
    assert_eq!(app.stored_moves(game).await, 2);
}

#[tokio::test]
async fn a_seat_leaving_a_live_three_seat_game_is_announced() {
    let app = TestApp::spawn().await;
    let mut users = Vec::new();
    for name in ["qin", "chu", "qi_"] {
        users.push(app.register(name).await);
    }
    let challenge = app
        .post(
            "/api/challenges",
            Some(&users[0]),
            json!({"variant": "seven-kingdoms", "seats": 3, "color": "first", "time_control": blitz()}),
        )
        .await;
    let id = challenge.expect(StatusCode::CREATED)["id"].as_i64().unwrap();
    app.post(&format!("/api/challenges/{id}/accept"), Some(&users[1]), json!({}))
        .await
        .expect(StatusCode::OK);
    let game = app.accept(&users[2], id).await;
    let mut watcher = Socket::open(&app, game, None, None).await;
    let state = watcher.next_of("state").await;
    assert_eq!(state["clock"]["remaining_ms"], json!([180_000, 180_000, 180_000]));
    assert_eq!(state["clock"]["running_seat"], 0);
    // Qin resigns on its own turn: its kingdoms leave, the turn passes to Chu's seat.
    let mut qin = Socket::open(&app, game, Some(&users[0]), None).await;
    qin.next_of("state").await;
    qin.send(json!({"type": "resign"})).await;
    let seats = watcher.next_of("seats").await;
    assert_eq!(seats["seats"][0]["status"], "resigned");
    assert_eq!(seats["seats"][1]["status"], "playing");
    assert_eq!(watcher.next_of("clock").await["running_seat"], 1);
    assert_eq!(app.game(game).await["status"], "active", "two alliances are left");
}

#[tokio::test]
async fn a_change_nobody_announced_reaches_the_sockets_by_the_resync() {
    let app = TestApp::spawn_with(|settings| settings.live.resync_interval_ms = 200).await;
    let (red, _black, game) = live_game(&app).await;
    let mut socket = Socket::open(&app, game, Some(&red), None).await;
    socket.next_of("state").await;
    // What an instance that died right after its commit leaves behind: a change of the
    // game (here a draw offer) that no NOTIFY announces.
    sqlx::query("update game set draw_offer_seat = 1 where game_id = $1")
        .bind(game)
        .execute(&app.domain.pool)
        .await
        .unwrap();
    assert_eq!(socket.next_of("draw_offer").await["seat"], 1);
}
