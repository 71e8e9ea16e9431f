//! `GET /`: the home page (issue 18 §2). For everyone: the lobby of open challenges
//! (accept buttons for players), the games being played with a small board (which
//! `static/home.js` keeps up to date over the WebSocket; without JavaScript it is the
//! position when the page was drawn), the latest results, the tournaments running or
//! taking entries and the leaderboards. A signed-in player sees their own games and
//! challenges first (`super::dashboard`).

use axum::extract::State;

use super::dashboard::{self, DashboardSections};
use super::game::time_control_summary;
use super::{render, Chrome, Ctx, PageResult};
use crate::domain::home::{self, GameCard};
use crate::domain::ratings::{Pool, RATED_VARIANTS};
use crate::domain::Domain;
use crate::web::i18n::Texts;

/// An open challenge of the lobby as the page shows it.
pub struct LobbyLine {
    id: i64,
    challenger: String,
    /// The challenger's rating in the variant and pool (`1523`, `1500?` when
    /// provisional), empty before their first rated game there.
    rating: String,
    variant: String,
    time_control: String,
    rated: bool,
    /// `2/7` for a game of more seats; empty for two.
    seats: String,
    /// The reader made it (cancel instead of accept).
    mine: bool,
    /// The reader has taken a seat in it already.
    joined: bool,
}

/// A game on the home page.
pub struct GameLine {
    id: i64,
    variant: String,
    players: String,
    ply: i32,
    time_control: String,
    live: bool,
    rated: bool,
    /// The result and why, once over.
    result: String,
}

/// A tournament on the home page, with links to its page and its sections there.
pub struct TournamentLine {
    id: i64,
    name: String,
    status: String,
    sections: Vec<(i64, String)>,
}

/// The home page.
#[derive(askama::Template)]
#[template(path = "home.html")]
pub struct HomePage {
    chrome: Chrome,
    /// The signed-in player's own sections.
    dashboard: Option<DashboardSections>,
    signed_in: bool,
    lobby: Vec<LobbyLine>,
    playing: Vec<GameLine>,
    recent: Vec<GameLine>,
    tournaments: Vec<TournamentLine>,
    /// The leaderboards: link and label.
    leaderboards: Vec<(String, String)>,
}

fn game_line(t: Texts, card: &GameCard) -> GameLine {
    let result = match (&card.result, card.reason) {
        (Some(result), Some(reason)) => format!("{result} · {}", t.get(&format!("reason.{reason}"))),
        (Some(result), None) => result.to_string(),
        _ => String::new(),
    };
    GameLine {
        id: card.id,
        variant: t.get(&format!("variant.{}", card.variant)).to_owned(),
        players: card.players.join(" – "),
        ply: card.ply,
        time_control: time_control_summary(t, card.time_control.0),
        live: card.time_control.0.is_live(),
        rated: card.rated,
        result,
    }
}

/// The leaderboards' links, every rated variant in each pool.
pub(crate) fn leaderboard_links(t: Texts) -> Vec<(String, String)> {
    RATED_VARIANTS
        .iter()
        .flat_map(|variant| {
            Pool::ALL.iter().map(move |pool| {
                (
                    format!("/leaderboards/{}/{pool}", variant.name()),
                    format!(
                        "{} · {}",
                        t.get(&format!("variant.{}", variant.name())),
                        t.get(&format!("pool.{pool}"))
                    ),
                )
            })
        })
        .collect()
}

/// `GET /`: the home page, for visitors and players alike (a visitor is not sent to the
/// login form).
pub async fn show(State(domain): State<Domain>, ctx: Ctx) -> PageResult {
    let t = ctx.t;
    let public = home::home(&domain).await?;
    let me = ctx.user.clone();
    let dashboard = match &me {
        Some(me) => Some(dashboard::sections(&domain, &ctx, me).await?),
        None => None,
    };
    let my_name = me.as_ref().map(|m| m.username.as_str());
    let lobby = public
        .lobby
        .iter()
        .map(|c| LobbyLine {
            id: c.id,
            challenger: c.challenger.clone(),
            rating: c
                .rating
                .map(|(r, provisional)| format!("{r}{}", if provisional { "?" } else { "" }))
                .unwrap_or_default(),
            variant: t.get(&format!("variant.{}", c.variant)).to_owned(),
            time_control: time_control_summary(t, c.time_control),
            rated: c.rated,
            seats: if c.seat_count > 2 { format!("{}/{}", c.taken, c.seat_count) } else { String::new() },
            mine: Some(c.challenger.as_str()) == my_name,
            joined: my_name.is_some_and(|me| c.entrants.iter().any(|e| e == me)),
        })
        .collect();
    let page = HomePage {
        chrome: ctx.chrome(if me.is_some() { "dashboard.title" } else { "home.title" }),
        signed_in: me.is_some(),
        dashboard,
        lobby,
        playing: public.playing.iter().map(|g| game_line(t, g)).collect(),
        recent: public.recent.iter().map(|g| game_line(t, g)).collect(),
        tournaments: public
            .tournaments
            .into_iter()
            .map(|tournament| TournamentLine {
                id: tournament.id,
                name: tournament.name,
                status: t.get(&format!("tournament.status.{}", tournament.status)).to_owned(),
                sections: tournament
                    .sections
                    .into_iter()
                    .map(|(id, name, variant)| {
                        (id, format!("{name} · {}", t.get(&format!("variant.{variant}"))))
                    })
                    .collect(),
            })
            .collect(),
        leaderboards: leaderboard_links(t),
    };
    render(&page)
}
