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
