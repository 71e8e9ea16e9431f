//! A real SMTP server process for the mail tests: `scripts/smtp_sink.py` (aiosmtpd,
//! installed by `.ci/run` from `scripts/requirements-mail.txt`), killed on drop. Every
//! message it accepts is read back as JSON: envelope, headers, text and HTML parts.

use std::io::{BufRead, BufReader};
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::Value;

/// A running sink.
pub struct SmtpSink {
    child: Child,
    /// Its port on 127.0.0.1.
    pub port: u16,
    out: PathBuf,
}

impl SmtpSink {
    /// A sink accepting every message.
    pub fn start() -> SmtpSink {
        SmtpSink::start_with(&[])
    }

    /// A sink with the script's options (`--stall`, `--fail-first N`).
    pub fn start_with(options: &[&str]) -> SmtpSink {
        let dir = std::env::temp_dir().join(format!("tavoliere-smtp-{}", uuid::Uuid::new_v4()));
        std::fs::create_dir_all(&dir).expect("a directory for the sink");
        let out = dir.join("messages.jsonl");
        let script = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("scripts/smtp_sink.py");
        let mut child = Command::new("python3")
            .arg(script)
            .arg("--out")
            .arg(&out)
            .args(options)
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("python3 runs scripts/smtp_sink.py (pip install -r scripts/requirements-mail.txt)");
        let mut first = String::new();
        BufReader::new(child.stdout.take().expect("piped stdout"))
            .read_line(&mut first)
            .expect("the sink's port");
        let port = first.trim().parse().unwrap_or_else(|_| {
            panic!("the SMTP sink did not start (is aiosmtpd installed? pip install -r scripts/requirements-mail.txt): {first:?}")
        });
        SmtpSink { child, port, out }
    }

    /// `smtp://127.0.0.1:<port>`.
    pub fn url(&self) -> String {
        format!("smtp://127.0.0.1:{}", self.port)
    }

    /// Every message accepted so far (a line the sink is still writing is left for the
    /// next read: only lines ended by a newline are complete).
    pub fn messages(&self) -> Vec<Value> {
        let text = std::fs::read_to_string(&self.out).unwrap_or_default();
        let complete = &text[..text.rfind('\n').map_or(0, |end| end + 1)];
        complete.lines().map(|line| serde_json::from_str(line).expect("a JSON line")).collect()
    }

    /// The messages to `address` so far.
    pub fn messages_to(&self, address: &str) -> Vec<Value> {
        self.messages()
            .into_iter()
            .filter(|m| m["rcpt_tos"].as_array().unwrap().iter().any(|r| r == address))
            .collect()
    }

    /// Waits (20 s at most) for a message to `address` whose subject contains `subject`.
    pub async fn wait_for_subject(&self, address: &str, subject: &str) -> Value {
        let start = Instant::now();
        loop {
            let found = self
                .messages_to(address)
                .into_iter()
                .find(|m| m["headers"]["subject"].as_str().is_some_and(|s| s.contains(subject)));
            if let Some(message) = found {
                return message;
            }
            assert!(
                start.elapsed() < Duration::from_secs(20),
                "{address} received no message about {subject:?}; all: {:#?}",
                self.messages_to(address).iter().map(|m| m["headers"]["subject"].clone()).collect::<Vec<_>>()
            );
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }

    /// Waits (20 s at most) until `address` has received `count` messages; returns them.
    pub async fn wait_for(&self, address: &str, count: usize) -> Vec<Value> {
        let start = Instant::now();
        loop {
            let messages = self.messages_to(address);
            if messages.len() >= count {
                return messages;
            }
            assert!(
                start.elapsed() < Duration::from_secs(20),
                "{address} received {} of {count} messages; all: {:#?}",
                messages.len(),
                self.messages()
            );
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }
}

impl Drop for SmtpSink {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        if let Some(dir) = self.out.parent() {
            let _ = std::fs::remove_dir_all(dir);
        }
    }
}

/// The first link in `text` starting with `prefix`.
pub fn link(text: &str, prefix: &str) -> String {
    let start = text.find(prefix).unwrap_or_else(|| panic!("no link {prefix} in {text}"));
    text[start..]
        .split(|c: char| c.is_whitespace() || c == '"' || c == '<' || c == '>')
        .next()
        .unwrap()
        .to_owned()
}
