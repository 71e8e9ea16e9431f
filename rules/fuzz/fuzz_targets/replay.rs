//! Feeds arbitrary text to the whole-record replay of every variant (format detection,
//! tokenizer, notation parsers and the game laws): it must never panic.
#![no_main]

use libfuzzer_sys::fuzz_target;
use tavoliere_rules::replay::{replay_text, ReplayOptions};
use tavoliere_rules::variant::Variant;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    for variant in Variant::ALL {
        for report in replay_text(variant, &text, &ReplayOptions::default()) {
            assert!(report.error.is_some() || !report.fen.is_empty());
        }
    }
});
