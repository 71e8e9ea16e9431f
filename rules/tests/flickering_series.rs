//! Series legality, one test per rule of flickering-chess.md "The series".

use tavoliere_rules::chess::{Game, Move, MoveKind, Position, Role, Series, SeriesErrorKind, Square};
use tavoliere_rules::notation::chess::{algebraic, fen, uci, NotationError};
use tavoliere_rules::{Color, EndReason, Outcome};

fn pos(fen_text: &str) -> Position {
    fen::parse(fen_text).unwrap_or_else(|e| panic!("{fen_text}: {e}"))
}

fn sq(name: &str) -> Square {
    name.parse().unwrap()
}

/// Plays the given coordinate moves as the start of a series.
fn series_after(start: &Position, moves: &str) -> Series {
    let mut series = Series::new(start.clone());
    for token in moves.split_whitespace() {
        let m = uci::parse_move(&series, token).unwrap_or_else(|e| panic!("{token}: {e}"));
        series.push(m).unwrap();
    }
    series
}

fn error_of(series: &Series, coordinate: &str) -> SeriesErrorKind {
    let from = sq(&coordinate[0..2]);
    let to = sq(&coordinate[2..4]);
    let m = Move { from, to, kind: MoveKind::Normal };
    series.clone().push(m).expect_err(coordinate).kind
}

#[test]
fn the_series_each_piece_moves_at_most_once() {
    let series = series_after(&Position::new(), "e2e4");
    assert_eq!(error_of(&series, "e4e5"), SeriesErrorKind::PieceAlreadyMoved);
    // Other pieces may still move, in any order.
    let series = series_after(&Position::new(), "e2e4 g1f3 d2d4 f1c4");
    assert_eq!(series.moves().len(), 4);
    assert!(series.can_end());
}

#[test]
fn the_series_must_have_at_least_one_move() {
    let series = Series::new(Position::new());
    assert!(!series.can_end());
    assert_eq!(series.finish().unwrap_err().kind, SeriesErrorKind::EmptySeries);
}

#[test]
fn the_series_side_to_move_changes_only_when_the_series_ends() {
    let series = series_after(&Position::new(), "e2e4 d2d4");
    assert_eq!(series.current().turn(), Color::First);
    let next = series.finish().unwrap();
    assert_eq!(next.turn(), Color::Second);
    assert_eq!(next.fullmove_number(), 1);
    let after_black =
        Series::play(&next, &[uci::parse_move(&Series::new(next.clone()), "e7e5").unwrap()]).unwrap();
    assert_eq!(after_black.fullmove_number(), 2);
}

#[test]
fn the_series_castling_counts_as_the_move_of_king_and_rook() {
    let start = pos("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    let series = series_after(&start, "e1g1");
    assert_eq!(series.current().piece_at(sq("f1")).map(|p| p.role), Some(Role::Rook));
    assert_eq!(error_of(&series, "f1f5"), SeriesErrorKind::PieceAlreadyMoved);
    assert_eq!(error_of(&series, "g1g2"), SeriesErrorKind::PieceAlreadyMoved);
    // The other rook is free.
    assert!(series.clone().push(Move { from: sq("a1"), to: sq("a5"), kind: MoveKind::Normal }).is_ok());
    // A rook that moved in the series cannot castle any more.
    let series = series_after(&start, "h1h5");
    let castle = Move { from: sq("e1"), to: sq("g1"), kind: MoveKind::Castle };
    assert_eq!(series.clone().push(castle).unwrap_err().kind, SeriesErrorKind::NotAMove);
}

#[test]
fn the_series_castling_is_judged_when_played_within_the_series() {
    // The e-file check forbids castling at the start; blocking it first allows it.
    let start = pos("4r1k1/8/8/8/8/8/8/2N1K2R w K - 0 1");
    let castle = Move { from: sq("e1"), to: sq("g1"), kind: MoveKind::Castle };
    assert_eq!(Series::new(start.clone()).push(castle).unwrap_err().kind, SeriesErrorKind::NotAMove);
    let series = algebraic::parse_series(&start, "a) Ne2, O-O").unwrap();
    assert_eq!(series.moves()[1], castle);
    // Castling from the start position in one series, after clearing the way.
    let series = algebraic::parse_series(&Position::new(), "a) e4, Nf3, Bc4, O-O").unwrap();
    assert!(series.can_end());
}

#[test]
fn the_series_a_piece_freed_by_an_earlier_move_may_move() {
    let start = Position::new();
    let initial = Series::new(start.clone());
    assert!(initial.legal_next_moves().iter().all(|m| m.from != sq("f1")), "the bishop is shut in");
    let series = series_after(&start, "e2e4");
    let bishop_moves = series.legal_next_moves().iter().filter(|m| m.from == sq("f1")).count();
    assert_eq!(bishop_moves, 5, "e2, d3, c4, b5, a6");
    // The rook a1 goes to a3 after the a-pawn's double step... and the queen out via d2.
    assert!(algebraic::parse_series(&start, "a) a4, Ra3, d3, Qd2, Bd2").is_err(), "the queen blocks d2");
    assert!(algebraic::parse_series(&start, "a) a4, Ra3, d4, Qd3, Bd2").is_ok());
}

#[test]
fn the_series_the_king_never_moves_into_check() {
    // The bishop d2 shields d1 from the rook d8: Kd1 is allowed, but not after the
    // bishop has left the d-file.
    let start = pos("3r2k1/8/8/8/8/8/3B4/4K3 w - - 0 1");
    assert!(series_after(&start, "e1d1").can_end());
    let series = series_after(&start, "d2e3");
    assert_eq!(error_of(&series, "e1d1"), SeriesErrorKind::KingIntoCheck);
    assert_eq!(
        algebraic::parse_series(&start, "a) Be3, Kd1"),
        Err(NotationError::Series(tavoliere_rules::chess::SeriesError {
            kind: SeriesErrorKind::KingIntoCheck,
            index: 1
        }))
    );
}

#[test]
fn the_series_the_king_may_be_exposed_meanwhile_but_not_at_the_end() {
    // Kd1 first (safe then, behind the bishop), then the bishop leaves and exposes the
    // king to the rook d8: allowed mid-series, but the series may not end so, until the
    // rook h2 closes the d-file again.
    let start = pos("3r2k1/8/8/8/8/8/3B3R/4K3 w - - 0 1");
    let exposed = series_after(&start, "e1d1 d2e3");
    assert!(!exposed.can_end());
    assert_eq!(exposed.finish().unwrap_err().kind, SeriesErrorKind::KingLeftAttacked);
    assert!(series_after(&start, "e1d1 d2e3 h2d2").can_end());
}

#[test]
fn the_series_an_attacking_piece_never_captures_the_king() {
    // The rules' example: White Bb2, Rb1, Black Kb8. After Bc3+ the rook may go to
    // b2..b7 or along the first rank, but not Rxb8.
    let start = pos("1k6/8/8/8/8/8/1B6/1R5K w - - 0 1");
    let series = series_after(&start, "b2c3");
    let enemy_king = series.current().king(Color::Second);
    assert!(series.current().is_attacked(enemy_king, Color::First), "Bc3 gives a discovered check");
    let mut rook_targets: Vec<String> =
        series.legal_next_moves().iter().filter(|m| m.from == sq("b1")).map(|m| m.to.to_string()).collect();
    rook_targets.sort();
    assert_eq!(rook_targets, ["a1", "b2", "b3", "b4", "b5", "b6", "b7", "c1", "d1", "e1", "f1", "g1"]);
    assert_eq!(error_of(&series, "b1b8"), SeriesErrorKind::CapturesKing);
    let written = algebraic::write_series(&start, &[series.moves()[0]]).unwrap();
    assert_eq!(written, "a) Bc3+");
    assert!(matches!(algebraic::parse_series(&start, "a) Bc3+, R:b8"), Err(NotationError::Series(_))));
}

#[test]
fn the_series_a_king_attacked_at_the_start_must_be_freed_by_the_end() {
    // The rook e2 checks; other moves may come first, the threat must be gone at the end.
    let start = pos("4k3/8/8/8/8/8/4r3/R3K3 w - - 0 1");
    assert!(start.is_check());
    let series = series_after(&start, "a1a5");
    assert!(!series.can_end());
    assert_eq!(series.finish().unwrap_err().kind, SeriesErrorKind::KingLeftAttacked);
    assert!(series_after(&start, "a1a5 e1e2").can_end(), "the king takes the rook last");
}

#[test]
fn the_series_several_en_passant_captures_in_one_series() {
    // Black double-steps two pawns in one series; White may take both en passant
    // during its whole next series, in any order and after other moves.
    let start = pos("4k3/2p1p3/8/1P3P2/8/8/8/4K3 b - - 0 1");
    let after_black = algebraic::parse_series(&start, "b) c5, e5").unwrap().finish().unwrap();
    assert_eq!(fen::write(&after_black), "4k3/8/8/1Pp1pP2/8/8/8/4K3 w - c6e6 0 2");
    let series = algebraic::parse_series(&after_black, "a) Kd2, b:c6, f:e6").unwrap();
    let after_white = series.finish().unwrap();
    assert_eq!(fen::write(&after_white), "4k3/8/2P1P3/8/8/8/3K4/8 b - - 0 2");
    assert_eq!(series.moves()[1].kind, MoveKind::EnPassant);
    // The right lasts one series only.
    let after_white = algebraic::parse_series(&after_black, "a) Kd2").unwrap().finish().unwrap();
    let after_black = algebraic::parse_series(&after_white, "b) Kd8").unwrap().finish().unwrap();
    assert!(after_black.en_passant().is_empty());
    assert!(algebraic::parse_series(&after_black, "a) b:c6").is_err());
}

#[test]
fn the_series_several_promotions_in_one_series() {
    let start = pos("4k3/P6P/8/8/8/8/8/4K3 w - - 0 1");
    let series = algebraic::parse_series(&start, "a) a8=Q+, h8=N").unwrap();
    let next = series.finish().unwrap();
    assert_eq!(fen::write(&next), "Q3k2N/8/8/8/8/8/8/4K3 b - - 0 1");
    assert_eq!(algebraic::write_series(&start, series.moves()).unwrap(), "a) a8=Q+, h8=N+");
}

#[test]
fn end_of_the_game_threefold_repetition_is_a_claimable_draw() {
    let mut game = Game::new();
    let knight_dance = ["a) Nf3", "b) Nf6", "a) Ng1", "b) Ng8"];
    for _ in 0..2 {
        assert!(!game.can_claim_repetition());
        for text in knight_dance {
            let series = algebraic::parse_series(game.position(), text).unwrap();
            game.play_series(series.moves()).unwrap();
        }
    }
    assert_eq!(game.repetition_count(), 3);
    assert!(game.can_claim_repetition());
    assert_eq!(game.outcome(), None, "a claimable draw, not an automatic one");
    assert_eq!(game.claim_repetition(), Ok(Outcome::draw(EndReason::Repetition)));
    assert!(game.play_series(&[]).is_err());
}

#[test]
fn end_of_the_game_mate_ends_a_game_and_refuses_further_series() {
    // White mates with one series: Qg7 protected by the king.
    let start = pos("7k/8/5K2/6Q1/8/8/8/8 w - - 0 1");
    let mut game = Game::from_position(start);
    let series = algebraic::parse_series(game.position(), "a) Qg7+").unwrap();
    game.play_series(series.moves()).unwrap();
    assert_eq!(game.outcome(), Some(Outcome::win(Color::First, EndReason::Checkmate)));
    assert!(matches!(game.play_series(series.moves()), Err(tavoliere_rules::chess::GameError::GameOver(_))));
}

#[test]
fn a_move_stays_small() {
    assert!(std::mem::size_of::<Move>() <= 4);
}
