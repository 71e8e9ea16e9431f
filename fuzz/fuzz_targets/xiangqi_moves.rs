//! Xiangqi moves in ICCS, WXF, FIX and Chinese notation. The first byte picks a start
//! position (the perft positions); each line of the rest is a move. Before each line is
//! played through the game (as the server plays it, with the game laws), every notation's
//! parser reads it on the current position: a move it accepts is legal, plays, and reads
//! back from its written form.
#![no_main]

use libfuzzer_sys::fuzz_target;
use tavoliere_fuzz::{game_from_selector, play_lines, split_selector, text};
use tavoliere_rules::notation::xiangqi::{chinese, fen, fix, iccs, parse_any, wxf, MoveParser};
use tavoliere_rules::variant::Variant;
use tavoliere_rules::xiangqi::{Move, Position};

const NOTATIONS: [(fn(&Position, Move) -> String, MoveParser); 4] = [
    (iccs::write, iccs::parse),
    (wxf::write, wxf::parse),
    (fix::write, fix::parse),
    (chinese::write, chinese::parse),
];

fuzz_target!(|data: &[u8]| {
    let Some((selector, rest)) = split_selector(data) else { return };
    let mut game = game_from_selector(Variant::Xiangqi, selector);
    play_lines(&mut game, &text(rest), |game, line| {
        let pos = fen::parse(&game.fen()).expect("the game's FEN reads");
        for (write, parse) in NOTATIONS {
            if let Ok(m) = parse(&pos, line) {
                assert!(pos.is_legal(m));
                assert_eq!(parse(&pos, &write(&pos, m)), Ok(m));
                pos.clone().play(m).expect("a parsed move plays");
            }
        }
        if let Ok(m) = parse_any(&pos, line) {
            assert!(pos.is_legal(m));
        }
        let _ = iccs::parse_move(line);
    });
});
