//! The ruling paragraph in both languages, for every law.

use super::*;
use tavoliere_rules::game::ruling::{
    Citation, Evidence, MoveLimit, PlyMove, PointCount, SideCount, SideMoves,
};
use tavoliere_rules::replay::{replay_text, ReplayOptions};
use tavoliere_rules::variant::{AnyGame, Notation};

/// A game replayed from canonical moves, with its ruling and its moves in the
/// variant's display notation.
fn replayed(variant: Variant, start: Option<&str>, moves: &str) -> (Ruling, Vec<String>) {
    let mut game = AnyGame::new(variant, start).unwrap();
    for m in moves.split_whitespace() {
        game.play(m).unwrap();
    }
    (game.ruling().expect("a law ended the game"), game.display_moves(Notation::Auto))
}

fn both(ruling: &Ruling, variant: Variant, moves: &[String]) -> (String, String) {
    let record = RulingRecord { variant, moves };
    (paragraph(ruling, &record, Lang::En), paragraph(ruling, &record, Lang::It))
}

/// No catalogue key is left unreplaced, nor a placeholder.
fn assert_complete(text: &str) {
    assert!(!text.contains("ruling."), "a key is missing: {text}");
    assert!(!text.contains('{'), "a placeholder is left: {text}");
}

/// A game of the Liu Dahua collection (1-based), replayed.
fn liu_dahua(number: usize) -> (Ruling, Vec<String>) {
    let text = include_str!("../../../rules/tests/data/records/liu-dahua-1125-iccs.pgn");
    let game = text.split("[Event ").nth(number).expect("the game");
    let report =
        replay_text(Variant::Xiangqi, &format!("[Event {game}"), &ReplayOptions::default()).remove(0);
    let mut replay = AnyGame::new(Variant::Xiangqi, None).unwrap();
    for m in &report.moves {
        replay.play(m).unwrap();
    }
    (report.ruling.expect("a ruling"), replay.display_moves(Notation::Auto))
}

#[test]
fn a_perpetual_check_names_the_series_ply_by_ply_in_wxf() {
    let (ruling, moves) = replayed(
        Variant::Xiangqi,
        Some("4k4/9/9/9/9/9/9/9/9/3K4R w - - 0 1"),
        "i0i9 e9e8 i9i8 e8e9 i8i9 e9e8 i9i8 e8e9 i8i9 e9e8 i9i8 e8e9 i8i9",
    );
    let (en, it) = both(&ruling, Variant::Xiangqi, &moves);
    assert_complete(&en);
    assert_complete(&it);
    assert!(en.starts_with("Red loses by perpetual check at ply 13"), "{en}");
    assert!(en.contains("xiangqi.md"), "{en}");
    assert!(en.contains("rules 1, 3, 5"), "{en}");
    assert!(en.contains("check series"), "{en}");
    // Ply 1 in WXF with what it checked.
    assert!(en.contains(&format!("ply 1 ({})", moves[0])), "{en}");
    assert!(en.contains("chariot i9 checks the king e9"), "{en}");
    assert!(en.contains("1 distinct piece"), "{en}");
    assert!(en.contains("allowance 6"), "{en}");
    assert!(it.starts_with("Rosso perde per scacco perpetuo alla semimossa 13"), "{it}");
    assert!(it.contains("carro i9 dà scacco al re e9"), "{it}");
    assert!(it.contains(&format!("semimossa 1 ({})", moves[0])), "{it}");
}

#[test]
fn a_perpetual_chase_names_the_target_and_the_limit() {
    // Liu Dahua - Chen Lichun 2006 (docs/rulings-audit.md, game 935): Black's chariot
    // chases Red's cannon, plies 80-92.
    let (ruling, moves) = liu_dahua(935);
    assert_eq!(ruling.law, "perpetual-chase");
    let (en, it) = both(&ruling, Variant::Xiangqi, &moves);
    assert_complete(&en);
    assert_complete(&it);
    assert!(en.starts_with("Black loses by perpetual chase at ply 92"), "{en}");
    assert!(en.contains("chase series"), "{en}");
    assert!(en.contains("attacks the cannon"), "{en}");
    assert!(en.contains(&format!("ply 80 ({})", moves[79])), "{en}");
    assert!(it.starts_with("Nero perde per attacco perpetuo alla semimossa 92"), "{it}");
    assert!(it.contains("attacca cannone"), "{it}");
}

#[test]
fn a_no_progress_draw_names_the_plies_counted_and_the_last_progress() {
    // Liu Dahua - Li Laiqun 1992 (game 95): last progress ply 125, plies 126-185.
    let (ruling, moves) = liu_dahua(95);
    assert_eq!(ruling.law, "no-progress-30");
    let (en, it) = both(&ruling, Variant::Xiangqi, &moves);
    assert_complete(&en);
    assert_complete(&it);
    assert!(en.starts_with("Draw by no progress at ply 185"), "{en}");
    assert!(en.contains("60 plies"), "{en}");
    assert!(en.contains(&format!("ply 126 ({})", moves[125])), "{en}");
    assert!(en.contains(&format!("the last progress was ply 125 ({})", moves[124])), "{en}");
    assert!(it.starts_with("Patta per nessun progresso alla semimossa 185"), "{it}");
    assert!(it.contains(&format!("l'ultimo progresso è stato la semimossa 125 ({})", moves[124])), "{it}");
}

#[test]
fn sennichite_names_where_the_position_stood_and_who_began() {
    let shuffle = "2h3h 8b7b 3h2h 7b8b ".repeat(3);
    let (ruling, moves) = replayed(Variant::Shogi, None, &shuffle);
    assert_eq!(ruling.law, "sennichite");
    let (en, it) = both(&ruling, Variant::Shogi, &moves);
    assert_complete(&en);
    assert_complete(&it);
    assert!(en.starts_with("Draw by sennichite"), "{en}");
    assert!(en.contains("4 times"), "{en}");
    assert!(en.contains("the start"), "{en}");
    assert!(en.contains(&format!("ply 12 ({})", moves[11])), "{en}");
    assert!(en.contains("No side checked with every move"), "{en}");
    assert!(it.contains("4 volte"), "{it}");
    assert!(it.contains("la posizione iniziale"), "{it}");
}

fn citation(section: &'static str) -> Citation {
    Citation { spec: "shogi.md", section, items: &[], interpretation: false }
}

#[test]
fn an_impasse_count_gives_both_counts_piece_by_piece() {
    let side = |side, points, rook: u32| SideCount {
        side,
        points,
        pieces: vec![
            CountedPiece { piece: "rook", square: Some("2c".into()), count: 1, points: 5 * rook },
            CountedPiece { piece: "pawn", square: None, count: 3, points: 3 },
        ],
    };
    let ruling = Ruling {
        law: "impasse-24",
        citation: citation("End of the game"),
        ply: 200,
        against: Some(Color::Second),
        evidence: Evidence::PointCount(PointCount {
            kings: vec![
                PieceAt { piece: "king", side: Color::First, square: Some("5b".into()) },
                PieceAt { piece: "king", side: Color::Second, square: Some("5h".into()) },
            ],
            threshold: Some(24),
            counts: vec![side(Color::First, 31, 1), side(Color::Second, 17, 1)],
        }),
    };
    let (en, it) = both(&ruling, Variant::Shogi, &[]);
    assert_complete(&en);
    assert_complete(&it);
    assert!(en.starts_with("Gote (white) loses by impasse (24 points) at ply 200"), "{en}");
    assert!(en.contains("Sente (black): 31 points"), "{en}");
    assert!(en.contains("Gote (white): 17 points"), "{en}");
    assert!(en.contains("1 rook 2c = 5"), "{en}");
    assert!(en.contains("3 pawn in hand = 3"), "{en}");
    assert!(en.contains("24"), "{en}");
    assert!(it.contains("Sente (nero): 31 punti"), "{it}");
    assert!(it.contains("3 pedone in mano = 3"), "{it}");
}

#[test]
fn a_declaration_lists_its_conditions() {
    let ruling = Ruling {
        law: "impasse-declaration",
        citation: citation("End of the game"),
        ply: 150,
        against: Some(Color::Second),
        evidence: Evidence::Declaration(Declaration {
            declarer: Color::First,
            king: PieceAt { piece: "king", side: Color::First, square: Some("5b".into()) },
            king_in_camp: true,
            in_check: false,
            pieces_in_camp: 10,
            pieces_needed: 10,
            points: 28,
            points_needed: 28,
            valid: true,
            pieces: vec![CountedPiece { piece: "gold", square: Some("4b".into()), count: 1, points: 1 }],
        }),
    };
    let (en, it) = both(&ruling, Variant::Shogi, &[]);
    assert_complete(&en);
    assert_complete(&it);
    assert!(en.contains("28 of 28 points"), "{en}");
    assert!(en.contains("the declaration holds"), "{en}");
    assert!(it.contains("28 punti su 28"), "{it}");
}

#[test]
fn move_count_draws_name_the_counts_and_the_last_move() {
    let effective = Ruling {
        law: "move-limit-120",
        citation: Citation {
            spec: "xiangqi.md",
            section: "CXQ automatic draws",
            items: &[1],
            interpretation: false,
        },
        ply: 240,
        against: None,
        evidence: Evidence::EffectiveMoves(EffectiveMoves {
            limit_per_side: 120,
            sides: vec![
                SideMoves {
                    side: Color::First,
                    counted: 120,
                    plies: (1..=239).step_by(2).collect(),
                    last: Some(PlyMove { ply: 239, mv: "h2e2".into() }),
                },
                SideMoves {
                    side: Color::Second,
                    counted: 120,
                    plies: (2..=240).step_by(2).collect(),
                    last: Some(PlyMove { ply: 240, mv: "h9g7".into() }),
                },
            ],
        }),
    };
    let (en, it) = both(&effective, Variant::Xiangqi, &[]);
    assert_complete(&en);
    assert_complete(&it);
    assert!(en.starts_with("Draw by move limit at ply 240"), "{en}");
    assert!(en.contains("Red: 120 effective moves, the last ply 239 (h2e2)"), "{en}");
    assert!(it.contains("Nero: 120 mosse effettive, l'ultima la semimossa 240 (h9g7)"), "{it}");
    let limit = Ruling {
        law: "move-limit-300",
        citation: Citation {
            spec: "xiangqi.md",
            section: "CXQ automatic draws",
            items: &[3],
            interpretation: false,
        },
        ply: 600,
        against: None,
        evidence: Evidence::MoveLimit(MoveLimit { limit_per_side: 300, moves: vec![300, 300] }),
    };
    let (en, it) = both(&limit, Variant::Xiangqi, &[]);
    assert_complete(&en);
    assert_complete(&it);
    assert!(en.contains("Red made 300 moves and Black 300; the limit is 300 each"), "{en}");
    assert!(it.contains("il limite è 300 a testa"), "{it}");
}

#[test]
fn a_checkmate_names_the_checkers() {
    // Black's king d9; Red's chariot b8 holds rank 8, the chariot a0 mates on rank 9
    // (e9 faces Red's king).
    let (ruling, moves) = replayed(Variant::Xiangqi, Some("3k5/1R7/9/9/9/9/9/9/9/R3K4 w - - 0 1"), "a0a9");
    let (en, it) = both(&ruling, Variant::Xiangqi, &moves);
    assert_complete(&en);
    assert_complete(&it);
    assert!(en.starts_with("Black loses by checkmate at ply 1"), "{en}");
    assert!(en.contains("Black had no legal move, its king in check by the chariot a9"), "{en}");
    assert!(it.contains("sotto scacco da: carro a9"), "{it}");
}

#[test]
fn the_ruling_data_is_escaped() {
    let ruling = Ruling {
        law: "dead-position",
        citation: Citation {
            spec: "xiangqi.md",
            section: "CXQ automatic draws",
            items: &[],
            interpretation: false,
        },
        ply: 3,
        against: None,
        evidence: Evidence::DeadPosition(DeadPosition {
            pieces: vec![PieceAt { piece: "king", side: Color::First, square: Some("<b>".into()) }],
        }),
    };
    let (en, it) = both(&ruling, Variant::Xiangqi, &[]);
    assert!(en.contains("&lt;b&gt;") && !en.contains("<b>"), "{en}");
    assert_complete(&en);
    assert_complete(&it);
}
