//! Load generator for live games: drives N concurrent live games with two clients each
//! over real WebSockets, playing legal moves at a set rate, and reports moves per second,
//! the latency from a move's send to the opponent's receipt (p50, p99, p99.9, max), the
//! server's CPU time and its memory. `--idle-sockets M` instead holds M idle spectator
//! sockets open and reports the server's memory and CPU.
//!
//! ```text
//! cargo run --release -p tavoliere-loadgen -- --server http://127.0.0.1:8000 \
//!     --games 1000 --rate 0.1 --seconds 20 --server-pid $(pgrep -n tavoliere)
//! ```
//!
//! Every socket is a file descriptor on both sides: the tool raises its own open-file
//! limit to the hard limit at start (the server does the same), and says how many sockets
//! that allows. A loopback server is reached from several loopback source addresses
//! (127.0.0.1, 127.0.0.2...), since one source address has only about 28,000 ephemeral
//! ports towards one server port.

use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::{bail, Context};
use clap::Parser;
use futures_util::{SinkExt, StreamExt};
use serde_json::{json, Value};
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::protocol::WebSocketConfig;
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
    /// Server process id, to report its resident memory and CPU time.
    #[arg(long)]
    server_pid: Option<u32>,
    /// Instead of games: hold this many idle spectator sockets open and report memory.
    #[arg(long)]
    idle_sockets: Option<usize>,
    /// How long the idle sockets are held open once all are open, in seconds.
    #[arg(long, default_value_t = 10)]
    hold_seconds: u64,
    /// Handshakes (and game creations) in flight at once.
    #[arg(long, default_value_t = 64)]
    concurrency: usize,
    /// Loopback source addresses start at 127.0.0.(1 + this): several load generators
    /// beside each other (one per server instance) then use addresses of their own.
    #[arg(long, default_value_t = 0)]
    source_offset: u8,
    /// Also write every measured move to this file, one line each: the receipt time
    /// (milliseconds since the Unix epoch) and the latency (microseconds), to see when
    /// the slow moves happened (beside another process's log, for instance).
    #[arg(long)]
    latency_log: Option<std::path::PathBuf>,
    /// Create this file once every game is connected (before playing): several load
    /// generators side by side (one per server instance) then tell a script they are
    /// ready.
    #[arg(long)]
    ready_file: Option<std::path::PathBuf>,
    /// Once connected, wait until this file exists before playing: a script creates it
    /// when every generator is ready, so that none measures its moves while another is
    /// still making games and opening sockets (work that takes the shared cores and the
    /// database for seconds).
    #[arg(long)]
    start_file: Option<std::path::PathBuf>,
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

type Ws = tokio_tungstenite::WebSocketStream<tokio::net::TcpStream>;

/// Where the sockets connect, and from which local addresses.
struct Target {
    base: String,
    server: SocketAddr,
    /// Loopback servers are reached from several source addresses (see the module doc),
    /// from 127.0.0.(1 + `source_offset`) on.
    loopback: bool,
    source_offset: u8,
}

/// Source addresses used per this many sockets (of the about 28,000 ephemeral ports of
/// one address).
const SOCKETS_PER_SOURCE: usize = 20_000;

impl Target {
    async fn new(base: &str, source_offset: u8) -> anyhow::Result<Target> {
        let url = reqwest::Url::parse(base).context("--server is not a URL")?;
        let host = url.host_str().context("--server has no host")?.to_owned();
        let port = url.port_or_known_default().context("--server has no port")?;
        let server = tokio::net::lookup_host((host.as_str(), port))
            .await?
            .find(SocketAddr::is_ipv4)
            .context("--server has no IPv4 address")?;
        let loopback = server.ip().is_loopback();
        Ok(Target { base: base.to_owned(), server, loopback, source_offset })
    }

    /// Opens socket number `index` on `game`, as `token`'s player or as a spectator.
    async fn open(&self, index: usize, game: i64, token: Option<&str>) -> anyhow::Result<Ws> {
        let url = format!("{}/api/games/{game}/socket", self.base.replacen("http", "ws", 1));
        let mut request = url.into_client_request()?;
        if let Some(token) = token {
            request.headers_mut().insert("authorization", format!("Bearer {token}").parse()?);
        }
        let socket = tokio::net::TcpSocket::new_v4()?;
        if self.loopback {
            let block = usize::from(self.source_offset) + index / SOCKETS_PER_SOURCE;
            let source = Ipv4Addr::new(
                127,
                0,
                0,
                u8::try_from(1 + block).context("out of loopback source addresses")?,
            );
            socket.bind(SocketAddr::new(IpAddr::V4(source), 0))?;
        }
        let stream = socket.connect(self.server).await?;
        stream.set_nodelay(true)?;
        // Small buffers: tungstenite allocates 128 KiB per socket by default.
        let config = WebSocketConfig::default().read_buffer_size(4096).write_buffer_size(0);
        let handshake = tokio_tungstenite::client_async_with_config(request, stream, Some(config));
        let (ws, _) = tokio::time::timeout(Duration::from_secs(30), handshake)
            .await
            .context("the handshake took over 30 s")??;
        Ok(ws)
    }
}

/// Raises this process's open-file limit to its hard limit; returns the limit.
fn raise_open_file_limit() -> u64 {
    rlimit::increase_nofile_limit(u64::MAX).unwrap_or(1024)
}

/// What the server process used: resident memory (KiB) and CPU time (user + system).
#[derive(Clone, Copy, Default)]
struct Usage {
    rss_kib: u64,
    cpu: Duration,
}

fn usage(pid: Option<u32>) -> Option<Usage> {
    let pid = pid?;
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let rss_kib =
        status.lines().find(|l| l.starts_with("VmRSS:"))?.split_whitespace().nth(1)?.parse().ok()?;
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // The fields after the command (which may hold spaces) in parentheses: utime and
    // stime are the 12th and 13th of them, in clock ticks.
    let fields: Vec<&str> = stat.rsplit_once(')')?.1.split_whitespace().collect();
    let ticks: u64 = fields.get(11)?.parse::<u64>().ok()? + fields.get(12)?.parse::<u64>().ok()?;
    // SAFETY: sysconf has no preconditions.
    let per_second = unsafe { libc::sysconf(libc::_SC_CLK_TCK) }.max(1) as f64;
    Some(Usage { rss_kib, cpu: Duration::from_secs_f64(ticks as f64 / per_second) })
}

/// The game as a socket's first `state` event shows it: (ply, legal moves).
type FirstState = (i64, Vec<String>);

/// Reads `socket` until its first `state` event (other events before it are skipped).
///
/// Why wait for it: the handshake ends before the server has set the socket up (its
/// account checked, the room joined, the game read, the unread notifications counted, a
/// few queries each). A game counts as connected once both of its sockets have their
/// state, as a player's page does, so that the moves measured are not made while the
/// server is still setting up the last sockets opened (2026-11-27: with play starting at
/// the last handshake, the moves of its first 100 ms waited up to 140 ms for that work).
async fn first_state(socket: &mut Ws) -> anyhow::Result<FirstState> {
    let wait = async {
        while let Some(frame) = socket.next().await {
            let Message::Text(text) = frame? else { continue };
            let event: Value = serde_json::from_str(text.as_str())?;
            if event["type"] == "state" {
                return state_of(&event).context("a state without its ply");
            }
        }
        bail!("the socket closed before its first state")
    };
    tokio::time::timeout(Duration::from_secs(30), wait).await.context("no state within 30 s")?
}

/// The ply and legal moves of a `state` event.
fn state_of(event: &Value) -> Option<FirstState> {
    Some((event["game"]["ply"].as_i64()?, strings(&event["game"]["legal_moves"])))
}

/// What one game task measured.
#[derive(Default)]
struct GameStats {
    latencies_us: Vec<u64>,
    /// When each latency was taken (milliseconds since the Unix epoch), in the same order.
    received_at_ms: Vec<u64>,
    moves: u64,
    errors: u64,
}

/// When play starts and ends, sent to every game's task once all are connected.
type PlayTime = Option<(tokio::time::Instant, Instant)>;

/// Plays one game on its two open sockets: the side to move sends a pseudo-random legal
/// move every `1 / rate` s once `start` says when; the latency is taken when the
/// opponent's socket sees it.
///
/// The sockets are read from the moment the game is connected, as a player's page reads
/// them, not only once play starts: the events the server sends meanwhile (the watcher
/// counts as the other games connect, the unread counts of the two accounts, which have a
/// socket on every game) would otherwise wait in the buffers and all be read at the start
/// (2026-11-27: 35,000 events read in the first 100 ms of play, whose moves then waited up
/// to 60 ms for the load generator itself).
async fn play(
    sockets: (Ws, Ws),
    first: FirstState,
    rate: f64,
    mut start: tokio::sync::watch::Receiver<PlayTime>,
    seed: u64,
    phase: f64,
) -> GameStats {
    let mut stats = GameStats::default();
    let (mut red, mut black) = sockets;
    let (mut ply, mut legal) = first;
    let mut rng = seed | 1;
    let mut sent: Option<(i64, Instant)> = None;
    let (start, until) = loop {
        tokio::select! {
            changed = start.changed() => {
                // The sender gone: the run ended before play.
                if changed.is_err() {
                    return stats;
                }
                if let Some(time) = *start.borrow_and_update() {
                    break time;
                }
            }
            frame = red.next() => if handle(frame, 0, &mut ply, &mut legal, &mut sent, &mut stats) != Some(true) {
                return stats;
            },
            frame = black.next() => if handle(frame, 1, &mut ply, &mut legal, &mut sent, &mut stats) != Some(true) {
                return stats;
            },
        }
    };
    let every = Duration::from_secs_f64(1.0 / rate.max(0.001));
    // Each game starts its period at its own random phase, so that the moves of all the
    // games arrive spread over the period like independent players' (not in bursts).
    let offset = every.mul_f64(phase);
    let mut ticker = tokio::time::interval_at(start + offset, every);
    ticker.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    let stop = tokio::time::sleep_until(tokio::time::Instant::from_std(until));
    tokio::pin!(stop);
    loop {
        tokio::select! {
            () = &mut stop => break,
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
    let close = async {
        let _ = red.close(None).await;
        let _ = black.close(None).await;
    };
    let _ = tokio::time::timeout(Duration::from_secs(5), close).await;
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
        "state" if seat == 0 => (*ply, *legal) = state_of(&event)?,
        "move" => {
            let move_ply = event["move"]["ply"].as_i64()?;
            let mover_seat = (move_ply - 1) % 2;
            if seat != mover_seat {
                // The opponent's receipt: this is the latency that counts.
                if let Some((expected, at)) = *sent {
                    if expected == move_ply {
                        stats.latencies_us.push(at.elapsed().as_micros() as u64);
                        stats.received_at_ms.push(unix_ms());
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

/// Now, in milliseconds since the Unix epoch (the clock other processes' logs share).
fn unix_ms() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |since| since.as_millis() as u64)
}

/// `--latency-log`: one line per measured move, `<receipt ms since the epoch> <latency
/// µs>`, in the order of receipt.
fn write_latency_log(path: &std::path::Path, stats: &GameStats) -> std::io::Result<()> {
    use std::io::Write;
    let mut lines: Vec<(u64, u64)> =
        stats.received_at_ms.iter().copied().zip(stats.latencies_us.iter().copied()).collect();
    lines.sort_unstable();
    let mut out = std::io::BufWriter::new(std::fs::File::create(path)?);
    for (at, latency) in lines {
        writeln!(out, "{at} {latency}")?;
    }
    out.flush()
}

/// A pseudo-random phase in [0, 1) for game `index` (splitmix64): uniform over the
/// period whatever the number of games. (A phase of `seed % 1000 / 1000` with the seeds
/// above took only 25 distinct values: the moves of 1,000 games came in 25 bursts of 40.)
fn phase(index: u64) -> f64 {
    let mut z = index.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^= z >> 31;
    (z >> 11) as f64 / (1u64 << 53) as f64
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

/// Runs `jobs` with at most `concurrency` at once, printing progress every few seconds;
/// returns their results in order.
async fn bounded<T, F>(what: &str, concurrency: usize, jobs: Vec<F>) -> Vec<T>
where
    F: std::future::Future<Output = T>,
{
    let total = jobs.len();
    let done = Arc::new(AtomicU64::new(0));
    let started = Instant::now();
    let progress = {
        let done = Arc::clone(&done);
        let what = what.to_owned();
        tokio::spawn(async move {
            loop {
                tokio::time::sleep(Duration::from_secs(5)).await;
                let n = done.load(Ordering::Relaxed);
                eprintln!("{what}: {n} of {total} after {:.0} s", started.elapsed().as_secs_f64());
            }
        })
    };
    let results = futures_util::stream::iter(jobs.into_iter().map(|job| {
        let done = Arc::clone(&done);
        async move {
            let result = job.await;
            done.fetch_add(1, Ordering::Relaxed);
            result
        }
    }))
    .buffered(concurrency.max(1))
    .collect()
    .await;
    progress.abort();
    results
}

fn print_usage(label: &str, before: Option<Usage>, after: Option<Usage>, peak_kib: u64, wall: Duration) {
    if let (Some(before), Some(after)) = (before, after) {
        let cpu = after.cpu.saturating_sub(before.cpu).as_secs_f64();
        println!(
            "server {label}: CPU {cpu:.2} s in {:.1} s ({:.0}% of one core); RSS before {} MiB, peak {} MiB, after {} MiB",
            wall.as_secs_f64(),
            100.0 * cpu / wall.as_secs_f64().max(0.001),
            before.rss_kib / 1024,
            peak_kib.max(after.rss_kib) / 1024,
            after.rss_kib / 1024,
        );
    }
}

/// Samples the server's RSS every half second until dropped; the peak so far.
struct PeakRss {
    peak: Arc<AtomicU64>,
    task: tokio::task::JoinHandle<()>,
}

impl PeakRss {
    fn start(pid: Option<u32>) -> PeakRss {
        let peak = Arc::new(AtomicU64::new(0));
        let sampled = Arc::clone(&peak);
        let task = tokio::spawn(async move {
            loop {
                if let Some(usage) = usage(pid) {
                    sampled.fetch_max(usage.rss_kib, Ordering::Relaxed);
                }
                tokio::time::sleep(Duration::from_millis(500)).await;
            }
        });
        PeakRss { peak, task }
    }

    fn peak(&self) -> u64 {
        self.peak.load(Ordering::Relaxed)
    }
}

impl Drop for PeakRss {
    fn drop(&mut self) {
        self.task.abort();
    }
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let args = Args::parse();
    let files = raise_open_file_limit();
    let sockets_needed = args.idle_sockets.unwrap_or(args.games.max(1) * 2);
    println!("open-file limit {files}; {sockets_needed} sockets to open");
    if sockets_needed as u64 + 64 > files {
        bail!(
            "{sockets_needed} sockets need more open files than this process may have ({files}): \
             raise the hard limit (ulimit -Hn, LimitNOFILE=) for this tool and the server"
        );
    }
    let target = Arc::new(Target::new(&args.server, args.source_offset).await?);
    let api = Api { client: reqwest::Client::new(), base: args.server.clone() };
    let red = api.user("loadgen-red").await?;
    let black = api.user("loadgen-black").await?;
    let games = args.games.max(1);
    let before = usage(args.server_pid);

    if let Some(count) = args.idle_sockets {
        let game = api.game(("loadgen-red", &red), ("loadgen-black", &black)).await?;
        let peak = PeakRss::start(args.server_pid);
        let opening = Instant::now();
        let jobs: Vec<_> = (0..count)
            .map(|index| {
                let target = Arc::clone(&target);
                async move { target.open(index, game, None).await }
            })
            .collect();
        let results = bounded("idle sockets open", args.concurrency, jobs).await;
        let open_after = opening.elapsed();
        let mut sockets = Vec::with_capacity(count);
        let mut failures = 0;
        for result in results {
            match result {
                Ok(socket) => sockets.push(socket),
                Err(error) => {
                    if failures == 0 {
                        eprintln!("a socket failed: {error:#}");
                    }
                    failures += 1;
                }
            }
        }
        println!(
            "idle sockets: {} open ({failures} failed) in {:.1} s; held {} s",
            sockets.len(),
            open_after.as_secs_f64(),
            args.hold_seconds
        );
        let held = usage(args.server_pid);
        let holding = Instant::now();
        // The sockets read nothing meanwhile: a watcher count or two each is all they get.
        tokio::time::sleep(Duration::from_secs(args.hold_seconds)).await;
        let after = usage(args.server_pid);
        print_usage("while opening", before, held, peak.peak(), open_after);
        print_usage("while holding", held, after, peak.peak(), holding.elapsed());
        if let (Some(before), Some(after)) = (before, after) {
            let per_socket =
                (after.rss_kib.saturating_sub(before.rss_kib) * 1024) / sockets.len().max(1) as u64;
            println!("server memory per idle socket: {per_socket} bytes");
        }
        let closing = futures_util::future::join_all(sockets.iter_mut().map(|s| s.close(None)));
        let _ = tokio::time::timeout(Duration::from_secs(30), closing).await;
        return Ok(());
    }

    let creation: Vec<_> = (0..games)
        .map(|_| {
            let api = &api;
            let (red, black) = (&red, &black);
            async move { api.game(("loadgen-red", red), ("loadgen-black", black)).await }
        })
        .collect();
    let ids: Vec<i64> = bounded("games created", args.concurrency.min(16), creation)
        .await
        .into_iter()
        .collect::<anyhow::Result<_>>()?;
    let (play_time, start_signal) = tokio::sync::watch::channel::<PlayTime>(None);
    let opening: Vec<_> = ids
        .iter()
        .enumerate()
        .map(|(i, &game)| {
            let target = Arc::clone(&target);
            let (red, black) = (red.clone(), black.clone());
            let (rate, start_signal) = (args.rate, start_signal.clone());
            async move {
                let mut first = target.open(2 * i, game, Some(&red)).await?;
                let mut second = target.open(2 * i + 1, game, Some(&black)).await?;
                let state = first_state(&mut first).await?;
                first_state(&mut second).await?;
                let seed = i as u64 * 7919 + 1 + (i as u64 % 1000);
                let sockets = (first, second);
                anyhow::Ok(tokio::spawn(play(sockets, state, rate, start_signal, seed, phase(i as u64))))
            }
        })
        .collect();
    drop(start_signal);
    let mut tasks = Vec::with_capacity(games);
    let mut failed = 0;
    for result in bounded("games connected", args.concurrency, opening).await {
        match result {
            Ok(task) => tasks.push(task),
            Err(error) => {
                if failed == 0 {
                    eprintln!("a game's sockets failed: {error:#}");
                }
                failed += 1;
            }
        }
    }
    println!(
        "{} live games connected ({failed} failed); playing {} s at {} moves/s per game",
        tasks.len(),
        args.seconds,
        args.rate
    );
    if let Some(path) = &args.ready_file {
        std::fs::write(path, b"").with_context(|| format!("creating {}", path.display()))?;
    }
    if let Some(path) = &args.start_file {
        println!("waiting for {} to start", path.display());
        while !path.exists() {
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }
    let peak = PeakRss::start(args.server_pid);
    let at_start = usage(args.server_pid);
    let started = Instant::now();
    let start = tokio::time::Instant::now();
    let until = started + Duration::from_secs(args.seconds);
    play_time.send_replace(Some((start, until)));
    let mut all = GameStats::default();
    for task in tasks {
        let stats = task.await?;
        all.latencies_us.extend(stats.latencies_us);
        all.received_at_ms.extend(stats.received_at_ms);
        all.moves += stats.moves;
        all.errors += stats.errors;
    }
    let elapsed = started.elapsed();
    let at_end = usage(args.server_pid);
    if let Some(path) = &args.latency_log {
        write_latency_log(path, &all).with_context(|| format!("writing {}", path.display()))?;
    }
    all.latencies_us.sort_unstable();
    println!(
        "moves: {} in {:.1} s = {:.0} moves/s; errors {}",
        all.moves,
        elapsed.as_secs_f64(),
        all.moves as f64 / elapsed.as_secs_f64(),
        all.errors
    );
    println!(
        "send -> opponent receipt latency: p50 {:.2} ms, p99 {:.2} ms, p99.9 {:.2} ms, max {:.2} ms",
        percentile(&all.latencies_us, 0.50),
        percentile(&all.latencies_us, 0.99),
        percentile(&all.latencies_us, 0.999),
        percentile(&all.latencies_us, 1.0)
    );
    if let Some(before) = before {
        println!("server RSS before the games were made: {} MiB", before.rss_kib / 1024);
    }
    print_usage("while playing", at_start, at_end, peak.peak(), elapsed);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::{phase, write_latency_log, GameStats};

    #[test]
    fn the_latency_log_has_one_line_a_move_in_the_order_of_receipt() {
        // Two games' moves, gathered game after game as the tool does.
        let stats = GameStats {
            latencies_us: vec![1500, 900, 40_000],
            received_at_ms: vec![1_000_020, 1_000_050, 1_000_010],
            ..GameStats::default()
        };
        let path = std::env::temp_dir().join(format!("loadgen-latency-{}.txt", std::process::id()));
        write_latency_log(&path, &stats).unwrap();
        let text = std::fs::read_to_string(&path).unwrap();
        std::fs::remove_file(&path).unwrap();
        assert_eq!(text, "1000010 40000\n1000020 1500\n1000050 900\n");
    }

    #[test]
    fn the_games_phases_spread_evenly_over_the_period() {
        let games = 1000;
        let mut buckets = [0u32; 100];
        for index in 0..games {
            let p = phase(index);
            assert!((0.0..1.0).contains(&p), "phase {p} of game {index}");
            buckets[(p * 100.0) as usize] += 1;
        }
        // 10 a bucket on average; a burst (many games on one phase) would overfill one.
        let fullest = *buckets.iter().max().unwrap();
        let emptiest = *buckets.iter().min().unwrap();
        assert!(fullest <= 25 && emptiest >= 1, "buckets from {emptiest} to {fullest}: {buckets:?}");
    }
}
