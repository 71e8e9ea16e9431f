//! Shogi and MiniShogi SFEN: a position that reads writes back to the same position, every
//! legal move of it plays and survives a write/read round trip in USI and both western
//! styles, and the facade sets up a game from it.
#![no_main]

use libfuzzer_sys::fuzz_target;
use tavoliere_fuzz::{exercise, text};
use tavoliere_rules::notation::shogi::{sfen, usi, western};
use tavoliere_rules::shogi::{self, Position};
use tavoliere_rules::variant::{AnyGame, Variant};

fn check(pos: &Position) {
    assert_eq!(sfen::parse(&sfen::write(pos), Some(pos.variant())).as_ref(), Ok(pos));
    let _ = pos.is_check();
    let _ = pos.outcome_by_basic_rules();
    let legal = pos.legal_moves();
    // Every move plays; a spread of them (the western reader scans the legal moves, so all
    // of them would be quadratic) survives the write/read round trips.
    let step = legal.len().div_ceil(8).max(1);
    for (i, &m) in legal.iter().enumerate() {
        assert!(pos.is_legal(m));
        assert_eq!(usi::parse(pos, &usi::write(pos, m)), Ok(m));
        for style in [western::Style::Hyphenated, western::Style::Aise].into_iter().filter(|_| i % step == 0)
        {
            let written = western::write(pos, m, style);
            assert_eq!(western::parse(pos, &written), Ok(m), "{written} in {}", sfen::write(pos));
        }
        let next = pos.clone().play(m).expect("a legal move plays");
        let _ = next.outcome_by_basic_rules();
    }
}

fuzz_target!(|data: &[u8]| {
    let text = text(data);
    for board in [None, Some(shogi::Variant::Standard), Some(shogi::Variant::Mini)] {
        if let Ok(pos) = sfen::parse(&text, board) {
            check(&pos);
        }
    }
    for variant in [Variant::Shogi, Variant::MiniShogi] {
        if let Ok(game) = AnyGame::new(variant, Some(&text)) {
            exercise(&game);
        }
    }
});
