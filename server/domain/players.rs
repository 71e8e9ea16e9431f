//! Players in public (issue 18 §1 and §3): a player's profile (ratings per variant and
//! pool, results, games, tournaments), rating history, and the leaderboards.

use serde::Serialize;
use time::{Duration, OffsetDateTime};

use super::error::{DomainError, DomainResult};
use super::games::{GameStatus, GameSummary};
use super::ratings::{self, Glicko, Pool};
use super::{archive, Domain};
use crate::storage::keyset::{self, After, Page};
use crate::storage::{games as stored_games, players as stored, ratings as stored_ratings};

/// A player's rating in one variant and pool.
#[derive(Clone, Debug, Serialize, utoipa::ToSchema)]
pub struct RatingView {
    /// The variant (`xiangqi`, `shogi`, `minishogi`, `flickering`).
    pub variant: String,
    /// `correspondence` or `live`.
    pub pool: Pool,
    /// The Glicko-2 rating, rounded.
    pub rating: i32,
    /// The rating deviation now (it grows with every day without a rated game), rounded.
    pub deviation: i32,
    /// Rated games played in this variant and pool.
    pub games: i32,
    /// Whether the rating is provisional (deviation above the configured threshold).
    pub provisional: bool,
}

impl RatingView {
    fn of(domain: &Domain, row: &stored_ratings::RatingRow, now: OffsetDateTime) -> RatingView {
        let rating: Glicko = ratings::current(row.glicko(), row.rated_at, now);
        RatingView {
            variant: row.variant.clone(),
            pool: row.pool.parse().unwrap_or(Pool::Correspondence),
            rating: rating.rating.round() as i32,
            deviation: rating.deviation.round() as i32,
            games: row.games,
            provisional: ratings::is_provisional(rating.deviation, &domain.ratings),
        }
    }
}

/// Wins, draws and losses in one variant.
#[derive(Clone, Debug, Serialize, utoipa::ToSchema)]
pub struct ResultsView {
    /// The variant.
    pub variant: String,
    /// Games won.
    pub wins: i64,
    /// Games drawn.
    pub draws: i64,
    /// Games lost.
    pub losses: i64,
}

/// A tournament on a profile.
#[derive(Clone, Debug, Serialize, utoipa::ToSchema)]
pub struct TournamentLink {
    /// Tournament id.
    pub id: i64,
    /// Its name.
    pub name: String,
    /// `draft`, `registration`, `running` or `finished`.
    pub status: String,
}

/// A player's public profile.
#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct Profile {
    /// The player's name.
    pub username: String,
    /// When the account was made.
    #[serde(with = "time::serde::rfc3339")]
    pub member_since: OffsetDateTime,
    /// The interface language the player chose (`en`, `it`), `null` for the browser's.
    pub language: Option<String>,
    /// Ratings in every variant and pool the player has played rated games in.
    pub ratings: Vec<RatingView>,
    /// Wins, draws and losses per variant (finished games).
    pub results: Vec<ResultsView>,
    /// Games being played.
    pub current_games: Vec<GameSummary>,
    /// The latest finished games (at most 20).
    pub recent_games: Vec<GameSummary>,
    /// Tournaments entered, newest first.
    pub tournaments: Vec<TournamentLink>,
}

/// A player in the list of players.
#[derive(Debug, Serialize, sqlx::FromRow, utoipa::ToSchema)]
pub struct PlayerSummary {
    /// The player's name (their profile is `/api/players/{username}`).
    pub username: String,
    /// When the account was made (the list's order, newest first).
    #[serde(with = "time::serde::rfc3339")]
    pub member_since: OffsetDateTime,
    #[serde(skip)]
    #[schema(ignore)]
    pub(crate) account_id: i64,
}

/// The filters of `GET /api/players`; every field may be left out.
#[derive(Clone, Debug, Default, serde::Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
pub struct PlayerQuery {
    /// Players whose name starts with this text (any case).
    #[serde(default)]
    pub name: Option<String>,
    /// Players with a rating in this variant (`xiangqi`, `shogi`, `minishogi`,
    /// `flickering`).
    #[serde(default)]
    pub variant: Option<String>,
    /// With `variant`: a rating in this pool (`correspondence` or `live`).
    #[serde(default)]
    pub pool: Option<String>,
    /// The `next` cursor of the page before (absent: the newest players).
    #[serde(default)]
    pub cursor: Option<String>,
    /// Players per page (default 50, at most 200).
    #[serde(default)]
    pub limit: Option<usize>,
}

/// A page of the players matching `query` (disabled accounts are not listed), newest
/// first.
///
/// # Errors
/// An unknown or unrated variant, a pool without a variant, an unknown pool or cursor
/// (422).
pub async fn list(domain: &Domain, query: &PlayerQuery) -> DomainResult<Page<PlayerSummary>> {
    let mut filter =
        stored::PlayerFilter { name: archive::given(&query.name).map(str::to_owned), ..Default::default() };
    if let Some(variant) = archive::given(&query.variant) {
        filter.variant = Some(ratings::rated_variant(variant)?.name().to_owned());
    }
    if let Some(pool) = archive::given(&query.pool) {
        if filter.variant.is_none() {
            return Err(DomainError::Invalid("pool needs a variant: ?variant=xiangqi&pool=live".to_owned()));
        }
        filter.pool = Some(pool.parse::<Pool>()?.as_str());
    }
    let after = archive::read_cursor(query.cursor.as_deref(), "player.invalid-cursor")?;
    let limit = keyset::page_size(query.limit);
    let rows = stored::page(&domain.pool, &filter, after, limit as i64 + 1).await?;
    Ok(Page::of(rows, limit, |p| Some(After { at: p.member_since, id: p.account_id })))
}

fn no_player(username: &str) -> DomainError {
    DomainError::NotFound(format!("no player named {username}"))
}

/// The public profile of `username`.
///
/// # Errors
/// No such player (404).
pub async fn profile(domain: &Domain, username: &str) -> DomainResult<Profile> {
    let account = stored::public_account(&domain.pool, username).await?.ok_or_else(|| no_player(username))?;
    let now = domain.clock.now();
    let ratings = stored_ratings::ratings_of(&domain.pool, account.account_id).await?;
    let results = stored::results_by_variant(&domain.pool, account.account_id).await?;
    let current = stored_games::games_of(&domain.pool, account.account_id, Some(GameStatus::Active)).await?;
    let mut recent =
        stored_games::games_of(&domain.pool, account.account_id, Some(GameStatus::Finished)).await?;
    recent.truncate(20);
    let tournaments = stored::tournaments_of(&domain.pool, account.account_id).await?;
    Ok(Profile {
        username: account.username,
        member_since: account.created_at,
        language: Some(account.language).filter(|l| l != "auto"),
        // Placeholders made by a game that was not committed never show: `games` counts
        // the rated games that ended.
        ratings: ratings.iter().filter(|r| r.games > 0).map(|r| RatingView::of(domain, r, now)).collect(),
        results: results
            .into_iter()
            .map(|r| ResultsView { variant: r.variant, wins: r.wins, draws: r.draws, losses: r.losses })
            .collect(),
        current_games: current,
        recent_games: recent,
        tournaments: tournaments
            .into_iter()
            .map(|t| TournamentLink { id: t.tournament_id, name: t.name, status: t.status })
            .collect(),
    })
}

/// One point of a rating history: the rating a game left.
#[derive(Clone, Debug, Serialize, utoipa::ToSchema)]
pub struct HistoryPoint {
    /// The rated game.
    pub game_id: i64,
    /// The rating after it, rounded.
    pub rating: i32,
    /// The deviation after it, rounded.
    pub deviation: i32,
    /// When the game ended.
    #[serde(with = "time::serde::rfc3339")]
    pub at: OffsetDateTime,
}

/// The rating history of `username` in `variant` and `pool`, oldest first.
///
/// # Errors
/// No such player (404), a variant without ratings or an unknown pool (422).
pub async fn rating_history(
    domain: &Domain,
    username: &str,
    variant: &str,
    pool: Pool,
) -> DomainResult<Vec<HistoryPoint>> {
    let variant = ratings::rated_variant(variant)?;
    let account = stored::public_account(&domain.pool, username).await?.ok_or_else(|| no_player(username))?;
    let rows = stored_ratings::history(&domain.pool, account.account_id, variant.name(), pool).await?;
    Ok(rows
        .into_iter()
        .map(|r| HistoryPoint {
            game_id: r.game_id,
            rating: r.rating.round() as i32,
            deviation: r.deviation.round() as i32,
            at: r.recorded_at,
        })
        .collect())
}

/// One line of a leaderboard.
#[derive(Clone, Debug, Serialize, utoipa::ToSchema)]
pub struct LeaderboardEntry {
    /// 1 for the best.
    pub rank: usize,
    /// The player.
    pub username: String,
    /// The rating, rounded.
    pub rating: i32,
    /// The deviation now, rounded.
    pub deviation: i32,
    /// Rated games played in this variant and pool.
    pub games: i32,
}

/// A leaderboard.
#[derive(Clone, Debug, Serialize, utoipa::ToSchema)]
pub struct Leaderboard {
    /// The variant.
    pub variant: String,
    /// `correspondence` or `live`.
    pub pool: Pool,
    /// Only players whose last rated game in the pool ended within this many days are
    /// listed, and no provisional rating.
    pub active_days: u32,
    /// The players, best first.
    pub players: Vec<LeaderboardEntry>,
}

/// The best `limit` (at most 200) active players of `variant` and `pool` whose rating is
/// not provisional.
///
/// # Errors
/// A variant without ratings (422).
pub async fn leaderboard(
    domain: &Domain,
    variant: &str,
    pool: Pool,
    limit: usize,
) -> DomainResult<Leaderboard> {
    let variant = ratings::rated_variant(variant)?;
    let now = domain.clock.now();
    let active_days = domain.ratings.leaderboard_active_days;
    let since = now - Duration::days(i64::from(active_days));
    let limit = limit.clamp(1, 200);
    let rows = stored_ratings::leaderboard(
        &domain.pool,
        variant.name(),
        pool,
        since,
        now,
        domain.ratings.provisional_deviation,
        limit as i64,
    )
    .await?;
    let players = rows
        .iter()
        .enumerate()
        .map(|(i, r)| {
            let now = ratings::current(r.rating.glicko(), r.rating.rated_at, now);
            LeaderboardEntry {
                rank: i + 1,
                username: r.username.clone(),
                rating: now.rating.round() as i32,
                deviation: now.deviation.round() as i32,
                games: r.rating.games,
            }
        })
        .collect();
    Ok(Leaderboard { variant: variant.name().to_owned(), pool, active_days, players })
}
