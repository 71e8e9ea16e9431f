//! Orthodox chess perft against the standard tables (`tests/data/chess.perft`).

mod common;

use tavoliere_rules::chess::{perft, Position};
use tavoliere_rules::notation::chess::fen;

#[test]
fn orthodox_perft_matches_the_standard_tables() {
    let cases = common::read_perft_file("chess.perft");
    assert!(cases.len() >= 3, "the startpos, Kiwipete and position 3 cases");
    for case in cases {
        let pos = fen::parse(&case.epd).unwrap_or_else(|e| panic!("{}: {e}", case.id));
        for &(depth, nodes) in &case.expected {
            if nodes > common::TEST_NODE_LIMIT {
                continue;
            }
            assert_eq!(perft(&pos, depth), nodes, "{} depth {depth}", case.id);
        }
    }
}

#[test]
fn start_position_fen_round_trips() {
    assert_eq!(fen::write(&Position::new()), fen::START_FEN);
    let kiwipete = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
    assert_eq!(fen::write(&fen::parse(kiwipete).unwrap()), kiwipete);
}
