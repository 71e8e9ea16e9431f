//! The writes of the move's fast path (`domain::games::move_on_copy`), several moves of
//! different games in one statement when they arrive together.
//!
//! Why: under load the cost of a move in PostgreSQL is mostly per statement, not per row —
//! starting the executor, the commit and its WAL flush, the round trip (the profile of
//! 2026-11-27, docs/benchmarks.md "Load benchmark"). At most `database.move_connections` statements
//! run at once; a move arriving while one runs waits for the next statement, which takes
//! every move waiting (up to `database.move_batch`) and stores them together with
//! [`games::write_moves`]. Another statement starts beside the running ones only once
//! `database.move_backlog` moves wait (a short queue goes out whole with the next statement
//! instead of in pieces: fewer statements, fewer commits). A move arriving when no statement
//! runs is written at once by [`games::write_move`], alone: a lone move waits for nobody.
//!
//! Nothing changes for the mover: each move is stored under its own conditions (the
//! game's revision, active, no leave taken), its answer comes after the statement that
//! stored it committed, and a move whose conditions failed is `None` as before (the locked
//! path then decides). If the statement of several moves fails, none of them is stored
//! (one statement) and each is written again alone, so that one move's error (a second row
//! for a ply) is not another's. A statement waits at most
//! [`crate::storage::move_connections::LOCK_TIMEOUT_MS`] for a game's row lock: a move
//! whose game is held longer by another transaction is decided on the locked path, and the
//! moves of other games do not wait for it.

use std::collections::HashSet;
use std::sync::{Arc, Mutex, MutexGuard};

use tokio::sync::oneshot;

use crate::domain::{DomainError, DomainResult};
use crate::storage::games::{self, MoveToWrite, Written};
use crate::storage::move_connections::MoveConnections;

/// The fast path's writer (cheap to clone: one shared queue).
#[derive(Clone, Debug)]
pub struct MoveWriter {
    shared: Arc<Shared>,
}

#[derive(Debug)]
struct Shared {
    connections: MoveConnections,
    /// At most this many statements at once: one a connection.
    statements: usize,
    /// At most this many moves a statement.
    batch: usize,
    /// Moves waiting before another statement starts beside the running ones.
    backlog: usize,
    queue: Mutex<Queue>,
}

#[derive(Debug, Default)]
struct Queue {
    waiting: Vec<Waiting>,
    /// Statements running or about to.
    writers: usize,
}

#[derive(Debug)]
struct Waiting {
    write: MoveToWrite,
    answer: oneshot::Sender<DomainResult<Option<Written>>>,
}

impl MoveWriter {
    /// As many statements at once as `connections` has connections
    /// (`database.move_connections`), each storing at most `batch` moves
    /// (`database.move_batch`; 1 stores each move alone); another statement starts beside
    /// the running ones once `backlog` moves wait (`database.move_backlog`; 1: whenever a
    /// connection is free).
    pub fn new(connections: MoveConnections, batch: usize, backlog: usize) -> MoveWriter {
        let (_, _, statements) = connections.status();
        let shared = Shared {
            connections,
            statements,
            batch: batch.max(1),
            backlog: backlog.max(1),
            queue: Mutex::default(),
        };
        MoveWriter { shared: Arc::new(shared) }
    }

    /// The connections the statements run on.
    pub fn connections(&self) -> &MoveConnections {
        &self.shared.connections
    }

    /// The statements running (or starting) and the moves waiting for one (a busy moment:
    /// every connection's statement running), read together.
    pub fn state(&self) -> (usize, usize) {
        let queue = self.shared.lock();
        (queue.writers, queue.waiting.len())
    }

    /// Stores `write` as [`games::write_move`] would, alone or with other moves.
    ///
    /// # Errors
    /// The statement's error (a connection lost, a second row for a ply), or 503 when no
    /// connection could be had.
    pub(crate) async fn write(&self, write: MoveToWrite) -> DomainResult<Option<Written>> {
        let (answer, answered) = oneshot::channel();
        let start_writer = {
            let mut queue = self.shared.lock();
            queue.waiting.push(Waiting { write, answer });
            let start = queue.writers == 0
                || (queue.writers < self.shared.statements && queue.waiting.len() >= self.shared.backlog);
            if start {
                queue.writers += 1;
            }
            start
        };
        if start_writer {
            // A task of its own: a request that goes away must not take the other moves
            // of its statement with it.
            tokio::spawn(Arc::clone(&self.shared).write_waiting());
        }
        answered
            .await
            .unwrap_or_else(|_| Err(DomainError::Internal(anyhow::anyhow!("the move's writer stopped"))))
    }
}

impl Shared {
    fn lock(&self) -> MutexGuard<'_, Queue> {
        // A panic while the lock is held leaves the queue as it was.
        self.queue.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// Writes the waiting moves until none waits.
    async fn write_waiting(self: Arc<Self>) {
        // Counted off even if a statement panics, so that the next move starts a writer.
        let _writer = WriterCount(&self);
        loop {
            let batch = self.next_batch();
            if batch.is_empty() {
                return;
            }
            self.write_batch(batch).await;
        }
    }

    /// Takes up to `batch` waiting moves, oldest first, of distinct games (a second move of
    /// one game waits for the next statement), in the order of their games' ids (the order
    /// of the row locks: [`games::write_moves`]). Empty when none waits, or when fewer than
    /// the backlog wait while another statement runs (its writer takes them next, together);
    /// this writer is then counted off under the same lock, so that the last writer never
    /// stops while a move waits.
    fn next_batch(&self) -> Vec<Waiting> {
        let mut queue = self.lock();
        if queue.waiting.is_empty() || (queue.writers > 1 && queue.waiting.len() < self.backlog) {
            queue.writers -= 1;
            return Vec::new();
        }
        let mut games = HashSet::new();
        let mut batch = Vec::new();
        let mut left = Vec::new();
        for waiting in queue.waiting.drain(..) {
            if batch.len() < self.batch && games.insert(waiting.write.game_id) {
                batch.push(waiting);
            } else {
                left.push(waiting);
            }
        }
        queue.waiting = left;
        batch.sort_by_key(|w| w.write.game_id);
        batch
    }

    async fn write_batch(&self, mut batch: Vec<Waiting>) {
        if batch.len() == 1 {
            let Waiting { write, answer } = batch.pop().expect("one move");
            return self.write_alone(write, answer).await;
        }
        let (moves, answers): (Vec<MoveToWrite>, Vec<_>) =
            batch.into_iter().map(|w| (w.write, w.answer)).unzip();
        match self.connections.run(async |connection| games::write_moves(connection, &moves).await).await {
            Ok(written) => {
                metrics::counter!("tavoliere_moves_written_total", "statement" => "together")
                    .increment(moves.len() as u64);
                for (write, answer) in moves.iter().zip(answers) {
                    let stored = written.iter().find(|(game, _)| *game == write.game_id).map(|(_, w)| *w);
                    // The mover may have gone away: nobody to answer.
                    let _ = answer.send(Ok(stored));
                }
            }
            Err(error) => {
                tracing::warn!(moves = moves.len(), %error, "a statement of several moves failed: each is written alone");
                for (write, answer) in moves.into_iter().zip(answers) {
                    self.write_alone(write, answer).await;
                }
            }
        }
    }

    async fn write_alone(&self, write: MoveToWrite, answer: oneshot::Sender<DomainResult<Option<Written>>>) {
        let written = self
            .connections
            .run(async |connection| {
                games::write_move(
                    connection,
                    write.game_id,
                    &write.write,
                    write.revision,
                    &write.leave_guard,
                    write.turn_started_at,
                )
                .await
            })
            .await;
        // Waited too long for a row lock: the locked path decides (it waits).
        let written = match written {
            Err(error) if MoveConnections::lock_timed_out(&error) => Ok(None),
            written => written,
        };
        metrics::counter!("tavoliere_moves_written_total", "statement" => "alone").increment(1);
        let _ = answer.send(written);
    }
}

/// Counts a writer off if it stops without [`Shared::next_batch`] doing it (a panic).
struct WriterCount<'a>(&'a Shared);

impl Drop for WriterCount<'_> {
    fn drop(&mut self) {
        if std::thread::panicking() {
            self.0.lock().writers -= 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use sqlx::postgres::PgPoolOptions;
    use time::OffsetDateTime;

    use super::*;
    use crate::storage::games::MoveWrite;

    /// A writer of two statements at most and a backlog of `backlog`; its connections are
    /// never opened (only the queue's rules are used).
    fn writer(backlog: usize) -> MoveWriter {
        let pool =
            PgPoolOptions::new().connect_lazy("postgres://nobody@127.0.0.1:1/none").expect("a lazy pool");
        MoveWriter::new(MoveConnections::new(&pool, 2, Duration::from_secs(1)), 64, backlog)
    }

    fn waiting(game_id: i64) -> Waiting {
        let now = OffsetDateTime::UNIX_EPOCH;
        let write = MoveWrite {
            plies: vec![1],
            parts: vec!["h2e2".to_owned()],
            turn_number: 1,
            mover: 0,
            remaining_ms: 0,
            next_seat: 1,
            deadline: now,
            draw_offer: None,
            position_key: 0,
            now,
            game_over: false,
            notify_account: None,
        };
        let write =
            MoveToWrite { game_id, write, revision: 1, leave_guard: Vec::new(), turn_started_at: now };
        Waiting { write, answer: oneshot::channel().0 }
    }

    fn queue_with(writer: &MoveWriter, writers: usize, games: &[i64]) {
        let mut queue = writer.shared.lock();
        queue.writers = writers;
        queue.waiting = games.iter().map(|&game| waiting(game)).collect();
    }

    fn next_batch(writer: &MoveWriter) -> Vec<i64> {
        writer.shared.next_batch().iter().map(|w| w.write.game_id).collect()
    }

    #[tokio::test]
    async fn a_writer_whose_statement_ends_beside_another_leaves_a_short_queue_to_it() {
        let writer = writer(3);
        // Two moves wait, below the backlog, while another writer is counted: this one stops
        // (counted off) and leaves them to the other's next statement, whole.
        queue_with(&writer, 2, &[7, 8]);
        assert!(next_batch(&writer).is_empty());
        assert_eq!(writer.state(), (1, 2), "(writers, moves waiting)");
        // The last writer never stops while a move waits: it takes both.
        assert_eq!(next_batch(&writer), [7, 8]);
        assert_eq!(writer.state(), (1, 0));
        // With nothing waiting it stops.
        assert!(next_batch(&writer).is_empty());
        assert_eq!(writer.state(), (0, 0));
    }

    #[tokio::test]
    async fn a_writer_beside_another_takes_a_queue_that_reached_the_backlog() {
        let writer = writer(3);
        queue_with(&writer, 2, &[9, 4, 6]);
        assert_eq!(next_batch(&writer), [4, 6, 9], "all three, in the order of their games' ids");
        assert_eq!(writer.state(), (2, 0), "both writers still counted");
    }
}
