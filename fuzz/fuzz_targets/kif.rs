//! KIF records as bytes (UTF-8 or Shift_JIS, as uploaded): a record that reads is written
//! and read back to the same start and moves.
#![no_main]

use libfuzzer_sys::fuzz_target;
use tavoliere_rules::notation::shogi::kif;

fuzz_target!(|data: &[u8]| {
    let Ok(record) = kif::read_bytes(data) else { return };
    let _ = record.outcome();
    let _ = record.final_position();
    let written = kif::write(&record);
    let again = kif::read(&written).expect("a written KIF reads");
    assert_eq!((&again.start, &again.moves), (&record.start, &record.moves), "{written}");
});
