//! Challenges: an invitation to a game (to a named opponent or open to anyone) that
//! becomes a game when accepted.

use crate::domain::notifications::Kind;
use crate::storage::notifications;
use rand::seq::SliceRandom;
use rand::Rng;
use serde::{Deserialize, Serialize};
use tavoliere_rules::variant::SetupError;
use time::OffsetDateTime;

use super::archive;
use super::error::{DomainError, DomainResult};
use super::rules_adapter::{self, Variant};
use super::time_control::TimeControl;
use super::Domain;
use crate::storage::challenges as storage;
use crate::storage::keyset::{self, After, Page};

/// Which seat the challenger takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
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
#[derive(Debug, Deserialize, utoipa::ToSchema)]
pub struct NewChallenge {
    /// The variant's name (`xiangqi`, `shogi`, `minishogi`, `flickering`, `seven-kingdoms`).
    #[schema(schema_with = rules_adapter::variant_name_schema)]
    pub variant: String,
    /// Ruleset name; the variant's default when absent.
    pub ruleset: Option<String>,
    /// Handicap name from the rules crate's catalogue.
    pub handicap: Option<String>,
    /// The position the game starts from (FEN for Xiangqi, SFEN for Shogi and
    /// MiniShogi); absent = the standard start, or the handicap's. With a handicap, this
    /// position replaces the handicap's start (the handicap is still recorded).
    pub start_position: Option<String>,
    /// Opponent's username; absent = open to anyone. Only for two-seat games: the seats of
    /// a game of more seats are open and filled by accepting.
    pub opponent: Option<String>,
    /// Number of seats: 2 for every variant but the Seven Kingdoms (3 to 7, default 7).
    pub seats: Option<i32>,
    /// The challenger's seat: `first` (seat 0: Red, sente, White in chess, Qin), `second`
    /// (seat 1) or `random`. With more than two seats the other players' seats are drawn
    /// when the game starts.
    #[serde(default = "default_seat")]
    pub color: SeatChoice,
    /// The time control.
    pub time_control: TimeControl,
    /// Whether leave stops the clocks (default yes).
    #[serde(default = "default_true")]
    pub vacation_allowed: bool,
    /// Whether the game is rated (default no): its end changes both players' Glicko-2
    /// ratings in the variant and pool (correspondence or live, by the time control).
    /// Only games of two players from the standard start without a handicap can be rated
    /// (`challenge.unrated-setup` otherwise).
    #[serde(default)]
    pub rated: bool,
}

fn default_seat() -> SeatChoice {
    SeatChoice::Random
}

fn default_true() -> bool {
    true
}

/// A challenge as shown to clients.
#[derive(Debug, Serialize, sqlx::FromRow, utoipa::ToSchema)]
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
    /// Number of seats (2; 3 to 7 for the Seven Kingdoms).
    pub seat_count: i32,
    /// Who has taken a seat so far, the challenger first (games of more than two seats
    /// start when every seat is taken).
    pub entrants: Vec<String>,
    /// The challenger's seat choice.
    pub color: String,
    /// Time control.
    #[sqlx(json)]
    pub time_control: TimeControl,
    /// Whether leave stops the clocks.
    pub vacation_allowed: bool,
    /// Whether the game will be rated.
    pub rated: bool,
    /// `open`, `accepted`, `declined` or `cancelled`.
    pub status: String,
    /// The game, once accepted.
    pub game_id: Option<i64>,
    /// When it was made.
    #[serde(with = "time::serde::rfc3339")]
    pub created_at: OffsetDateTime,
}

/// Creates a challenge from `challenger_id`.
///
/// # Errors
/// Unknown variant, ruleset, handicap or time control (422), unknown opponent (404),
/// challenging oneself (422).
pub async fn create(domain: &Domain, challenger_id: i64, new: NewChallenge) -> DomainResult<ChallengeView> {
    create_for(domain, challenger_id, new, None).await
}

/// [`create`], the challenge made to play `rematch_of` again (issue 37 §5) when given.
///
/// # Errors
/// As [`create`].
pub(crate) async fn create_for(
    domain: &Domain,
    challenger_id: i64,
    new: NewChallenge,
    rematch_of: Option<i64>,
) -> DomainResult<ChallengeView> {
    let variant: Variant = rules_adapter::parse_variant(&new.variant)?;
    let (min_seats, max_seats) = variant.seat_range();
    let seats = new.seats.unwrap_or(max_seats as i32);
    if !(min_seats as i32..=max_seats as i32).contains(&seats) {
        return Err(SetupError::Seats { variant, seats: seats.max(0) as usize }.into());
    }
    if seats > 2 && new.opponent.is_some() {
        return Err(DomainError::Invalid(
            "a game of more than two seats is open: its seats are taken by accepting".to_owned(),
        ));
    }
    let ruleset = rules_adapter::ruleset_for(variant, new.ruleset.as_deref())?;
    let handicap = match new.handicap.as_deref() {
        None | Some("") => None,
        Some(name) => Some(rules_adapter::parse_handicap(variant, name)?.name()),
    };
    let start_position = new.start_position.as_deref().map(str::trim).filter(|s| !s.is_empty());
    // The rules judge the start position now, so that accepting cannot fail on it.
    rules_adapter::judged_game(
        domain,
        variant,
        &ruleset,
        handicap.as_deref(),
        start_position,
        seats as usize,
    )
    .await?;
    if new.rated {
        super::ratings::check_rateable(variant, handicap.as_deref(), start_position, seats)?;
    }
    let start_position = start_position.map(str::to_owned);
    let control = new.time_control.validate()?;
    // Everything below on one connection, in the challenge's transaction: the opponent
    // looked up, the challenge and its notification stored, the view read back (each use
    // of the pool is a round trip more, and sqlx pings a connection it takes back).
    let mut tx = domain.pool.begin().await?;
    let opponent_id = match new.opponent.as_deref() {
        Some(name) => {
            let id = crate::storage::accounts::account_id_by_username(&mut *tx, name)
                .await?
                .ok_or_else(|| DomainError::Invalid(format!("no account named {name}")))?;
            if id == challenger_id {
                return Err(DomainError::Invalid("you cannot challenge yourself".to_owned()));
            }
            Some(id)
        }
        None => None,
    };
    let now = domain.clock.now();
    let new_row = storage::NewChallengeRow {
        challenger_id,
        opponent_id,
        variant: variant.name(),
        ruleset: &ruleset,
        handicap: handicap.as_deref(),
        start_position: start_position.as_deref(),
        seat_count: seats,
        challenger_seat: new.color.as_str(),
        time_control: control,
        vacation_allowed: new.vacation_allowed,
        created_at: now,
        rated: new.rated,
        rematch_of,
    };
    let id = storage::insert(&mut *tx, &new_row).await?;
    if let Some(opponent_id) = opponent_id {
        // The challenged player is told in the challenge's transaction (#17 §2).
        let challenger = crate::storage::accounts::account_by_id(&mut *tx, challenger_id).await?;
        let details = serde_json::json!({"from": challenger.username, "variant": variant.name()});
        let about = notifications::About { challenge_id: Some(id), ..notifications::About::default() };
        notifications::notify(&mut tx, opponent_id, Kind::Challenge, &about, details, now).await?;
    }
    let view = view_in(&mut *tx, id).await?;
    tx.commit().await?;
    Ok(view)
}

/// One challenge.
///
/// # Errors
/// Unknown challenge (404).
pub async fn get(domain: &Domain, challenge_id: i64) -> DomainResult<ChallengeView> {
    view_in(&domain.pool, challenge_id).await
}

/// One challenge, read by `executor` (the pool, or a transaction that just stored it).
async fn view_in(executor: impl sqlx::PgExecutor<'_>, challenge_id: i64) -> DomainResult<ChallengeView> {
    storage::view(executor, challenge_id)
        .await?
        .ok_or_else(|| DomainError::NotFound(format!("no challenge {challenge_id}")))
}

/// Open challenges the account may accept or has made.
///
/// # Errors
/// Database failure.
pub async fn list_open(domain: &Domain, account_id: i64) -> DomainResult<Vec<ChallengeView>> {
    Ok(storage::open_for(&domain.pool, account_id).await?)
}

/// The filters of `GET /api/challenges`; every field may be left out.
#[derive(Clone, Debug, Default, Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
pub struct ChallengeQuery {
    /// Challenges of this variant (`xiangqi`, `shogi`, `minishogi`, `flickering`,
    /// `seven-kingdoms`).
    #[serde(default)]
    pub variant: Option<String>,
    /// `true`: rated challenges only; `false`: unrated only.
    #[serde(default)]
    pub rated: Option<String>,
    /// Challenges made by this player.
    #[serde(default)]
    pub challenger: Option<String>,
    /// The `next` cursor of the page before (absent: the newest challenges).
    #[serde(default)]
    pub cursor: Option<String>,
    /// Challenges per page (default 50, at most 200).
    #[serde(default)]
    pub limit: Option<usize>,
}

/// A page of the open challenges `viewer` may accept or has made (a visitor: those
/// addressed to nobody), newest first.
///
/// # Errors
/// An unknown variant (422), challenger (404), rated flag or cursor (422).
pub async fn list_page(
    domain: &Domain,
    viewer: Option<i64>,
    query: &ChallengeQuery,
) -> DomainResult<Page<ChallengeView>> {
    let mut filter = storage::ChallengeFilter { viewer, ..Default::default() };
    if let Some(variant) = archive::given(&query.variant) {
        filter.variant = Some(rules_adapter::parse_variant(variant)?.name().to_owned());
    }
    filter.rated = archive::flag(&query.rated, "challenge.invalid-rated")?;
    if let Some(name) = archive::given(&query.challenger) {
        let account = crate::storage::players::public_account(&domain.pool, name).await?;
        filter.challenger =
            Some(account.ok_or_else(|| DomainError::NotFound(format!("no player named {name}")))?.account_id);
    }
    let after = archive::read_cursor(query.cursor.as_deref(), "challenge.invalid-cursor")?;
    let limit = keyset::page_size(query.limit);
    let rows = storage::open_page(&domain.pool, &filter, after, limit as i64 + 1).await?;
    Ok(Page::of(rows, limit, |c| Some(After { at: c.created_at, id: c.id })))
}

/// What accepting did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Accepted {
    /// The last seat was taken: the game has started.
    Game {
        /// The new game.
        game_id: i64,
        /// Its seats.
        seat_count: i32,
    },
    /// A seat of a game of more than two seats was taken; the game starts when all are.
    Seated {
        /// Seats taken now, the challenger's included.
        taken: i32,
        /// Seats in all.
        seat_count: i32,
    },
}

/// Accepts a challenge (takes a seat): creates the game when the last seat is taken.
///
/// # Errors
/// Unknown challenge (404), one's own or someone else's challenge (403), no longer open
/// or a seat already taken by the caller (409).
pub async fn accept(domain: &Domain, challenge_id: i64, account_id: i64) -> DomainResult<Accepted> {
    let mut tx = domain.pool.begin().await?;
    let row = storage::lock(&mut tx, challenge_id)
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
    // Only a challenge of more than two seats has entrants: in one of two, the first to
    // accept takes the last seat (below).
    let mut others =
        if row.seat_count > 2 { storage::entrants(&mut tx, challenge_id).await? } else { Vec::new() };
    if others.contains(&account_id) {
        return Err(DomainError::Conflict("you have already taken a seat in this challenge".to_owned()));
    }
    others.push(account_id);
    if (others.len() as i32) + 1 < row.seat_count {
        storage::insert_entrant(&mut tx, challenge_id, account_id, domain.clock.now()).await?;
        tx.commit().await?;
        return Ok(Accepted::Seated { taken: others.len() as i32 + 1, seat_count: row.seat_count });
    }
    let accounts = seat_order(&row.challenger_seat, row.challenger_id, others, &mut rand::thread_rng());
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
        false,
    )
    .await?;
    if row.rated {
        crate::storage::ratings::mark_game_rated(&mut tx, game_id).await?;
    }
    storage::mark_accepted(&mut tx, challenge_id, game_id, account_id).await?;
    // The players who were waiting hear that the game started (#17 §2).
    let details = serde_json::json!({"challenge": challenge_id});
    let now = domain.clock.now();
    notifications::notify_players(&mut tx, game_id, Kind::ChallengeAccepted, Some(account_id), details, now)
        .await?;
    tx.commit().await?;
    Ok(Accepted::Game { game_id, seat_count: row.seat_count })
}

/// The accounts in seat order: the challenger at seat 0 (`first`), seat 1 (`second`) or a
/// drawn seat (`random`); the other players in drawn seats (with two seats: the one left).
fn seat_order(choice: &str, challenger: i64, mut others: Vec<i64>, rng: &mut impl Rng) -> Vec<i64> {
    others.shuffle(rng);
    let seat = match choice {
        "first" => 0,
        "second" => 1,
        _ => rng.gen_range(0..=others.len()),
    };
    others.insert(seat.min(others.len()), challenger);
    others
}

/// Gives up the seat the account took in an open challenge of more than two seats,
/// before the game starts (the challenger cancels the challenge instead).
///
/// # Errors
/// Unknown challenge (404), no longer open or no seat of the account's (409).
pub async fn leave(domain: &Domain, challenge_id: i64, account_id: i64) -> DomainResult<ChallengeView> {
    let mut tx = domain.pool.begin().await?;
    let found = storage::lock_parties(&mut tx, challenge_id).await?;
    let (challenger, _, status) =
        found.ok_or_else(|| DomainError::NotFound(format!("no challenge {challenge_id}")))?;
    if status != "open" {
        return Err(DomainError::Conflict(format!("the challenge is {status}")));
    }
    if challenger == account_id {
        return Err(DomainError::Conflict("the challenger cancels the challenge instead".to_owned()));
    }
    if !storage::delete_entrant(&mut tx, challenge_id, account_id).await? {
        return Err(DomainError::Conflict("you have no seat in this challenge".to_owned()));
    }
    tx.commit().await?;
    get(domain, challenge_id).await
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
    let found = storage::lock_parties(&mut tx, challenge_id).await?;
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
    storage::set_status(&mut tx, challenge_id, new_status).await?;
    tx.commit().await?;
    get(domain, challenge_id).await
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_challenger_takes_the_chosen_seat_and_the_others_are_drawn() {
        let mut rng = rand::thread_rng();
        for _ in 0..20 {
            assert_eq!(seat_order("first", 1, vec![2], &mut rng), [1, 2]);
            assert_eq!(seat_order("second", 1, vec![2], &mut rng), [2, 1]);
            let seven = seat_order("second", 1, vec![2, 3, 4, 5, 6, 7], &mut rng);
            assert_eq!(seven[1], 1);
            let mut sorted = seven.clone();
            sorted.sort_unstable();
            assert_eq!(sorted, [1, 2, 3, 4, 5, 6, 7], "every player has one seat");
        }
        let mut challenger_seats = std::collections::HashSet::new();
        for _ in 0..200 {
            let order = seat_order("random", 1, vec![2, 3], &mut rng);
            challenger_seats.insert(order.iter().position(|&a| a == 1).unwrap());
        }
        assert_eq!(challenger_seats.len(), 3, "a random seat may be any seat");
    }
}
