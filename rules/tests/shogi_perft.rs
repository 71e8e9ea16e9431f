//! Perft of every case of `tests/data/shogi.perft` and `tests/data/minishogi.perft`, up to
//! `common::TEST_NODE_LIMIT` leaves (deeper values run in `benches/shogi.rs`).

mod common;

use tavoliere_rules::notation::shogi::sfen;
use tavoliere_rules::shogi::{perft, Position, Variant};

fn run_file(name: &str, variant: Variant) {
    let cases = common::read_perft_file(name);
    assert!(!cases.is_empty(), "{name} has no cases");
    let mut checked = 0;
    for case in cases {
        // Some test positions (tsume style) give a side no king.
        let setup =
            sfen::parse_setup(&case.epd, Some(variant)).unwrap_or_else(|e| panic!("{}: {e}", case.id));
        let pos =
            Position::from_setup_allowing_missing_kings(setup).unwrap_or_else(|e| panic!("{}: {e}", case.id));
        for &(depth, nodes) in &case.expected {
            if nodes > common::TEST_NODE_LIMIT {
                continue;
            }
            assert_eq!(perft(&pos, depth), nodes, "{} depth {depth}", case.id);
            checked += 1;
        }
    }
    assert!(checked > 0, "{name}: no value under the node limit");
}

#[test]
fn shogi_perft_matches_the_reference_values() {
    run_file("shogi.perft", Variant::Standard);
}

#[test]
fn minishogi_perft_matches_the_reference_values() {
    run_file("minishogi.perft", Variant::Mini);
}
