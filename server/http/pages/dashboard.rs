//! The dashboard: games where it is my turn (most urgent first, with the time left), games
//! where I wait, finished games, open challenges, my tournaments.

use axum::extract::State;

use super::{render, Chrome, Ctx, PageError, PageResult};
use crate::domain::games::{self, GameStatus, GameSummary};
use crate::domain::{challenges, tournaments, Domain};
use crate::web::i18n::Texts;

/// One game line of the dashboard.
pub struct GameLine {
    id: i64,
    variant: String,
    opponents: String,
    ply: i32,
    time_left: String,
    result: String,
}

/// One open challenge line.
pub struct ChallengeLine {
    id: i64,
    challenger: String,
    variant: String,
    mine: bool,
}

/// One tournament section I am entered in.
pub struct TournamentLine {
    tournament: String,
    section: String,
    variant: String,
    games: usize,
    standings: String,
}

/// The dashboard page.
#[derive(askama::Template)]
#[template(path = "dashboard.html")]
pub struct DashboardPage {
    chrome: Chrome,
    my_turn: Vec<GameLine>,
    waiting: Vec<GameLine>,
    finished: Vec<GameLine>,
    challenges: Vec<ChallengeLine>,
    tournaments: Vec<TournamentLine>,
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

/// `GET /`: the signed-in player's dashboard (the login page otherwise).
pub async fn show(State(domain): State<Domain>, ctx: Ctx) -> PageResult {
    let me = ctx.require_user()?.clone();
    let internal = |e: crate::domain::DomainError| PageError::Internal(e.to_string());
    let mut active =
        games::list_for_player(&domain, &me.username, Some(GameStatus::Active)).await.map_err(internal)?;
    let finished =
        games::list_for_player(&domain, &me.username, Some(GameStatus::Finished)).await.map_err(internal)?;
    // Most urgent first.
    active.sort_by_key(|g| (!g.your_turn, g.deadline));
    let (mine, theirs): (Vec<_>, Vec<_>) = active.iter().partition(|g| g.your_turn);
    let open = challenges::list_open(&domain, me.id).await.map_err(internal)?;
    let sections = tournaments::for_player(&domain, me.id).await.map_err(internal)?;
    let page = DashboardPage {
        chrome: ctx.chrome("dashboard.title"),
        my_turn: mine.into_iter().map(|g| line(&domain, ctx.t, &me.username, g)).collect(),
        waiting: theirs.into_iter().map(|g| line(&domain, ctx.t, &me.username, g)).collect(),
        finished: finished.iter().map(|g| line(&domain, ctx.t, &me.username, g)).collect(),
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
    };
    render(&page)
}
