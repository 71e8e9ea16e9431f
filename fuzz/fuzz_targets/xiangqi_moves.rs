//! Xiangqi moves in ICCS, WXF, FIX and Chinese notation. The first byte picks a start
//! position (the standard start and the perft positions); each line of the rest is a move.
//! Every notation's reader reads each line on the current position: a move it accepts is
//! legal, reads back from its written form in every notation, and plays; the game goes on
//! from the first notation's move, and stops at a line no notation reads. The first line
//! is also played as the server plays a move (every notation, the game laws).
#![no_main]

use libfuzzer_sys::fuzz_target;
use tavoliere_fuzz::{game_from_selector, move_lines, play_as_server, split_selector, text};
use tavoliere_rules::notation::xiangqi::{chinese, fen, fix, iccs, wxf, MoveParser};
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
    let text = text(rest);
    let mut game = game_from_selector(Variant::Xiangqi, selector);
    let mut pos = fen::parse(&game.fen()).expect("the game's FEN reads");
    for line in move_lines(&text) {
        let _ = iccs::parse_move(line);
        let mut next = None;
        for (write, parse) in NOTATIONS {
            if let Ok(m) = parse(&pos, line) {
                assert!(pos.is_legal(m), "{line:?}");
                for (write_other, parse_other) in NOTATIONS {
                    assert_eq!(parse_other(&pos, &write_other(&pos, m)), Ok(m), "{line:?}");
                }
                assert_eq!(parse(&pos, &write(&pos, m)), Ok(m));
                next = next.or(Some(pos.clone().play(m).expect("a parsed move plays")));
            }
        }
        let Some(next) = next else { break };
        pos = next;
    }
    if let Some(first) = text.lines().next() {
        play_as_server(&mut game, first);
    }
});
