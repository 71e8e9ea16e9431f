//! Pairing rounds of a 100-player Swiss with the Dutch-system subset.

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, Criterion};
use tavoliere_tournament::swiss::{pair_swiss_round, SwissBye, SwissOptions};
use tavoliere_tournament::{GameId, GameRecord, GameResult, PlayerId};

/// Plays `rounds` rounds with deterministic pseudo-random results.
fn history(players: &[PlayerId], rounds: u32) -> (Vec<GameRecord>, Vec<SwissBye>) {
    let mut games = Vec::new();
    let mut byes = Vec::new();
    let mut state = 11u64;
    for _ in 0..rounds {
        let round = pair_swiss_round(players, &games, &byes, &SwissOptions::default()).expect("pairable");
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

fn swiss_100(c: &mut Criterion) {
    let players: Vec<PlayerId> = (1..=100).map(PlayerId).collect();
    c.bench_function("swiss: 100 players, round 1", |b| {
        b.iter(|| {
            pair_swiss_round(black_box(&players), &[], &[], &SwissOptions::default()).expect("pairable")
        })
    });
    let (games, byes) = history(&players, 6);
    c.bench_function("swiss: 100 players, round 7", |b| {
        b.iter(|| {
            pair_swiss_round(black_box(&players), &games, &byes, &SwissOptions::default()).expect("pairable")
        })
    });
}

criterion_group!(benches, swiss_100);
criterion_main!(benches);
