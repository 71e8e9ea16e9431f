//! Seven Kingdoms moves (`Qin 騎 a13-e16`). The first byte picks the number of seats (3 to
//! 7); each line of the rest is a move. The move reader reads each line on the current
//! position: a move it accepts is legal, reads back from its written form in every style,
//! and plays; the game goes on from it, and stops at a line it cannot read. The first line
//! is also played as the server plays a move; the whole text is read as a record.
#![no_main]

use libfuzzer_sys::fuzz_target;
use tavoliere_fuzz::{game_from_selector, move_lines, play_as_server, split_selector, text};
use tavoliere_rules::notation::seven_kingdoms::{
    moves, parse_record, position_text, write_record, MoveStyle,
};
use tavoliere_rules::variant::Variant;

fuzz_target!(|data: &[u8]| {
    let Some((selector, rest)) = split_selector(data) else { return };
    let text = text(rest);
    let mut game = game_from_selector(Variant::SevenKingdoms, selector);
    let mut pos = position_text::parse(&game.fen()).expect("the game's position text reads");
    for line in move_lines(&text) {
        let _ = moves::parse_point(line);
        let Ok(m) = moves::parse(&pos, line) else { break };
        assert!(pos.is_legal(m), "{line:?}");
        for style in [MoveStyle::default(), MoveStyle::ENGLISH, MoveStyle::NUMERIC] {
            let written = moves::write_with(&pos, m, style);
            assert_eq!(moves::parse(&pos, &written), Ok(m), "{written}");
        }
        pos = pos.play(m).expect("a parsed move plays");
    }
    if let Some(first) = text.lines().next() {
        play_as_server(&mut game, first);
    }
    if let Ok(record) = parse_record(&text) {
        assert!(parse_record(&write_record(&record)).is_ok());
    }
});
