//! Mail benchmark (not a test): notifications per second one instance sends through its
//! outbox to a local SMTP server (`scripts/smtp_sink.py`, aiosmtpd), from claim to the
//! relay's 250 and the recorded outcome.
//!
//! `cargo bench -p tavoliere --bench mail` (optionally `-- <mails per run>`; default 2000).
//! Two runs: account mails (template and SMTP only) and "your move" mails (each also reads
//! its game's view and the reader's notation).

use std::io::{BufRead, BufReader};
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::json;
use tavoliere::config::MailSettings;
use tavoliere::startup::Application;
use tavoliere::storage::embedded::EmbeddedPostgres;

mod support;

#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> anyhow::Result<()> {
    let count: i64 = std::env::args().skip(1).find_map(|a| a.parse().ok()).unwrap_or(2000);
    let dir = support::scratch_dir("tavoliere-mail-bench");
    let sink_out = dir.with_extension("jsonl");
    let mut sink = Command::new("python3")
        .arg(PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("scripts/smtp_sink.py"))
        .arg("--out")
        .arg(&sink_out)
        .stdout(Stdio::piped())
        .spawn()?;
    let mut line = String::new();
    BufReader::new(sink.stdout.take().expect("piped")).read_line(&mut line)?;
    let smtp_port: u16 = line.trim().parse()?;
    let cluster = EmbeddedPostgres::start(&dir, 0)?;
    let runtime = tokio::runtime::Builder::new_multi_thread().enable_all().build()?;
    let result = runtime.block_on(async {
        let mut settings = support::settings_on(&cluster, &dir, "tavoliere").await?;
        settings.mail = MailSettings {
            smtp_url: Some(format!("smtp://127.0.0.1:{smtp_port}").into()),
            poll_interval_ms: 20,
            alarm_interval_seconds: 0,
            ..MailSettings::default()
        };
        let app = Application::build(settings).await?;
        let base = format!("http://127.0.0.1:{}", app.port());
        let pool = app.domain().pool.clone();
        tokio::spawn(app.run_until(std::future::pending()));
        let http = reqwest::Client::new();
        for name in ["alice", "bob"] {
            let body = json!({"username": name, "password": "a long secret"});
            http.post(format!("{base}/api/accounts")).json(&body).send().await?.error_for_status()?;
        }
        sqlx::query("update account set email = username || '@example.org', email_verified_at = now()")
            .execute(&pool)
            .await?;
        println!("{:>12} {:>8} {:>10} {:>14}", "kind", "mails", "seconds", "mails/second");
        // Account mails: the outbox, the templates, SMTP.
        let account_mails = format!(
            "insert into notification (account_id, kind, to_address, details, in_app, created_at)
             select 1, 'verify-email', 'n' || i || '@example.org',
                 jsonb_build_object('email', 'alice@example.org', 'expires', 0), false, now()
             from generate_series(1, {count}) as i"
        );
        measure(&pool, "verify-email", &account_mails, count).await?;
        // "Your move" in one game of bob's: each mail reads the game's view.
        let token: serde_json::Value = http
            .post(format!("{base}/api/tokens"))
            .json(&json!({"username": "alice", "password": "a long secret"}))
            .send()
            .await?
            .json()
            .await?;
        let challenge: serde_json::Value = http
            .post(format!("{base}/api/challenges"))
            .bearer_auth(token["token"].as_str().unwrap_or_default())
            .json(&json!({"variant": "xiangqi", "opponent": "bob", "color": "first",
                          "time_control": {"kind": "days-per-move", "days": 3}}))
            .send()
            .await?
            .json()
            .await?;
        let bob: serde_json::Value = http
            .post(format!("{base}/api/tokens"))
            .json(&json!({"username": "bob", "password": "a long secret"}))
            .send()
            .await?
            .json()
            .await?;
        let accepted: serde_json::Value = http
            .post(format!("{base}/api/challenges/{}/accept", challenge["id"]))
            .bearer_auth(bob["token"].as_str().unwrap_or_default())
            .json(&json!({}))
            .send()
            .await?
            .json()
            .await?;
        let game = accepted["game_id"].as_i64().unwrap_or_default();
        // Bob to move at ply 0 would be wrong: alice moves first, then bob is to move.
        http.post(format!("{base}/api/games/{game}/moves"))
            .bearer_auth(token["token"].as_str().unwrap_or_default())
            .json(&json!({"move": "h2e2", "ply": 0}))
            .send()
            .await?
            .error_for_status()?;
        sqlx::query("delete from notification").execute(&pool).await?;
        let your_moves = format!(
            "insert into notification (account_id, kind, game_id, details, created_at)
             select 2, 'your-move', {game}, jsonb_build_object('ply', 1), now()
             from generate_series(1, {count}) as i"
        );
        measure(&pool, "your-move", &your_moves, count).await?;
        anyhow::Ok(())
    });
    let _ = sink.kill();
    let _ = sink.wait();
    let _ = std::fs::remove_file(&sink_out);
    cluster.stop_and_delete()?;
    result
}

/// Queues `count` mails with `insert` and times until all are recorded sent.
async fn measure(pool: &sqlx::PgPool, kind: &str, insert: &str, count: i64) -> anyhow::Result<()> {
    let start = Instant::now();
    sqlx::query(insert).execute(pool).await?;
    loop {
        let (sent, failed): (i64, i64) = sqlx::query_as(
            "select count(*) filter (where mail_state = 'sent'), count(*) filter (where mail_state = 'failed')
             from notification where kind = $1",
        )
        .bind(kind)
        .fetch_one(pool)
        .await?;
        anyhow::ensure!(failed == 0, "{failed} mails failed");
        if sent >= count {
            break;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    let seconds = start.elapsed().as_secs_f64();
    println!("{kind:>12} {count:>8} {seconds:>10.2} {:>14.0}", count as f64 / seconds);
    Ok(())
}
