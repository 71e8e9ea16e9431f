//! Seven Kingdoms moves (`Qin 騎 a13-e16`). The first byte picks the number of seats
//! (3 to 7); each line of the rest is a move. Before each line is played through the game,
//! the move reader reads it on the current position: a move it accepts is legal, plays and
//! reads back from its written form. The whole text is also read as a record.
#![no_main]

use libfuzzer_sys::fuzz_target;
use tavoliere_fuzz::{game_from_selector, play_lines, split_selector, text};
use tavoliere_rules::notation::seven_kingdoms::{moves, parse_record, position_text, write_record};
use tavoliere_rules::variant::Variant;

fuzz_target!(|data: &[u8]| {
    let Some((selector, rest)) = split_selector(data) else { return };
    let text = text(rest);
    let mut game = game_from_selector(Variant::SevenKingdoms, selector);
    play_lines(&mut game, &text, |game, line| {
        let pos = position_text::parse(&game.fen()).expect("the game's position text reads");
        if let Ok(m) = moves::parse(&pos, line) {
            assert!(pos.is_legal(m));
            assert_eq!(moves::parse(&pos, &moves::write(&pos, m)), Ok(m));
            pos.play(m).expect("a parsed move plays");
        }
        let _ = moves::parse_point(line);
    });
    if let Ok(record) = parse_record(&text) {
        assert!(parse_record(&write_record(&record)).is_ok());
    }
});
