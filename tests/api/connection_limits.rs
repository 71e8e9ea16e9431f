//! Issue 36 §1: no single client takes the site down with connections. Silent
//! connections are closed after the header timeout; one address holds at most its share;
//! at the cap a newcomer takes the place of the connection idle longest; and a flood of
//! silent connections from many loopback addresses, more than the server has file
//! descriptors, leaves the server serving other clients and its embedded cluster running
//! (it used to exhaust the descriptors, make the supervisor misread the cluster as dead
//! and stop it).

use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::time::{Duration, Instant};

use reqwest::StatusCode;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpSocket, TcpStream};

use crate::support::process::{DataDir, ServerProcess};
use crate::support::TestApp;

/// Long enough for anything the server should do at once, so that a wait this long means
/// it did not (a bound against hanging, not a measure of speed).
const NEVER: Duration = Duration::from_secs(60);

/// The loopback address 127.`a`.`b`.`c`.
fn loopback(a: u8, b: u8, c: u8) -> IpAddr {
    IpAddr::V4(Ipv4Addr::new(127, a, b, c))
}

/// A TCP connection to `server` from the source address `from`.
async fn connect_from(from: IpAddr, server: SocketAddr) -> TcpStream {
    let socket = TcpSocket::new_v4().expect("a socket");
    socket.bind(SocketAddr::new(from, 0)).expect("bind the source address");
    socket.connect(server).await.unwrap_or_else(|error| panic!("connect from {from}: {error}"))
}

/// The server's address of a `http://127.0.0.1:port` base URL.
fn socket_address(base: &str) -> SocketAddr {
    base.trim_start_matches("http://").parse().expect("host:port")
}

/// Whether the server closed `stream` within `limit` (end of file or reset), reading and
/// dropping whatever it sent first.
async fn closed_within(stream: &mut TcpStream, limit: Duration) -> bool {
    let deadline = Instant::now() + limit;
    let mut buffer = [0u8; 4096];
    loop {
        let left = deadline.saturating_duration_since(Instant::now());
        match tokio::time::timeout(left, stream.read(&mut buffer)).await {
            Ok(Ok(0) | Err(_)) => return true,
            Ok(Ok(_)) => continue,
            Err(_) => return false,
        }
    }
}

/// A plain `GET path` on `stream`, kept alive; the status line of the answer.
async fn get_on(stream: &mut TcpStream, path: &str) -> String {
    stream
        .write_all(format!("GET {path} HTTP/1.1\r\nHost: tavoliere\r\n\r\n").as_bytes())
        .await
        .expect("send a request");
    let mut answer = Vec::new();
    let mut buffer = [0u8; 4096];
    while !answer.windows(4).any(|w| w == b"\r\n\r\n") {
        let read =
            tokio::time::timeout(NEVER, stream.read(&mut buffer)).await.expect("an answer").expect("read");
        assert!(read > 0, "closed before answering");
        answer.extend_from_slice(&buffer[..read]);
    }
    String::from_utf8_lossy(&answer).lines().next().unwrap_or_default().to_owned()
}

#[tokio::test]
async fn silent_half_sent_and_idle_connections_are_closed_after_the_header_timeout() {
    let app = TestApp::spawn_with(|settings| settings.application.header_timeout_seconds = 1).await;
    let server = socket_address(&app.address);
    let mut silent = connect_from(loopback(0, 0, 1), server).await;
    let mut half = connect_from(loopback(0, 0, 1), server).await;
    half.write_all(b"GET /healthz HT").await.unwrap();
    let mut kept_alive = connect_from(loopback(0, 0, 1), server).await;
    assert_eq!(get_on(&mut kept_alive, "/healthz").await, "HTTP/1.1 200 OK", "a prompt request is answered");

    assert!(closed_within(&mut silent, NEVER).await, "a connection that sends nothing is closed");
    assert!(closed_within(&mut half, NEVER).await, "a connection that sends half a request line is closed");
    assert!(closed_within(&mut kept_alive, NEVER).await, "an idle kept-alive connection is closed");
}

#[tokio::test]
async fn one_address_holds_at_most_its_share_of_connections() {
    let app = TestApp::spawn_with(|settings| {
        settings.application.max_connections_per_address = 5;
        settings.application.header_timeout_seconds = 600;
    })
    .await;
    let server = socket_address(&app.address);
    let greedy = loopback(0, 0, 2);
    let mut held = Vec::new();
    for _ in 0..5 {
        held.push(connect_from(greedy, server).await);
    }
    let mut sixth = connect_from(greedy, server).await;
    assert!(
        closed_within(&mut sixth, NEVER).await,
        "the sixth connection from one address is closed at once"
    );

    // Another address is served, and the five connections in use are left alone.
    let mut other = connect_from(loopback(0, 0, 3), server).await;
    assert_eq!(get_on(&mut other, "/healthz").await, "HTTP/1.1 200 OK");
    assert_eq!(
        get_on(&mut held[0], "/healthz").await,
        "HTTP/1.1 200 OK",
        "the address's own connections still work"
    );
    for stream in &mut held[1..] {
        assert!(!closed_within(stream, Duration::from_millis(200)).await, "not closed by the refusal");
    }
}

#[tokio::test]
async fn at_the_cap_a_newcomer_takes_the_place_of_the_connection_idle_longest() {
    let app = TestApp::spawn_with(|settings| {
        settings.application.max_connections = 10;
        settings.application.header_timeout_seconds = 600;
    })
    .await;
    let server = socket_address(&app.address);
    let mut silent = Vec::new();
    for host in 0..10 {
        silent.push(connect_from(loopback(0, 1, host + 1), server).await);
    }
    // Eleventh, from another address: answered, in the place of the first silent one.
    let reply = tokio::time::timeout(NEVER, app.client.get(format!("{}/healthz", app.address)).send())
        .await
        .expect("an answer at the cap")
        .expect("served");
    assert_eq!(reply.status(), StatusCode::OK);
    assert!(closed_within(&mut silent[0], NEVER).await, "the connection idle longest made room");
    for stream in &mut silent[1..] {
        assert!(!closed_within(stream, Duration::from_millis(100)).await, "the others stay open");
    }
}

/// The postmaster's process id of the cluster in `data_dir`.
fn postmaster_pid(data_dir: &std::path::Path) -> libc::pid_t {
    let pid_file = std::fs::read_to_string(data_dir.join("postmaster.pid")).expect("a running cluster");
    pid_file.lines().next().unwrap().trim().parse().unwrap()
}

#[tokio::test(flavor = "multi_thread")]
async fn a_flood_of_silent_connections_from_many_addresses_leaves_the_server_and_its_cluster_serving() {
    use std::os::unix::process::CommandExt;
    // The server gets the machine's usual limit of 20,000 descriptors and the flood is
    // larger; this process needs as many for its side of the flood (as root it may raise
    // its own hard limit; otherwise the same test at a smaller scale).
    let (server_limit, flood) = match rlimit::setrlimit(rlimit::Resource::NOFILE, 40_000, 40_000) {
        Ok(()) => (20_000_u64, 21_000_usize),
        Err(_) => {
            let (_, hard) = rlimit::Resource::NOFILE.get().expect("this process's limits");
            let _ = rlimit::increase_nofile_limit(hard);
            (hard / 4, usize::try_from(hard / 4 + 1_000).unwrap())
        }
    };
    let data_dir = DataDir::new();
    let directory = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let data = data_dir.0.display().to_string();
    let mut server = tokio::task::block_in_place(|| {
        ServerProcess::start_configured(
            directory,
            &[
                ("TAVOLIERE_DATABASE__EMBEDDED_DATA_DIR", data.as_str()),
                ("TAVOLIERE_APPLICATION__HEADER_TIMEOUT_SECONDS", "5"),
            ],
            |command| {
                // SAFETY: setrlimit is async-signal-safe; the closure allocates nothing.
                unsafe {
                    command.pre_exec(move || {
                        rlimit::setrlimit(rlimit::Resource::NOFILE, server_limit, server_limit)
                    });
                }
            },
        )
    });
    let postmaster = postmaster_pid(&data_dir.0);
    let address = socket_address(&server.address);

    // One connection from each of `flood` addresses 127.20.x.y, none of which sends anything.
    let started = Instant::now();
    let mut silent = Vec::with_capacity(flood);
    for i in 0..flood {
        let (high, low) = (i / 250, i % 250);
        let from = loopback(
            20 + u8::try_from(high / 250).unwrap(),
            u8::try_from(high % 250).unwrap(),
            u8::try_from(low + 1).unwrap(),
        );
        silent.push(connect_from(from, address).await);
    }
    let flooded_in = started.elapsed();

    // Another address is answered while the flood holds every place it can.
    let client = reqwest::Client::new();
    let asked = Instant::now();
    let ready = tokio::time::timeout(NEVER, client.get(format!("{}/readyz", server.address)).send())
        .await
        .expect("an answer during the flood")
        .expect("served during the flood");
    let answered_in = asked.elapsed();
    assert_eq!(ready.status(), StatusCode::OK, "the database is up: {:#?}", server.log());

    // The silent connections are closed: those over the cap at once, the rest by the
    // header timeout.
    let mut open = 0;
    for stream in &mut silent {
        if !closed_within(stream, NEVER).await {
            open += 1;
        }
    }
    assert_eq!(open, 0, "every silent connection is closed");
    eprintln!(
        "{flood} silent connections against a server limited to {server_limit} descriptors: opened in {flooded_in:?}, \
         another address answered in {answered_in:?}, all closed {:?} after the flood began",
        started.elapsed()
    );

    assert!(server.is_running(), "the server stays up: {:#?}", server.log());
    assert_eq!(postmaster_pid(&data_dir.0), postmaster, "the cluster was neither stopped nor restarted");
    // SAFETY: signal 0 only checks that the process exists.
    assert_eq!(unsafe { libc::kill(postmaster, 0) }, 0, "the postmaster lives");
    let log = server.log().join("\n");
    assert!(!log.contains("died") && !log.contains("cannot be restarted"), "{log}");
    let again =
        client.get(format!("{}/readyz", server.address)).send().await.expect("served after the flood");
    assert_eq!(again.status(), StatusCode::OK);
    drop(silent);
    let status = tokio::task::block_in_place(|| server.terminate()).expect("exits on SIGTERM");
    assert!(status.success(), "a clean exit: {status:?}");
}
