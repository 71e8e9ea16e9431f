//! Ratings (issue 18 §1): Glicko-2 per variant and pool, computed by the maintained
//! `skillratings` crate (tested here against the worked example of Glickman's paper).
//!
//! Each rated game is its own rating period for its two players (as on lichess): the
//! change is computed when the game ends, in the transaction that ends it ([`rate_ending`],
//! called from the one ending function `games::finish`). Between games a player's
//! deviation grows by one period's volatility for every whole period without a rated game
//! (Glickman's step 6), so that an absent player's rating becomes provisional again.

use std::fmt;
use std::str::FromStr;

use serde::Serialize;
use skillratings::glicko2::{decay_deviation, glicko2, Glicko2Config, Glicko2Rating};
use skillratings::Outcomes;
use sqlx::{Postgres, Transaction};
use time::OffsetDateTime;

use super::error::{DomainError, DomainResult, ErrorKind};
use super::games::{Ending, GameReason, GameResult};
use super::rules_adapter::Variant;
use super::time_control::TimeControl;
use crate::config::RatingSettings;
use crate::storage::ratings as stored;

/// Glicko-2's system constant τ, which bounds how fast the volatility changes (Glickman
/// advises 0.3 to 1.2; lichess uses 0.75).
pub const TAU: f64 = 0.75;
/// One rating period, in days: a player's deviation grows for each whole period without a
/// rated game.
pub const PERIOD_DAYS: u32 = 1;

/// The variants with ratings: the two-player games (the Seven Kingdoms have none).
pub const RATED_VARIANTS: [Variant; 4] =
    [Variant::Xiangqi, Variant::Shogi, Variant::MiniShogi, Variant::Flickering];

/// A rating pool: games of one speed rate against each other.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, serde::Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum Pool {
    /// Days per move, moves in days, Fischer in days.
    Correspondence,
    /// Live clocks in seconds (live Fischer, byoyomi).
    Live,
}

impl Pool {
    /// Both pools.
    pub const ALL: [Pool; 2] = [Pool::Correspondence, Pool::Live];

    /// The pool of a game played with `control`.
    pub fn of(control: TimeControl) -> Pool {
        if control.is_live() {
            Pool::Live
        } else {
            Pool::Correspondence
        }
    }

    /// The stored name.
    pub fn as_str(self) -> &'static str {
        match self {
            Pool::Correspondence => "correspondence",
            Pool::Live => "live",
        }
    }
}

impl fmt::Display for Pool {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for Pool {
    type Err = DomainError;

    fn from_str(text: &str) -> Result<Pool, DomainError> {
        match text {
            "correspondence" => Ok(Pool::Correspondence),
            "live" => Ok(Pool::Live),
            other => Err(DomainError::coded(
                ErrorKind::Invalid,
                "rating.unknown-pool",
                format!("There is no rating pool \"{other}\": it is correspondence or live."),
            )),
        }
    }
}

/// A rated variant by name (422 for another variant, 404-free: the name is input).
///
/// # Errors
/// An unknown variant, or the Seven Kingdoms (no ratings).
pub fn rated_variant(name: &str) -> DomainResult<Variant> {
    let variant = super::rules_adapter::parse_variant(name)?;
    if RATED_VARIANTS.contains(&variant) {
        Ok(variant)
    } else {
        Err(unrated_setup(format!("{} has no ratings: only games of two players are rated.", variant.name())))
    }
}

fn unrated_setup(detail: String) -> DomainError {
    DomainError::coded(ErrorKind::Invalid, "challenge.unrated-setup", detail)
}

/// Whether a challenge with this set-up may be rated: only standard starts without a
/// handicap, in games of two seats (issue 18 §1).
///
/// # Errors
/// `challenge.unrated-setup` (422) naming what makes the game unratable.
pub fn check_rateable(
    variant: Variant,
    handicap: Option<&str>,
    start_position: Option<&str>,
    seats: i32,
) -> DomainResult<()> {
    rated_variant(variant.name())?;
    if seats != 2 {
        return Err(unrated_setup("Only games of two players are rated.".to_owned()));
    }
    if handicap.is_some() {
        return Err(unrated_setup("A game with a handicap cannot be rated.".to_owned()));
    }
    if start_position.is_some() {
        return Err(unrated_setup("A game from a chosen start position cannot be rated.".to_owned()));
    }
    Ok(())
}

/// A Glicko-2 rating on the Glicko scale (1500 and 350 for a new player).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Glicko {
    /// The rating.
    pub rating: f64,
    /// The rating deviation (RD).
    pub deviation: f64,
    /// The volatility σ.
    pub volatility: f64,
}

impl Glicko {
    /// A new player's rating: 1500, RD 350, σ 0.06 (Glickman's defaults).
    pub fn new_player() -> Glicko {
        Glicko::from(Glicko2Rating::new())
    }
}

impl From<Glicko2Rating> for Glicko {
    fn from(r: Glicko2Rating) -> Glicko {
        Glicko { rating: r.rating, deviation: r.deviation, volatility: r.volatility }
    }
}

impl From<Glicko> for Glicko2Rating {
    fn from(r: Glicko) -> Glicko2Rating {
        Glicko2Rating { rating: r.rating, deviation: r.deviation, volatility: r.volatility }
    }
}

/// The whole rating periods of `period_days` days from `from` to `to`.
pub fn periods_between(from: OffsetDateTime, to: OffsetDateTime, period_days: u32) -> u32 {
    let days = (to - from).whole_days();
    if days <= 0 || period_days == 0 {
        return 0;
    }
    u32::try_from(days / i64::from(period_days)).unwrap_or(u32::MAX)
}

/// The rating after `periods` rating periods without a game: the deviation grows by the
/// volatility each period (Glickman's step 6), up to a new player's 350.
pub fn after_inactivity(rating: Glicko, periods: u32) -> Glicko {
    let mut r = Glicko2Rating::from(rating);
    for _ in 0..periods {
        if r.deviation >= 350.0 {
            break;
        }
        r = decay_deviation(&r);
    }
    r.into()
}

/// Both players' ratings after one game between them, `first_score` being the first
/// player's score (1, ½ or 0), with the system constant `tau`.
pub fn after_game(first: Glicko, second: Glicko, first_score: f64, tau: f64) -> (Glicko, Glicko) {
    let outcome = if first_score > 0.5 {
        Outcomes::WIN
    } else if first_score < 0.5 {
        Outcomes::LOSS
    } else {
        Outcomes::DRAW
    };
    let config = Glicko2Config { tau, ..Glicko2Config::new() };
    let (a, b) = glicko2(&first.into(), &second.into(), &outcome, &config);
    (a.into(), b.into())
}

/// A rating as it stands at `now`: as stored after its last game, its deviation grown by
/// the periods passed since then.
pub fn current(stored: Glicko, rated_at: OffsetDateTime, now: OffsetDateTime) -> Glicko {
    after_inactivity(stored, periods_between(rated_at, now, PERIOD_DAYS))
}

/// Whether a rating with this deviation is provisional.
pub fn is_provisional(deviation: f64, settings: &RatingSettings) -> bool {
    deviation > settings.provisional_deviation
}

/// One seat's rating change in a game that ended.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SeatRating {
    /// The seat.
    pub seat: i32,
    /// Before the game (grown by inactivity) and after it.
    pub before: Glicko,
    /// After the game.
    pub after: Glicko,
}

/// Rates a game that `finish` has just ended in `tx`: both players' ratings in the game's
/// variant and pool change once (the ending's guarded update lets only one transaction
/// end a game, so only one rates it), their history gets a row each and the seats keep
/// the ratings before and after. Unrated games, and games nobody played (a director's
/// forfeit, a double forfeit), change nothing.
pub(crate) async fn rate_ending(
    tx: &mut Transaction<'_, Postgres>,
    game_id: i64,
    ending: &Ending,
    now: OffsetDateTime,
) -> DomainResult<Vec<SeatRating>> {
    if ending.result == GameResult::DoubleForfeit
        || ending.reason == GameReason::from(tavoliere_rules::EndReason::Forfeit)
    {
        return Ok(Vec::new());
    }
    let Some(game) = stored::rated_game(tx, game_id).await? else {
        return Ok(Vec::new());
    };
    let [(first_seat, first_account), (second_seat, second_account)] = game.seats[..] else {
        return Ok(Vec::new());
    };
    let pool = Pool::of(game.time_control);
    let held = stored::lock_ratings(tx, &[first_account, second_account], &game.variant, pool, now).await?;
    let before = |account: i64| {
        held.iter()
            .find(|r| r.account_id == account)
            .map_or_else(Glicko::new_player, |r| current(r.glicko(), r.rated_at, now))
    };
    let (first_before, second_before) = (before(first_account), before(second_account));
    let score = ending.of_seat(first_seat).map_or(0.5, |s| s.points);
    let (first_after, second_after) = after_game(first_before, second_before, score, TAU);
    let changes = [
        SeatRating { seat: first_seat, before: first_before, after: first_after },
        SeatRating { seat: second_seat, before: second_before, after: second_after },
    ];
    for (change, account) in changes.iter().zip([first_account, second_account]) {
        stored::store_change(tx, game_id, account, &game.variant, pool, change, now).await?;
    }
    Ok(changes.to_vec())
}

#[cfg(test)]
mod tests {
    use super::*;
    use time::macros::datetime;

    fn close(a: f64, b: f64, within: f64) -> bool {
        (a - b).abs() <= within
    }

    /// Glickman, "Example of the Glicko-2 system" (2013), section 3: a player rated 1500
    /// (RD 200, σ 0.06) beats a 1400 (RD 30) and loses to a 1550 (RD 100) and a 1700
    /// (RD 300), τ = 0.5; the paper's result is 1464.06, RD 151.52, σ 0.05999.
    #[test]
    fn the_worked_example_of_glickmans_paper() {
        use skillratings::glicko2::glicko2_rating_period;
        let player = Glicko2Rating { rating: 1500.0, deviation: 200.0, volatility: 0.06 };
        let opponent = |rating, deviation| Glicko2Rating { rating, deviation, volatility: 0.06 };
        let results = [
            (opponent(1400.0, 30.0), Outcomes::WIN),
            (opponent(1550.0, 100.0), Outcomes::LOSS),
            (opponent(1700.0, 300.0), Outcomes::LOSS),
        ];
        let config = Glicko2Config { tau: 0.5, ..Glicko2Config::new() };
        let after = glicko2_rating_period(&player, &results, &config);
        assert!(close(after.rating, 1464.06, 0.01), "{after:?}");
        assert!(close(after.deviation, 151.52, 0.01), "{after:?}");
        assert!(close(after.volatility, 0.05999, 0.00001), "{after:?}");
    }

    /// One game, checked against the paper's formulas worked by hand for the first game of
    /// the example (a win over the 1400, RD 30): μ' = μ + φ'² g(φ_j)(s − E).
    #[test]
    fn one_game_moves_both_ratings_the_right_way() {
        let player = Glicko { rating: 1500.0, deviation: 200.0, volatility: 0.06 };
        let opponent = Glicko { rating: 1400.0, deviation: 30.0, volatility: 0.06 };
        let (won, lost) = after_game(player, opponent, 1.0, 0.5);
        // By hand (Glicko-2 scale): μ = 0, φ = 1.1513, μ_j = −0.5756, φ_j = 0.1727,
        // g = 0.99550, E = 0.63947, v = 4.37680 (σ unchanged to 4 digits): φ* = 1.15285,
        // φ' = (1/φ*² + 1/v)^−½ = 1.00970, μ' = 0.36590 → r' = 1563.56, RD' = 175.40.
        assert!(close(won.rating, 1563.56, 0.3), "{won:?}");
        assert!(close(won.deviation, 175.40, 0.3), "{won:?}");
        assert!(lost.rating < 1400.0 && lost.rating > 1390.0, "a well-known loser moves little: {lost:?}");
        let (drawn, _) = after_game(player, player, 0.5, 0.5);
        assert!(close(drawn.rating, 1500.0, 1e-9), "a draw between equals changes no rating");
        assert!(drawn.deviation < player.deviation, "a game lowers the deviation");
    }

    #[test]
    fn the_deviation_grows_with_inactivity_up_to_a_new_players() {
        let settled = Glicko { rating: 1800.0, deviation: 50.0, volatility: 0.06 };
        let start = datetime!(2026-01-01 0:00 UTC);
        assert_eq!(periods_between(start, datetime!(2026-01-01 23:59 UTC), 1), 0);
        assert_eq!(periods_between(start, datetime!(2026-01-31 0:00 UTC), 1), 30);
        assert_eq!(periods_between(start, datetime!(2026-01-31 0:00 UTC), 7), 4);
        let month = after_inactivity(settled, 30);
        // φ'² = φ² + 30σ² on the Glicko-2 scale: (50/173.7178)² + 30·0.0036 → RD 75.9.
        assert!(close(month.deviation, 75.9, 0.1), "{month:?}");
        assert_eq!(month.rating, 1800.0);
        assert!(close(after_inactivity(settled, 100_000).deviation, 350.0, 1e-9));
    }

    #[test]
    fn only_standard_two_player_games_are_rated() {
        assert!(check_rateable(Variant::Xiangqi, None, None, 2).is_ok());
        assert!(check_rateable(Variant::Flickering, None, None, 2).is_ok());
        for refused in [
            check_rateable(Variant::SevenKingdoms, None, None, 7),
            check_rateable(Variant::Shogi, Some("rook"), None, 2),
            check_rateable(Variant::Xiangqi, None, Some("4k4/9/9/9/9/9/9/9/9/4K4 w"), 2),
        ] {
            assert_eq!(refused.unwrap_err().code(), "challenge.unrated-setup");
        }
    }

    #[test]
    fn pools_follow_the_time_control() {
        assert_eq!(Pool::of(TimeControl::days_per_move(3)), Pool::Correspondence);
        assert_eq!(
            Pool::of(TimeControl::LiveFischer { base_seconds: 300, increment_seconds: 3 }),
            Pool::Live
        );
        assert_eq!("live".parse::<Pool>().unwrap(), Pool::Live);
        assert!("blitz".parse::<Pool>().is_err());
    }
}
