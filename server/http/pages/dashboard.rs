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
    /// The deadline of the side to move (active games).
    pub(super) deadline: Option<Deadline>,
    pub(super) result: String,
}

/// One open challenge line.
pub struct ChallengeLine {
    pub(super) id: i64,
    pub(super) challenger: String,
    pub(super) variant: String,
    pub(super) mine: bool,
}

/// One tournament section I am entered in, with my games in play there.
pub struct TournamentLine {
    pub(super) tournament_id: i64,
    pub(super) tournament: String,
    pub(super) section_id: i64,
    pub(super) section: String,
    pub(super) variant: String,
    /// "withdrawn", or the section's status, in words.
    pub(super) status: String,
    pub(super) next: Vec<NextGame>,
}

/// A game of mine in play in a tournament.
pub struct NextGame {
    pub(super) id: i64,
    /// "Round 2: bob".
    pub(super) label: String,
    pub(super) your_turn: bool,
    pub(super) deadline: Option<Deadline>,
}

/// The signed-in player's own sections of the home page.
pub struct DashboardSections {
    pub(super) my_turn: Vec<GameLine>,
    pub(super) waiting: Vec<GameLine>,
    pub(super) finished: Vec<GameLine>,
    pub(super) challenges: Vec<ChallengeLine>,
    pub(super) tournaments: Vec<TournamentLine>,
}

/// A deadline as the pages show it: `datetime` (RFC 3339) for `static/countdown.js`,
/// which turns it into the time left, and the date and time in UTC, which is what a reader
/// without JavaScript sees (issue 18 §4).
pub struct Deadline {
    pub(super) datetime: String,
    pub(super) date: String,
}

impl Deadline {
    /// `None` when there is no deadline.
    pub fn of(at: Option<time::OffsetDateTime>) -> Option<Deadline> {
        let at = at?;
        let date = time::macros::format_description!("[year]-[month]-[day] [hour]:[minute] UTC");
        Some(Deadline {
            datetime: at.format(&time::format_description::well_known::Rfc3339).ok()?,
            date: at.to_offset(time::UtcOffset::UTC).format(&date).ok()?,
        })
    }
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

fn line(t: Texts, me: &str, game: &GameSummary) -> GameLine {
    let opponents: Vec<&str> = game.players.iter().map(String::as_str).filter(|p| *p != me).collect();
    GameLine {
        id: game.id,
        variant: t.get(&format!("variant.{}", game.variant)).to_owned(),
        opponents: opponents.join(", "),
        ply: game.ply,
        deadline: Deadline::of(game.deadline),
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
        my_turn: mine.into_iter().map(|g| line(ctx.t, &me.username, g)).collect(),
        waiting: theirs.into_iter().map(|g| line(ctx.t, &me.username, g)).collect(),
        finished: finished.iter().map(|g| line(ctx.t, &me.username, g)).collect(),
        challenges: open
            .iter()
            .map(|c| ChallengeLine {
                id: c.id,
                challenger: c.challenger.clone(),
                variant: ctx.t.get(&format!("variant.{}", c.variant)).to_owned(),
                mine: c.challenger == me.username,
            })
            .collect(),
        tournaments: sections.into_iter().map(|s| tournament_line(ctx.t, s)).collect(),
    })
}

/// A section of mine: its games in play, my move first, the nearest deadline first.
fn tournament_line(t: Texts, section: tournaments::MySection) -> TournamentLine {
    let mut next: Vec<&tournaments::MyGame> =
        section.games.iter().filter(|g| g.status == GameStatus::Active).collect();
    next.sort_by_key(|g| (!g.your_turn, g.deadline, g.round));
    TournamentLine {
        next: next
            .into_iter()
            .map(|g| NextGame {
                id: g.game_id,
                label: format!(
                    "{}: {}",
                    t.format("rounds.round", &[("round", &g.round.unwrap_or_default().to_string())]),
                    g.opponent
                ),
                your_turn: g.your_turn,
                deadline: Deadline::of(g.deadline),
            })
            .collect(),
        status: if section.entry_status == "withdrawn" {
            t.get("tournament.withdrawn").to_owned()
        } else {
            t.get(&format!("section.status.{}", section.status)).to_owned()
        },
        tournament_id: section.tournament_id,
        tournament: section.tournament,
        section_id: section.section_id,
        section: section.section,
        variant: t.get(&format!("variant.{}", section.variant)).to_owned(),
    }
}
