//! Chess FEN (the positions Flickering chess starts from): a position that reads writes
//! back to the same position, every legal move of it plays, and the facade sets up a
//! Flickering game from it.
#![no_main]

use libfuzzer_sys::fuzz_target;
use tavoliere_fuzz::{exercise, text};
use tavoliere_rules::notation::chess::fen;
use tavoliere_rules::variant::{AnyGame, Variant};

fuzz_target!(|data: &[u8]| {
    let text = text(data);
    let Ok(pos) = fen::parse(&text) else { return };
    assert_eq!(fen::parse(&fen::write(&pos)).as_ref(), Ok(&pos));
    let _ = pos.is_check();
    let _ = pos.outcome_by_basic_rules();
    for m in pos.legal_moves() {
        assert!(pos.is_legal(m));
        let next = pos.clone().play(m).expect("a legal move plays");
        let _ = next.outcome_by_basic_rules();
    }
    if let Ok(game) = AnyGame::new(Variant::Flickering, Some(&text)) {
        exercise(&game);
    }
});
