//! Rulings (issue 15 §2): every law that ends a game explains itself with the law, its
//! place in `../shared/rules/*.md`, the ply, the side ruled against and the evidence. One
//! test per law family; each checks the pieces, squares and plies a director would check.

use tavoliere_rules::chess;
use tavoliere_rules::game::ruling::{
    Citation, CountedPiece, Evidence, PieceAt, PlyMove, Ruling, SeriesKind, SideCount,
};
use tavoliere_rules::game::shogi::{Claim, ShogiGame};
use tavoliere_rules::game::xiangqi::XiangqiGame;
use tavoliere_rules::game::{CxqLimits, ImpasseRule, MiniRepetitionRule, Ruleset};
use tavoliere_rules::notation::chess::{fen as chess_fen, uci};
use tavoliere_rules::notation::shogi::{sfen, usi};
use tavoliere_rules::notation::xiangqi::{fen, iccs};
use tavoliere_rules::seven_kingdoms::{self as kingdoms, Kingdom, PieceKind};
use tavoliere_rules::shogi;
use tavoliere_rules::variant::{AnyGame, Variant};
use tavoliere_rules::Color::{self, First, Second};

const CXQ: Ruleset = Ruleset::Cxq(CxqLimits::STANDARD);

fn xiangqi(start: &str, ruleset: Ruleset, moves: &[&str]) -> XiangqiGame {
    let mut game =
        XiangqiGame::new(fen::parse(start).unwrap_or_else(|e| panic!("{start}: {e}")), ruleset, None);
    for (i, text) in moves.iter().enumerate() {
        let m = iccs::parse(game.position(), text).unwrap_or_else(|e| panic!("ply {}: {text}: {e}", i + 1));
        game.play(m).unwrap_or_else(|e| panic!("ply {}: {text}: {e}", i + 1));
    }
    game
}

fn shogi_game(start: &str, ruleset: Ruleset, moves: &[&str]) -> ShogiGame {
    let variant = if matches!(ruleset, Ruleset::MiniShogi { .. }) {
        shogi::Variant::Mini
    } else {
        shogi::Variant::Standard
    };
    let mut game = ShogiGame::new(sfen::parse(start, Some(variant)).unwrap(), ruleset, None);
    for (i, text) in moves.iter().enumerate() {
        let m = usi::parse(game.position(), text).unwrap_or_else(|e| panic!("ply {}: {text}: {e}", i + 1));
        game.play(m).unwrap_or_else(|e| panic!("ply {}: {text}: {e}", i + 1));
    }
    game
}

fn cycle(moves: &[&'static str], plies: usize) -> Vec<&'static str> {
    moves.iter().copied().cycle().take(plies).collect()
}

fn piece(piece: &'static str, side: Color, square: &str) -> PieceAt {
    PieceAt { piece, side, square: Some(square.to_owned()) }
}

fn ply_move(ply: u32, mv: &str) -> PlyMove {
    PlyMove { ply, mv: mv.to_owned() }
}

fn ruling_of(ruling: Option<&Ruling>) -> &Ruling {
    ruling.expect("a law ended the game")
}

#[test]
fn a_xiangqi_checkmate_names_the_side_and_its_checkers() {
    let game = xiangqi("3k5/R8/9/9/9/9/9/9/9/4K3R w - - 0 1", CXQ, &["i0i9"]);
    let ruling = ruling_of(game.ruling());
    assert_eq!((ruling.law, ruling.ply, ruling.against), ("checkmate", 1, Some(Second)));
    assert_eq!(
        ruling.citation,
        Citation { spec: "xiangqi.md", section: "Legality", items: &[3], interpretation: false }
    );
    let Evidence::NoLegalMove(evidence) = &ruling.evidence else { panic!("{ruling:?}") };
    assert_eq!((evidence.side, evidence.in_check), (Second, true));
    assert_eq!(evidence.checkers, [piece("chariot", First, "i9")]);
}

#[test]
fn a_cxq_perpetual_chase_lists_every_ply_with_attacker_and_target() {
    // Red's chariot follows Black's unprotected horse between b7 and a5 (rule 2).
    let moves = cycle(&["a0b0", "b7a5", "b0a0", "a5b7"], 13);
    let game = xiangqi("4k4/9/1n7/9/9/9/9/9/9/R2K5 w - - 0 1", CXQ, &moves);
    let ruling = ruling_of(game.ruling());
    assert_eq!((ruling.law, ruling.ply, ruling.against), ("perpetual-chase", 13, Some(First)));
    assert_eq!(ruling.citation.items, [2, 3, 5]);
    let Evidence::CxqSeries(evidence) = &ruling.evidence else { panic!("{ruling:?}") };
    let series = &evidence.series;
    assert_eq!((series.kind, series.side), (SeriesKind::Chase, First));
    assert_eq!((series.length, series.pieces, series.allowance), (7, 1, 6));
    assert!(series.perpetual);
    assert_eq!(series.target, piece("horse", Second, "b7"));
    assert_eq!(series.plies.iter().map(|p| p.ply).collect::<Vec<_>>(), [1, 3, 5, 7, 9, 11, 13]);
    let first = &series.plies[0];
    assert_eq!(first.mv, "a0b0");
    assert_eq!(first.by, [piece("chariot", First, "b0")]);
    assert_eq!(first.target, piece("horse", Second, "b7"));
    let second = &series.plies[1];
    assert_eq!((second.by[0].square.as_deref(), second.target.square.as_deref()), (Some("a0"), Some("a5")));
    assert_eq!((evidence.opponent_check.as_ref(), evidence.opponent_chase.as_ref()), (None, None));
    assert_eq!((evidence.limits.per_piece, evidence.limits.max_pieces), (6, 3));
}

#[test]
fn a_cxq_perpetual_check_names_the_king_checked_at_each_ply() {
    // Red's chariot checks along ranks 9 and 8 while Black's king steps between e9 and e8.
    let mut moves = vec!["i0i9"];
    moves.extend(cycle(&["e9e8", "i9i8", "e8e9", "i8i9"], 12));
    let game = xiangqi("4k4/9/9/9/9/9/9/9/9/3K4R w - - 0 1", CXQ, &moves);
    let ruling = ruling_of(game.ruling());
    assert_eq!((ruling.law, ruling.ply, ruling.against), ("perpetual-check", 13, Some(First)));
    assert_eq!(ruling.citation.items, [1, 3, 5]);
    let Evidence::CxqSeries(evidence) = &ruling.evidence else { panic!("{ruling:?}") };
    let series = &evidence.series;
    assert_eq!((series.kind, series.length, series.allowance), (SeriesKind::Check, 7, 6));
    assert_eq!(series.plies[0].by, [piece("chariot", First, "i9")]);
    assert_eq!(series.plies[0].target, piece("king", Second, "e9"));
    assert_eq!(series.plies[1].target, piece("king", Second, "e8"));
}

#[test]
fn a_cxq_no_progress_draw_names_the_plies_counted_and_the_last_progress() {
    // Red's chariot takes Black's on a1 (progress), then both sides shuffle: 60 plies
    // without progress, from ply 2 to ply 61.
    let mut moves = vec!["a0a1"];
    moves.extend(cycle(&["e9e8", "a1a2", "e8e9", "a2a1"], 60));
    let game = xiangqi("4k4/9/9/9/9/9/9/9/r8/R2K5 w - - 0 1", CXQ, &moves);
    let ruling = ruling_of(game.ruling());
    assert_eq!((ruling.law, ruling.ply, ruling.against), ("no-progress-30", 61, None));
    assert_eq!(ruling.citation.section, "CXQ automatic draws");
    assert_eq!(ruling.citation.items, [2]);
    let Evidence::NoProgress(evidence) = &ruling.evidence else { panic!("{ruling:?}") };
    assert_eq!(
        (evidence.limit_per_side, evidence.plies, evidence.from_ply, evidence.to_ply),
        (30, 60, 2, 61)
    );
    assert_eq!(evidence.last_progress, Some(ply_move(1, "a0a1")));
}

#[test]
fn a_cxq_efficiency_draw_lists_each_sides_effective_plies() {
    // With a limit of 3 effective moves each (a ruleset value), quiet shuffling ends at ply 6.
    let limits = CxqLimits { effective_moves: 3, ..CxqLimits::STANDARD };
    let moves = cycle(&["a1a2", "e9e8", "a2a1", "e8e9"], 6);
    let game = xiangqi("4k4/9/9/9/9/9/9/9/R8/3K5 w - - 0 1", Ruleset::Cxq(limits), &moves);
    let ruling = ruling_of(game.ruling());
    assert_eq!((ruling.law, ruling.ply), ("move-limit-120", 6));
    let Evidence::EffectiveMoves(evidence) = &ruling.evidence else { panic!("{ruling:?}") };
    assert_eq!(evidence.limit_per_side, 3);
    assert_eq!((evidence.sides[0].side, evidence.sides[0].counted), (First, 3));
    assert_eq!(evidence.sides[0].plies, [1, 3, 5]);
    assert_eq!(evidence.sides[1].plies, [2, 4, 6]);
    assert_eq!(evidence.sides[1].last, Some(ply_move(6, "e9e8")));
}

#[test]
fn a_cxq_check_and_its_reply_are_not_counted_as_effective() {
    // "CXQ automatic draws" 1: Red's check (ply 1) and Black's reply (ply 2) do not count.
    let limits = CxqLimits { effective_moves: 2, ..CxqLimits::STANDARD };
    let moves = ["a1a9", "e9e8", "a9a7", "e8e9", "a7a6", "e9e8"];
    let game = xiangqi("4k4/9/9/9/9/9/9/9/R8/3K5 w - - 0 1", Ruleset::Cxq(limits), &moves);
    let ruling = ruling_of(game.ruling());
    let Evidence::EffectiveMoves(evidence) = &ruling.evidence else { panic!("{ruling:?}") };
    assert_eq!(evidence.sides[0].plies, [3, 5]);
    assert_eq!(evidence.sides[1].plies, [4, 6]);
}

#[test]
fn a_cxq_length_draw_counts_each_sides_moves() {
    let limits = CxqLimits { moves_per_side: 2, ..CxqLimits::STANDARD };
    let moves = ["a1a2", "e9e8", "a2a1", "e8e9"];
    let game = xiangqi("4k4/9/9/9/9/9/9/9/R8/3K5 w - - 0 1", Ruleset::Cxq(limits), &moves);
    let ruling = ruling_of(game.ruling());
    assert_eq!((ruling.law, ruling.ply, ruling.citation.items), ("move-limit-300", 4, &[3u8][..]));
    let Evidence::MoveLimit(evidence) = &ruling.evidence else { panic!("{ruling:?}") };
    assert_eq!((evidence.limit_per_side, evidence.moves.as_slice()), (2, &[2, 2][..]));
}

#[test]
fn a_cxq_dead_position_lists_the_pieces_left() {
    // Red's king takes the last soldier: only the kings are left.
    let game = xiangqi("4k4/9/9/9/9/9/9/9/3p5/3K5 w - - 0 1", CXQ, &["d0d1"]);
    let ruling = ruling_of(game.ruling());
    assert_eq!((ruling.law, ruling.ply, ruling.against), ("dead-position", 1, None));
    let Evidence::DeadPosition(evidence) = &ruling.evidence else { panic!("{ruling:?}") };
    assert_eq!(evidence.pieces, [piece("king", First, "d1"), piece("king", Second, "e9")]);
}

#[test]
fn a_cxq_ruling_names_the_opponents_series_for_rule_5() {
    // Red's chariot chases Black's horse up the b-file while Black's chariot chases Red's
    // horse down the h-file, each moving along the file every move:
    // both chase perpetually, a draw (rule 5); the ruling shows both series.
    let moves = cycle(&["b0b1", "h9h8", "b1b0", "h8h9"], 13);
    let game = xiangqi("4k2r1/9/1n7/9/9/9/9/7N1/9/1R1K5 w - - 0 1", CXQ, &moves);
    let ruling = ruling_of(game.ruling());
    assert_eq!((ruling.law, ruling.ply, ruling.against), ("mutual-perpetual-chase", 13, None));
    let Evidence::CxqSeries(evidence) = &ruling.evidence else { panic!("{ruling:?}") };
    assert_eq!((evidence.series.side, evidence.series.length), (First, 7));
    let theirs = evidence.opponent_chase.as_ref().expect("Black's chase series");
    assert_eq!((theirs.side, theirs.length, theirs.used_allowance), (Second, 6, true));
    assert_eq!(theirs.target, piece("horse", First, "h2"));
    assert_eq!(theirs.plies[0].by, [piece("chariot", Second, "h8")]);
}

const SHOGI_24: Ruleset = Ruleset::Shogi(ImpasseRule::TwentyFourPoints);
const AISE: Ruleset = Ruleset::MiniShogi { repetition: MiniRepetitionRule::Aise, tournament: false };

#[test]
fn sennichite_names_the_plies_of_the_four_occurrences() {
    let moves = cycle(&["5i5h", "5a5b", "5h5i", "5b5a"], 12);
    let game = shogi_game("4k4/9/9/9/9/9/9/9/4K4 b - 1", SHOGI_24, &moves);
    let ruling = ruling_of(game.ruling());
    assert_eq!((ruling.law, ruling.ply, ruling.against), ("sennichite", 12, None));
    assert_eq!(
        ruling.citation,
        Citation { spec: "shogi.md", section: "End of the game", items: &[], interpretation: true }
    );
    let Evidence::Repetition(evidence) = &ruling.evidence else { panic!("{ruling:?}") };
    assert_eq!(evidence.occurrences, [0, 4, 8, 12]);
    assert_eq!(evidence.cycle_started_by, First);
    assert!(evidence.checking_throughout.is_empty());
    assert_eq!(evidence.position, "4k4/9/9/9/9/9/9/9/4K4 b - 13");
}

#[test]
fn perpetual_check_sennichite_names_the_checker() {
    let mut moves = vec!["1i1a", "5a5b"];
    moves.extend(cycle(&["1a1b", "5b5a", "1b1a", "5a5b"], 11));
    let game = shogi_game("4k4/9/9/9/9/9/9/9/4K3R b - 1", SHOGI_24, &moves);
    let ruling = ruling_of(game.ruling());
    assert_eq!((ruling.law, ruling.ply, ruling.against), ("perpetual-check", 13, Some(First)));
    let Evidence::Repetition(evidence) = &ruling.evidence else { panic!("{ruling:?}") };
    assert_eq!(evidence.occurrences, [1, 5, 9, 13]);
    assert_eq!(evidence.checking_throughout, [First]);
    assert_eq!(evidence.cycle_started_by, Second);
}

#[test]
fn minishogi_repetition_rulings_name_who_began_the_cycle() {
    let aise = shogi_game("k4/5/5/5/4K b - 1", AISE, &cycle(&["1e1d", "5a5b", "1d1e", "5b5a"], 12));
    let ruling = ruling_of(aise.ruling());
    assert_eq!((ruling.law, ruling.against), ("repetition-initiator-loses", Some(First)));
    assert_eq!(ruling.citation.spec, "minishogi.md");
    let Evidence::Repetition(evidence) = &ruling.evidence else { panic!("{ruling:?}") };
    assert_eq!((evidence.cycle_started_by, evidence.occurrences.as_slice()), (First, &[0, 4, 8, 12][..]));

    // Modern rule: White began the cycle, but the first player (Black) loses.
    let modern = Ruleset::MiniShogi { repetition: MiniRepetitionRule::Modern, tournament: false };
    let mut moves = vec!["1e2e"];
    moves.extend(cycle(&["5a5b", "2e2d", "5b5a", "2d2e"], 12));
    let game = shogi_game("k4/5/5/5/4K b - 1", modern, &moves);
    let ruling = ruling_of(game.ruling());
    assert_eq!((ruling.law, ruling.against), ("repetition-first-player-loses", Some(First)));
    let Evidence::Repetition(evidence) = &ruling.evidence else { panic!("{ruling:?}") };
    assert_eq!(evidence.cycle_started_by, Second);
}

#[test]
fn a_jishogi_count_lists_both_sides_piece_by_piece() {
    let tournament = Ruleset::MiniShogi { repetition: MiniRepetitionRule::Aise, tournament: true };
    let game = shogi_game("5/K4/5/4k/5 b RBGrbg2s2p 1", tournament, &["5b5a", "1d1e"]);
    let ruling = ruling_of(game.ruling());
    assert_eq!((ruling.law, ruling.ply, ruling.against), ("jishogi-count", 2, Some(First)));
    let Evidence::PointCount(evidence) = &ruling.evidence else { panic!("{ruling:?}") };
    assert_eq!(evidence.threshold, Some(11));
    assert_eq!(evidence.kings, [piece("king", First, "5a"), piece("king", Second, "1e")]);
    let hand = |piece, count, points| CountedPiece { piece, square: None, count, points };
    assert_eq!(
        evidence.counts[0],
        SideCount {
            side: First,
            points: 8,
            pieces: vec![hand("rook", 1, 3), hand("bishop", 1, 3), hand("gold", 1, 2)]
        }
    );
    assert_eq!(evidence.counts[1].points, 14);
    assert_eq!(evidence.counts[1].pieces.iter().map(|p| p.points).sum::<u32>(), 14);

    let friendly = shogi_game("5/K4/5/4k/5 b - 1", AISE, &["5b5a", "1d1e"]);
    let ruling = ruling_of(friendly.ruling());
    let Evidence::PointCount(evidence) = &ruling.evidence else { panic!("{ruling:?}") };
    assert_eq!((ruling.law, evidence.threshold, evidence.counts.len()), ("jishogi", None, 0));
}

#[test]
fn an_impasse_count_and_a_declaration_are_explained_piece_by_piece() {
    let mut count = shogi_game("4K4/9/9/9/9/9/9/9/4k4 b RB2G2S2N2L5Prb2g2s2n2l13p 1", SHOGI_24, &[]);
    count.claim(Claim::Impasse).unwrap();
    let ruling = ruling_of(count.ruling());
    assert_eq!((ruling.law, ruling.ply, ruling.against), ("impasse-24", 0, Some(First)));
    let Evidence::PointCount(evidence) = &ruling.evidence else { panic!("{ruling:?}") };
    assert_eq!(evidence.threshold, Some(24));
    assert_eq!((evidence.counts[0].points, evidence.counts[1].points), (23, 31));
    assert!(evidence.counts[0].pieces.contains(&CountedPiece {
        piece: "pawn",
        square: None,
        count: 5,
        points: 5
    }));

    let shogi_27 = Ruleset::Shogi(ImpasseRule::TwentySevenDeclaration);
    let mut declared =
        shogi_game("+P+P+P+P+P4/+P+P+P+P+P1K2/9/9/9/9/9/9/4k4 b RB8P4g4s4n4l 1", shogi_27, &[]);
    declared.claim(Claim::Impasse).unwrap();
    let ruling = ruling_of(declared.ruling());
    assert_eq!((ruling.law, ruling.against), ("impasse-declaration", Some(Second)));
    let Evidence::Declaration(evidence) = &ruling.evidence else { panic!("{ruling:?}") };
    assert!(evidence.valid && evidence.king_in_camp && !evidence.in_check);
    assert_eq!((evidence.pieces_in_camp, evidence.pieces_needed), (10, 10));
    assert_eq!((evidence.points, evidence.points_needed), (28, 28));
    assert_eq!(evidence.king, piece("king", First, "3b"));
    let tokin = CountedPiece { piece: "promoted-pawn", square: Some("9a".into()), count: 1, points: 1 };
    assert!(evidence.pieces.contains(&tokin), "{:?}", evidence.pieces);
}

#[test]
fn flickering_mate_and_repetition_claims_are_explained() {
    let mut game = chess::Game::from_position(chess_fen::parse("7k/8/5K2/8/8/8/8/6Q1 w - - 0 1").unwrap());
    game.play_series(uci::parse_series(game.position(), "g1g7").unwrap().moves()).unwrap();
    let ruling = ruling_of(game.ruling());
    assert_eq!((ruling.law, ruling.ply, ruling.against), ("checkmate", 1, Some(Second)));
    assert_eq!(ruling.citation.spec, "flickering-chess.md");
    let Evidence::NoLegalMove(evidence) = &ruling.evidence else { panic!("{ruling:?}") };
    assert_eq!((evidence.side, evidence.in_check, evidence.legal_moves), (Second, true, 0));

    let mut game = chess::Game::new();
    for text in cycle(&["g1f3", "g8f6", "f3g1", "f6g8"], 8) {
        let series = uci::parse_series(game.position(), text).unwrap();
        game.play_series(series.moves()).unwrap();
    }
    game.claim_repetition().unwrap();
    let ruling = ruling_of(game.ruling());
    assert_eq!((ruling.law, ruling.ply, ruling.against), ("repetition", 8, None));
    let Evidence::Repetition(evidence) = &ruling.evidence else { panic!("{ruling:?}") };
    assert_eq!(evidence.occurrences, [0, 4, 8]);
}

#[test]
fn a_seven_kingdoms_hegemony_names_the_hegemon_and_the_standings() {
    use Kingdom::{Chu, Han, Qin};
    let mut setup = kingdoms::Setup::empty();
    setup.seating = kingdoms::Seating::standard(7).unwrap();
    let pt = |x, y| kingdoms::Point::new(x, y).unwrap();
    for (kingdom, kind, x, y) in [
        (Qin, PieceKind::General, 0, 18),
        (Qin, PieceKind::Deputy, 2, 2),
        (Chu, PieceKind::General, 2, 6),
        (Han, PieceKind::General, 18, 18),
    ] {
        setup.set(pt(x, y), Some(kingdoms::Occupant::Piece(kingdoms::Piece { kingdom, kind })));
    }
    for kingdom in Kingdom::ALL.into_iter().filter(|k| ![Qin, Chu, Han].contains(k)) {
        setup.records[kingdom.index()].defeat = Some(kingdoms::Defeat::Resigned);
    }
    setup.records[Qin.index()].captured_generals = 1;
    setup.records[Qin.index()].captured_pieces = 1;
    let mut game = kingdoms::Game::from_position(kingdoms::Position::from_setup(setup).unwrap());
    assert_eq!(game.ruling(), None);
    game.play(kingdoms::Move { from: pt(2, 2), to: pt(2, 6) }).unwrap();
    let ruling = game.ruling().expect("hegemony");
    assert_eq!((ruling.law, ruling.ply, ruling.against), ("hegemony-generals", 1, None));
    let Evidence::SevenKingdoms(evidence) = &ruling.evidence else { panic!("{ruling:?}") };
    assert_eq!((evidence.seat, evidence.generals_needed, evidence.pieces_needed), (Some(0), 2, 30));
    let hegemon = &evidence.standings[0];
    assert_eq!((hegemon.seat, hegemon.captured_generals, hegemon.winner), (0, 2, true));
    assert_eq!(hegemon.kingdoms, ["Qin"]);
}

#[test]
fn the_facade_gives_the_ruling_once_a_law_ends_the_game() {
    let mut game = AnyGame::new(Variant::Xiangqi, Some("3k5/R8/9/9/9/9/9/9/9/4K3R w - - 0 1")).unwrap();
    assert_eq!(game.ruling(), None);
    game.play("i0i9").unwrap();
    let ruling = game.ruling().expect("checkmate");
    assert_eq!((ruling.law, ruling.ply), ("checkmate", 1));
    let dry = AnyGame::new(Variant::Shogi, None).unwrap();
    assert_eq!(dry.ruling(), None, "no ruling while the game goes on");
}
