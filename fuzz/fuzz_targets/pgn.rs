//! PGN records: the Flickering chess record reader (tags, series, result) and the
//! game-text tokenizer that splits the Xiangqi records (PGN with ICCS or WXF moves) into
//! games. A chess record that reads and replays is written and read back to the same
//! series; the tokens of each Xiangqi game are played until the first one that is not a
//! legal move.
#![no_main]

use libfuzzer_sys::fuzz_target;
use tavoliere_fuzz::text;
use tavoliere_rules::notation::chess::record;
use tavoliere_rules::notation::record::{is_result, split_games, strip_annotation, strip_check_mark};
use tavoliere_rules::notation::xiangqi::parse_any;
use tavoliere_rules::xiangqi::Position;

fuzz_target!(|data: &[u8]| {
    let text = text(data);
    if let Ok(read) = record::read(&text) {
        if let Ok(game) = read.to_game() {
            let written = record::write(&game, &read.tags);
            let again = record::read(&written).expect("a written record reads");
            assert_eq!(again.series, read.series, "{written}");
        }
    }
    for game in split_games(&text) {
        let _ = game.tag("FEN");
        let mut pos = Position::new();
        for token in &game.tokens {
            if is_result(token) {
                break;
            }
            match parse_any(&pos, strip_check_mark(strip_annotation(token))) {
                Ok(m) => pos = pos.play(m).expect("parse_any returns legal moves"),
                Err(_) => break,
            }
        }
    }
});
