//! The public pages of players (issue 18 §1, §3): a player's profile
//! `/players/{username}` (ratings with their charts, results, games, tournaments) and the
//! leaderboards `/leaderboards`, `/leaderboards/{variant}/{pool}`. Plain HTML: the charts
//! are SVG drawn by the server.

use axum::extract::State;

use super::home::leaderboard_links;
use super::{render, Chrome, Ctx, PageError, PagePath, PageResult};
use crate::domain::games::GameSummary;
use crate::domain::players;
use crate::domain::ratings::Pool;
use crate::domain::{Domain, DomainError};
use crate::web::chart::rating_chart;
use crate::web::i18n::Texts;

/// One rating on the profile, with its chart.
pub struct RatingLine {
    variant: String,
    pool: String,
    /// `1662`, or `1662?` while provisional.
    rating: String,
    deviation: i32,
    games: i32,
    /// The SVG chart of its history (numbers only: see `web::chart`).
    chart: String,
}

/// One game on the profile.
pub struct ProfileGame {
    id: i64,
    variant: String,
    players: String,
    result: String,
}

/// The profile page.
#[derive(askama::Template)]
#[template(path = "player.html")]
pub struct ProfilePage {
    chrome: Chrome,
    username: String,
    member_since: String,
    language: String,
    ratings: Vec<RatingLine>,
    /// Variant, wins, draws, losses.
    results: Vec<(String, i64, i64, i64)>,
    current: Vec<ProfileGame>,
    recent: Vec<ProfileGame>,
    tournaments: Vec<(i64, String, String)>,
}

fn not_found_or(ctx: &Ctx) -> impl Fn(DomainError) -> PageError + '_ {
    move |error| match error {
        DomainError::NotFound(_) | DomainError::Invalid(_) | DomainError::Coded { .. } => {
            PageError::NotFound(ctx.t)
        }
        other => PageError::Internal(other.to_string()),
    }
}

fn variant_name(t: Texts, variant: &str) -> String {
    t.get(&format!("variant.{variant}")).to_owned()
}

fn profile_game(t: Texts, game: &GameSummary) -> ProfileGame {
    ProfileGame {
        id: game.id,
        variant: variant_name(t, &game.variant),
        players: game.players.join(" – "),
        result: game.result.as_ref().map(ToString::to_string).unwrap_or_default(),
    }
}

/// `GET /players/{username}`: a player's public profile.
pub async fn profile(
    State(domain): State<Domain>,
    ctx: Ctx,
    PagePath(username): PagePath<String>,
) -> PageResult {
    let t = ctx.t;
    let profile = players::profile(&domain, &username).await.map_err(not_found_or(&ctx))?;
    let mut ratings = Vec::with_capacity(profile.ratings.len());
    for rating in &profile.ratings {
        let history = players::rating_history(&domain, &profile.username, &rating.variant, rating.pool)
            .await
            .map_err(not_found_or(&ctx))?;
        let points: Vec<i32> = history.iter().map(|p| p.rating).collect();
        ratings.push(RatingLine {
            variant: variant_name(t, &rating.variant),
            pool: t.get(&format!("pool.{}", rating.pool)).to_owned(),
            rating: format!("{}{}", rating.rating, if rating.provisional { "?" } else { "" }),
            deviation: rating.deviation,
            games: rating.games,
            chart: rating_chart(&points).unwrap_or_default(),
        });
    }
    let date = time::macros::format_description!("[year]-[month]-[day]");
    let page = ProfilePage {
        chrome: Chrome { title: profile.username.clone(), ..ctx.chrome("profile.title") },
        member_since: profile.member_since.format(&date).unwrap_or_default(),
        language: match profile.language.as_deref() {
            Some(tag) => t.get(&format!("settings.language.{tag}")).to_owned(),
            None => t.get("settings.language.auto").to_owned(),
        },
        ratings,
        results: profile
            .results
            .iter()
            .map(|r| (variant_name(t, &r.variant), r.wins, r.draws, r.losses))
            .collect(),
        current: profile.current_games.iter().map(|g| profile_game(t, g)).collect(),
        recent: profile.recent_games.iter().map(|g| profile_game(t, g)).collect(),
        tournaments: profile
            .tournaments
            .iter()
            .map(|tournament| {
                let status = t.get(&format!("tournament.status.{}", tournament.status)).to_owned();
                (tournament.id, tournament.name.clone(), status)
            })
            .collect(),
        username: profile.username,
    };
    render(&page)
}

/// The leaderboard page.
#[derive(askama::Template)]
#[template(path = "leaderboard.html")]
pub struct LeaderboardPage {
    chrome: Chrome,
    /// Rank, player, rating, deviation, games.
    players: Vec<(usize, String, i32, i32, i32)>,
    /// Who is listed (empty on the list of leaderboards).
    explain: String,
    /// Every leaderboard: link and label.
    boards: Vec<(String, String)>,
}

/// `GET /leaderboards/{variant}/{pool}`: the best active players with a settled rating.
pub async fn leaderboard(
    State(domain): State<Domain>,
    ctx: Ctx,
    PagePath((variant, pool)): PagePath<(String, String)>,
) -> PageResult {
    let t = ctx.t;
    let pool: Pool = pool.parse().map_err(not_found_or(&ctx))?;
    let board = players::leaderboard(&domain, &variant, pool, 100).await.map_err(not_found_or(&ctx))?;
    let title = format!("{} · {}", variant_name(t, &board.variant), t.get(&format!("pool.{pool}")));
    let page = LeaderboardPage {
        chrome: Chrome { title, ..ctx.chrome("leaderboard.title") },
        players: board
            .players
            .into_iter()
            .map(|p| (p.rank, p.username, p.rating, p.deviation, p.games))
            .collect(),
        explain: t.format("leaderboard.explain", &[("days", &board.active_days.to_string())]),
        boards: leaderboard_links(t),
    };
    render(&page)
}

/// `GET /leaderboards`: the list of leaderboards.
pub async fn leaderboards(ctx: Ctx) -> PageResult {
    let page = LeaderboardPage {
        chrome: ctx.chrome("leaderboard.title"),
        players: Vec::new(),
        explain: String::new(),
        boards: leaderboard_links(ctx.t),
    };
    render(&page)
}
