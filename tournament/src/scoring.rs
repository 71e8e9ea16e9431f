//! Points per result and the fixed-point [`Points`] type.

use std::fmt;
use std::ops::{Add, AddAssign, Sub};

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::model::PlayerOutcome;

/// A number of points in thousandths of a point, so that halves, thirds shown to three
/// decimals and custom scores add up exactly and ties compare exactly (no floating point).
/// Arithmetic saturates instead of overflowing.
///
/// Serialized as a JSON number (`2.5`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Points(i64);

impl Points {
    /// Zero points.
    pub const ZERO: Points = Points(0);

    /// Points from thousandths of a point (`Points::from_milli(1500)` is 1½).
    pub const fn from_milli(milli: i64) -> Points {
        Points(milli)
    }

    /// Whole points.
    pub const fn whole(points: i64) -> Points {
        Points(points.saturating_mul(1000))
    }

    /// Half points (`Points::halves(3)` is 1½).
    pub const fn halves(halves: i64) -> Points {
        Points(halves.saturating_mul(500))
    }

    /// The value in thousandths of a point.
    pub const fn milli(self) -> i64 {
        self.0
    }

    /// The value as a float, for display and JSON only.
    pub fn as_f64(self) -> f64 {
        self.0 as f64 / 1000.0
    }

    /// Rounded division of an integer amount of thousandths by a positive divisor (half away
    /// from zero). Used where averages are not exact (shared placement points).
    pub(crate) fn div_rounded(total_milli: i64, divisor: i64) -> Points {
        if divisor <= 0 {
            return Points::ZERO;
        }
        let quotient = total_milli / divisor;
        let remainder = total_milli % divisor;
        let adjust = if 2 * remainder.abs() >= divisor { total_milli.signum() } else { 0 };
        Points(quotient + adjust)
    }

    /// The value written the way tables print it: `2½`, `3`, `½`, `1.333` (halves with the
    /// ½ sign, other fractions with up to three decimals).
    pub fn to_table_string(self) -> String {
        let sign = if self.0 < 0 { "-" } else { "" };
        let abs = self.0.abs();
        let whole = abs / 1000;
        let fraction = abs % 1000;
        match fraction {
            0 => format!("{sign}{whole}"),
            500 if whole == 0 => format!("{sign}½"),
            500 => format!("{sign}{whole}½"),
            _ => format!("{sign}{}", decimal(abs)),
        }
    }
}

/// `abs` thousandths as a decimal without trailing zeros.
fn decimal(abs: i64) -> String {
    let mut text = format!("{}.{:03}", abs / 1000, abs % 1000);
    while text.ends_with('0') {
        text.pop();
    }
    if text.ends_with('.') {
        text.pop();
    }
    text
}

impl fmt::Display for Points {
    /// Plain decimal notation (`2.5`), as used in CSV and JSON.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let sign = if self.0 < 0 { "-" } else { "" };
        write!(f, "{sign}{}", decimal(self.0.abs()))
    }
}

impl Add for Points {
    type Output = Points;
    fn add(self, other: Points) -> Points {
        Points(self.0.saturating_add(other.0))
    }
}

impl AddAssign for Points {
    fn add_assign(&mut self, other: Points) {
        self.0 = self.0.saturating_add(other.0);
    }
}

impl Sub for Points {
    type Output = Points;
    fn sub(self, other: Points) -> Points {
        Points(self.0.saturating_sub(other.0))
    }
}

impl std::iter::Sum for Points {
    fn sum<I: Iterator<Item = Points>>(iter: I) -> Points {
        iter.fold(Points::ZERO, Add::add)
    }
}

impl Serialize for Points {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_f64(self.as_f64())
    }
}

impl<'de> Deserialize<'de> for Points {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Points, D::Error> {
        let value = f64::deserialize(deserializer)?;
        if !value.is_finite() || value.abs() > 1e12 {
            return Err(serde::de::Error::custom("points out of range"));
        }
        Ok(Points((value * 1000.0).round() as i64))
    }
}

/// Points awarded per result in a section. The default is 1 / ½ / 0 with forfeits scored
/// like wins and losses; `Scoring::three_two_one()` is the 3/2/1/0 system (a played loss is
/// worth 1, a forfeit loss 0). Any custom values are allowed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Scoring {
    /// Points for a win over the board.
    pub win: Points,
    /// Points for a draw.
    pub draw: Points,
    /// Points for a loss over the board.
    pub loss: Points,
    /// Points for a win by forfeit.
    pub forfeit_win: Points,
    /// Points for a loss by forfeit (also each side of a double forfeit).
    pub forfeit_loss: Points,
}

impl Default for Scoring {
    fn default() -> Scoring {
        Scoring {
            win: Points::whole(1),
            draw: Points::halves(1),
            loss: Points::ZERO,
            forfeit_win: Points::whole(1),
            forfeit_loss: Points::ZERO,
        }
    }
}

impl Scoring {
    /// The 3/2/1/0 system: win 3, draw 2, loss 1, forfeit loss 0 (forfeit win 3).
    pub fn three_two_one() -> Scoring {
        Scoring {
            win: Points::whole(3),
            draw: Points::whole(2),
            loss: Points::whole(1),
            forfeit_win: Points::whole(3),
            forfeit_loss: Points::ZERO,
        }
    }

    /// The points a player gets for an outcome.
    pub fn points(&self, outcome: PlayerOutcome) -> Points {
        match outcome {
            PlayerOutcome::Win => self.win,
            PlayerOutcome::Draw => self.draw,
            PlayerOutcome::Loss => self.loss,
            PlayerOutcome::ForfeitWin => self.forfeit_win,
            PlayerOutcome::ForfeitLoss => self.forfeit_loss,
        }
    }

    /// The most points one game can give (the larger of a win and a forfeit win), the unit
    /// of percentage scores.
    pub fn max_per_game(&self) -> Points {
        self.win.max(self.forfeit_win)
    }
}

/// What a pairing-allocated bye scores in a Swiss section. FIDE C.04.1 (d): "a player who
/// has received a pairing-allocated bye receives the points for a win" — [`ByePoints::Win`],
/// the default; a section may give a draw's or a loss's points, or a fixed value.
///
/// Serialized as `"win"`, `"draw"`, `"loss"` or a number of points (`0.5`). The named values
/// follow the section's scoring when it changes.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(from = "ByePointsRepr", into = "ByePointsRepr")]
pub enum ByePoints {
    /// The points of a win over the board.
    #[default]
    Win,
    /// The points of a draw.
    Draw,
    /// The points of a loss over the board.
    Loss,
    /// A fixed number of points.
    Fixed(Points),
}

impl ByePoints {
    /// The points a bye is worth under `scoring`.
    pub fn points(self, scoring: &Scoring) -> Points {
        match self {
            ByePoints::Win => scoring.win,
            ByePoints::Draw => scoring.draw,
            ByePoints::Loss => scoring.loss,
            ByePoints::Fixed(points) => points,
        }
    }
}

/// The JSON shape of [`ByePoints`].
#[derive(Clone, Copy, Serialize, Deserialize)]
#[serde(untagged)]
enum ByePointsRepr {
    Named(ByeName),
    Fixed(Points),
}

#[derive(Clone, Copy, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
enum ByeName {
    Win,
    Draw,
    Loss,
}

impl From<ByePointsRepr> for ByePoints {
    fn from(repr: ByePointsRepr) -> ByePoints {
        match repr {
            ByePointsRepr::Named(ByeName::Win) => ByePoints::Win,
            ByePointsRepr::Named(ByeName::Draw) => ByePoints::Draw,
            ByePointsRepr::Named(ByeName::Loss) => ByePoints::Loss,
            ByePointsRepr::Fixed(points) => ByePoints::Fixed(points),
        }
    }
}

impl From<ByePoints> for ByePointsRepr {
    fn from(bye: ByePoints) -> ByePointsRepr {
        match bye {
            ByePoints::Win => ByePointsRepr::Named(ByeName::Win),
            ByePoints::Draw => ByePointsRepr::Named(ByeName::Draw),
            ByePoints::Loss => ByePointsRepr::Named(ByeName::Loss),
            ByePoints::Fixed(points) => ByePointsRepr::Fixed(points),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn points_print_halves_with_the_half_sign_and_other_fractions_as_decimals() {
        assert_eq!(Points::halves(5).to_table_string(), "2½");
        assert_eq!(Points::halves(1).to_table_string(), "½");
        assert_eq!(Points::whole(3).to_table_string(), "3");
        assert_eq!(Points::from_milli(12_333).to_table_string(), "12.333");
        assert_eq!(Points::from_milli(-1500).to_table_string(), "-1½");
        assert_eq!(Points::from_milli(2500).to_string(), "2.5");
        assert_eq!(Points::from_milli(12_340).to_string(), "12.34");
    }

    #[test]
    fn rounded_division_rounds_half_away_from_zero() {
        assert_eq!(Points::div_rounded(37_000, 3), Points::from_milli(12_333));
        assert_eq!(Points::div_rounded(2_000, 3), Points::from_milli(667));
        assert_eq!(Points::div_rounded(1, 2), Points::from_milli(1));
        assert_eq!(Points::div_rounded(5, 0), Points::ZERO);
    }

    #[test]
    fn a_bye_scores_a_win_by_default_and_follows_the_scoring() {
        assert_eq!(ByePoints::default().points(&Scoring::default()), Points::whole(1));
        assert_eq!(ByePoints::default().points(&Scoring::three_two_one()), Points::whole(3));
        assert_eq!(ByePoints::Draw.points(&Scoring::three_two_one()), Points::whole(2));
        assert_eq!(ByePoints::Fixed(Points::halves(1)).points(&Scoring::default()), Points::halves(1));
    }

    #[test]
    fn bye_points_read_and_write_names_or_numbers() {
        let read = |text: &str| serde_json::from_str::<ByePoints>(text);
        assert_eq!(read("\"win\"").unwrap(), ByePoints::Win);
        assert_eq!(read("\"draw\"").unwrap(), ByePoints::Draw);
        assert_eq!(read("0.5").unwrap(), ByePoints::Fixed(Points::halves(1)));
        assert!(read("\"half\"").is_err());
        assert_eq!(serde_json::to_string(&ByePoints::Loss).unwrap(), "\"loss\"");
        assert_eq!(serde_json::to_string(&ByePoints::Fixed(Points::whole(2))).unwrap(), "2.0");
    }

    #[test]
    fn three_two_one_scores_a_played_loss_above_a_forfeit() {
        let scoring = Scoring::three_two_one();
        assert_eq!(scoring.points(PlayerOutcome::Loss), Points::whole(1));
        assert_eq!(scoring.points(PlayerOutcome::ForfeitLoss), Points::ZERO);
        assert_eq!(scoring.points(PlayerOutcome::Draw), Points::whole(2));
    }
}
