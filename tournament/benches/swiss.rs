//! Pairing rounds of large Swiss sections with the FIDE (Dutch) System: a 100-player and a
//! 500-player section (correspondence open events can be that large), round 1 and a round
//! in the middle of the event, in the 2025 edition.
//!
//! `cargo bench -p tavoliere-tournament --bench swiss`

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, Criterion};
use tavoliere_tournament::swiss::{pair_swiss_round, SwissBye, SwissOptions};
use tavoliere_tournament::{GameId, GameRecord, GameResult, PlayerId};

/// Plays `rounds` rounds with deterministic pseudo-random results.
fn history(players: &[PlayerId], rounds: u32, options: &SwissOptions) -> (Vec<GameRecord>, Vec<SwissBye>) {
    let mut games = Vec::new();
    let mut byes = Vec::new();
    let mut state = 11u64;
    for _ in 0..rounds {
        let round = pair_swiss_round(players, &games, &byes, options).expect("pairable");
        for pairing in &round.pairings {
            state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            let result = match (state >> 33) % 3 {
                0 => GameResult::FirstWins,
                1 => GameResult::SecondWins,
                _ => GameResult::Draw,
            };
            let game = GameId(games.len() as i64 + 1);
            games.push(GameRecord {
                game,
                round: round.round,
                first: pairing.first,
                second: pairing.second,
                result,
            });
        }
        if let Some(player) = round.bye {
            byes.push(SwissBye { round: round.round, player });
        }
    }
    (games, byes)
}

fn swiss(c: &mut Criterion) {
    let mut group = c.benchmark_group("swiss");
    group.sample_size(10);
    for size in [100, 500] {
        let players: Vec<PlayerId> = (1..=size).map(PlayerId).collect();
        let options = SwissOptions { rounds: Some(9), ..SwissOptions::default() };
        group.bench_function(format!("{size} players, round 1"), |b| {
            b.iter(|| pair_swiss_round(black_box(&players), &[], &[], &options).expect("pairable"))
        });
        let (games, byes) = history(&players, 5, &options);
        group.bench_function(format!("{size} players, round 6"), |b| {
            b.iter(|| pair_swiss_round(black_box(&players), &games, &byes, &options).expect("pairable"))
        });
    }
    group.finish();
}

criterion_group!(benches, swiss);
criterion_main!(benches);
