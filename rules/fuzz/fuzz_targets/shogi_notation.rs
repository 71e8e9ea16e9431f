//! Feeds arbitrary text to the SFEN reader and to every Shogi/MiniShogi move parser. A
//! move a parser accepts must be legal and survive a write/parse round trip.
#![no_main]

use libfuzzer_sys::fuzz_target;
use tavoliere_rules::notation::shogi::{parse_any, sfen, usi, western};
use tavoliere_rules::shogi::{Position, Variant};

fuzz_target!(|data: &[u8]| {
    let Some((&selector, rest)) = data.split_first() else { return };
    let text = String::from_utf8_lossy(rest);
    for variant in [None, Some(Variant::Standard), Some(Variant::Mini)] {
        if let Ok(pos) = sfen::parse(&text, variant) {
            assert_eq!(sfen::parse(&sfen::write(&pos), Some(pos.variant())).as_ref(), Ok(&pos));
        }
    }
    let variant = if selector % 2 == 0 { Variant::Standard } else { Variant::Mini };
    let pos = Position::startpos(variant);
    if let Ok(m) = usi::parse(&pos, &text) {
        assert!(pos.is_legal(m));
        assert_eq!(usi::parse(&pos, &usi::write(&pos, m)), Ok(m));
    }
    for style in [western::Style::Hyphenated, western::Style::Aise] {
        if let Ok(m) = western::parse(&pos, &text) {
            assert!(pos.is_legal(m));
            assert_eq!(western::parse(&pos, &western::write(&pos, m, style)), Ok(m));
        }
    }
    if let Ok(m) = parse_any(&pos, &text) {
        assert!(pos.is_legal(m));
    }
});
