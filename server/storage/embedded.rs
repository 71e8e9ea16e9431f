//! The embedded default: a private PostgreSQL cluster run from the machine's PostgreSQL
//! binaries (found on `PATH` or under `/usr/lib/postgresql/*/bin`).
//!
//! PostgreSQL refuses to run as root. When the server runs as root (containers, CI) the
//! cluster commands run as the unprivileged `postgres` account through `runuser`, and the
//! data directory moves to `/var/tmp/tavoliere-<hash of the configured path>` so that
//! every parent directory is traversable by that account (`/root` is not).
//!
//! # Sharing one cluster
//!
//! Several processes may use the cluster of one data directory at once: a server, a
//! second server, `tavoliere admin create-user` or `migrate` run beside them, an old
//! server still in its graceful shutdown. Two lock files next to the data directory
//! decide who starts and who stops it:
//!
//! - `<data dir>.start-stop.lock`: held exclusively while a process starts or stops the
//!   cluster, so that one process never stops it while another is taking it up. It also
//!   records the postmaster (process id and start time) that a Tavoliere process started.
//! - `<data dir>.users.lock`: every process using the cluster holds a shared lock on it.
//!   The kernel drops the locks of a process that dies, however it dies, so a killed
//!   process never keeps the cluster up nor stops anybody from stopping it.
//!
//! A process leaving takes the start-stop lock, gives up its shared lock and tries an
//! exclusive one: only when that succeeds (nobody else uses the cluster) and the running
//! postmaster is the one a Tavoliere process started does it stop the cluster. The last
//! one out stops it; a cluster somebody started by hand is left running.
//!
//! # Password
//!
//! The cluster asks for a password (`scram-sha-256`), not `trust`, so that other local
//! users cannot connect as its superuser: `initdb` is given a generated secret, kept in
//! `<data dir>/tavoliere.password` (mode 0600, read by every Tavoliere process that uses
//! the cluster). A cluster created by an older Tavoliere with `trust` gets a password at
//! its next start, and its `pg_hba.conf` switched to `scram-sha-256` once no other process
//! uses it: an older release still serving beside the new one (a rolling upgrade) connects
//! without a password and would be refused from the switch on (issue 40 §1). The
//! supervisor tries again every few seconds until the older processes have left.
//!
//! # Supervision
//!
//! [`EmbeddedPostgres::postmaster_state`] tells whether the postmaster still lives and
//! [`EmbeddedPostgres::restart`] starts it again in place (`storage::supervise`).

use std::fs::File;
use std::io::{Read, Seek, Write};
use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::time::Duration;

use anyhow::{bail, Context};

/// What a look at the postmaster found.
#[derive(Debug)]
pub enum Postmaster {
    /// Its process lives.
    Running,
    /// There is none: no pid file, or no process of that id.
    Gone,
    /// The look failed (the reason): nothing is known.
    Unknown(String),
}

/// [`EmbeddedPostgres::postmaster_state`] of the cluster in `data_dir`.
fn postmaster_state_in(data_dir: &Path) -> Postmaster {
    let pid_file = match std::fs::read_to_string(data_dir.join("postmaster.pid")) {
        Ok(text) => text,
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => return Postmaster::Gone,
        Err(error) => return Postmaster::Unknown(format!("reading postmaster.pid: {error}")),
    };
    // The postmaster writes its pid on the first line as it starts.
    let Some(pid) = pid_file.lines().next().and_then(|line| line.trim().parse::<libc::pid_t>().ok()) else {
        return Postmaster::Unknown("postmaster.pid has no process id (yet)".to_owned());
    };
    // SAFETY: signal 0 only checks that the process exists and may be signalled.
    if unsafe { libc::kill(pid, 0) } == 0 {
        // A killed postmaster stays a zombie until its parent (init, or a container's
        // first process, which may be slow to reap) collects it, and a zombie takes
        // signals: it is gone all the same.
        return if is_zombie(pid) { Postmaster::Gone } else { Postmaster::Running };
    }
    let error = std::io::Error::last_os_error();
    match error.raw_os_error() {
        // It exists, run by another account (the `postgres` account when we are not root).
        Some(libc::EPERM) => Postmaster::Running,
        Some(libc::ESRCH) => Postmaster::Gone,
        _ => Postmaster::Unknown(format!("signalling the postmaster: {error}")),
    }
}

/// Whether process `pid` has exited and waits to be reaped (state `Z` or `X` in
/// `/proc/<pid>/stat`); `false` when that cannot be read.
fn is_zombie(pid: libc::pid_t) -> bool {
    let Ok(stat) = std::fs::read_to_string(format!("/proc/{pid}/stat")) else { return false };
    // `pid (command) state ...`: the command may hold spaces and parentheses.
    let state = stat.rfind(')').and_then(|end| stat[end + 1..].split_whitespace().next());
    matches!(state, Some("Z" | "X"))
}

/// The account that runs the cluster when the server runs as root.
const UNPRIVILEGED_ACCOUNT: &str = "postgres";
/// The superuser created by `initdb` and the database the server uses.
pub const EMBEDDED_USER: &str = "tavoliere";
/// Name of the application database inside the embedded cluster.
pub const EMBEDDED_DATABASE: &str = "tavoliere";
/// How often a cluster still trusting local users is looked at for the switch to its
/// password (the lock files only).
const PASSWORD_SWITCH_EVERY: Duration = Duration::from_secs(5);
/// The file in the data directory that holds the superuser's password.
const PASSWORD_FILE: &str = "tavoliere.password";

/// A running private PostgreSQL cluster this process uses. Left by
/// [`EmbeddedPostgres::stop`] (or on drop), which stops the cluster only when this
/// process is the last one using it (see the module documentation).
#[derive(Debug)]
pub struct EmbeddedPostgres {
    bin_dir: PathBuf,
    data_dir: PathBuf,
    port: u16,
    run_as: Option<&'static str>,
    /// The shared lock on `<data dir>.users.lock` held while this process uses the
    /// cluster; `None` once it has left.
    using: Option<File>,
    durable: bool,
    /// The superuser's password (empty only for [`EmbeddedPostgres::running_port_in`]).
    password: String,
    /// `pg_hba.conf` still trusts local users (a cluster of an older Tavoliere, switched
    /// once no other process uses it: [`EmbeddedPostgres::require_password_when_alone`]).
    trusting: bool,
    /// When the switch was last tried, and whether its deferral was logged.
    switch_tried: Option<std::time::Instant>,
    deferral_logged: bool,
}

impl EmbeddedPostgres {
    /// Creates the cluster in `data_dir` if it does not exist, starts it on 127.0.0.1
    /// (`port` 0 picks a free port) and waits until it accepts connections.
    /// A cluster already running in that directory is reused.
    ///
    /// # Errors
    /// No PostgreSQL binaries (the message says how to install them), or `initdb` /
    /// `pg_ctl` failing.
    pub fn start(data_dir: &Path, port: u16) -> anyhow::Result<EmbeddedPostgres> {
        EmbeddedPostgres::start_with(data_dir, port, true)
    }

    /// As [`EmbeddedPostgres::start`]; with `durable` false the cluster does not fsync
    /// (throwaway test clusters only: a crash may lose or corrupt data).
    ///
    /// # Errors
    /// As [`EmbeddedPostgres::start`].
    pub fn start_with(data_dir: &Path, port: u16, durable: bool) -> anyhow::Result<EmbeddedPostgres> {
        let bin_dir = find_bin_dir()?;
        let run_as = is_root().then_some(UNPRIVILEGED_ACCOUNT);
        if let Some(account) = run_as {
            let exists = Command::new("id").arg("-u").arg(account).output().is_ok_and(|o| o.status.success());
            if !exists {
                bail!(
                    "PostgreSQL refuses to run as root and there is no '{account}' account to run it as: \
                     install the postgresql package (it creates the account), create it \
                     (`useradd --system {account}`), or run tavoliere as an unprivileged user"
                );
            }
        }
        let data_dir = effective_data_dir(data_dir, run_as.is_some())?;
        let mut cluster = EmbeddedPostgres {
            bin_dir,
            data_dir,
            port,
            run_as,
            using: None,
            durable,
            password: String::new(),
            trusting: false,
            switch_tried: None,
            deferral_logged: false,
        };
        let mut start_stop = cluster.lock_start_stop()?;
        cluster.prepare_directory()?;
        if !cluster.data_dir.join("PG_VERSION").exists() {
            cluster.initdb()?;
        }
        let has_password = match std::fs::read_to_string(cluster.data_dir.join(PASSWORD_FILE)) {
            Ok(password) => {
                cluster.password = password.trim().to_owned();
                true
            }
            // A cluster created with `trust` by an older Tavoliere: given a password below.
            Err(error) if error.kind() == std::io::ErrorKind::NotFound => false,
            Err(error) => return Err(error).context("reading the cluster's password file"),
        };
        cluster.trusting = cluster.hba_trusts()?;
        if let Some(running_port) = cluster.running_port() {
            tracing::info!(port = running_port, "reusing the running private PostgreSQL cluster");
            cluster.port = running_port;
        } else {
            if cluster.port == 0 {
                cluster.port = free_port()?;
            }
            cluster.pg_ctl_start()?;
            record_postmaster(&mut start_stop, cluster.postmaster().as_deref())?;
        }
        let using = open_lock_file(&cluster.users_lock_path())?;
        using.lock_shared().context("taking the shared lock on the cluster")?;
        cluster.using = Some(using);
        cluster.wait_ready()?;
        if !has_password {
            cluster.set_password()?;
        }
        if cluster.trusting {
            cluster.switch_to_password_if_alone()?;
        }
        drop(start_stop);
        Ok(cluster)
    }

    /// Whether the postmaster this cluster runs on is alive (a signal 0 to the process
    /// of `postmaster.pid`: cheap enough to ask every second). [`Postmaster::Gone`] after a
    /// crash or a `kill -9`, even while the stale pid file is still there; but only when
    /// that is known: a pid file that cannot be read (out of file descriptors, say) or
    /// parsed, or a signal that fails for another reason, is [`Postmaster::Unknown`], never
    /// a reason to restart or stop a cluster (issue 36 §1: a flood of connections once
    /// made this read fail and the supervisor stop a healthy cluster).
    pub fn postmaster_state(&self) -> Postmaster {
        postmaster_state_in(&self.data_dir)
    }

    /// Starts the cluster again on the same port after it died (the pool's connections
    /// then reach it again). Does nothing when it runs.
    ///
    /// # Errors
    /// `pg_ctl start` fails (for instance while the dead postmaster's children still hold
    /// its shared memory: the supervisor tries again later).
    pub fn restart(&mut self) -> anyhow::Result<()> {
        let mut start_stop = self.lock_start_stop()?;
        match self.postmaster_state() {
            Postmaster::Gone => {}
            Postmaster::Running => return Ok(()),
            Postmaster::Unknown(reason) => bail!("cannot tell whether the cluster runs: {reason}"),
        }
        self.kill_orphans();
        self.pg_ctl_start()?;
        record_postmaster(&mut start_stop, self.postmaster().as_deref())?;
        drop(start_stop);
        self.wait_ready()
    }

    /// Ends the backends a dead postmaster left behind: they keep its shared memory (a new
    /// postmaster refuses to start beside them) and keep serving the pool's old
    /// connections. They are the processes whose working directory is the data directory
    /// (every PostgreSQL process works there), so no other cluster's are touched.
    fn kill_orphans(&self) {
        let Ok(data_dir) = self.data_dir.canonicalize() else { return };
        let Ok(entries) = std::fs::read_dir("/proc") else { return };
        for entry in entries.flatten() {
            let Some(pid) = entry.file_name().to_str().and_then(|name| name.parse::<libc::pid_t>().ok())
            else {
                continue;
            };
            if std::fs::read_link(entry.path().join("cwd")).is_ok_and(|cwd| cwd == data_dir) {
                // SAFETY: kill has no memory preconditions; the process is a leftover
                // backend of this cluster.
                unsafe {
                    libc::kill(pid, libc::SIGKILL);
                }
            }
        }
        // Their exits release the shared memory.
        std::thread::sleep(Duration::from_millis(100));
    }

    /// The last lines of the cluster's log, to say why it died or does not start.
    pub fn log_tail(&self, lines: usize) -> String {
        std::fs::read_to_string(self.data_dir.join("server.log"))
            .map(|text| {
                let mut tail: Vec<&str> = text.lines().rev().take(lines).collect();
                tail.reverse();
                tail.join("\n")
            })
            .unwrap_or_default()
    }

    /// The superuser's password (in [`EmbeddedPostgres::url`]; for `pg_dump` and `psql`).
    pub fn password(&self) -> &str {
        &self.password
    }

    /// The port of the cluster running in the data directory `data_dir` (configured as
    /// for [`EmbeddedPostgres::start`]), `None` when none runs there.
    ///
    /// # Errors
    /// No PostgreSQL binaries, or no current directory to resolve a relative path.
    pub fn running_port_in(data_dir: &Path) -> anyhow::Result<Option<u16>> {
        let run_as = is_root().then_some(UNPRIVILEGED_ACCOUNT);
        let cluster = EmbeddedPostgres {
            bin_dir: find_bin_dir()?,
            data_dir: effective_data_dir(data_dir, run_as.is_some())?,
            port: 0,
            run_as,
            using: None,
            durable: true,
            password: String::new(),
            trusting: false,
            switch_tried: None,
            deferral_logged: false,
        };
        Ok(cluster.running_port())
    }

    /// Whether a cluster was created in the data directory `data_dir` (configured as for
    /// [`EmbeddedPostgres::start`]), running or not: operator commands do not create one
    /// unless asked to (issue 36 §5).
    ///
    /// # Errors
    /// No current directory to resolve a relative path.
    pub fn exists_in(data_dir: &Path) -> anyhow::Result<bool> {
        Ok(effective_data_dir(data_dir, is_root())?.join("PG_VERSION").exists())
    }

    /// Takes the cluster for this process alone when no other process uses it: the shared
    /// lock on `<data dir>.users.lock` becomes an exclusive one (under the start-stop lock,
    /// so nobody joins or leaves meanwhile), and a process starting to use the cluster
    /// waits until [`EmbeddedPostgres::share`]. Returns whether it did (`false`: another
    /// process uses the cluster, and this one keeps its shared lock). For `admin restore`,
    /// which must not replace the database under a running server.
    ///
    /// # Errors
    /// The lock files cannot be used, or this process has left the cluster.
    pub fn try_use_alone(&mut self) -> anyhow::Result<bool> {
        let Some(using) = &self.using else { bail!("this process no longer uses the cluster") };
        let start_stop = self.lock_start_stop()?;
        let alone = match using.try_lock() {
            Ok(()) => true,
            Err(std::fs::TryLockError::WouldBlock) => {
                // A conversion refused may have dropped the shared lock (flock(2)).
                using.lock_shared().context("taking the shared lock on the cluster again")?;
                false
            }
            Err(std::fs::TryLockError::Error(error)) => {
                return Err(error).context("locking the cluster's users file");
            }
        };
        drop(start_stop);
        Ok(alone)
    }

    /// Shares the cluster again after [`EmbeddedPostgres::try_use_alone`] (call it before
    /// leaving: [`EmbeddedPostgres::stop`] waits for a process that is starting, which
    /// waits for the exclusive lock to go).
    ///
    /// # Errors
    /// The lock cannot be changed.
    pub fn share(&mut self) -> anyhow::Result<()> {
        if let Some(using) = &self.using {
            using.lock_shared().context("sharing the cluster again")?;
        }
        Ok(())
    }

    /// The TCP port on 127.0.0.1.
    pub fn port(&self) -> u16 {
        self.port
    }

    /// Where the cluster's files are.
    pub fn data_dir(&self) -> &Path {
        &self.data_dir
    }

    /// URL of database `database` in this cluster.
    pub fn url(&self, database: &str) -> String {
        // The password is hex digits: nothing to escape.
        format!("postgres://{EMBEDDED_USER}:{}@127.0.0.1:{}/{database}", self.password, self.port)
    }

    /// Leaves the cluster: stops it (fast shutdown: open sessions are ended, data is
    /// flushed) when this process is the last one using it and a Tavoliere process started
    /// it; otherwise leaves it running for the others. Returns whether it was stopped.
    /// Leaving twice does nothing.
    ///
    /// # Errors
    /// The lock files cannot be used, or `pg_ctl stop` fails.
    pub fn stop(&mut self) -> anyhow::Result<bool> {
        let Some(using) = self.using.take() else {
            return Ok(false);
        };
        let mut start_stop = self.lock_start_stop()?;
        drop(using);
        let users = open_lock_file(&self.users_lock_path())?;
        match users.try_lock() {
            Ok(()) => {}
            Err(std::fs::TryLockError::WouldBlock) => {
                tracing::info!("leaving the private PostgreSQL cluster running: another process uses it");
                return Ok(false);
            }
            Err(std::fs::TryLockError::Error(error)) => {
                return Err(error).context("locking the cluster's users file");
            }
        }
        let Some(running) = self.postmaster() else {
            tracing::info!("the private PostgreSQL cluster is not running");
            return Ok(false);
        };
        if recorded_postmaster(&mut start_stop)?.as_deref() != Some(running.as_str()) {
            tracing::info!("leaving the private PostgreSQL cluster running: it was not started by tavoliere");
            return Ok(false);
        }
        let data_dir = self.data_dir.display().to_string();
        let output =
            self.run(&self.bin_dir.join("pg_ctl"), &["stop", "-D", &data_dir, "-m", "fast", "-w"])?;
        if !output.status.success() {
            bail!("pg_ctl stop failed: {}", String::from_utf8_lossy(&output.stderr));
        }
        record_postmaster(&mut start_stop, None)?;
        Ok(true)
    }

    /// Leaves the cluster running whoever else uses it: after the supervisor gave up on
    /// it, a server exits without stopping what it could not see (the next start takes a
    /// running cluster up).
    pub fn leave_running(&mut self) {
        if self.using.take().is_some() {
            tracing::info!("leaving the private PostgreSQL cluster as it is");
        }
    }

    /// Leaves the cluster as [`EmbeddedPostgres::stop`] does and, when nobody else uses
    /// it any more, deletes its data directory and lock files: for throwaway clusters
    /// (tests, benchmarks).
    ///
    /// # Errors
    /// As [`EmbeddedPostgres::stop`], or the files cannot be deleted.
    pub fn stop_and_delete(mut self) -> anyhow::Result<()> {
        self.stop()?;
        if self.running_port().is_some() {
            return Ok(());
        }
        std::fs::remove_dir_all(&self.data_dir)
            .with_context(|| format!("deleting {}", self.data_dir.display()))?;
        for suffix in ["start-stop.lock", "users.lock"] {
            let _ = std::fs::remove_file(sibling(&self.data_dir, suffix));
        }
        Ok(())
    }

    /// `<data dir>.start-stop.lock`, locked exclusively (waiting for a process that is
    /// starting or stopping the cluster).
    fn lock_start_stop(&self) -> anyhow::Result<File> {
        let file = open_lock_file(&sibling(&self.data_dir, "start-stop.lock"))?;
        file.lock().context("locking the cluster's start-stop file")?;
        Ok(file)
    }

    fn users_lock_path(&self) -> PathBuf {
        sibling(&self.data_dir, "users.lock")
    }

    /// The running postmaster as `<pid> <start time>` (lines 1 and 3 of
    /// `postmaster.pid`), when `pg_ctl status` finds one.
    fn postmaster(&self) -> Option<String> {
        self.running_port()?;
        let pid_file = std::fs::read_to_string(self.data_dir.join("postmaster.pid")).ok()?;
        let mut lines = pid_file.lines();
        let pid = lines.next()?.trim();
        let started = lines.nth(1)?.trim();
        Some(format!("{pid} {started}"))
    }

    fn prepare_directory(&self) -> anyhow::Result<()> {
        std::fs::create_dir_all(&self.data_dir)
            .with_context(|| format!("creating {}", self.data_dir.display()))?;
        if let Some(account) = self.run_as {
            let status = Command::new("chown")
                .args(["-R", &format!("{account}:"), &self.data_dir.display().to_string()])
                .status()
                .context("running chown")?;
            if !status.success() {
                bail!("could not give {} to the {account} account", self.data_dir.display());
            }
        }
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            std::fs::set_permissions(&self.data_dir, std::fs::Permissions::from_mode(0o700))?;
        }
        Ok(())
    }

    /// Creates the cluster with a new password: `initdb` reads it from a file beside the
    /// data directory (which must be empty), then it is kept inside as [`PASSWORD_FILE`].
    fn initdb(&mut self) -> anyhow::Result<()> {
        let password = new_password();
        let pwfile = sibling(&self.data_dir, "initdb-password");
        self.write_secret(&pwfile, &password)?;
        let data_dir = self.data_dir.display().to_string();
        let output = self.run(
            &self.bin_dir.join("initdb"),
            &[
                "-D",
                &data_dir,
                "-U",
                EMBEDDED_USER,
                "--auth=scram-sha-256",
                &format!("--pwfile={}", pwfile.display()),
                "--encoding=UTF8",
                "--no-sync",
            ],
        );
        let _ = std::fs::remove_file(&pwfile);
        let output = output?;
        if !output.status.success() {
            bail!("initdb failed: {}", String::from_utf8_lossy(&output.stderr));
        }
        self.write_secret(&self.data_dir.join(PASSWORD_FILE), &password)?;
        self.password = password;
        Ok(())
    }

    /// Gives a cluster created with `trust` (by an older Tavoliere) a password: `ALTER
    /// ROLE` through `psql` while it still trusts, and the password file. It goes on
    /// trusting local users until [`EmbeddedPostgres::switch_to_password_if_alone`].
    fn set_password(&mut self) -> anyhow::Result<()> {
        let password = new_password();
        let port = self.port.to_string();
        let statement = format!("alter role {EMBEDDED_USER} password '{password}'");
        // psql may live elsewhere than the server binaries (Debian: /usr/bin/psql).
        let psql =
            Some(self.bin_dir.join("psql")).filter(|path| path.is_file()).unwrap_or_else(|| "psql".into());
        let output = self.run(
            &psql,
            &[
                "-h",
                "127.0.0.1",
                "-p",
                &port,
                "-U",
                EMBEDDED_USER,
                "-d",
                "postgres",
                "-X",
                "-q",
                "-c",
                &statement,
            ],
        )?;
        if !output.status.success() {
            bail!("setting the cluster's password failed: {}", String::from_utf8_lossy(&output.stderr));
        }
        self.write_secret(&self.data_dir.join(PASSWORD_FILE), &password)?;
        self.password = password;
        Ok(())
    }

    /// Whether `pg_hba.conf` has a line (not a comment) that trusts.
    fn hba_trusts(&self) -> anyhow::Result<bool> {
        let hba = match std::fs::read_to_string(self.data_dir.join("pg_hba.conf")) {
            Ok(text) => text,
            // Not created yet (initdb writes it with scram-sha-256).
            Err(error) if error.kind() == std::io::ErrorKind::NotFound => return Ok(false),
            Err(error) => return Err(error).context("reading pg_hba.conf"),
        };
        Ok(hba.lines().any(|line| {
            let line = line.trim_start();
            !line.starts_with('#') && line.split_whitespace().any(|word| word == "trust")
        }))
    }

    /// Whether the cluster still trusts local users, waiting for the processes of an older
    /// release to leave (the supervisor calls [`EmbeddedPostgres::require_password_when_alone`]).
    pub fn awaits_password_switch(&self) -> bool {
        self.trusting
    }

    /// Switches a cluster that still trusts local users to `scram-sha-256` once this
    /// process is the only one using it; returns whether it asks for the password now.
    ///
    /// # Errors
    /// The lock files, `pg_hba.conf` or `pg_ctl reload` fail.
    pub fn require_password_when_alone(&mut self) -> anyhow::Result<bool> {
        if !self.trusting {
            return Ok(true);
        }
        if self.switch_tried.is_some_and(|tried| tried.elapsed() < PASSWORD_SWITCH_EVERY) {
            return Ok(false);
        }
        self.switch_tried = Some(std::time::Instant::now());
        let start_stop = self.lock_start_stop()?;
        let switched = self.switch_to_password_if_alone();
        drop(start_stop);
        switched?;
        Ok(!self.trusting)
    }

    /// Under the start-stop lock: switches `pg_hba.conf` from `trust` to `scram-sha-256`
    /// and reloads, but only when no other process holds the users lock (issue 40 §1: an
    /// older release still running connects without a password, and would be refused on
    /// every new connection from the switch on). Its shared lock is turned into an
    /// exclusive one to tell: granted only when nobody else holds it, and turned back.
    fn switch_to_password_if_alone(&mut self) -> anyhow::Result<()> {
        let Some(using) = &self.using else { return Ok(()) };
        // A failed conversion (`flock`) drops the shared lock: taken again at once (only a
        // stopping process, which needs the start-stop lock we hold, ever locks it
        // exclusively).
        let alone = match using.try_lock() {
            Ok(()) => true,
            Err(std::fs::TryLockError::WouldBlock) => false,
            Err(std::fs::TryLockError::Error(error)) => {
                using.lock_shared().context("taking the shared lock on the cluster again")?;
                return Err(error).context("locking the cluster's users file");
            }
        };
        if !alone {
            using.lock_shared().context("taking the shared lock on the cluster again")?;
            if std::mem::replace(&mut self.deferral_logged, true) {
                return Ok(());
            }
            tracing::info!(
                "the private PostgreSQL cluster keeps trusting local users while another process \
                 (an older release) uses it; it asks for its password once that one has stopped"
            );
            return Ok(());
        }
        let switched = self.switch_hba_to_password();
        using.lock_shared().context("taking the shared lock on the cluster again")?;
        switched?;
        self.trusting = false;
        tracing::info!(
            "the private PostgreSQL cluster now asks for a password (it trusted every local user)"
        );
        Ok(())
    }

    /// `pg_hba.conf` switched from `trust` to `scram-sha-256`, and reloaded.
    fn switch_hba_to_password(&self) -> anyhow::Result<()> {
        let hba_path = self.data_dir.join("pg_hba.conf");
        let hba = std::fs::read_to_string(&hba_path).context("reading pg_hba.conf")?;
        let asking: Vec<String> = hba
            .lines()
            .map(|line| {
                if line.trim_start().starts_with('#') {
                    line.to_owned()
                } else {
                    line.replace("trust", "scram-sha-256")
                }
            })
            .collect();
        std::fs::write(&hba_path, asking.join("\n") + "\n").context("writing pg_hba.conf")?;
        let data_dir = self.data_dir.display().to_string();
        let output = self.run(&self.bin_dir.join("pg_ctl"), &["reload", "-D", &data_dir])?;
        if !output.status.success() {
            bail!("pg_ctl reload failed: {}", String::from_utf8_lossy(&output.stderr));
        }
        Ok(())
    }

    /// Writes `secret` to `path` readable by its owner only (the account that runs the
    /// cluster, when that is not us).
    fn write_secret(&self, path: &Path, secret: &str) -> anyhow::Result<()> {
        use std::os::unix::fs::OpenOptionsExt;
        let _ = std::fs::remove_file(path);
        let mut file = std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .mode(0o600)
            .open(path)
            .with_context(|| format!("creating {}", path.display()))?;
        file.write_all(secret.as_bytes())?;
        if let Some(account) = self.run_as {
            let status = Command::new("chown")
                .args([&format!("{account}:"), &path.display().to_string()])
                .status()
                .context("running chown")?;
            if !status.success() {
                bail!("could not give {} to the {account} account", path.display());
            }
        }
        Ok(())
    }

    fn pg_ctl_start(&self) -> anyhow::Result<()> {
        let data_dir = self.data_dir.display().to_string();
        let log = self.data_dir.join("server.log").display().to_string();
        // Only 127.0.0.1, no Unix socket (its path could be too long or unwritable). 200
        // connections: each instance sharing the cluster may open `database.max_connections`
        // plus `database.move_connections` (21 by default), and pgbench's 64 clients in the
        // load bench besides a server would not fit in the default 100.
        let mut options = format!(
            "-c listen_addresses=127.0.0.1 -c port={} -c unix_socket_directories='' -c max_connections=200",
            self.port
        );
        if !self.durable {
            options.push_str(" -c fsync=off -c synchronous_commit=off -c full_page_writes=off");
        }
        let output = self.run(
            &self.bin_dir.join("pg_ctl"),
            &["start", "-D", &data_dir, "-l", &log, "-w", "-t", "60", "-o", &options],
        )?;
        if !output.status.success() {
            let log_tail = std::fs::read_to_string(self.data_dir.join("server.log"))
                .map(|text| text.lines().rev().take(10).collect::<Vec<_>>().join("\n"))
                .unwrap_or_default();
            bail!(
                "pg_ctl start failed: {}{}\n{log_tail}",
                String::from_utf8_lossy(&output.stdout),
                String::from_utf8_lossy(&output.stderr)
            );
        }
        Ok(())
    }

    /// The port of a postmaster already running in the data directory, if any.
    fn running_port(&self) -> Option<u16> {
        let data_dir = self.data_dir.display().to_string();
        let status = self.run(&self.bin_dir.join("pg_ctl"), &["status", "-D", &data_dir]).ok()?;
        if !status.status.success() {
            return None;
        }
        // postmaster.pid line 4 is the port.
        let pid_file = std::fs::read_to_string(self.data_dir.join("postmaster.pid")).ok()?;
        pid_file.lines().nth(3)?.trim().parse().ok()
    }

    /// `pg_ctl start -w` already waits for "ready"; a reused cluster is checked by
    /// connecting to its port.
    fn wait_ready(&self) -> anyhow::Result<()> {
        let address = std::net::SocketAddr::from(([127, 0, 0, 1], self.port));
        for _ in 0..300 {
            if std::net::TcpStream::connect_timeout(&address, Duration::from_millis(200)).is_ok() {
                return Ok(());
            }
            std::thread::sleep(Duration::from_millis(100));
        }
        bail!("the private PostgreSQL cluster did not become ready on port {}", self.port)
    }

    fn run(&self, program: &Path, args: &[&str]) -> anyhow::Result<Output> {
        let mut command = match self.run_as {
            Some(account) => {
                let mut c = Command::new("runuser");
                c.args(["-u", account, "--"]).arg(program);
                c
            }
            None => Command::new(program),
        };
        command.args(args).current_dir("/");
        command.output().with_context(|| format!("running {}", program.display()))
    }
}

impl Drop for EmbeddedPostgres {
    fn drop(&mut self) {
        if let Err(error) = self.stop() {
            tracing::warn!(%error, "could not stop the private PostgreSQL cluster");
        }
    }
}

/// `<path>.<suffix>`: a file beside the data directory (initdb wants the directory itself
/// empty, and the lock must exist before it does).
fn sibling(path: &Path, suffix: &str) -> PathBuf {
    let mut name = path.file_name().map(|n| n.to_os_string()).unwrap_or_default();
    name.push(format!(".{suffix}"));
    path.with_file_name(name)
}

fn open_lock_file(path: &Path) -> anyhow::Result<File> {
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent).with_context(|| format!("creating {}", parent.display()))?;
    }
    std::fs::OpenOptions::new()
        .read(true)
        .write(true)
        .create(true)
        .truncate(false)
        .open(path)
        .with_context(|| format!("opening {}", path.display()))
}

/// Records in the (locked) start-stop file which postmaster a Tavoliere process started;
/// `None` clears it.
fn record_postmaster(start_stop: &mut File, postmaster: Option<&str>) -> anyhow::Result<()> {
    start_stop.set_len(0)?;
    start_stop.rewind()?;
    if let Some(postmaster) = postmaster {
        start_stop.write_all(postmaster.as_bytes())?;
    }
    start_stop.sync_data()?;
    Ok(())
}

/// The postmaster recorded by [`record_postmaster`].
fn recorded_postmaster(start_stop: &mut File) -> anyhow::Result<Option<String>> {
    let mut text = String::new();
    start_stop.rewind()?;
    start_stop.read_to_string(&mut text)?;
    let text = text.trim();
    Ok((!text.is_empty()).then(|| text.to_owned()))
}

/// Finds the directory holding `initdb`, `pg_ctl` and `postgres`.
///
/// # Errors
/// None found: the message explains how to install them.
pub fn find_bin_dir() -> anyhow::Result<PathBuf> {
    let has_all = |dir: &Path| ["initdb", "pg_ctl", "postgres"].iter().all(|b| dir.join(b).is_file());
    if let Some(path) = std::env::var_os("PATH") {
        for dir in std::env::split_paths(&path) {
            if has_all(&dir) {
                return Ok(dir);
            }
        }
    }
    let mut candidates: Vec<PathBuf> = std::fs::read_dir("/usr/lib/postgresql")
        .map(|entries| entries.filter_map(|e| e.ok()).map(|e| e.path().join("bin")).collect())
        .unwrap_or_default();
    // The newest major version first.
    candidates.sort_by_key(|p| {
        std::cmp::Reverse(
            p.parent()
                .and_then(|v| v.file_name())
                .and_then(|v| v.to_str())
                .and_then(|v| v.parse::<u32>().ok())
                .unwrap_or(0),
        )
    });
    candidates.into_iter().find(|d| has_all(d)).ok_or_else(|| {
        anyhow::anyhow!(
            "no PostgreSQL server binaries (initdb, pg_ctl, postgres) on PATH or under \
             /usr/lib/postgresql/*/bin. Install them (Debian/Ubuntu: `apt-get install postgresql`, \
             macOS: `brew install postgresql`) or set TAVOLIERE_DATABASE__URL to an existing database"
        )
    })
}

fn is_root() -> bool {
    // SAFETY: geteuid has no preconditions and cannot fail.
    unsafe { libc::geteuid() == 0 }
}

/// When root, the cluster lives under /var/tmp (traversable by the postgres account).
fn effective_data_dir(configured: &Path, as_root: bool) -> anyhow::Result<PathBuf> {
    let absolute = if configured.is_absolute() {
        configured.to_path_buf()
    } else {
        std::env::current_dir()?.join(configured)
    };
    if !as_root || absolute.starts_with("/var/tmp") {
        return Ok(absolute);
    }
    use sha2::Digest;
    let digest = sha2::Sha256::digest(absolute.display().to_string().as_bytes());
    Ok(PathBuf::from(format!("/var/tmp/tavoliere-{}", hex::encode(&digest[..8]))))
}

/// A new random password: 32 bytes as 64 hex digits.
fn new_password() -> String {
    use rand::RngCore;
    let mut bytes = [0_u8; 32];
    rand::rngs::OsRng.fill_bytes(&mut bytes);
    hex::encode(bytes)
}

fn free_port() -> anyhow::Result<u16> {
    let listener = TcpListener::bind("127.0.0.1:0").context("finding a free port")?;
    Ok(listener.local_addr()?.port())
}

#[cfg(test)]
mod tests {
    use super::{postmaster_state_in, Postmaster};

    fn temp_dir(name: &str) -> std::path::PathBuf {
        let dir = std::env::temp_dir().join(format!("tavoliere-postmaster-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    #[test]
    fn a_postmaster_is_gone_only_when_that_is_known() {
        let dir = temp_dir("states");
        assert!(matches!(postmaster_state_in(&dir), Postmaster::Gone), "no pid file");

        std::fs::write(dir.join("postmaster.pid"), format!("{}\n/data\n123\n", std::process::id())).unwrap();
        assert!(matches!(postmaster_state_in(&dir), Postmaster::Running));

        let mut finished = std::process::Command::new("true").spawn().unwrap();
        let dead = finished.id();
        finished.wait().unwrap();
        std::fs::write(dir.join("postmaster.pid"), format!("{dead}\n")).unwrap();
        assert!(matches!(postmaster_state_in(&dir), Postmaster::Gone), "a pid with no process");

        // Killed but not yet reaped (here our own child, not waited for): gone as well.
        let mut zombie = std::process::Command::new("true").spawn().unwrap();
        std::fs::write(dir.join("postmaster.pid"), format!("{}\n", zombie.id())).unwrap();
        let mut exited = false;
        for _ in 0..200 {
            let stat = std::fs::read_to_string(format!("/proc/{}/stat", zombie.id())).unwrap_or_default();
            if stat.contains(") Z") {
                exited = true;
                break;
            }
            std::thread::sleep(std::time::Duration::from_millis(10));
        }
        assert!(exited, "the child exited and waits to be reaped");
        assert!(matches!(postmaster_state_in(&dir), Postmaster::Gone), "a zombie postmaster");
        zombie.wait().unwrap();

        std::fs::write(dir.join("postmaster.pid"), "").unwrap();
        assert!(matches!(postmaster_state_in(&dir), Postmaster::Unknown(_)), "a pid file being written");

        // A pid file that cannot be read (here a directory in its place; in the flood of
        // issue 36, no descriptor left to open it) tells nothing.
        std::fs::remove_file(dir.join("postmaster.pid")).unwrap();
        std::fs::create_dir(dir.join("postmaster.pid")).unwrap();
        assert!(matches!(postmaster_state_in(&dir), Postmaster::Unknown(_)));
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
