//! Limits of the live sockets over real WebSockets: sockets per address and per account,
//! the message rate of a socket, watcher counts coalesced when a crowd joins.

use std::time::Duration;

use futures::future::join_all;
use futures::StreamExt;
use reqwest::StatusCode;
use serde_json::json;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::Message;

use crate::live::Socket;
use crate::support::{three_days, TestApp, User};

/// A handshake on `game` (as `user`) → the HTTP refusal's status and Retry-After, or
/// `None` when the socket opened (it is closed again at once unless kept in `keep`).
async fn try_open(
    app: &TestApp,
    game: i64,
    user: Option<&User>,
    keep: &mut Vec<Socket>,
) -> Option<(StatusCode, Option<u64>)> {
    let url = format!("{}/api/games/{game}/socket", app.address.replacen("http://", "ws://", 1));
    let mut request = url.into_client_request().unwrap();
    if let Some(user) = user {
        request.headers_mut().insert("authorization", format!("Bearer {}", user.token).parse().unwrap());
    }
    match tokio_tungstenite::connect_async(request).await {
        Ok((ws, _)) => {
            keep.push(Socket { ws });
            None
        }
        Err(tokio_tungstenite::tungstenite::Error::Http(response)) => {
            let retry_after =
                response.headers().get("retry-after").map(|v| v.to_str().unwrap().parse().unwrap());
            Some((response.status(), retry_after))
        }
        Err(other) => panic!("handshake failed: {other}"),
    }
}

async fn a_game(app: &TestApp) -> (User, User, i64) {
    let red = app.register("red").await;
    let black = app.register("black").await;
    let game = app.start_game("xiangqi", &red, &black, three_days()).await;
    (red, black, game)
}

#[tokio::test]
async fn sockets_from_one_address_are_limited_and_a_closed_one_makes_room() {
    let app = TestApp::spawn_with(|settings| settings.live.max_sockets_per_address = 5).await;
    let (_, _, game) = a_game(&app).await;
    let mut open = Vec::new();
    for n in 0..5 {
        assert_eq!(try_open(&app, game, None, &mut open).await, None, "socket {n} opens");
    }
    let (status, retry_after) = try_open(&app, game, None, &mut open).await.expect("the sixth is refused");
    assert_eq!(status, StatusCode::TOO_MANY_REQUESTS);
    assert!(retry_after.is_some_and(|s| s >= 1), "a 429 carries Retry-After");

    let mut closing = open.pop().expect("a socket");
    closing.ws.close(None).await.unwrap();
    drop(closing);
    // The server gives the place back when it has seen the close.
    let mut reopened = false;
    for _ in 0..50 {
        if try_open(&app, game, None, &mut open).await.is_none() {
            reopened = true;
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert!(reopened, "a closed socket makes room for another");
}

#[tokio::test]
async fn sockets_of_one_account_are_limited() {
    let app = TestApp::spawn_with(|settings| settings.live.max_sockets_per_account = 3).await;
    let (red, black, game) = a_game(&app).await;
    let mut open = Vec::new();
    for _ in 0..3 {
        assert_eq!(try_open(&app, game, Some(&red), &mut open).await, None);
    }
    let (status, retry_after) = try_open(&app, game, Some(&red), &mut open).await.expect("refused");
    assert_eq!(status, StatusCode::TOO_MANY_REQUESTS);
    assert!(retry_after.is_some());
    assert_eq!(
        try_open(&app, game, Some(&black), &mut open).await,
        None,
        "another account has its own count"
    );
    assert_eq!(try_open(&app, game, None, &mut open).await, None, "and so do spectators");
}

#[tokio::test]
async fn messages_faster_than_the_rate_are_refused_and_a_flood_closes_the_socket() {
    let app = TestApp::spawn_with(|settings| {
        settings.live.messages_per_second = 1;
        settings.live.message_burst = 3;
    })
    .await;
    let (red, _, game) = a_game(&app).await;
    let mut socket = Socket::open(&app, game, Some(&red), None).await;
    socket.next_of("state").await;
    for id in 0..6 {
        socket.send(json!({"type": "ping", "id": id})).await;
    }
    let (mut pongs, mut refused) = (0, 0);
    while pongs + refused < 6 {
        let event = socket.next().await;
        match event["type"].as_str() {
            Some("pong") => pongs += 1,
            Some("error") => {
                assert_eq!(event["code"], "rate_limited", "{event}");
                refused += 1;
            }
            _ => {}
        }
    }
    assert_eq!((pongs, refused), (3, 3), "the burst is answered, the rest refused");
    // A burst's worth of refused messages in a row, and one more: the socket is closed.
    socket.send(json!({"type": "ping", "id": 99})).await;
    let closed = loop {
        match tokio::time::timeout(Duration::from_secs(5), socket.ws.next()).await {
            Ok(Some(Ok(Message::Close(frame)))) => break frame,
            Ok(Some(Ok(_))) => continue,
            other => panic!("expected a close frame, got {other:?}"),
        }
    };
    assert_eq!(u16::from(closed.expect("a close frame").code), 1008);
}

#[tokio::test]
async fn a_crowd_joining_a_game_gives_a_watcher_a_few_counts_not_one_per_arrival() {
    let app = TestApp::spawn_with(|settings| settings.live.watchers_interval_ms = 1000).await;
    let (_, _, game) = a_game(&app).await;
    let mut watcher = Socket::open(&app, game, None, None).await;
    watcher.next_of("state").await;
    let crowd = join_all((0..40).map(|_| Socket::open(&app, game, None, None))).await;
    let mut counts = Vec::new();
    while counts.last() != Some(&41) {
        let event = watcher.next().await;
        if event["type"] == "watchers" {
            counts.push(event["count"].as_i64().unwrap());
        }
    }
    assert!(counts.len() < 20, "40 arrivals gave {} watcher counts: {counts:?}", counts.len());
    drop(crowd);
}
