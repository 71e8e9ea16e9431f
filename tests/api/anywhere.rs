//! Issue #19 §1: the binary runs from anywhere. Started in a directory with no `config/`
//! and no `static/` (a systemd unit, `cargo install`, a container), the server still has
//! its configuration and its files, says which configuration files it read, and browsers
//! cache the files by their content's hash. Started under a low soft open-file limit (a
//! shell's or systemd's 1,024), it raises it to the hard one.

use reqwest::header::{CACHE_CONTROL, ETAG, IF_NONE_MATCH, SET_COOKIE};
use reqwest::StatusCode;

use crate::support::cluster::Cluster;
use crate::support::process::ServerProcess;

/// The soft and hard "Max open files" of process `pid` (`/proc/<pid>/limits`).
fn open_file_limits(pid: u32) -> (u64, u64) {
    let limits = std::fs::read_to_string(format!("/proc/{pid}/limits")).expect("the process's limits");
    let line = limits.lines().find(|l| l.starts_with("Max open files")).expect("an open-files line");
    let numbers: Vec<u64> = line.split_whitespace().filter_map(|word| word.parse().ok()).collect();
    (numbers[0], numbers[1])
}

#[tokio::test]
async fn a_server_started_under_a_low_soft_open_file_limit_raises_it_to_the_hard_one() {
    use std::os::unix::process::CommandExt;
    let (_, hard) = rlimit::Resource::NOFILE.get().expect("this process's limits");
    // Each socket is a file: a test under the 1,024 a shell gives would prove nothing.
    let soft = 256.min(hard);
    assert!(hard > soft, "the hard open-file limit ({hard}) leaves nothing to raise");
    let database_url = Cluster::get().fresh_database().await;
    let directory = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let server = ServerProcess::start_configured(
        directory,
        &[("TAVOLIERE_DATABASE__URL", &database_url)],
        |command| {
            // SAFETY: setrlimit is async-signal-safe; the closure allocates nothing.
            unsafe {
                command.pre_exec(move || rlimit::setrlimit(rlimit::Resource::NOFILE, soft, hard));
            }
        },
    );
    assert_eq!(open_file_limits(server.id()), (hard, hard), "the soft limit raised to the hard one");
    let logged = server.log().iter().any(|l| l.contains("open-file limit") && l.contains(&hard.to_string()));
    assert!(logged, "the limit is logged: {:#?}", server.log());
    let health = reqwest::get(format!("{}/readyz", server.address)).await.expect("readiness");
    assert_eq!(health.status(), StatusCode::OK);
}

#[tokio::test]
async fn a_server_started_in_another_directory_serves_its_pages_files_and_configuration() {
    let database_url = Cluster::get().fresh_database().await;
    let elsewhere =
        std::env::temp_dir().join(format!("tavoliere-elsewhere-{}", uuid::Uuid::new_v4().simple()));
    std::fs::create_dir_all(&elsewhere).expect("an empty working directory");
    let server = ServerProcess::start_in(&elsewhere, &[("TAVOLIERE_DATABASE__URL", &database_url)]);
    let client = reqwest::Client::new();

    let login_page = client.get(format!("{}/login", server.address)).send().await.expect("login page");
    assert_eq!(login_page.status(), StatusCode::OK);
    // The built-in local.toml applies: no Secure flag, so logging in over plain http
    // works (without it the session cookie never came back and every login got 403).
    let cookie = login_page.headers().get(SET_COOKIE).expect("a session cookie").to_str().unwrap().to_owned();
    assert!(!cookie.contains("Secure"), "local configuration read from the binary: {cookie}");
    let html = login_page.text().await.expect("page");
    let start = html.find("/static/site.css?v=").expect("the stylesheet is linked by its content's hash");
    let link: String = html[start..].chars().take_while(|c| *c != '"').collect();

    let css = client.get(format!("{}{link}", server.address)).send().await.expect("stylesheet");
    assert_eq!(css.status(), StatusCode::OK, "the stylesheet comes from the binary");
    assert_eq!(css.headers()[CACHE_CONTROL], "public, max-age=31536000, immutable");
    assert!(css.headers()["content-type"].to_str().unwrap().starts_with("text/css"));
    let etag = css.headers()[ETAG].clone();
    assert!(css.text().await.unwrap().contains("body"));

    // An unversioned (or outdated) link is revalidated, and answered 304 when unchanged.
    let plain = client.get(format!("{}/static/site.css?v=0000", server.address)).send().await.unwrap();
    assert_eq!(plain.headers()[CACHE_CONTROL], "no-cache");
    let again = client
        .get(format!("{}/static/site.css", server.address))
        .header(IF_NONE_MATCH, etag)
        .send()
        .await
        .unwrap();
    assert_eq!(again.status(), StatusCode::NOT_MODIFIED);
    assert_eq!(
        client.get(format!("{}/static/live.js", server.address)).send().await.unwrap().status(),
        StatusCode::OK
    );

    let log = server.log().join("\n");
    assert!(log.contains("configuration loaded"), "{log}");
    assert!(log.contains("not_found") && log.contains("elsewhere"), "the missing files are named: {log}");
    drop(server);
    std::fs::remove_dir_all(&elsewhere).ok();
}
