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

#[test]
fn orthodox_play_refuses_illegal_moves_with_a_reason_and_hands_the_position_back() {
    use tavoliere_rules::chess::{IllegalMoveKind, Move, MoveKind};
    let sq = |s: &str| s.parse().unwrap();
    let start = Position::new();
    let e5 = Move { from: sq("e2"), to: sq("e5"), kind: MoveKind::Normal };
    let err = start.clone().play(e5).unwrap_err();
    assert_eq!(err.kind, IllegalMoveKind::NotAMove);
    assert_eq!(*err.position, start);
    // The pinned knight may not leave the e-file.
    let pinned = fen::parse("4r1k1/8/8/8/8/8/4N3/4K3 w - - 0 1").unwrap();
    let nc3 = Move { from: sq("e2"), to: sq("c3"), kind: MoveKind::Normal };
    assert_eq!(pinned.clone().play(nc3).unwrap_err().kind, IllegalMoveKind::LeavesKingInCheck);
    let e4 = Move { from: sq("e2"), to: sq("e4"), kind: MoveKind::Normal };
    let after = start.play(e4).unwrap();
    assert_eq!(fen::write(&after), "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1");
}

#[test]
fn orthodox_mate_and_stalemate_by_the_basic_rules() {
    use tavoliere_rules::{Color, EndReason, Outcome};
    let mate = fen::parse("rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3").unwrap();
    assert_eq!(mate.outcome_by_basic_rules(), Some(Outcome::win(Color::Second, EndReason::Checkmate)));
    let stalemate = fen::parse("k7/8/1QK5/8/8/8/8/8 b - - 0 1").unwrap();
    assert_eq!(stalemate.outcome_by_basic_rules(), Some(Outcome::draw(EndReason::Stalemate)));
    assert_eq!(Position::new().outcome_by_basic_rules(), None);
}

#[test]
fn zobrist_keys_follow_the_moves_and_ignore_the_path() {
    let a = fen::parse("rnbqkbnr/pppppppp/8/8/8/5N2/PPPPPPPP/RNBQKB1R b KQkq - 1 1").unwrap();
    let mut b = Position::new();
    let nf3 =
        b.legal_moves().into_iter().find(|m| m.to.to_string() == "f3" && m.from.to_string() == "g1").unwrap();
    b.play_unchecked(nf3);
    assert_eq!(a.zobrist(), b.zobrist());
    assert_ne!(a.zobrist(), Position::new().zobrist());
}
