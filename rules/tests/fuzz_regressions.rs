//! Inputs the fuzz targets (`fuzz/`, `scripts/fuzz`) found to panic, kept as tests.

use tavoliere_rules::replay::{detect_format, replay_text, RecordFormat, ReplayOptions};
use tavoliere_rules::variant::Variant;

/// `replay` target: a seven-byte line `+338あ` looks like a CSA move by its first byte and
/// length; reading its digits sliced the text inside the wide character and panicked.
#[test]
fn a_seven_byte_line_with_a_wide_character_is_no_csa_move_and_no_panic() {
    assert_eq!(detect_format("+338あ\n"), RecordFormat::Lines);
    let fuzzed = "VN+sente\nN-got;e\nP\u{fffd}+\n 3a5a 2e5FU\u{fffd}b 2-4132KI\n+338\u{fffd}\n";
    for variant in Variant::ALL {
        for report in replay_text(variant, fuzzed, &ReplayOptions::default()) {
            assert!(report.error.is_some() || !report.fen.is_empty());
        }
    }
}

/// `chess_fen` target: a Flickering chess start whose mate search needs millions of series
/// states (about 2.6 s) made one request that costly. A supplied start is now judged
/// within `SearchLimits::START_POSITION` and refused when undecided; the count of states
/// is what is checked, not the time.
#[test]
fn a_flickering_start_too_costly_to_judge_is_refused_as_a_setup_error() {
    use tavoliere_rules::chess::{search_saving_series, SearchLimits, SearchResult};
    use tavoliere_rules::notation::chess::fen;
    use tavoliere_rules::variant::{AnyGame, SetupError, StartPositionError};

    let costly = "r3k2r/p1ppqpb1/bn2pn11/3N3P/1p23Q/Q2rNq2/p1pPqppP/R3K2R w KQkq - 0";
    let position = fen::parse(costly).expect("a readable FEN");
    let (result, stats) = search_saving_series(&position, SearchLimits::START_POSITION);
    assert_eq!(result, SearchResult::Undecided);
    assert!(stats.nodes > SearchLimits::START_POSITION.max_nodes);

    let refused = AnyGame::new(Variant::Flickering, Some(costly)).expect_err("refused");
    assert_eq!(refused, SetupError::StartPosition(StartPositionError::Undecided));
    assert_eq!(refused.code(), "setup.start-position");

    // An ordinary supplied start is still accepted, and a mated one still ends the game.
    let open = "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3";
    assert!(AnyGame::new(Variant::Flickering, Some(open)).expect("accepted").outcome().is_none());
    let mated = "7k/6Q1/6K1/8/8/8/8/8 b - - 0 1";
    assert!(AnyGame::new(Variant::Flickering, Some(mated)).expect("accepted").outcome().is_some());
}
