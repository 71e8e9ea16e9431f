//! Issue 15 §4: a move text is read one way only. Every pair of notations a game's reader
//! tries (`parse_any`, the facade's `AnyGame::play`) is checked for texts that both would
//! read, and for each such text that the two readings are the same move; a text two
//! notations read as two different legal moves is refused naming both.
//!
//! Positions come from real games: the Liu Dahua Xiangqi games and the lishogi Shogi
//! games of `tests/data/records/` (sources in `xiangqi_records.rs`, `shogi_records.rs`).

use tavoliere_rules::notation::record::split_games;
use tavoliere_rules::notation::shogi::{self as shogi_notation, kif, western};
use tavoliere_rules::notation::xiangqi::{self as xiangqi_notation, fix, iccs, MoveNotation, NotationError};
use tavoliere_rules::variant::{AnyGame, MoveRefusal, Notation, Variant};
use tavoliere_rules::{chess, shogi, xiangqi};

mod common;

/// Positions of the first `games` Liu Dahua games, every `step`th ply.
fn xiangqi_positions(games: usize, step: usize) -> Vec<xiangqi::Position> {
    let path = common::data_path("records/liu-dahua-1125-iccs.pgn");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut positions = Vec::new();
    for game in split_games(&text).iter().take(games) {
        let mut pos = xiangqi::Position::new();
        for (ply, token) in game.tokens.iter().enumerate() {
            if ply % step == 0 {
                positions.push(pos.clone());
            }
            let Ok(m) = iccs::parse(&pos, token) else { break };
            pos.play_unchecked(m);
        }
    }
    positions
}

/// Positions of the first `games` lishogi games, every `step`th ply.
fn shogi_positions(games: usize, step: usize) -> Vec<shogi::Position> {
    let path = common::data_path("records/lishogi-usi-games.txt");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut positions = Vec::new();
    for line in text.lines().filter(|l| !l.trim().is_empty() && !l.starts_with('#')).take(games) {
        let mut pos = shogi::Position::startpos(shogi::Variant::Standard);
        for (ply, token) in line.split_ascii_whitespace().enumerate() {
            if ply % step == 0 {
                positions.push(pos.clone());
            }
            let Ok(m) = shogi_notation::usi::parse(&pos, token) else { break };
            pos.play_unchecked(m);
        }
    }
    positions
}

#[test]
fn xiangqi_a_bare_four_character_coordinate_is_iccs_only() {
    // The reported case: no piece on a4 at the start. Read as FIX without a piece letter
    // (ranks 1..10) the text was the soldier's a3a4.
    let start = xiangqi::Position::new();
    assert_eq!(
        xiangqi_notation::parse_any(&start, "a4a5"),
        Err(NotationError::Illegal(Some(xiangqi::IllegalMoveKind::NoPiece)))
    );
    let mut game = AnyGame::new(Variant::Xiangqi, None).unwrap();
    let refused = game.play("a4a5").unwrap_err();
    assert_eq!(refused.code(), "illegal-move.no-piece");
    assert_eq!(game.ply(), 0, "nothing was played");
    assert_eq!(game.play("a3a4").unwrap().canonical, "a3a4", "the soldier's move in ICCS");
}

#[test]
fn xiangqi_fix_needs_its_piece_letter() {
    let start = xiangqi::Position::new();
    for text in ["h3e3", "h3-e3", "a4a5", "c4c5"] {
        assert_eq!(fix::parse(&start, text), Err(NotationError::Unreadable), "{text}");
    }
    let cannon = iccs::parse(&start, "h2e2").unwrap();
    assert_eq!(fix::parse(&start, "Bh3e3"), Ok(cannon));
    // A text of ten ranks without a letter is no notation at all.
    assert_eq!(xiangqi_notation::parse_any(&start, "h10g8"), Err(NotationError::Unreadable));
}

#[test]
fn xiangqi_bare_coordinates_read_as_iccs_or_not_at_all() {
    let positions = xiangqi_positions(20, 9);
    assert!(positions.len() > 100, "{}", positions.len());
    let files = "abcdefghi";
    let mut texts = Vec::new();
    for from_file in files.chars() {
        for to_file in files.chars() {
            for from_rank in 0..=10 {
                for to_rank in 0..=10 {
                    texts.push(format!("{from_file}{from_rank}{to_file}{to_rank}"));
                    texts.push(format!("{from_file}{from_rank}-{to_file}{to_rank}"));
                }
            }
        }
    }
    for pos in &positions {
        for text in &texts {
            assert_eq!(
                xiangqi_notation::parse_any(pos, text),
                iccs::parse(pos, text),
                "{text} in {}",
                xiangqi_notation::fen::write(pos)
            );
        }
    }
}

#[test]
fn xiangqi_no_move_text_reads_as_another_move_in_another_notation() {
    let positions = xiangqi_positions(60, 3);
    let mut texts_checked = 0;
    for pos in &positions {
        for m in pos.legal_moves() {
            for written_in in MoveNotation::ALL {
                let text = written_in.writer()(pos, m);
                for reader in MoveNotation::ALL {
                    if let Ok(read) = reader.parser()(pos, &text) {
                        assert_eq!(
                            read,
                            m,
                            "{} {text:?} of {m} is {read} in {}",
                            written_in.name(),
                            reader.name()
                        );
                    }
                }
                assert_eq!(xiangqi_notation::parse_any(pos, &text), Ok(m), "{text}");
                texts_checked += 1;
            }
        }
    }
    assert!(texts_checked > 50_000, "{texts_checked}");
}

#[test]
fn shogi_usi_western_and_japanese_never_read_one_text_as_two_moves() {
    let positions = shogi_positions(80, 4);
    let mut texts_checked = 0;
    for pos in &positions {
        for m in pos.legal_moves() {
            let texts = [
                shogi_notation::usi::write(pos, m),
                western::write(pos, m, western::Style::Hyphenated),
                western::write(pos, m, western::Style::Aise),
                kif::write_move(pos, m, None),
            ];
            for text in &texts {
                let readings = [
                    shogi_notation::usi::parse(pos, text),
                    western::parse(pos, text),
                    kif::parse_move(pos, text, None),
                ];
                for read in readings.into_iter().flatten() {
                    assert_eq!(read, m, "{text:?} of {m} is also {read}");
                }
                assert_eq!(shogi_notation::parse_any(pos, text, None), Ok(m), "{text}");
                texts_checked += 1;
            }
        }
        // Every USI board-move form is unreadable as western (a western move starts with
        // its piece letter).
        let squares = (1..=9).flat_map(|file| (1..=9).filter_map(move |rank| shogi::Square::new(file, rank)));
        for from in squares {
            for to in [shogi::Square::new(5, 5).unwrap(), shogi::Square::new(7, 6).unwrap()] {
                let text = format!("{from}{to}");
                assert_eq!(
                    western::parse(pos, &text),
                    Err(shogi_notation::NotationError::Unreadable),
                    "{text}"
                );
            }
        }
    }
    assert!(texts_checked > 30_000, "{texts_checked}");
}

#[test]
fn minishogi_usi_and_aise_never_read_one_text_as_two_moves() {
    let mut game = AnyGame::new(Variant::MiniShogi, None).unwrap();
    let mut checked = 0;
    // A game of the first legal move each turn, long enough for drops and promotions.
    for _ in 0..40 {
        let pos = shogi_notation::sfen::parse(&game.fen(), Some(shogi::Variant::Mini)).unwrap();
        for m in pos.legal_moves() {
            let texts = [
                shogi_notation::usi::write(&pos, m),
                western::write(&pos, m, western::Style::Aise),
                kif::write_move(&pos, m, None),
            ];
            for text in texts {
                assert_eq!(shogi_notation::parse_any(&pos, &text, None), Ok(m), "{text}");
                checked += 1;
            }
        }
        let Some(next) = game.legal_moves().last().cloned() else { break };
        if game.play(&next).is_err() || game.is_over() {
            break;
        }
    }
    assert!(checked > 300, "{checked}");
}

#[test]
fn flickering_coordinates_and_algebraic_agree_where_both_read() {
    let mut positions = vec![chess::Position::new()];
    let mut game = AnyGame::new(Variant::Flickering, None).unwrap();
    for series in ["e4, Nf3, Bc4", "e5, Nc6", "O-O, d4", "exd4, Nf6", "e5, Re1"] {
        game.play(series).unwrap_or_else(|e| panic!("{series}: {e}"));
        positions.push(tavoliere_rules::notation::chess::fen::parse(&game.fen()).unwrap());
    }
    use tavoliere_rules::notation::chess::{algebraic, uci};
    let mut checked = 0;
    for pos in &positions {
        let series = chess::Series::new(pos.clone());
        for m in series.legal_next_moves() {
            let coordinates = uci::write(m);
            let san = algebraic::write_move(&series, m, algebraic::Style::default()).unwrap();
            for text in [&coordinates, &san] {
                for read in [uci::parse_move(&series, text), algebraic::parse_move(&series, text)]
                    .into_iter()
                    .flatten()
                {
                    assert_eq!(read, m, "{text:?} of {coordinates} is also {}", uci::write(read));
                }
                checked += 1;
            }
        }
    }
    assert!(checked > 200, "{checked}");
}

#[test]
fn a_refused_ambiguous_text_names_both_readings() {
    // The facade carries both readings of the notation's refusal as data.
    let start = xiangqi::Position::new();
    let cannon = iccs::parse(&start, "h2e2").unwrap();
    let soldier = iccs::parse(&start, "a3a4").unwrap();
    let refusal = MoveRefusal::from(NotationError::TwoReadings([
        (MoveNotation::Iccs, cannon),
        (MoveNotation::Fix, soldier),
    ]));
    let MoveRefusal::Ambiguous(readings) = &refusal else { panic!("{refusal:?}") };
    assert_eq!((readings[0].notation, readings[0].canonical.as_str()), (Notation::Iccs, "h2e2"));
    assert_eq!((readings[1].notation, readings[1].canonical.as_str()), (Notation::Fix, "a3a4"));
    let error = tavoliere_rules::variant::MoveError::new("h2e2", refusal);
    assert_eq!(error.code(), "notation.ambiguous");
    assert_eq!(
        error.to_string(),
        "“h2e2” reads as h2e2 in ICCS and as a3a4 in FIX: write the move so that it has one reading."
    );
    assert!(error.params().contains(&("reading2", "a3a4".to_owned())));
}

#[test]
fn seven_kingdoms_points_in_letters_and_numbers_name_one_move() {
    use tavoliere_rules::notation::seven_kingdoms::moves::{self, Coordinates, MoveStyle, PieceNames};
    let game = AnyGame::with_seats(Variant::SevenKingdoms, 7).unwrap();
    let pos = tavoliere_rules::notation::seven_kingdoms::position_text::parse(&game.fen()).unwrap();
    let mut checked = 0;
    for m in pos.legal_moves() {
        for coordinates in [Coordinates::Letters, Coordinates::Numeric] {
            for pieces in [PieceNames::English, PieceNames::Chinese] {
                let text = moves::write_with(&pos, m, MoveStyle { coordinates, pieces });
                assert_eq!(moves::parse(&pos, &text), Ok(m), "{text}");
                checked += 1;
            }
        }
    }
    assert!(checked > 100, "{checked}");
}
