//! Feeds arbitrary bytes to the KIF and CSA readers (UTF-8 or Shift_JIS); a record they
//! accept must be written and read back to the same moves.
#![no_main]

use libfuzzer_sys::fuzz_target;
use tavoliere_rules::notation::shogi::{csa, kif};

fuzz_target!(|data: &[u8]| {
    if let Ok(record) = kif::read_bytes(data) {
        let text = kif::write(&record);
        assert_eq!(kif::read(&text).map(|r| r.moves), Ok(record.moves));
    }
    if let Ok(record) = csa::read_bytes(data) {
        if let Ok(text) = csa::write(&record) {
            assert_eq!(csa::read(&text).map(|r| r.moves), Ok(record.moves));
        }
    }
});
