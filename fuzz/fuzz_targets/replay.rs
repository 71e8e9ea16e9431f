//! The generic replay entry (`tavoliere replay`): format detection, the tokenizer, every
//! notation and the game laws (perpetual check and chase, sennichite, jishogi, the
//! Flickering series). The first byte picks the variant and the options; every report
//! names an error or a final position.
#![no_main]

use libfuzzer_sys::fuzz_target;
use tavoliere_fuzz::{split_selector, text};
use tavoliere_rules::replay::{detect_format, replay_text, ReplayOptions};
use tavoliere_rules::variant::Variant;

fuzz_target!(|data: &[u8]| {
    let Some((selector, rest)) = split_selector(data) else { return };
    let text = text(rest);
    let _ = detect_format(&text);
    let options = ReplayOptions {
        tournament: selector & 1 != 0,
        continue_after_end: selector & 2 != 0,
        ..ReplayOptions::default()
    };
    let variant = Variant::ALL[usize::from(selector >> 2) % Variant::ALL.len()];
    for report in replay_text(variant, &text, &options) {
        assert!(report.error.is_some() || !report.fen.is_empty(), "{report:?}");
    }
});
