//! Shogi and MiniShogi moves in USI, western (hyphenated and AISE) and CSA notation. The
//! first byte picks the board and a start position (the perft positions); each line of
//! the rest is a move. Before each line is played through the game (with the game laws),
//! every notation's parser reads it on the current position: a move it accepts is legal,
//! plays, and reads back from its written form. The whole text is also read as the moves
//! of a CSA record from the standard start.
#![no_main]

use libfuzzer_sys::fuzz_target;
use tavoliere_fuzz::{game_from_selector, play_lines, split_selector, text};
use tavoliere_rules::notation::shogi::{csa, parse_any, sfen, usi, western};
use tavoliere_rules::variant::Variant;

fuzz_target!(|data: &[u8]| {
    let Some((selector, rest)) = split_selector(data) else { return };
    let text = text(rest);
    let variant = if selector % 2 == 0 { Variant::Shogi } else { Variant::MiniShogi };
    let mut game = game_from_selector(variant, selector / 2);
    play_lines(&mut game, &text, |game, line| {
        let pos = sfen::parse(&game.fen(), None).expect("the game's SFEN reads");
        if let Ok(m) = usi::parse(&pos, line) {
            assert!(pos.is_legal(m));
            assert_eq!(usi::parse(&pos, &usi::write(&pos, m)), Ok(m));
            pos.clone().play(m).expect("a parsed move plays");
        }
        if let Ok(m) = western::parse(&pos, line) {
            assert!(pos.is_legal(m));
            for style in [western::Style::Hyphenated, western::Style::Aise] {
                assert_eq!(western::parse(&pos, &western::write(&pos, m, style)), Ok(m));
            }
            pos.clone().play(m).expect("a parsed move plays");
        }
        if let Ok(m) = parse_any(&pos, line) {
            assert!(pos.is_legal(m));
        }
        let _ = usi::parse_move(line, pos.variant());
    });
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
