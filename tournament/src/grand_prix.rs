//! The Grand Prix: a tournament's overall table aggregated from its sections.
//!
//! Each section contributes, per player, a value from the tournament's [`GpFormula`]: the
//! points scored, the percentage score, or placement points from a table (tied places
//! share the average of the points of the places they cover). A player's Grand Prix score
//! is the sum of their best `best_sections` values (all of them when `None`). Players still
//! level after the Grand Prix tie-breaks share the place.

use std::cmp::Reverse;
use std::collections::{HashMap, HashSet};
use std::fmt;

use serde::{Deserialize, Serialize};

use crate::model::{PlayerId, SectionId};
use crate::scoring::Points;
use crate::standings::{Place, Standing};

/// How a section's result becomes Grand Prix points.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "kebab-case", tag = "kind")]
pub enum GpFormula {
    /// The points scored in the section.
    SumOfPoints,
    /// The percentage score in the section (points over the maximum of the games counted),
    /// to a thousandth of a percent.
    SumOfPercentages,
    /// Points by place: `table[0]` for first place, `table[1]` for second...; places beyond
    /// the table get nothing. Tied places share the average of the places they cover.
    PlacementPoints {
        /// Points per place, best first (e.g. 25, 18, 15, 12, 10, 8, 6, 4, 2, 1).
        table: Vec<Points>,
    },
}

impl GpFormula {
    /// The common 25/18/15/12/10/8/6/4/2/1 placement table.
    pub fn placement_25_18_15() -> GpFormula {
        GpFormula::PlacementPoints {
            table: [25, 18, 15, 12, 10, 8, 6, 4, 2, 1].into_iter().map(Points::whole).collect(),
        }
    }
}

/// A Grand Prix tie-break.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "kebab-case")]
pub enum GpTieBreak {
    /// More sections entered ranks higher.
    SectionsPlayed,
    /// Count-back on placings: the better best place, then the better second-best place,
    /// and so on (a player with one more placing ranks higher on an equal prefix). The value
    /// shown is the best place.
    BestPlacings,
    /// Total points over all sections (counted or not).
    TotalPoints,
    /// Sum of the percentage scores over all sections.
    TotalPercentage,
}

/// The tournament's Grand Prix settings.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct GrandPrixConfig {
    /// Per-section value.
    pub formula: GpFormula,
    /// Count only the best N section values; `None` counts every section.
    pub best_sections: Option<usize>,
    /// Tie-breaks, in order.
    pub tie_breaks: Vec<GpTieBreak>,
}

/// A player's final line in one section, as the Grand Prix needs it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct SectionEntry {
    /// The player.
    pub player: PlayerId,
    /// Their place (possibly shared).
    pub place: Place,
    /// Their points.
    pub points: Points,
    /// The maximum they could have scored in their counted games (the percentage's base).
    pub max_points: Points,
}

impl From<&Standing> for SectionEntry {
    fn from(standing: &Standing) -> SectionEntry {
        SectionEntry {
            player: standing.player,
            place: standing.place,
            points: standing.points,
            max_points: standing.max_points_so_far,
        }
    }
}

/// One section's results.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SectionResults {
    /// The section.
    pub section: SectionId,
    /// Its lines (any order).
    pub entries: Vec<SectionEntry>,
}

impl SectionResults {
    /// The results of a section from its computed standings.
    pub fn from_standings(section: SectionId, standings: &[Standing]) -> SectionResults {
        SectionResults { section, entries: standings.iter().map(SectionEntry::from).collect() }
    }
}

/// What one section gave one player.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct GpSectionScore {
    /// The section.
    pub section: SectionId,
    /// The place in it.
    pub place: Place,
    /// The points in it.
    pub points: Points,
    /// The percentage score in it (e.g. `83.333`).
    pub percentage: Points,
    /// The Grand Prix value from the formula.
    pub value: Points,
    /// Whether the value is among the best N that count.
    pub counted: bool,
}

/// One line of the Grand Prix table.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct GrandPrixRow {
    /// The player.
    pub player: PlayerId,
    /// The place, shared when still tied.
    pub place: Place,
    /// The Grand Prix score.
    pub score: Points,
    /// Per section entered, in the order the sections were given.
    pub sections: Vec<GpSectionScore>,
    /// The tie-break values in the configured order (best place for
    /// [`GpTieBreak::BestPlacings`], a count for [`GpTieBreak::SectionsPlayed`]).
    pub tie_breaks: Vec<Points>,
}

/// Why a Grand Prix cannot be computed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum GrandPrixError {
    /// The same section is given twice.
    DuplicateSection(SectionId),
    /// A player appears twice in one section.
    DuplicateEntry {
        /// The section.
        section: SectionId,
        /// The player.
        player: PlayerId,
    },
}

impl fmt::Display for GrandPrixError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GrandPrixError::DuplicateSection(section) => write!(f, "section {} is given twice", section.0),
            GrandPrixError::DuplicateEntry { section, player } => {
                write!(f, "player {} appears twice in section {}", player.0, section.0)
            }
        }
    }
}

impl std::error::Error for GrandPrixError {}

/// The percentage `points / max * 100`, to a thousandth of a percent; 0 when `max` is 0.
pub fn percentage(points: Points, max: Points) -> Points {
    if max.milli() <= 0 {
        return Points::ZERO;
    }
    let scaled = i128::from(points.milli()) * 100_000;
    let max = i128::from(max.milli());
    let rounded = (2 * scaled + scaled.signum() * max) / (2 * max);
    Points::from_milli(rounded.clamp(i128::from(i64::MIN), i128::from(i64::MAX)) as i64)
}

/// The placement points of a (possibly shared) place: the average of the table's points
/// over the places it covers, rounded to a thousandth.
pub fn placement_points(table: &[Points], place: Place) -> Points {
    if place.first == 0 || place.last < place.first {
        return Points::ZERO;
    }
    let covered = i64::from(place.last - place.first) + 1;
    // Places beyond the table are worth nothing: only the covered part of the table counts.
    let total: i64 = table
        .iter()
        .enumerate()
        .filter(|(i, _)| (place.first as usize..=place.last as usize).contains(&(i + 1)))
        .map(|(_, points)| points.milli())
        .fold(0i64, i64::saturating_add);
    Points::div_rounded(total, covered)
}

/// Computes the Grand Prix table over `sections`.
///
/// # Errors
///
/// A section given twice or a player entered twice in a section.
pub fn compute_grand_prix(
    sections: &[SectionResults],
    config: &GrandPrixConfig,
) -> Result<Vec<GrandPrixRow>, GrandPrixError> {
    let mut seen_sections = HashSet::with_capacity(sections.len());
    let mut by_player: HashMap<PlayerId, Vec<GpSectionScore>> = HashMap::new();
    let mut first_seen: Vec<PlayerId> = Vec::new();
    for section in sections {
        if !seen_sections.insert(section.section) {
            return Err(GrandPrixError::DuplicateSection(section.section));
        }
        let mut seen_players = HashSet::with_capacity(section.entries.len());
        for entry in &section.entries {
            if !seen_players.insert(entry.player) {
                return Err(GrandPrixError::DuplicateEntry {
                    section: section.section,
                    player: entry.player,
                });
            }
            let percentage = percentage(entry.points, entry.max_points);
            let value = match &config.formula {
                GpFormula::SumOfPoints => entry.points,
                GpFormula::SumOfPercentages => percentage,
                GpFormula::PlacementPoints { table } => placement_points(table, entry.place),
            };
            let scores = by_player.entry(entry.player).or_insert_with(|| {
                first_seen.push(entry.player);
                Vec::new()
            });
            scores.push(GpSectionScore {
                section: section.section,
                place: entry.place,
                points: entry.points,
                percentage,
                value,
                counted: false,
            });
        }
    }

    let mut rows: Vec<(GrandPrixRow, Vec<Vec<i64>>)> = first_seen
        .into_iter()
        .map(|player| {
            let mut scores = by_player.remove(&player).unwrap_or_default();
            let mut best: Vec<usize> = (0..scores.len()).collect();
            best.sort_by_key(|&i| Reverse(scores[i].value));
            let limit = config.best_sections.unwrap_or(scores.len());
            for &i in best.iter().take(limit) {
                scores[i].counted = true;
            }
            let score = scores.iter().filter(|s| s.counted).map(|s| s.value).sum();
            let keys: Vec<(Points, Vec<i64>)> =
                config.tie_breaks.iter().map(|&tie_break| tie_break_key(tie_break, &scores)).collect();
            let (tie_breaks, sort_keys) = keys.into_iter().unzip();
            let row = GrandPrixRow {
                player,
                place: Place { first: 0, last: 0 },
                score,
                sections: scores,
                tie_breaks,
            };
            (row, sort_keys)
        })
        .collect();

    // Higher score first, then each tie-break key (larger is better), then the player id
    // for a stable order within shared places.
    rows.sort_by(|(a, a_keys), (b, b_keys)| {
        b.score.cmp(&a.score).then_with(|| b_keys.cmp(a_keys)).then_with(|| a.player.cmp(&b.player))
    });
    let mut start = 0;
    while start < rows.len() {
        let mut end = start + 1;
        while end < rows.len() && rows[end].0.score == rows[start].0.score && rows[end].1 == rows[start].1 {
            end += 1;
        }
        let place = Place { first: start as u32 + 1, last: end as u32 };
        for (row, _) in &mut rows[start..end] {
            row.place = place;
        }
        start = end;
    }
    Ok(rows.into_iter().map(|(row, _)| row).collect())
}

/// The shown value and the comparison key (larger is better) of a Grand Prix tie-break.
fn tie_break_key(tie_break: GpTieBreak, scores: &[GpSectionScore]) -> (Points, Vec<i64>) {
    match tie_break {
        GpTieBreak::SectionsPlayed => {
            let count = scores.len() as i64;
            (Points::whole(count), vec![count])
        }
        GpTieBreak::BestPlacings => {
            let mut places: Vec<i64> = scores.iter().map(|s| i64::from(s.place.first)).collect();
            places.sort_unstable();
            let shown = places.first().map_or(Points::ZERO, |&best| Points::whole(best));
            (shown, places.into_iter().map(|p| -p).collect())
        }
        GpTieBreak::TotalPoints => {
            let total: Points = scores.iter().map(|s| s.points).sum();
            (total, vec![total.milli()])
        }
        GpTieBreak::TotalPercentage => {
            let total: Points = scores.iter().map(|s| s.percentage).sum();
            (total, vec![total.milli()])
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shared_places_share_the_average_of_the_placement_points() {
        let table: Vec<Points> = [25, 18, 15, 12, 10].into_iter().map(Points::whole).collect();
        assert_eq!(placement_points(&table, Place { first: 2, last: 3 }), Points::from_milli(16_500));
        assert_eq!(placement_points(&table, Place { first: 3, last: 5 }), Points::from_milli(12_333));
        assert_eq!(placement_points(&table, Place { first: 5, last: 6 }), Points::from_milli(5_000));
        assert_eq!(placement_points(&table, Place { first: 7, last: 7 }), Points::ZERO);
        assert_eq!(placement_points(&table, Place { first: 0, last: 0 }), Points::ZERO);
    }

    #[test]
    fn percentages_round_to_a_thousandth() {
        assert_eq!(percentage(Points::halves(5), Points::whole(3)), Points::from_milli(83_333));
        assert_eq!(percentage(Points::whole(2), Points::whole(3)), Points::from_milli(66_667));
        assert_eq!(percentage(Points::whole(2), Points::ZERO), Points::ZERO);
    }
}
