//! The TRF16 export read back by the crate's own reader: every game, bye, colour and
//! result survives, the points column is in 1 / ½ / 0 with an `XXS` line for another
//! scoring, and bbpPairings' published tournament (issue_7) goes through export and
//! import unchanged and still pairs its last round as bbpPairings did.

mod common;

use std::collections::HashSet;

use common::{bbppairings_fixture, players, result};
use tavoliere_tournament::swiss::{pair_swiss_round, SwissBye, SwissOptions};
use tavoliere_tournament::tables::PlayerInfo;
use tavoliere_tournament::trf::{trf_export, trf_import};
use tavoliere_tournament::{GameId, GameRecord, GameResult, PlayerId, Points, Scoring};

fn named(count: i64) -> Vec<PlayerInfo> {
    (1..=count).map(|i| PlayerInfo { id: PlayerId(i), name: format!("Player {i}"), rating: None }).collect()
}

/// The games without their ids, in a comparable order.
fn sheet(games: &[GameRecord]) -> Vec<(u32, i64, i64, GameResult)> {
    let mut sheet: Vec<_> = games.iter().map(|g| (g.round, g.first.0, g.second.0, g.result)).collect();
    sheet.sort_by_key(|&(round, first, second, _)| (round, first, second));
    sheet
}

fn game(round: u32, first: i64, second: i64, outcome: &str) -> GameRecord {
    GameRecord {
        game: GameId(0),
        round,
        first: PlayerId(first),
        second: PlayerId(second),
        result: result(outcome),
    }
}

#[test]
fn every_result_a_bye_and_the_colours_read_back() {
    let games = vec![
        game(1, 1, 2, "1-0"),
        game(1, 3, 4, "=-="),
        game(2, 2, 3, "+-"),
        game(2, 4, 1, "-+"),
        game(3, 1, 3, "--"),
        game(3, 4, 2, "*"),
        game(3, 5, 6, "0-1"),
    ];
    let byes = [SwissBye { round: 1, player: PlayerId(5) }, SwissBye { round: 2, player: PlayerId(6) }];
    let options = SwissOptions { initial_first: false, ..Default::default() };
    let text = trf_export("Coppa d'inverno", &named(6), &games, &byes, &options, Some(5)).unwrap();
    assert!(!text.contains("XXS"), "1 / ½ / 0 needs no XXS line:\n{text}");
    let read = trf_import(&text).unwrap();
    assert_eq!(read.title, "Coppa d'inverno");
    assert_eq!(read.players, named(6));
    assert_eq!(sheet(&read.games), sheet(&games));
    assert_eq!(read.byes, byes);
    assert_eq!((read.planned_rounds, read.initial_first), (Some(5), false));
    // 1: win, forfeit win, double forfeit; 2: loss, forfeit win, pending; 5: bye, loss...
    let halves: Vec<i64> = read.points.iter().map(|p| p.milli() / 500).collect();
    assert_eq!(halves, [4, 2, 1, 1, 2, 4]);
}

#[test]
fn ratings_go_in_the_rating_field_and_read_back() {
    let mut players = named(3);
    players[0].rating = Some(1662);
    players[2].rating = Some(987);
    let games = vec![game(1, 1, 2, "1-0")];
    let text = trf_export("T", &players, &games, &[], &SwissOptions::default(), None).unwrap();
    let line = |n: i64| text.lines().find(|l| l.starts_with(&format!("001 {n:>4}"))).unwrap().to_owned();
    assert_eq!(&line(1)[48..52], "1662", "TRF16 columns 49-52");
    assert_eq!(&line(3)[48..52], " 987");
    assert_eq!(line(2).get(48..52).map(str::trim).unwrap_or(""), "", "no rating, an empty field");
    assert_eq!(trf_import(&text).unwrap().players, players);
}

#[test]
fn another_scoring_goes_in_the_xxs_line_and_the_points_stay_one_half_zero() {
    let games = vec![game(1, 1, 2, "1-0"), game(1, 3, 4, "=-="), game(2, 2, 3, "1-0")];
    let byes = [SwissBye { round: 2, player: PlayerId(4) }];
    let three = Scoring::three_two_one();
    let options = SwissOptions { scoring: three, bye_points: three.win, ..Default::default() };
    let text = trf_export("T", &named(4), &games, &byes, &options, None).unwrap();
    assert!(text.contains("XXS WW=3 BW=3 WD=2 BD=2 WL=1 BL=1 FW=3 FL=0 PAB=3\n"), "{text}");
    let line = |n: i64| text.lines().find(|l| l.starts_with(&format!("001 {n:>4}"))).unwrap().to_owned();
    assert_eq!(&line(1)[80..84], " 1.0", "a win is 1 in TRF16, not 3");
    assert_eq!(&line(4)[80..84], " 1.5", "a draw and the bye: ½ + 1");
    let read = trf_import(&text).unwrap();
    assert_eq!(read.scoring, three, "the XXS line gives the section's scoring back");
    assert_eq!(read.bye_points, Points::whole(3));
    assert_eq!(sheet(&read.games), sheet(&games));
}

#[test]
fn bbppairings_issue_7_goes_through_export_and_import_and_pairs_the_same_last_round() {
    let text = include_str!("data/bbppairings_issue_7.txt");
    let (games, expected) = bbppairings_fixture(text);
    let options = SwissOptions { rounds: Some(15), ..Default::default() };
    let trf = trf_export("issue_7", &named(60), &games, &[], &options, Some(15)).unwrap();
    let read = trf_import(&trf).unwrap();
    assert_eq!(read.games.len(), 420);
    assert_eq!(sheet(&read.games), sheet(&games), "every game, colour and result once");
    // The points column agrees with the games (bbpPairings checks the same).
    for (player, points) in read.players.iter().zip(&read.points) {
        let total: Points = games
            .iter()
            .filter_map(|g| {
                let first = g.first == player.id;
                (first || g.second == player.id).then(|| g.result.outcome_for(first)).flatten()
            })
            .map(|o| Scoring::default().points(o))
            .sum();
        assert_eq!(*points, total, "{}", player.name);
    }
    let round = pair_swiss_round(&players(60), &read.games, &read.byes, &options).unwrap();
    let ours: HashSet<(i64, i64)> = round.pairings.iter().map(|p| (p.first.0, p.second.0)).collect();
    let theirs: HashSet<(i64, i64)> = expected.into_iter().collect();
    assert_eq!(ours, theirs, "round 15 as bbpPairings paired it, from the TRF read back");
}
