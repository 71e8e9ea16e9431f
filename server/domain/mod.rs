//! The decisions: accounts, challenges, games and their clocks. Transport adapters
//! (REST, web forms, WebSocket) call these functions; nothing else writes game rows.

pub mod accounts;
pub mod admin;
pub mod archive;
pub mod challenges;
pub mod clock;
pub mod email;
pub mod error;
pub mod games;
pub mod home;
pub mod iccf_days;
pub mod imports;
pub mod notifications;
pub mod players;
pub mod positions;
pub mod preferences;
pub mod ratings;
pub mod rules_adapter;
pub mod rules_work;
pub mod time_control;
pub mod timeouts;
pub mod tournaments;
pub mod vacation;

use std::sync::{Arc, OnceLock, Weak};

use sqlx::PgPool;

pub use error::{DomainError, DomainResult, ErrorKind};

/// What the domain functions work with: the database and the time source.
#[derive(Clone, Debug)]
pub struct Domain {
    /// The database.
    pub pool: PgPool,
    /// The writes of the move's fast path, on connections of their own (see
    /// [`crate::storage::move_writes`]).
    pub moves: crate::storage::move_writes::MoveWriter,
    /// "Now", injectable for tests.
    pub clock: Arc<dyn clock::Clock>,
    /// The rules games of recently played games (see [`games::GameCache`]).
    pub games: Arc<games::GameCache>,
    /// Recently checked bearer tokens (see [`accounts::TokenCache`]).
    pub tokens: Arc<accounts::TokenCache>,
    /// Announces changes to every instance after their commit (see
    /// [`crate::storage::notify::Announcer`]).
    pub announcer: crate::storage::notify::Announcer,
    /// This instance's live sockets, which get the view of every change made here at
    /// once (see [`LocalRooms`]).
    pub rooms: Arc<LocalRooms>,
    /// The rating system's settings (see [`ratings`]).
    pub ratings: Arc<crate::config::RatingSettings>,
    /// The server's time zone (`clocks.time_zone`): the days of the ICCF accounting and
    /// of leave (see [`iccf_days`]).
    pub time_zone: iccf_days::ZoneName,
    /// How long a side of a live game has for its first move (`clocks.first_move_seconds`,
    /// see [`games::awaits_first_move`]).
    pub first_move: FirstMoveTime,
    /// The bounded pool of costly rules work, off the async workers (see [`rules_work`]).
    pub rules_work: Arc<rules_work::RulesWork>,
}

/// The time a side of a live game has for its first move before the game is aborted
/// (issue 37 §5), 30 seconds unless configured.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FirstMoveTime(pub time::Duration);

impl Default for FirstMoveTime {
    fn default() -> FirstMoveTime {
        FirstMoveTime(time::Duration::seconds(30))
    }
}

/// The sockets of this instance watching games (`crate::live::Hub`), as the domain sees
/// them: whoever changes a game hands them the view it built after the commit, whatever
/// the transport of the change (REST, form, WebSocket, a director, the clock). The other
/// instances hear of it by NOTIFY and read it.
pub trait Watchers: Send + Sync + std::fmt::Debug {
    /// Whether any socket here watches `game_id`.
    fn watches(&self, game_id: i64) -> bool;
    /// Sends `view` to the sockets of its game.
    fn publish(&self, view: Arc<games::GameView>);
}

/// Where [`Watchers`] are attached once the live hub exists (none: nobody to tell).
#[derive(Debug, Default)]
pub struct LocalRooms {
    watchers: OnceLock<Weak<dyn Watchers>>,
}

impl LocalRooms {
    /// Attaches this instance's watchers (the first attached stays).
    pub fn attach(&self, watchers: Weak<dyn Watchers>) {
        let _ = self.watchers.set(watchers);
    }

    /// Sends `view` to the local sockets of its game, if any watch it (the view is
    /// copied only then).
    pub fn publish(&self, view: &games::GameView) {
        if let Some(watchers) = self.watchers.get().and_then(Weak::upgrade) {
            if watchers.watches(view.id) {
                watchers.publish(Arc::new(view.clone()));
            }
        }
    }
}
