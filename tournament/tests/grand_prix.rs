//! A Grand Prix of three sections in three variants, scored by each formula, against
//! hand-computed tables.
//!
//! Xiangqi (players 1-4, single round-robin, no tie-breaks): 1st P1 2½/3, 2nd-3rd P2 and
//! P3 1½/3, 4th P4 ½/3.
//! Shogi (players 1, 2, 5, 6): 1st P2 2½/3, 2nd P1 2/3, 3rd P5 1/3, 4th P6 ½/3.
//! MiniShogi (players 1, 5, 6, double round-robin): 1st P1 3/4, 2nd-3rd P5 and P6 1½/4.

mod common;

use common::games;
use tavoliere_tournament::grand_prix::{
    compute_grand_prix, GpFormula, GpTieBreak, GrandPrixConfig, GrandPrixError, GrandPrixRow, SectionResults,
};
use tavoliere_tournament::standings::{compute_standings, StandingsConfig};
use tavoliere_tournament::{PlayerId, Points, Scoring, SectionId};

const XIANGQI: &str = "
    1 2 1-0
    3 1 =-=
    1 4 1-0
    2 3 1-0
    4 2 =-=
    4 3 0-1";

const SHOGI: &str = "
    1 2 0-1
    1 5 1-0
    1 6 1-0
    2 5 1-0
    2 6 =-=
    5 6 1-0";

const MINISHOGI: &str = "
    1 5 1-0
    5 1 =-=
    1 6 =-=
    6 1 0-1
    5 6 1-0
    6 5 1-0";

fn section(id: i64, entries: &[i64], sheet: &str) -> SectionResults {
    let players: Vec<PlayerId> = entries.iter().copied().map(PlayerId).collect();
    let config = StandingsConfig { scoring: Scoring::default(), tie_breaks: vec![], ..Default::default() };
    let standings = compute_standings(&players, &games(sheet), &[], &config).unwrap();
    SectionResults::from_standings(SectionId(id), &standings)
}

fn sections() -> Vec<SectionResults> {
    vec![
        section(1, &[1, 2, 3, 4], XIANGQI),
        section(2, &[1, 2, 5, 6], SHOGI),
        section(3, &[1, 5, 6], MINISHOGI),
    ]
}

/// `(player, place, score in thousandths)` in table order.
fn table(rows: &[GrandPrixRow]) -> Vec<(i64, String, i64)> {
    rows.iter().map(|r| (r.player.0, r.place.to_string(), r.score.milli())).collect()
}

fn expected(rows: &[(i64, &str, i64)]) -> Vec<(i64, String, i64)> {
    rows.iter().map(|&(p, place, score)| (p, place.to_string(), score)).collect()
}

fn config(formula: GpFormula, best_sections: Option<usize>, tie_breaks: &[GpTieBreak]) -> GrandPrixConfig {
    GrandPrixConfig { formula, best_sections, tie_breaks: tie_breaks.to_vec() }
}

#[test]
fn sum_of_points() {
    // P1 2½+2+3, P2 1½+2½, P5 1+1½, P6 ½+1½, P3 1½, P4 ½.
    let rows = compute_grand_prix(&sections(), &config(GpFormula::SumOfPoints, None, &[])).unwrap();
    assert_eq!(
        table(&rows),
        expected(&[
            (1, "1", 7500),
            (2, "2", 4000),
            (5, "3", 2500),
            (6, "4", 2000),
            (3, "5", 1500),
            (4, "6", 500)
        ])
    );
    assert_eq!(rows[0].sections.len(), 3);
    assert!(rows[0].sections.iter().all(|s| s.counted));
}

#[test]
fn sum_of_percentages() {
    // P1 83.333+66.667+75, P2 50+83.333, P5 33.333+37.5, P6 16.667+37.5, P3 50, P4 16.667.
    let rows = compute_grand_prix(&sections(), &config(GpFormula::SumOfPercentages, None, &[])).unwrap();
    assert_eq!(
        table(&rows),
        expected(&[
            (1, "1", 225_000),
            (2, "2", 133_333),
            (5, "3", 70_833),
            (6, "4", 54_167),
            (3, "5", 50_000),
            (4, "6", 16_667)
        ])
    );
}

#[test]
fn placement_points_best_two_with_shared_places_averaged() {
    // Shared 2nd-3rd is worth (18+15)/2 = 16½.
    // P1 25+25 (18 dropped), P2 16½+25, P5 15+16½, P6 12+16½, P3 16½, P4 12.
    let rows =
        compute_grand_prix(&sections(), &config(GpFormula::placement_25_18_15(), Some(2), &[])).unwrap();
    assert_eq!(
        table(&rows),
        expected(&[
            (1, "1", 50_000),
            (2, "2", 41_500),
            (5, "3", 31_500),
            (6, "4", 28_500),
            (3, "5", 16_500),
            (4, "6", 12_000)
        ])
    );
    let shogi_of_p1 = rows[0].sections.iter().find(|s| s.section == SectionId(2)).unwrap();
    assert_eq!((shogi_of_p1.value, shogi_of_p1.counted), (Points::whole(18), false));
}

#[test]
fn placement_points_best_one_ties_are_broken_by_the_grand_prix_tie_breaks() {
    // Best single section: P1 25, P2 25, P5 16½, P6 16½, P3 16½, P4 12.
    // P1 entered 3 sections, P2 2. P5 and P6 entered 2 each, P3 1; P5's placings (2, 3)
    // beat P6's (2, 4).
    let tie_breaks = [GpTieBreak::SectionsPlayed, GpTieBreak::BestPlacings];
    let rows =
        compute_grand_prix(&sections(), &config(GpFormula::placement_25_18_15(), Some(1), &tie_breaks))
            .unwrap();
    assert_eq!(
        table(&rows),
        expected(&[
            (1, "1", 25_000),
            (2, "2", 25_000),
            (5, "3", 16_500),
            (6, "4", 16_500),
            (3, "5", 16_500),
            (4, "6", 12_000)
        ])
    );
    assert_eq!(rows[0].tie_breaks, vec![Points::whole(3), Points::whole(1)]);
    // Without tie-breaks the same players share places.
    let rows =
        compute_grand_prix(&sections(), &config(GpFormula::placement_25_18_15(), Some(1), &[])).unwrap();
    assert_eq!(
        table(&rows),
        expected(&[
            (1, "1-2", 25_000),
            (2, "1-2", 25_000),
            (3, "3-5", 16_500),
            (5, "3-5", 16_500),
            (6, "3-5", 16_500),
            (4, "6", 12_000)
        ])
    );
}

#[test]
fn total_points_and_percentage_tie_breaks() {
    // Best single section by placement: P1 and P2 tie on 25; total percentage 225 vs
    // 133.333 decides (total points, 7½ vs 4, would agree).
    let tie_breaks = [GpTieBreak::TotalPercentage, GpTieBreak::TotalPoints];
    let rows =
        compute_grand_prix(&sections(), &config(GpFormula::placement_25_18_15(), Some(1), &tie_breaks))
            .unwrap();
    assert_eq!(rows[0].player, PlayerId(1));
    assert_eq!(rows[0].tie_breaks, vec![Points::from_milli(225_000), Points::from_milli(7_500)]);
    // The 16½ group by total percentage: P5 70.833, P6 54.167, P3 50.
    let order: Vec<i64> = rows.iter().map(|r| r.player.0).collect();
    assert_eq!(order, vec![1, 2, 5, 6, 3, 4]);
}

#[test]
fn duplicate_sections_and_entries_are_errors() {
    let mut twice = sections();
    twice.push(section(1, &[7, 8], "7 8 1-0"));
    let formula = config(GpFormula::SumOfPoints, None, &[]);
    assert_eq!(compute_grand_prix(&twice, &formula), Err(GrandPrixError::DuplicateSection(SectionId(1))));
    let mut doubled = section(9, &[7, 8], "7 8 1-0");
    doubled.entries.push(doubled.entries[0]);
    assert_eq!(
        compute_grand_prix(&[doubled], &formula),
        Err(GrandPrixError::DuplicateEntry { section: SectionId(9), player: PlayerId(7) })
    );
}
