//! The public home (issue 18 §2): what anyone sees on arriving, signed in or not — the
//! lobby of open challenges, the games being played, the latest results and the
//! tournaments running or taking entries.

use super::error::DomainResult;
use super::ratings::{self, Glicko, Pool};
use super::time_control::TimeControl;
use super::Domain;
use crate::storage::home as stored;
pub use crate::storage::home::GameCard;

/// An open challenge of the lobby.
#[derive(Debug)]
pub struct LobbyChallenge {
    /// Challenge id.
    pub id: i64,
    /// Who challenges.
    pub challenger: String,
    /// The challenger's rating in the variant and pool, rounded, and whether it is
    /// provisional (`None`: no rated game yet).
    pub rating: Option<(i32, bool)>,
    /// The variant.
    pub variant: String,
    /// The time control.
    pub time_control: TimeControl,
    /// Whether the game will be rated.
    pub rated: bool,
    /// Seats in all, and taken so far (the challenger's included).
    pub seat_count: i32,
    /// Seats taken so far.
    pub taken: i64,
    /// The players besides the challenger who have taken a seat.
    pub entrants: Vec<String>,
}

/// A tournament running or taking entries.
#[derive(Debug)]
pub struct TournamentCard {
    /// Tournament id.
    pub id: i64,
    /// Its name.
    pub name: String,
    /// `registration` or `running`.
    pub status: String,
    /// Its sections: id, name, variant.
    pub sections: Vec<(i64, String, String)>,
}

/// Everything the home page shows besides the signed-in player's own games.
#[derive(Debug)]
pub struct Home {
    /// Open challenges, newest first.
    pub lobby: Vec<LobbyChallenge>,
    /// Games being played: live ones first.
    pub playing: Vec<GameCard>,
    /// The latest finished games.
    pub recent: Vec<GameCard>,
    /// Tournaments running or taking entries.
    pub tournaments: Vec<TournamentCard>,
}

/// How many of each the home page lists.
const LOBBY_SIZE: i64 = 50;
const PLAYING_SIZE: i64 = 12;
const RECENT_SIZE: i64 = 20;
const TOURNAMENTS_SIZE: i64 = 20;

/// The home page's public sections.
///
/// # Errors
/// Database failure.
pub async fn home(domain: &Domain) -> DomainResult<Home> {
    let now = domain.clock.now();
    let (lobby, playing, recent, tournaments) = tokio::try_join!(
        stored::lobby(&domain.pool, LOBBY_SIZE),
        stored::games_in_play(&domain.pool, PLAYING_SIZE),
        stored::recent_results(&domain.pool, RECENT_SIZE),
        stored::open_tournaments(&domain.pool, TOURNAMENTS_SIZE),
    )?;
    let lobby = lobby
        .into_iter()
        .map(|c| {
            let rating = match (c.rating, c.deviation, c.volatility, c.rated_at) {
                (Some(rating), Some(deviation), Some(volatility), Some(at)) => {
                    let now = ratings::current(Glicko { rating, deviation, volatility }, at, now);
                    Some((now.rating.round() as i32, ratings::is_provisional(now.deviation, &domain.ratings)))
                }
                _ => None,
            };
            LobbyChallenge {
                id: c.id,
                challenger: c.challenger,
                rating,
                variant: c.variant,
                time_control: c.time_control.0,
                rated: c.rated,
                seat_count: c.seat_count,
                taken: c.taken,
                entrants: c.entrants,
            }
        })
        .collect();
    Ok(Home {
        lobby,
        playing,
        recent,
        tournaments: tournaments
            .into_iter()
            .map(|t| TournamentCard { id: t.id, name: t.name, status: t.status, sections: t.sections.0 })
            .collect(),
    })
}

/// The pool of a time control's games, by name (`correspondence`, `live`).
pub fn pool_name(control: TimeControl) -> &'static str {
    Pool::of(control).as_str()
}
