//! Flickering chess series in coordinates (`e2e4,g1f3`) and algebraic notation (`e4, Nf3`).
//! The first byte picks a start position (the standard start and the perft positions);
//! each line of the rest is a series. Both notations read each line on the current
//! position: a series they accept plays and reads back from its written form in both
//! notations; the game goes on from it, and stops at a line neither reads. The first line
//! is also played as the server plays a turn (the series and repetition laws).
#![no_main]

use libfuzzer_sys::fuzz_target;
use tavoliere_fuzz::{game_from_selector, move_lines, play_as_server, split_selector, text};
use tavoliere_rules::chess::{Move, Position, Series};
use tavoliere_rules::notation::chess::{algebraic, fen, uci};
use tavoliere_rules::variant::Variant;

fn round_trips(pos: &Position, moves: &[Move]) -> Position {
    let coordinates = uci::write_series(moves);
    assert_eq!(uci::parse_series(pos, &coordinates).map(|s| s.moves().to_vec()).as_deref(), Ok(moves));
    if let Some(written) = algebraic::write_series(pos, moves) {
        let again = algebraic::parse_series(pos, &written).map(|s| s.moves().to_vec());
        assert_eq!(again.as_deref(), Ok(moves), "{written}");
    }
    Series::play(pos, moves).expect("a parsed series plays")
}

fuzz_target!(|data: &[u8]| {
    let Some((selector, rest)) = split_selector(data) else { return };
    let text = text(rest);
    let mut game = game_from_selector(Variant::Flickering, selector);
    let mut pos = fen::parse(&game.fen()).expect("the game's FEN reads");
    for line in move_lines(&text) {
        let coordinates = uci::parse_series(&pos, line).ok();
        let algebraic = algebraic::parse_series(&pos, line).ok();
        let mut next = None;
        for series in coordinates.iter().chain(&algebraic) {
            next = next.or(Some(round_trips(&pos, series.moves())));
        }
        let Some(next) = next else { break };
        pos = next;
    }
    if let Some(first) = text.lines().next() {
        play_as_server(&mut game, first);
    }
});
