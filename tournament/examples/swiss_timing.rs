use std::time::Instant;
use tavoliere_tournament::swiss::{pair_swiss_round, SwissBye, SwissOptions};
use tavoliere_tournament::{GameId, GameRecord, GameResult, PlayerId};
fn main() {
    let size: i64 = std::env::args().nth(1).map(|s| s.parse().unwrap()).unwrap_or(500);
    let players: Vec<PlayerId> = (1..=size).map(PlayerId).collect();
    let options = SwissOptions { rounds: Some(9), ..SwissOptions::default() };
    let mut games = Vec::new();
    let mut byes: Vec<SwissBye> = Vec::new();
    let mut state = 11u64;
    for _ in 0..7 {
        let t = Instant::now();
        let round = pair_swiss_round(&players, &games, &byes, &options).expect("pairable");

        eprintln!("round {}: {:?}", round.round, t.elapsed());
        for pairing in &round.pairings {
            state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            let result = match (state >> 33) % 3 { 0 => GameResult::FirstWins, 1 => GameResult::SecondWins, _ => GameResult::Draw };
            games.push(GameRecord { game: GameId(games.len() as i64 + 1), round: round.round, first: pairing.first, second: pairing.second, result });
        }
        if let Some(player) = round.bye { byes.push(SwissBye { round: round.round, player }); }
    }
}
