//! Load benchmark (not a test): durable moves per second through the REST API at 16 and
//! 64 concurrent clients, next to pgbench's TPC-B figure (scale = clients) on the same
//! private cluster.
//!
//! `cargo bench -p tavoliere --bench load` (optionally `-- <seconds per run>`).

use std::path::PathBuf;
use std::process::Command;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use serde_json::{json, Value};
use tavoliere::startup::Application;
use tavoliere::storage::embedded::{find_bin_dir, EmbeddedPostgres};

/// The same allocator as the `tavoliere` binary (server/main.rs).
mod support;

#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// What the load client reads of a game state.
#[derive(serde::Deserialize)]
struct Turn {
    id: i64,
    ply: i64,
    status: String,
    legal_moves: Vec<String>,
}

struct Client {
    http: reqwest::Client,
    base: String,
}

/// The moves of one load client: a kept-alive HTTP/1 connection driven by hyper directly,
/// so the client spends little of the two cores it shares with the server and PostgreSQL
/// (pgbench, the figure next to it, is a lean C client).
struct MoveConnection {
    sender: hyper::client::conn::http1::SendRequest<http_body_util::Full<hyper::body::Bytes>>,
    authority: String,
}

impl MoveConnection {
    async fn open(base: &str) -> MoveConnection {
        let authority = base.trim_start_matches("http://").to_owned();
        let stream = tokio::net::TcpStream::connect(&authority).await.expect("connect");
        stream.set_nodelay(true).expect("nodelay");
        let io = hyper_util::rt::TokioIo::new(stream);
        let (sender, connection) = hyper::client::conn::http1::handshake(io).await.expect("handshake");
        tokio::spawn(connection);
        MoveConnection { sender, authority }
    }

    /// POSTs a move and reads only what the player needs from the state (a real client
    /// does not build a JSON tree of the whole game).
    async fn play(&mut self, game: i64, token: &str, text: &str, ply: i64) -> Turn {
        use http_body_util::BodyExt;
        let body = serde_json::to_vec(&json!({"move": text, "ply": ply})).expect("json");
        let request = hyper::Request::post(format!("/api/games/{game}/moves"))
            .header(hyper::header::HOST, &self.authority)
            .header(hyper::header::AUTHORIZATION, format!("Bearer {token}"))
            .header(hyper::header::CONTENT_TYPE, "application/json")
            .body(http_body_util::Full::new(hyper::body::Bytes::from(body)))
            .expect("request");
        self.sender.ready().await.expect("connection");
        let response = self.sender.send_request(request).await.expect("request");
        assert_eq!(response.status().as_u16(), 201, "{text} at ply {ply}");
        let body = response.into_body().collect().await.expect("body").to_bytes();
        serde_json::from_slice(&body).expect("the game state")
    }
}

impl Client {
    async fn post(&self, path: &str, token: Option<&str>, body: Value) -> (u16, Value) {
        let mut request = self.http.post(format!("{}{path}", self.base)).json(&body);
        if let Some(token) = token {
            request = request.bearer_auth(token);
        }
        let response = request.send().await.expect("request");
        let status = response.status().as_u16();
        (status, response.json().await.unwrap_or(Value::Null))
    }

    async fn user(&self, name: &str) -> String {
        let credentials = json!({"username": name, "password": "load-test-password"});
        self.post("/api/accounts", None, credentials.clone()).await;
        self.post("/api/tokens", None, credentials).await.1["token"].as_str().unwrap().to_owned()
    }

    async fn new_game(&self, first: &str, second: &str, second_name: &str) -> Turn {
        let (_, challenge) = self
            .post(
                "/api/challenges",
                Some(first),
                json!({"variant": "xiangqi", "opponent": second_name, "color": "first",
                       "time_control": {"kind": "days-per-move", "days": 3}}),
            )
            .await;
        let id = challenge["id"].as_i64().unwrap();
        let (_, accepted) = self.post(&format!("/api/challenges/{id}/accept"), Some(second), json!({})).await;
        let game = accepted["game_id"].as_i64().unwrap();
        let response = self.http.get(format!("{}/api/games/{game}", self.base)).send().await.unwrap();
        response.json().await.unwrap()
    }
}

/// What one measurement of [`api_moves`] gives.
struct ApiRun {
    /// Moves per second.
    per_second: f64,
    moves: u64,
    /// Games made while the clock ran, the stock made before it being used up.
    games_in_clock: u64,
}

/// The plies a load client plays in a game before it goes on to its next one.
const PLIES_A_GAME: i64 = 60;

/// The games each of `clients` clients makes before the clock starts, for `per_second`
/// moves a second (a previous run's) over `seconds`, with room: a client that uses its
/// stock up makes more games while the clock runs (counted in [`ApiRun::games_in_clock`]).
fn games_ahead(per_second: f64, clients: usize, seconds: u64) -> usize {
    let moves_a_client = 1.5 * per_second * seconds as f64 / clients as f64;
    (moves_a_client / (PLIES_A_GAME as f64 - 10.0)).ceil() as usize + 1
}

/// Durable moves per second through the API, `clients` clients playing for `seconds`.
/// Each client's accounts and its stock of `games` games are made before the clock
/// starts: the figure is of moves alone, as pgbench's beside it is of its transactions
/// alone (until 2026-11-27 the clients made their next games inside the clock, some 6% of
/// their time at 16 clients).
async fn api_moves(base: &str, clients: usize, seconds: u64, round: usize, games: usize) -> ApiRun {
    let moves = Arc::new(AtomicU64::new(0));
    let games_in_clock = Arc::new(AtomicU64::new(0));
    let ready = Arc::new(tokio::sync::Barrier::new(clients + 1));
    let mut tasks = Vec::new();
    for index in 0..clients {
        let (moves, games_in_clock) = (moves.clone(), games_in_clock.clone());
        let ready = ready.clone();
        let base = base.to_owned();
        tasks.push(tokio::spawn(async move {
            let client = Client { http: reqwest::Client::new(), base };
            let (a, b) = (format!("a{round}x{index}"), format!("b{round}x{index}"));
            let tokens = [client.user(&a).await, client.user(&b).await];
            let mut stock = Vec::with_capacity(games);
            for _ in 0..games.max(1) {
                stock.push(client.new_game(&tokens[0], &tokens[1], &b).await);
            }
            let mut state = stock.pop().expect("a game");
            let mut connection = MoveConnection::open(&client.base).await;
            ready.wait().await;
            let deadline = Instant::now() + Duration::from_secs(seconds);
            while Instant::now() < deadline {
                let ply = state.ply;
                if state.status != "active" || state.legal_moves.is_empty() || ply >= PLIES_A_GAME {
                    state = match stock.pop() {
                        Some(next) => next,
                        None => {
                            games_in_clock.fetch_add(1, Ordering::Relaxed);
                            client.new_game(&tokens[0], &tokens[1], &b).await
                        }
                    };
                    continue;
                }
                let pick = &state.legal_moves[(ply as usize * 7) % state.legal_moves.len()];
                state = connection.play(state.id, &tokens[(ply % 2) as usize], pick, ply).await;
                moves.fetch_add(1, Ordering::Relaxed);
            }
        }));
    }
    ready.wait().await;
    // For a profiler attached to this process (the accounts and games are made).
    eprintln!("measuring API moves: {clients} clients, {seconds} s");
    let started = Instant::now();
    for task in tasks {
        task.await.unwrap();
    }
    let elapsed = started.elapsed().as_secs_f64().max(seconds as f64);
    let moves = moves.load(Ordering::Relaxed);
    ApiRun {
        per_second: moves as f64 / elapsed,
        moves,
        games_in_clock: games_in_clock.load(Ordering::Relaxed),
    }
}

/// A numeric setting of the benchmark from the environment (`LOAD_POOL`, `LOAD_SCALE`, ...).
fn env_number<T: std::str::FromStr>(name: &str) -> Option<T> {
    std::env::var(name).ok().and_then(|v| v.parse().ok())
}

fn pgbench_program() -> Option<PathBuf> {
    let mut candidates: Vec<PathBuf> = find_bin_dir().into_iter().map(|d| d.join("pgbench")).collect();
    if let Ok(entries) = std::fs::read_dir("/usr/lib/postgresql") {
        candidates.extend(entries.filter_map(Result::ok).map(|e| e.path().join("bin/pgbench")));
    }
    candidates.into_iter().find(|p| p.is_file())
}

/// The `tps = ` figure of a pgbench run.
fn tps(output: &std::process::Output) -> Option<f64> {
    let text = String::from_utf8_lossy(&output.stdout);
    text.lines()
        .find(|l| l.starts_with("tps = "))
        .and_then(|l| l.trim_start_matches("tps = ").split_whitespace().next())
        .and_then(|v| v.parse().ok())
}

/// The one statement of a move as the server sends it (server/storage/games.rs,
/// `write_move`: the turn guarded by the row's revision and the seats' leave, the move, the
/// clock and the waiting player's "your move" notification with its mail decided by
/// `notification_mail_decision`, as every correspondence move of the API run writes; the
/// token is checked from the server's cache; the NOTIFY goes out after the commit, batched,
/// from another connection: `storage::notify::Announcer`), run by pgbench on the games and
/// accounts the API run made: the raw PostgreSQL figure of the move's own transaction. The
/// revision condition always holds here, as it does on the API's fast path.
const MOVE_SCRIPT: &str = r#"\set g random(:gmin, :gmax)
\set a random(:amin, :amax)
WITH turned AS (UPDATE game SET current_ply = current_ply + 1, turn_seat = 1 - turn_seat, turn_started_at = now(), deadline = now() + interval '3 days', draw_offer_seat = NULL, revision = revision + 1 WHERE game_id = :g AND revision >= 0 AND status = status AND NOT EXISTS (SELECT 1 FROM vacation v WHERE v.account_id = ANY(ARRAY[]::bigint[]) AND v.ends_at > now()) RETURNING revision, current_ply), played AS (INSERT INTO move (game_id, ply, turn_number, seat, notation, position_key, played_at) SELECT :g, p.ply, p.ply, 0, p.notation, 0, now() FROM unnest(ARRAY[(SELECT current_ply FROM turned)], ARRAY['h2e2']) AS p(ply, notation) WHERE EXISTS (SELECT 1 FROM turned)), charged AS (UPDATE game_seat SET remaining_ms = remaining_ms, moves_made = moves_made + 1 WHERE game_id = :g AND seat = 0 AND EXISTS (SELECT 1 FROM turned)), notified AS (INSERT INTO notification (account_id, kind, game_id, details, created_at, mail_state, last_error) SELECT :a, 'your-move', :g, jsonb_build_object('ply', 1), now(), d.state, d.reason FROM notification_mail_decision(:a, 'your-move', false, false) d WHERE :a::bigint IS NOT NULL AND EXISTS (SELECT 1 FROM turned) RETURNING account_id, mail_state) SELECT revision, (SELECT account_id FROM notified WHERE mail_state <> 'pending') FROM turned;
"#;

/// pgbench running [`MOVE_SCRIPT`] on the application's database.
fn pgbench_moves(
    port: u16,
    clients: usize,
    seconds: u64,
    games: (i64, i64),
    accounts: (i64, i64),
) -> Option<f64> {
    let pgbench = pgbench_program()?;
    let script = std::env::temp_dir().join(format!("tavoliere-move-{}.sql", std::process::id()));
    std::fs::write(&script, MOVE_SCRIPT).ok()?;
    let port = port.to_string();
    let run = Command::new(&pgbench)
        // Prepared statements, as sqlx sends them.
        .args(["-h", "127.0.0.1", "-p", &port, "-U", "tavoliere", "-n", "-M", "prepared"])
        .args(["-D", &format!("gmin={}", games.0), "-D", &format!("gmax={}", games.1)])
        .args(["-D", &format!("amin={}", accounts.0), "-D", &format!("amax={}", accounts.1)])
        .args(["-c", &clients.to_string(), "-j", "2", "-T", &seconds.to_string(), "-f"])
        .arg(&script)
        .arg("tavoliere")
        .output()
        .ok()?;
    let _ = std::fs::remove_file(&script);
    if !run.status.success() {
        eprintln!("pgbench (move script): {}", String::from_utf8_lossy(&run.stderr));
    }
    tps(&run)
}

/// Creates pgbench's TPC-B tables at `scale` (branches): pgbench's documentation asks for a
/// scale at least the number of clients, below it the clients mostly wait for each other's
/// branch row.
fn pgbench_init(port: u16, scale: usize) -> bool {
    let Some(pgbench) = pgbench_program() else { return false };
    let port = port.to_string();
    let scale = scale.to_string();
    let init = Command::new(&pgbench)
        .args(["-h", "127.0.0.1", "-p", &port, "-U", "tavoliere", "-i", "-q", "-s", &scale, "pgbench"])
        .output();
    match init {
        Ok(init) if init.status.success() => true,
        Ok(init) => {
            eprintln!("pgbench -i: {}", String::from_utf8_lossy(&init.stderr));
            false
        }
        Err(_) => false,
    }
}

/// pgbench's TPC-B on the tables of [`pgbench_init`].
fn pgbench(port: u16, clients: usize, seconds: u64) -> Option<f64> {
    let pgbench = pgbench_program()?;
    let port = port.to_string();
    let run = Command::new(&pgbench)
        .args(["-h", "127.0.0.1", "-p", &port, "-U", "tavoliere"])
        .args(["-M", "prepared", "-c", &clients.to_string(), "-j", "2", "-T", &seconds.to_string()])
        .arg("pgbench")
        .output()
        .ok()?;
    tps(&run)
}

/// What the database did for the moves of an API run: commits (every transaction of the
/// application's database, the background tasks' included) and WAL bytes.
#[derive(Clone, Copy)]
struct DatabaseWork {
    commits: i64,
    wal_bytes: i64,
}

async fn database_work(pool: &sqlx::PgPool) -> anyhow::Result<DatabaseWork> {
    // The backends report their counters at most once a second.
    tokio::time::sleep(Duration::from_millis(1100)).await;
    let (commits, wal_bytes): (i64, i64) = sqlx::query_as(
        "select xact_commit, pg_wal_lsn_diff(pg_current_wal_lsn(), '0/0')::bigint
         from pg_stat_database where datname = current_database()",
    )
    .fetch_one(pool)
    .await?;
    Ok(DatabaseWork { commits, wal_bytes })
}

/// The median of `values` and their range, as the tables print them: `3967 (2994–4322)`.
fn spread(values: &[f64], unit: &str) -> String {
    if values.is_empty() {
        return "n/a".to_owned();
    }
    let mut sorted = values.to_vec();
    sorted.sort_by(f64::total_cmp);
    let median = if sorted.len() % 2 == 1 {
        sorted[sorted.len() / 2]
    } else {
        (sorted[sorted.len() / 2 - 1] + sorted[sorted.len() / 2]) / 2.0
    };
    format!("{median:.0}{unit} ({:.0}–{:.0}{unit})", sorted[0], sorted[sorted.len() - 1])
}

fn main() -> anyhow::Result<()> {
    let seconds: u64 = std::env::args().skip(1).find_map(|a| a.parse().ok()).unwrap_or(10);
    let dir = support::scratch_dir("tavoliere-bench");
    // Durable, like production and like pgbench's figure.
    let cluster = EmbeddedPostgres::start(&dir, 0)?;
    let port = cluster.port();
    // pgbench connects to the cluster, which asks for its password. Set before any
    // thread of ours starts.
    std::env::set_var("PGPASSWORD", cluster.password());
    let runtime = tokio::runtime::Builder::new_multi_thread().enable_all().build()?;
    let result = runtime.block_on(async {
        tavoliere::storage::create_database_if_missing(&cluster.url("postgres"), "pgbench").await?;
        let mut settings = support::settings_on(&cluster, &dir, "tavoliere").await?;
        // LOAD_POOL=8 changes the server's pool size.
        settings.database.max_connections = env_number("LOAD_POOL").unwrap_or(32);
        // LOAD_MOVE_CONNECTIONS=4 and LOAD_MOVE_BATCH=1 change the move's fast path
        // (`database.move_connections`, `database.move_batch`; default: the configuration's).
        if let Some(connections) = env_number("LOAD_MOVE_CONNECTIONS") {
            settings.database.move_connections = connections;
        }
        if let Some(batch) = env_number("LOAD_MOVE_BATCH") {
            settings.database.move_batch = batch;
        }
        // LOAD_MOVE_BACKLOG=1 starts another statement whenever a connection is free
        // (`database.move_backlog`).
        if let Some(backlog) = env_number("LOAD_MOVE_BACKLOG") {
            settings.database.move_backlog = backlog;
        }
        // Every load client signs up and logs in from this one address: the login
        // limit per address (server/http/limits.rs) would refuse all but the first few.
        settings.auth.login_attempts_per_address = 100_000;
        let app = Application::build(settings).await?;
        let base = format!("http://127.0.0.1:{}", app.port());
        tokio::spawn(app.run_until(std::future::pending()));
        let pool = sqlx::PgPool::connect(&cluster.url("tavoliere")).await?;
        // LOAD_CLIENTS="64,16" changes the client counts, LOAD_RUNS the runs of each.
        let counts: Vec<usize> = std::env::var("LOAD_CLIENTS")
            .ok()
            .map(|v| v.split(',').filter_map(|n| n.trim().parse().ok()).collect())
            .unwrap_or_else(|| vec![16, 64]);
        let runs: usize = env_number("LOAD_RUNS").unwrap_or(5).max(1);
        let pgbench_pool = sqlx::PgPool::connect(&cluster.url("pgbench")).await?;
        // LOAD_SETUP_SQL="statement; ..." runs on the application's database before the
        // runs, one statement at a time (ALTER SYSTEM refuses a transaction block): for
        // experiments such as a setting (`alter system set ...; select pg_reload_conf()`)
        // or an index dropped.
        if let Ok(setup) = std::env::var("LOAD_SETUP_SQL") {
            for statement in setup.split(';').map(str::trim).filter(|s| !s.is_empty()) {
                sqlx::raw_sql(statement).execute(&pool).await?;
                eprintln!("ran LOAD_SETUP_SQL: {statement}");
            }
        }
        // Every measurement starts from the same footing: the previous ones' dead rows
        // vacuumed and their dirty pages written (otherwise the later runs pay for the
        // earlier ones' autovacuum and checkpoint).
        let settle = || async {
            for pool in [&pool, &pgbench_pool] {
                sqlx::query("vacuum analyze").execute(pool).await?;
            }
            sqlx::query("checkpoint").execute(&pool).await?;
            anyhow::Ok(())
        };
        // A warm-up, not measured: on the empty tables of a new database the planner picks
        // sequential scans (cheapest for a page or two) and keeps those plans while the
        // tables grow; a production database is not empty. The vacuum's statistics then
        // invalidate those plans.
        // Its rate, then the highest measured so far, sizes each run's stock of games.
        let mut per_second = api_moves(&base, 16, seconds.div_ceil(3), 999, 1).await.per_second;
        println!(
            "{:>8} {:>4} {:>12} {:>12} {:>6} {:>13} {:>6} {:>13} {:>10}",
            "clients", "run", "API moves/s", "TPC-B tps", "ratio", "move-SQL tps", "ratio", "commits/move", "WAL/move"
        );
        let mut summary = Vec::new();
        for (index, clients) in counts.into_iter().enumerate() {
            // LOAD_SCALE=10 fixes pgbench's scale; by default it is the number of clients.
            let scale = env_number("LOAD_SCALE").unwrap_or(clients);
            let initialised = tokio::task::spawn_blocking(move || pgbench_init(port, scale)).await?;
            let (mut api_figures, mut tpcb_figures, mut sql_figures) = (Vec::new(), Vec::new(), Vec::new());
            let (mut tpcb_ratios, mut sql_ratios) = (Vec::new(), Vec::new());
            for run in 0..runs {
                settle().await?;
                let before = database_work(&pool).await?;
                let games = games_ahead(per_second, clients, seconds);
                let measured = api_moves(&base, clients, seconds, index * 100 + run, games).await;
                let (api, moves) = (measured.per_second, measured.moves);
                per_second = per_second.max(api);
                if measured.games_in_clock > 0 {
                    eprintln!("{} games were made while the clock ran (stock used up)", measured.games_in_clock);
                }
                let after = database_work(&pool).await?;
                let per_move = |delta: i64| delta as f64 / moves.max(1) as f64;
                let commits = per_move(after.commits - before.commits);
                let wal = per_move(after.wal_bytes - before.wal_bytes);
                settle().await?;
                let raw = if initialised {
                    tokio::task::spawn_blocking(move || pgbench(port, clients, seconds)).await?
                } else {
                    None
                };
                settle().await?;
                let games: (i64, i64) =
                    sqlx::query_as("select min(game_id), max(game_id) from game").fetch_one(&pool).await?;
                let accounts: (i64, i64) = sqlx::query_as("select min(account_id), max(account_id) from account")
                    .fetch_one(&pool)
                    .await?;
                let same = tokio::task::spawn_blocking(move || pgbench_moves(port, clients, seconds, games, accounts))
                    .await?;
                let cell = |raw: Option<f64>, ratios: &mut Vec<f64>, figures: &mut Vec<f64>| match raw {
                    Some(raw) => {
                        ratios.push(100.0 * api / raw);
                        figures.push(raw);
                        (format!("{raw:.0}"), format!("{:.0}%", 100.0 * api / raw))
                    }
                    None => ("n/a".to_owned(), "-".to_owned()),
                };
                let (tpcb, tpcb_ratio) = cell(raw, &mut tpcb_ratios, &mut tpcb_figures);
                let (sql, sql_ratio) = cell(same, &mut sql_ratios, &mut sql_figures);
                api_figures.push(api);
                println!(
                    "{clients:>8} {:>4} {api:>12.0} {tpcb:>12} {tpcb_ratio:>6} {sql:>13} {sql_ratio:>6} {commits:>13.2} {wal:>9.0}B",
                    run + 1
                );
            }
            summary.push(format!(
                "{clients:>8} {runs:>5} {:>22} {:>22} {:>16} {:>22} {:>16}",
                spread(&api_figures, ""),
                spread(&tpcb_figures, ""),
                spread(&tpcb_ratios, "%"),
                spread(&sql_figures, ""),
                spread(&sql_ratios, "%"),
            ));
        }
        println!("\nmedians (min–max) over the runs:");
        println!(
            "{:>8} {:>5} {:>22} {:>22} {:>16} {:>22} {:>16}",
            "clients", "runs", "API moves/s", "TPC-B tps", "ratio", "move-SQL tps", "ratio"
        );
        for line in summary {
            println!("{line}");
        }
        anyhow::Ok(())
    });
    runtime.shutdown_timeout(Duration::from_secs(5));
    cluster.stop_and_delete()?;
    result
}
