//! Issue 15 §5: every record format read, nothing dropped silently. `replay` reads KIF
//! (UTF-8 and Shift_JIS, with or without BOM, CRLF, comments, variations, handicaps,
//! the `まで…` line), KI2, CSA, PGN and move lines, detected from the content; a token
//! that is no part of a record is an error naming its line, column and text.
//!
//! The records are real games: the lishogi games of `tests/data/records/` (source in
//! `shogi_records.rs`), written in KIF and KI2 by the project's writers and, for game 2,
//! by hand as Kifu for Windows writes them; the Liu Dahua Xiangqi games (source in
//! `xiangqi_records.rs`) in the FIX record style.

mod common;

use tavoliere_rules::notation::record::{split_games, Location};
use tavoliere_rules::notation::shogi::{game::BLACK_NAME, game::WHITE_NAME, ki2, kif, usi, GameRecord};
use tavoliere_rules::notation::xiangqi::{fix, iccs};
use tavoliere_rules::replay::{
    detect_format, replay_bytes, replay_text, GameReport, RecordFormat, ReplayOptions,
};
use tavoliere_rules::shogi::{Position, Variant as Board};
use tavoliere_rules::variant::Variant;
use tavoliere_rules::xiangqi;

fn lishogi_games() -> Vec<String> {
    let path = common::data_path("records/lishogi-usi-games.txt");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    text.lines().map(str::trim).filter(|l| !l.is_empty() && !l.starts_with('#')).map(str::to_owned).collect()
}

fn one(variant: Variant, text: &str) -> GameReport {
    let mut reports = replay_text(variant, text, &ReplayOptions::default());
    assert_eq!(reports.len(), 1, "{reports:?}");
    reports.remove(0)
}

fn record_of(usi_line: &str) -> GameRecord {
    let start = Position::startpos(Board::Standard);
    let mut pos = start.clone();
    let moves = usi_line
        .split_ascii_whitespace()
        .map(|text| {
            let m = usi::parse(&pos, text).unwrap();
            pos.play_unchecked(m);
            m
        })
        .collect();
    let headers =
        vec![(BLACK_NAME.to_owned(), "sente".to_owned()), (WHITE_NAME.to_owned(), "gote".to_owned())];
    GameRecord { start, moves, ending: None, headers }
}

#[test]
fn every_lishogi_game_replays_the_same_from_kif_and_ki2() {
    let games = lishogi_games();
    assert_eq!(games.len(), 504);
    for (index, line) in games.iter().enumerate() {
        let expected = one(Variant::Shogi, line);
        assert!(expected.error.is_none(), "game {index}: {expected:?}");
        let record = record_of(line);
        for (format, text) in
            [(RecordFormat::Kif, kif::write(&record)), (RecordFormat::Ki2, ki2::write(&record))]
        {
            assert_eq!(detect_format(&text), format, "game {index}");
            let mut report = one(Variant::Shogi, &text);
            // The written record names its players; the move line it came from does not.
            assert_eq!(report.players, [Some("sente".to_owned()), Some("gote".to_owned())], "game {index}");
            report.players.clone_from(&expected.players);
            assert_eq!(report, expected, "game {index} in {format:?}:\n{text}");
        }
    }
}

/// Game 2 of the lishogi file (`2g2f 3c3d 7g7f 8c8d 8h2b+ 3a2b 7i8h 8d8e 6i6h 8e8f
/// 6h7g 8f8g+ 8h8g B*5e`), written by hand as Kifu for Windows writes a record: header,
/// times, a comment, a variation after the main line, the resignation and the summary.
const GAME_2_KIF: &str = "# ---- Kifu for Windows V7 V7.70 棋譜ファイル ----
開始日時：2023/11/05 20:14:02
棋戦：lishogi
手合割：平手
先手：sente
後手：gote
手数----指手---------消費時間--
*対局前のコメント
   1 ２六歩(27)   ( 0:03/00:00:03)
   2 ３四歩(33)   ( 0:02/00:00:02)
   3 ７六歩(77)   ( 0:01/00:00:04)
   4 ８四歩(83)   ( 0:04/00:00:06)
   5 ２二角成(88) ( 0:05/00:00:09)
   6 同　銀(31)   ( 0:01/00:00:07)
   7 ８八銀(79)   ( 0:02/00:00:11)+
   8 ８五歩(84)   ( 0:03/00:00:10)
   9 ６八金(69)   ( 0:06/00:00:17)
*ここで▲７七銀なら互角
  10 ８六歩(85)   ( 0:02/00:00:12)
  11 ７七金(68)   ( 0:04/00:00:21)
  12 ８七歩成(86) ( 0:01/00:00:13)
  13 同　銀(88)   ( 0:02/00:00:23)
  14 ５五角打     ( 0:03/00:00:16)
  15 投了         ( 0:10/00:00:33)
まで14手で後手の勝ち

変化：7手
   7 ６八玉(59)   ( 0:05/00:00:14)
   8 ８五歩(84)   ( 0:01/00:00:08)
";

/// The same game by hand in KI2.
const GAME_2_KI2: &str = "開始日時：2023/11/05 20:14:02
手合割：平手
先手：sente
後手：gote

▲２六歩    △３四歩    ▲７六歩    △８四歩    ▲２二角成  △同　銀
▲８八銀    △８五歩    ▲６八金    △８六歩    ▲７七金    △８七歩成
*▲同銀の一手
▲同　銀    △５五角打
まで14手で後手の勝ち
";

#[test]
fn a_kif_by_hand_replays_in_utf8_with_bom_and_crlf_and_in_shift_jis() {
    let expected = one(Variant::Shogi, &lishogi_games()[1]);
    let crlf = GAME_2_KIF.replace('\n', "\r\n");
    let (shift_jis, _, unmappable) = encoding_rs::SHIFT_JIS.encode(&crlf);
    assert!(!unmappable);
    let with_bom = [b"\xEF\xBB\xBF".as_slice(), crlf.as_bytes()].concat();
    for (name, bytes) in [
        ("UTF-8", GAME_2_KIF.as_bytes().to_vec()),
        ("UTF-8, BOM, CRLF", with_bom),
        ("Shift_JIS, CRLF", shift_jis.into_owned()),
    ] {
        let reports = replay_bytes(Variant::Shogi, &bytes, &ReplayOptions::default());
        assert_eq!(reports.len(), 1, "{name}");
        let report = &reports[0];
        assert_eq!(report.error, None, "{name}");
        assert_eq!((report.plies, report.fen.as_str()), (14, expected.fen.as_str()), "{name}");
        assert_eq!(report.result, "0-1", "{name}: Black resigned");
    }
}

#[test]
fn a_ki2_by_hand_replays_with_its_result_from_the_summary_line() {
    assert_eq!(detect_format(GAME_2_KI2), RecordFormat::Ki2);
    let expected = one(Variant::Shogi, &lishogi_games()[1]);
    let report = one(Variant::Shogi, GAME_2_KI2);
    assert_eq!(report.error, None);
    assert_eq!(
        (report.plies, report.fen.as_str(), report.result.as_str()),
        (14, expected.fen.as_str(), "0-1")
    );
    let (shift_jis, _, _) = encoding_rs::SHIFT_JIS.encode(GAME_2_KI2);
    let reports = replay_bytes(Variant::Shogi, &shift_jis, &ReplayOptions::default());
    assert_eq!(reports[0], report);
}

#[test]
fn a_handicap_header_gives_the_handicap_start() {
    // Two-piece handicap (White without rook and bishop) moves first.
    let text = "開始日時：2024/03/10 14:00:00
手合割：二枚落ち
上手：先生
下手：生徒
手数----指手---------消費時間--
   1 ６二銀(71)   ( 0:05/00:00:05)
   2 ７六歩(77)   ( 0:03/00:00:03)
   3 ５四歩(53)   ( 0:02/00:00:07)
   4 ２六歩(27)   ( 0:04/00:00:07)
   5 ５三銀(62)   ( 0:02/00:00:09)
   6 ２五歩(26)   ( 0:03/00:00:10)
   7 ４二玉(51)   ( 0:02/00:00:11)
   8 ２四歩(25)   ( 0:05/00:00:15)
   9 同　歩(23)   ( 0:01/00:00:12)
  10 同　飛(28)   ( 0:02/00:00:17)
  11 中断         ( 0:00/00:00:12)
まで10手で中断
";
    let report = one(Variant::Shogi, text);
    assert_eq!(report.error, None);
    assert_eq!(report.plies, 10);
    assert_eq!(report.result, "*");
    let options = ReplayOptions {
        from: Some("lnsgkgsnl/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1".to_owned()),
        ..ReplayOptions::default()
    };
    let usi = "7a6b 7g7f 5c5d 2g2f 6b5c 2f2e 5a4b 2e2d 2c2d 2h2d";
    let expected = &replay_text(Variant::Shogi, usi, &options)[0];
    assert_eq!(report.fen, expected.fen);
    // And in KI2, with the handicapper's mark first.
    let ki2 = "手合割：二枚落ち\n△６二銀 ▲７六歩 △５四歩 ▲２六歩 △５三銀 ▲２五歩\n△４二玉 ▲２四歩 △同　歩 ▲同　飛\nまで10手で中断\n";
    assert_eq!(one(Variant::Shogi, ki2).fen, expected.fen);
}

#[test]
fn a_bad_move_in_kif_names_its_line_column_and_token() {
    let text = GAME_2_KIF.replace("６八金(69)", "６七金(69)");
    let report = one(Variant::Shogi, &text);
    assert_eq!(report.plies, 8, "the moves before it are replayed");
    let error = report.error.expect("an error");
    assert_eq!((error.ply, error.token.as_str()), (9, "６七金(69)"));
    assert_eq!(error.at, Some(Location { line: 17, column: 6 }));
    assert_eq!(error.code, "illegal-move.own-piece-on-target", "a pawn stands on 6g");
    // A line among the moves that is none of a record's lines.
    let text = GAME_2_KIF.replace("*ここで▲７七銀なら互角", "ここで７七銀なら互角");
    let error = one(Variant::Shogi, &text).error.expect("an error");
    assert_eq!((error.ply, error.code, error.at.map(|a| a.line)), (10, "record.unreadable", Some(18)));
}

#[test]
fn a_bad_move_in_csa_keeps_the_moves_before_it() {
    let report = one(Variant::Shogi, "V2.2\nPI\n+\n+2726FU\n-3334FU\n+7776FU\n-8384FU\n+2726FU\n");
    assert_eq!(report.plies, 4);
    let error = report.error.expect("an error");
    assert_eq!((error.ply, error.token.as_str(), error.at.map(|a| a.line)), (5, "+2726FU", Some(8)));
}

/// A Liu Dahua game in the FIX record style: move number glued to the move, `;`
/// between move pairs.
fn fix_record(game: &[String]) -> String {
    let mut pos = xiangqi::Position::new();
    let mut out = String::new();
    for (ply, token) in game.iter().enumerate() {
        let m = iccs::parse(&pos, token).unwrap();
        if ply % 2 == 0 {
            out.push_str(&format!("{}.", ply / 2 + 1));
        }
        out.push_str(&fix::write(&pos, m));
        out.push_str(if ply % 2 == 0 { " " } else { "; " });
        pos.play_unchecked(m);
    }
    out
}

#[test]
fn the_fix_record_style_replays_in_full() {
    let start = "1.Bh3e3 Ch10g8; 2.Ch1g3 Ti10h10; 3.Ti1h1 Cb10c8;\n";
    assert_eq!(one(Variant::Xiangqi, start).plies, 6, "not 2: the `;` separates move pairs");
    let path = common::data_path("records/liu-dahua-1125-iccs.pgn");
    let text = std::fs::read_to_string(&path).unwrap();
    for (index, game) in split_games(&text).iter().take(40).enumerate() {
        let record = fix_record(&game.tokens);
        let report = one(Variant::Xiangqi, &record);
        let iccs = one(Variant::Xiangqi, &game.tokens.join(" "));
        assert_eq!(report, iccs, "game {index}: {record}");
    }
}

#[test]
fn a_token_that_is_no_part_of_a_record_is_an_error_naming_its_place() {
    let text = "[Event \"club\"]\n1. h2e2 h9g7\n2. h0g2 xyzzy 3. i0h0 1-0\n";
    let report = one(Variant::Xiangqi, text);
    assert_eq!(report.plies, 3);
    let error = report.error.expect("an error");
    assert_eq!((error.ply, error.token.as_str(), error.code), (4, "xyzzy", "notation.unreadable"));
    assert_eq!(error.at, Some(Location { line: 3, column: 9 }));
    // A comment never closed does not end the record silently.
    let report = one(Variant::Xiangqi, "1. h2e2 h9g7 {Red's plan\n2. h0g2 i9h9\n");
    assert_eq!(report.plies, 2);
    let error = report.error.expect("an error");
    assert_eq!((error.code, error.at), ("record.unreadable", Some(Location { line: 1, column: 14 })));
    // One game per line: the file's line.
    let report = &replay_text(Variant::Shogi, "7g7f 3c3d\n\n2g2f 3c3d 9z9z\n", &ReplayOptions::default())[1];
    assert_eq!(report.error.as_ref().and_then(|e| e.at), Some(Location { line: 3, column: 11 }));
}

/// Files of several games: every game of a KIF, KI2 or CSA file is read (numbered in
/// order), and a bad game names its own line in the file while the others replay.
#[test]
fn every_game_of_a_kif_ki2_or_csa_file_of_several_is_read() {
    let games: Vec<String> = lishogi_games().into_iter().take(20).collect();
    let expected: Vec<GameReport> = games.iter().map(|line| one(Variant::Shogi, line)).collect();
    let records: Vec<GameRecord> = games.iter().map(|line| record_of(line)).collect();
    let kif_file: String = records.iter().map(kif::write).collect::<Vec<_>>().join("\n");
    let ki2_file: String = records.iter().map(ki2::write).collect::<Vec<_>>().join("\n");
    let csa_file: String = records
        .iter()
        .map(|r| tavoliere_rules::notation::shogi::csa::write(r).unwrap())
        .collect::<Vec<_>>()
        .join("/\n");
    for (format, file) in
        [(RecordFormat::Kif, &kif_file), (RecordFormat::Ki2, &ki2_file), (RecordFormat::Csa, &csa_file)]
    {
        assert_eq!(detect_format(file), format);
        let reports = replay_text(Variant::Shogi, file, &ReplayOptions::default());
        assert_eq!(reports.len(), 20, "{format:?}: every game, not the first alone");
        for (i, (report, expected)) in reports.iter().zip(&expected).enumerate() {
            assert_eq!(report.game, i + 1);
            assert_eq!((&report.moves, &report.error), (&expected.moves, &None), "{format:?} game {}", i + 1);
        }
    }
    // A CSA file whose second game has an illegal move: that game's error names the file's
    // line; the first and third replay.
    let bad = "V2.2\nN+a\nN-b\nPI\n+\n+7776FU\n-3334FU\n%TORYO\n/\nV2.2\nPI\n+\n+7776FU\n-7776FU\n%TORYO\n/\nV2.2\nPI\n+\n+2726FU\n%CHUDAN\n";
    let reports = replay_text(Variant::Shogi, bad, &ReplayOptions::default());
    assert_eq!(reports.len(), 3);
    assert!(reports[0].error.is_none() && reports[2].error.is_none(), "{reports:?}");
    assert_eq!(reports[0].players, [Some("a".to_owned()), Some("b".to_owned())]);
    let error = reports[1].error.as_ref().expect("the second game's error");
    assert_eq!((error.ply, error.at.map(|at| at.line)), (2, Some(14)), "{error:?}");
}
