//! Flickering chess series in coordinates (`e2e4,g1f3`) and algebraic notation (`e4, Nf3`).
//! The first byte picks a start position (the perft positions); each line of the rest is a
//! series. Before each line is played through the game (with the series and repetition
//! laws), both notations read it on the current position: a series they accept plays and
//! reads back from its written form.
#![no_main]

use libfuzzer_sys::fuzz_target;
use tavoliere_fuzz::{game_from_selector, play_lines, split_selector, text};
use tavoliere_rules::chess::Series;
use tavoliere_rules::notation::chess::{algebraic, fen, uci};
use tavoliere_rules::variant::Variant;

fuzz_target!(|data: &[u8]| {
    let Some((selector, rest)) = split_selector(data) else { return };
    let mut game = game_from_selector(Variant::Flickering, selector);
    play_lines(&mut game, &text(rest), |game, line| {
        let pos = fen::parse(&game.fen()).expect("the game's FEN reads");
        if let Ok(series) = uci::parse_series(&pos, line) {
            let written = uci::write_series(series.moves());
            assert_eq!(uci::parse_series(&pos, &written).map(|s| s.moves().to_vec()), Ok(series.moves().to_vec()));
            Series::play(&pos, series.moves()).expect("a parsed series plays");
        }
        if let Ok(series) = algebraic::parse_series(&pos, line) {
            if let Some(written) = algebraic::write_series(&pos, series.moves()) {
                assert_eq!(
                    algebraic::parse_series(&pos, &written).map(|s| s.moves().to_vec()),
                    Ok(series.moves().to_vec()),
                    "{written}"
                );
            }
            Series::play(&pos, series.moves()).expect("a parsed series plays");
        }
    });
});
