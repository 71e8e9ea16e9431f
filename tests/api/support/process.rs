//! A real `tavoliere serve` OS process on a test database, killed on drop.

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};

use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::{mpsc, Arc, Mutex};
use std::time::{Duration, Instant};
use tavoliere::storage::embedded::EmbeddedPostgres;

/// A running `tavoliere serve` child process.
pub struct ServerProcess {
    child: Child,
    /// `http://127.0.0.1:<port>`, the port the process reported.
    pub address: String,
    /// Its log lines so far (stderr, colours removed).
    log: Arc<Mutex<Vec<String>>>,
}

impl ServerProcess {
    /// Starts `tavoliere serve` on `database_url`, configured only by `TAVOLIERE_`
    /// variables over the repository's `config/`, on a port the OS picks; waits (60 s at
    /// most; the embedded cluster may have to be created first) until it logs the port it
    /// serves on.
    pub fn start(database_url: &str) -> ServerProcess {
        ServerProcess::start_with(&[("TAVOLIERE_DATABASE__URL", database_url)])
    }

    /// Starts `tavoliere serve` on the private cluster of `data_dir` (the embedded
    /// default: no database URL), as [`ServerProcess::start`] otherwise.
    pub fn start_embedded(data_dir: &Path) -> ServerProcess {
        ServerProcess::start_with(&[(
            "TAVOLIERE_DATABASE__EMBEDDED_DATA_DIR",
            &data_dir.display().to_string(),
        )])
    }

    /// Starts `tavoliere serve` with the test defaults and `settings` (variable, value).
    pub fn start_with(settings: &[(&str, &str)]) -> ServerProcess {
        ServerProcess::start_in(Path::new(env!("CARGO_MANIFEST_DIR")), settings)
    }

    /// [`ServerProcess::start_with`], started in the working directory `directory`.
    pub fn start_in(directory: &Path, settings: &[(&str, &str)]) -> ServerProcess {
        ServerProcess::start_configured(directory, settings, |_| {})
    }

    /// [`ServerProcess::start_in`], with `configure` applied to the command last (a
    /// limit set for the child, say).
    pub fn start_configured(
        directory: &Path,
        settings: &[(&str, &str)],
        configure: impl FnOnce(&mut Command),
    ) -> ServerProcess {
        let mut command = tavoliere_command();
        command
            .current_dir(directory)
            .arg("serve")
            .env("TAVOLIERE_APPLICATION__HOST", "127.0.0.1")
            .env("TAVOLIERE_APPLICATION__PORT", "0")
            .env("TAVOLIERE_DATABASE__MAX_CONNECTIONS", "5")
            // A test machine under load may take over the production second to connect.
            .env("TAVOLIERE_DATABASE__ACQUIRE_TIMEOUT_MS", "5000")
            .env("TAVOLIERE_CLOCKS__SWEEP_INTERVAL_SECONDS", "0")
            .env("TAVOLIERE_LIVE__FLAG_INTERVAL_MS", "20")
            .env("RUST_LOG", "info")
            .env("NO_COLOR", "1")
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped());
        for (name, value) in settings {
            command.env(name, value);
        }
        configure(&mut command);
        let mut child = command.spawn().expect("start `tavoliere serve`");
        let stderr = child.stderr.take().expect("piped stderr");
        let log = Arc::new(Mutex::new(Vec::new()));
        let (port_tx, port_rx) = mpsc::channel();
        let lines = Arc::clone(&log);
        std::thread::spawn(move || {
            for line in BufReader::new(stderr).lines().map_while(Result::ok) {
                let line = without_colours(&line);
                if line.contains("serving") {
                    // Text logs say port=8000, JSON logs "port":8000.
                    if let Some(port) = field(&line, "port=").or_else(|| field(&line, "\"port\":")) {
                        let _ = port_tx.send(port);
                    }
                }
                lines.lock().unwrap().push(line);
            }
        });
        let mut process = ServerProcess { child, address: String::new(), log };
        match port_rx.recv_timeout(Duration::from_secs(60)) {
            Ok(port) => process.address = format!("http://127.0.0.1:{port}"),
            Err(_) => panic!("`tavoliere serve` reported no port; its log: {:#?}", process.log()),
        }
        process
    }

    /// The process id.
    pub fn id(&self) -> u32 {
        self.child.id()
    }

    /// Whether the process is still running.
    pub fn is_running(&mut self) -> bool {
        matches!(self.child.try_wait(), Ok(None))
    }

    /// Its log lines so far.
    pub fn log(&self) -> Vec<String> {
        self.log.lock().unwrap().clone()
    }

    /// Sends SIGTERM and waits (60 s at most) for the process to exit; `None` if it
    /// has not.
    pub fn terminate(&mut self) -> Option<ExitStatus> {
        self.signal(libc::SIGTERM);
        self.wait_for_exit(Duration::from_secs(60))
    }

    /// Sends `signal` to the process.
    pub fn signal(&mut self, signal: libc::c_int) {
        let pid = libc::pid_t::try_from(self.child.id()).expect("a pid");
        // SAFETY: kill has no memory preconditions; the pid is our own child's.
        unsafe {
            libc::kill(pid, signal);
        }
    }

    /// Waits up to `limit` for the process to exit.
    pub fn wait_for_exit(&mut self, limit: Duration) -> Option<ExitStatus> {
        let deadline = Instant::now() + limit;
        loop {
            if let Ok(Some(status)) = self.child.try_wait() {
                return Some(status);
            }
            if Instant::now() > deadline {
                return None;
            }
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// Kills the process at once (SIGKILL: no graceful shutdown, as in a crash).
    pub fn kill(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The `tavoliere` binary run from the repository (its `config/`), environment `local`,
/// without the test runner's database settings.
pub fn tavoliere_command() -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_tavoliere"));
    command
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .env("TAVOLIERE_ENVIRONMENT", "local")
        .env_remove("TAVOLIERE_DATABASE__URL")
        .env_remove("TAVOLIERE_DATABASE__EMBEDDED_DATA_DIR");
    command
}

impl Drop for ServerProcess {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The digits after `name` in `line`.
pub fn field(line: &str, name: &str) -> Option<u16> {
    let start = line.find(name)? + name.len();
    let digits: String = line[start..].chars().take_while(char::is_ascii_digit).collect();
    digits.parse().ok()
}

/// `line` without ANSI colour sequences (`ESC [ ... m`), in case colours are on.
fn without_colours(line: &str) -> String {
    let mut out = String::with_capacity(line.len());
    let mut chars = line.chars();
    while let Some(c) = chars.next() {
        if c == '\u{1b}' {
            for end in chars.by_ref() {
                if end.is_ascii_alphabetic() {
                    break;
                }
            }
        } else {
            out.push(c);
        }
    }
    out
}

/// A data directory of its own, removed (with its lock files) at the end.
pub struct DataDir(pub PathBuf);

impl DataDir {
    pub fn new() -> DataDir {
        // SAFETY: geteuid has no preconditions.
        let root = unsafe { libc::geteuid() } == 0;
        // As root the cluster runs as `postgres`: /var/tmp is traversable by it.
        let base = if root { PathBuf::from("/var/tmp") } else { std::env::temp_dir() };
        DataDir(base.join(format!("tavoliere-operator-{}", uuid::Uuid::new_v4().simple())))
    }

    pub fn cluster_port(&self) -> Option<u16> {
        EmbeddedPostgres::running_port_in(&self.0).expect("PostgreSQL binaries")
    }
}

impl Drop for DataDir {
    fn drop(&mut self) {
        // Whatever happened, leave no cluster and no files behind.
        if self.cluster_port().is_some() {
            if let Ok(cluster) = EmbeddedPostgres::start(&self.0, 0) {
                let _ = cluster.stop_and_delete();
                return;
            }
        }
        let _ = std::fs::remove_dir_all(&self.0);
        for suffix in ["start-stop.lock", "users.lock"] {
            let _ = std::fs::remove_file(format!("{}.{suffix}", self.0.display()));
        }
    }
}
