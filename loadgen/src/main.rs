//! Load generator for live games: drives N concurrent live games with two clients each
//! over real WebSockets, playing legal moves at a set rate, and reports moves per second,
//! the latency from a move's send to the opponent's receipt (p50, p99, max) and the
//! server's memory. `--idle-sockets M` instead holds M idle spectator sockets open and
//! reports the server's memory.
//!
//! ```text
//! cargo run --release -p tavoliere-loadgen -- --server http://127.0.0.1:8000 \
//!     --games 1000 --rate 1 --seconds 30 --server-pid $(pgrep -n tavoliere)
//! ```

use std::time::{Duration, Instant};

use anyhow::{bail, Context};
use clap::Parser;
use futures_util::{SinkExt, StreamExt};
use serde_json::{json, Value};
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::Message;

/// Command line.
#[derive(Parser, Debug)]
#[command(about = "Drive live Tavoliere games over WebSocket and measure latency")]
struct Args {
    /// Base URL of the server.
    #[arg(long, default_value = "http://127.0.0.1:8000")]
    server: String,
    /// Concurrent live games.
    #[arg(long, default_value_t = 100)]
    games: usize,
    /// Moves per second per game.
    #[arg(long, default_value_t = 1.0)]
    rate: f64,
    /// How long to play, in seconds.
    #[arg(long, default_value_t = 20)]
    seconds: u64,
    /// Server process id, to report its resident memory.
    #[arg(long)]
    server_pid: Option<u32>,
    /// Instead of games: hold this many idle spectator sockets open and report memory.
    #[arg(long)]
    idle_sockets: Option<usize>,
}

struct Api {
    client: reqwest::Client,
    base: String,
}

impl Api {
    async fn post(&self, path: &str, token: Option<&str>, body: Value) -> anyhow::Result<Value> {
        let mut request = self.client.post(format!("{}{path}", self.base)).json(&body);
        if let Some(token) = token {
            request = request.bearer_auth(token);
        }
        let response = request.send().await?;
        let status = response.status();
        let body: Value = response.json().await.unwrap_or(Value::Null);
        if !status.is_success() {
            bail!("POST {path}: {status} {body}");
        }
        Ok(body)
    }

    /// Registers (or reuses) `name` and returns a bearer token.
    async fn user(&self, name: &str) -> anyhow::Result<String> {
        let password = format!("password-of-{name}");
        let _ = self.post("/api/accounts", None, json!({"username": name, "password": password})).await;
        let token = self.post("/api/tokens", None, json!({"username": name, "password": password})).await?;
        Ok(token["token"].as_str().context("token")?.to_owned())
    }

    async fn game(&self, red: (&str, &str), black: (&str, &str)) -> anyhow::Result<i64> {
        let control = json!({"kind": "live-fischer", "base_seconds": 10800, "increment_seconds": 0});
        let challenge = self
            .post(
                "/api/challenges",
                Some(red.1),
                json!({"variant": "xiangqi", "opponent": black.0, "color": "first", "time_control": control}),
            )
            .await?;
        let id = challenge["id"].as_i64().context("challenge id")?;
        let game = self.post(&format!("/api/challenges/{id}/accept"), Some(black.1), json!({})).await?;
        game["game_id"].as_i64().context("game id")
    }
}

type Ws = tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

async fn open(base: &str, game: i64, token: Option<&str>) -> anyhow::Result<Ws> {
    let url = format!("{}/api/games/{game}/socket", base.replacen("http", "ws", 1));
    let mut request = url.into_client_request()?;
    if let Some(token) = token {
        request.headers_mut().insert("authorization", format!("Bearer {token}").parse()?);
    }
    Ok(tokio_tungstenite::connect_async(request).await?.0)
}

fn rss_kib(pid: Option<u32>) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{}/status", pid?)).ok()?;
    status.lines().find(|l| l.starts_with("VmRSS:"))?.split_whitespace().nth(1)?.parse().ok()
}

/// What one game task measured.
#[derive(Default)]
struct GameStats {
    latencies_us: Vec<u64>,
    moves: u64,
    errors: u64,
}

/// Plays one game: both sockets in one task; the side to move sends a pseudo-random legal
/// move every `1 / rate` s; the latency is taken when the opponent's socket sees it.
async fn play(
    base: String,
    game: i64,
    tokens: [String; 2],
    rate: f64,
    until: Instant,
    seed: u64,
) -> GameStats {
    let mut stats = GameStats::default();
    let (Ok(mut red), Ok(mut black)) =
        (open(&base, game, Some(&tokens[0])).await, open(&base, game, Some(&tokens[1])).await)
    else {
        stats.errors += 1;
        return stats;
    };
    let mut legal: Vec<String> = Vec::new();
    let mut ply: i64 = 0;
    let mut rng = seed | 1;
    let mut sent: Option<(i64, Instant)> = None;
    let every = Duration::from_secs_f64(1.0 / rate.max(0.001));
    // Spread the games' moves evenly over the period instead of all at once.
    let offset = every.mul_f64((seed % 1000) as f64 / 1000.0);
    let mut ticker = tokio::time::interval_at(tokio::time::Instant::now() + offset, every);
    ticker.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        if Instant::now() >= until {
            break;
        }
        tokio::select! {
            _ = ticker.tick() => {
                if sent.is_none() && !legal.is_empty() {
                    rng ^= rng << 13; rng ^= rng >> 7; rng ^= rng << 17;
                    let text = legal[(rng % legal.len() as u64) as usize].clone();
                    let mover = if ply % 2 == 0 { &mut red } else { &mut black };
                    let message = json!({"type": "move", "move": text, "ply": ply}).to_string();
                    sent = Some((ply + 1, Instant::now()));
                    if mover.send(Message::text(message)).await.is_err() { stats.errors += 1; break; }
                }
            }
            frame = red.next() => match handle(frame, 0, &mut ply, &mut legal, &mut sent, &mut stats) {
                Some(true) => {}
                _ => break,
            },
            frame = black.next() => match handle(frame, 1, &mut ply, &mut legal, &mut sent, &mut stats) {
                Some(true) => {}
                _ => break,
            },
        }
    }
    let _ = red.close(None).await;
    let _ = black.close(None).await;
    stats
}

/// One received frame on seat `seat`'s socket; `Some(true)` to go on.
fn handle(
    frame: Option<Result<Message, tokio_tungstenite::tungstenite::Error>>,
    seat: i64,
    ply: &mut i64,
    legal: &mut Vec<String>,
    sent: &mut Option<(i64, Instant)>,
    stats: &mut GameStats,
) -> Option<bool> {
    let Ok(Message::Text(text)) = frame? else { return Some(true) };
    let event: Value = serde_json::from_str(text.as_str()).ok()?;
    match event["type"].as_str()? {
        "state" if seat == 0 => {
            *ply = event["game"]["ply"].as_i64()?;
            *legal = strings(&event["game"]["legal_moves"]);
        }
        "move" => {
            let move_ply = event["move"]["ply"].as_i64()?;
            let mover_seat = (move_ply - 1) % 2;
            if seat != mover_seat {
                // The opponent's receipt: this is the latency that counts.
                if let Some((expected, at)) = *sent {
                    if expected == move_ply {
                        stats.latencies_us.push(at.elapsed().as_micros() as u64);
                        stats.moves += 1;
                        *sent = None;
                    }
                }
                *ply = move_ply;
                *legal = strings(&event["legal_moves"]);
            }
        }
        "result" => return Some(false),
        "error" => {
            stats.errors += 1;
            *sent = None;
        }
        _ => {}
    }
    Some(true)
}

fn strings(value: &Value) -> Vec<String> {
    value
        .as_array()
        .map(|a| a.iter().filter_map(|v| v.as_str().map(str::to_owned)).collect())
        .unwrap_or_default()
}

fn percentile(sorted: &[u64], p: f64) -> f64 {
    if sorted.is_empty() {
        return 0.0;
    }
    let index = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted[index] as f64 / 1000.0
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let args = Args::parse();
    let api = Api { client: reqwest::Client::new(), base: args.server.clone() };
    let red = api.user("loadgen-red").await?;
    let black = api.user("loadgen-black").await?;
    let games = args.games.max(1);
    let rss_before = rss_kib(args.server_pid);

    if let Some(count) = args.idle_sockets {
        let game = api.game(("loadgen-red", &red), ("loadgen-black", &black)).await?;
        let mut sockets = Vec::with_capacity(count);
        for _ in 0..count {
            sockets.push(open(&args.server, game, None).await?);
        }
        tokio::time::sleep(Duration::from_secs(2)).await;
        println!(
            "idle sockets: {count}; server RSS before {} KiB, with the sockets open {} KiB",
            rss_before.unwrap_or(0),
            rss_kib(args.server_pid).unwrap_or(0)
        );
        return Ok(());
    }

    let mut ids = Vec::with_capacity(games);
    for _ in 0..games {
        ids.push(api.game(("loadgen-red", &red), ("loadgen-black", &black)).await?);
    }
    println!("{games} live games created; playing {} s at {} moves/s per game", args.seconds, args.rate);
    let started = Instant::now();
    let until = started + Duration::from_secs(args.seconds);
    let mut tasks = Vec::with_capacity(games);
    for (i, game) in ids.into_iter().enumerate() {
        let tokens = [red.clone(), black.clone()];
        tasks.push(tokio::spawn(play(
            args.server.clone(),
            game,
            tokens,
            args.rate,
            until,
            i as u64 * 7919 + 1 + (i as u64 % 1000),
        )));
    }
    let mut peak_rss = 0;
    let mut all = GameStats::default();
    while !tasks.iter().all(|t| t.is_finished()) {
        peak_rss = peak_rss.max(rss_kib(args.server_pid).unwrap_or(0));
        tokio::time::sleep(Duration::from_millis(500)).await;
    }
    for task in tasks {
        let stats = task.await?;
        all.latencies_us.extend(stats.latencies_us);
        all.moves += stats.moves;
        all.errors += stats.errors;
    }
    let elapsed = started.elapsed().as_secs_f64();
    all.latencies_us.sort_unstable();
    println!(
        "moves: {} in {elapsed:.1} s = {:.0} moves/s; errors {}",
        all.moves,
        all.moves as f64 / elapsed,
        all.errors
    );
    println!(
        "send -> opponent receipt latency: p50 {:.2} ms, p99 {:.2} ms, max {:.2} ms",
        percentile(&all.latencies_us, 0.50),
        percentile(&all.latencies_us, 0.99),
        percentile(&all.latencies_us, 1.0)
    );
    if args.server_pid.is_some() {
        println!("server RSS: before {} KiB, peak {} KiB", rss_before.unwrap_or(0), peak_rss);
    }
    Ok(())
}
