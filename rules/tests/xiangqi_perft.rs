//! Perft of `tests/data/xiangqi.perft` (values from Fairy-Stockfish), up to the test node limit.

mod common;

use tavoliere_rules::notation::xiangqi::fen;
use tavoliere_rules::xiangqi::perft;

#[test]
fn every_perft_case_matches_up_to_the_node_limit() {
    let cases = common::read_perft_file("xiangqi.perft");
    assert!(cases.len() >= 3, "the perft file has cases");
    let mut checked = 0;
    for case in cases {
        let pos = fen::parse(&case.epd).unwrap_or_else(|e| panic!("{}: {e}", case.id));
        for (depth, nodes) in case.expected {
            if nodes > common::TEST_NODE_LIMIT {
                continue;
            }
            assert_eq!(perft(&pos, depth), nodes, "{} depth {depth}", case.id);
            checked += 1;
        }
    }
    assert!(checked >= 10, "only {checked} perft values checked");
}
