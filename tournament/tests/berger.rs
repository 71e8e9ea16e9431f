//! The Berger tables checked literally against the published FIDE tables (FIDE Handbook
//! C.05 Annex 1; the same tables are reproduced in most arbiters' manuals).

use std::collections::HashMap;

use tavoliere_tournament::berger::{
    berger_table, round_robin, Cycles, PairingError, RoundRobinOptions, StartPolicy,
};
use tavoliere_tournament::PlayerId;

const FIDE_4: &str = "
1: 1-4, 2-3
2: 4-3, 1-2
3: 2-4, 3-1";

const FIDE_6: &str = "
1: 1-6, 2-5, 3-4
2: 6-4, 5-3, 1-2
3: 2-6, 3-1, 4-5
4: 6-5, 1-4, 2-3
5: 3-6, 4-2, 5-1";

const FIDE_8: &str = "
1: 1-8, 2-7, 3-6, 4-5
2: 8-5, 6-4, 7-3, 1-2
3: 2-8, 3-1, 4-7, 5-6
4: 8-6, 7-5, 1-4, 2-3
5: 3-8, 4-2, 5-1, 6-7
6: 8-7, 1-6, 2-5, 3-4
7: 4-8, 5-3, 6-2, 7-1";

const FIDE_10: &str = "
1: 1-10, 2-9, 3-8, 4-7, 5-6
2: 10-6, 7-5, 8-4, 9-3, 1-2
3: 2-10, 3-1, 4-9, 5-8, 6-7
4: 10-7, 8-6, 9-5, 1-4, 2-3
5: 3-10, 4-2, 5-1, 6-9, 7-8
6: 10-8, 9-7, 1-6, 2-5, 3-4
7: 4-10, 5-3, 6-2, 7-1, 8-9
8: 10-9, 1-8, 2-7, 3-6, 4-5
9: 5-10, 6-4, 7-3, 8-2, 9-1";

const FIDE_12: &str = "
1: 1-12, 2-11, 3-10, 4-9, 5-8, 6-7
2: 12-7, 8-6, 9-5, 10-4, 11-3, 1-2
3: 2-12, 3-1, 4-11, 5-10, 6-9, 7-8
4: 12-8, 9-7, 10-6, 11-5, 1-4, 2-3
5: 3-12, 4-2, 5-1, 6-11, 7-10, 8-9
6: 12-9, 10-8, 11-7, 1-6, 2-5, 3-4
7: 4-12, 5-3, 6-2, 7-1, 8-11, 9-10
8: 12-10, 11-9, 1-8, 2-7, 3-6, 4-5
9: 5-12, 6-4, 7-3, 8-2, 9-1, 10-11
10: 12-11, 1-10, 2-9, 3-8, 4-7, 5-6
11: 6-12, 7-5, 8-4, 9-3, 10-2, 11-1";

/// Parses the published layout above: one line per round, boards `first-second`.
fn parse_published(text: &str) -> Vec<Vec<(u32, u32)>> {
    text.lines()
        .filter(|line| !line.trim().is_empty())
        .map(|line| {
            let (_, boards) = line.split_once(':').expect("round label");
            boards
                .split(',')
                .map(|board| {
                    let (a, b) = board.trim().split_once('-').expect("a-b");
                    (a.parse().expect("number"), b.parse().expect("number"))
                })
                .collect()
        })
        .collect()
}

fn players(count: i64) -> Vec<PlayerId> {
    (1..=count).map(PlayerId).collect()
}

#[test]
fn berger_tables_match_the_published_fide_tables_for_4_to_12_players() {
    for (count, published) in [(4, FIDE_4), (6, FIDE_6), (8, FIDE_8), (10, FIDE_10), (12, FIDE_12)] {
        assert_eq!(berger_table(count).unwrap(), parse_published(published), "{count} players");
        // An odd count uses the table of the next even number.
        assert_eq!(berger_table(count - 1).unwrap(), parse_published(published), "{} players", count - 1);
    }
}

/// Checks the invariants of a schedule: every pair meets exactly `cycles` times, with each
/// colour once per cycle in a double; nobody plays twice in a round; colour counts differ by
/// at most one per cycle; byes are those of the highest (dummy) number.
fn check_schedule(count: i64, cycles: Cycles) {
    let options = RoundRobinOptions { cycles, ..Default::default() };
    let schedule = round_robin(&players(count), &options).unwrap();
    let cycle_count = if cycles == Cycles::Double { 2 } else { 1 };
    let even = count + count % 2;
    assert_eq!(schedule.rounds as i64, (even - 1) * cycle_count, "{count} players: rounds");
    assert_eq!(schedule.games.len() as i64, count * (count - 1) / 2 * cycle_count, "{count}: games");

    let mut meetings: HashMap<(PlayerId, PlayerId), u32> = HashMap::new();
    for game in &schedule.games {
        *meetings.entry((game.first, game.second)).or_default() += 1;
    }
    for a in players(count) {
        for b in players(count) {
            if a == b {
                continue;
            }
            let ab = meetings.get(&(a, b)).copied().unwrap_or(0);
            let ba = meetings.get(&(b, a)).copied().unwrap_or(0);
            assert_eq!(ab + ba, cycle_count as u32, "{count}: {a:?} and {b:?} meet once per cycle");
            if cycles == Cycles::Double {
                assert_eq!((ab, ba), (1, 1), "{count}: each colour once in a double");
            }
        }
    }
    for round in 1..=schedule.rounds {
        let mut busy: Vec<PlayerId> = schedule
            .games
            .iter()
            .filter(|g| g.round == round)
            .flat_map(|g| [g.first, g.second])
            .chain(schedule.byes.iter().filter(|b| b.round == round).map(|b| b.player))
            .collect();
        busy.sort();
        assert_eq!(busy, players(count), "{count}: round {round} has everyone exactly once");
    }
    for player in players(count) {
        let firsts = schedule.games.iter().filter(|g| g.first == player && g.cycle == 1).count() as i64;
        let seconds = schedule.games.iter().filter(|g| g.second == player && g.cycle == 1).count() as i64;
        assert!((firsts - seconds).abs() <= 1, "{count}: {player:?} colours {firsts}/{seconds}");
    }
    if count % 2 == 1 {
        assert_eq!(schedule.byes.len() as i64, count * cycle_count, "{count}: one bye per round");
        for player in players(count) {
            let byes = schedule.byes.iter().filter(|b| b.player == player).count() as i64;
            assert_eq!(byes, cycle_count, "{count}: {player:?} has one bye per cycle");
        }
    } else {
        assert!(schedule.byes.is_empty());
    }
}

#[test]
fn every_pair_meets_once_per_cycle_with_balanced_colours_and_correct_byes() {
    for count in 2..=13 {
        check_schedule(count, Cycles::Single);
        check_schedule(count, Cycles::Double);
    }
}

#[test]
fn five_players_have_the_bye_where_the_published_table_says_6() {
    let schedule = round_robin(&players(5), &RoundRobinOptions::default()).unwrap();
    let byes: Vec<(u32, i64)> = schedule.byes.iter().map(|b| (b.round, b.player.0)).collect();
    // From FIDE_6: 1-6, 6-4, 2-6, 6-5, 3-6.
    assert_eq!(byes, vec![(1, 1), (2, 4), (3, 2), (4, 5), (5, 3)]);
}

#[test]
fn the_second_cycle_repeats_the_first_with_colours_swapped() {
    let options = RoundRobinOptions { cycles: Cycles::Double, ..Default::default() };
    let schedule = round_robin(&players(6), &options).unwrap();
    let first_cycle: Vec<_> = schedule.games.iter().filter(|g| g.cycle == 1).collect();
    let second_cycle: Vec<_> = schedule.games.iter().filter(|g| g.cycle == 2).collect();
    assert_eq!(first_cycle.len(), second_cycle.len());
    for (a, b) in first_cycle.iter().zip(&second_cycle) {
        assert_eq!((a.first, a.second), (b.second, b.first));
        assert_eq!(a.round + 5, b.round);
    }
}

#[test]
fn the_fide_swap_exchanges_the_last_two_rounds_of_the_first_cycle_only() {
    let options = RoundRobinOptions {
        cycles: Cycles::Double,
        swap_last_two_rounds_of_first_cycle: true,
        ..Default::default()
    };
    let schedule = round_robin(&players(4), &options).unwrap();
    let round = |r: u32| -> Vec<(i64, i64)> {
        schedule.games.iter().filter(|g| g.round == r).map(|g| (g.first.0, g.second.0)).collect()
    };
    assert_eq!(round(2), vec![(2, 4), (3, 1)]);
    assert_eq!(round(3), vec![(4, 3), (1, 2)]);
    assert_eq!(round(4), vec![(4, 1), (3, 2)]);
}

#[test]
fn start_batches_follow_the_start_policy() {
    let together = round_robin(&players(6), &RoundRobinOptions::default()).unwrap();
    assert!(together.games.iter().all(|g| g.start_batch == 1));
    let by_round = RoundRobinOptions { start: StartPolicy::RoundByRound, ..Default::default() };
    let by_round = round_robin(&players(6), &by_round).unwrap();
    assert!(by_round.games.iter().all(|g| g.start_batch == g.round));
    assert_eq!(by_round.games.iter().map(|g| g.start_batch).max(), Some(5));
}

#[test]
fn bad_entries_are_refused_with_typed_errors() {
    let options = RoundRobinOptions::default();
    assert_eq!(round_robin(&players(1), &options), Err(PairingError::TooFewPlayers { count: 1 }));
    assert_eq!(round_robin(&[], &options), Err(PairingError::TooFewPlayers { count: 0 }));
    assert_eq!(
        round_robin(&[PlayerId(3), PlayerId(4), PlayerId(3)], &options),
        Err(PairingError::DuplicatePlayer(PlayerId(3)))
    );
    assert_eq!(berger_table(1001), Err(PairingError::TooManyPlayers { count: 1001 }));
}
