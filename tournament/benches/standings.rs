//! Standings of a 100-player double round-robin (9,900 games) and a 20-section Grand Prix.

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, Criterion};
use tavoliere_tournament::berger::{round_robin, Cycles, RoundRobinOptions};
use tavoliere_tournament::grand_prix::{
    compute_grand_prix, GpFormula, GpTieBreak, GrandPrixConfig, SectionResults,
};
use tavoliere_tournament::standings::{compute_standings, StandingsConfig, TieBreak};
use tavoliere_tournament::tables::html::crosstable_html;
use tavoliere_tournament::tables::{build_crosstable, Language, PlayerInfo};
use tavoliere_tournament::{GameId, GameRecord, GameResult, PlayerId, Scoring, SectionId};

/// A finished double round-robin with deterministic pseudo-random results.
fn section(first_player: i64, players: i64, seed: u64) -> (Vec<PlayerId>, Vec<GameRecord>) {
    let ids: Vec<PlayerId> = (first_player..first_player + players).map(PlayerId).collect();
    let options = RoundRobinOptions { cycles: Cycles::Double, ..Default::default() };
    let schedule = round_robin(&ids, &options).expect("valid entries");
    let mut state = seed;
    let games = schedule
        .games
        .iter()
        .enumerate()
        .map(|(i, pairing)| {
            state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            let result = match (state >> 33) % 10 {
                0..=3 => GameResult::FirstWins,
                4..=6 => GameResult::SecondWins,
                7 | 8 => GameResult::Draw,
                _ => GameResult::ForfeitFirstWins,
            };
            GameRecord {
                game: GameId(i as i64),
                round: pairing.round,
                first: pairing.first,
                second: pairing.second,
                result,
            }
        })
        .collect();
    (ids, games)
}

fn every_tie_break() -> StandingsConfig {
    StandingsConfig { scoring: Scoring::default(), tie_breaks: TieBreak::ALL.to_vec(), ..Default::default() }
}

fn standings_100_double(c: &mut Criterion) {
    let (players, games) = section(1, 100, 7);
    assert_eq!(games.len(), 9900);
    let config = every_tie_break();
    c.bench_function("standings: 100-player double round-robin, 9,900 games, all tie-breaks", |b| {
        b.iter(|| compute_standings(black_box(&players), black_box(&games), &[], &config).expect("valid"))
    });
    let names: Vec<PlayerInfo> =
        players.iter().map(|&id| PlayerInfo { id, name: format!("Player {}", id.0), rating: None }).collect();
    c.bench_function("crosstable + HTML: 100-player double round-robin", |b| {
        b.iter(|| {
            let table =
                build_crosstable("Bench", black_box(&names), black_box(&games), &[], &config).expect("valid");
            crosstable_html(&table, Language::It)
        })
    });
}

fn grand_prix_20_sections(c: &mut Criterion) {
    // 20 sections of 12 players (double round-robin), players overlapping across sections.
    let sections: Vec<(Vec<PlayerId>, Vec<GameRecord>)> =
        (0..20).map(|s| section(s * 6 + 1, 12, 1000 + s as u64)).collect();
    let config = every_tie_break();
    let gp = GrandPrixConfig {
        formula: GpFormula::placement_25_18_15(),
        best_sections: Some(5),
        tie_breaks: vec![GpTieBreak::SectionsPlayed, GpTieBreak::BestPlacings, GpTieBreak::TotalPoints],
    };
    let results: Vec<SectionResults> = sections
        .iter()
        .enumerate()
        .map(|(i, (players, games))| {
            let standings = compute_standings(players, games, &[], &config).expect("valid");
            SectionResults::from_standings(SectionId(i as i64), &standings)
        })
        .collect();
    c.bench_function("grand prix: 20 sections, aggregation only", |b| {
        b.iter(|| compute_grand_prix(black_box(&results), &gp).expect("valid"))
    });
    c.bench_function("grand prix: 20 sections, standings of every section + aggregation", |b| {
        b.iter(|| {
            let results: Vec<SectionResults> = sections
                .iter()
                .enumerate()
                .map(|(i, (players, games))| {
                    let standings = compute_standings(players, games, &[], &config).expect("valid");
                    SectionResults::from_standings(SectionId(i as i64), &standings)
                })
                .collect();
            compute_grand_prix(black_box(&results), &gp).expect("valid")
        })
    });
}

criterion_group!(benches, standings_100_double, grand_prix_20_sections);
criterion_main!(benches);
