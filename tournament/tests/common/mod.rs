//! Small helpers shared by the integration tests: games written like a score sheet.
#![allow(dead_code)]

use std::collections::HashSet;

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

/// Games from `tests/data/bbppairings_issue_7.txt`'s player lines (`n: 31b1 16w1 ...`),
/// each game once, and the expected pairing from its `# expected:` line.
pub fn bbppairings_fixture(text: &str) -> (Vec<GameRecord>, Vec<(i64, i64)>) {
    let mut games = Vec::new();
    let mut seen = HashSet::new();
    let mut expected = Vec::new();
    for line in text.lines() {
        if let Some(pairs) = line.strip_prefix("# expected:") {
            expected = pairs
                .split_whitespace()
                .map(|pair| {
                    let (a, b) = pair.split_once('-').unwrap();
                    (a.parse().unwrap(), b.parse().unwrap())
                })
                .collect();
            continue;
        }
        let Some((player, rounds)) = line.split_once(':').filter(|_| !line.starts_with('#')) else {
            continue;
        };
        let player: i64 = player.parse().unwrap();
        for (i, entry) in rounds.split_whitespace().enumerate() {
            let at = entry.find(['w', 'b']).unwrap();
            let opponent: i64 = entry[..at].parse().unwrap();
            let round = i as u32 + 1;
            if !seen.insert((round, player.min(opponent), player.max(opponent))) {
                continue;
            }
            let first = &entry[at..=at] == "w";
            let mine = match &entry[at + 1..] {
                "1" => (GameResult::FirstWins, GameResult::SecondWins),
                "0" => (GameResult::SecondWins, GameResult::FirstWins),
                "=" => (GameResult::Draw, GameResult::Draw),
                "+" => (GameResult::ForfeitFirstWins, GameResult::ForfeitSecondWins),
                "-" => (GameResult::ForfeitSecondWins, GameResult::ForfeitFirstWins),
                other => panic!("result {other}"),
            };
            let (first_player, second_player, result) =
                if first { (player, opponent, mine.0) } else { (opponent, player, mine.1) };
            games.push(GameRecord {
                game: GameId(games.len() as i64 + 1),
                round,
                first: PlayerId(first_player),
                second: PlayerId(second_player),
                result,
            });
        }
    }
    (games, expected)
}
