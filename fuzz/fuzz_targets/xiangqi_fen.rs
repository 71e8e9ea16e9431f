//! Xiangqi FEN: a position that reads writes back to the same text's position, every legal
//! move of it plays and survives a write/read round trip in each notation, and the facade
//! sets up a game from it.
#![no_main]

use libfuzzer_sys::fuzz_target;
use tavoliere_fuzz::{exercise, text};
use tavoliere_rules::notation::xiangqi::{chinese, fen, fix, iccs, wxf, MoveParser};
use tavoliere_rules::variant::{AnyGame, Variant};
use tavoliere_rules::xiangqi::{Move, Position};

const NOTATIONS: [(fn(&Position, Move) -> String, MoveParser); 4] = [
    (iccs::write, iccs::parse),
    (wxf::write, wxf::parse),
    (fix::write, fix::parse),
    (chinese::write, chinese::parse),
];

fuzz_target!(|data: &[u8]| {
    let text = text(data);
    let Ok(pos) = fen::parse(&text) else { return };
    assert_eq!(fen::parse(&fen::write(&pos)).as_ref(), Ok(&pos));
    let _ = pos.is_check();
    let _ = pos.outcome_by_basic_rules();
    let legal = pos.legal_moves();
    // Every move plays; a spread of them (the notations' readers scan the legal moves, so
    // all of them would be quadratic) survives the write/read round trips.
    let step = legal.len().div_ceil(8).max(1);
    for (i, &m) in legal.iter().enumerate() {
        assert!(pos.is_legal(m));
        for (write, parse) in NOTATIONS.into_iter().filter(|_| i % step == 0) {
            assert_eq!(parse(&pos, &write(&pos, m)), Ok(m), "{} in {}", write(&pos, m), fen::write(&pos));
        }
        let next = pos.clone().play(m).expect("a legal move plays");
        let _ = next.outcome_by_basic_rules();
    }
    if let Ok(game) = AnyGame::new(Variant::Xiangqi, Some(&text)) {
        exercise(&game);
    }
});
