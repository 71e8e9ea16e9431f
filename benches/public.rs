//! Benchmark of the public reads (issue 18), not a test: the archive search through
//! `GET /api/games` over 1,000,000 finished games generated here (each filter, and a walk
//! of 20 pages by cursor), and the home page `/` under 200 concurrent visitors.
//!
//! `cargo bench -p tavoliere --bench public` (optionally `-- <seconds of home page load>`;
//! `PUBLIC_GAMES=N` changes the number of games).

use std::sync::Arc;
use std::time::{Duration, Instant};

use tavoliere::startup::Application;
use tavoliere::storage::embedded::EmbeddedPostgres;
use tokio::sync::Mutex;

/// The same allocator as the `tavoliere` binary (server/main.rs).
mod support;

#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

const ACCOUNTS: i64 = 1000;
const VISITORS: usize = 200;

/// Accounts `p1`..`p1000`, `games` finished games between them (four variants, three
/// results, five ways to end, rated or not, two minutes apart from 2020 on), 100 games
/// being played (half of them live) and 50 open challenges.
const SCENE: &str = r#"
insert into account (username, password_hash) select 'p' || i, 'x' from generate_series(1, $ACCOUNTS) i;
insert into game (variant, ruleset, seat_count, status, result, reason, current_ply, turn_seat,
                  time_control, turn_started_at, created_at, finished_at, rated)
select (array['xiangqi', 'shogi', 'minishogi', 'flickering'])[1 + i % 4],
       (array['cxq', 'shogi-24', 'aise', 'flickering'])[1 + i % 4],
       2, 'finished', (array['1-0', '0-1', '1/2-1/2'])[1 + i % 3],
       (array['checkmate', 'resignation', 'timeout', 'perpetual-chase', 'agreement'])[1 + i % 5],
       40 + i % 80, 0, '{"kind": "days-per-move", "days": 3}',
       timestamptz '2020-01-01' + i * interval '2 minutes', timestamptz '2020-01-01' + i * interval '2 minutes',
       timestamptz '2020-01-01' + i * interval '2 minutes' + interval '1 day', i % 2 = 0
from generate_series(1, $GAMES) i;
insert into game_seat (game_id, seat, account_id, remaining_ms, outcome, points)
select g.game_id, s.seat,
       case when s.seat = 0 then 1 + (g.game_id * 7) % $ACCOUNTS
            else 1 + ((g.game_id * 7) % $ACCOUNTS + 1 + g.game_id % ($ACCOUNTS - 2)) % $ACCOUNTS end,
       0,
       case g.result when '1/2-1/2' then 'draw'
                     when '1-0' then (array['win', 'loss'])[1 + s.seat]
                     else (array['loss', 'win'])[1 + s.seat] end,
       case g.result when '1/2-1/2' then 0.5
                     when '1-0' then 1 - s.seat else s.seat end
from game g cross join (values (0), (1)) as s(seat);
insert into game (variant, ruleset, seat_count, status, current_ply, turn_seat, time_control,
                  turn_started_at, deadline)
select 'xiangqi', 'cxq', 2, 'active', 0, 0,
       case when i % 2 = 0 then '{"kind": "live-fischer", "base_seconds": 600, "increment_seconds": 5}'::jsonb
            else '{"kind": "days-per-move", "days": 3}'::jsonb end,
       now(), now() + interval '3 days'
from generate_series(1, 100) i;
insert into game_seat (game_id, seat, account_id, remaining_ms)
select g.game_id, s.seat, 1 + (g.game_id + s.seat * 3) % $ACCOUNTS, 600000
from game g cross join (values (0), (1)) as s(seat) where g.status = 'active';
insert into challenge (challenger_id, variant, ruleset, challenger_seat, time_control, rated)
select 1 + i % $ACCOUNTS, 'shogi', 'shogi-24', 'random', '{"kind": "days-per-move", "days": 3}', i % 2 = 0
from generate_series(1, 50) i;
"#;

/// The archive searches measured, by what they ask.
const SEARCHES: [(&str, &str); 9] = [
    ("newest games, no filter", "limit=50"),
    ("one player (about 2,000 games)", "player=p17"),
    ("a player against another", "player=p17&opponent=p18"),
    ("one variant", "variant=shogi"),
    ("end reason", "reason=perpetual-chase"),
    ("one month", "from=2021-01-01&to=2021-01-31"),
    ("rated games of a variant", "rated=true&variant=xiangqi"),
    ("a player's wins", "player=p17&result=win"),
    ("a player's games of a month", "player=p17&from=2020-06-01&to=2020-06-30"),
];

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    sorted[((sorted.len() as f64 - 1.0) * p).round() as usize]
}

fn ms(d: Duration) -> String {
    format!("{:.2}", d.as_secs_f64() * 1000.0)
}

async fn get(client: &reqwest::Client, url: &str) -> (Duration, reqwest::header::HeaderMap) {
    let started = Instant::now();
    let response = client.get(url).send().await.expect("request");
    assert!(response.status().is_success(), "{url}: {}", response.status());
    let headers = response.headers().clone();
    let _ = response.bytes().await.expect("body");
    (started.elapsed(), headers)
}

async fn archive(base: &str) {
    let client = reqwest::Client::new();
    println!("{:<36} {:>9} {:>9} {:>9}", "archive search (50 games a page)", "p50 ms", "p95 ms", "max ms");
    for (what, query) in SEARCHES {
        let url = format!("{base}/api/games?{query}");
        get(&client, &url).await;
        let mut times = Vec::new();
        for _ in 0..40 {
            times.push(get(&client, &url).await.0);
        }
        times.sort();
        println!(
            "{what:<36} {:>9} {:>9} {:>9}",
            ms(percentile(&times, 0.5)),
            ms(percentile(&times, 0.95)),
            ms(times[times.len() - 1])
        );
    }
    // Twenty pages deep by cursor: each page costs what the first does (keyset pagination).
    for query in ["variant=xiangqi&limit=50", "player=p17&limit=50"] {
        let mut url = format!("{base}/api/games?{query}");
        let mut times = Vec::new();
        for _ in 0..20 {
            let (took, headers) = get(&client, &url).await;
            times.push(took);
            let Some(next) = headers.get("x-next-cursor") else { break };
            url = format!("{base}/api/games?{query}&cursor={}", next.to_str().unwrap());
        }
        let first = times[0];
        times.sort();
        println!(
            "{:<36} {:>9} {:>9} {:>9}",
            format!("{} pages by cursor: {}", times.len(), query.split('&').next().unwrap()),
            ms(percentile(&times, 0.5)),
            ms(percentile(&times, 0.95)),
            format!("first {}", ms(first))
        );
    }
}

async fn home_page(base: &str, seconds: u64) {
    let client = reqwest::Client::builder().pool_max_idle_per_host(VISITORS).build().unwrap();
    let times = Arc::new(Mutex::new(Vec::new()));
    let until = Instant::now() + Duration::from_secs(seconds);
    let started = Instant::now();
    let mut visitors = Vec::new();
    for _ in 0..VISITORS {
        let (client, times, url) = (client.clone(), Arc::clone(&times), format!("{base}/"));
        visitors.push(tokio::spawn(async move {
            let mut mine = Vec::new();
            while Instant::now() < until {
                mine.push(get(&client, &url).await.0);
            }
            times.lock().await.extend(mine);
        }));
    }
    for visitor in visitors {
        visitor.await.expect("visitor");
    }
    let elapsed = started.elapsed().as_secs_f64();
    let mut times = times.lock().await.clone();
    times.sort();
    println!(
        "home page, {VISITORS} concurrent visitors, {seconds} s: {} pages, {:.0} pages/s, p50 {} ms, p95 {} ms, p99 {} ms, max {} ms",
        times.len(),
        times.len() as f64 / elapsed,
        ms(percentile(&times, 0.5)),
        ms(percentile(&times, 0.95)),
        ms(percentile(&times, 0.99)),
        ms(times[times.len() - 1]),
    );
}

fn main() -> anyhow::Result<()> {
    let seconds: u64 = std::env::args().skip(1).find_map(|a| a.parse().ok()).unwrap_or(15);
    let games: i64 = std::env::var("PUBLIC_GAMES").ok().and_then(|v| v.parse().ok()).unwrap_or(1_000_000);
    let dir = support::scratch_dir("tavoliere-bench");
    let cluster = EmbeddedPostgres::start(&dir, 0)?;
    let runtime = tokio::runtime::Builder::new_multi_thread().enable_all().build()?;
    let result = runtime.block_on(async {
        let mut settings = support::settings_on(&cluster, &dir, "tavoliere").await?;
        settings.live.flag_interval_ms = 0;
        let app = Application::build(settings).await?;
        let base = format!("http://127.0.0.1:{}", app.port());
        let pool = app.domain().pool.clone();
        tokio::spawn(app.run_until(std::future::pending()));
        let generating = Instant::now();
        let scene = SCENE.replace("$ACCOUNTS", &ACCOUNTS.to_string()).replace("$GAMES", &games.to_string());
        sqlx::raw_sql(&scene).execute(&pool).await?;
        sqlx::raw_sql("vacuum analyze").execute(&pool).await?;
        println!("{games} finished games generated in {:.0} s", generating.elapsed().as_secs_f64());
        archive(&base).await;
        home_page(&base, seconds).await;
        anyhow::Ok(())
    });
    drop(runtime);
    cluster.stop_and_delete()?;
    result
}
