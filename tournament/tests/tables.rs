//! Crosstables and Grand Prix tables: golden HTML, CSV, JSON.

mod common;

use std::path::PathBuf;

use common::games;
use tavoliere_tournament::grand_prix::{
    compute_grand_prix, GpFormula, GpTieBreak, GrandPrixConfig, SectionResults,
};
use tavoliere_tournament::standings::{compute_standings, StandingsConfig, TieBreak};
use tavoliere_tournament::tables::csv::{crosstable_csv, grand_prix_csv};
use tavoliere_tournament::tables::html::{crosstable_html, grand_prix_html};
use tavoliere_tournament::tables::{
    build_crosstable, build_grand_prix_table, CellMark, Crosstable, GrandPrixTable, Language, PlayerInfo,
    SectionInfo,
};
use tavoliere_tournament::{Bye, GameId, GameRecord, GameResult, PlayerId, Points, Scoring, SectionId};

/// Compares with `tests/golden/<name>`; `UPDATE_GOLDEN=1` rewrites the file instead.
fn assert_golden(name: &str, actual: &str) {
    let path: PathBuf = [env!("CARGO_MANIFEST_DIR"), "tests", "golden", name].iter().collect();
    if std::env::var_os("UPDATE_GOLDEN").is_some() {
        std::fs::write(&path, actual).unwrap();
    }
    let expected = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("{}: {e} (run with UPDATE_GOLDEN=1 to create it)", path.display()));
    assert_eq!(actual, expected, "{name} differs from the golden file");
}

fn names() -> Vec<PlayerInfo> {
    vec![
        PlayerInfo { id: PlayerId(11), name: "Anna \"la Rossa\" <Bianchi>".into(), rating: None },
        PlayerInfo { id: PlayerId(12), name: "Bruno & Figli".into(), rating: None },
        PlayerInfo { id: PlayerId(13), name: "Carla D'Este".into(), rating: None },
    ]
}

/// A double round-robin of three, as the Berger table for 4 with 4 the bye, two cycles.
/// Anna: 1-0 and ½ against Bruno, 1-0 and pending against Carla: 2½ from 3, SB 1½+¾+1.
/// Bruno: ½ and 0 against Anna, 1-0 and 0-1 against Carla: 1½ from 4.
/// Carla: 0 against Anna (one pending), 0-1 and 1-0 against Bruno: 1 from 3.
fn double_round_robin() -> Vec<GameRecord> {
    let result = |game, round, first, second, result| GameRecord {
        game: GameId(game),
        round,
        first: PlayerId(first),
        second: PlayerId(second),
        result,
    };
    vec![
        result(101, 1, 12, 13, GameResult::FirstWins),
        result(102, 2, 11, 12, GameResult::FirstWins),
        result(103, 3, 13, 11, GameResult::SecondWins),
        result(104, 4, 13, 12, GameResult::FirstWins),
        result(105, 5, 12, 11, GameResult::Draw),
        result(106, 6, 11, 13, GameResult::Pending),
    ]
}

fn crosstable() -> Crosstable {
    let config = StandingsConfig {
        scoring: Scoring::default(),
        tie_breaks: vec![TieBreak::SonnebornBerger, TieBreak::Wins],
        ..Default::default()
    };
    build_crosstable("Xiangqi — Girone A <2026>", &names(), &double_round_robin(), &[], &config).unwrap()
}

#[test]
fn the_crosstable_has_both_games_of_a_double_round_robin_in_each_cell() {
    let table = crosstable();
    let order: Vec<i64> = table.rows.iter().map(|r| r.player.id.0).collect();
    assert_eq!(order, vec![11, 12, 13]);
    let anna_vs_bruno = &table.rows[0].cells[1];
    let marks: Vec<CellMark> = anna_vs_bruno.games.iter().map(|g| g.mark).collect();
    assert_eq!(marks, vec![CellMark::Win, CellMark::Draw]);
    assert_eq!(anna_vs_bruno.games[0].game, GameId(102));
    assert!(anna_vs_bruno.games[0].row_is_first);
    assert!(!anna_vs_bruno.games[1].row_is_first);
    let bruno_vs_anna: Vec<CellMark> = table.rows[1].cells[0].games.iter().map(|g| g.mark).collect();
    assert_eq!(bruno_vs_anna, vec![CellMark::Loss, CellMark::Draw]);
    assert!(table.rows[0].cells[0].own && table.rows[0].cells[0].games.is_empty());
    assert_eq!(table.rows[2].cells[0].games[1].mark, CellMark::Pending);
}

#[test]
fn crosstable_html_matches_the_golden_file() {
    let html = crosstable_html(&crosstable(), Language::It);
    assert!(!html.contains("<Bianchi>"), "names are escaped");
    assert!(html.contains("href=\"/games/102\""));
    assert_golden("crosstable_it.html", &html);
}

#[test]
fn crosstable_html_in_english_uses_the_english_catalogue() {
    let html = crosstable_html(&crosstable(), Language::En);
    assert!(html.contains("<th scope=\"col\">Player</th>"));
    assert!(html.contains("title=\"Game 102, round 2\""));
    assert!(!html.contains("Giocatore"));
}

#[test]
fn crosstable_csv_quotes_and_defuses_names() {
    let csv = crosstable_csv(&crosstable(), Language::En);
    let expected = "Pl.,No.,Player,1,2,3,Points,Games,SB,W\r\n\
        1,1,\"Anna \"\"la Rossa\"\" <Bianchi>\",,1 ½,1 *,2.5,3,3.25,2\r\n\
        2,2,Bruno & Figli,0 ½,,1 0,1.5,4,2.25,1\r\n\
        3,3,Carla D'Este,0 *,0 1,,1,3,1.5,1\r\n";
    assert_eq!(csv, expected);
}

#[test]
fn crosstable_json_round_trips_and_has_the_documented_shape() {
    let table = crosstable();
    let json = serde_json::to_value(&table).unwrap();
    assert_eq!(json["rows"][0]["player"]["id"], 11);
    assert_eq!(json["rows"][0]["points"], 2.5);
    assert_eq!(json["rows"][0]["place"]["first"], 1);
    assert_eq!(json["rows"][0]["cells"][1]["games"][1]["mark"], "draw");
    assert_eq!(json["rows"][0]["cells"][1]["games"][1]["game"], 105);
    assert_eq!(json["tie_breaks"][0], "sonneborn-berger");
    let back: Crosstable = serde_json::from_value(json).unwrap();
    assert_eq!(back, table);
}

/// A Swiss section of three: 11-12 1-0 in round 1 (13 has the bye), 13-11 ½-½ in round 2
/// (12 has the bye).
fn swiss_with_byes() -> Crosstable {
    let games = vec![
        GameRecord {
            game: GameId(201),
            round: 1,
            first: PlayerId(11),
            second: PlayerId(12),
            result: GameResult::FirstWins,
        },
        GameRecord {
            game: GameId(202),
            round: 2,
            first: PlayerId(13),
            second: PlayerId(11),
            result: GameResult::Draw,
        },
    ];
    let byes = [Bye { round: 1, player: PlayerId(13) }, Bye { round: 2, player: PlayerId(12) }];
    let config = StandingsConfig {
        scoring: Scoring::default(),
        tie_breaks: vec![TieBreak::Buchholz],
        ..Default::default()
    };
    build_crosstable("Svizzero", &names(), &games, &byes, &config).unwrap()
}

#[test]
fn byes_appear_in_the_crosstable_rows_and_points() {
    let table = swiss_with_byes();
    // 11: 1 + ½ = 1½; 13: 1 (bye) + ½ = 1½; 12: 0 + 1 (bye) = 1.
    let rows: Vec<(i64, Points, Vec<u32>)> =
        table.rows.iter().map(|r| (r.player.id.0, r.points, r.byes.clone())).collect();
    assert_eq!(
        rows,
        vec![
            (11, Points::halves(3), vec![]),
            (13, Points::halves(3), vec![1]),
            (12, Points::whole(1), vec![2]),
        ]
    );
    assert_eq!(table.bye_points, Points::whole(1));
    let json = serde_json::to_value(&table).unwrap();
    assert_eq!(json["rows"][1]["byes"][0], 1);
    assert_eq!(json["bye_points"], 1.0);
}

#[test]
fn byes_get_their_own_column_in_csv_and_html_only_when_there_are_byes() {
    let table = swiss_with_byes();
    let csv = crosstable_csv(&table, Language::En);
    let expected = "Pl.,No.,Player,1,2,3,Bye (round),Points,Games,Bu\r\n\
        1,1,\"Anna \"\"la Rossa\"\" <Bianchi>\",,½,1,,1.5,2,2.5\r\n\
        2,2,Carla D'Este,½,,,1,1.5,1,1.5\r\n\
        3,3,Bruno & Figli,0,,,2,1,1,1.5\r\n";
    assert_eq!(csv, expected);
    let html = crosstable_html(&table, Language::It);
    assert!(html.contains("<th scope=\"col\" class=\"bye\">Riposo (turno)</th>"));
    assert!(html.contains("<td class=\"bye\" title=\"Punti: 1\">2</td>"));
    // No byes, no column (the golden crosstable has none).
    assert!(!crosstable_csv(&crosstable(), Language::En).contains("Bye"));
    assert!(!crosstable_html(&crosstable(), Language::En).contains("class=\"bye\""));
}

fn grand_prix_table() -> GrandPrixTable {
    let config = StandingsConfig { scoring: Scoring::default(), tie_breaks: vec![], ..Default::default() };
    let ids: Vec<PlayerId> = names().iter().map(|p| p.id).collect();
    let first = compute_standings(&ids, &double_round_robin(), &[], &config).unwrap();
    let second_sheet = games("1 2 1-0\n2 3 =-=\n3 1 =-=");
    let renumbered: Vec<GameRecord> = second_sheet
        .into_iter()
        .map(|g| GameRecord { first: PlayerId(g.first.0 + 10), second: PlayerId(g.second.0 + 10), ..g })
        .collect();
    let second = compute_standings(&ids, &renumbered, &[], &config).unwrap();
    let sections = [
        SectionResults::from_standings(SectionId(1), &first),
        SectionResults::from_standings(SectionId(2), &second),
    ];
    let gp_config = GrandPrixConfig {
        formula: GpFormula::placement_25_18_15(),
        best_sections: Some(1),
        tie_breaks: vec![GpTieBreak::SectionsPlayed, GpTieBreak::TotalPoints],
    };
    let rows = compute_grand_prix(&sections, &gp_config).unwrap();
    let columns = [
        SectionInfo { id: SectionId(1), name: "Xiangqi A".into() },
        SectionInfo { id: SectionId(2), name: "Shogi <B>".into() },
    ];
    build_grand_prix_table("Gran Premio AISE 2026", &columns, &names(), &gp_config.tie_breaks, &rows)
}

#[test]
fn grand_prix_html_matches_the_golden_file() {
    let table = grand_prix_table();
    // Second section: Anna 1½, Carla 1, Bruno ½. Anna: 1st (25) and 1st (25), the best one
    // counts: 25. Bruno: 2nd (18) and 3rd (15): 18. Carla: 3rd (15) and 2nd (18): 18, level
    // with Bruno on sections (2) and total points (2): they share 2nd-3rd.
    let scores: Vec<(i64, String)> =
        table.rows.iter().map(|r| (r.player.id.0, r.score.to_table_string())).collect();
    assert_eq!(scores, vec![(11, "25".into()), (12, "18".into()), (13, "18".into())]);
    let html = grand_prix_html(&table, Language::En);
    assert!(html.contains("Shogi &lt;B&gt;"));
    assert_golden("grand_prix_en.html", &html);
}

#[test]
fn grand_prix_csv_marks_values_outside_the_best_n() {
    let csv = grand_prix_csv(&grand_prix_table(), Language::It);
    let expected = "Pos.,Giocatore,Xiangqi A,Shogi <B>,Punti GP,Gir.,Pt.\r\n\
        1,\"Anna \"\"la Rossa\"\" <Bianchi>\",25,(25),25,2,4\r\n\
        2-3,Bruno & Figli,18,(15),18,2,2\r\n\
        2-3,Carla D'Este,(15),18,18,2,2\r\n";
    assert_eq!(csv, expected);
}

#[test]
fn grand_prix_json_round_trips() {
    let table = grand_prix_table();
    let json = serde_json::to_string(&table).unwrap();
    let back: GrandPrixTable = serde_json::from_str(&json).unwrap();
    assert_eq!(back, table);
}
