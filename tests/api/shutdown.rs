//! Graceful shutdown of a real server process whose database stopped answering: it ends
//! within seconds, and a second SIGTERM ends it at once.

use std::time::Duration;

use reqwest::StatusCode;
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::watch;

use crate::support::process::ServerProcess;
use crate::support::Cluster;

/// A TCP relay to the test cluster that can stall, as a database that stops answering
/// does (a hung server, a network partition): connections stay open, nothing comes back.
struct DatabaseRelay {
    port: u16,
    state: watch::Sender<Relay>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Relay {
    Relaying,
    Stalled,
    /// The relay is dropped: every connection is closed.
    Gone,
}

impl DatabaseRelay {
    async fn to(target: u16) -> DatabaseRelay {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let port = listener.local_addr().unwrap().port();
        let (state, state_rx) = watch::channel(Relay::Relaying);
        tokio::spawn(async move {
            loop {
                let Ok((mut client, _)) = listener.accept().await else { return };
                let mut state = state_rx.clone();
                tokio::spawn(async move {
                    if *state.borrow() == Relay::Relaying {
                        let Ok(mut server) = TcpStream::connect(("127.0.0.1", target)).await else { return };
                        tokio::select! {
                            _ = tokio::io::copy_bidirectional(&mut client, &mut server) => return,
                            _ = state.wait_for(|s| *s != Relay::Relaying) => {}
                        }
                        // Stalled: both ends stay open, silent, until the relay is gone.
                        let _ = state.wait_for(|s| *s == Relay::Gone).await;
                        drop(server);
                    } else {
                        let _ = state.wait_for(|s| *s == Relay::Gone).await;
                    }
                    drop(client);
                });
            }
        });
        DatabaseRelay { port, state }
    }

    /// From now on nothing gets through, and nothing is closed either.
    fn stall(&self) {
        let _ = self.state.send(Relay::Stalled);
    }
}

impl Drop for DatabaseRelay {
    fn drop(&mut self) {
        let _ = self.state.send(Relay::Gone);
    }
}

/// A server process on a fresh test database reached through a relay, with `settings`.
async fn server_behind_relay(settings: &[(&str, &str)]) -> (ServerProcess, DatabaseRelay) {
    let url = Cluster::get().fresh_database().await;
    // postgres://tavoliere:<password>@127.0.0.1:<port>/<database>
    let (head, rest) = url.split_once("127.0.0.1:").expect("a local URL");
    let (port, database) = rest.split_once('/').expect("a database name");
    let relay = DatabaseRelay::to(port.parse().unwrap()).await;
    let relayed = format!("{head}127.0.0.1:{}/{database}", relay.port);
    let mut all = vec![("TAVOLIERE_DATABASE__URL", relayed.as_str())];
    all.extend_from_slice(settings);
    let server = tokio::task::block_in_place(|| ServerProcess::start_with(&all));
    (server, relay)
}

async fn health(server: &ServerProcess) -> StatusCode {
    reqwest::get(format!("{}/healthz", server.address)).await.expect("health check").status()
}

/// Runs `tavoliere ready` configured with `server`'s port (the Dockerfile's health check):
/// whether it succeeded, and what it printed (both streams).
fn ready_command(server: &ServerProcess) -> (bool, String) {
    let port = server.address.rsplit(':').next().expect("a port");
    let output = std::process::Command::new(env!("CARGO_BIN_EXE_tavoliere"))
        .arg("ready")
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .env("TAVOLIERE_APPLICATION__PORT", port)
        .output()
        .expect("tavoliere ready runs");
    let said =
        format!("{}{}", String::from_utf8_lossy(&output.stdout), String::from_utf8_lossy(&output.stderr));
    (output.status.success(), said)
}

/// Waits (off the runtime) for the process to exit, `limit` at most.
fn wait(server: &mut ServerProcess, limit: Duration) -> Option<std::process::ExitStatus> {
    tokio::task::block_in_place(|| server.wait_for_exit(limit))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_graceful_shutdown_with_the_database_down_ends_within_seconds() {
    let (mut server, relay) = server_behind_relay(&[]).await;
    assert_eq!(health(&server).await, StatusCode::OK);
    relay.stall();
    server.signal(libc::SIGTERM);
    // Every step waiting for the database would wait for ever (no answer, no error); the
    // grace (4 s for the requests, 4 s for the background tasks) bounds them.
    let status = wait(&mut server, Duration::from_secs(30)).expect("the server exits");
    assert!(status.success(), "{status:?}; log: {:#?}", server.log());
    // It was the grace that ended the wait (the log is read by a thread: give it a moment).
    let mut bounded = false;
    for _ in 0..40 {
        bounded = server.log().iter().any(|line| line.contains("did not finish in time"));
        if bounded {
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert!(bounded, "log: {:#?}", server.log());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_second_sigterm_ends_a_slow_shutdown_at_once() {
    // A grace far longer than the test: only the second signal can end it in time.
    let (mut server, relay) =
        server_behind_relay(&[("TAVOLIERE_APPLICATION__SHUTDOWN_GRACE_SECONDS", "600")]).await;
    assert_eq!(health(&server).await, StatusCode::OK);
    relay.stall();
    server.signal(libc::SIGTERM);
    tokio::time::sleep(Duration::from_secs(1)).await;
    assert!(wait(&mut server, Duration::ZERO).is_none(), "still shutting down, waiting for the database");
    server.signal(libc::SIGTERM);
    let status = wait(&mut server, Duration::from_secs(30)).expect("the second SIGTERM is not ignored");
    assert_eq!(status.code(), Some(1), "ended by the second signal; log: {:#?}", server.log());
}

/// Issue 40 §3: behind a load balancer. On SIGTERM `/readyz` answers 503 at once (the
/// balancer stops sending new work), requests go on being served during the drain, then
/// the live sockets are told to go (1001, their clients reconnect elsewhere and resume)
/// and the process exits cleanly.
#[tokio::test(flavor = "multi_thread")]
async fn on_sigterm_readiness_fails_at_once_the_drain_serves_and_live_sockets_are_told_to_reconnect() {
    use futures::StreamExt;
    use tokio_tungstenite::tungstenite::Message;
    let database_url = Cluster::get().fresh_database().await;
    let mut server = tokio::task::block_in_place(|| {
        ServerProcess::start_with(&[
            ("TAVOLIERE_DATABASE__URL", &database_url),
            ("TAVOLIERE_APPLICATION__DRAIN_SECONDS", "3"),
        ])
    });
    let app = crate::support::TestApp::attach(&server.address, &database_url).await;
    let (red, black) = (app.register("red").await, app.register("black").await);
    let game = app.start_game("xiangqi", &red, &black, crate::support::three_days()).await;
    let socket_url = format!("{}/api/games/{game}/socket", server.address.replace("http://", "ws://"));
    let (mut socket, _) = tokio_tungstenite::connect_async(socket_url).await.expect("a live socket");
    assert_eq!(health(&server).await, StatusCode::OK);
    let (ready, said) = ready_command(&server);
    assert!(ready, "`tavoliere ready` on a serving server: {said}");
    assert!(said.lines().any(|line| line.trim() == "ready"), "{said}");

    server.signal(libc::SIGTERM);
    let mut refused = None;
    for _ in 0..100 {
        let reply =
            reqwest::get(format!("{}/readyz", server.address)).await.expect("served during the drain");
        if reply.status() == StatusCode::SERVICE_UNAVAILABLE {
            refused = Some(reply.text().await.unwrap());
            break;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    let refused = refused.expect("readiness fails once told to stop");
    assert!(refused.contains("unavailable.stopping"), "{refused}");
    // The container's health check says the same.
    let (ready, said) = ready_command(&server);
    assert!(!ready, "`tavoliere ready` on a draining server: {said}");
    assert!(said.contains("503"), "{said}");
    // Draining: still served.
    assert_eq!(app.game(game).await["id"], game, "a request during the drain is answered");
    assert_eq!(app.post_move(&red, game, "h2e2", 0).await.status, StatusCode::CREATED, "and a move stored");

    // Then the live socket is told to reconnect elsewhere.
    let mut close = None;
    while let Some(frame) =
        tokio::time::timeout(Duration::from_secs(60), socket.next()).await.expect("the socket is closed")
    {
        if let Ok(Message::Close(frame)) = frame {
            close = frame;
            break;
        }
    }
    let close = close.expect("a close frame");
    assert_eq!(u16::from(close.code), 1001, "going away: {close:?}");
    let status = wait(&mut server, Duration::from_secs(60)).expect("the server exits");
    assert!(status.success(), "{status:?}");
}
