//! Issue #19 §2: clean outages. The embedded cluster's postmaster killed under a running
//! server is restarted by the server, and meanwhile every request is answered 503 at once
//! (JSON with `Retry-After`, a page for browsers); a cluster that cannot be restarted makes
//! the server exit non-zero; an external PostgreSQL stopped and started under load is
//! survived without a restart of the server and without losing an acknowledged move; the
//! embedded cluster asks for a password kept in a 0600 file.

use std::os::unix::fs::PermissionsExt;
use std::path::Path;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use reqwest::header::{ACCEPT, RETRY_AFTER};
use reqwest::StatusCode;
use serde_json::{json, Value};
use tavoliere::storage::embedded::EmbeddedPostgres;

use crate::support::process::{DataDir, ServerProcess};

/// Sends SIGKILL to the postmaster of the cluster in `data_dir` (as a crash or the
/// out-of-memory killer would).
fn kill_postmaster(data_dir: &Path) {
    let pid_file = std::fs::read_to_string(data_dir.join("postmaster.pid")).expect("a running cluster");
    let pid: libc::pid_t = pid_file.lines().next().unwrap().trim().parse().unwrap();
    // SAFETY: kill has no memory preconditions; the pid is the test cluster's postmaster.
    assert_eq!(unsafe { libc::kill(pid, libc::SIGKILL) }, 0, "kill the postmaster");
}

async fn sign_up(client: &reqwest::Client, server: &ServerProcess, name: &str) -> String {
    let reply = client
        .post(format!("{}/api/accounts", server.address))
        .json(&json!({"username": name, "password": "a long secret"}))
        .send()
        .await
        .unwrap_or_else(|error| panic!("sign up: {error}; server log: {:#?}", server.log()));
    assert_eq!(reply.status(), StatusCode::CREATED, "sign up {name}");
    let reply = client
        .post(format!("{}/api/tokens", server.address))
        .json(&json!({"username": name, "password": "a long secret"}))
        .send()
        .await
        .expect("log in");
    let body: Value = reply.json().await.expect("token");
    body["token"].as_str().expect("a token").to_owned()
}

/// Polls `path` every 25 ms until its status is `wanted`; the time it took.
async fn until_status(client: &reqwest::Client, url: &str, wanted: StatusCode, limit: Duration) -> Duration {
    let started = Instant::now();
    loop {
        if let Ok(reply) = client.get(url).timeout(Duration::from_secs(5)).send().await {
            if reply.status() == wanted {
                return started.elapsed();
            }
        }
        assert!(started.elapsed() < limit, "{url} did not answer {wanted} within {limit:?}");
        tokio::time::sleep(Duration::from_millis(25)).await;
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn a_killed_embedded_cluster_is_restarted_and_requests_meanwhile_get_503_at_once() {
    let data_dir = DataDir::new();
    let server = tokio::task::block_in_place(|| ServerProcess::start_embedded(&data_dir.0));
    let client = reqwest::Client::new();
    let token = sign_up(&client, &server, "ada").await;
    let me = format!("{}/api/accounts/me", server.address);
    let ready = format!("{}/readyz", server.address);
    assert_eq!(client.get(&ready).send().await.unwrap().status(), StatusCode::OK);

    kill_postmaster(&data_dir.0);
    let to_503 =
        until_status(&client, &ready, StatusCode::SERVICE_UNAVAILABLE, Duration::from_secs(10)).await;

    // Every route answers at once, in the one error shape, with Retry-After...
    let started = Instant::now();
    let refused = client.get(&me).bearer_auth(&token).send().await.unwrap();
    let answered_in = started.elapsed();
    // (unless the cluster is already back, which a fast machine may manage)
    if refused.status() == StatusCode::SERVICE_UNAVAILABLE {
        assert!(answered_in < Duration::from_secs(2), "refused in {answered_in:?}");
        assert_eq!(refused.headers()[RETRY_AFTER], "2");
        // An outage's answers are requests like any other (issue 40 §5): a request id,
        // a line of the access log with the client and the account, and counted by route.
        let id = refused.headers().get("x-request-id").expect("a request id").to_str().unwrap().to_owned();
        let mut logged = None;
        for _ in 0..100 {
            logged = server.log().into_iter().find(|line| line.contains(&id) && line.contains("status=503"));
            if logged.is_some() {
                break;
            }
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        let logged = logged.unwrap_or_else(|| panic!("no access-log line for {id}: {:#?}", server.log()));
        assert!(logged.contains("client=127.0.0.1"), "{logged}");
        let metrics =
            client.get(format!("{}/metrics", server.address)).send().await.unwrap().text().await.unwrap();
        assert!(
            metrics.lines().any(|line| line.starts_with("tavoliere_http_requests_total")
                && line.contains(r#"route="/api/accounts/me""#)
                && line.contains(r#"status="503""#)),
            "{metrics}"
        );
        assert!(metrics.contains("tavoliere_database_outages_total 1"), "the outage is counted: {metrics}");
        assert!(metrics.contains("# HELP tavoliere_database_outages_total"), "{metrics}");
        let body: Value = refused.json().await.unwrap();
        assert_eq!(body["errors"][0]["code"], "unavailable", "{body}");
        // ...browsers get a page saying so, and liveness holds.
        let page =
            client.get(format!("{}/login", server.address)).header(ACCEPT, "text/html").send().await.unwrap();
        if page.status() == StatusCode::SERVICE_UNAVAILABLE {
            assert!(page.text().await.unwrap().contains("Back in a moment"));
        }
    }
    assert_eq!(
        client.get(format!("{}/healthz", server.address)).send().await.unwrap().status(),
        StatusCode::OK
    );

    let to_ready = until_status(&client, &ready, StatusCode::OK, Duration::from_secs(60)).await;
    let me_again = client.get(&me).bearer_auth(&token).send().await.unwrap();
    assert_eq!(me_again.status(), StatusCode::OK, "the account survived: the same cluster came back");
    // The supervisor's log line may follow the readiness by a moment.
    let mut log = server.log().join("\n");
    for _ in 0..100 {
        if log.contains("running again") {
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
        log = server.log().join("\n");
    }
    assert!(log.contains("died; restarting"), "{log}");
    assert!(log.contains("running again"), "{log}");
    eprintln!("embedded cluster killed: 503 after {to_503:?}; ready again after {to_ready:?} more");
}

#[tokio::test(flavor = "multi_thread")]
async fn a_cluster_that_cannot_be_restarted_makes_the_server_exit_non_zero() {
    let data_dir = DataDir::new();
    let mut server = tokio::task::block_in_place(|| ServerProcess::start_embedded(&data_dir.0));
    // The cluster cannot start again without its control file.
    let control = data_dir.0.join("global/pg_control");
    std::fs::rename(&control, data_dir.0.join("global/pg_control.hidden")).expect("hide pg_control");
    kill_postmaster(&data_dir.0);
    let status = tokio::task::block_in_place(|| server.wait_for_exit(Duration::from_secs(90)))
        .expect("the server gives up and exits");
    assert!(!status.success(), "exits non-zero so that its supervisor restarts it: {status:?}");
    let log = server.log().join("\n");
    assert!(log.contains("cannot be restarted"), "{log}");
    std::fs::rename(data_dir.0.join("global/pg_control.hidden"), &control).ok();
}

#[tokio::test(flavor = "multi_thread")]
async fn the_embedded_cluster_asks_for_the_password_kept_in_a_private_file() {
    let data_dir = DataDir::new();
    let cluster = EmbeddedPostgres::start(&data_dir.0, 0).expect("start");
    let password_file = data_dir.0.join("tavoliere.password");
    let mode = std::fs::metadata(&password_file).expect("the password file").permissions().mode();
    assert_eq!(mode & 0o777, 0o600, "readable by its owner only");
    let with_password = cluster.url("postgres");
    let without = with_password.replace(&format!(":{}@", cluster.password()), "@");
    assert_ne!(with_password, without);
    assert!(tavoliere::storage::connect(&with_password, 1).await.is_ok());
    let refused = tavoliere::storage::connect(&without, 1).await.expect_err("no password, no entry");
    assert!(format!("{refused:#}").contains("password"), "{refused:#}");
    drop(cluster);

    // A cluster created by an older Tavoliere trusted every local user: at its next start
    // it gets a password and asks for it.
    let hba = data_dir.0.join("pg_hba.conf");
    let text = std::fs::read_to_string(&hba).unwrap().replace("scram-sha-256", "trust");
    std::fs::write(&hba, text).unwrap();
    std::fs::remove_file(&password_file).unwrap();
    let cluster = EmbeddedPostgres::start(&data_dir.0, 0).expect("start the old cluster");
    assert!(password_file.exists(), "a new password was made");
    assert!(tavoliere::storage::connect(&cluster.url("postgres"), 1).await.is_ok());
    let without = cluster.url("postgres").replace(&format!(":{}@", cluster.password()), "@");
    assert!(tavoliere::storage::connect(&without, 1).await.is_err(), "trust is gone");
    cluster.stop_and_delete().expect("clean up");
}

/// Issue 40 §1: a rolling upgrade from a release whose cluster trusted local users. The new
/// release starts beside the old one, which connects without a password: the cluster gets
/// its password at once but goes on trusting until the old process has left, then asks
/// for the password.
#[tokio::test(flavor = "multi_thread")]
async fn an_older_release_still_running_gets_in_until_it_leaves_then_the_cluster_asks_for_its_password() {
    let data_dir = DataDir::new();
    let cluster = EmbeddedPostgres::start(&data_dir.0, 0).expect("start");
    drop(cluster);
    // The older release's cluster: trust, no password file.
    let hba = data_dir.0.join("pg_hba.conf");
    let text = std::fs::read_to_string(&hba).unwrap().replace("scram-sha-256", "trust");
    std::fs::write(&hba, text).unwrap();
    std::fs::remove_file(data_dir.0.join("tavoliere.password")).unwrap();
    // The older release runs: it holds the users lock as every Tavoliere process does.
    let older = std::fs::File::open(format!("{}.users.lock", data_dir.0.display()))
        .or_else(|_| std::fs::File::create(format!("{}.users.lock", data_dir.0.display())))
        .unwrap();
    older.lock_shared().unwrap();

    let mut cluster = EmbeddedPostgres::start(&data_dir.0, 0).expect("the new release starts beside it");
    let without = cluster.url("postgres").replace(&format!(":{}@", cluster.password()), "@");
    assert!(
        tavoliere::storage::connect(&cluster.url("postgres"), 1).await.is_ok(),
        "the new release's password"
    );
    assert!(
        tavoliere::storage::connect(&without, 1).await.is_ok(),
        "the older release, still serving, connects without a password"
    );
    assert!(cluster.awaits_password_switch());
    assert!(!cluster.require_password_when_alone().expect("tried"), "not while the older one runs");
    assert!(tavoliere::storage::connect(&without, 1).await.is_ok());

    drop(older);
    let mut switched = false;
    for _ in 0..60 {
        if cluster.require_password_when_alone().expect("tried") {
            switched = true;
            break;
        }
        tokio::time::sleep(Duration::from_millis(500)).await;
    }
    assert!(switched, "once alone, the cluster asks for its password");
    assert!(tavoliere::storage::connect(&without, 1).await.is_err(), "trust is gone");
    assert!(tavoliere::storage::connect(&cluster.url("postgres"), 1).await.is_ok());
    cluster.stop_and_delete().expect("clean up");
}

/// A line of `plies` Xiangqi moves that captures nothing and never ends the game (no
/// mate, no repetition law): random quiet moves, reproducible.
fn quiet_game(plies: usize) -> Vec<String> {
    use tavoliere_rules::variant::{AnyGame, Variant};
    let pieces = |game: &AnyGame| {
        let fen = game.fen();
        fen.split(' ').next().unwrap_or("").chars().filter(char::is_ascii_alphabetic).count()
    };
    let mut random = 0x9e37_79b9_7f4a_7c15_u64;
    loop {
        let mut game = AnyGame::new(Variant::Xiangqi, None).expect("the start position");
        let mut line = Vec::new();
        while line.len() < plies {
            let mut legal = game.legal_moves();
            let mut next_move = None;
            while !legal.is_empty() {
                random =
                    random.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
                let candidate = legal.swap_remove((random >> 33) as usize % legal.len());
                let mut next = game.clone();
                if next.play(&candidate).is_ok() && !next.is_over() && pieces(&next) == pieces(&game) {
                    next_move = Some((candidate, next));
                    break;
                }
            }
            let Some((text, next)) = next_move else { break };
            line.push(text);
            game = next;
        }
        if line.len() == plies {
            return line;
        }
    }
}

/// Three players move in their games as fast as they can while the external PostgreSQL
/// is stopped and started under them; every move acknowledged with a 2xx is stored.
#[tokio::test(flavor = "multi_thread")]
async fn an_external_postgresql_restarted_under_load_loses_no_acknowledged_move() {
    let data_dir = DataDir::new();
    let cluster = EmbeddedPostgres::start(&data_dir.0, 0).expect("an external cluster");
    let port = cluster.port();
    tavoliere::storage::create_database_if_missing(&cluster.url("postgres"), "external").await.unwrap();
    let url = cluster.url("external");
    let server = tokio::task::block_in_place(|| ServerProcess::start(&url));
    let client = reqwest::Client::new();

    // Three Xiangqi games, each between a mover and a partner.
    let mut games = Vec::new();
    for n in 0..3 {
        let mover = sign_up(&client, &server, &format!("mover{n}")).await;
        let partner = sign_up(&client, &server, &format!("partner{n}")).await;
        let challenge: Value = client
            .post(format!("{}/api/challenges", server.address))
            .bearer_auth(&mover)
            .json(&json!({"variant": "xiangqi", "opponent": format!("partner{n}"), "color": "first",
                          "time_control": {"kind": "days-per-move", "days": 3}}))
            .send()
            .await
            .unwrap()
            .json()
            .await
            .unwrap();
        let id = challenge["id"].as_i64().unwrap_or_else(|| panic!("a challenge: {challenge}"));
        let accepted: Value = client
            .post(format!("{}/api/challenges/{id}/accept", server.address))
            .bearer_auth(&partner)
            .send()
            .await
            .unwrap()
            .json()
            .await
            .unwrap();
        let game = accepted["game_id"].as_i64().unwrap_or_else(|| panic!("a game: {accepted}"));
        games.push((game, mover, partner));
    }

    let line = Arc::new(quiet_game(300));
    let acknowledged = Arc::new(Mutex::new(vec![0_i64; games.len()]));
    let stop = Arc::new(std::sync::atomic::AtomicBool::new(false));
    let mut players = Vec::new();
    for (index, (game, mover, partner)) in games.clone().into_iter().enumerate() {
        let (client, address) = (client.clone(), server.address.clone());
        let (acknowledged, stop, line) = (Arc::clone(&acknowledged), Arc::clone(&stop), Arc::clone(&line));
        players.push(tokio::spawn(async move {
            let mut ply = 0_usize;
            let mut refused = 0;
            while !stop.load(std::sync::atomic::Ordering::Relaxed) && ply < line.len() {
                // About 20 moves a second per game: the line lasts the test.
                tokio::time::sleep(Duration::from_millis(40)).await;
                let token = if ply.is_multiple_of(2) { &mover } else { &partner };
                let reply = client
                    .post(format!("{address}/api/games/{game}/moves"))
                    .bearer_auth(token)
                    .json(&json!({"move": line[ply], "ply": ply}))
                    .timeout(Duration::from_secs(10))
                    .send()
                    .await;
                match reply.map(|r| r.status()) {
                    Ok(status) if status.is_success() => {
                        ply += 1;
                        acknowledged.lock().unwrap()[index] = ply as i64;
                    }
                    Ok(StatusCode::CONFLICT) => {
                        // A move committed whose answer was lost in the outage: the game is
                        // further than we knew. Read where it is.
                        if let Ok(view) = client.get(format!("{address}/api/games/{game}")).send().await {
                            if let Ok(view) = view.json::<Value>().await {
                                if let Some(current) = view["ply"].as_u64() {
                                    ply = current as usize;
                                }
                            }
                        }
                    }
                    Ok(status) => {
                        assert!(
                            status == StatusCode::SERVICE_UNAVAILABLE,
                            "during the outage only 503 is expected, got {status}"
                        );
                        refused += 1;
                        tokio::time::sleep(Duration::from_millis(20)).await;
                    }
                    Err(_) => tokio::time::sleep(Duration::from_millis(20)).await,
                }
            }
            refused
        }));
    }
    tokio::time::sleep(Duration::from_secs(2)).await;
    let before = acknowledged.lock().unwrap().clone();
    assert!(before.iter().all(|&n| n > 0), "moves go through before the outage: {before:?}");

    // Stop PostgreSQL (fast shutdown: sessions are cut) and start it again on its port.
    let outage = Instant::now();
    let data = data_dir.0.clone();
    let mut cluster = cluster;
    tokio::task::block_in_place(|| {
        assert!(cluster.stop().expect("pg_ctl stop"), "the cluster stopped");
        std::thread::sleep(Duration::from_secs(2));
    });
    let cluster = tokio::task::block_in_place(|| EmbeddedPostgres::start(&data, port)).expect("start again");
    until_status(&client, &format!("{}/readyz", server.address), StatusCode::OK, Duration::from_secs(30))
        .await;
    let recovered_after = outage.elapsed();
    let at_restart = acknowledged.lock().unwrap().clone();
    tokio::time::sleep(Duration::from_secs(2)).await;
    stop.store(true, std::sync::atomic::Ordering::Relaxed);
    let mut refused = 0;
    for player in players {
        refused += player.await.expect("a player");
    }
    let after = acknowledged.lock().unwrap().clone();
    assert!(
        after.iter().zip(&at_restart).all(|(a, b)| a > b),
        "moves go through again after the restart: {at_restart:?} then {after:?}"
    );

    // Every acknowledged move is stored (the server process was never restarted).
    let pool = tavoliere::storage::connect(&url, 1).await.unwrap();
    for ((game, _, _), acknowledged) in games.iter().zip(&after) {
        let stored: i64 = sqlx::query_scalar("select count(*) from move where game_id = $1")
            .bind(game)
            .fetch_one(&pool)
            .await
            .unwrap();
        assert!(stored >= *acknowledged, "game {game}: {acknowledged} acknowledged, {stored} stored");
    }
    pool.close().await;
    eprintln!(
        "external PostgreSQL stopped for 2 s: ready again {recovered_after:?} after the stop; {refused} moves \
         refused with 503; acknowledged before {before:?}, at restart {at_restart:?}, at the end {after:?}"
    );
    drop(server);
    cluster.stop_and_delete().expect("clean up");
}
