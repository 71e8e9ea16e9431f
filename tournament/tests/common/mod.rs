//! Small helpers shared by the integration tests: games written like a score sheet.
#![allow(dead_code)]

use tavoliere_tournament::{GameId, GameRecord, GameResult, PlayerId};

/// `"1-0"`, `"0-1"`, `"=-="`, `"+-"`, `"-+"`, `"--"`, `"*"` (pending), `"annulled"`.
pub fn result(text: &str) -> GameResult {
    match text {
        "1-0" => GameResult::FirstWins,
        "0-1" => GameResult::SecondWins,
        "=-=" => GameResult::Draw,
        "+-" => GameResult::ForfeitFirstWins,
        "-+" => GameResult::ForfeitSecondWins,
        "--" => GameResult::DoubleForfeit,
        "*" => GameResult::Pending,
        "annulled" => GameResult::Annulled,
        other => panic!("unknown result {other}"),
    }
}

/// Games from lines `first second result`, numbered from 1 in order, round 1.
pub fn games(sheet: &str) -> Vec<GameRecord> {
    sheet
        .lines()
        .map(str::trim)
        .filter(|line| !line.is_empty())
        .enumerate()
        .map(|(i, line)| {
            let fields: Vec<&str> = line.split_whitespace().collect();
            GameRecord {
                game: GameId(i as i64 + 1),
                round: 1,
                first: PlayerId(fields[0].parse().unwrap()),
                second: PlayerId(fields[1].parse().unwrap()),
                result: result(fields[2]),
            }
        })
        .collect()
}

pub fn players(count: i64) -> Vec<PlayerId> {
    (1..=count).map(PlayerId).collect()
}
