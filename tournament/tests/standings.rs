//! Standings and tie-breaks on hand-computed examples.

mod common;

use common::{games, players};
use tavoliere_tournament::standings::{
    compute_standings, Place, Standing, StandingsConfig, StandingsError, TieBreak,
};
use tavoliere_tournament::withdrawal::{apply_withdrawal, ResultChange, WithdrawalRule};
use tavoliere_tournament::{Bye, ByePoints, GameId, GameRecord, GameResult, PlayerId, Points, Scoring};

/// Four players, one cycle. By hand (1/½/0):
/// A(1) 2½, B(2) 1½, C(3) 1½, D(4) ½.
/// Sonneborn-Berger: A 1½+¾+½ = 2¾, B 1½+¼ = 1¾, C 1¼+½ = 1¾, D ¾.
/// B beat C. C won its game against D with the second move.
const FOUR: &str = "
    1 2 1-0
    3 1 =-=
    1 4 1-0
    2 3 1-0
    4 2 =-=
    4 3 0-1";

fn standings(sheet: &str, count: i64, tie_breaks: &[TieBreak]) -> Vec<Standing> {
    let config = StandingsConfig {
        scoring: Scoring::default(),
        tie_breaks: tie_breaks.to_vec(),
        ..Default::default()
    };
    compute_standings(&players(count), &games(sheet), &[], &config).unwrap()
}

/// `(player, place)` in table order.
fn places(table: &[Standing]) -> Vec<(i64, String)> {
    table.iter().map(|s| (s.player.0, s.place.to_string())).collect()
}

fn value(table: &[Standing], player: i64, slot: usize) -> Option<Points> {
    table.iter().find(|s| s.player == PlayerId(player)).unwrap().tie_breaks[slot]
}

fn p(text: &str) -> Points {
    let halves = if let Some(whole) = text.strip_suffix('½') {
        whole.parse::<i64>().unwrap_or(0) * 2 + 1
    } else {
        text.parse::<i64>().unwrap() * 2
    };
    Points::halves(halves)
}

#[test]
fn points_and_every_absolute_tie_break_match_the_hand_computation() {
    let order = [
        TieBreak::GamesPlayed,
        TieBreak::SonnebornBerger,
        TieBreak::Wins,
        TieBreak::WinsWithSecond,
        TieBreak::Buchholz,
        TieBreak::Koya,
    ];
    let table = standings(FOUR, 4, &order);
    let points: Vec<(i64, Points)> = table.iter().map(|s| (s.player.0, s.points)).collect();
    assert_eq!(points[0], (1, p("2½")));
    assert_eq!(points[3], (4, p("½")));
    for (player, games, sb, wins, second_wins, buchholz, koya) in [
        (1, "3", Points::from_milli(2750), "2", "0", "3½", "1½"),
        (2, "3", Points::from_milli(1750), "1", "0", "4½", "1"),
        (3, "3", Points::from_milli(1750), "1", "1", "4½", "½"),
        (4, "3", Points::from_milli(750), "0", "0", "5½", "½"),
    ] {
        assert_eq!(value(&table, player, 0), Some(p(games)), "games played of {player}");
        assert_eq!(value(&table, player, 1), Some(sb), "Sonneborn-Berger of {player}");
        assert_eq!(value(&table, player, 2), Some(p(wins)), "wins of {player}");
        assert_eq!(value(&table, player, 3), Some(p(second_wins)), "second-player wins of {player}");
        assert_eq!(value(&table, player, 4), Some(p(buchholz)), "Buchholz of {player}");
        assert_eq!(value(&table, player, 5), Some(p(koya)), "Koya of {player}");
    }
}

#[test]
fn the_order_of_tie_breaks_decides_who_is_second() {
    // Sonneborn-Berger ties B and C; the direct encounter (B beat C) decides.
    let sb_then_de = standings(FOUR, 4, &[TieBreak::SonnebornBerger, TieBreak::DirectEncounter]);
    assert_eq!(places(&sb_then_de), [(1, "1"), (2, "2"), (3, "3"), (4, "4")].map(|(p, s)| (p, s.into())));
    assert_eq!(value(&sb_then_de, 2, 1), Some(p("1")));
    assert_eq!(value(&sb_then_de, 3, 1), Some(p("0")));
    assert_eq!(value(&sb_then_de, 1, 1), None, "direct encounter is only computed for tied groups");
    // C's win with the second move puts C first when that criterion comes first.
    let second_first = standings(FOUR, 4, &[TieBreak::WinsWithSecond, TieBreak::DirectEncounter]);
    assert_eq!(places(&second_first)[1..3], [(3, "2".into()), (2, "3".into())]);
    // Koya: B scored 1 against the 50% players, C ½.
    let koya = standings(FOUR, 4, &[TieBreak::Koya]);
    assert_eq!(places(&koya)[1].0, 2);
    // Buchholz cannot separate them: a shared place.
    let buchholz = standings(FOUR, 4, &[TieBreak::Buchholz]);
    assert_eq!(places(&buchholz)[1..3], [(2, "2-3".into()), (3, "2-3".into())]);
}

/// Seven players. P(1), Q(2), R(3) beat each other in a cycle (P>Q>R>P) and all finish on
/// 3 points with a Sonneborn-Berger of 9; they differ only in wins (P 3, Q 2, R 1).
/// X1(4) 3½ and X2(5) 3½ drew (SB 10¼ and 9¾); X3(6) 2½ beat X4(7) 2½.
/// P: 0-1 X1, 1-0 X2, 0-1 X3, 1-0 X4. Q: ½ X1, ½ X2, 1-0 X3, 0-1 X4. R: ½ with every X.
const SEVEN: &str = "
    1 2 1-0
    2 3 1-0
    3 1 1-0
    1 4 0-1
    1 5 1-0
    1 6 0-1
    1 7 1-0
    2 4 =-=
    2 5 =-=
    2 6 1-0
    2 7 0-1
    3 4 =-=
    3 5 =-=
    3 6 =-=
    3 7 =-=
    4 5 =-=
    4 6 1-0
    4 7 0-1
    5 6 1-0
    5 7 1-0
    6 7 1-0";

#[test]
fn a_three_way_tie_is_broken_only_by_the_third_criterion() {
    let order = [TieBreak::DirectEncounter, TieBreak::SonnebornBerger, TieBreak::Wins];
    let table = standings(SEVEN, 7, &order);
    let expected = [(4, "1"), (5, "2"), (1, "3"), (2, "4"), (3, "5"), (6, "6"), (7, "7")];
    assert_eq!(places(&table), expected.map(|(p, s)| (p, s.into())));
    for player in 1..=3 {
        let standing = table.iter().find(|s| s.player == PlayerId(player)).unwrap();
        assert_eq!(standing.points, p("3"));
        assert_eq!(standing.tie_breaks[0], Some(p("1")), "direct encounter of {player} ties");
        assert_eq!(standing.tie_breaks[1], Some(p("9")), "Sonneborn-Berger of {player} ties");
    }
    assert_eq!(value(&table, 1, 2), Some(p("3")));
    assert_eq!(value(&table, 2, 2), Some(p("2")));
    assert_eq!(value(&table, 3, 2), Some(p("1")));
    assert_eq!(value(&table, 4, 1), Some(Points::from_milli(10_250)));
    assert_eq!(value(&table, 5, 1), Some(Points::from_milli(9_750)));
}

#[test]
fn players_still_tied_after_every_criterion_share_the_place() {
    let table = standings(SEVEN, 7, &[TieBreak::DirectEncounter, TieBreak::SonnebornBerger]);
    let expected = [(4, "1"), (5, "2"), (1, "3-5"), (2, "3-5"), (3, "3-5"), (6, "6"), (7, "7")];
    assert_eq!(places(&table), expected.map(|(p, s)| (p, s.into())));
    assert_eq!(table[2].place, Place { first: 3, last: 5 });
    let no_tie_breaks = standings(SEVEN, 7, &[]);
    let expected = [(4, "1-2"), (5, "1-2"), (1, "3-5"), (2, "3-5"), (3, "3-5"), (6, "6-7"), (7, "6-7")];
    assert_eq!(places(&no_tie_breaks), expected.map(|(p, s)| (p, s.into())));
}

#[test]
fn direct_encounter_leaves_the_tie_when_not_all_tied_players_have_met() {
    // A and B both 1 point; their game is still pending.
    let sheet = "
        1 3 1-0
        4 2 0-1
        1 2 *";
    let table = standings(sheet, 4, &[TieBreak::DirectEncounter]);
    assert_eq!(places(&table)[..2], [(1, "1-2".into()), (2, "1-2".into())]);
    assert_eq!(value(&table, 1, 0), None);
}

#[test]
fn fewer_games_played_ranks_higher_on_equal_points() {
    // A: 1 point from 1 game; C: 1 point from 2 draws.
    let sheet = "
        1 2 1-0
        3 4 =-=
        3 2 =-=
        1 3 *";
    let table = standings(sheet, 4, &[TieBreak::GamesPlayed]);
    assert_eq!(places(&table)[..2], [(1, "1".into()), (3, "2".into())]);
    assert_eq!(table[0].games_counted, 1);
    assert_eq!(table[0].games_scheduled, 2);
}

#[test]
fn three_two_one_scoring_and_forfeits() {
    let sheet = "
        1 2 1-0
        2 3 =-=
        3 1 -+
        4 1 --
        4 2 +-
        3 4 annulled";
    let config = StandingsConfig {
        scoring: Scoring::three_two_one(),
        tie_breaks: vec![TieBreak::Wins],
        ..Default::default()
    };
    let table = compute_standings(&players(4), &games(sheet), &[], &config).unwrap();
    let points = |player: i64| table.iter().find(|s| s.player == PlayerId(player)).unwrap().points;
    assert_eq!(points(1), p("6"), "win 3 + forfeit win 3 + double forfeit 0");
    assert_eq!(points(2), p("3"), "loss 1 + draw 2 + forfeit loss 0");
    assert_eq!(points(3), p("2"), "draw 2 + forfeit loss 0");
    assert_eq!(points(4), p("3"), "double forfeit 0 + forfeit win 3");
    let four = table.iter().find(|s| s.player == PlayerId(4)).unwrap();
    assert_eq!((four.record.forfeit_wins, four.record.forfeit_losses), (1, 1));
    assert_eq!(four.games_scheduled, 2, "the annulled game is not in the schedule");
    // 2 and 4 tie on 3 points; 4 has a (forfeit) win, 2 has none.
    assert_eq!(places(&table)[1..3], [(4, "2".into()), (2, "3".into())]);
}

#[test]
fn bad_input_is_a_typed_error() {
    let config = StandingsConfig::default();
    let two = players(2);
    assert_eq!(
        compute_standings(&two, &games("1 3 1-0"), &[], &config),
        Err(StandingsError::UnknownPlayer { game: GameId(1), player: PlayerId(3) })
    );
    assert_eq!(
        compute_standings(&two, &games("2 2 1-0"), &[], &config),
        Err(StandingsError::PlayerAgainstThemself { game: GameId(1) })
    );
    assert_eq!(
        compute_standings(&[PlayerId(1), PlayerId(1)], &[], &[], &config),
        Err(StandingsError::DuplicatePlayer(PlayerId(1)))
    );
}

/// Three players, three Swiss rounds, a bye each:
/// round 1: 1-2 1-0, 3 bye; round 2: 3-1 ½-½, 2 bye; round 3: 2-3 0-1, 1 bye.
fn three_rounds_with_byes() -> (Vec<GameRecord>, Vec<Bye>) {
    let mut sheet = games("1 2 1-0\n3 1 =-=\n2 3 0-1");
    for (round, game) in sheet.iter_mut().enumerate() {
        game.round = round as u32 + 1;
    }
    let byes = [(1, 3), (2, 2), (3, 1)].map(|(round, player)| Bye { round, player: PlayerId(player) });
    (sheet, byes.to_vec())
}

fn with_byes(bye_points: ByePoints, scoring: Scoring) -> Vec<Standing> {
    let (sheet, byes) = three_rounds_with_byes();
    let config = StandingsConfig {
        scoring,
        tie_breaks: vec![TieBreak::Buchholz, TieBreak::GamesPlayed, TieBreak::Wins, TieBreak::Koya],
        bye_points,
    };
    compute_standings(&players(3), &sheet, &byes, &config).unwrap()
}

fn line(table: &[Standing], player: i64) -> &Standing {
    table.iter().find(|s| s.player == PlayerId(player)).unwrap()
}

#[test]
fn a_bye_scores_a_win_by_default() {
    // By hand: 1 = 1 + ½ + 1 (bye) = 2½; 2 = 0 + 1 (bye) + 0 = 1; 3 = 1 (bye) + ½ + 1 = 2½.
    let table = with_byes(ByePoints::default(), Scoring::default());
    assert_eq!(line(&table, 1).points, p("2½"));
    assert_eq!(line(&table, 2).points, p("1"));
    assert_eq!(line(&table, 3).points, p("2½"));
    assert_eq!(line(&table, 1).record.byes, 1);
    // The bye is a round, not a game.
    assert_eq!(line(&table, 1).games_counted, 2);
    assert_eq!(line(&table, 1).max_points_so_far, p("3"), "two games and a bye worth 1");
    // Under 3/2/1/0 a bye is worth a win's 3: 1 = 3 + 2 + 3.
    let table = with_byes(ByePoints::default(), Scoring::three_two_one());
    assert_eq!(line(&table, 1).points, p("8"));
}

#[test]
fn a_section_may_score_a_bye_as_a_draw_or_a_fixed_value() {
    let table = with_byes(ByePoints::Draw, Scoring::default());
    assert_eq!(line(&table, 1).points, p("2"));
    assert_eq!(line(&table, 2).points, p("½"));
    let table = with_byes(ByePoints::Fixed(Points::ZERO), Scoring::default());
    assert_eq!(line(&table, 3).points, p("1½"));
    assert_eq!(line(&table, 3).max_points_so_far, p("2"), "a bye worth nothing adds nothing to the maximum");
}

#[test]
fn a_bye_counts_in_the_opponents_buchholz_but_not_in_the_receivers_own() {
    let table = with_byes(ByePoints::default(), Scoring::default());
    // Buchholz: 1 met 2 (1) and 3 (2½) = 3½; 2 met 1 and 3 = 5; 3 met 1 and 2 = 3½. Had
    // the bye counted as an opponent (of 0 points, or of the receiver's own), these differ.
    assert_eq!(line(&table, 1).tie_breaks[0], Some(p("3½")));
    assert_eq!(line(&table, 2).tie_breaks[0], Some(p("5")));
    assert_eq!(line(&table, 3).tie_breaks[0], Some(p("3½")));
    // Games played and wins leave the bye out: 3 won one game.
    assert_eq!(line(&table, 3).tie_breaks[1], Some(p("2")));
    assert_eq!(line(&table, 3).tie_breaks[2], Some(p("1")));
    // Koya: the 50% mark of each opponent counts its bye: 2 has 1 of 3, below half, so
    // 3's win over 2 does not count; 1 has 2½ of 3: 3's draw counts ½.
    assert_eq!(line(&table, 3).tie_breaks[3], Some(p("½")));
}

#[test]
fn a_bye_of_a_player_not_entered_is_a_typed_error() {
    let byes = [Bye { round: 2, player: PlayerId(9) }];
    assert_eq!(
        compute_standings(&players(2), &[], &byes, &StandingsConfig::default()),
        Err(StandingsError::UnknownByePlayer { round: 2, player: PlayerId(9) })
    );
}

/// Player 1 has six games: `finished` of them finished, the rest pending.
fn six_games_of_player_one(finished: usize) -> Vec<tavoliere_tournament::GameRecord> {
    let lines: Vec<String> = (2..=7)
        .map(|opponent| {
            let result = if opponent - 2 < finished as i64 { "=-=" } else { "*" };
            if opponent % 2 == 0 {
                format!("1 {opponent} {result}")
            } else {
                format!("{opponent} 1 {result}")
            }
        })
        .collect();
    games(&lines.join("\n"))
}

#[test]
fn withdrawal_forfeits_the_unplayed_games_to_the_opponents() {
    let sheet = six_games_of_player_one(2);
    let changes = apply_withdrawal(PlayerId(1), &sheet, WithdrawalRule::ForfeitUnplayed);
    assert_eq!(
        changes,
        vec![
            ResultChange { game: GameId(3), from: GameResult::Pending, to: GameResult::ForfeitSecondWins },
            ResultChange { game: GameId(4), from: GameResult::Pending, to: GameResult::ForfeitFirstWins },
            ResultChange { game: GameId(5), from: GameResult::Pending, to: GameResult::ForfeitSecondWins },
            ResultChange { game: GameId(6), from: GameResult::Pending, to: GameResult::ForfeitFirstWins },
        ]
    );
}

#[test]
fn withdrawal_below_half_played_annuls_every_game_of_the_player() {
    let sheet = six_games_of_player_one(2);
    let changes = apply_withdrawal(PlayerId(1), &sheet, WithdrawalRule::AnnulIfFewerThanHalfPlayed);
    assert_eq!(changes.len(), 6);
    assert!(changes.iter().all(|c| c.to == GameResult::Annulled));
    assert_eq!(changes[0].from, GameResult::Draw);
    // Exactly half finished is not "fewer than half": forfeits.
    let half = six_games_of_player_one(3);
    let changes = apply_withdrawal(PlayerId(1), &half, WithdrawalRule::AnnulIfFewerThanHalfPlayed);
    assert_eq!(changes.len(), 3);
    assert!(changes.iter().all(|c| c.to != GameResult::Annulled && c.from == GameResult::Pending));
    // Other players' games are never touched.
    assert!(apply_withdrawal(PlayerId(9), &half, WithdrawalRule::ForfeitUnplayed).is_empty());
}
