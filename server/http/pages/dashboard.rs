//! The dashboard sections of the home page: games where it is my turn (most urgent
//! first, with the time left), games where I wait, finished games, open challenges, my
//! tournaments.

use super::{Ctx, PageError};
use crate::domain::accounts::Account;
use crate::domain::games::{self, GameStatus, GameSummary};
use crate::domain::{challenges, tournaments, Domain};
use crate::web::i18n::Texts;

/// One game line of the dashboard.
pub struct GameLine {
    pub(super) id: i64,
    pub(super) variant: String,
    pub(super) opponents: String,
    pub(super) ply: i32,
    pub(super) time_left: String,
    pub(super) result: String,
}

/// One open challenge line.
pub struct ChallengeLine {
    pub(super) id: i64,
    pub(super) challenger: String,
    pub(super) variant: String,
    pub(super) mine: bool,
}

/// One tournament section I am entered in.
pub struct TournamentLine {
    pub(super) tournament: String,
    pub(super) section: String,
    pub(super) variant: String,
    pub(super) games: usize,
    pub(super) standings: String,
}

/// The signed-in player's own sections of the home page.
pub struct DashboardSections {
    pub(super) my_turn: Vec<GameLine>,
    pub(super) waiting: Vec<GameLine>,
    pub(super) finished: Vec<GameLine>,
    pub(super) challenges: Vec<ChallengeLine>,
    pub(super) tournaments: Vec<TournamentLine>,
}

/// A duration in days, hours and minutes from the catalogue's units.
pub fn time_left(t: Texts, seconds: i64) -> String {
    let seconds = seconds.max(0);
    let (days, hours, minutes) = (seconds / 86_400, seconds % 86_400 / 3600, seconds % 3600 / 60);
    t.format(
        "time.left",
        &[("days", &days.to_string()), ("hours", &hours.to_string()), ("minutes", &minutes.to_string())],
    )
}

fn line(domain: &Domain, t: Texts, me: &str, game: &GameSummary) -> GameLine {
    let opponents: Vec<&str> = game.players.iter().map(String::as_str).filter(|p| *p != me).collect();
    let time_left = game
        .deadline
        .map(|deadline| time_left(t, (deadline - domain.clock.now()).whole_seconds()))
        .unwrap_or_default();
    GameLine {
        id: game.id,
        variant: t.get(&format!("variant.{}", game.variant)).to_owned(),
        opponents: opponents.join(", "),
        ply: game.ply,
        time_left,
        result: game.result.as_ref().map(ToString::to_string).unwrap_or_default(),
    }
}

/// The signed-in player's sections of the home page `/` (`super::home`): games where it
/// is their turn, games where they wait, finished games, open challenges, tournaments.
///
/// # Errors
/// The database fails.
pub async fn sections(domain: &Domain, ctx: &Ctx, me: &Account) -> Result<DashboardSections, PageError> {
    let internal = |e: crate::domain::DomainError| PageError::Internal(e.to_string());
    let mut active =
        games::list_for_player(domain, &me.username, Some(GameStatus::Active)).await.map_err(internal)?;
    let finished =
        games::list_for_player(domain, &me.username, Some(GameStatus::Finished)).await.map_err(internal)?;
    // Most urgent first.
    active.sort_by_key(|g| (!g.your_turn, g.deadline));
    let (mine, theirs): (Vec<_>, Vec<_>) = active.iter().partition(|g| g.your_turn);
    let open = challenges::list_open(domain, me.id).await.map_err(internal)?;
    let sections = tournaments::for_player(domain, me.id).await.map_err(internal)?;
    Ok(DashboardSections {
        my_turn: mine.into_iter().map(|g| line(domain, ctx.t, &me.username, g)).collect(),
        waiting: theirs.into_iter().map(|g| line(domain, ctx.t, &me.username, g)).collect(),
        finished: finished.iter().map(|g| line(domain, ctx.t, &me.username, g)).collect(),
        challenges: open
            .iter()
            .map(|c| ChallengeLine {
                id: c.id,
                challenger: c.challenger.clone(),
                variant: ctx.t.get(&format!("variant.{}", c.variant)).to_owned(),
                mine: c.challenger == me.username,
            })
            .collect(),
        tournaments: sections
            .into_iter()
            .map(|s| TournamentLine {
                standings: format!("/api/sections/{}/crosstable.html", s.section_id),
                tournament: s.tournament,
                section: s.section,
                variant: ctx.t.get(&format!("variant.{}", s.variant)).to_owned(),
                games: s.games.len(),
            })
            .collect(),
    })
}
