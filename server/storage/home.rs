//! The public reads of the home page (issue 18 §2): the lobby's open challenges, the
//! games being played, the latest results and the tournaments running or open for entry
//! (migration 20261126300002 indexes them).

use sqlx::types::Json;
use sqlx::PgPool;
use time::OffsetDateTime;

use super::endings::{GameReason, GameResult};
use crate::domain::time_control::TimeControl;

/// The pool of a challenge or game `c` by its time control, as SQL (the same split as
/// `domain::ratings::Pool::of`: the live clocks are `live-fischer` and `byoyomi`).
const POOL_OF: &str =
    "(case when {t}.time_control->>'kind' in ('live-fischer', 'byoyomi') then 'live' else 'correspondence' end)";

/// An open challenge anyone may accept, with its challenger's rating in its variant and
/// pool (if any).
#[derive(Debug, sqlx::FromRow)]
pub(crate) struct LobbyRow {
    pub(crate) id: i64,
    pub(crate) challenger: String,
    pub(crate) variant: String,
    pub(crate) time_control: Json<TimeControl>,
    pub(crate) rated: bool,
    pub(crate) seat_count: i32,
    /// Seats taken so far, the challenger's included.
    pub(crate) taken: i64,
    /// Who has taken a seat besides the challenger.
    pub(crate) entrants: Vec<String>,
    pub(crate) rating: Option<f64>,
    pub(crate) deviation: Option<f64>,
    pub(crate) volatility: Option<f64>,
    pub(crate) rated_at: Option<OffsetDateTime>,
}

/// The open challenges to anyone, newest first (at most `limit`).
pub(crate) async fn lobby(pool: &PgPool, limit: i64) -> sqlx::Result<Vec<LobbyRow>> {
    sqlx::query_as::<_, LobbyRow>(&format!(
        r#"select c.challenge_id as id, ch.username as challenger, c.variant, c.time_control, c.rated,
                  c.seat_count,
                  1 + (select count(*) from challenge_entrant e where e.challenge_id = c.challenge_id) as taken,
                  array(select a.username from challenge_entrant e join account a using (account_id)
                        where e.challenge_id = c.challenge_id order by e.joined_at) as entrants,
                  r.rating, r.deviation, r.volatility, r.rated_at
           from challenge c join account ch on ch.account_id = c.challenger_id
           left join rating r on r.account_id = c.challenger_id and r.variant = c.variant
               and r.pool = {pool} and r.games > 0
           where c.status = 'open' and c.opponent_id is null
           order by c.challenge_id desc limit $1"#,
        pool = POOL_OF.replace("{t}", "c")
    ))
    .bind(limit)
    .fetch_all(pool)
    .await
}

/// A game as a home page card: who plays what, how far, how it ended.
#[derive(Debug, sqlx::FromRow)]
pub struct GameCard {
    /// Game id.
    pub id: i64,
    /// The variant.
    pub variant: String,
    /// Moves played.
    pub ply: i32,
    /// Whether it is rated.
    pub rated: bool,
    /// Its time control.
    pub time_control: Json<TimeControl>,
    /// The players in seat order.
    pub players: Vec<String>,
    /// The result, once over.
    pub result: Option<GameResult>,
    /// Why it ended.
    pub reason: Option<GameReason>,
    /// When it ended.
    pub finished_at: Option<OffsetDateTime>,
}

const CARD_COLUMNS: &str = r#"g.game_id as id, g.variant, g.current_ply as ply, g.rated, g.time_control,
    array(select coalesce(a.username, s.player_name) from game_seat s
          left join account a on a.account_id = s.account_id
          where s.game_id = g.game_id order by s.seat) as players,
    g.result, g.reason, g.finished_at"#;

/// The games being played, newest first: the live ones (at most `limit`), then
/// correspondence games up to `limit` in all.
pub(crate) async fn games_in_play(pool: &PgPool, limit: i64) -> sqlx::Result<Vec<GameCard>> {
    // Each query follows its partial index on game_id (migration 000900).
    let mut cards = sqlx::query_as::<_, GameCard>(&format!(
        r#"select {CARD_COLUMNS} from game g
           where g.status = 'active' and g.time_control->>'kind' in ('live-fischer', 'byoyomi')
           order by g.game_id desc limit $1"#
    ))
    .bind(limit)
    .fetch_all(pool)
    .await?;
    let more = limit - cards.len() as i64;
    if more > 0 {
        cards.extend(
            sqlx::query_as::<_, GameCard>(&format!(
                r#"select {CARD_COLUMNS} from game g
                   where g.status = 'active'
                       and not (g.time_control->>'kind' in ('live-fischer', 'byoyomi'))
                   order by g.game_id desc limit $1"#
            ))
            .bind(more)
            .fetch_all(pool)
            .await?,
        );
    }
    Ok(cards)
}

/// The latest finished games played here (at most `limit`): imported games are history,
/// not results of play (issue 36 §4); index `game_finished_played_idx` (migration
/// 20261128100003).
pub(crate) async fn recent_results(pool: &PgPool, limit: i64) -> sqlx::Result<Vec<GameCard>> {
    sqlx::query_as::<_, GameCard>(&format!(
        r#"select {CARD_COLUMNS} from game g where g.status = 'finished' and g.imported_by is null
           order by g.finished_at desc, g.game_id desc limit $1"#
    ))
    .bind(limit)
    .fetch_all(pool)
    .await
}

/// A tournament running or open for entry, with its sections (id, name, variant).
#[derive(Debug, sqlx::FromRow)]
pub(crate) struct TournamentCard {
    pub(crate) id: i64,
    pub(crate) name: String,
    pub(crate) status: String,
    pub(crate) sections: Json<Vec<(i64, String, String)>>,
}

/// The tournaments running or taking entries, the running ones first (at most `limit`).
pub(crate) async fn open_tournaments(pool: &PgPool, limit: i64) -> sqlx::Result<Vec<TournamentCard>> {
    sqlx::query_as::<_, TournamentCard>(
        r#"select t.tournament_id as id, t.name, t.status,
                  coalesce((select json_agg(json_build_array(s.section_id, s.name, s.variant)
                                            order by s.section_id)
                            from section s where s.tournament_id = t.tournament_id), '[]'::json) as sections
           from tournament t where t.status in ('registration', 'running')
           order by t.status = 'running' desc, t.tournament_id desc limit $1"#,
    )
    .bind(limit)
    .fetch_all(pool)
    .await
}
