//! The JSON messages of the live protocol (documented in `docs/live-protocol.md`).

use serde::{Deserialize, Serialize};
use time::OffsetDateTime;

use crate::domain::games::{GameReason, GameResult, GameStatus, GameView, MoveView, SeatView};

/// What a draw message asks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DrawAction {
    /// Offer a draw.
    Offer,
    /// Accept the opponent's offer.
    Accept,
    /// Decline it.
    Decline,
}

/// A message from a client.
#[derive(Debug, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum ClientMessage {
    /// Play a move (any supported notation) at the ply the client believes the game is at.
    Move {
        /// The move text.
        #[serde(rename = "move")]
        text: String,
        /// The expected ply (number of moves played so far).
        ply: i32,
    },
    /// Resign.
    Resign,
    /// Offer, accept or decline a draw.
    Draw {
        /// Which.
        action: DrawAction,
    },
    /// Keep-alive and clock sync; answered by `pong` with the same `id`.
    Ping {
        /// Echoed back.
        #[serde(default)]
        id: Option<serde_json::Value>,
    },
    /// Ask for the full state again.
    Resync,
}

/// The clocks after a change.
#[derive(Debug, Serialize)]
pub struct ClockState {
    /// Ply the clocks belong to.
    pub ply: i32,
    /// Remaining time of each seat at the start of the current turn, in milliseconds.
    pub remaining_ms: Vec<i64>,
    /// Seat whose clock runs (`null` once over, and while the seat to move awaits its
    /// first move).
    pub running_seat: Option<i32>,
    /// The seat to move while it has yet to make its first move in a live game of two
    /// (its clock does not run; unless it moves by `deadline` the game is aborted).
    pub first_move_seat: Option<i32>,
    /// When the running clock reaches zero, or the first-move time of `first_move_seat`
    /// ends.
    #[serde(with = "time::serde::rfc3339::option")]
    pub deadline: Option<OffsetDateTime>,
    /// The server's time when this was sent (clients correct their own clock by it).
    #[serde(with = "time::serde::rfc3339")]
    pub server_time: OffsetDateTime,
}

impl ClockState {
    /// The clocks of `view` at `now`.
    pub fn of(view: &GameView, now: OffsetDateTime) -> ClockState {
        ClockState {
            ply: view.ply,
            remaining_ms: view.seats.iter().map(|s| s.remaining_ms).collect(),
            running_seat: view.to_move_seat.filter(|_| !view.awaits_first_move),
            first_move_seat: view.to_move_seat.filter(|_| view.awaits_first_move),
            deadline: view.deadline,
            server_time: now,
        }
    }
}

/// A message from the server.
#[derive(Debug, Serialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum ServerMessage<'a> {
    /// The full state (on connect, on `resync`, after falling behind).
    State {
        /// The game, as `GET /api/games/{id}` shows it.
        game: &'a GameView,
        /// The caller's seat, `null` for a spectator.
        you: Option<i32>,
        /// Sockets watching the game, on every instance.
        watchers: usize,
        /// Clocks.
        clock: ClockState,
    },
    /// A reconnecting client named `since_ply`: the moves after it follow as `move` events.
    Resume {
        /// The ply the client had.
        since_ply: i32,
        /// The game's ply now.
        ply: i32,
        /// The caller's seat, `null` for a spectator.
        you: Option<i32>,
        /// Sockets watching the game, on every instance.
        watchers: usize,
    },
    /// One move.
    Move {
        /// The move.
        #[serde(rename = "move")]
        played: &'a MoveView,
        /// Position after it (FEN/SFEN) when it is the latest move, else `null`.
        position: Option<&'a str>,
        /// Legal moves after it when it is the latest move.
        #[serde(skip_serializing_if = "Option::is_none")]
        legal_moves: Option<&'a [String]>,
    },
    /// The clocks changed (after a move, or at a reconnect).
    Clock(ClockState),
    /// The standing draw offer changed (`seat` is `null` once withdrawn or declined).
    DrawOffer {
        /// The offering seat.
        seat: Option<i32>,
    },
    /// A seat's status changed in a game of more than two seats (it left by resignation
    /// or on time, or its kingdoms were defeated): every seat, as in the game state. A
    /// `clock` event follows when the turn passed on.
    Seats {
        /// The seats, as `GET /api/games/{id}` shows them.
        seats: &'a [SeatView],
    },
    /// The game ended.
    Result {
        /// `finished` or `aborted`.
        status: GameStatus,
        /// `1-0`, `0-1`, `1/2-1/2`.
        result: Option<&'a GameResult>,
        /// Why (kebab-case), e.g. `timeout`, `resignation`, `checkmate`.
        reason: Option<GameReason>,
        /// Why a game law ended it, as in the game state's `ruling` (`null` otherwise).
        ruling: Option<&'a tavoliere_rules::game::Ruling>,
    },
    /// The signed-in account's unread notifications (on connect, and when they change).
    Notifications {
        /// Unread notifications (`GET /api/notifications` lists them).
        unread: i64,
    },
    /// The number of watchers changed.
    Watchers {
        /// Sockets watching the game, on every instance.
        count: usize,
    },
    /// Answer to `ping`.
    Pong {
        /// The ping's id.
        id: Option<serde_json::Value>,
        /// The server's time.
        #[serde(with = "time::serde::rfc3339")]
        server_time: OffsetDateTime,
    },
    /// The client fell too far behind; a `state` follows.
    Resync {
        /// Why.
        reason: &'a str,
    },
    /// A refused message; nothing was stored.
    Error {
        /// `malformed`, `too_large`, `unauthorized`, `forbidden`, `not_found`, `conflict`,
        /// `invalid`, `rate_limited` or `internal`.
        code: &'static str,
        /// A sentence for the player.
        message: String,
        /// For a refused action, the REST error shape's list: `[{"code":
        /// "illegal-move.blocked", "detail": "...", "meta": {...}}]`, the same code as
        /// over REST.
        #[serde(skip_serializing_if = "Option::is_none")]
        errors: Option<serde_json::Value>,
    },
}

impl ServerMessage<'_> {
    /// The JSON text.
    pub fn to_text(&self) -> String {
        // Serialising these plain structures cannot fail.
        serde_json::to_string(self).unwrap_or_else(|_| r#"{"type":"error","code":"internal"}"#.to_owned())
    }
}
