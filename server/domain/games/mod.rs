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

pub use actions::*;
pub use cache::*;
pub use clocks::*;
pub use conditional::*;
pub(crate) use ending::*;
pub use moves::*;
pub use view::*;

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
