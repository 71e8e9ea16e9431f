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
        game(3, 5, 6, "0-1"),
    ];
    let byes = [SwissBye { round: 1, player: PlayerId(5) }, SwissBye { round: 2, player: PlayerId(6) }];
    let options = SwissOptions { initial_first: false, ..Default::default() };
    let text = trf_export("Coppa d'inverno", &named(6), &[], &games, &byes, &options, Some(5)).unwrap();
    assert!(!text.contains("XXS"), "1 / ½ / 0 needs no XXS line:\n{text}");
    let read = trf_import(&text).unwrap();
    assert_eq!(read.title, "Coppa d'inverno");
    assert_eq!(read.players, named(6));
    assert_eq!(sheet(&read.games), sheet(&games));
    assert_eq!(read.byes, byes);
    assert_eq!((read.planned_rounds, read.initial_first), (Some(5), false));
    // A round without a game or a bye (2 and 4 in round 3, 5 in round 2, 6 in round 1): the
    // absence code.
    let absent = |round, player| SwissBye { round, player: PlayerId(player) };
    assert_eq!(read.absences, [absent(3, 2), absent(3, 4), absent(2, 5), absent(1, 6)]);
    // 1: win, forfeit win, double forfeit; 2: loss, forfeit win, absent; 5: bye, loss...
    let halves: Vec<i64> = read.points.iter().map(|p| p.milli() / 500).collect();
    assert_eq!(halves, [4, 2, 1, 1, 2, 4]);
}

/// Every round block of a `001` line as a pairing program reads it: an opponent with a
/// colour and a result, or `0000` with a code; never an opponent without a result.
fn blocks_are_complete(text: &str) -> bool {
    text.lines().filter(|l| l.starts_with("001")).all(|line| {
        let chars: Vec<char> = line.chars().collect();
        chars.get(91..).unwrap_or_default().chunks(10).all(|block| {
            let opponent: String = block.iter().take(4).collect();
            let result = block.get(7).copied().unwrap_or(' ');
            opponent.trim().is_empty() || result != ' '
        })
    })
}

#[test]
fn a_round_in_play_is_written_as_the_round_to_pair_with_its_games_as_comments() {
    let games = vec![game(1, 1, 2, "1-0"), game(1, 3, 4, "0-1"), game(2, 4, 1, "*"), game(2, 2, 3, "=-=")];
    let byes = [SwissBye { round: 1, player: PlayerId(5) }];
    // Player 5 withdrew after round 1: not in round 2's pairing.
    let text =
        trf_export("T", &named(5), &[PlayerId(5)], &games, &byes, &SwissOptions::default(), Some(4)).unwrap();
    assert!(blocks_are_complete(&text), "an unfinished game has no result to write:\n{text}");
    assert!(text.contains("### round 2 not finished: 4 w - 1 b in play\n"), "{text}");
    assert!(text.contains("### round 2 not finished: 2 w - 3 b 0.5-0.5\n"), "{text}");
    let read = trf_import(&text).unwrap();
    assert_eq!(read.round_to_pair(), 2, "the round in play is the one to pair");
    assert_eq!(sheet(&read.games), sheet(&games[..2]), "round 1's results only");
    let available: Vec<bool> = read.entries().iter().map(|e| e.available).collect();
    assert_eq!(available, [true, true, true, true, false], "5 is not in round 2");
    // Pairing the file again gives the round in play.
    let round = tavoliere_tournament::swiss::pair_swiss(
        &read.entries(),
        &read.games,
        &read.byes,
        &read.options(Default::default()),
    )
    .unwrap();
    let pairs: HashSet<(i64, i64)> = round.pairings.iter().map(|p| (p.first.0, p.second.0)).collect();
    assert_eq!(pairs, HashSet::from([(4, 1), (2, 3)]));
}

#[test]
fn a_withdrawn_player_carries_the_absence_code_in_the_round_to_pair() {
    let games = vec![game(1, 1, 2, "1-0"), game(1, 3, 4, "0-1")];
    let text =
        trf_export("T", &named(4), &[PlayerId(3)], &games, &[], &SwissOptions::default(), Some(3)).unwrap();
    let line = |n: i64| text.lines().find(|l| l.starts_with(&format!("001 {n:>4}"))).unwrap().to_owned();
    assert!(line(3).ends_with("0000 - Z"), "{text}");
    assert!(!line(1).contains('Z'), "{text}");
    let read = trf_import(&text).unwrap();
    assert_eq!(read.absences, [SwissBye { round: 2, player: PlayerId(3) }]);
    // The last round played: nothing more to pair, no absence code.
    let games = vec![game(1, 1, 2, "1-0"), game(1, 3, 4, "0-1")];
    let text =
        trf_export("T", &named(4), &[PlayerId(3)], &games, &[], &SwissOptions::default(), Some(1)).unwrap();
    assert!(!text.contains('Z'), "{text}");
}

#[test]
fn ratings_go_in_the_rating_field_and_read_back() {
    let mut players = named(3);
    players[0].rating = Some(1662);
    players[2].rating = Some(987);
    let games = vec![game(1, 1, 2, "1-0")];
    let text = trf_export("T", &players, &[], &games, &[], &SwissOptions::default(), None).unwrap();
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
    let text = trf_export("T", &named(4), &[], &games, &byes, &options, None).unwrap();
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
    // The expected pairing is bbpPairings 5.0.1's (2017 edition); player 1 had the second
    // move in round 1.
    let options = SwissOptions {
        rounds: Some(15),
        initial_first: false,
        edition: tavoliere_tournament::swiss::DutchEdition::Fide2017,
        ..Default::default()
    };
    let trf = trf_export("issue_7", &named(60), &[], &games, &[], &options, Some(15)).unwrap();
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
