//! The `tavoliere` command line as a user runs it: a real process, real pipes.

use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};

fn tavoliere() -> Command {
    Command::new(env!("CARGO_BIN_EXE_tavoliere"))
}

/// Issue 15 §5: `tavoliere replay … | head` ends quietly; it used to panic when `head`
/// closed the pipe.
#[test]
fn replay_into_a_closed_pipe_ends_quietly() {
    // Enough games that the output outgrows the pipe's buffer.
    let record: String = (0..5_000).map(|_| "h2e2 h9g7 h0g2 i9h9\n").collect();
    let path = std::env::temp_dir().join(format!("tavoliere-cli-{}.txt", std::process::id()));
    std::fs::write(&path, record).unwrap();
    let mut child = tavoliere()
        .args(["replay", "xiangqi"])
        .arg(&path)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start `tavoliere replay`");
    let mut stdout = BufReader::new(child.stdout.take().expect("piped stdout"));
    let mut first = String::new();
    stdout.read_line(&mut first).unwrap();
    assert!(first.starts_with(r#"{"game":1,"plies":4,"#), "{first}");
    drop(stdout); // as `head -1` does
    let output = child.wait_with_output().unwrap();
    std::fs::remove_file(&path).ok();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(!stderr.contains("panicked") && stderr.trim().is_empty(), "stderr: {stderr}");
    assert!(output.status.success(), "every game replayed: {:?}", output.status);
}

/// An error line names the line and column of the token, additively (issue 15 §5).
#[test]
fn a_replay_error_names_line_column_and_code() {
    let mut child = tavoliere()
        .args(["replay", "xiangqi", "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("start `tavoliere replay`");
    child.stdin.take().unwrap().write_all(b"[Event \"club\"]\n1.Bh3e3 Ch10g8;\n2.Ch1g3 zz\n").unwrap();
    let output = child.wait_with_output().unwrap();
    assert_eq!(output.status.code(), Some(1));
    let line: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(line["plies"], 3);
    let error = &line["error"];
    assert_eq!((error["ply"].as_u64(), error["move"].as_str()), (Some(4), Some("zz")));
    assert_eq!((error["line"].as_u64(), error["column"].as_u64()), (Some(3), Some(9)));
    assert_eq!(error["code"], "notation.unreadable");
    assert!(error["reason"].is_string());
}

/// Issue 40 §5: `--version` names the commit the binary was built from (and whether the
/// tree had changes not committed), so an operator can tell two builds of 0.1.0 apart.
#[test]
fn the_version_names_the_commit_it_was_built_from() {
    let output = tavoliere().arg("--version").output().expect("run tavoliere --version");
    assert!(output.status.success());
    let text = String::from_utf8(output.stdout).expect("text");
    let version = text.trim().strip_prefix("tavoliere ").expect("the program's name first");
    let commit = version
        .strip_prefix(concat!(env!("CARGO_PKG_VERSION"), " ("))
        .and_then(|rest| rest.strip_suffix(')'))
        .unwrap_or_else(|| panic!("`{version}` is `<version> (<commit>)`"));
    let hash = commit.strip_suffix("-dirty").unwrap_or(commit);
    let head = Command::new("git")
        .args(["rev-parse", "--short=12", "HEAD"])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("git: the tests run from a checkout");
    let head = String::from_utf8(head.stdout).unwrap().trim().to_owned();
    assert_eq!(hash, head, "the commit checked out when the binary was built");
}
