//! Seven Kingdoms position text: a position that reads writes back to the same position,
//! its legal moves play, and the facade sets up a game from it.
#![no_main]

use libfuzzer_sys::fuzz_target;
use tavoliere_fuzz::{exercise, text};
use tavoliere_rules::notation::seven_kingdoms::position_text;
use tavoliere_rules::variant::{AnyGame, Variant};

fuzz_target!(|data: &[u8]| {
    let text = text(data);
    let Ok(pos) = position_text::parse(&text) else { return };
    assert_eq!(position_text::parse(&position_text::write(&pos)).as_ref(), Ok(&pos));
    let _ = pos.is_game_over();
    let _ = pos.outcome();
    let legal = pos.legal_moves();
    let step = legal.len().div_ceil(16).max(1);
    for &m in legal.iter().step_by(step) {
        assert!(pos.is_legal(m));
        let next = pos.play(m).expect("a legal move plays");
        let _ = next.outcome();
    }
    if let Ok(game) = AnyGame::new(Variant::SevenKingdoms, Some(&text)) {
        exercise(&game);
    }
});
