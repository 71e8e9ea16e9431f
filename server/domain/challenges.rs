//! Challenges: an invitation to a game (to a named opponent or open to anyone) that
//! becomes a game when accepted.

use rand::Rng;
use serde::{Deserialize, Serialize};
use sqlx::types::Json;
use tavoliere_rules::game::Handicap;
use time::OffsetDateTime;

use super::accounts::account_id_by_username;
use super::error::{DomainError, DomainResult};
use super::rules_adapter::{self, Variant};
use super::time_control::TimeControl;
use super::Domain;

/// Which seat the challenger takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum SeatChoice {
    /// Moves first in the standard start (Red / sente).
    First,
    /// The other side.
    Second,
    /// Drawn when accepted.
    Random,
}

impl SeatChoice {
    fn as_str(self) -> &'static str {
        match self {
            SeatChoice::First => "first",
            SeatChoice::Second => "second",
            SeatChoice::Random => "random",
        }
    }
}

/// A new challenge as a client sends it.
#[derive(Debug, Deserialize)]
pub struct NewChallenge {
    /// `xiangqi`, `shogi` or `minishogi`.
    pub variant: String,
    /// Ruleset name; the variant's default when absent.
    pub ruleset: Option<String>,
    /// Handicap name from the rules crate's catalogue.
    pub handicap: Option<String>,
    /// The position the game starts from (FEN for Xiangqi, SFEN for Shogi and
    /// MiniShogi); absent = the standard start, or the handicap's. With a handicap, this
    /// position replaces the handicap's start (the handicap is still recorded).
    pub start_position: Option<String>,
    /// Opponent's username; absent = open to anyone.
    pub opponent: Option<String>,
    /// The challenger's seat.
    #[serde(default = "default_seat")]
    pub color: SeatChoice,
    /// The time control.
    pub time_control: TimeControl,
    /// Whether leave stops the clocks (default yes).
    #[serde(default = "default_true")]
    pub vacation_allowed: bool,
}

fn default_seat() -> SeatChoice {
    SeatChoice::Random
}

fn default_true() -> bool {
    true
}

/// A challenge as shown to clients.
#[derive(Debug, Serialize, sqlx::FromRow)]
pub struct ChallengeView {
    /// Challenge id.
    pub id: i64,
    /// Who challenges.
    pub challenger: String,
    /// Who is challenged (`null` = open).
    pub opponent: Option<String>,
    /// Variant.
    pub variant: String,
    /// Ruleset.
    pub ruleset: String,
    /// Handicap.
    pub handicap: Option<String>,
    /// The start position, `null` = the standard or handicap start.
    pub start_position: Option<String>,
    /// Number of seats (2 for now).
    pub seat_count: i32,
    /// The challenger's seat choice.
    pub color: String,
    /// Time control.
    #[sqlx(json)]
    pub time_control: TimeControl,
    /// Whether leave stops the clocks.
    pub vacation_allowed: bool,
    /// `open`, `accepted`, `declined` or `cancelled`.
    pub status: String,
    /// The game, once accepted.
    pub game_id: Option<i64>,
    /// When it was made.
    #[serde(with = "time::serde::rfc3339")]
    pub created_at: OffsetDateTime,
}

const CHALLENGE_VIEW: &str = r#"select c.challenge_id as id, ch.username as challenger,
    op.username as opponent, c.variant, c.ruleset, c.handicap, c.start_position, c.seat_count,
    c.challenger_seat as color, c.time_control, c.vacation_allowed, c.status, c.game_id,
    c.created_at
    from challenge c join account ch on ch.account_id = c.challenger_id
    left join account op on op.account_id = c.opponent_id"#;

/// Creates a challenge from `challenger_id`.
///
/// # Errors
/// Unknown variant, ruleset, handicap or time control (422), unknown opponent (404),
/// challenging oneself (422).
pub async fn create(domain: &Domain, challenger_id: i64, new: NewChallenge) -> DomainResult<ChallengeView> {
    let variant: Variant = rules_adapter::parse_variant(&new.variant)?;
    rules_adapter::playable(variant)?;
    let ruleset = rules_adapter::ruleset_for(variant, new.ruleset.as_deref())?;
    let handicap = match new.handicap.as_deref() {
        None | Some("") => None,
        Some(name) => Some(
            Handicap::parse(variant.name(), name).map_err(|e| DomainError::Invalid(format!("{e}")))?.name(),
        ),
    };
    let start_position = new.start_position.as_deref().map(str::trim).filter(|s| !s.is_empty());
    // The rules judge the start position now, so that accepting cannot fail on it.
    rules_adapter::new_game(variant, &ruleset, handicap.as_deref(), start_position)
        .map_err(|e| DomainError::Invalid(format!("start position: {e}")))?;
    let start_position = start_position.map(str::to_owned);
    let control = new.time_control.validate()?;
    let opponent_id = match new.opponent.as_deref() {
        Some(name) => {
            let id = account_id_by_username(&domain.pool, name)
                .await
                .map_err(|_| DomainError::Invalid(format!("no account named {name}")))?;
            if id == challenger_id {
                return Err(DomainError::Invalid("you cannot challenge yourself".to_owned()));
            }
            Some(id)
        }
        None => None,
    };
    let id: i64 = sqlx::query_scalar(
        r#"insert into challenge (challenger_id, opponent_id, variant, ruleset, handicap,
               seat_count, challenger_seat, time_control, vacation_allowed, created_at, start_position)
           values ($1, $2, $3, $4, $5, 2, $6, $7, $8, $9, $10)
           returning challenge_id"#,
    )
    .bind(challenger_id)
    .bind(opponent_id)
    .bind(variant.name())
    .bind(&ruleset)
    .bind(&handicap)
    .bind(new.color.as_str())
    .bind(Json(control))
    .bind(new.vacation_allowed)
    .bind(domain.clock.now())
    .bind(&start_position)
    .fetch_one(&domain.pool)
    .await?;
    get(domain, id).await
}

/// One challenge.
///
/// # Errors
/// Unknown challenge (404).
pub async fn get(domain: &Domain, challenge_id: i64) -> DomainResult<ChallengeView> {
    sqlx::query_as::<_, ChallengeView>(&format!("{CHALLENGE_VIEW} where c.challenge_id = $1"))
        .bind(challenge_id)
        .fetch_optional(&domain.pool)
        .await?
        .ok_or_else(|| DomainError::NotFound(format!("no challenge {challenge_id}")))
}

/// Open challenges the account may accept or has made.
///
/// # Errors
/// Database failure.
pub async fn list_open(domain: &Domain, account_id: i64) -> DomainResult<Vec<ChallengeView>> {
    Ok(sqlx::query_as::<_, ChallengeView>(&format!(
        "{CHALLENGE_VIEW} where c.status = 'open' and (c.opponent_id is null \
         or c.opponent_id = $1 or c.challenger_id = $1) order by c.challenge_id desc limit 200"
    ))
    .bind(account_id)
    .fetch_all(&domain.pool)
    .await?)
}

#[derive(sqlx::FromRow)]
struct ChallengeRow {
    challenger_id: i64,
    opponent_id: Option<i64>,
    variant: String,
    ruleset: String,
    handicap: Option<String>,
    start_position: Option<String>,
    challenger_seat: String,
    time_control: Json<TimeControl>,
    vacation_allowed: bool,
    status: String,
}

/// Accepts a challenge: creates the game and returns its id.
///
/// # Errors
/// Unknown challenge (404), one's own or someone else's challenge (403), no longer open
/// (409).
pub async fn accept(domain: &Domain, challenge_id: i64, account_id: i64) -> DomainResult<i64> {
    let mut tx = domain.pool.begin().await?;
    let row = sqlx::query_as::<_, ChallengeRow>(
        r#"select challenger_id, opponent_id, variant, ruleset, handicap, start_position, challenger_seat,
                  time_control, vacation_allowed, status
           from challenge where challenge_id = $1 for update"#,
    )
    .bind(challenge_id)
    .fetch_optional(&mut *tx)
    .await?
    .ok_or_else(|| DomainError::NotFound(format!("no challenge {challenge_id}")))?;
    if row.status != "open" {
        return Err(DomainError::Conflict(format!("the challenge is {}", row.status)));
    }
    if row.challenger_id == account_id {
        return Err(DomainError::Forbidden("you cannot accept your own challenge".to_owned()));
    }
    if row.opponent_id.is_some_and(|id| id != account_id) {
        return Err(DomainError::Forbidden("this challenge is for someone else".to_owned()));
    }
    let challenger_first = match row.challenger_seat.as_str() {
        "first" => true,
        "second" => false,
        _ => rand::thread_rng().gen_bool(0.5),
    };
    let accounts =
        if challenger_first { [row.challenger_id, account_id] } else { [account_id, row.challenger_id] };
    let variant: Variant = rules_adapter::parse_variant(&row.variant)?;
    let game_id = super::games::create_in(
        domain,
        &mut tx,
        variant,
        &row.ruleset,
        row.handicap.as_deref(),
        row.start_position.as_deref(),
        row.time_control.0,
        row.vacation_allowed,
        &accounts,
    )
    .await?;
    sqlx::query(
        r#"update challenge set status = 'accepted', game_id = $2, opponent_id = $3
           where challenge_id = $1"#,
    )
    .bind(challenge_id)
    .bind(game_id)
    .bind(account_id)
    .execute(&mut *tx)
    .await?;
    tx.commit().await?;
    Ok(game_id)
}

/// Declines a challenge addressed to the account.
///
/// # Errors
/// Unknown (404), not addressed to the account (403), no longer open (409).
pub async fn decline(domain: &Domain, challenge_id: i64, account_id: i64) -> DomainResult<ChallengeView> {
    close(domain, challenge_id, account_id, "declined").await
}

/// Cancels the account's own challenge.
///
/// # Errors
/// Unknown (404), not the challenger (403), no longer open (409).
pub async fn cancel(domain: &Domain, challenge_id: i64, account_id: i64) -> DomainResult<ChallengeView> {
    close(domain, challenge_id, account_id, "cancelled").await
}

async fn close(
    domain: &Domain,
    challenge_id: i64,
    account_id: i64,
    new_status: &str,
) -> DomainResult<ChallengeView> {
    let mut tx = domain.pool.begin().await?;
    let found: Option<(i64, Option<i64>, String)> = sqlx::query_as(
        r#"select challenger_id, opponent_id, status from challenge
           where challenge_id = $1 for update"#,
    )
    .bind(challenge_id)
    .fetch_optional(&mut *tx)
    .await?;
    let (challenger, opponent, status) =
        found.ok_or_else(|| DomainError::NotFound(format!("no challenge {challenge_id}")))?;
    let allowed = match new_status {
        "cancelled" => challenger == account_id,
        _ => opponent == Some(account_id),
    };
    if !allowed {
        return Err(DomainError::Forbidden(if new_status == "cancelled" {
            "only the challenger can cancel a challenge".to_owned()
        } else {
            "only the challenged player can decline a challenge".to_owned()
        }));
    }
    if status != "open" {
        return Err(DomainError::Conflict(format!("the challenge is {status}")));
    }
    sqlx::query(r#"update challenge set status = $2 where challenge_id = $1"#)
        .bind(challenge_id)
        .bind(new_status)
        .execute(&mut *tx)
        .await?;
    tx.commit().await?;
    get(domain, challenge_id).await
}
