//! Feeds arbitrary text to the Seven Kingdoms position-text, move and record readers. A
//! position text that reads must write and read back to the same position.
#![no_main]

use libfuzzer_sys::fuzz_target;
use tavoliere_rules::notation::seven_kingdoms::{moves, parse_record, position_text};
use tavoliere_rules::seven_kingdoms::Position;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    if let Ok(pos) = position_text::parse(&text) {
        assert_eq!(position_text::parse(&position_text::write(&pos)).as_ref(), Ok(&pos));
    }
    let start = Position::new();
    if let Ok(m) = moves::parse(&start, &text) {
        assert!(start.is_legal(m));
    }
    let _ = parse_record(&text);
});
