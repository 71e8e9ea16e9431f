//! Feeds arbitrary text to every Xiangqi move parser and to the FEN reader. A move a
//! parser accepts must be legal and must survive a write/parse round trip.
#![no_main]

use libfuzzer_sys::fuzz_target;
use tavoliere_rules::notation::xiangqi::{chinese, fen, fix, iccs, parse_any, wxf, MoveParser};
use tavoliere_rules::xiangqi::{Move, Position};

const FENS: [&str; 3] = [
    "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
    "1rbaka2R/5r3/6n2/2p1p1p2/4P1bP1/PpC3Bc1/1nPR2P2/2N2AN2/1c2K1p2/2BAC4 w - - 0 1",
    "3k5/4P4/4P4/4P4/4P4/4P4/9/9/9/5K3 w - - 0 1",
];

const NOTATIONS: [(fn(&Position, Move) -> String, MoveParser); 4] = [
    (iccs::write, iccs::parse),
    (wxf::write, wxf::parse),
    (fix::write, fix::parse),
    (chinese::write, chinese::parse),
];

fuzz_target!(|data: &[u8]| {
    let Some((&selector, rest)) = data.split_first() else { return };
    let text = String::from_utf8_lossy(rest);
    if let Ok(pos) = fen::parse(&text) {
        assert_eq!(fen::parse(&fen::write(&pos)).as_ref(), Ok(&pos));
    }
    let pos = fen::parse(FENS[usize::from(selector) % FENS.len()]).expect("fixed FEN");
    for (write, parse) in NOTATIONS {
        if let Ok(m) = parse(&pos, &text) {
            assert!(pos.is_legal(m));
            assert_eq!(parse(&pos, &write(&pos, m)), Ok(m));
        }
    }
    if let Ok(m) = parse_any(&pos, &text) {
        assert!(pos.is_legal(m));
    }
});
