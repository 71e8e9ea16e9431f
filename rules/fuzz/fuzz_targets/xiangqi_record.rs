//! Feeds arbitrary text to the game-text tokenizer and replays each game's tokens with
//! `parse_any`, stopping at the first token that is not a legal move.
#![no_main]

use libfuzzer_sys::fuzz_target;
use tavoliere_rules::notation::record::split_games;
use tavoliere_rules::notation::xiangqi::parse_any;
use tavoliere_rules::xiangqi::Position;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    for game in split_games(&text) {
        let mut pos = Position::new();
        for token in &game.tokens {
            match parse_any(&pos, token) {
                Ok(m) => pos = pos.play(m).expect("parse_any returns legal moves"),
                Err(_) => break,
            }
        }
    }
});
