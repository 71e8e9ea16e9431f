//! Games: the one move-submission function, the other game actions (resign, draw, abort),
//! the one ending and announcement of a change, the game view and the list of a player's
//! games. One file per concern; the rows and statements are in `crate::storage::games`.

mod actions;
mod cache;
mod clocks;
mod conditional;
mod ending;
mod moves;
mod view;

pub use actions::{
    abort, accept_draw, claim, decline_draw, offer_draw, rematch, rematch_state, resign, Rematch,
    RematchState,
};
pub(crate) use actions::{begin_player_action, create_in, ensure_active, seat_exit, seat_of, PlayerAction};
pub(crate) use cache::{replay, rules_state, Snapshot};
pub use cache::{GameCache, RulesState};
pub use clocks::refresh_deadlines;
pub(crate) use clocks::{
    awaits_first_move, counted_leave, expire_if_overdue, leave_in_game, leave_of_seats, turn_deadline,
};
pub(crate) use conditional::{answer, settle, Answer};
pub use conditional::{
    create_line, delete_lines, line_continuations, list_lines, ConditionalLine, LineNext, MAX_LINES,
    MAX_MOVES,
};
pub(crate) use ending::{
    announce, announce_and_commit, announce_stored, end_rows, finish, finish_rated, stop, Ending,
};
pub use moves::submit_move;
pub(crate) use view::{assemble, read_snapshot, view_in};
pub use view::{
    check_move, list_for_player, next_to_move, position_at, record_text, series_options, view, GameView,
    MoveCheck, MoveView, SeatView, SeriesOptions,
};

use serde::Serialize;
use sqlx::{Postgres, Transaction};
use tavoliere_rules::EndReason;
use time::OffsetDateTime;

use super::error::{DomainError, DomainResult, ErrorKind};
use tavoliere_rules::variant::{
    split_series_display, AnyGame, Notation, PlayedMove, SeatExit, SeatResult, StoredMove,
};

use super::iccf_days;
use super::rules_adapter::{self, move_error, Variant};
use super::time_control::{self, TimeControl};
use super::Domain;
use crate::storage::games::*;
pub use crate::storage::games::{GameReason, GameResult, GameStatus, GameSummary, SeatOutcome};
use crate::storage::notify;
use crate::storage::vacation::{leave_after, leave_of_accounts};

pub(crate) fn variant_of(row: &GameRow) -> DomainResult<Variant> {
    row.variant
        .parse()
        .map_err(|e: tavoliere_rules::variant::UnknownVariant| DomainError::Internal(anyhow::anyhow!(e)))
}
