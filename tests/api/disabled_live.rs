//! An admin disabling an account cuts its open live sockets on every instance (issue 20
//! §1): the instances hear it on PostgreSQL's LISTEN/NOTIFY, close the account's sockets
//! with an `account_disabled` error and code 1008, and nothing it sends afterwards is
//! played; the other player's socket stays open.

use std::time::Duration;

use futures::{SinkExt, StreamExt};
use reqwest::StatusCode;
use serde_json::{json, Value};
use tokio_tungstenite::tungstenite::Message;

use crate::admin::{first_admin, patch_account};
use crate::live::Socket;
use crate::support::TestApp;

/// Reads `socket` until it closes: the events before the close and the close frame's code.
async fn until_closed(socket: &mut Socket) -> (Vec<Value>, Option<u16>) {
    let mut events = Vec::new();
    loop {
        let frame = tokio::time::timeout(Duration::from_secs(5), socket.ws.next())
            .await
            .expect("the socket closes within 5 s");
        match frame {
            Some(Ok(Message::Text(text))) => events.push(serde_json::from_str(text.as_str()).unwrap()),
            Some(Ok(Message::Close(close))) => return (events, close.map(|c| u16::from(c.code))),
            Some(Ok(_)) => {}
            None | Some(Err(_)) => return (events, None),
        }
    }
}

#[tokio::test]
async fn disabling_an_account_closes_its_sockets_on_every_instance_and_refuses_its_moves() {
    let first = TestApp::spawn().await;
    let second = TestApp::spawn_on(&first.database_url, first.clock.clone()).await;
    let boss = first_admin(&first).await;
    let red = first.register("red").await;
    let black = first.register("black").await;
    let live = json!({"kind": "live-fischer", "base_seconds": 180, "increment_seconds": 2});
    let game = first.start_game("xiangqi", &red, &black, live).await;

    // Black watches on both instances, Red plays on the second.
    let mut black_here = Socket::open(&first, game, Some(&black), None).await;
    let mut black_there = Socket::open(&second, game, Some(&black), None).await;
    let mut red_socket = Socket::open(&second, game, Some(&red), None).await;
    for socket in [&mut black_here, &mut black_there, &mut red_socket] {
        socket.next_of("state").await;
    }
    red_socket.play("h2e2", 0).await;
    black_there.next_of("move").await;
    black_here.next_of("move").await;

    // The admin disables Black on the first instance: both of Black's sockets close.
    let reply = patch_account(&first, &boss, "black", json!({"disabled": true})).await;
    assert_eq!(reply.expect(StatusCode::OK)["disabled"], true);
    for socket in [&mut black_here, &mut black_there] {
        let (events, code) = until_closed(socket).await;
        let last = events.last().expect("an error event before the close");
        assert_eq!((last["type"].as_str(), last["code"].as_str()), (Some("error"), Some("account_disabled")));
        assert_eq!(code, Some(1008), "closed as a policy violation");
        // Whatever the client still sends is not read.
        let _ = socket
            .ws
            .send(Message::text(json!({"type": "move", "move": "h9g7", "ply": 1}).to_string()))
            .await;
    }
    // A new socket of the account is refused at the handshake on either instance.
    for app in [&first, &second] {
        let base = app.address.replacen("http://", "ws://", 1);
        let mut request = tokio_tungstenite::tungstenite::client::IntoClientRequest::into_client_request(
            format!("{base}/api/games/{game}/socket"),
        )
        .unwrap();
        request.headers_mut().insert("authorization", format!("Bearer {}", black.token).parse().unwrap());
        match tokio_tungstenite::connect_async(request).await {
            Err(tokio_tungstenite::tungstenite::Error::Http(response)) => {
                assert_eq!(response.status(), StatusCode::UNAUTHORIZED)
            }
            other => panic!("the handshake of a disabled account is refused: {:?}", other.map(|_| ())),
        }
    }
    // Nothing of Black's was played; Red's socket is still open and hears no move.
    assert_eq!(first.stored_moves(game).await, 1);
    red_socket.send(json!({"type": "ping", "id": 7})).await;
    assert_eq!(red_socket.next_of("pong").await["id"], 7);
    assert_eq!(first.game(game).await["ply"], 1);
}
