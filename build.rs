//! Build facts the binary reports.
//!
//! - `sqlx::migrate!` embeds the `migrations/` directory at compile time, and cargo does
//!   not watch it by itself: a migration added or changed rebuilds the server.
//! - `tavoliere --version` names the commit it was built from and whether the tree had
//!   changes not committed (issue 40 §5): `TAVOLIERE_COMMIT` is `<short hash>` or
//!   `<short hash>-dirty`, from git when the source is a checkout, else from the
//!   environment variable `TAVOLIERE_BUILD_COMMIT` (a container build has no `.git`), else
//!   `unknown`.

use std::process::Command;

fn main() {
    println!("cargo:rerun-if-changed=migrations");
    println!("cargo:rerun-if-env-changed=TAVOLIERE_BUILD_COMMIT");
    // A new commit moves HEAD or the branch it names; a change to the tree changes the
    // sources (and the index once staged).
    for watched in [
        ".git/HEAD",
        ".git/index",
        ".git/refs/heads",
        "server",
        "rules/src",
        "tournament/src",
        "migrations",
        "templates",
        "static",
        "config",
        "locales",
    ] {
        println!("cargo:rerun-if-changed={watched}");
    }
    let commit = git(&["rev-parse", "--short=12", "HEAD"]).map(|hash| {
        let dirty = git(&["status", "--porcelain", "--untracked-files=no"])
            .is_some_and(|changes| !changes.is_empty());
        if dirty {
            format!("{hash}-dirty")
        } else {
            hash
        }
    });
    let commit = commit
        .or_else(|| std::env::var("TAVOLIERE_BUILD_COMMIT").ok().filter(|given| !given.trim().is_empty()))
        .unwrap_or_else(|| "unknown".to_owned());
    println!("cargo:rustc-env=TAVOLIERE_COMMIT={commit}");
}

/// What `git args` prints, trimmed; `None` when git is missing or fails (not a checkout).
fn git(args: &[&str]) -> Option<String> {
    let output = Command::new("git").args(args).output().ok()?;
    output.status.success().then(|| String::from_utf8_lossy(&output.stdout).trim().to_owned())
}
