//! `seven-kingdoms.md` "Notation": moves, the position text and game records, with round trips.

use tavoliere_rules::notation::seven_kingdoms::{
    moves, parse_record, position_text, MoveStyle, MoveText, NotationError, PositionTextError, RecordError,
};
use tavoliere_rules::seven_kingdoms::{
    Defeat, Game, HorsemanRule, IllegalMoveKind, Kingdom, Move, PieceKind, Point, Position, PositionError,
    Seat, Seating,
};

fn pt(x: u8, y: u8) -> Point {
    Point::new(x, y).unwrap()
}

/// Han, Qi, Wei, Zhao and Yan out of the game, as record lines of the position text.
const OTHERS_OUT: &str = "Han record: defeated resigned\nQi record: defeated resigned\n\
                          Wei record: defeated resigned\nZhao record: defeated resigned\n\
                          Yan record: defeated resigned\n";

#[test]
fn notation_the_rules_example_is_read_in_every_form() {
    let pos = Position::new();
    let expected = Move { from: pt(0, 12), to: pt(4, 15) };
    for text in [
        "Qin 騎 a13-e16",
        "秦 騎 a13-e16",
        "Qin horseman a13-e16",
        "qin HORSEMAN A13-E16",
        "Qin 骑 0,12-4,15",
        "Qin 騎 a13 - e16",
        "a13-e16",
        "騎 0,12-e16",
    ] {
        assert_eq!(moves::parse(&pos, text), Ok(expected), "{text}");
    }
}

#[test]
fn notation_moves_are_written_in_the_canonical_and_other_styles() {
    let pos = Position::new();
    let mv = Move { from: pt(0, 12), to: pt(4, 15) };
    assert_eq!(moves::write(&pos, mv), "Qin 騎 a13-e16");
    assert_eq!(moves::write_with(&pos, mv, MoveStyle::ENGLISH), "Qin horseman a13-e16");
    assert_eq!(moves::write_with(&pos, mv, MoveStyle::NUMERIC), "Qin 騎 0,12-4,15");
}

#[test]
fn notation_every_legal_move_round_trips_in_every_style() {
    let mut game = Game::default();
    for _ in 0..30 {
        let pos = game.position().clone();
        for &mv in pos.legal_moves().iter() {
            for style in [MoveStyle::default(), MoveStyle::ENGLISH, MoveStyle::NUMERIC] {
                let text = moves::write_with(&pos, mv, style);
                assert_eq!(moves::parse(&pos, &text), Ok(mv), "{text}");
            }
        }
        // Prefer captures so that the capture mark is exercised.
        let list = pos.legal_moves();
        let next =
            list.iter().copied().find(|m| pos.piece_at(m.to).is_some()).unwrap_or(list[list.len() / 2]);
        game.play(next).unwrap();
    }
}

#[test]
fn notation_captures_are_marked_with_x() {
    let text = format!("players: 7\nturn: Qin\nQin: 將 a19, 偏 c3\nChu: 將 s1, 劍 c6\n{OTHERS_OUT}");
    let pos = position_text::parse(&text).unwrap();
    let mv = Move { from: pt(2, 2), to: pt(2, 5) };
    assert_eq!(moves::write(&pos, mv), "Qin 偏 c3xc6");
    assert_eq!(moves::parse(&pos, "Qin 偏 c3xc6"), Ok(mv));
    assert_eq!(moves::parse(&pos, "Qin 偏 c3-c6"), Ok(mv), "a capture written with - is accepted");
    assert_eq!(moves::parse(&pos, "Qin 偏 c3xc5"), Err(NotationError::NothingToCapture));
}

#[test]
fn notation_texts_that_do_not_fit_the_position_are_rejected_with_a_reason() {
    let pos = Position::new();
    assert!(matches!(
        moves::parse(&pos, "Chu 騎 c1-f5"),
        Err(NotationError::NotTheirTurn { written: Kingdom::Chu, turn: Kingdom::Qin })
    ));
    assert!(matches!(
        moves::parse(&pos, "Qin 將 a13-e16"),
        Err(NotationError::WrongPiece { written: PieceKind::General, .. })
    ));
    assert!(matches!(
        moves::parse(&pos, "Qin 將 a10-a11"),
        Err(NotationError::Illegal(e)) if e.kind == IllegalMoveKind::OwnPieceOnTarget
    ));
    for junk in
        ["", "Qin", "Qin 騎", "a13e16", "t1-a2", "a0-a1", "a20-a1", "19,0-0,0", "a13-", "Qin 騎 a13-e16-f1"]
    {
        assert!(matches!(moves::parse(&pos, junk), Err(NotationError::Unreadable(_))), "{junk:?}");
    }
}

#[test]
fn notation_a_move_text_round_trips_without_a_position() {
    let text: MoveText = "Wei 行人 o14xl17".parse().unwrap();
    assert_eq!(text.kingdom, Some(Kingdom::Wei));
    assert_eq!(text.piece, Some(PieceKind::Diplomat));
    assert!(text.capture);
    assert_eq!(text.to_string(), "Wei 行人 o14xl17");
}

#[test]
fn notation_the_start_position_text_is_the_reconstruction() {
    let text = position_text::start_text();
    let mut lines = text.lines();
    assert_eq!(lines.next(), Some("players: 7"));
    assert_eq!(lines.next(), Some("turn: Qin"));
    assert_eq!(lines.next(), Some("emperor: j10"));
    assert_eq!(
        lines.next(),
        Some(
            "Qin: 將 a10, 偏 a11, 裨 a9, 行人 e10, 砲 b10, 弓 d10, 弩 c10, 刀 c9, 刀 c11, \
             劍 a8, 劍 b9, 劍 b11, 劍 a12, 騎 a7, 騎 b8, 騎 b12, 騎 a13"
        )
    );
    assert_eq!(text.lines().count(), 10);
    assert_eq!(position_text::parse(&text), Ok(Position::new()));
}

#[test]
fn notation_position_texts_round_trip_with_records_and_custom_seats() {
    let mut game = Game::new(Seating::custom([0, 1, 1, 2, 2, 0, 0]).unwrap());
    for _ in 0..40 {
        let pos = game.position().clone();
        let list = pos.legal_moves();
        let next = list.iter().copied().find(|m| pos.piece_at(m.to).is_some()).unwrap_or(list[0]);
        game.play(next).unwrap();
    }
    game.time_out_seat(Seat(2)).unwrap();
    let pos = game.position();
    let text = position_text::write(pos);
    assert!(text.starts_with("seats: Qin+Zhao+Yan, Chu+Han, Qi+Wei\n"), "{text}");
    assert!(text.contains("Qi record: ") && text.contains("defeated timed-out"), "{text}");
    assert_eq!(position_text::parse(&text).as_ref(), Ok(pos));
    assert_eq!(position_text::write(&position_text::parse(&text).unwrap()), text);
}

#[test]
fn notation_position_text_defeats_and_english_names_are_read() {
    let text = "# a small fight\nplayers: 3\nturn: Chu\n\
                Qin: general a19, horseman 5,5\nChu: general 18,0\nQi: 將 s19\n\
                Han record: captured 0, generals 0, value 0, lost 1, defeated general-captured by Qin\n\
                Wei record: captured 1, generals 0, value 2, lost 0, defeated ally-attack by Qi\n\
                Zhao record: captured 0, generals 0, value 0, lost 0, defeated resigned\n\
                Yan record: captured 0, generals 0, value 0, lost 0, defeated timed-out\n\
                Qin record: captured 1, generals 1, value 1, lost 0\n";
    let pos = position_text::parse(text).unwrap();
    assert_eq!(pos.turn(), Kingdom::Chu);
    assert_eq!(pos.record(Kingdom::Han).defeat, Some(Defeat::GeneralCaptured { by: Kingdom::Qin }));
    assert_eq!(pos.record(Kingdom::Wei).defeat, Some(Defeat::AllyAttack { by: Kingdom::Qi }));
    assert_eq!(pos.record(Kingdom::Qin).captured_generals, 1);
    assert_eq!(position_text::parse(&position_text::write(&pos)), Ok(pos));
}

#[test]
fn notation_bad_position_texts_are_rejected_with_a_reason() {
    assert!(matches!(
        position_text::parse("players: 7\nQin: 將 a10\nnonsense\n"),
        Err(PositionTextError::UnreadableLine { line: 3, .. })
    ));
    assert!(matches!(
        position_text::parse("Qin: 將 a10, 劍 a10\nChu: 將 s1"),
        Err(PositionTextError::PointTaken { line: 1, .. })
    ));
    assert!(matches!(position_text::parse("players: 2"), Err(PositionTextError::Seating(_))));
    assert_eq!(
        position_text::parse("Qin: 將 a10, 將 a11\nChu: 將 s1"),
        Err(PositionTextError::Position(PositionError::TooManyPieces {
            kingdom: Kingdom::Qin,
            kind: PieceKind::General
        }))
    );
    // Han, Qi, Wei, Zhao and Yan are in play (not defeated) but have no general.
    assert_eq!(
        position_text::parse("Qin: 將 a10\nChu: 將 s1"),
        Err(PositionTextError::Position(PositionError::MissingGeneral(Kingdom::Han)))
    );
    assert_eq!(
        position_text::parse("emperor: a1\nQin: 將 a10"),
        Err(PositionTextError::Position(PositionError::MissingEmperor))
    );
}

#[test]
fn notation_game_records_round_trip_with_seat_events() {
    let mut game = Game::new(Seating::standard(5).unwrap());
    game.play_text("Qin 騎 a13-e16").unwrap();
    game.time_out_seat(Seat(1)).unwrap();
    for _ in 0..12 {
        let text = game.legal_moves_text()[0].clone();
        let played = game.play_text(&text).unwrap();
        assert_eq!(played.canonical, text);
    }
    game.resign_seat(Seat(3)).unwrap();
    let record = game.record_text();
    assert!(record.contains("moves:\nQin 騎 a13-e16\ntimeout seat 1\n"), "{record}");
    assert!(record.contains("resign seat 3"));
    let replayed = parse_record(&record).unwrap();
    assert_eq!(replayed, game);
    assert_eq!(replayed.record_text(), record);
}

#[test]
fn notation_records_with_move_numbers_and_comments_are_read() {
    let record =
        format!("{}moves:\n# opening\n1. Qin 騎 a13-e16\n2. Chu 騎 c1-f5\n", position_text::start_text());
    match parse_record(&record) {
        Err(RecordError::Move { line: 14, error: NotationError::Illegal(_) }) => {}
        other => panic!("Chu's horseman cannot take its own diplomat: {other:?}"),
    }
    let record = format!("{}moves:\n1. Qin 騎 a13-e16\n2. Chu 騎 c1-f4\n", position_text::start_text());
    assert!(parse_record(&record).is_err());
    let record = format!("{}moves:\n1. Qin 騎 a13-e16\n", position_text::start_text());
    assert_eq!(parse_record(&record).unwrap().ply(), 1);
    assert_eq!(parse_record("players: 7\n"), Err(RecordError::MissingMovesLine));
}

#[test]
fn notation_game_text_api_reports_the_outcome_per_seat() {
    let text = format!("players: 7\nQin: 將 a19, 偏 c3\nChu: 將 c7\n{OTHERS_OUT}");
    let mut game = Game::from_start_text(Some(&text)).unwrap();
    assert_eq!(game.legal_moves_text().len(), game.position().legal_moves().len());
    assert!(game.legal_moves_text().contains(&"Qin 偏 c3xc7".to_owned()));
    let played = game.play_text("c3xc7").unwrap();
    assert_eq!(played.canonical, "Qin 偏 c3xc7");
    let outcome = played.outcome.expect("only Qin's alliance remains");
    assert_eq!(outcome.cause.as_str(), "last-alliance");
    assert_eq!(outcome.winners().collect::<Vec<_>>(), [Seat(0)]);
    assert!(game.play_text("a19-a18").is_err());
    assert_eq!(game.events_text(MoveStyle::ENGLISH), ["Qin deputy c3xc7"]);
}

#[test]
fn notation_hostile_texts_never_panic() {
    let start = position_text::start_text();
    // Extreme tallies: play saturates instead of overflowing.
    let extreme = format!(
        "players: 7\nQin: 將 a19, 偏 c3\nChu: 將 s1, 劍 c7\nHan: 將 s19\n{}\
         Qin record: captured 0, generals 0, value 4294967295, lost 10\n\
         Chu record: captured 29, generals 1, value 4294967295, lost 10\n",
        OTHERS_OUT.replace("Han record: defeated resigned\n", "")
    );
    let mut game = Game::from_start_text(Some(&extreme)).expect("the tallies are readable");
    game.play_text("c3xc7").unwrap();
    assert_eq!(game.position().record(Kingdom::Qin).captured_value, u32::MAX);
    assert!(game.position().is_defeated(Kingdom::Chu), "the eleventh piece");
    assert_eq!(game.standings()[0].value_score, u32::MAX);
    // Deterministic mutations of the start text: every one is read or rejected, never a panic.
    let bytes = start.as_bytes().to_vec();
    let mut seed: u64 = 0x5eed;
    let mut accepted = 0;
    for _ in 0..2000 {
        let mut mutated = bytes.clone();
        for _ in 0..3 {
            seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            let at = (seed >> 33) as usize % mutated.len();
            mutated[at] = b"0123456789,:- xabs\n"[(seed >> 20) as usize % 19];
        }
        let text = String::from_utf8_lossy(&mutated);
        if let Ok(pos) = position_text::parse(&text) {
            accepted += 1;
            if let Some(&mv) = pos.legal_moves().first() {
                pos.play(mv).expect("a generated move is legal");
            }
        }
        let _ = moves::parse(&Position::new(), &text.chars().take(20).collect::<String>());
    }
    assert!(accepted < 2000, "some mutations must be rejected");
    assert_eq!(
        Seating::custom([255; 7]),
        Err(tavoliere_rules::seven_kingdoms::SeatingError::UnsupportedPlayerCount(255))
    );
}

#[test]
fn notation_stored_events_replay_into_the_same_game() {
    let mut game = Game::new(Seating::standard(4).unwrap());
    let dry = game.dry_run_text("Qin horseman a13-e16").unwrap();
    assert_eq!(dry.canonical, "Qin 騎 a13-e16");
    assert_eq!(game.ply(), 0, "a dry run plays nothing");
    game.play_text("Qin horseman a13-e16").unwrap();
    game.time_out_seat(Seat(2)).unwrap();
    for _ in 0..9 {
        let text = game.legal_moves_text()[3].clone();
        game.play_text(&text).unwrap();
    }
    let events = game.events_text(MoveStyle::default());
    let start = game.start_text();
    let replayed = Game::replay(Some(&start), events.iter().map(String::as_str)).unwrap();
    assert_eq!(replayed, game);
    assert_eq!(replayed.position_key(), game.position_key());
    assert_ne!(game.position_key(), Position::new().position_key());
    match Game::replay(None, ["Qin 騎 a13-e16", "Chu 騎 c1-f5"]) {
        Err(RecordError::Move { line: 2, .. }) => {}
        other => panic!("the second event is illegal: {other:?}"),
    }
}

#[test]
fn notation_the_horseman_option_round_trips_in_the_position_text() {
    let text =
        format!("players: 7\nhorseman: up-to-three-diagonal\nQin: 將 a19, 騎 f6\nChu: 將 s1\n{OTHERS_OUT}");
    let pos = position_text::parse(&text).unwrap();
    assert_eq!(pos.horseman_rule(), HorsemanRule::UpToThreeDiagonal);
    let written = position_text::write(&pos);
    assert!(written.contains("\nhorseman: up-to-three-diagonal\n"), "{written}");
    assert_eq!(position_text::parse(&written), Ok(pos));
    assert!(!position_text::start_text().contains("horseman"));
    assert!(position_text::parse("horseman: sometimes\n").is_err());
}
