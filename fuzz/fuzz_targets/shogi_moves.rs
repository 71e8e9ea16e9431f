//! Shogi and MiniShogi moves in USI, western (hyphenated and AISE) and CSA notation. The
//! first byte picks the board and a start position (the standard starts and the perft
//! positions); each line of the rest is a move. Every notation's reader reads each line on
//! the current position: a move it accepts is legal, reads back from its written form in
//! every notation, and plays; the game goes on from it, and stops at a line no notation
//! reads. The first line is also played as the server plays a move; the whole text is
//! read as the moves of a CSA record from the standard start.
#![no_main]

use libfuzzer_sys::fuzz_target;
use tavoliere_fuzz::{game_from_selector, move_lines, play_as_server, split_selector, text};
use tavoliere_rules::notation::shogi::{csa, parse_any, sfen, usi, western};
use tavoliere_rules::shogi::{Move, Position};
use tavoliere_rules::variant::Variant;

fn round_trips(pos: &Position, m: Move) {
    assert!(pos.is_legal(m));
    assert_eq!(usi::parse(pos, &usi::write(pos, m)), Ok(m));
    for style in [western::Style::Hyphenated, western::Style::Aise] {
        let written = western::write(pos, m, style);
        assert_eq!(western::parse(pos, &written), Ok(m), "{written}");
    }
}

fuzz_target!(|data: &[u8]| {
    let Some((selector, rest)) = split_selector(data) else { return };
    let text = text(rest);
    let variant = if selector % 2 == 0 { Variant::Shogi } else { Variant::MiniShogi };
    let mut game = game_from_selector(variant, selector / 2);
    let mut pos = sfen::parse(&game.fen(), None).expect("the game's SFEN reads");
    let mut previous = None;
    for line in move_lines(&text) {
        let _ = usi::parse_move(line, pos.variant());
        let usi_move = usi::parse(&pos, line).ok();
        let western_move = western::parse(&pos, line).ok();
        for m in usi_move.iter().chain(&western_move) {
            round_trips(&pos, *m);
        }
        // The previous move lets a Japanese text say 同 ("same square").
        if let Ok(m) = parse_any(&pos, line, previous) {
            if usi_move.is_some() || western_move.is_some() {
                assert!(usi_move == Some(m) || western_move == Some(m), "{line:?}");
            } else {
                // Read as Japanese: a move of this position all the same.
                assert!(pos.clone().play(m).is_ok(), "{line:?} read as an illegal move");
            }
        }
        let Some(m) = usi_move.or(western_move) else { break };
        pos = pos.play(m).expect("a parsed move plays");
        previous = Some(m);
    }
    if let Some(first) = text.lines().next() {
        play_as_server(&mut game, first);
    }
    if variant == Variant::Shogi {
        let side = if selector & 2 == 0 { '+' } else { '-' };
        if let Ok(record) = csa::read(&format!("PI\n{side}\n{text}")) {
            let _ = record.outcome();
            if let Ok(written) = csa::write(&record) {
                assert_eq!(csa::read(&written).map(|r| r.moves), Ok(record.moves));
            }
        }
    }
});
