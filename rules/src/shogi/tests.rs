use super::*;
use crate::Color;

#[test]
fn a_move_stays_small() {
    assert!(std::mem::size_of::<Move>() <= 4, "{}", std::mem::size_of::<Move>());
}

#[test]
fn start_positions_have_the_known_move_counts() {
    assert_eq!(Position::startpos(Variant::Standard).legal_moves().len(), 30);
    assert_eq!(Position::startpos(Variant::Mini).legal_moves().len(), 14);
    assert_eq!(perft(&Position::startpos(Variant::Standard), 3), 25470);
}

#[test]
fn a_setup_without_a_king_is_rejected() {
    let mut setup = Setup::startpos(Variant::Standard);
    setup.board[Square::new(5, 9).unwrap().index()] = None;
    assert_eq!(Position::from_setup(setup), Err(PositionError::MissingKing(Color::First)));
}
