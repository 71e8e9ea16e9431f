//! CSA records as bytes: a record that reads (and can be written: CSA has no MiniShogi
//! board) is written and read back to the same start and moves.
#![no_main]

use libfuzzer_sys::fuzz_target;
use tavoliere_rules::notation::shogi::csa;

fuzz_target!(|data: &[u8]| {
    let Ok(record) = csa::read_bytes(data) else { return };
    let _ = record.outcome();
    let _ = record.final_position();
    let Ok(written) = csa::write(&record) else { return };
    let again = csa::read(&written).expect("a written CSA record reads");
    assert_eq!((&again.start, &again.moves), (&record.start, &record.moves), "{written}");
});
