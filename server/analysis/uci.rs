//! One engine process spoken to in UCI over its stdin and stdout (issue 41 §1).
//!
//! The async UCI crates on crates.io (`uciengine`, `async-uci`, `ruci`) are either
//! unmaintained since 2021, pull a command-line parser into the server, or read moves as
//! orthodox chess moves (a Xiangqi `a1a10` or a Shogi drop `P@e5` is not one); the part of
//! UCI an analysis needs is small, so it is here, tested against the real engine.

use std::path::Path;
use std::process::Stdio;
use std::time::Duration;

use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader, Lines};
use tokio::process::{Child, ChildStdin, ChildStdout, Command};

/// Memory of the engine's hash table, in MiB: an analysis at modest depth needs little,
/// and every worker has its own engine.
const HASH_MIB: u32 = 16;

/// An engine's evaluation, from the side to move's point of view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Score {
    /// Centipawns.
    Cp(i32),
    /// Mate in this many moves (negative: the side to move is mated; 0: it is mated now).
    Mate(i32),
}

impl Score {
    /// The same score from the other side's point of view.
    pub fn flipped(self) -> Score {
        match self {
            Score::Cp(cp) => Score::Cp(-cp),
            // Mated now (0) stays 0: the caller knows whose point of view it takes.
            Score::Mate(n) => Score::Mate(-n),
        }
    }
}

/// What one search found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Search {
    /// The score of the deepest completed iteration.
    pub score: Score,
    /// The best move in the engine's notation; `None` when the side to move has none.
    pub best: Option<String>,
    /// The depth of that iteration.
    pub depth: u32,
}

/// How far each search goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limit {
    /// Plies of the search (`go depth`).
    pub depth: Option<u32>,
    /// Nodes of the search (`go nodes`).
    pub nodes: Option<u64>,
}

/// Why the engine could not answer.
#[derive(Debug, thiserror::Error)]
pub enum EngineError {
    /// It could not be started or written to / read from.
    #[error("engine i/o: {0}")]
    Io(#[from] std::io::Error),
    /// It did not answer in time (it is killed).
    #[error("the engine did not answer within {0:?}")]
    Timeout(Duration),
    /// It closed its output (it died).
    #[error("the engine exited")]
    Exited,
    /// It answered something that is not UCI.
    #[error("unexpected engine output: {0}")]
    Protocol(String),
}

/// A running engine (killed when dropped).
#[derive(Debug)]
pub struct Engine {
    child: Child,
    stdin: ChildStdin,
    lines: Lines<BufReader<ChildStdout>>,
    name: String,
    variant: Option<&'static str>,
    timeout: Duration,
}

impl Engine {
    /// Starts `path` at the lowest CPU priority (analysis never slows play, issue 41 §6),
    /// runs the UCI handshake and sets one thread and a small hash. Every answer it waits
    /// for must come within `timeout`.
    ///
    /// # Errors
    /// The program cannot be started or does not speak UCI in time.
    pub async fn start(path: &Path, timeout: Duration) -> Result<Engine, EngineError> {
        let mut child = Command::new(path)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .kill_on_drop(true)
            .spawn()?;
        if let Some(pid) = child.id() {
            // SAFETY: setpriority reads no memory of ours; it only lowers the child's
            // priority (nice 19). A failure leaves it at ours, which is logged.
            let set = unsafe { libc::setpriority(libc::PRIO_PROCESS, pid as libc::id_t, 19) };
            if set != 0 {
                tracing::warn!(error = %std::io::Error::last_os_error(), "cannot lower the engine's priority");
            }
        }
        let stdin = child.stdin.take().ok_or(EngineError::Exited)?;
        let stdout = child.stdout.take().ok_or(EngineError::Exited)?;
        let mut engine = Engine {
            child,
            stdin,
            lines: BufReader::new(stdout).lines(),
            name: String::new(),
            variant: None,
            timeout,
        };
        engine.send("uci").await?;
        loop {
            let line = engine.line().await?;
            if let Some(name) = line.strip_prefix("id name ") {
                engine.name = name.trim().to_owned();
            } else if line.trim() == "uciok" {
                break;
            }
        }
        engine.send(&format!("setoption name Hash value {HASH_MIB}")).await?;
        engine.send("setoption name Threads value 1").await?;
        engine.ready().await?;
        Ok(engine)
    }

    /// The engine's name and version (`id name`).
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The process id, while it runs.
    pub fn pid(&self) -> Option<u32> {
        self.child.id()
    }

    /// Whether the process is still running.
    pub fn is_alive(&mut self) -> bool {
        matches!(self.child.try_wait(), Ok(None))
    }

    /// Sets `UCI_Variant` (when it changes) and starts a new game (forgets the hash).
    ///
    /// # Errors
    /// The engine does not answer.
    pub async fn new_game(&mut self, variant: &'static str) -> Result<(), EngineError> {
        if self.variant != Some(variant) {
            self.send(&format!("setoption name UCI_Variant value {variant}")).await?;
            self.variant = Some(variant);
        }
        self.send("ucinewgame").await?;
        self.ready().await
    }

    /// Searches the position `fen` after `moves` (engine notation) to `limit`, among all
    /// moves or only `only` (UCI `searchmoves`: the value of one move from the same root).
    ///
    /// # Errors
    /// The engine does not answer in time, dies or answers nonsense.
    pub async fn search(
        &mut self,
        fen: &str,
        moves: &[String],
        limit: Limit,
        only: Option<&str>,
    ) -> Result<Search, EngineError> {
        let mut position = format!("position fen {fen}");
        if !moves.is_empty() {
            position.push_str(" moves ");
            position.push_str(&moves.join(" "));
        }
        self.send(&position).await?;
        let mut go = String::from("go");
        if let Some(depth) = limit.depth {
            go.push_str(&format!(" depth {depth}"));
        }
        if let Some(nodes) = limit.nodes {
            go.push_str(&format!(" nodes {nodes}"));
        }
        if let Some(only) = only {
            go.push_str(&format!(" searchmoves {only}"));
        }
        self.send(&go).await?;
        let mut found: Option<(Score, u32)> = None;
        loop {
            let line = self.line().await?;
            let mut words = line.split_whitespace();
            match words.next() {
                Some("info") => {
                    if let Some(info) = parse_info(&line) {
                        found = Some(info);
                    }
                }
                Some("bestmove") => {
                    let best = words.next().filter(|m| *m != "(none)").map(str::to_owned);
                    let (score, depth) = found.ok_or_else(|| EngineError::Protocol(line.clone()))?;
                    return Ok(Search { score, best, depth });
                }
                _ => {}
            }
        }
    }

    async fn ready(&mut self) -> Result<(), EngineError> {
        self.send("isready").await?;
        while self.line().await?.trim() != "readyok" {}
        Ok(())
    }

    async fn send(&mut self, command: &str) -> Result<(), EngineError> {
        self.stdin.write_all(command.as_bytes()).await?;
        self.stdin.write_all(b"\n").await?;
        self.stdin.flush().await?;
        Ok(())
    }

    /// The next line, within the timeout; an engine that does not answer is killed.
    async fn line(&mut self) -> Result<String, EngineError> {
        match tokio::time::timeout(self.timeout, self.lines.next_line()).await {
            Ok(Ok(Some(line))) => Ok(line),
            Ok(Ok(None)) => Err(EngineError::Exited),
            Ok(Err(error)) => Err(EngineError::Io(error)),
            Err(_) => {
                let _ = self.child.start_kill();
                Err(EngineError::Timeout(self.timeout))
            }
        }
    }
}

/// The score and depth of an `info` line of the principal variation (not a bound, not
/// a second line of multi-PV), if it has them.
fn parse_info(line: &str) -> Option<(Score, u32)> {
    let words: Vec<&str> = line.split_whitespace().collect();
    let after = |key: &str| words.iter().position(|w| *w == key).and_then(|i| words.get(i + 1));
    if after("multipv").is_some_and(|n| *n != "1")
        || words.contains(&"lowerbound")
        || words.contains(&"upperbound")
    {
        return None;
    }
    let depth = after("depth")?.parse().ok()?;
    let i = words.iter().position(|w| *w == "score")?;
    let value: i32 = words.get(i + 2)?.parse().ok()?;
    let score = match *words.get(i + 1)? {
        "cp" => Score::Cp(value),
        "mate" => Score::Mate(value),
        _ => return None,
    };
    Some((score, depth))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn info_lines_give_the_principal_score() {
        assert_eq!(
            parse_info("info depth 8 seldepth 9 multipv 1 score cp 54 nodes 15057 pv c1e3 b10c8"),
            Some((Score::Cp(54), 8))
        );
        assert_eq!(parse_info("info depth 3 score mate -2 pv a1a2"), Some((Score::Mate(-2), 3)));
        assert_eq!(parse_info("info depth 0 score mate 0"), Some((Score::Mate(0), 0)));
        assert_eq!(parse_info("info depth 9 score cp 40 lowerbound"), None);
        assert_eq!(parse_info("info depth 9 multipv 2 score cp 40"), None);
        assert_eq!(parse_info("info string NNUE evaluation"), None);
    }

    /// The engine the tests use: the configured one or Debian's.
    fn engine_path() -> Option<std::path::PathBuf> {
        super::super::find_engine(None)
    }

    #[tokio::test]
    async fn the_real_engine_searches_xiangqi_and_shogi_positions() {
        let path = engine_path().expect("fairy-stockfish is installed (.ci/run installs it)");
        let mut engine = Engine::start(&path, Duration::from_secs(30)).await.unwrap();
        assert!(engine.name().starts_with("Fairy-Stockfish"), "{}", engine.name());
        engine.new_game("xiangqi").await.unwrap();
        let limit = Limit { depth: Some(6), nodes: None };
        let start = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";
        let search = engine.search(start, &[], limit, None).await.unwrap();
        assert_eq!(search.depth, 6);
        let best = search.best.unwrap();
        assert!(crate::analysis::coords::EngineVariant::Xiangqi.from_engine(&best).is_ok(), "{best}");
        // Black to move after the central cannon: a move of a black piece (ranks 7-10).
        let after = engine.search(start, &["h3e3".to_owned()], limit, None).await.unwrap();
        let reply =
            crate::analysis::coords::EngineVariant::Xiangqi.from_engine(&after.best.unwrap()).unwrap();
        assert!(reply.as_bytes()[1] >= b'6', "{reply} is Black's");
        engine.new_game("shogi").await.unwrap();
        let shogi = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL[] w - - 0 1";
        let search =
            engine.search(shogi, &["c3c4".to_owned(), "g7g6".to_owned()], limit, None).await.unwrap();
        assert!(search.best.is_some());
        // One move's value from the same root.
        let only = engine.search(shogi, &[], limit, Some("a3a4")).await.unwrap();
        assert_eq!(only.best.as_deref(), Some("a3a4"));
        assert!(engine.is_alive());
    }

    #[tokio::test]
    async fn a_mated_side_has_no_best_move() {
        let path = engine_path().expect("fairy-stockfish is installed");
        let mut engine = Engine::start(&path, Duration::from_secs(30)).await.unwrap();
        engine.new_game("xiangqi").await.unwrap();
        // Black's king on e9 (engine e10) in check from the chariot on a9; the chariot on
        // a8 holds the eighth rank.
        let fen = "R3k4/R8/9/9/9/9/9/9/9/3K5 b - - 0 1";
        let search = engine.search(fen, &[], Limit { depth: Some(4), nodes: None }, None).await.unwrap();
        assert_eq!(search.best, None, "{search:?}");
        assert_eq!(search.score, Score::Mate(0));
    }

    #[tokio::test]
    async fn an_engine_that_does_not_answer_in_time_is_refused() {
        // `cat` echoes our commands: it never says `uciok`.
        let error = Engine::start(Path::new("/bin/cat"), Duration::from_millis(200)).await.unwrap_err();
        assert!(matches!(error, EngineError::Timeout(_)), "{error}");
        let error = Engine::start(Path::new("/bin/true"), Duration::from_secs(5)).await.unwrap_err();
        assert!(matches!(error, EngineError::Exited | EngineError::Io(_)), "{error}");
    }
}
