//! The operator's commands against a running server on the embedded private cluster:
//! `admin create-user` and `migrate` beside a server, two servers on one data directory,
//! a crashed server. A process stops the cluster only when it is the last one using it.
//! An operator command makes no new cluster unless asked and says which database it used;
//! a restore is refused beside a running server (issue 36 §5).

use std::io::Write;
use std::path::Path;
use std::process::Stdio;

use reqwest::StatusCode;
use serde_json::json;

use crate::support::process::{tavoliere_command, DataDir, ServerProcess};
use tavoliere::storage::embedded::EmbeddedPostgres;

/// Runs `tavoliere <args>` on the private cluster of `data_dir` with `stdin` as its
/// standard input; asserts success and returns the last line of its standard output (the
/// first says which database the command used).
fn run(data_dir: &Path, args: &[&str], stdin: &str) -> String {
    let output = run_all(data_dir, args, stdin);
    let mut lines = output.lines();
    let first = lines.next().unwrap_or_default();
    assert!(first.starts_with("database: the private cluster in "), "{output}");
    lines.last().unwrap_or_default().to_owned()
}

/// [`run`], returning the whole standard output.
fn run_all(data_dir: &Path, args: &[&str], stdin: &str) -> String {
    let mut child = tavoliere_command()
        .args(args)
        .env("TAVOLIERE_DATABASE__EMBEDDED_DATA_DIR", data_dir)
        .env("RUST_LOG", "warn")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run tavoliere");
    child.stdin.take().expect("stdin").write_all(stdin.as_bytes()).expect("write stdin");
    let output = child.wait_with_output().expect("tavoliere exits");
    assert!(
        output.status.success(),
        "tavoliere {args:?} failed: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8(output.stdout).expect("UTF-8 output")
}

/// Asserts that `server` answers and reaches its database: the health check and a login
/// of `boss` (a read of the account and a write of a token).
async fn assert_serves(server: &ServerProcess) {
    let client = reqwest::Client::new();
    let health = client.get(format!("{}/healthz", server.address)).send().await.expect("health check");
    assert_eq!(health.status(), StatusCode::OK, "the server reaches its database; log: {:#?}", server.log());
    let login = client
        .post(format!("{}/api/tokens", server.address))
        .json(&json!({"username": "boss", "password": "a long secret"}))
        .send()
        .await
        .expect("login");
    assert_eq!(login.status(), StatusCode::CREATED, "the admin can log in");
}

#[tokio::test]
async fn operator_commands_and_other_servers_leave_a_running_server_its_cluster() {
    let data_dir = DataDir::new();
    let mut first = ServerProcess::start_embedded(&data_dir.0);
    let port = data_dir.cluster_port().expect("the first server started the cluster");

    // The README's way to make the first admin, beside the running server.
    let created = run(
        &data_dir.0,
        &["admin", "create-user", "boss", "--role", "admin", "--password-stdin"],
        "a long secret\n",
    );
    assert_eq!(created.trim(), "created boss (admin)");
    assert_eq!(data_dir.cluster_port(), Some(port), "create-user left the cluster running");
    assert_serves(&first).await;

    // A role granted on the command line (issue 20 §1), recorded in the audit log as made
    // by nobody, and seen by the running server.
    run(&data_dir.0, &["admin", "create-user", "dora", "--password-stdin"], "dora's secret\n");
    let granted = run(&data_dir.0, &["admin", "set-role", "dora", "global-director"], "");
    assert_eq!(granted.trim(), "dora is now global-director");
    let client = reqwest::Client::new();
    let token = client
        .post(format!("{}/api/tokens", first.address))
        .json(&json!({"username": "boss", "password": "a long secret"}))
        .send()
        .await
        .expect("login")
        .json::<serde_json::Value>()
        .await
        .expect("token")["token"]
        .as_str()
        .expect("a token")
        .to_owned();
    let log: serde_json::Value = client
        .get(format!("{}/api/admin/audit", first.address))
        .bearer_auth(&token)
        .send()
        .await
        .expect("audit log")
        .json()
        .await
        .expect("JSON");
    assert_eq!(log[0]["account"], "dora");
    assert_eq!(log[0]["changed_by"], serde_json::Value::Null, "the command line");
    assert_eq!(
        (log[0]["old_value"].as_str(), log[0]["new_value"].as_str()),
        (Some("player"), Some("global-director"))
    );

    assert_eq!(run(&data_dir.0, &["migrate"], "").trim(), "migrations applied");
    assert_eq!(data_dir.cluster_port(), Some(port), "migrate left the cluster running");
    assert_serves(&first).await;

    // A second server on the same data directory; the first one leaves gracefully.
    let mut second = ServerProcess::start_embedded(&data_dir.0);
    assert_serves(&second).await;
    let status = first.terminate().expect("the first server exits on SIGTERM");
    assert!(status.success(), "{status:?}; log: {:#?}", first.log());
    assert_eq!(data_dir.cluster_port(), Some(port), "the first server left the cluster to the second");
    assert_serves(&second).await;

    // A third server; the second one crashes: its lock goes with it.
    let mut third = ServerProcess::start_embedded(&data_dir.0);
    second.kill();
    assert_serves(&third).await;

    // The last one out stops the cluster, even though it did not start it.
    let status = third.terminate().expect("the third server exits on SIGTERM");
    assert!(status.success(), "{status:?}; log: {:#?}", third.log());
    assert_eq!(data_dir.cluster_port(), None, "the last server out stopped the cluster");

    // Alone, a command starts the cluster and stops it again.
    let created =
        run(&data_dir.0, &["admin", "create-user", "deputy", "--password-stdin"], "another secret\n");
    assert_eq!(created.trim(), "created deputy (player)");
    assert_eq!(data_dir.cluster_port(), None, "a command run alone stops the cluster it started");
}

/// Issue #19 §5: a backup of the embedded database, changes made after it, and a restore
/// that brings the database back to the backup (a damaged file changes nothing).
#[tokio::test(flavor = "multi_thread")]
async fn a_backup_restored_brings_the_database_back_to_its_moment() {
    let data_dir = DataDir::new();
    let created = run(
        &data_dir.0,
        &["admin", "create-user", "boss", "--password-stdin", "--create-database"],
        "a long secret\n",
    );
    assert_eq!(created.trim(), "created boss (player)");
    let file = data_dir.0.with_extension("backup");
    let file_arg = file.display().to_string();
    let written = run(&data_dir.0, &["admin", "backup", &file_arg], "");
    assert!(written.starts_with(&format!("backup written to {file_arg} (")), "{written}");
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(&file).expect("the backup").permissions().mode() & 0o777;
        assert_eq!(mode, 0o600, "a backup holds password hashes and tokens: its owner's alone");
    }
    run(&data_dir.0, &["admin", "create-user", "later", "--password-stdin"], "another secret\n");

    // A damaged file is refused and changes nothing.
    let damaged = data_dir.0.with_extension("damaged");
    std::fs::write(&damaged, b"not a backup").unwrap();
    let refused = tavoliere_command()
        .args(["admin", "restore", &damaged.display().to_string()])
        .env("TAVOLIERE_DATABASE__EMBEDDED_DATA_DIR", &data_dir.0)
        .env("RUST_LOG", "warn")
        .output()
        .expect("run restore");
    assert!(!refused.status.success(), "a damaged backup is refused");

    let restored = run(&data_dir.0, &["admin", "restore", &file_arg], "");
    assert_eq!(restored.trim(), format!("restored {file_arg}"));
    let server = tokio::task::block_in_place(|| ServerProcess::start_embedded(&data_dir.0));
    let client = reqwest::Client::new();
    let login = |name: &'static str, password: &'static str| {
        let client = client.clone();
        let address = server.address.clone();
        async move {
            client
                .post(format!("{address}/api/tokens"))
                .json(&json!({"username": name, "password": password}))
                .send()
                .await
                .expect("login")
                .status()
        }
    };
    assert_eq!(login("boss", "a long secret").await, StatusCode::CREATED, "the backup's account is back");
    assert_eq!(login("later", "another secret").await, StatusCode::UNAUTHORIZED, "the later one is gone");
    drop(server);
    let _ = std::fs::remove_file(&file);
    let _ = std::fs::remove_file(&damaged);
}

/// `tavoliere <args>` on the private cluster of `data_dir` → its exit status, standard
/// output and standard error.
fn attempt(data_dir: &Path, args: &[&str]) -> (std::process::ExitStatus, String, String) {
    let output = tavoliere_command()
        .args(args)
        .env("TAVOLIERE_DATABASE__EMBEDDED_DATA_DIR", data_dir)
        .env("RUST_LOG", "warn")
        .stdin(Stdio::null())
        .output()
        .expect("run tavoliere");
    let text = |bytes: Vec<u8>| String::from_utf8(bytes).expect("UTF-8 output");
    (output.status, text(output.stdout), text(output.stderr))
}

/// Issue 36 §5: run from a directory with no database, an operator command makes none
/// unless asked, and says which database it used.
#[test]
fn an_operator_command_makes_no_database_unless_asked() {
    let data_dir = DataDir::new();
    let exists = || EmbeddedPostgres::exists_in(&data_dir.0).expect("a current directory");
    for args in [
        &["migrate"][..],
        &["admin", "set-role", "boss", "admin"],
        &["admin", "backup", "/dev/null"],
        &["admin", "restore", "Cargo.toml"],
    ] {
        let (status, stdout, stderr) = attempt(&data_dir.0, args);
        assert!(!status.success(), "{args:?} refused");
        assert!(stderr.contains("--create-database"), "{args:?} says how: {stderr}");
        assert!(stdout.is_empty(), "{stdout}");
        assert!(!exists(), "{args:?} made no cluster");
    }
    let mut child = tavoliere_command()
        .args(["admin", "create-user", "boss", "--password-stdin"])
        .env("TAVOLIERE_DATABASE__EMBEDDED_DATA_DIR", &data_dir.0)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run tavoliere");
    child.stdin.take().expect("stdin").write_all(b"a long secret\n").expect("write stdin");
    let refused = child.wait_with_output().expect("tavoliere exits");
    assert!(!refused.status.success(), "create-user refused");
    assert!(String::from_utf8_lossy(&refused.stdout).is_empty(), "no `created` line");
    assert!(!exists(), "no cluster made");
    let output = run_all(
        &data_dir.0,
        &["admin", "--create-database", "create-user", "boss", "--password-stdin"],
        "a long secret\n",
    );
    let lines: Vec<&str> = output.lines().collect();
    assert_eq!(lines.len(), 2, "{output}");
    assert!(lines[0].starts_with("database: the private cluster in "), "{output}");
    assert_eq!(lines[1], "created boss (player)");
    assert!(exists());
    // Now that it exists, no flag is needed.
    assert_eq!(run(&data_dir.0, &["admin", "set-role", "boss", "admin"], ""), "boss is now admin");
}

/// Issue 36 §5: `admin restore` beside a running server is refused (exit non-zero, the
/// database unchanged); `--force` replaces it under the server.
#[tokio::test(flavor = "multi_thread")]
async fn a_restore_beside_a_running_server_is_refused_unless_forced() {
    let data_dir = DataDir::new();
    run(
        &data_dir.0,
        &["admin", "create-user", "boss", "--password-stdin", "--create-database"],
        "a long secret\n",
    );
    let file = data_dir.0.with_extension("backup");
    let file_arg = file.display().to_string();
    run(&data_dir.0, &["admin", "backup", &file_arg], "");
    run(&data_dir.0, &["admin", "create-user", "later", "--password-stdin"], "another secret\n");
    let server = tokio::task::block_in_place(|| ServerProcess::start_embedded(&data_dir.0));
    let login = |name: &'static str, password: &'static str| {
        let address = server.address.clone();
        async move {
            reqwest::Client::new()
                .post(format!("{address}/api/tokens"))
                .json(&json!({"username": name, "password": password}))
                .send()
                .await
                .expect("login")
                .status()
        }
    };
    let (status, stdout, stderr) =
        tokio::task::block_in_place(|| attempt(&data_dir.0, &["admin", "restore", &file_arg]));
    assert!(!status.success(), "refused beside the server: {stdout}");
    assert!(stderr.contains("another process uses the database"), "{stderr}");
    assert!(!stdout.contains("restored"), "{stdout}");
    assert_eq!(login("later", "another secret").await, StatusCode::CREATED, "the database is unchanged");
    assert_serves(&server).await;

    let forced =
        tokio::task::block_in_place(|| run(&data_dir.0, &["admin", "restore", &file_arg, "--force"], ""));
    assert_eq!(forced, format!("restored {file_arg}"));
    // The server's connections were ended; its pool opens new ones on the restored database.
    let mut status = StatusCode::CREATED;
    for _ in 0..50 {
        status = login("later", "another secret").await;
        if status == StatusCode::UNAUTHORIZED {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    assert_eq!(status, StatusCode::UNAUTHORIZED, "the account made after the backup is gone");
    assert_eq!(login("boss", "a long secret").await, StatusCode::CREATED);
    drop(server);
    // Alone, the restore goes ahead.
    run(&data_dir.0, &["admin", "create-user", "again", "--password-stdin"], "a third secret\n");
    assert_eq!(run(&data_dir.0, &["admin", "restore", &file_arg], ""), format!("restored {file_arg}"));
    let _ = std::fs::remove_file(&file);
}

/// Issue 36 §5: on an external database, a server connected to it (a session named
/// `tavoliere` in `pg_stat_activity`) makes a restore refuse; with no server it goes ahead.
#[tokio::test(flavor = "multi_thread")]
async fn a_restore_of_an_external_database_is_refused_while_a_server_is_connected() {
    let url = crate::support::Cluster::get().fresh_database().await;
    let external = |args: &[&str]| {
        tavoliere_command()
            .args(args)
            .env("TAVOLIERE_DATABASE__URL", &url)
            .env("RUST_LOG", "warn")
            .stdin(Stdio::null())
            .output()
            .expect("run tavoliere")
    };
    let file =
        std::env::temp_dir().join(format!("tavoliere-external-{}.backup", uuid::Uuid::new_v4().simple()));
    let file_arg = file.display().to_string();
    let backup = tokio::task::block_in_place(|| external(&["admin", "backup", &file_arg]));
    assert!(backup.status.success(), "{}", String::from_utf8_lossy(&backup.stderr));
    let first = String::from_utf8(backup.stdout).unwrap();
    assert!(first.starts_with("database: postgres://"), "{first}");
    assert!(!first.contains(&url), "the password is not printed: {first}");
    let server = tokio::task::block_in_place(|| ServerProcess::start(&url));
    let refused = tokio::task::block_in_place(|| external(&["admin", "restore", &file_arg]));
    assert!(!refused.status.success(), "refused while the server is connected");
    assert!(String::from_utf8_lossy(&refused.stderr).contains("another process uses the database"));
    assert_serves_health(&server).await;
    drop(server);
    let restored = tokio::task::block_in_place(|| external(&["admin", "restore", &file_arg]));
    assert!(restored.status.success(), "{}", String::from_utf8_lossy(&restored.stderr));
    let _ = std::fs::remove_file(&file);
}

/// Asserts that `server` answers its health check.
async fn assert_serves_health(server: &ServerProcess) {
    let health = reqwest::get(format!("{}/healthz", server.address)).await.expect("health check");
    assert_eq!(health.status(), StatusCode::OK);
}
