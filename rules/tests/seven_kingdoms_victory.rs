//! `seven-kingdoms.md` "Defeat of a kingdom and victory" and "Players and alliances" (the
//! penalty for attacking an ally), plus seats leaving by timeout or resignation.

use tavoliere_rules::seven_kingdoms::{
    Defeat, EndCause, Game, HegemonyKind, IllegalMoveKind, Kingdom, Move, Occupant, Piece, PieceKind, Point,
    Position, PositionError, Seat, SeatError, Seating, Setup,
};

use Kingdom::{Chu, Han, Qi, Qin, Yan};
use PieceKind::*;

fn pt(x: u8, y: u8) -> Point {
    Point::new(x, y).expect("point on the board")
}

fn mv(from: (u8, u8), to: (u8, u8)) -> Move {
    Move { from: pt(from.0, from.1), to: pt(to.0, to.1) }
}

/// A setup with the given pieces and seating, Qin to move; kingdoms without pieces are out.
fn setup(players: u8, pieces: &[(Kingdom, PieceKind, u8, u8)]) -> Setup {
    let mut setup = Setup::empty();
    setup.seating = Seating::standard(players).expect("3 to 7 players");
    for &(kingdom, kind, x, y) in pieces {
        setup.set(pt(x, y), Some(Occupant::Piece(Piece { kingdom, kind })));
    }
    for kingdom in Kingdom::ALL {
        if !pieces.iter().any(|&(k, ..)| k == kingdom) {
            setup.records[kingdom.index()].defeat = Some(Defeat::Resigned);
        }
    }
    setup
}

/// Qin's deputy on (2,2) faces Chu on the same file; Han stays in play far away.
fn three_kingdoms() -> Vec<(Kingdom, PieceKind, u8, u8)> {
    vec![
        (Qin, General, 0, 18),
        (Qin, Deputy, 2, 2),
        (Chu, General, 2, 6),
        (Chu, Broadsword, 2, 4),
        (Chu, Sword, 12, 1),
        (Chu, Catapult, 14, 3),
        (Han, General, 18, 18),
        (Han, Broadsword, 17, 18),
    ]
}

fn count_pieces(pos: &Position, kingdom: Kingdom) -> usize {
    pos.army(kingdom).count()
}

#[test]
fn defeat_a_kingdom_whose_general_is_captured_is_defeated_and_its_army_leaves_the_board() {
    let mut pieces = three_kingdoms();
    pieces.retain(|p| p.1 != Broadsword || p.0 != Chu);
    let pos = Position::from_setup(setup(7, &pieces)).unwrap();
    let next = pos.play(mv((2, 2), (2, 6))).unwrap();
    assert_eq!(next.record(Chu).defeat, Some(Defeat::GeneralCaptured { by: Qin }));
    assert_eq!(count_pieces(&next, Chu), 0, "the defeated army leaves the board");
    assert_eq!(next.piece_at(pt(12, 1)), None);
    let qin = next.record(Qin);
    assert_eq!((qin.captured_pieces, qin.captured_generals, qin.captured_value), (1, 1, 1));
    assert_eq!(next.record(Chu).lost, 1);
    assert_eq!(next.turn(), Han, "the defeated kingdom no longer takes turns");
    assert!(!next.is_game_over());
}

#[test]
fn defeat_a_kingdom_is_defeated_by_its_eleventh_lost_piece() {
    let mut s = setup(7, &three_kingdoms());
    s.records[Chu.index()].lost = 10;
    let pos = Position::from_setup(s).unwrap();
    let next = pos.play(mv((2, 2), (2, 4))).unwrap();
    assert_eq!(next.record(Chu).lost, 11);
    assert_eq!(next.record(Chu).defeat, Some(Defeat::PiecesLost { by: Qin }));
    assert_eq!(count_pieces(&next, Chu), 0, "a kingdom that lost more than ten pieces is removed");
    assert_eq!(next.record(Qin).captured_pieces, 1);
    assert_eq!(next.turn(), Han);
}

#[test]
fn defeat_the_tenth_lost_piece_does_not_defeat() {
    let mut s = setup(7, &three_kingdoms());
    s.records[Chu.index()].lost = 9;
    let pos = Position::from_setup(s).unwrap();
    let next = pos.play(mv((2, 2), (2, 4))).unwrap();
    assert_eq!(next.record(Chu).lost, 10);
    assert!(!next.is_defeated(Chu));
    assert_eq!(count_pieces(&next, Chu), 3);
    assert_eq!(next.turn(), Chu);
}

#[test]
fn defeat_a_setup_with_eleven_losses_in_play_is_rejected() {
    let mut s = setup(7, &three_kingdoms());
    s.records[Chu.index()].lost = 11;
    assert_eq!(Position::from_setup(s), Err(PositionError::TooManyLosses(Chu)));
}

#[test]
fn victory_captures_are_credited_with_their_historical_value() {
    let pieces = vec![
        (Qin, General, 0, 18),
        (Qin, Catapult, 2, 2),
        (Qin, Broadsword, 2, 4),
        (Chu, General, 18, 0),
        (Chu, Catapult, 2, 8),
        (Han, General, 18, 18),
    ];
    let pos = Position::from_setup(setup(7, &pieces)).unwrap();
    let next = pos.play(mv((2, 2), (2, 8))).unwrap();
    assert_eq!(next.record(Qin).captured_value, 3, "a catapult is worth 3");
    assert_eq!(next.record(Qin).captured_pieces, 1);
    assert_eq!(next.record(Han).captured_pieces, 0);
}

#[test]
fn victory_hegemony_by_two_generals() {
    let with_one_general = || {
        let mut s = setup(7, &three_kingdoms());
        s.records[Qin.index()].captured_generals = 1;
        s.records[Qin.index()].captured_pieces = 1;
        s.records[Han.index()].captured_pieces = 5;
        s
    };
    let pos = Position::from_setup(with_one_general()).unwrap();
    assert!(!pos.play(mv((2, 2), (2, 4))).unwrap().is_game_over(), "a broadsword is not a general");
    let mut s = with_one_general();
    s.set(pt(2, 4), None);
    let pos = Position::from_setup(s).unwrap();
    let end = pos.play(mv((2, 2), (2, 6))).unwrap();
    assert_eq!(end.end(), Some(EndCause::Hegemony { seat: Seat(0), kind: HegemonyKind::TwoGenerals }));
    let outcome = end.outcome().unwrap();
    assert_eq!(outcome.winners().collect::<Vec<_>>(), [Seat(0)], "the hegemon wins despite fewer captures");
    assert_eq!(outcome.standing(Seat(2)).unwrap().place, 2);
    assert!(end.legal_moves().is_empty());
    assert_eq!(end.play(mv((17, 18), (16, 18))).unwrap_err().kind, IllegalMoveKind::GameOver);
}

#[test]
fn victory_hegemony_by_thirty_pieces() {
    let mut s = setup(7, &three_kingdoms());
    s.records[Qin.index()].captured_pieces = 29;
    let pos = Position::from_setup(s).unwrap();
    let end = pos.play(mv((2, 2), (2, 4))).unwrap();
    assert_eq!(end.end(), Some(EndCause::Hegemony { seat: Seat(0), kind: HegemonyKind::ThirtyPieces }));
    assert_eq!(end.outcome().unwrap().standings[0].captured_pieces, 30);
}

#[test]
fn victory_hegemony_counts_every_kingdom_of_a_player() {
    // Six players: Qin's player also commands Yan.
    let mut pieces = three_kingdoms();
    pieces.push((Yan, General, 5, 18));
    let mut s = setup(6, &pieces);
    s.set(pt(2, 4), None);
    s.records[Yan.index()].captured_generals = 1;
    s.records[Yan.index()].captured_pieces = 1;
    let pos = Position::from_setup(s).unwrap();
    let end = pos.play(mv((2, 2), (2, 6))).unwrap();
    assert_eq!(end.end(), Some(EndCause::Hegemony { seat: Seat(0), kind: HegemonyKind::TwoGenerals }));
}

#[test]
fn victory_the_game_ends_when_one_alliance_remains() {
    let pieces = vec![(Qin, General, 0, 18), (Qin, Deputy, 2, 2), (Chu, General, 2, 6), (Chu, Sword, 10, 1)];
    let mut s = setup(7, &pieces);
    s.records[Chu.index()].captured_pieces = 4;
    let pos = Position::from_setup(s).unwrap();
    let end = pos.play(mv((2, 2), (2, 6))).unwrap();
    assert_eq!(end.end(), Some(EndCause::LastAlliance { seat: Seat(0) }));
    // The winner is the player who captured the most pieces, even if their army is gone.
    let outcome = end.outcome().unwrap();
    assert_eq!(outcome.winners().collect::<Vec<_>>(), [Seat(1)]);
    assert!(outcome.standing(Seat(1)).unwrap().out);
    assert_eq!(outcome.standing(Seat(0)).unwrap().place, 2);
}

#[test]
fn victory_equal_capture_counts_share_the_win_and_value_is_a_secondary_score() {
    let mut s = setup(7, &three_kingdoms());
    s.records[Qin.index()].captured_pieces = 3;
    s.records[Qin.index()].captured_value = 4;
    s.records[Chu.index()].captured_pieces = 3;
    s.records[Chu.index()].captured_value = 9;
    s.records[Han.index()].captured_pieces = 1;
    let mut pos = Position::from_setup(s).unwrap();
    pos.time_out_seat(Seat(2)).unwrap();
    assert!(!pos.is_game_over());
    pos.time_out_seat(Seat(1)).unwrap();
    assert_eq!(pos.end(), Some(EndCause::LastAlliance { seat: Seat(0) }));
    let outcome = pos.outcome().unwrap();
    let places: Vec<(u8, u8, u32)> =
        outcome.standings.iter().map(|s| (s.seat.0, s.place, s.value_score)).collect();
    assert_eq!(places[..3], [(1, 1, 9), (0, 1, 4), (2, 3, 0)]);
    assert_eq!(outcome.winners().collect::<Vec<_>>(), [Seat(1), Seat(0)]);
    assert!(outcome.standings[3..].iter().all(|s| s.place == 4 && !s.winner));
}

#[test]
fn alliances_attacking_an_ally_removes_the_allied_army_without_credit() {
    // Six players: Qin's player also commands Yan; Qin takes Yan's broadsword.
    let pieces = vec![
        (Qin, General, 0, 18),
        (Qin, Deputy, 2, 2),
        (Yan, General, 5, 18),
        (Yan, Broadsword, 2, 5),
        (Chu, General, 18, 0),
    ];
    let pos = Position::from_setup(setup(6, &pieces)).unwrap();
    assert!(pos.is_legal(mv((2, 2), (2, 5))), "attacking an ally is allowed, and punished");
    let next = pos.play(mv((2, 2), (2, 5))).unwrap();
    assert_eq!(next.record(Yan).defeat, Some(Defeat::AllyAttack { by: Qin }));
    assert_eq!(count_pieces(&next, Yan), 0, "the allied army is removed from the board");
    assert_eq!(next.record(Qin).captured_pieces, 0, "no credit for attacking one's own alliance");
    assert_eq!(next.piece_at(pt(2, 5)), Some(Occupant::Piece(Piece { kingdom: Qin, kind: Deputy })));
    assert_eq!(next.turn(), Chu);
}

#[test]
fn alliances_with_seven_players_every_capture_is_an_ordinary_one() {
    let pieces = vec![
        (Qin, General, 0, 18),
        (Qin, Deputy, 2, 2),
        (Yan, General, 5, 18),
        (Yan, Broadsword, 2, 5),
        (Chu, General, 18, 0),
    ];
    let next = Position::from_setup(setup(7, &pieces)).unwrap().play(mv((2, 2), (2, 5))).unwrap();
    assert!(!next.is_defeated(Yan));
    assert_eq!(next.record(Qin).captured_pieces, 1);
}

#[test]
fn turn_order_skips_defeated_kingdoms_and_wraps_from_yan_to_qin() {
    let mut game = Game::default();
    game.time_out_seat(Seat(1)).unwrap();
    game.play(mv((0, 12), (4, 15))).unwrap();
    assert_eq!(game.turn(), Han, "Chu is out");
    for _ in 0..4 {
        let first = game.position().legal_moves()[0];
        game.play(first).unwrap();
    }
    assert_eq!(game.turn(), Yan);
    let first = game.position().legal_moves()[0];
    game.play(first).unwrap();
    assert_eq!(game.turn(), Qin);
}

#[test]
fn timeout_a_seat_that_times_out_leaves_the_board_and_the_game_goes_on() {
    let mut game = Game::default();
    game.play(mv((0, 12), (4, 15))).unwrap();
    assert_eq!(game.turn(), Chu);
    game.time_out_seat(Seat(1)).unwrap();
    assert_eq!(game.position().record(Chu).defeat, Some(Defeat::TimedOut));
    assert_eq!(count_pieces(game.position(), Chu), 0);
    assert_eq!(game.turn(), Han, "the turn passes on from the seat that timed out");
    assert!(!game.is_over());
    assert_eq!(game.time_out_seat(Seat(1)), Err(SeatError::AlreadyOut(Seat(1))));
    assert_eq!(game.time_out_seat(Seat(7)), Err(SeatError::NoSuchSeat(Seat(7))));
    assert_eq!(game.ply(), 1);
    assert_eq!(game.events().len(), 2);
}

#[test]
fn timeout_a_resigning_seat_loses_every_kingdom_it_commands() {
    // Three players: seat 0 commands Qin, Han and Yan.
    let mut game = Game::new(Seating::standard(3).unwrap());
    game.resign_seat(Seat(0)).unwrap();
    for k in [Qin, Han, Yan] {
        assert_eq!(game.position().record(k).defeat, Some(Defeat::Resigned), "{k}");
        assert_eq!(count_pieces(game.position(), k), 0);
    }
    assert_eq!(game.turn(), Chu);
    assert_eq!(game.seat_to_move(), Seat(1));
    assert!(!game.is_over());
    game.resign_seat(Seat(2)).unwrap();
    assert_eq!(game.position().end(), Some(EndCause::LastAlliance { seat: Seat(1) }));
    assert_eq!(game.resign_seat(Seat(1)), Err(SeatError::GameOver));
    assert!(game.position().is_defeated(Qi));
}

#[test]
fn turn_order_a_kingdom_without_a_legal_move_passes() {
    // Chu's lone general in the corner is walled in by diplomats, which it cannot capture.
    let pieces = vec![
        (Qin, General, 0, 18),
        (Qin, Diplomat, 1, 0),
        (Chu, General, 0, 0),
        (Han, General, 18, 18),
        (Han, Diplomat, 0, 1),
        (Kingdom::Wei, General, 18, 10),
        (Kingdom::Wei, Diplomat, 1, 1),
    ];
    let pos = Position::from_setup(setup(7, &pieces)).unwrap();
    assert!(pos.moves_of(Chu).is_empty());
    let next = pos.play(mv((0, 18), (0, 17))).unwrap();
    assert_eq!(next.turn(), Han, "Chu has no legal move and passes");
    assert!(!next.is_defeated(Chu));
}

#[test]
fn timeout_a_game_ended_by_a_timeout_stays_a_valid_position() {
    let pieces = vec![(Qin, General, 0, 18), (Chu, General, 18, 0)];
    let mut pos = Position::from_setup(setup(7, &pieces)).unwrap();
    pos.time_out_seat(Seat(0)).unwrap();
    assert_eq!(pos.end(), Some(EndCause::LastAlliance { seat: Seat(1) }));
    assert_eq!(pos.turn(), Chu);
    assert_eq!(Position::from_setup(pos.to_setup()), Ok(pos));
}
