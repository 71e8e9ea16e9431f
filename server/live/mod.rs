//! Live games over WebSocket (issue 6), on any number of instances sharing one
//! PostgreSQL.
//!
//! - [`socket`]: `GET /api/games/{id}/socket` — the transport. Anyone may watch; the
//!   players (cookie session or bearer token) may act. Every action calls the same domain
//!   function as the REST API (`domain::games::submit_move`, `resign`, draw offers).
//! - [`hub`]: fan-out within the instance — one broadcast channel per watched game, fed by
//!   the domain's view of every change made here (`domain::LocalRooms`) and the
//!   instance's single LISTEN connection (`storage::notify`) for the others' changes.
//! - [`presence`]: the watcher count over all instances — each instance keeps its
//!   sockets per game in the `live_presence` table (with heartbeats) and announces
//!   changes on a second NOTIFY channel.
//! - live clocks (Fischer, byoyomi: `domain::time_control`) are server-authoritative:
//!   the flag task (`domain::timeouts::run` with `Due::Live`) ends games whose time ran
//!   out, under a row lock, so it happens once whatever the number of instances.
//! - [`protocol`]: the JSON messages.
//!
//! # Protocol (full text: `docs/live-protocol.md`)
//!
//! Server → client, one JSON object per text frame, `type` tells which:
//! `state` (full game on connect), `resume` (after `?since_ply=N`, followed by the missing
//! `move`s), `move`, `clock`, `draw_offer`, `result`, `watchers`, `pong`, `resync`,
//! `error`. Client → server: `{"type":"move","move":"h2e2","ply":0}` (any notation, the
//! expected ply), `{"type":"resign"}`, `{"type":"draw","action":"offer|accept|decline"}`,
//! `{"type":"ping","id":1}`, `{"type":"resync"}`.
//!
//! Limits: client messages above `live.max_message_bytes` get an `error` (`too_large`),
//! above 64 KiB the socket closes; a socket silent for `live.idle_timeout_seconds` is
//! closed; a socket more than `live.queue_capacity` events behind gets `resync` and the
//! full state, so a slow consumer never slows the game.
//!
//! Lag compensation: none. The server charges the time between the two commits
//! (turn start to move receipt); the bound of what a client's network delay can cost
//! is therefore its one-way delay, documented in `docs/live-protocol.md`.

pub mod accounts;
pub mod hub;
pub mod presence;
pub mod protocol;
pub mod socket;

pub use hub::Hub;
